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

std::optional<TraceValue> MLIRGenImpl::lookup(llvm::StringRef name) const {
  if (auto it = env.find(name); it != env.end())
    return it->second;
  return std::nullopt;
}

void MLIRGenImpl::restore(llvm::StringRef name,
                          const std::optional<TraceValue> &value) {
  if (value)
    env[name] = *value;
  else
    env.erase(name);
}

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
  std::optional<TraceValue> shadowed = lookup(var);
  std::optional<TraceValue> outerBroken = lookup(kBrokenFlag);
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
  // The loop variable is local to the loop, and so is a break's flag.
  restore(var, shadowed);
  restore(kBrokenFlag, outerBroken);
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
/// nested blocks too; a `for` variable is the loop's own. A `break` of
/// this loop and a `return` assign their flags (kBrokenFlag, kReturnedFlag,
/// kResultName).
static void collectAssigned(llvm::ArrayRef<StmtPtr> stmts,
                            llvm::SetVector<llvm::StringRef> &names) {
  auto inner = [&](llvm::ArrayRef<StmtPtr> body, llvm::StringRef loopVar) {
    llvm::SetVector<llvm::StringRef> found;
    collectAssigned(body, found);
    for (llvm::StringRef name : found)
      if (name != loopVar && name != kBrokenFlag)
        names.insert(name);
  };
  for (const StmtPtr &stmt : stmts) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      names.insert(assign->getName());
    } else if (auto *block = llvm::dyn_cast<IndexAssignStmt>(stmt.get())) {
      names.insert(block->getName());
    } else if (llvm::isa<BreakStmt>(stmt.get())) {
      names.insert(kBrokenFlag);
    } else if (auto *ret = llvm::dyn_cast<ReturnStmt>(stmt.get())) {
      names.insert(kReturnedFlag);
      if (ret->getValue())
        names.insert(kResultName);
    } else if (auto *loop = llvm::dyn_cast<ForStmt>(stmt.get())) {
      inner(loop->getBody(), loop->getVar());
    } else if (auto *loop = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      inner(loop->getBody(), "");
    } else if (auto *branch = llvm::dyn_cast<IfStmt>(stmt.get())) {
      for (const IfStmt::Clause &clause : branch->getClauses())
        collectAssigned(clause.body, names);
      collectAssigned(branch->getElse(), names);
    }
  }
}

/// The files `stmts` save (a `save` statement with a literal path), in
/// nested blocks too, lexically normalised.
static void collectSaved(llvm::ArrayRef<StmtPtr> stmts,
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
  std::string expectedShape = std::to_string(expected.getDimSize(0)) + "x" +
                              std::to_string(expected.getDimSize(1));
  if (name == kResultName)
    return error(construct, "the function returns a " + expectedShape +
                                " matrix on one path and a " + shapeOf(v) +
                                " matrix on another, decided at run time "
                                "here: every 'return' gives one shape");
  return error(construct, "'" + name + "' is " + expectedShape + " " + where +
                              " and " + shapeOf(v) +
                              " after it: a variable keeps its shape across a "
                              "construct decided at run time");
}

//===----------------------------------------------------------------------===//
// Leaving at run time: `break` and `return` under a run-time condition
//===----------------------------------------------------------------------===//
//
// A `break` or `return` under a cmm.if sets a flag (kBrokenFlag,
// kReturnedFlag; the value in kResultName) that the run-time constructs
// around it carry like a variable. The statements after a construct that
// may have left run under a cmm.if on the flags (genRest), and a cmm.while
// whose body may break tests its flag before its condition, which is then
// not evaluated at all (as in Julia).

uint8_t MLIRGenImpl::exitsOf(Flow flow) const {
  switch (flow) {
  case Flow::Next:
    return ExitNext;
  case Flow::Break:
    return ExitBreak;
  case Flow::Return:
    return ExitReturn;
  case Flow::Mixed:
    return mixedExits;
  case Flow::Failed:
    break;
  }
  return 0;
}

Flow MLIRGenImpl::flowOf(uint8_t exits) {
  if (exits == ExitNext)
    return Flow::Next;
  if (exits == ExitBreak)
    return Flow::Break;
  if (exits == ExitReturn)
    return Flow::Return;
  mixedExits = exits;
  return Flow::Mixed;
}

