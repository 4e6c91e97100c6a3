//===- OpDecls.cpp - The ops of a program as a task graph declares them ---===//

#include "cmm/Conversion/CmmToTaskGraph/OpDecls.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/Observed.h"

#include "cmmrt/Plan.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace cmm;
using cmmrt::plan::OpCode;

namespace {
std::pair<int64_t, int64_t> shapeOf(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return {t.getDimSize(0), t.getDimSize(1)};
}

/// The op code and parameters of `op` as `cmmtg.op` attributes (the
/// shapes here, the rest from the op's OpSemantics); nullopt for an op no
/// task computes.
std::optional<OpCode> describe(Operation &op, NamedAttrList &attrs) {
  auto semantics = dyn_cast<OpSemantics>(&op);
  if (!semantics)
    return std::nullopt;
  Builder b(op.getContext());
  auto setShape = [&](StringRef rows, StringRef cols, Value v) {
    auto [r, c] = shapeOf(v);
    attrs.set(rows, b.getI64IntegerAttr(r));
    attrs.set(cols, b.getI64IntegerAttr(c));
  };
  // The first result's shape (a factorization's others are its tasks'
  // output tiles).
  if (op.getNumResults() >= 1 &&
      isa<RankedTensorType>(op.getResult(0).getType()))
    setShape("rows", "cols", op.getResult(0));
  if (op.getNumOperands() >= 1 &&
      isa<RankedTensorType>(op.getOperand(0).getType()))
    setShape("in_rows", "in_cols", op.getOperand(0));
  return semantics.getRuntimeOp(attrs);
}
} // namespace

std::vector<cmm::tiling::OpDecl>
cmm::tiling::declareOps(func::FuncOp func,
                        llvm::DenseMap<Operation *, int> *indexOf) {
  std::vector<OpDecl> decls;
  Builder b(func.getContext());
  // A segment's arguments and results (Tiling.cpp, cmmrt/Program.h): `id`
  // their number, which the translator maps to the program's value.
  auto declareBoundary = [&](OpCode code, unsigned number, Value v,
                             Location loc) {
    NamedAttrList attrs;
    auto [r, c] = shapeOf(v);
    attrs.set("rows", b.getI64IntegerAttr(r));
    attrs.set("cols", b.getI64IntegerAttr(c));
    attrs.set("in_rows", b.getI64IntegerAttr(r));
    attrs.set("in_cols", b.getI64IntegerAttr(c));
    attrs.set("id", b.getI64IntegerAttr(number));
    attrs.set("code", b.getI32IntegerAttr(static_cast<int32_t>(code)));
    decls.push_back(
        {cmmrt::plan::opCodeName(code) + std::to_string(decls.size()), loc,
         attrs.getDictionary(func.getContext())});
  };
  for (BlockArgument arg : func.getArguments())
    declareBoundary(OpCode::Import, arg.getArgNumber(), arg, func.getLoc());
  llvm::DenseSet<Operation *> observed = observedOps(func.getBody().front());
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands()))
        declareBoundary(OpCode::Export, i, v, v.getLoc());
      continue;
    }
    if (!observed.contains(&op))
      continue;
    NamedAttrList attrs;
    std::optional<OpCode> code = describe(op, attrs);
    if (!code)
      continue;
    attrs.set("code", b.getI32IntegerAttr(static_cast<int32_t>(*code)));
    if (indexOf)
      (*indexOf)[&op] = decls.size();
    decls.push_back(
        {cmmrt::plan::opCodeName(*code) + std::to_string(decls.size()),
         op.getLoc(), attrs.getDictionary(func.getContext())});
  }
  return decls;
}
