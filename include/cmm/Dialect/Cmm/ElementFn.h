//===- ElementFn.h - The element function of an elementwise op --*- C++ -*-===//
//
// One mapping from the cmm ops whose result element is a function of their
// operands' elements (the binary ops, comparisons, negation, maps) to that
// function (cmm::ElementFn, the steps of a fused op's body): what
// cmm-fuse-elementwise writes into a body and what the density estimate
// of the tiler (Conversion/CmmToTaskGraph/Density.h) reads, op or step.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_CMM_ELEMENTFN_H
#define CMM_DIALECT_CMM_ELEMENTFN_H

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include <optional>

namespace cmm {

/// fn with result(i, j) = fn(operand 0 (i, j)[, operand 1 (i, j)]), operands
/// broadcast: add, sub, mul, div, epow, max, min, mod, cmp, neg and map;
/// none for the other ops (a scaling's factor is an attribute, not an
/// operand).
std::optional<ElementFn> elementFnOf(mlir::Operation *op);

} // namespace cmm

#endif // CMM_DIALECT_CMM_ELEMENTFN_H
