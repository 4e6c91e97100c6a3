//===- CmmEnums.td - Enumerations of the cmm dialect ------*- tablegen -*-===//

#ifndef CMM_ENUMS_TD
#define CMM_ENUMS_TD

include "mlir/IR/EnumAttr.td"
include "cmm/Dialect/Cmm/CmmDialect.td"

def Cmm_Distribution : I32EnumAttr<"Distribution",
    "distribution of a random constructor", [
      I32EnumAttrCase<"Uniform", 0, "uniform">,
      I32EnumAttrCase<"Normal", 1, "normal">]> {
  let cppNamespace = "::cmm";
}

def Cmm_UnaryFn : I32EnumAttr<"UnaryFn", "elementwise function", [
      I32EnumAttrCase<"Sqrt", 0, "sqrt">, I32EnumAttrCase<"Exp", 1, "exp">,
      I32EnumAttrCase<"Log", 2, "log">, I32EnumAttrCase<"Abs", 3, "abs">,
      I32EnumAttrCase<"Sin", 4, "sin">, I32EnumAttrCase<"Cos", 5, "cos">,
      I32EnumAttrCase<"Tanh", 6, "tanh">, I32EnumAttrCase<"Floor", 7, "floor">,
      I32EnumAttrCase<"Round", 8, "round">]> {
  let cppNamespace = "::cmm";
}

def Cmm_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
      I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">, I32EnumAttrCase<"Mean", 3, "mean">]> {
  let cppNamespace = "::cmm";
}

def Cmm_CmpPredicate : I32EnumAttr<"CmpPredicate", "elementwise comparison", [
      I32EnumAttrCase<"GT", 0, "gt">, I32EnumAttrCase<"LT", 1, "lt">,
      I32EnumAttrCase<"GE", 2, "ge">, I32EnumAttrCase<"LE", 3, "le">,
      I32EnumAttrCase<"EQ", 4, "eq">]> {
  let cppNamespace = "::cmm";
}

#endif // CMM_ENUMS_TD
