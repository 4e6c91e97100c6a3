// cmm-dynamic-simplify: SystemDS's size-dependent rewrites, each applied only
// where the flop model says it is cheaper and only to intermediates with no
// other user.
// RUN: cmm-opt %s -split-input-file --cmm-dynamic-simplify | FileCheck %s

//===----------------------------------------------------------------------===//
// distributive-matmul: A*B + A*C -> A*(B+C), B*A + C*A -> (B+C)*A
//===----------------------------------------------------------------------===//

// A (10x20), B, C (20x30): 2 * 12000 + 300 = 24300 flops become
// 600 + 12000 = 12600.
// CHECK-LABEL: func.func @distributive_left(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[B]], %[[C]] : (tensor<20x30xf64>, tensor<20x30xf64>) -> tensor<20x30xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[S]] : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_left(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>, %c: tensor<20x30xf64>) -> tensor<10x30xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %a, %c : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.add %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2 : tensor<10x30xf64>
}

// -----

// CHECK-LABEL: func.func @distributive_right(
// CHECK-SAME: %[[A:[^:]*]]: tensor<20x30xf64>, %[[B:[^:]*]]: tensor<10x20xf64>, %[[C:[^:]*]]: tensor<10x20xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[B]], %[[C]] : (tensor<10x20xf64>, tensor<10x20xf64>) -> tensor<10x20xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[A]] : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_right(%a: tensor<20x30xf64>, %b: tensor<10x20xf64>, %c: tensor<10x20xf64>) -> tensor<10x30xf64> {
  %0 = cmm.matmul %b, %a : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %c, %a : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.add %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2 : tensor<10x30xf64>
}

// -----

// A*B - A*C -> A*(B-C): the order of B and C is kept.
// CHECK-LABEL: func.func @distributive_left_sub(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.sub %[[B]], %[[C]] : (tensor<20x30xf64>, tensor<20x30xf64>) -> tensor<20x30xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[S]] : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_left_sub(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>, %c: tensor<20x30xf64>) -> tensor<10x30xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %a, %c : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.sub %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2 : tensor<10x30xf64>
}

// -----

// B*A - C*A -> (B-C)*A.
// CHECK-LABEL: func.func @distributive_right_sub(
// CHECK-SAME: %[[A:[^:]*]]: tensor<20x30xf64>, %[[B:[^:]*]]: tensor<10x20xf64>, %[[C:[^:]*]]: tensor<10x20xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.sub %[[B]], %[[C]] : (tensor<10x20xf64>, tensor<10x20xf64>) -> tensor<10x20xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[A]] : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_right_sub(%a: tensor<20x30xf64>, %b: tensor<10x20xf64>, %c: tensor<10x20xf64>) -> tensor<10x30xf64> {
  %0 = cmm.matmul %b, %a : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %c, %a : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.sub %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2 : tensor<10x30xf64>
}

// -----

// One product has another use: it must be computed anyway, unchanged.
// CHECK-LABEL: func.func @distributive_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[AC:.*]] = cmm.matmul %[[A]], %[[C]]
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[AB]], %[[AC]]
// CHECK-NEXT: return %[[S]], %[[AB]] : tensor<10x30xf64>, tensor<10x30xf64>
func.func @distributive_shared(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>, %c: tensor<20x30xf64>) -> (tensor<10x30xf64>, tensor<10x30xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %a, %c : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.add %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2, %0 : tensor<10x30xf64>, tensor<10x30xf64>
}

// -----

// Different left factors (A, D): no common factor, unchanged.
// CHECK-LABEL: func.func @distributive_no_common(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[D:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[DC:.*]] = cmm.matmul %[[D]], %[[C]]
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[AB]], %[[DC]]
// CHECK-NEXT: return %[[S]] : tensor<10x30xf64>
func.func @distributive_no_common(%a: tensor<10x20xf64>, %d: tensor<10x20xf64>, %b: tensor<20x30xf64>, %c: tensor<20x30xf64>) -> tensor<10x30xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %d, %c : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.add %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %2 : tensor<10x30xf64>
}