Value MLIRGenImpl::leavingFlag(llvm::ArrayRef<llvm::StringRef> names, SMLoc l) {
  Value flag;
  for (llvm::StringRef name : names) {
    std::optional<TraceValue> v = lookup(name);
    if (!v || v->isScalar())
      continue; // unset, or known while tracing (0 here: else no Mixed)
    flag =
        flag ? MaxOp::create(builder, loc(l), matrixType(1, 1), flag, v->matrix)
                   .getResult()
             : v->matrix;
  }
  return flag;
}

bool MLIRGenImpl::checkLeave(SMLoc l, llvm::StringRef what, bool toFunction) {
  bool decidedAtRunTime = false;
  for (size_t d = frames.size(); d-- > 0;) {
    const Frame &f = frames[d];
    if (f.kind == Frame::Call)
      return true;
    if (f.kind == Frame::RunTime || f.kind == Frame::RunTimeLoop) {
      if (!toFunction && f.kind == Frame::RunTimeLoop)
        return true;
      decidedAtRunTime = true;
      continue;
    }
    if (f.kind == Frame::For && decidedAtRunTime) {
      error(l, "this '" + what +
                   "' is decided at run time (a condition around it depends "
                   "on matrix values), so it cannot leave the 'for' loop at "
                   "line " +
                   llvm::Twine(sm.getLineAndColumn(f.loc).first) +
                   ": a 'for' is unrolled at compile time; write that loop "
                   "as a 'while'");
      return false;
    }
    // A 'while' traced at compile time whose body leaves at run time is
    // traced again as a cmm.while (genWhile).
    if (!toFunction)
      return true;
  }
  return true;
}

Flow MLIRGenImpl::genBreak(const BreakStmt &stmt) {
  if (!checkLeave(stmt.getLoc(), "break", /*toFunction=*/false))
    return Flow::Failed;
  env[kBrokenFlag] = TraceValue::ofScalar(1);
  return Flow::Break;
}

Flow MLIRGenImpl::genReturn(const ReturnStmt &stmt) {
  if (!checkLeave(stmt.getLoc(), "return", /*toFunction=*/true))
    return Flow::Failed;
  if (stmt.getValue()) {
    MaybeValue value = eval(*stmt.getValue());
    if (!value)
      return Flow::Failed;
    env[kResultName] = *value;
  }
  env[kReturnedFlag] = TraceValue::ofScalar(1);
  return Flow::Return;
}

Flow MLIRGenImpl::genRest(llvm::ArrayRef<StmtPtr> rest, uint8_t exitsSoFar) {
  SMLoc at = rest.front()->getLoc();
  Value leaving = leavingFlag({kBrokenFlag, kReturnedFlag}, at);
  uint8_t left = exitsSoFar & ~ExitNext;
  if (!leaving) { // known while tracing: no path has left
    Flow flow = genBlock(rest);
    return flow == Flow::Failed ? flow : flowOf(left | exitsOf(flow));
  }
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(rest, assigned);
  // The paths that have left keep what they had; their exits are those
  // before, the others' are the rest's.
  return genBranches(
      TraceValue::ofMatrix(leaving), at, [&] { return flowOf(left); },
      [&] { return genBlock(rest); }, assigned,
      "the statements after a 'break' or 'return' decided at run time");
}

MLIRGenImpl::Checkpoint MLIRGenImpl::checkpoint() {
  mlir::Block *block = builder.getInsertionBlock();
  assert(builder.getInsertionPoint() == block->end() &&
         "the tracer appends to its block");
  return {block,
          block->empty() ? nullptr : &block->back(),
          env,
          savedFiles,
          saveCount,
          regionLocalNames,
          runTimeSavedFiles};
}

void MLIRGenImpl::rollback(const Checkpoint &point) {
  // Ops are only appended, so what came after `last` is what was traced
  // since; each is used only by later ones.
  while (!point.block->empty() && &point.block->back() != point.last)
    point.block->back().erase();
  env = point.env;
  savedFiles = point.savedFiles;
  saveCount = point.saveCount;
  regionLocalNames = point.regionLocalNames;
  runTimeSavedFiles = point.runTimeSavedFiles;
}

//===----------------------------------------------------------------------===//
// Loops and branches
//===----------------------------------------------------------------------===//

Flow MLIRGenImpl::genRegion(llvm::function_ref<Flow()> trace, SMLoc construct,
                            llvm::StringRef what, Frame::Kind kind) {
  frames.push_back({kind, construct, what});
  loopIterations.push_back(0);
  Flow flow = trace();
  if (flow == Flow::Failed)
    return flow; // the frames stay for the error's notes
  uint8_t exits = exitsOf(flow);
  frames.pop_back();
  loopIterations.pop_back();
  return flowOf(exits);
}

