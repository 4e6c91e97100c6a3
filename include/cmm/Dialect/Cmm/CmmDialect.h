//===- CmmDialect.h - The cmm dialect ---------------------------*- C++ -*-===//
//
// Declares the cmm dialect, its enums and its operations.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_CMMDIALECT_H
#define CMM_DIALECT_CMMDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

#include "cmmrt/Fused.h"

#include "cmm/Dialect/Cmm/OpSemantics.h"

namespace cmm::trait {
/// Cmm_MayFail (CmmDialect.td): the op may fail at run time.
template <typename ConcreteType>
class MayFail : public mlir::OpTrait::TraitBase<ConcreteType, MayFail> {};
} // namespace cmm::trait

#include "cmm/Dialect/Cmm/CmmOpsDialect.h.inc"
#include "cmm/Dialect/Cmm/CmmEnums.h.inc"

#define GET_OP_CLASSES
#include "cmm/Dialect/Cmm/CmmOps.h.inc"

namespace cmm {

/// Builds the matrix type tensor<rows x cols x f64>.
mlir::RankedTensorType getMatrixType(mlir::MLIRContext *ctx, int64_t rows,
                                     int64_t cols);

/// The shape of a broadcasting elementwise op on `lhs` and `rhs` (Julia rules:
/// each dimension pair must be equal or contain a 1), or failure.
mlir::FailureOr<std::pair<int64_t, int64_t>>
broadcastShape(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// "3x4" for a matrix shape.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Applications of each rewrite rule, by rule name (e.g. "neg-neg").
using RuleCounts = llvm::StringMap<uint64_t>;

/// The static algebraic simplifications of cmm (CmmCanonicalize.cpp); they
/// are also the dialect's canonicalization patterns. When `counts` is given,
/// each application is counted under its rule name.
void populateAlgebraicSimplifyPatterns(mlir::RewritePatternSet &patterns,
                                       RuleCounts *counts = nullptr);

/// The value of every element when `v` is a fill or a splat constant.
std::optional<double> getSplatValue(mlir::Value v);

} // namespace cmm

#endif // CMM_DIALECT_CMMDIALECT_H
