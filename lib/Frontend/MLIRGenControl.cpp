//===- MLIRGenControl.cpp - Conditions, control flow, functions -*- C++ -*-===//
//
// Compile-time conditions are decided while tracing: an `if` traces its
// taken branch, a `while` is unrolled like `for`, and a user function is
// traced anew at each call in its own scope (docs/language.md §14).
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "cmm/Frontend/Diagnostic.h"
#include "cmmrt/Format.h"
#include "cmmrt/Numbers.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace cmm;
using namespace cmm::mlirgen;

Flow MLIRGenImpl::genFor(const ForStmt &stmt) {
  auto *range = llvm::dyn_cast<RangeExpr>(&stmt.getRange());
  if (!range) {
    error(stmt.getRange().getLoc(),
          "a 'for' loop needs a range 'a:b' with compile-time bounds");
    return Flow::Failed;
  }
  std::optional<int64_t> lo = toInteger(range->getLo(), "loop start");
  if (!lo)
    return Flow::Failed;
  std::optional<int64_t> hi = toInteger(range->getHi(), "loop end");
  if (!hi)
    return Flow::Failed;
  int64_t trips = *hi >= *lo ? *hi - *lo + 1 : 0;
  totalIterations += trips;
  if (trips > kMaxLoopIterations || totalIterations > kMaxLoopIterations) {
    error(range->getLoc(), "the loops trace more than " +
                               llvm::Twine(kMaxLoopIterations) +
                               " iterations (loops are unrolled at compile "
                               "time)");
    return Flow::Failed;
  }

  std::string var = stmt.getVar().str();
  std::optional<TraceValue> shadowed;
  if (auto it = env.find(var); it != env.end())
    shadowed = it->second;
  Flow flow = Flow::Next;
  for (int64_t i = *lo; i <= *hi; ++i) {
    env[var] = TraceValue::ofScalar(static_cast<double>(i));
    loopIterations.push_back(i);
    frames.push_back({Frame::For, stmt.getLoc(), stmt.getVar()});
    flow = genBlock(stmt.getBody());
    if (flow == Flow::Failed)
      return flow; // tracing stops at the first error
    frames.pop_back();
    loopIterations.pop_back();
    if (flow != Flow::Next)
      break;
  }
  // The loop variable is local to the loop.
  if (shadowed)
    env[var] = *shadowed;
  else
    env.erase(var);
  return flow == Flow::Break ? Flow::Next : flow;
}

std::optional<bool> MLIRGenImpl::decideCondition(const Expr &condition,
                                                 llvm::StringRef construct) {
  MaybeValue value =
      toCondition(condition, ("the condition of " + construct).str());
  if (!value)
    return std::nullopt;
  if (!value->isScalar()) {
    error(condition.getLoc(),
          "this condition depends on matrix values and is decided at run "
          "time; run-time " +
              construct +
              " is not implemented yet (a compile-time condition is traced)");
    return std::nullopt;
  }
  if (std::isnan(value->scalar)) {
    error(condition.getLoc(), "the condition of " + construct + " is NaN");
    return std::nullopt;
  }
  return value->scalar != 0;
}

Flow MLIRGenImpl::genWhile(const WhileStmt &stmt) {
  for (int64_t iteration = 1;; ++iteration) {
    std::optional<bool> go = decideCondition(stmt.getCondition(), "'while'");
    if (!go)
      return Flow::Failed;
    if (!*go)
      return Flow::Next;
    if (++totalIterations > kMaxLoopIterations) {
      error(stmt.getLoc(),
            "the loops trace more than " + llvm::Twine(kMaxLoopIterations) +
                " iterations (a 'while' whose condition is known at compile "
                "time is unrolled; does this one end?)");
      return Flow::Failed;
    }
    loopIterations.push_back(iteration);
    frames.push_back({Frame::While, stmt.getLoc(), ""});
    Flow flow = genBlock(stmt.getBody());
    if (flow == Flow::Failed)
      return flow;
    frames.pop_back();
    loopIterations.pop_back();
    if (flow == Flow::Break)
      return Flow::Next;
    if (flow == Flow::Return)
      return flow;
  }
}

