//===- MLIRGenFunctions.cpp - User functions, traced per call ---*- C++ -*-===//
//
// A user function is traced anew at each call, in its own scope: its
// parameters bound to the call's arguments, its `return` (at compile time,
// or at run time through kReturnedFlag and kResultName) giving the call's
// value (docs/language.md §14).
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "cmm/Frontend/Diagnostic.h"
#include "cmmrt/Numbers.h"

using namespace cmm;
using namespace cmm::mlirgen;

bool MLIRGenImpl::registerFunctions(const Program &program) {
  for (const auto &def : program.functions) {
    if (isBuiltin(def->name)) {
      error(def->nameLoc, "'" + def->name +
                              "' is a built-in function; a user function may "
                              "not shadow it");
      return false;
    }
    if (def->name == "pi" || def->name == "Inf" || def->name == "NaN") {
      error(def->nameLoc,
            "'" + def->name + "' is a built-in constant, not a function name");
      return false;
    }
    auto [it, inserted] = functions.try_emplace(def->name, def.get());
    if (!inserted) {
      error(def->nameLoc,
            "function '" + def->name + "' is defined twice (first at line " +
                llvm::Twine(sm.getLineAndColumn(it->second->nameLoc).first) +
                ")");
      return false;
    }
  }
  return true;
}

MaybeValue MLIRGenImpl::callFunction(const CallExpr &call,
                                     const FunctionDef &def, bool asStatement) {
  const auto &args = call.getArgs();
  if (args.size() != def.params.size())
    return error(call.getLoc(),
                 "'" + def.name + "' takes " + llvm::Twine(def.params.size()) +
                     " argument" + (def.params.size() == 1 ? "" : "s") +
                     ", got " + llvm::Twine(args.size()));
  if (!asStatement && !def.returnsValue)
    return error(call.getLoc(), "'" + def.name +
                                    "' returns nothing; call it as a "
                                    "statement");
  // Every call is traced: a recursion that ends but branches (fib(90))
  // counts toward the traced iterations rather than running for ever.
  if (++totalIterations > options.limits.iterations)
    return error(call.getLoc(),
                 "the program traces more than " +
                     llvm::Twine(options.limits.iterations) +
                     " loop iterations and function calls (both are traced "
                     "at compile time)");
  if (callDepth >= options.limits.callDepth)
    return error(call.getLoc(),
                 "calls of user functions nest more than " +
                     llvm::Twine(options.limits.callDepth) +
                     " deep (recursion must end at compile time)");
  // Arguments are evaluated in the caller's scope and passed by value.
  llvm::StringMap<TraceValue> scope;
  for (size_t i = 0; i < args.size(); ++i) {
    MaybeValue v = eval(*args[i]);
    if (!v)
      return std::nullopt;
    scope[def.params[i].first] = *v;
  }
  // The body sees only its parameters (and functions and constants); it
  // has not returned yet.
  scope[kReturnedFlag] = TraceValue::ofScalar(0);
  std::swap(env, scope);
  llvm::StringMap<RegionLocal> callerLocals;
  std::swap(regionLocalNames, callerLocals);
  auto [line, col] = sm.getLineAndColumn(call.getLoc());
  loopIterations.push_back(
      static_cast<int64_t>(cmmrt::mix64((uint64_t(line) << 32) | col) >> 1));
  frames.push_back({Frame::Call, call.getLoc(), def.name});
  ++callDepth;
  Flow flow = genBlock(def.body);
  --callDepth;
  if (flow == Flow::Failed)
    return std::nullopt; // the frames stay for the error's notes
  uint8_t exits = exitsOf(flow);
  std::optional<TraceValue> result;
  if (exits & ExitReturn)
    result = lookup(kResultName);
  frames.pop_back();
  loopIterations.pop_back();
  std::swap(env, scope);
  std::swap(regionLocalNames, callerLocals);
  if (asStatement)
    return result ? *result : TraceValue::ofScalar(0);
  if (!result)
    return error(call.getLoc(), "this call of '" + def.name +
                                    "' ended without returning a value");
  if (exits & ExitNext)
    return error(call.getLoc(),
                 "this call of '" + def.name +
                     "' may end without returning a value: its 'return' is "
                     "decided at run time and some path reaches the end of "
                     "the function");
  return *result;
}
