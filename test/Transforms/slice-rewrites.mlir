// cmm-algebraic-simplify on blocks: a block of a product computes only the
// rows and columns it needs, and a block of a transpose transposes only
// the block; neither fires when another op reads the whole product or
// transpose (it would be computed twice).
// RUN: cmm-opt %s -split-input-file --cmm-algebraic-simplify | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-algebraic-simplify --cmm-flop-report 2>&1 >/dev/null | FileCheck %s --check-prefix=FLOPS

// (A*B)[11:15, 21:23]: 2*5*50*3 flops instead of 2*100*50*80.
// CHECK-LABEL: func.func @block_of_product(
// CHECK-SAME: %[[A:[^:]*]]: tensor<100x50xf64>, %[[B:[^:]*]]: tensor<50x80xf64>
// CHECK-NEXT: %[[AS:.*]] = cmm.slice %[[A]] at [10, 0] : tensor<100x50xf64> -> tensor<5x50xf64>
// CHECK-NEXT: %[[BS:.*]] = cmm.slice %[[B]] at [0, 20] : tensor<50x80xf64> -> tensor<50x3xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[AS]], %[[BS]] : (tensor<5x50xf64>, tensor<50x3xf64>) -> tensor<5x3xf64>
// CHECK-NEXT: return %[[R]]
// FLOPS: cmm-flop-report: @block_of_product now: 1500 flops
func.func @block_of_product(%a: tensor<100x50xf64>, %b: tensor<50x80xf64>) -> tensor<5x3xf64> {
  %0 = cmm.matmul %a, %b : (tensor<100x50xf64>, tensor<50x80xf64>) -> tensor<100x80xf64>
  %1 = cmm.slice %0 at [10, 20] : tensor<100x80xf64> -> tensor<5x3xf64>
  return %1 : tensor<5x3xf64>
}

// -----

// Whole rows: B is read whole, no slice of it is made.
// CHECK-LABEL: func.func @rows_of_product(
// CHECK-SAME: %[[A:[^:]*]]: tensor<100x50xf64>, %[[B:[^:]*]]: tensor<50x80xf64>
// CHECK-NEXT: %[[AS:.*]] = cmm.slice %[[A]] at [99, 0] : tensor<100x50xf64> -> tensor<1x50xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[AS]], %[[B]] : (tensor<1x50xf64>, tensor<50x80xf64>) -> tensor<1x80xf64>
// CHECK-NEXT: return %[[R]]
func.func @rows_of_product(%a: tensor<100x50xf64>, %b: tensor<50x80xf64>) -> tensor<1x80xf64> {
  %0 = cmm.matmul %a, %b : (tensor<100x50xf64>, tensor<50x80xf64>) -> tensor<100x80xf64>
  %1 = cmm.slice %0 at [99, 0] : tensor<100x80xf64> -> tensor<1x80xf64>
  return %1 : tensor<1x80xf64>
}

// -----

// The product is read whole too: it is computed once, and sliced.
// CHECK-LABEL: func.func @product_read_twice(
// CHECK: %[[P:.*]] = cmm.matmul
// CHECK-NEXT: %[[S:.*]] = cmm.slice %[[P]] at [10, 20]
// CHECK-NOT: cmm.matmul
// FLOPS: cmm-flop-report: @product_read_twice now: 800000 flops
func.func @product_read_twice(%a: tensor<100x50xf64>, %b: tensor<50x80xf64>) -> (tensor<5x3xf64>, tensor<100x80xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<100x50xf64>, tensor<50x80xf64>) -> tensor<100x80xf64>
  %1 = cmm.slice %0 at [10, 20] : tensor<100x80xf64> -> tensor<5x3xf64>
  return %1, %0 : tensor<5x3xf64>, tensor<100x80xf64>
}

// -----

// (A')[2:3, 3:5] is (A[3:5, 2:3])': the block is taken first.
// CHECK-LABEL: func.func @block_of_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<6x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.slice %[[A]] at [2, 1] : tensor<6x4xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[S]] : tensor<3x2xf64> -> tensor<2x3xf64>
// CHECK-NEXT: return %[[T]]
func.func @block_of_transpose(%a: tensor<6x4xf64>) -> tensor<2x3xf64> {
  %0 = cmm.transpose %a : tensor<6x4xf64> -> tensor<4x6xf64>
  %1 = cmm.slice %0 at [1, 2] : tensor<4x6xf64> -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// -----

// CHECK-LABEL: func.func @transpose_read_twice(
// CHECK: %[[T:.*]] = cmm.transpose
// CHECK-NEXT: cmm.slice %[[T]] at [1, 2]
// CHECK-NOT: cmm.transpose
func.func @transpose_read_twice(%a: tensor<6x4xf64>) -> (tensor<2x3xf64>, tensor<4x6xf64>) {
  %0 = cmm.transpose %a : tensor<6x4xf64> -> tensor<4x6xf64>
  %1 = cmm.slice %0 at [1, 2] : tensor<4x6xf64> -> tensor<2x3xf64>
  return %1, %0 : tensor<2x3xf64>, tensor<4x6xf64>
}
