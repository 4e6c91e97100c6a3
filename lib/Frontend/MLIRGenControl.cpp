//===- MLIRGenControl.cpp - Conditions and control flow ---------*- C++ -*-===//
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
  if (trips > options.limits.iterations ||
      totalIterations > options.limits.iterations) {
    error(range->getLoc(), "the loops trace more than " +
                               llvm::Twine(options.limits.iterations) +
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

void cmm::mlirgen::collectAssigned(llvm::ArrayRef<StmtPtr> stmts,
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
      for (const std::string &name : assign->getNames())
        names.insert(name);
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
      return genRunTimeWhile(stmt, assigned);
    }
    if (go == Decision::False)
      return Flow::Next;
    if (++totalIterations > options.limits.iterations) {
      error(stmt.getLoc(),
            "the loops trace more than " +
                llvm::Twine(options.limits.iterations) +
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
      return genRunTimeWhile(stmt, assigned);
    }
    if (flow == Flow::Break) {
      restore(kBrokenFlag, outerBroken);
      return Flow::Next;
    }
    if (flow == Flow::Return)
      return flow;
  }
}

Flow MLIRGenImpl::genRunTimeWhile(
    const WhileStmt &stmt, const llvm::SetVector<llvm::StringRef> &assigned) {
  // A `return` in the body carries the returned value out of the loop; if
  // none is set before it, a first trace finds its type.
  if (assigned.contains(kResultName) && !env.count(kResultName)) {
    Checkpoint start = checkpoint();
    std::optional<mlir::Type> result;
    if (traceRunTimeWhile(stmt, assigned, &result) == Flow::Failed)
      return Flow::Failed;
    rollback(start);
    if (result)
      env[kResultName] = TraceValue::ofMatrix(FillOp::create(
          builder, loc(stmt.getLoc()), *result, builder.getF64FloatAttr(0)));
  }
  return traceRunTimeWhile(stmt, assigned, nullptr);
}

Flow MLIRGenImpl::traceRunTimeWhile(
    const WhileStmt &stmt, const llvm::SetVector<llvm::StringRef> &assigned,
    std::optional<mlir::Type> *probedResult) {
  // The loop-carried variables: those the body assigns that exist before
  // the loop; a compile-time scalar among them is a 1x1 matrix from here on.
  // A `break` in the body sets the loop's own flag.
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
  // Variables with no one shape after the loop (each with what to say of
  // it at a use after).
  std::vector<std::pair<std::string, std::string>> shapeless;
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
      const std::string &name = carried[i];
      auto local = regionLocalNames.find(name);
      const bool lost = !env.count(name); // no one shape after a branch
      mlir::Type now = lost ? mlir::Type() : typeOf(env[name]);
      // Neither the condition nor the body reads the value a trip starts
      // with: a variable whose shape changes (or that a branch left without
      // one) is then no error unless used after the loop. It passes its
      // first value through, which nothing reads: a use after is the
      // error (as after an 'if').
      if ((lost || now != types[i]) && !isFlowName(name) &&
          name != kResultName &&
          llvm::all_of(before->getArgument(i).getUsers(),
                       [](mlir::Operation *user) {
                         return mlir::isa<ConditionOp>(user); // forwards it
                       }) &&
          after->getArgument(i).use_empty()) {
        std::string shapes =
            lost && local != regionLocalNames.end()
                ? local->second.shapes
                : "is " + shapeOf(inits[i]) + " before the construct at line " +
                      std::to_string(sm.getLineAndColumn(stmt.getLoc()).first) +
                      (lost ? " and has no one shape in it"
                            : " and " + shapeOf(now) + " after a trip of it") +
                      ", decided at run time";
        shapeless.push_back({name, shapes});
        next.push_back(after->getArgument(i));
        continue;
      }
      // A branch in the body left it with no one shape: the next trip
      // would read it.
      if (lost) {
        error(stmt.getLoc(),
              "'" + name + "' " +
                  (local != regionLocalNames.end() ? local->second.shapes
                                                   : std::string("changes")) +
                  ": a variable the 'while' loop assigns keeps one shape "
                  "from trip to trip");
        return Flow::Failed;
      }
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
      regionLocalNames[name] = {stmt.getLoc(), ""};
  env = std::move(outside);
  for (size_t i = 0; i < carried.size(); ++i)
    env[carried[i]] = TraceValue::ofMatrix(loop.getResult(i));
  for (auto &[name, shapes] : shapeless) {
    env.erase(name);
    regionLocalNames[name] = {stmt.getLoc(), shapes};
  }
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
        regionLocalNames[name] = {at, ""};
        continue;
      }
    }
    mlir::Type type = before != outside.end() ? typeOf(before->second)
                      : t                     ? typeOf(*t)
                                              : typeOf(*e);
    // A variable from before that a nested construct left without one
    // value, or one that has different shapes on the two paths: no result
    // (the language asks one shape only of a variable used after); a use
    // after it is the error.
    if (!isFlag && name != kResultName) {
      const std::string construct =
          "the construct at line " +
          std::to_string(sm.getLineAndColumn(at).first);
      std::string shapes;
      if (before != outside.end() && (!t || !e)) {
        auto inner = regionLocalNames.find(name);
        shapes =
            inner != regionLocalNames.end() && !inner->second.shapes.empty()
                ? inner->second.shapes
                : "has no one value after " + construct;
      } else if (typeOf(*t) != type || typeOf(*e) != type) {
        shapes =
            before != outside.end()
                ? "is " + shapeOf(type) + " before " + construct + " and " +
                      shapeOf(typeOf(*t) != type ? typeOf(*t) : typeOf(*e)) +
                      " in one of its branches"
                : "is " + shapeOf(typeOf(*t)) + " in the first branch of " +
                      construct + " and " + shapeOf(typeOf(*e)) +
                      " in the other";
        shapes += ", decided at run time";
      }
      if (!shapes.empty()) {
        regionLocalNames[name] = {at, shapes};
        outside.erase(name);
        continue;
      }
    }
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
