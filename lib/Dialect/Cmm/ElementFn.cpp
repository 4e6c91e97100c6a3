//===- ElementFn.cpp - The element function of an elementwise op --------===//

#include "cmm/Dialect/Cmm/ElementFn.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace cmm;

std::optional<ElementFn> cmm::elementFnOf(Operation *op) {
  using Result = std::optional<ElementFn>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([](AddOp) { return ElementFn::Add; })
      .Case([](SubOp) { return ElementFn::Sub; })
      .Case([](MulOp) { return ElementFn::Mul; })
      .Case([](DivOp) { return ElementFn::Div; })
      .Case([](EPowOp) { return ElementFn::Pow; })
      .Case([](MaxOp) { return ElementFn::Max; })
      .Case([](MinOp) { return ElementFn::Min; })
      .Case([](ModOp) { return ElementFn::Mod; })
      .Case([](NegOp) { return ElementFn::Neg; })
      // gt, lt, ge, le, eq and the maps' names are the functions' names.
      .Case([](CmpOp cmp) -> Result {
        return symbolizeElementFn(stringifyCmpPredicate(cmp.getPredicate()));
      })
      .Case([](MapOp map) -> Result {
        return symbolizeElementFn(stringifyUnaryFn(map.getFn()));
      })
      .Default([](Operation *) { return std::nullopt; });
}