Flow MLIRGenImpl::genIf(const IfStmt &stmt) {
  for (const IfStmt::Clause &clause : stmt.getClauses()) {
    std::optional<bool> taken = decideCondition(*clause.condition, "'if'");
    if (!taken)
      return Flow::Failed;
    if (*taken)
      return genBlock(clause.body);
  }
  return genBlock(stmt.getElse());
}

Flow MLIRGenImpl::genReturn(const ReturnStmt &stmt) {
  if (!stmt.getValue()) {
    returnValue.reset();
    return Flow::Return;
  }
  MaybeValue value = eval(*stmt.getValue());
  if (!value)
    return Flow::Failed;
  returnValue = *value;
  return Flow::Return;
}

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
  if (callDepth >= kMaxCallDepth)
    return error(call.getLoc(),
                 "calls of user functions nest more than " +
                     llvm::Twine(kMaxCallDepth) +
                     " deep (recursion must end at compile time)");
  // Arguments are evaluated in the caller's scope and passed by value.
  llvm::StringMap<TraceValue> scope;
  for (size_t i = 0; i < args.size(); ++i) {
    MaybeValue v = eval(*args[i]);
    if (!v)
      return std::nullopt;
    scope[def.params[i].first] = *v;
  }
  // The body sees only its parameters (and functions and constants).
  std::swap(env, scope);
  auto [line, col] = sm.getLineAndColumn(call.getLoc());
  loopIterations.push_back(
      static_cast<int64_t>(cmmrt::mix64((uint64_t(line) << 32) | col) >> 1));
  frames.push_back({Frame::Call, call.getLoc(), def.name});
  ++callDepth;
  returnValue.reset();
  Flow flow = genBlock(def.body);
  --callDepth;
  if (flow == Flow::Failed)
    return std::nullopt; // the frames stay for the error's notes
  frames.pop_back();
  loopIterations.pop_back();
  std::swap(env, scope);
  std::optional<TraceValue> result = std::exchange(returnValue, std::nullopt);
  if (asStatement)
    return result ? *result : TraceValue::ofScalar(0);
  if (!result)
    return error(call.getLoc(), "this call of '" + def.name +
                                    "' ended without returning a value");
  return *result;
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

MaybeValue MLIRGenImpl::toCondition(const Expr &e, llvm::StringRef what) {
  MaybeValue v = eval(e);
  if (!v)
    return std::nullopt;
  if (!v->isScalar() && (rows(v->matrix) != 1 || cols(v->matrix) != 1))
    return error(e.getLoc(), llvm::Twine(what) +
                                 " must be a compile-time scalar or a 1x1 "
                                 "matrix, got a " +
                                 shapeOf(v->matrix) +
                                 " matrix (reduce it, e.g. with norm, sum, "
                                 "maximum or A[i, j])");
  return v;
}

Value MLIRGenImpl::truth(Value v, SMLoc l) {
  // 1 - (v .== 0): 1 for every nonzero value (NaN included).
  auto type = matrixType(1, 1);
  mlir::Location at = loc(l);
  Value zero = asMatrix(TraceValue::ofScalar(0), l);
  Value one = asMatrix(TraceValue::ofScalar(1), l);
  Value isZero = CmpOp::create(builder, at, type, CmpPredicate::EQ, v, zero);
  return SubOp::create(builder, at, type, one, isZero);
}

MaybeValue MLIRGenImpl::evalLogic(const BinaryExpr &expr) {
  const bool isAnd = expr.getOp() == TokenKind::AndAnd;
  std::string what = "an operand of " + spell(expr.getOp()).str();
  MaybeValue lhs = toCondition(expr.getLhs(), what);
  if (!lhs)
    return std::nullopt;
  // A compile-time left side decides alone when it can (short circuit):
  // the right side is not traced at all.
  if (lhs->isScalar()) {
    bool value = lhs->scalar != 0;
    if (isAnd != value)
      return TraceValue::ofScalar(value ? 1 : 0);
  }
  MaybeValue rhs = toCondition(expr.getRhs(), what);
  if (!rhs)
    return std::nullopt;
  if (lhs->isScalar() && rhs->isScalar())
    return TraceValue::ofScalar(rhs->scalar != 0 ? 1 : 0);
  SMLoc l = expr.getLoc();
  // At run time both sides are evaluated (they have no side effects).
  auto asTruth = [&](TraceValue v) {
    return v.isScalar() ? asMatrix(TraceValue::ofScalar(v.scalar != 0), l)
                        : truth(v.matrix, l);
  };
  Value a = asTruth(*lhs), b = asTruth(*rhs);
  auto type = matrixType(1, 1);
  if (isAnd)
    return TraceValue::ofMatrix(MulOp::create(builder, loc(l), type, a, b));
  return TraceValue::ofMatrix(MaxOp::create(builder, loc(l), type, a, b));
}

