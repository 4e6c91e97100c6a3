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

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <memory>
#include <set>

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

namespace {
/// A block traced on its own before it is moved into an op: if it is not
/// (an error), its ops are dropped with their uses of each other.
struct BlockDropper {
  void operator()(mlir::Block *block) const {
    block->dropAllDefinedValueUses();
    block->dropAllReferences();
    delete block;
  }
};
using DetachedBlock = std::unique_ptr<mlir::Block, BlockDropper>;
} // namespace

MLIRGenImpl::Decision MLIRGenImpl::decideCondition(const Expr &condition,
                                                   llvm::StringRef construct) {
  // Traced into a scratch block first. A compile-time condition's ops then
  // join the program where the condition stands (a function it calls may
  // print or save); a run-time one's are dropped, and it is traced again
  // inside its cmm.while or before its cmm.if.
  mlir::Block *home = builder.getInsertionBlock();
  mlir::Block::iterator at = builder.getInsertionPoint();
  auto savedBefore = savedFiles;
  size_t savesBefore = saveCount;
  DetachedBlock scratch(new mlir::Block());
  MaybeValue value;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(scratch.get());
    value = toCondition(condition, ("the condition of " + construct).str());
  }
  if (!value)
    return Decision::Failed;
  if (!value->isScalar()) {
    savedFiles = std::move(savedBefore);
    saveCount = savesBefore;
    return Decision::RunTime;
  }
  home->getOperations().splice(at, scratch->getOperations());
  if (std::isnan(value->scalar)) {
    error(condition.getLoc(), "the condition of " + construct + " is NaN");
    return Decision::Failed;
  }
  return value->scalar != 0 ? Decision::True : Decision::False;
}

/// The names `stmts` assign (to a whole variable or a block of one), in
/// nested blocks too; a `for` variable is the loop's own.
static void collectAssigned(const std::vector<StmtPtr> &stmts,
                            llvm::SetVector<llvm::StringRef> &names) {
  for (const StmtPtr &stmt : stmts) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      names.insert(assign->getName());
    } else if (auto *block = llvm::dyn_cast<IndexAssignStmt>(stmt.get())) {
      names.insert(block->getName());
    } else if (auto *loop = llvm::dyn_cast<ForStmt>(stmt.get())) {
      llvm::SetVector<llvm::StringRef> inner;
      collectAssigned(loop->getBody(), inner);
      for (llvm::StringRef name : inner)
        if (name != loop->getVar())
          names.insert(name);
    } else if (auto *loop = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectAssigned(loop->getBody(), names);
    } else if (auto *branch = llvm::dyn_cast<IfStmt>(stmt.get())) {
      for (const IfStmt::Clause &clause : branch->getClauses())
        collectAssigned(clause.body, names);
      collectAssigned(branch->getElse(), names);
    }
  }
}

/// The files `stmts` save (a `save` statement with a literal path), in
/// nested blocks too, lexically normalised.
static void collectSaved(const std::vector<StmtPtr> &stmts,
                         std::set<std::string> &paths) {
  for (const StmtPtr &stmt : stmts) {
    if (auto *e = llvm::dyn_cast<ExprStmt>(stmt.get())) {
      auto *call = llvm::dyn_cast<CallExpr>(&e->getExpr());
      if (call && call->getCallee() == "save" && !call->getArgs().empty())
        if (auto *path = llvm::dyn_cast<StringExpr>(call->getArgs()[0].get())) {
          llvm::SmallString<128> normal(path->getValue());
          llvm::sys::path::remove_dots(normal, /*remove_dot_dot=*/false);
          paths.insert(std::string(normal));
        }
    } else if (auto *loop = llvm::dyn_cast<ForStmt>(stmt.get())) {
      collectSaved(loop->getBody(), paths);
    } else if (auto *loop = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectSaved(loop->getBody(), paths);
    } else if (auto *branch = llvm::dyn_cast<IfStmt>(stmt.get())) {
      for (const IfStmt::Clause &clause : branch->getClauses())
        collectSaved(clause.body, paths);
      collectSaved(branch->getElse(), paths);
    }
  }
}

