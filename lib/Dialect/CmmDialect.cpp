//===- CmmDialect.cpp - The cmm dialect -------------------------*- C++ -*-===//
//
// Dialect registration, shape helpers and the constant materializer.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/CmmDialect.h"

using namespace mlir;
using namespace cmm;

#include "cmm/Dialect/CmmOpsDialect.cpp.inc"

void CmmDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cmm/Dialect/CmmOps.cpp.inc"
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
  if (lhs.size() != 2 || rhs.size() != 2)
    return failure();
  int64_t dims[2];
  for (int d = 0; d < 2; ++d) {
    if (lhs[d] == rhs[d] || rhs[d] == 1)
      dims[d] = lhs[d];
    else if (lhs[d] == 1)
      dims[d] = rhs[d];
    else
      return failure();
  }
  return std::make_pair(dims[0], dims[1]);
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