Flow MLIRGenImpl::genWhile(const WhileStmt &stmt) {
  // If the body may leave under a condition decided at run time, the loop
  // may have to be traced again from here as a cmm.while.
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(stmt.getBody(), assigned);
  std::optional<Checkpoint> start;
  if (assigned.contains(kBrokenFlag) || assigned.contains(kReturnedFlag))
    start = checkpoint();
  std::optional<TraceValue> outerBroken = lookup(kBrokenFlag);
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
    if (flow == Flow::Mixed && start) {
      // The body leaves at run time: the loop cannot be unrolled, so it is
      // a cmm.while from its first iteration on (its counters become 1x1
      // matrices, as any variable a run-time loop assigns).
      rollback(*start);
      return genRunTimeWhile(stmt);
    }
    if (flow == Flow::Break) {
      restore(kBrokenFlag, outerBroken);
      return Flow::Next;
    }
    if (flow == Flow::Return)
      return flow;
  }
}

Flow MLIRGenImpl::genRunTimeWhile(const WhileStmt &stmt) {
  // A `return` in the body carries the returned value out of the loop; if
  // none is set before it, a first trace finds its type.
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(stmt.getBody(), assigned);
  if (assigned.contains(kResultName) && !env.count(kResultName)) {
    Checkpoint start = checkpoint();
    std::optional<mlir::Type> result;
    if (traceRunTimeWhile(stmt, &result) == Flow::Failed)
      return Flow::Failed;
    rollback(start);
    if (result)
      env[kResultName] = TraceValue::ofMatrix(FillOp::create(
          builder, loc(stmt.getLoc()), *result, builder.getF64FloatAttr(0)));
  }
  return traceRunTimeWhile(stmt, nullptr);
}

Flow MLIRGenImpl::traceRunTimeWhile(const WhileStmt &stmt,
                                    std::optional<mlir::Type> *probedResult) {
  // The loop-carried variables: those the body assigns that exist before
  // the loop; a compile-time scalar among them is a 1x1 matrix from here on.
  // A `break` in the body sets the loop's own flag.
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(stmt.getBody(), assigned);
  std::optional<TraceValue> outerBroken = lookup(kBrokenFlag);
  if (assigned.contains(kBrokenFlag))
    env[kBrokenFlag] = TraceValue::ofScalar(0);
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
  uint8_t bodyExits = 0;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    mlir::Block *before =
        builder.createBlock(&loop.getBefore(), {}, types, locs);
    bind(before);
    SMLoc at = stmt.getCondition().getLoc();
    // After a `break` or `return` the condition is not evaluated.
    llvm::SmallVector<llvm::StringRef, 2> flags;
    for (llvm::StringRef flag : {kBrokenFlag, kReturnedFlag})
      if (llvm::is_contained(carried, flag))
        flags.push_back(flag);
    Value left = leavingFlag(flags, at);
    MaybeValue condition;
    if (!left) {
      condition = toCondition(stmt.getCondition(), "the condition of 'while'");
    } else {
      auto stop = IfOp::create(builder, loc(at), matrixType(1, 1), left);
      builder.createBlock(&stop.getThenRegion());
      EndOp::create(builder, loc(at), asMatrix(TraceValue::ofScalar(0), at));
      builder.createBlock(&stop.getElseRegion());
      MaybeValue go =
          toCondition(stmt.getCondition(), "the condition of 'while'");
      if (go)
        EndOp::create(builder, loc(at), asMatrix(*go, at));
      builder.setInsertionPointAfter(stop);
      if (go)
        condition = TraceValue::ofMatrix(stop.getResult(0));
    }
    if (!condition)
      return Flow::Failed;
    ConditionOp::create(builder, loc(at), asMatrix(*condition, at),
                        before->getArguments());

    env = outside;
    mlir::Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
    bind(after);
    std::set<std::string> saved;
    collectSaved(stmt.getBody(), saved);
    loopSavedFiles.push_back({saved, saveCount});
    Flow flow =
        genRegion([&] { return genBlock(stmt.getBody()); }, stmt.getLoc(),
                  "a 'while' loop decided at run time", Frame::RunTimeLoop);
    if (flow == Flow::Failed)
      return flow;
    bodyExits = exitsOf(flow);
    loopSavedFiles.pop_back();
    if (probedResult && env.count(kResultName))
      *probedResult = asMatrix(env[kResultName], stmt.getLoc()).getType();
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
    if (!outside.count(name) && !isFlowName(name))
      regionLocalNames[name] = stmt.getLoc();
  env = std::move(outside);
  for (size_t i = 0; i < carried.size(); ++i)
    env[carried[i]] = TraceValue::ofMatrix(loop.getResult(i));
  restore(kBrokenFlag, outerBroken);
  // The loop ends, or (a `return` in it) returns.
  return flowOf(ExitNext | (bodyExits & ExitReturn));
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
  // The variables either branch assigns (an `elseif` is an `if` in the
  // `else` branch).
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssigned(taken.body, assigned);
  for (size_t c = clause + 1; c < stmt.getClauses().size(); ++c)
    collectAssigned(stmt.getClauses()[c].body, assigned);
  collectAssigned(stmt.getElse(), assigned);
  return genBranches(
      condition, taken.condition->getLoc(),
      [&] { return genBlock(taken.body); },
      [&] {
        return clause + 1 < stmt.getClauses().size() ? genIf(stmt, clause + 1)
                                                     : genBlock(stmt.getElse());
      },
      assigned, "an 'if' decided at run time");
}

