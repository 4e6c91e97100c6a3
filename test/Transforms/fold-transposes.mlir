// cmm-fold-transposes: a product reads its transposed operands in place
// (cmm.gemm, BLAS's TRANSA/TRANSB flags); the transposes die when nothing
// else reads them.
// RUN: cmm-opt %s -split-input-file --cmm-fold-transposes | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-fold-transposes --cmm-flop-report 2>&1 >/dev/null | FileCheck %s --check-prefix=FLOPS

// A' * B: the transpose of A is never made.
// CHECK-LABEL: func.func @lhs(
// CHECK-SAME: %[[A:[^:]*]]: tensor<30x10xf64>, %[[B:[^:]*]]: tensor<30x20xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.gemm %[[A]] transposed, %[[B]] : (tensor<30x10xf64>, tensor<30x20xf64>) -> tensor<10x20xf64>
// CHECK-NEXT: return %[[R]]
// FLOPS: cmm-flop-report: @lhs now: 12000 flops (12000 in matrix products)
func.func @lhs(%a: tensor<30x10xf64>, %b: tensor<30x20xf64>) -> tensor<10x20xf64> {
  %t = cmm.transpose %a : tensor<30x10xf64> -> tensor<10x30xf64>
  %0 = cmm.matmul %t, %b : (tensor<10x30xf64>, tensor<30x20xf64>) -> tensor<10x20xf64>
  return %0 : tensor<10x20xf64>
}

// -----

// A * B' and B' * C' (x' * x included: a vector's transpose is read in place
// too).
// CHECK-LABEL: func.func @rhs_and_both(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x30xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<10x20xf64>, %[[X:[^:]*]]: tensor<30x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.gemm %[[A]], %[[B]] transposed : (tensor<10x30xf64>, tensor<20x30xf64>) -> tensor<10x20xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.gemm %[[B]] transposed, %[[C]] transposed : (tensor<20x30xf64>, tensor<10x20xf64>) -> tensor<30x10xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.gemm %[[X]] transposed, %[[X]] : (tensor<30x1xf64>, tensor<30x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: return %[[R]], %[[S]], %[[D]]
func.func @rhs_and_both(%a: tensor<10x30xf64>, %b: tensor<20x30xf64>, %c: tensor<10x20xf64>, %x: tensor<30x1xf64>) -> (tensor<10x20xf64>, tensor<30x10xf64>, tensor<1x1xf64>) {
  %bt = cmm.transpose %b : tensor<20x30xf64> -> tensor<30x20xf64>
  %ct = cmm.transpose %c : tensor<10x20xf64> -> tensor<20x10xf64>
  %xt = cmm.transpose %x : tensor<30x1xf64> -> tensor<1x30xf64>
  %0 = cmm.matmul %a, %bt : (tensor<10x30xf64>, tensor<30x20xf64>) -> tensor<10x20xf64>
  %1 = cmm.matmul %bt, %ct : (tensor<30x20xf64>, tensor<20x10xf64>) -> tensor<30x10xf64>
  %2 = cmm.matmul %xt, %x : (tensor<1x30xf64>, tensor<30x1xf64>) -> tensor<1x1xf64>
  return %0, %1, %2 : tensor<10x20xf64>, tensor<30x10xf64>, tensor<1x1xf64>
}

// -----

// A' * A and A * A': one value on both sides, symmetric (dsyrk): the flop
// report counts n (n + 1) k, 10 * 11 * 30 = 3300 and 30 * 31 * 10 = 9300.
// CHECK-LABEL: func.func @symmetric(
// CHECK-SAME: %[[A:[^:]*]]: tensor<30x10xf64>
// CHECK-NEXT: %[[G:.*]] = cmm.gemm %[[A]] transposed, %[[A]] : (tensor<30x10xf64>, tensor<30x10xf64>) -> tensor<10x10xf64>
// CHECK-NEXT: %[[H:.*]] = cmm.gemm %[[A]], %[[A]] transposed : (tensor<30x10xf64>, tensor<30x10xf64>) -> tensor<30x30xf64>
// FLOPS: cmm-flop-report: @symmetric now: 12600 flops (12600 in matrix products)
func.func @symmetric(%a: tensor<30x10xf64>) -> (tensor<10x10xf64>, tensor<30x30xf64>) {
  %t = cmm.transpose %a : tensor<30x10xf64> -> tensor<10x30xf64>
  %0 = cmm.matmul %t, %a : (tensor<10x30xf64>, tensor<30x10xf64>) -> tensor<10x10xf64>
  %1 = cmm.matmul %a, %t : (tensor<30x10xf64>, tensor<10x30xf64>) -> tensor<30x30xf64>
  return %0, %1 : tensor<10x10xf64>, tensor<30x30xf64>
}

// -----

// A transpose with another reader stays for it; the product still reads A.
// CHECK-LABEL: func.func @shared_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<30x10xf64>, %[[B:[^:]*]]: tensor<30x20xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]]
// CHECK-NEXT: %[[R:.*]] = cmm.gemm %[[A]] transposed, %[[B]]
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @shared_transpose(%a: tensor<30x10xf64>, %b: tensor<30x20xf64>) -> (tensor<10x20xf64>, tensor<10x30xf64>) {
  %t = cmm.transpose %a : tensor<30x10xf64> -> tensor<10x30xf64>
  %0 = cmm.matmul %t, %b : (tensor<10x30xf64>, tensor<30x20xf64>) -> tensor<10x20xf64>
  return %0, %t : tensor<10x20xf64>, tensor<10x30xf64>
}

// -----

// Must not fire: no operand is a transpose (a product whose result is
// transposed, a transpose feeding an elementwise op).
// CHECK-LABEL: func.func @no_transposed_operand(
// CHECK-NOT: cmm.gemm
// CHECK: cmm.matmul
// CHECK-NEXT: cmm.transpose
// CHECK-NEXT: cmm.add
// CHECK-NOT: cmm.gemm
func.func @no_transposed_operand(%a: tensor<10x10xf64>, %b: tensor<10x10xf64>) -> tensor<10x10xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  %1 = cmm.transpose %0 : tensor<10x10xf64> -> tensor<10x10xf64>
  %2 = cmm.add %1, %a : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  return %2 : tensor<10x10xf64>
}
