//===- CmmDialect.cpp - The cmm dialect -------------------------*- C++ -*-===//
//
// Dialect registration, shape helpers and the constant materializer.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "cmmrt/Kernels.h"

using namespace mlir;
using namespace cmm;

#include "cmm/Dialect/Cmm/CmmOpsDialect.cpp.inc"

void CmmDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cmm/Dialect/Cmm/CmmOps.cpp.inc"
      >();
}

Operation *CmmDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<DenseFPElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

RankedTensorType cmm::getMatrixType(MLIRContext *ctx, int64_t rows,
                                    int64_t cols) {
  return RankedTensorType::get({rows, cols}, Float64Type::get(ctx));
}

FailureOr<std::pair<int64_t, int64_t>>
cmm::broadcastShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  cmmrt::MatrixShape shape;
  if (lhs.size() != 2 || rhs.size() != 2 ||
      !cmmrt::broadcastShape({lhs[0], lhs[1]}, {rhs[0], rhs[1]}, shape))
    return failure();
  return std::make_pair(shape.rows, shape.cols);
}

std::string cmm::formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += "x";
    s += std::to_string(shape[i]);
  }
  return s;
}
