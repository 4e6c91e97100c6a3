// Companion of reorder-chains-long-power.mlir: with Y^65 (beyond the
// expansion limit of 64, so the power is a leaf and Y is a chain root), the
// chain Y = A*((B*C)*(D*E)) is ordered.
// RUN: cmm-opt %s --pass-pipeline='builtin.module(func.func(cmm-flop-report{stage=before},cmm-reorder-chains,cmm-flop-report{stage=after}))' 2>&1 | FileCheck %s

// Y^65 on 2x2: 6 squarings and 1 product, 7 * 16 = 112 flops.
// CHECK: cmm-flop-report: @power65 before: 2.08091e+06 flops (2.08091e+06 in matrix products)
// CHECK-NEXT: cmm-flop-report: @power65 after: 120912 flops (120912 in matrix products)
// CHECK-LABEL: func.func @power65(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x100xf64>, %[[B:[^:]*]]: tensor<100x100xf64>, %[[C:[^:]*]]: tensor<100x100xf64>, %[[D:[^:]*]]: tensor<100x100xf64>, %[[E:[^:]*]]: tensor<100x2xf64>
// CHECK-NEXT: %[[DE:.*]] = cmm.matmul %[[D]], %[[E]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[CDE:.*]] = cmm.matmul %[[C]], %[[DE]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[BCDE:.*]] = cmm.matmul %[[B]], %[[CDE]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[Y:.*]] = cmm.matmul %[[A]], %[[BCDE]] : (tensor<2x100xf64>, tensor<100x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.pow %[[Y]], 65 : tensor<2x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<2x2xf64>
func.func @power65(%a: tensor<2x100xf64>, %b: tensor<100x100xf64>, %c: tensor<100x100xf64>, %d: tensor<100x100xf64>, %e: tensor<100x2xf64>) -> tensor<2x2xf64> {
  %bc = cmm.matmul %b, %c : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %de = cmm.matmul %d, %e : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
  %x = cmm.matmul %bc, %de : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
  %y = cmm.matmul %a, %x : (tensor<2x100xf64>, tensor<100x2xf64>) -> tensor<2x2xf64>
  %p = cmm.pow %y, 65 : tensor<2x2xf64>
  return %p : tensor<2x2xf64>
}