// -----

// A on the left of one product and on the right of the other: A*B + C*A is
// not distributive, unchanged.
// CHECK-LABEL: func.func @distributive_mixed_sides(
// CHECK-SAME: %[[A:[^:]*]]: tensor<8x8xf64>, %[[B:[^:]*]]: tensor<8x8xf64>, %[[C:[^:]*]]: tensor<8x8xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[CA:.*]] = cmm.matmul %[[C]], %[[A]]
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[AB]], %[[CA]]
// CHECK-NEXT: return %[[S]] : tensor<8x8xf64>
func.func @distributive_mixed_sides(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = cmm.matmul %a, %b : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %1 = cmm.matmul %c, %a : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %2 = cmm.add %0, %1 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  return %2 : tensor<8x8xf64>
}

//===----------------------------------------------------------------------===//
// distributive-binary: X - Y.*X -> (1-Y).*X
//===----------------------------------------------------------------------===//

// -----

// Y is a row (1x30) broadcast against X (10x30): 300 + 300 flops become
// 30 + 300.
// CHECK-LABEL: func.func @distributive_binary_row(
// CHECK-SAME: %[[X:[^:]*]]: tensor<10x30xf64>, %[[Y:[^:]*]]: tensor<1x30xf64>
// CHECK-NEXT: %[[ONE:.*]] = cmm.constant dense<1.000000e+00> : tensor<1x1xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.sub %[[ONE]], %[[Y]] : (tensor<1x1xf64>, tensor<1x30xf64>) -> tensor<1x30xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.mul %[[D]], %[[X]] : (tensor<1x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_binary_row(%x: tensor<10x30xf64>, %y: tensor<1x30xf64>) -> tensor<10x30xf64> {
  %0 = cmm.mul %y, %x : (tensor<1x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.sub %x, %0 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %1 : tensor<10x30xf64>
}

// -----

// X - X.*Y with a column Y.
// CHECK-LABEL: func.func @distributive_binary_column(
// CHECK-SAME: %[[X:[^:]*]]: tensor<10x30xf64>, %[[Y:[^:]*]]: tensor<10x1xf64>
// CHECK-NEXT: %[[ONE:.*]] = cmm.constant dense<1.000000e+00> : tensor<1x1xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.sub %[[ONE]], %[[Y]] : (tensor<1x1xf64>, tensor<10x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.mul %[[D]], %[[X]] : (tensor<10x1xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_binary_column(%x: tensor<10x30xf64>, %y: tensor<10x1xf64>) -> tensor<10x30xf64> {
  %0 = cmm.mul %x, %y : (tensor<10x30xf64>, tensor<10x1xf64>) -> tensor<10x30xf64>
  %1 = cmm.sub %x, %0 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %1 : tensor<10x30xf64>
}

// -----

// Y has X's shape: |Y| + |X| is not below |Y.*X| + |X|, unchanged.
// CHECK-LABEL: func.func @distributive_binary_same_shape(
// CHECK-SAME: %[[X:[^:]*]]: tensor<10x30xf64>, %[[Y:[^:]*]]: tensor<10x30xf64>
// CHECK-NEXT: %[[M:.*]] = cmm.mul %[[Y]], %[[X]]
// CHECK-NEXT: %[[R:.*]] = cmm.sub %[[X]], %[[M]]
// CHECK-NEXT: return %[[R]] : tensor<10x30xf64>
func.func @distributive_binary_same_shape(%x: tensor<10x30xf64>, %y: tensor<10x30xf64>) -> tensor<10x30xf64> {
  %0 = cmm.mul %y, %x : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.sub %x, %0 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %1 : tensor<10x30xf64>
}

// -----

