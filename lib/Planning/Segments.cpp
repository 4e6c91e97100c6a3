//===- Segments.cpp - Straight-line segments of run-time control ----------===//

#include "cmm/Planning/Segments.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/Observed.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace cmm;

bool cmm::planning::hasRunTimeControl(func::FuncOp main) {
  bool found = false;
  main.walk([&](Operation *op) {
    if (isa<WhileOp, IfOp>(op))
      found = true;
  });
  return found;
}

namespace {
bool isControl(Operation &op) {
  return isa<WhileOp, IfOp>(op) || op.hasTrait<OpTrait::IsTerminator>();
}

/// Drops the ops of `block` (and of the regions in it) that nothing
/// observes, as the tiler and the interpreter skip them: a segment exports
/// only values something needs.
void dropUnobserved(Block &block) {
  llvm::DenseSet<Operation *> observed = observedOps(block);
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (!observed.contains(&op) && op.use_empty()) {
      op.erase();
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        dropUnobserved(inner);
  }
}

class Outliner {
public:
  Outliner(func::FuncOp main) : main(main) {}

  void outline(Block &block) {
    SmallVector<Operation *> run;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isFree(op)) {
        free.push_back(&op);
        continue;
      }
      if (!isControl(op)) {
        run.push_back(&op);
        continue;
      }
      outlineRun(run);
      run.clear();
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          outline(inner);
    }
    outlineRun(run);
  }

  /// Constants only segments read: each segment makes its own copy.
  void dropFree() {
    for (Operation *op : free)
      if (op->use_empty())
        op->erase();
  }

  SmallVector<func::FuncOp> segments;

private:
  static bool isFree(Operation &op) {
    return op.hasTrait<OpTrait::ConstantLike>() &&
           llvm::none_of(op.getUsers(),
                         [](Operation *user) { return isControl(*user); });
  }
  SmallVector<Operation *> free;

  void outlineRun(ArrayRef<Operation *> run) {
    if (run.empty())
      return;
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    llvm::SetVector<Value> inputs, outputs;
    // A constant from elsewhere is made again here, not imported.
    llvm::SetVector<Operation *> constants;
    for (Operation *op : run) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (inRun.contains(def))
          continue;
        if (def && def->hasTrait<OpTrait::ConstantLike>())
          constants.insert(def);
        else
          inputs.insert(operand);
      }
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!inRun.contains(user))
            outputs.insert(result);
    }
    MLIRContext *context = main.getContext();
    auto type = FunctionType::get(context, TypeRange(inputs.getArrayRef()),
                                  TypeRange(outputs.getArrayRef()));
    OpBuilder builder(context);
    builder.setInsertionPoint(main->getBlock(), std::next(insertAfter()));
    auto segment = func::FuncOp::create(builder, run.front()->getLoc(),
                                        main.getSymName().str() + "_seg" +
                                            std::to_string(segments.size()),
                                        type);
    segment.setPrivate();
    // What the innermost run-time loop around the segment does not change
    // (tiling::kInvariantAttr).
    if (auto loop = run.front()->getParentOfType<WhileOp>())
      for (auto [i, v] : llvm::enumerate(inputs))
        if (!loop->isAncestor(Value(v).getParentRegion()->getParentOp()))
          segment.setArgAttr(i, tiling::kInvariantAttr, builder.getUnitAttr());
    Block *body = segment.addEntryBlock();
    IRMapping map;
    for (auto [outer, arg] : llvm::zip_equal(inputs, body->getArguments()))
      map.map(outer, arg);
    builder.setInsertionPointToEnd(body);
    for (Operation *constant : constants)
      builder.clone(*constant, map);
    for (Operation *op : run)
      builder.clone(*op, map);
    SmallVector<Value> results;
    for (Value v : outputs)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(builder, run.back()->getLoc(), results);

    builder.setInsertionPoint(run.front());
    auto call = func::CallOp::create(builder, run.front()->getLoc(), segment,
                                     inputs.getArrayRef());
    for (auto [output, r] : llvm::zip_equal(outputs, call.getResults()))
      Value(output).replaceUsesWithIf(
          r, [&](OpOperand &use) { return !inRun.contains(use.getOwner()); });
    for (Operation *op : llvm::reverse(run))
      op->erase();
    segments.push_back(segment);
  }

  /// Segments follow @main in program order.
  Block::iterator insertAfter() {
    Operation *last =
        segments.empty() ? main.getOperation() : segments.back().getOperation();
    return Block::iterator(last);
  }

  func::FuncOp main;
};
} // namespace

