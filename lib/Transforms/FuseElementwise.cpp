//===- FuseElementwise.cpp - Elementwise chains into one kernel -*- C++ -*-===//
//
// Each elementwise op of the cmm dialect is its own pass over memory with
// its own result buffer; NumPy pays the same, one operator at a time. A
// compiler that sees the whole chain `tanh(X * W .+ b)` after the product
// can apply it in one pass: this pass groups such chains into a cmm.fused
// op whose body applies them to one element, and the code generator turns
// each into one loop nest (docs/passes.md, cmm-fuse-elementwise).
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/ElementFn.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace cmm {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

bool isFusible(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, EPowOp, MaxOp, MinOp, ModOp, CmpOp,
             ScaleOp, NegOp, MapOp, FusedOp>(op);
}

/// The value of a 1x1 constant (cmm.constant, cmm.fill), which the body
/// reads as an arith.constant scalar.
std::optional<double> scalarConstant(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getNumElements() != 1)
    return std::nullopt;
  if (auto fill = v.getDefiningOp<FillOp>())
    return fill.getValue().convertToDouble();
  if (auto constant = v.getDefiningOp<ConstantOp>())
    return (*constant.getValue().getValues<APFloat>().begin())
        .convertToDouble();
  return std::nullopt;
}

/// Builds one fused op from `members` (in program order; the last is the
/// root, whose value the rest feed).
class KernelBuilder {
public:
  KernelBuilder(ArrayRef<Operation *> members) : members(members) {
    for (Operation *op : members)
      inGroup.insert(op);
  }

  /// The values the kernel reads from outside (1x1 constants excepted).
  SmallVector<Value> collectInputs() {
    llvm::SetVector<Value> inputs;
    for (Operation *op : members)
      for (Value v : op->getOperands())
        if (!inGroup.contains(v.getDefiningOp()) && !scalarConstant(v))
          inputs.insert(v);
    return SmallVector<Value>(inputs.begin(), inputs.end());
  }

  /// The fused op reading `inputs` (collectInputs()), before the root.
  FusedOp build(OpBuilder &b, ArrayRef<Value> inputs) {
    Operation *root = members.back();
    auto fused = FusedOp::create(b, root->getLoc(),
                                 root->getResult(0).getType(), inputs);
    Block &body = fused.getBody().front();
    for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
      elements.map(input, arg);
    OpBuilder inner = OpBuilder::atBlockEnd(&body);
    for (Operation *op : members)
      elements.map(op->getResult(0), scalarOf(inner, op));
    YieldOp::create(inner, root->getLoc(), elements.lookup(root->getResult(0)));
    return fused;
  }

private:
  /// The element of `v` in the body.
  Value element(OpBuilder &b, Value v, Location loc) {
    if (Value mapped = elements.lookupOrNull(v))
      return mapped;
    double value = *scalarConstant(v); // collectInputs took the rest
    Value c = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
    elements.map(v, c);
    return c;
  }

  Value step(OpBuilder &b, Location loc, ElementFn fn, ValueRange args) {
    return ScalarOp::create(b, loc, b.getF64Type(), fn, args);
  }

  /// The body ops computing one element of `op`'s result.
  Value scalarOf(OpBuilder &b, Operation *op) {
    Location loc = op->getLoc();
    auto arg = [&](unsigned i) { return element(b, op->getOperand(i), loc); };
    if (auto scale = dyn_cast<ScaleOp>(op)) {
      Value factor = arith::ConstantOp::create(
          b, loc, b.getF64FloatAttr(scale.getFactor().convertToDouble()));
      return step(b, loc, ElementFn::Mul, {arg(0), factor});
    }
    if (auto fused = dyn_cast<FusedOp>(op)) {
      IRMapping mapping;
      Block &body = fused.getBody().front();
      for (auto [i, a] : llvm::enumerate(body.getArguments()))
        mapping.map(a, arg(i));
      for (Operation &inner : body.without_terminator())
        b.clone(inner, mapping);
      return mapping.lookup(cast<YieldOp>(body.getTerminator()).getValue());
    }
    SmallVector<Value, 2> args;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      args.push_back(arg(i));
    return step(b, loc, *elementFnOf(op), args); // isFusible's other ops
  }

  ArrayRef<Operation *> members;
  llvm::DenseSet<Operation *> inGroup;
  IRMapping elements; // matrix values to their elements in the body
};

struct FuseElementwisePass
    : public cmm::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    // Groups grow from their last op (the root) up through producers whose
    // every use is already in the group, so nothing is computed twice.
    SmallVector<SmallVector<Operation *>> groups;
    llvm::DenseSet<Operation *> assigned;
    // Every block, those of cmm.while and cmm.if regions too (a kernel takes
    // ops from one block), but not the bodies of fused ops.
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusedOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      for (Operation &op : llvm::reverse(*block)) {
        if (!isFusible(&op) || assigned.contains(&op))
          continue;
        SmallVector<Operation *> group = grow(&op, assigned);
        if (group.size() >= 2)
          groups.push_back(std::move(group));
      }
    }
    // Producers' kernels first: a group's inputs may be an earlier root.
    for (auto &group : llvm::reverse(groups)) {
      llvm::sort(group, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      KernelBuilder kernel(group);
      SmallVector<Value> inputs = kernel.collectInputs();
      if (inputs.empty())
        continue; // constants only: the folder's, not ours
      OpBuilder b(group.back());
      FusedOp fused = kernel.build(b, inputs);
      group.back()->getResult(0).replaceAllUsesWith(fused.getResult());
      llvm::SetVector<Operation *> constants;
      for (Operation *op : llvm::reverse(group)) {
        for (Value v : op->getOperands())
          if (scalarConstant(v))
            constants.insert(v.getDefiningOp());
        op->erase();
      }
      for (Operation *c : constants)
        if (c->use_empty())
          c->erase();
      numFusedOps += group.size();
      ++numKernels;
    }
  }

  SmallVector<Operation *> grow(Operation *root,
                                llvm::DenseSet<Operation *> &assigned) {
    SmallVector<Operation *> group{root};
    llvm::DenseSet<Operation *> members{root};
    Type shape = root->getResult(0).getType();
    for (size_t next = 0; next < group.size(); ++next) {
      for (Value operand : group[next]->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || members.contains(def) || assigned.contains(def) ||
            !isFusible(def) || def->getBlock() != root->getBlock() ||
            operand.getType() != shape)
          continue;
        bool onlyHere = llvm::all_of(def->getUsers(), [&](Operation *user) {
          return members.contains(user);
        });
        if (!onlyHere)
          continue;
        group.push_back(def);
        members.insert(def);
      }
    }
    for (Operation *op : group)
      assigned.insert(op);
    return group;
  }
};

} // namespace
