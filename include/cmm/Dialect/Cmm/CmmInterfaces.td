//===- CmmInterfaces.td - What each cmm op is to each stage -*- tablegen -*-===//
//
// Every cmm op implements OpSemantics: what the rewrites' cost model counts,
// how the planner tiles it, which runtime op a generated program runs for
// it, and how the reference interpreter evaluates it. The implementations
// sit together, op by op, in lib/Dialect/Cmm/CmmOpSemantics.cpp, so adding an op
// is its ODS definition, those four methods and (for a new computation) a
// runtime kernel (docs/architecture.md, "Adding an op").
//
//===----------------------------------------------------------------------===//

#ifndef CMM_INTERFACES_TD
#define CMM_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Cmm_OpSemantics : OpInterface<"OpSemantics"> {
  let cppNamespace = "::cmm";
  let description = [{
    What a cmm op computes, as each stage of the compiler needs to know it.
  }];
  let methods = [
    InterfaceMethod<[{
        Floating-point operations the op performs on whole matrices: the cost
        model of the algebraic rewrites and `--flop-report` (0 for ops that
        only move or make data).
      }], "double", "getFlops">,
    InterfaceMethod<[{
        How the planner tiles the op into tasks: the strategy and the time
        model class of its tasks (Conversion/CmmToTaskGraph/Tiling.cpp
        implements each strategy).
      }], "::cmm::TilingRule", "getTilingRule">,
    InterfaceMethod<[{
        The runtime op code a generated program runs for the op
        (cmmrt/OpCodes.def), with the parameters its `cmmtg.op`
        declaration carries set in `params`; nullopt for an op no task
        computes.
      }], "std::optional<::cmmrt::plan::OpCode>", "getRuntimeOp",
      (ins "::mlir::NamedAttrList &":$params)>,
    InterfaceMethod<[{
        The reference interpreter: the values of the op's results (one
        matrix per result, in order: a factorization has several) from the
        values of its operands (in order), or an error at the op. Output ops
        (print, save) have no value and are the interpreter's own.
      }], "::mlir::LogicalResult", "evaluate",
      (ins "::llvm::ArrayRef<const ::cmmrt::Matrix *>":$operands,
           "::llvm::MutableArrayRef<::cmmrt::Matrix>":$results)>,
  ];
}

#endif // CMM_INTERFACES_TD