MaybeValue MLIRGenImpl::evalScalarComparison(const BinaryExpr &expr) {
  TokenKind op = expr.getOp();
  auto check = [&](const Expr &side) -> MaybeValue {
    MaybeValue v = eval(side);
    if (!v || v->isScalar() || (rows(v->matrix) == 1 && cols(v->matrix) == 1))
      return v;
    llvm::StringRef elementwise = llvm::StringSwitch<llvm::StringRef>(spell(op))
                                      .Case("'<'", "'.<'")
                                      .Case("'>'", "'.>'")
                                      .Case("'<='", "'.<='")
                                      .Case("'>='", "'.>='")
                                      .Case("'=='", "'.=='")
                                      .Default("'.==' and 1 .- (A .== B)");
    return error(expr.getLoc(), spell(op) +
                                    " compares compile-time scalars or 1x1 "
                                    "matrices, got a " +
                                    shapeOf(v->matrix) + " matrix; use " +
                                    elementwise +
                                    " for an elementwise comparison");
  };
  MaybeValue lhs = check(expr.getLhs());
  if (!lhs)
    return std::nullopt;
  MaybeValue rhs = check(expr.getRhs());
  if (!rhs)
    return std::nullopt;
  if (lhs->isScalar() && rhs->isScalar()) {
    double a = lhs->scalar, b = rhs->scalar;
    bool result = false;
    switch (op) {
    case TokenKind::Lt:
      result = a < b;
      break;
    case TokenKind::Gt:
      result = a > b;
      break;
    case TokenKind::Le:
      result = a <= b;
      break;
    case TokenKind::Ge:
      result = a >= b;
      break;
    case TokenKind::EqEq:
      result = a == b;
      break;
    default:
      result = a != b;
      break;
    }
    return TraceValue::ofScalar(result ? 1 : 0);
  }
  SMLoc l = expr.getLoc();
  Value a = asMatrix(*lhs, l), b = asMatrix(*rhs, l);
  auto type = matrixType(1, 1);
  mlir::Location at = loc(l);
  switch (op) {
  case TokenKind::Lt:
    return TraceValue::ofMatrix(
        CmpOp::create(builder, at, type, CmpPredicate::LT, a, b));
  case TokenKind::Gt:
    return TraceValue::ofMatrix(
        CmpOp::create(builder, at, type, CmpPredicate::GT, a, b));
  case TokenKind::Le:
    return TraceValue::ofMatrix(
        CmpOp::create(builder, at, type, CmpPredicate::LE, a, b));
  case TokenKind::Ge:
    return TraceValue::ofMatrix(
        CmpOp::create(builder, at, type, CmpPredicate::GE, a, b));
  case TokenKind::EqEq:
    return TraceValue::ofMatrix(
        CmpOp::create(builder, at, type, CmpPredicate::EQ, a, b));
  default: {
    // a != b is 1 - (a == b): true for NaN, as IEEE has it.
    Value equal = CmpOp::create(builder, at, type, CmpPredicate::EQ, a, b);
    Value one = asMatrix(TraceValue::ofScalar(1), l);
    return TraceValue::ofMatrix(SubOp::create(builder, at, type, one, equal));
  }
  }
}

MaybeValue MLIRGenImpl::evalNot(const UnaryExpr &expr) {
  MaybeValue v = toCondition(expr.getOperand(), "the operand of '!'");
  if (!v)
    return std::nullopt;
  if (v->isScalar())
    return TraceValue::ofScalar(v->scalar == 0 ? 1 : 0);
  SMLoc l = expr.getLoc();
  Value zero = asMatrix(TraceValue::ofScalar(0), l);
  return TraceValue::ofMatrix(CmpOp::create(builder, loc(l), matrixType(1, 1),
                                            CmpPredicate::EQ, v->matrix, zero));
}