Flow MLIRGenImpl::genBranches(const TraceValue &condition, SMLoc at,
                              llvm::function_ref<Flow()> thenBody,
                              llvm::function_ref<Flow()> elseBody,
                              const llvm::SetVector<llvm::StringRef> &assigned,
                              llvm::StringRef what) {
  llvm::StringMap<TraceValue> outside = env;
  size_t savesBefore = saveCount;

  // Each branch traced into a block of its own.
  uint8_t exits = 0;
  auto trace = [&](llvm::function_ref<Flow()> body,
                   llvm::StringMap<TraceValue> &branchEnv) -> DetachedBlock {
    DetachedBlock block(new mlir::Block());
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block.get());
    env = outside;
    Flow flow = genRegion(body, at, what);
    if (flow == Flow::Failed)
      return nullptr;
    exits |= exitsOf(flow);
    branchEnv = env;
    return block;
  };
  llvm::StringMap<TraceValue> thenEnv, elseEnv;
  DetachedBlock thenBlock = trace(thenBody, thenEnv);
  if (!thenBlock)
    return Flow::Failed;
  DetachedBlock elseBlock = trace(elseBody, elseEnv);
  if (!elseBlock)
    return Flow::Failed;

  // The results: a variable from before keeps its shape; a new one must be
  // assigned on both sides with one shape. A flag a side does not set is 0
  // there, and a returned value it does not set is zeros (unused).
  std::vector<std::string> results;
  llvm::SmallVector<Value> thenValues, elseValues;
  llvm::SmallVector<mlir::Type> types;
  for (llvm::StringRef name : assigned) {
    auto before = outside.find(name);
    std::optional<TraceValue> t, e;
    if (auto it = thenEnv.find(name); it != thenEnv.end())
      t = it->second;
    if (auto it = elseEnv.find(name); it != elseEnv.end())
      e = it->second;
    if (!t && !e)
      continue;
    bool isFlag = name == kBrokenFlag || name == kReturnedFlag;
    if (isFlag) {
      t = t.value_or(TraceValue::ofScalar(0));
      e = e.value_or(TraceValue::ofScalar(0));
      if (t->isScalar() && e->isScalar() && t->scalar == e->scalar) {
        outside[name] = *t; // known while tracing after all
        continue;
      }
    }
    if (before == outside.end() && !(t && e)) {
      if (name != kResultName) {
        regionLocalNames[name] = at;
        continue;
      }
    }
    auto typeOf = [&](const TraceValue &v) -> mlir::Type {
      return v.isScalar() ? matrixType(1, 1) : v.matrix.getType();
    };
    mlir::Type type = before != outside.end() ? typeOf(before->second)
                      : t                     ? typeOf(*t)
                                              : typeOf(*e);
    std::optional<Value> tv, ev;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      auto side = [&](mlir::Block *block, const std::optional<TraceValue> &v,
                      llvm::StringRef where) -> std::optional<Value> {
        builder.setInsertionPointToEnd(block);
        if (!v) // a returned value on the side that did not return
          return FillOp::create(builder, loc(at), type,
                                builder.getF64FloatAttr(0))
              .getResult();
        return carriedValue(name, *v, type, at, where);
      };
      tv = side(thenBlock.get(), t, "before the 'if'");
      if (tv)
        ev = side(elseBlock.get(), e,
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
  return flowOf(exits);
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
  // The body sees only its parameters (and functions and constants); it
  // has not returned yet.
  scope[kReturnedFlag] = TraceValue::ofScalar(0);
  std::swap(env, scope);
  llvm::StringMap<SMLoc> callerLocals;
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