namespace {
/// Whether the ops computing `loop`'s condition may run at the end of its
/// body (and once before it) instead: they read only what they are given,
/// write nothing and draw no random numbers (a copy before the loop runs
/// outside the trip numbering rand mixes in).
bool canRotate(WhileOp loop) {
  Block &before = loop.getBefore().front();
  ConditionOp condition = loop.getConditionOp();
  if (&before.front() == condition.getOperation() ||
      !llvm::equal(condition.getArgs(), before.getArguments()))
    return false;
  WalkResult walked = before.walk([&](Operation *op) {
    if (op == condition.getOperation() || isa<EndOp>(op))
      return WalkResult::advance();
    if (isa<RandOp>(op) || !isMemoryEffectFree(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walked.wasInterrupted();
}

/// Turns `loop` into one whose condition is a carried value: computed once
/// before the loop and again at the end of each trip, so the condition and
/// the body are one segment (one plan run per trip, not two).
void rotate(WhileOp loop) {
  OpBuilder builder(loop);
  Block &before = loop.getBefore().front();
  ConditionOp condition = loop.getConditionOp();
  auto conditionOn = [&](ValueRange values) {
    IRMapping map;
    map.map(before.getArguments(), values);
    for (Operation &op : before.without_terminator())
      builder.clone(op, map);
    return map.lookupOrDefault(condition.getCondition());
  };
  Value first = conditionOn(loop.getInits());

  SmallVector<Value> inits(loop.getInits());
  inits.push_back(first);
  SmallVector<Type> types(loop.getResultTypes());
  types.push_back(first.getType());
  auto rotated = WhileOp::create(builder, loop.getLoc(), types, inits,
                                 loop.getExpectedTripsAttr());
  SmallVector<Location> locs(types.size(), loop.getLoc());
  Block *test = builder.createBlock(&rotated.getBefore(), {}, types, locs);
  ConditionOp::create(builder, condition.getLoc(), test->getArguments().back(),
                      test->getArguments());

  rotated.getAfter().takeBody(loop.getAfter());
  Block &body = rotated.getAfter().front();
  body.addArgument(first.getType(), loop.getLoc());
  auto end = cast<EndOp>(body.getTerminator());
  builder.setInsertionPoint(end);
  SmallVector<Value> next(end.getValues());
  next.push_back(conditionOn(end.getValues()));
  EndOp::create(builder, end.getLoc(), next);
  end.erase();

  loop.replaceAllUsesWith(rotated.getResults().drop_back());
  loop.erase();
}
} // namespace

void cmm::planning::rotateLoops(func::FuncOp main) {
  SmallVector<WhileOp> loops;
  main.walk([&](WhileOp loop) { // inner loops first
    if (canRotate(loop))
      loops.push_back(loop);
  });
  for (WhileOp loop : loops)
    rotate(loop);
}

SmallVector<func::FuncOp> cmm::planning::outlineSegments(func::FuncOp main) {
  dropUnobserved(main.getBody().front());
  rotateLoops(main);
  Outliner outliner(main);
  outliner.outline(main.getBody().front());
  outliner.dropFree();
  return outliner.segments;
}

int64_t cmm::planning::assumedRuns(Operation *call) {
  int64_t runs = 1;
  for (Operation *op = call->getParentOp(); op; op = op->getParentOp())
    if (auto loop = dyn_cast<WhileOp>(op))
      runs *= loop.getAssumedTrips();
  return runs;
}
