//===- CmmDialect.td - The cmm dialect definition ---------*- tablegen -*-===//
//
// The `cmm` dialect represents the matrix expressions of a traced `.cmm`
// program. Every matrix value is a builtin `tensor<MxNxf64>` with a static
// shape; compile-time scalars are folded by the front end and appear as
// `f64` attributes.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_DIALECT_TD
#define CMM_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "cmm/Dialect/Cmm/CmmInterfaces.td"

def Cmm_Dialect : Dialect {
  let name = "cmm";
  let cppNamespace = "::cmm";
  let summary = "Matrix expressions of the .cmm language";
  let description = [{
    High-level operations on dense `f64` matrices (`tensor<MxNxf64>`):
    constructors, products, broadcasting elementwise arithmetic, reductions,
    linear solves, and the observable effects `print` and `save`. Each op
    carries the source location of the `.cmm` operator that produced it.
  }];
  // Fused ops' bodies hold arith.constant scalars.
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let useDefaultAttributePrinterParser = 0;
}

/// A 2-D, statically shaped tensor of f64: the only value type of cmm.
def Cmm_Matrix : Type<
    And<[TensorOf<[F64]>.predicate, HasAnyRankOfPred<[2]>, HasStaticShapePred]>,
    "matrix (2-D statically shaped tensor of f64)", "::mlir::RankedTensorType">;

/// An op whose value may not exist at run time (a singular matrix, one that
/// is not positive definite): it reports an error at its source line, so it
/// is never moved ahead of the code that guards it (HoistInvariants).
def Cmm_MayFail : NativeOpTrait<"MayFail"> {
  let cppNamespace = "::cmm::trait";
}

// Every op says what it is to each stage (CmmInterfaces.td).
class Cmm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cmm_Dialect, mnemonic,
         !listconcat(traits, [DeclareOpInterfaceMethods<Cmm_OpSemantics>])>;

#endif // CMM_DIALECT_TD