std::optional<Value> MLIRGenImpl::carriedValue(llvm::StringRef name,
                                               TraceValue value,
                                               mlir::Type type, SMLoc construct,
                                               llvm::StringRef where) {
  auto expected = mlir::cast<mlir::RankedTensorType>(type);
  Value v = value.isScalar() ? asMatrix(value, construct) : value.matrix;
  if (v.getType() == type)
    return v;
  return error(construct, "'" + name + "' is " +
                              std::to_string(expected.getDimSize(0)) + "x" +
                              std::to_string(expected.getDimSize(1)) + " " +
                              where + " and " + shapeOf(v) +
                              " after it: a variable keeps its shape across a "
                              "construct decided at run time");
}

bool MLIRGenImpl::genRegion(llvm::function_ref<Flow()> trace, SMLoc construct,
                            llvm::StringRef what) {
  frames.push_back({Frame::RunTime, construct, what});
  loopIterations.push_back(0);
  Flow flow = trace();
  if (flow == Flow::Failed)
    return false;
  frames.pop_back();
  loopIterations.pop_back();
  if (flow == Flow::Break) {
    error(construct, "'break' inside " + what + " is not supported yet");
    return false;
  }
  if (flow == Flow::Return) {
    error(construct, "'return' inside " + what + " is not supported yet");
    return false;
  }
  return true;
}

