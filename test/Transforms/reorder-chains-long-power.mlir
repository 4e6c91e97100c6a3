// Regression: a product chain under a power too long to expand must still be
// ordered on its own. Here Y = A*((B*C)*(D*E)) (5 factors) feeds Y^64 (320
// factors, more than the 256 a chain may expand to), so the power stays a
// leaf and Y's chain is reported as a nested root (ProductChain::nestedRoots)
// and ordered like the Y^65 case (not expandable at all).
// RUN: cmm-opt %s --pass-pipeline='builtin.module(func.func(cmm-flop-report{stage=before},cmm-reorder-chains,cmm-flop-report{stage=after}))' 2>&1 | FileCheck %s

// A (2x100), B, C, D (100x100), E (100x2):
//   as written: B*C 2e6, D*E 40000, (B*C)*(D*E) 40000, A*.. 800 = 2080800,
//               plus Y^64 (6 squarings of 2x2, 16 flops each) = 96.
//   ordered:    A*(B*(C*(D*E))) = 40000 * 3 + 800 = 120800, plus 96.
// CHECK: cmm-flop-report: @power64 before: 2.0809e+06 flops (2.0809e+06 in matrix products)
// CHECK-NEXT: cmm-flop-report: @power64 after: 120896 flops (120896 in matrix products)
// CHECK-LABEL: func.func @power64(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x100xf64>, %[[B:[^:]*]]: tensor<100x100xf64>, %[[C:[^:]*]]: tensor<100x100xf64>, %[[D:[^:]*]]: tensor<100x100xf64>, %[[E:[^:]*]]: tensor<100x2xf64>
// CHECK-NEXT: %[[DE:.*]] = cmm.matmul %[[D]], %[[E]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[CDE:.*]] = cmm.matmul %[[C]], %[[DE]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[BCDE:.*]] = cmm.matmul %[[B]], %[[CDE]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[Y:.*]] = cmm.matmul %[[A]], %[[BCDE]] : (tensor<2x100xf64>, tensor<100x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.pow %[[Y]], 64 : tensor<2x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<2x2xf64>
func.func @power64(%a: tensor<2x100xf64>, %b: tensor<100x100xf64>, %c: tensor<100x100xf64>, %d: tensor<100x100xf64>, %e: tensor<100x2xf64>) -> tensor<2x2xf64> {
  %bc = cmm.matmul %b, %c : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %de = cmm.matmul %d, %e : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
  %x = cmm.matmul %bc, %de : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
  %y = cmm.matmul %a, %x : (tensor<2x100xf64>, tensor<100x2xf64>) -> tensor<2x2xf64>
  %p = cmm.pow %y, 64 : tensor<2x2xf64>
  return %p : tensor<2x2xf64>
}
