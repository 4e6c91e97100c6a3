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

/// The triangle a triangular matrix keeps (a solve's `triangular`).
def Cmm_Triangle : I32EnumAttr<"Triangle", "triangle of a matrix", [
      I32EnumAttrCase<"Upper", 0, "upper">,
      I32EnumAttrCase<"Lower", 1, "lower">]> {
  let cppNamespace = "::cmm";
}

/// The call a solve stands for (cmm-linear-solves: inv(A) * B -> A \ B,
/// pinv(X) * B -> X \ B): its run-time errors are stated as that call's.
def Cmm_ReplacedCall : I32EnumAttr<"ReplacedCall", "call a solve replaces", [
      I32EnumAttrCase<"Inv", 0, "inv">, I32EnumAttrCase<"Pinv", 1, "pinv">]> {
  let cppNamespace = "::cmm";
}

/// The functions a fused op's body applies to elements: each spelled as in
/// runtime/include/cmmrt/ElementFunctions.def (cmmrt::fused::stepFunction
/// reads these names), plus `neg`.
def Cmm_ElementFn : I32EnumAttr<"ElementFn", "function of one element", [
      I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"Sub", 1, "sub">, I32EnumAttrCase<"Mul", 2, "mul">,
      I32EnumAttrCase<"Div", 3, "div">, I32EnumAttrCase<"Pow", 4, "pow">, I32EnumAttrCase<"Max", 5, "max">,
      I32EnumAttrCase<"Min", 6, "min">, I32EnumAttrCase<"Mod", 7, "mod">, I32EnumAttrCase<"Gt", 8, "gt">,
      I32EnumAttrCase<"Lt", 9, "lt">, I32EnumAttrCase<"Ge", 10, "ge">, I32EnumAttrCase<"Le", 11, "le">,
      I32EnumAttrCase<"Eq", 12, "eq">, I32EnumAttrCase<"Neg", 13, "neg">, I32EnumAttrCase<"Sqrt", 14, "sqrt">,
      I32EnumAttrCase<"Exp", 15, "exp">, I32EnumAttrCase<"Log", 16, "log">, I32EnumAttrCase<"Abs", 17, "abs">,
      I32EnumAttrCase<"Sin", 18, "sin">, I32EnumAttrCase<"Cos", 19, "cos">, I32EnumAttrCase<"Tanh", 20, "tanh">,
      I32EnumAttrCase<"Floor", 21, "floor">, I32EnumAttrCase<"Round", 22, "round">]> {
  let cppNamespace = "::cmm";
}

#endif // CMM_ENUMS_TD