Flow MLIRGenImpl::genWhile(const WhileStmt &stmt) {
  for (int64_t iteration = 1;; ++iteration) {
    Decision go = decideCondition(stmt.getCondition(), "'while'");
    if (go == Decision::Failed)
      return Flow::Failed;
    if (go == Decision::RunTime) {
      if (iteration > 1) {
        error(stmt.getCondition().getLoc(),
              "this condition was known at compile time before iteration " +
                  llvm::Twine(iteration) +
                  " and depends on matrix values now; a loop is either "
                  "traced or decided at run time");
        return Flow::Failed;
      }
      return genRunTimeWhile(stmt);
    }
    if (go == Decision::False)
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

Flow MLIRGenImpl::genRunTimeWhile(const WhileStmt &stmt) {
  // The loop-carried variables: those the body assigns that exist before
  // the loop; a compile-time scalar among them is a 1x1 matrix from here on.
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(stmt.getBody(), assigned);
  std::vector<std::string> carried;
  llvm::SmallVector<Value> inits;
  for (llvm::StringRef name : assigned)
    if (auto it = env.find(name); it != env.end()) {
      carried.push_back(name.str());
      inits.push_back(asMatrix(it->second, stmt.getLoc()));
    }
  llvm::SmallVector<mlir::Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  llvm::SmallVector<mlir::Location> locs(types.size(), loc(stmt.getLoc()));

  auto loop =
      WhileOp::create(builder, loc(stmt.getLoc()), types, inits,
                      stmt.getExpectedTrips()
                          ? builder.getI64IntegerAttr(stmt.getExpectedTrips())
                          : mlir::IntegerAttr());
  llvm::StringMap<TraceValue> outside = env;
  size_t savesBefore = saveCount;
  auto bind = [&](mlir::Block *block) {
    for (size_t i = 0; i < carried.size(); ++i)
      env[carried[i]] = TraceValue::ofMatrix(block->getArgument(i));
  };
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    mlir::Block *before =
        builder.createBlock(&loop.getBefore(), {}, types, locs);
    bind(before);
    MaybeValue condition =
        toCondition(stmt.getCondition(), "the condition of 'while'");
    if (!condition)
      return Flow::Failed;
    ConditionOp::create(builder, loc(stmt.getCondition().getLoc()),
                        asMatrix(*condition, stmt.getCondition().getLoc()),
                        before->getArguments());

    env = outside;
    mlir::Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
    bind(after);
    std::set<std::string> saved;
    collectSaved(stmt.getBody(), saved);
    loopSavedFiles.push_back({saved, saveCount});
    if (!genRegion([&] { return genBlock(stmt.getBody()); }, stmt.getLoc(),
                   "a 'while' loop decided at run time"))
      return Flow::Failed;
    loopSavedFiles.pop_back();
    llvm::SmallVector<Value> next;
    for (size_t i = 0; i < carried.size(); ++i) {
      std::optional<Value> v =
          carriedValue(carried[i], env[carried[i]], types[i], stmt.getLoc(),
                       "when the 'while' loop starts");
      if (!v)
        return Flow::Failed;
      next.push_back(*v);
    }
    EndOp::create(builder, loc(stmt.getLoc()), next);
  }
  forgetRunTimeSaves(savesBefore, stmt.getLoc());
  // After the loop: the carried variables are its results; names first
  // assigned in the body are not defined.
  for (llvm::StringRef name : assigned)
    if (!outside.count(name))
      regionLocalNames[name] = stmt.getLoc();
  env = std::move(outside);
  for (size_t i = 0; i < carried.size(); ++i)
    env[carried[i]] = TraceValue::ofMatrix(loop.getResult(i));
  return Flow::Next;
}

Flow MLIRGenImpl::genIf(const IfStmt &stmt, size_t clause) {
  for (; clause < stmt.getClauses().size(); ++clause) {
    const Expr &condition = *stmt.getClauses()[clause].condition;
    Decision taken = decideCondition(condition, "'if'");
    if (taken == Decision::Failed)
      return Flow::Failed;
    if (taken == Decision::RunTime) {
      MaybeValue value = toCondition(condition, "the condition of 'if'");
      if (!value)
        return Flow::Failed;
      return genRunTimeIf(stmt, clause, *value);
    }
    if (taken == Decision::True)
      return genBlock(stmt.getClauses()[clause].body);
  }
  return genBlock(stmt.getElse());
}

Flow MLIRGenImpl::genRunTimeIf(const IfStmt &stmt, size_t clause,
                               const TraceValue &condition) {
  const IfStmt::Clause &taken = stmt.getClauses()[clause];
  SMLoc at = taken.condition->getLoc();
  // The variables either branch assigns: those that exist before, and
  // those every branch assigns (defined after the `if` either way).
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(taken.body, assigned);
  llvm::SetVector<llvm::StringRef> otherAssigned;
  for (size_t c = clause + 1; c < stmt.getClauses().size(); ++c)
    collectAssigned(stmt.getClauses()[c].body, otherAssigned);
  collectAssigned(stmt.getElse(), otherAssigned);
  llvm::StringMap<TraceValue> outside = env;
  size_t savesBefore = saveCount;

  // Each branch traced into a block of its own; the `else` side holds the
  // remaining clauses (an `elseif` is an `if` in the `else`).
  auto trace = [&](auto &&body) -> DetachedBlock {
    DetachedBlock block(new mlir::Block());
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block.get());
    env = outside;
    if (!body())
      return nullptr;
    return block;
  };
  llvm::StringMap<TraceValue> thenEnv, elseEnv;
  DetachedBlock thenBlock = trace([&] {
    bool ok = genRegion([&] { return genBlock(taken.body); }, at,
                        "an 'if' decided at run time");
    thenEnv = env;
    return ok;
  });
  if (!thenBlock)
    return Flow::Failed;
  DetachedBlock elseBlock = trace([&] {
    // An elseif is an if in the else region.
    bool ok = genRegion(
        [&] {
          return clause + 1 < stmt.getClauses().size()
                     ? genIf(stmt, clause + 1)
                     : genBlock(stmt.getElse());
        },
        at, "an 'if' decided at run time");
    elseEnv = env;
    return ok;
  });
  if (!elseBlock)
    return Flow::Failed;

  // The results: a variable from before keeps its shape; a new one must be
  // assigned on both sides with one shape.
  std::vector<std::string> results;
  llvm::SmallVector<Value> thenValues, elseValues;
  llvm::SmallVector<mlir::Type> types;
  llvm::SetVector<llvm::StringRef> all = assigned;
  all.insert(otherAssigned.begin(), otherAssigned.end());
  for (llvm::StringRef name : all) {
    auto before = outside.find(name);
    bool inThen = thenEnv.count(name), inElse = elseEnv.count(name);
    if (before == outside.end() && !(inThen && inElse)) {
      regionLocalNames[name] = at;
      continue;
    }
    TraceValue t = thenEnv.lookup(name), e = elseEnv.lookup(name);
    mlir::Type type =
        before != outside.end()
            ? asMatrix(before->second, at).getType()
            : (t.isScalar() ? matrixType(1, 1) : t.matrix.getType());
    std::optional<Value> tv, ev;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(thenBlock.get());
      tv = carriedValue(name, t, type, at, "before the 'if'");
      builder.setInsertionPointToEnd(elseBlock.get());
      if (tv)
        ev = carriedValue(name, e, type, at,
                          before != outside.end() ? "before the 'if'"
                                                  : "in its first branch");
    }
    if (!tv || !ev)
      return Flow::Failed;
    results.push_back(name.str());
    thenValues.push_back(*tv);
    elseValues.push_back(*ev);
    types.push_back(type);
  }
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(thenBlock.get());
    EndOp::create(builder, loc(at), thenValues);
    builder.setInsertionPointToEnd(elseBlock.get());
    EndOp::create(builder, loc(at), elseValues);
  }
  forgetRunTimeSaves(savesBefore, at);
  env = std::move(outside);
  Value c = asMatrix(condition, at);
  auto branch = IfOp::create(builder, loc(at), types, c);
  branch.getThenRegion().push_back(thenBlock.release());
  branch.getElseRegion().push_back(elseBlock.release());
  for (size_t i = 0; i < results.size(); ++i)
    env[results[i]] = TraceValue::ofMatrix(branch.getResult(i));
  return Flow::Next;
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
  // Every call is traced: a recursion that ends but branches (fib(90))
  // counts toward the traced iterations rather than running for ever.
  if (++totalIterations > kMaxLoopIterations)
    return error(call.getLoc(),
                 "the program traces more than " +
                     llvm::Twine(kMaxLoopIterations) +
                     " loop iterations and function calls (both are traced "
                     "at compile time)");
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
  llvm::StringMap<SMLoc> callerLocals;
  std::swap(regionLocalNames, callerLocals);
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
  std::swap(regionLocalNames, callerLocals);
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

