//===- OpDecls.cpp - The ops of a program as a task graph declares them ---===//

#include "cmm/Planning/OpDecls.h"

#include "cmm/Dialect/CmmDialect.h"
#include "cmm/Dialect/Observed.h"

#include "cmmrt/Plan.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cmm;
using cmmrt::plan::OpCode;

namespace {
std::pair<int64_t, int64_t> shapeOf(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return {t.getDimSize(0), t.getDimSize(1)};
}

OpCode reduceCode(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return OpCode::ReduceSum;
  case ReduceKind::Max:
    return OpCode::ReduceMax;
  case ReduceKind::Min:
    return OpCode::ReduceMin;
  case ReduceKind::Mean:
    return OpCode::ReduceMean;
  }
  return OpCode::ReduceSum;
}

OpCode cmpCode(CmpPredicate p) {
  switch (p) {
  case CmpPredicate::GT:
    return OpCode::Gt;
  case CmpPredicate::LT:
    return OpCode::Lt;
  case CmpPredicate::GE:
    return OpCode::Ge;
  case CmpPredicate::LE:
    return OpCode::Le;
  case CmpPredicate::EQ:
    return OpCode::Eq;
  }
  return OpCode::Eq;
}

/// The op code and parameters of `op` as `cmmtg.op` attributes; nullopt for
/// an op no task computes.
std::optional<OpCode> describe(Operation &op, NamedAttrList &attrs) {
  Builder b(op.getContext());
  auto set = [&](StringRef name, Attribute value) { attrs.set(name, value); };
  auto integer = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  auto real = [&](const APFloat &v) {
    return b.getF64FloatAttr(v.convertToDouble());
  };
  if (op.getNumResults() == 1 &&
      isa<RankedTensorType>(op.getResult(0).getType())) {
    auto [rows, cols] = shapeOf(op.getResult(0));
    set("rows", integer(rows));
    set("cols", integer(cols));
  }
  if (op.getNumOperands() >= 1 &&
      isa<RankedTensorType>(op.getOperand(0).getType())) {
    auto [rows, cols] = shapeOf(op.getOperand(0));
    set("in_rows", integer(rows));
    set("in_cols", integer(cols));
  }
  auto output = [&](Value printed) {
    auto [rows, cols] = shapeOf(printed);
    set("rows", integer(rows));
    set("cols", integer(cols));
  };
  return llvm::TypeSwitch<Operation *, std::optional<OpCode>>(&op)
      .Case<RandOp>([&](RandOp r) {
        set("seed", integer(r.getSeed()));
        set("id", integer(r.getCallId()));
        return r.getDistribution() == Distribution::Normal ? OpCode::Randn
                                                           : OpCode::Rand;
      })
      .Case<FillOp>([&](FillOp f) {
        set("value", real(f.getValue()));
        return OpCode::Fill;
      })
      .Case<EyeOp>([&](EyeOp) { return OpCode::Eye; })
      .Case<RangeOp>([&](RangeOp r) {
        set("first", integer(r.getStart()));
        set("last", integer(r.getStop()));
        return OpCode::Range;
      })
      .Case<ConstantOp>([&](ConstantOp c) {
        set("data", c.getValue());
        return OpCode::Constant;
      })
      .Case<LoadOp>([&](LoadOp l) {
        set("path", l.getPathAttr());
        return OpCode::Load;
      })
      .Case<MatmulOp>([&](MatmulOp) { return OpCode::Matmul; })
      .Case<PowOp>([&](PowOp) { return OpCode::Pow; })
      .Case<AddOp>([&](AddOp) { return OpCode::Add; })
      .Case<SubOp>([&](SubOp) { return OpCode::Sub; })
      .Case<MulOp>([&](MulOp) { return OpCode::Mul; })
      .Case<DivOp>([&](DivOp) { return OpCode::Div; })
      .Case<EPowOp>([&](EPowOp) { return OpCode::EPow; })
      .Case<MaxOp>([&](MaxOp) { return OpCode::Max; })
      .Case<MinOp>([&](MinOp) { return OpCode::Min; })
      .Case<ModOp>([&](ModOp) { return OpCode::Mod; })
      .Case<CmpOp>([&](CmpOp c) { return cmpCode(c.getPredicate()); })
      .Case<ScaleOp>([&](ScaleOp s) {
        set("value", real(s.getFactor()));
        return OpCode::Scale;
      })
      .Case<NegOp>([&](NegOp) { return OpCode::Neg; })
      .Case<MapOp>([&](MapOp m) {
        set("fn", b.getStringAttr(stringifyUnaryFn(m.getFn())));
        return OpCode::Map;
      })
      .Case<TransposeOp>([&](TransposeOp) { return OpCode::Transpose; })
      .Case<ReduceOp>([&](ReduceOp r) {
        set("dim", integer(r.getDim() ? int64_t(*r.getDim()) : 0));
        return reduceCode(r.getKind());
      })
      .Case<NormOp>([&](NormOp) { return OpCode::Norm; })
      .Case<InvOp>([&](InvOp) { return OpCode::Inv; })
      .Case<SolveOp>([&](SolveOp) { return OpCode::Solve; })
      .Case<PrintOp>([&](PrintOp p) {
        set("label", p.getLabelAttr());
        output(p.getInput());
        return OpCode::Print;
      })
      .Case<PrintScalarOp>([&](PrintScalarOp p) {
        set("label", p.getLabelAttr());
        set("value", real(p.getValue()));
        set("rows", integer(1));
        set("cols", integer(1));
        return OpCode::PrintScalar;
      })
      .Case<SaveOp>([&](SaveOp s) {
        set("path", s.getPathAttr());
        output(s.getInput());
        return OpCode::Save;
      })
      .Default([](Operation *) { return std::nullopt; });
}
} // namespace

std::vector<cmm::planner::OpDecl>
cmm::planner::declareOps(func::FuncOp func,
                         llvm::DenseMap<Operation *, int> *indexOf) {
  std::vector<OpDecl> decls;
  Builder b(func.getContext());
  llvm::DenseSet<Operation *> observed = observedOps(func.getBody().front());
  for (Operation &op : func.getBody().front()) {
    if (!observed.contains(&op))
      continue;
    NamedAttrList attrs;
    std::optional<OpCode> code = describe(op, attrs);
    if (!code)
      continue;
    attrs.set("code", b.getI32IntegerAttr(static_cast<int32_t>(*code)));
    if (indexOf)
      (*indexOf)[&op] = decls.size();
    decls.push_back({cmmrt::plan::opCodeName(*code) + std::to_string(decls.size()),
                     op.getLoc(), attrs.getDictionary(func.getContext())});
  }
  return decls;
}