// Y.*X has another use; and Y.*X - X (the wrong order) is not the pattern.
// CHECK-LABEL: func.func @distributive_binary_negative(
// CHECK-SAME: %[[X:[^:]*]]: tensor<10x30xf64>, %[[Y:[^:]*]]: tensor<1x30xf64>
// CHECK-NEXT: %[[M:.*]] = cmm.mul %[[Y]], %[[X]]
// CHECK-NEXT: %[[R:.*]] = cmm.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[N:.*]] = cmm.mul %[[Y]], %[[X]]
// CHECK-NEXT: %[[Q:.*]] = cmm.sub %[[N]], %[[X]]
// CHECK-NEXT: return %[[R]], %[[M]], %[[Q]]
func.func @distributive_binary_negative(%x: tensor<10x30xf64>, %y: tensor<1x30xf64>) -> (tensor<10x30xf64>, tensor<10x30xf64>, tensor<10x30xf64>) {
  %0 = cmm.mul %y, %x : (tensor<1x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.sub %x, %0 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.mul %y, %x : (tensor<1x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %3 = cmm.sub %2, %x : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  return %1, %0, %3 : tensor<10x30xf64>, tensor<10x30xf64>, tensor<10x30xf64>
}

//===----------------------------------------------------------------------===//
// scalar-matmul: a product with a 1x1 operand is a broadcast .*
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @scalar_matmul(
// CHECK-SAME: %[[S:[^:]*]]: tensor<1x1xf64>, %[[R:[^:]*]]: tensor<1x30xf64>, %[[C:[^:]*]]: tensor<10x1xf64>
// CHECK-NEXT: %[[A:.*]] = cmm.mul %[[S]], %[[R]] : (tensor<1x1xf64>, tensor<1x30xf64>) -> tensor<1x30xf64>
// CHECK-NEXT: %[[B:.*]] = cmm.mul %[[C]], %[[S]] : (tensor<10x1xf64>, tensor<1x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT: return %[[A]], %[[B]] : tensor<1x30xf64>, tensor<10x1xf64>
// CHECK-NOT: cmm.matmul
func.func @scalar_matmul(%s: tensor<1x1xf64>, %r: tensor<1x30xf64>, %c: tensor<10x1xf64>) -> (tensor<1x30xf64>, tensor<10x1xf64>) {
  %0 = cmm.matmul %s, %r : (tensor<1x1xf64>, tensor<1x30xf64>) -> tensor<1x30xf64>
  %1 = cmm.matmul %c, %s : (tensor<10x1xf64>, tensor<1x1xf64>) -> tensor<10x1xf64>
  return %0, %1 : tensor<1x30xf64>, tensor<10x1xf64>
}

// -----

// An outer product (10x1 * 1x30) and an inner product (1x30 * 30x1) have no
// 1x1 operand: unchanged.
// CHECK-LABEL: func.func @no_scalar_matmul(
// CHECK-SAME: %[[C:[^:]*]]: tensor<10x1xf64>, %[[R:[^:]*]]: tensor<1x30xf64>, %[[V:[^:]*]]: tensor<30x1xf64>
// CHECK-NEXT: %[[O:.*]] = cmm.matmul %[[C]], %[[R]] : (tensor<10x1xf64>, tensor<1x30xf64>) -> tensor<10x30xf64>
// CHECK-NEXT: %[[I:.*]] = cmm.matmul %[[R]], %[[V]] : (tensor<1x30xf64>, tensor<30x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: return %[[O]], %[[I]] : tensor<10x30xf64>, tensor<1x1xf64>
func.func @no_scalar_matmul(%c: tensor<10x1xf64>, %r: tensor<1x30xf64>, %v: tensor<30x1xf64>) -> (tensor<10x30xf64>, tensor<1x1xf64>) {
  %0 = cmm.matmul %c, %r : (tensor<10x1xf64>, tensor<1x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %r, %v : (tensor<1x30xf64>, tensor<30x1xf64>) -> tensor<1x1xf64>
  return %0, %1 : tensor<10x30xf64>, tensor<1x1xf64>
}

//===----------------------------------------------------------------------===//
// sum-matmul: sum(A*B) -> sum(sum(A,1)' .* sum(B,2))
//===----------------------------------------------------------------------===//

// -----

// A (10x20), B (20x30): 2*10*20*30 + 300 = 12300 flops become
// 200 + 600 + 20 + 20 = 840.
// CHECK-LABEL: func.func @sum_matmul(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[CS:.*]] = cmm.reduce sum %[[A]] along 1 : tensor<10x20xf64> -> tensor<1x20xf64>
// CHECK-NEXT: %[[CST:.*]] = cmm.transpose %[[CS]] : tensor<1x20xf64> -> tensor<20x1xf64>
// CHECK-NEXT: %[[RS:.*]] = cmm.reduce sum %[[B]] along 2 : tensor<20x30xf64> -> tensor<20x1xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.mul %[[CST]], %[[RS]] : (tensor<20x1xf64>, tensor<20x1xf64>) -> tensor<20x1xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.reduce sum %[[D]] : tensor<20x1xf64> -> tensor<1x1xf64>
// CHECK-NEXT: return %[[S]] : tensor<1x1xf64>
// CHECK-NOT: cmm.matmul
func.func @sum_matmul(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>) -> tensor<1x1xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.reduce sum %0 : tensor<10x30xf64> -> tensor<1x1xf64>
  return %1 : tensor<1x1xf64>
}

// -----

// A sum along a dimension, a mean and a maximum of a product: unchanged.
// CHECK-LABEL: func.func @sum_matmul_along(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = cmm.reduce sum %[[P]] along 1 : tensor<10x30xf64> -> tensor<1x30xf64>
// CHECK-NEXT: %[[Q:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[M:.*]] = cmm.reduce mean %[[Q]] : tensor<10x30xf64> -> tensor<1x1xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[X:.*]] = cmm.reduce max %[[T]] : tensor<10x30xf64> -> tensor<1x1xf64>
// CHECK-NEXT: return %[[S]], %[[M]], %[[X]]
func.func @sum_matmul_along(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>) -> (tensor<1x30xf64>, tensor<1x1xf64>, tensor<1x1xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.reduce sum %0 along 1 : tensor<10x30xf64> -> tensor<1x30xf64>
  %2 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %3 = cmm.reduce mean %2 : tensor<10x30xf64> -> tensor<1x1xf64>
  %4 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %5 = cmm.reduce max %4 : tensor<10x30xf64> -> tensor<1x1xf64>
  return %1, %3, %5 : tensor<1x30xf64>, tensor<1x1xf64>, tensor<1x1xf64>
}

// -----

// The product has another use: unchanged.
// CHECK-LABEL: func.func @sum_matmul_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = cmm.reduce sum %[[P]] : tensor<10x30xf64> -> tensor<1x1xf64>
// CHECK-NEXT: return %[[S]], %[[P]] : tensor<1x1xf64>, tensor<10x30xf64>
func.func @sum_matmul_shared(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>) -> (tensor<1x1xf64>, tensor<10x30xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.reduce sum %0 : tensor<10x30xf64> -> tensor<1x1xf64>
  return %1, %0 : tensor<1x1xf64>, tensor<10x30xf64>
}

// -----

// An inner product u*v (1x5 * 5x1): 2*5 + 1 = 11 flops against
// 5 + 5 + 2*5 = 20 after: not cheaper, unchanged.
// CHECK-LABEL: func.func @sum_matmul_not_cheaper(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x5xf64>, %[[V:[^:]*]]: tensor<5x1xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[U]], %[[V]] : (tensor<1x5xf64>, tensor<5x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.reduce sum %[[P]] : tensor<1x1xf64> -> tensor<1x1xf64>
// CHECK-NEXT: return %[[S]] : tensor<1x1xf64>
func.func @sum_matmul_not_cheaper(%u: tensor<1x5xf64>, %v: tensor<5x1xf64>) -> tensor<1x1xf64> {
  %0 = cmm.matmul %u, %v : (tensor<1x5xf64>, tensor<5x1xf64>) -> tensor<1x1xf64>
  %1 = cmm.reduce sum %0 : tensor<1x1xf64> -> tensor<1x1xf64>
  return %1 : tensor<1x1xf64>
}