Value MLIRGenImpl::oneMinus(Value v, SMLoc l) {
  Value one = asMatrix(TraceValue::ofScalar(1), l);
  return SubOp::create(builder, loc(l), matrixType(1, 1), one, v);
}

Value MLIRGenImpl::truth(Value v, SMLoc l) {
  // 1 - (v .== 0): 1 for every nonzero value (NaN included).
  Value zero = asMatrix(TraceValue::ofScalar(0), l);
  return oneMinus(CmpOp::create(builder, loc(l), matrixType(1, 1),
                                CmpPredicate::EQ, v, zero),
                  l);
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
  // Each is its elementwise twin on scalars or 1x1 matrices; a != b is
  // 1 - (a .== b), true for NaN as IEEE has it.
  TokenKind op = expr.getOp();
  const bool negated = op == TokenKind::NotEq;
  TokenKind twin = op == TokenKind::Lt   ? TokenKind::DotLt
                   : op == TokenKind::Gt ? TokenKind::DotGt
                   : op == TokenKind::Le ? TokenKind::DotLe
                   : op == TokenKind::Ge ? TokenKind::DotGe
                                         : TokenKind::DotEq;
  auto check = [&](const Expr &side) -> MaybeValue {
    MaybeValue v = eval(side);
    if (!v || v->isScalar() || (rows(v->matrix) == 1 && cols(v->matrix) == 1))
      return v;
    std::string elementwise =
        negated ? "'.==' and 1 .- (A .== B)" : spell(twin).str();
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
  SMLoc l = expr.getLoc();
  MaybeValue result =
      lhs->isScalar() && rhs->isScalar()
          ? foldScalarBinary(twin, lhs->scalar, rhs->scalar)
          : broadcastOp(twin, l, *lhs, *rhs);
  if (!result || !negated)
    return result;
  if (result->isScalar())
    return TraceValue::ofScalar(1 - result->scalar);
  return TraceValue::ofMatrix(oneMinus(result->matrix, l));
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
