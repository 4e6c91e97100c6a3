// The folders of cmm ops, and the cases where they must not fire.
// RUN: cmm-opt %s -canonicalize | FileCheck %s

// (A')' = A
// CHECK-LABEL: func.func @transpose_twice(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NOT: cmm.transpose
// CHECK: return %[[A]] : tensor<2x3xf64>
func.func @transpose_twice(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = cmm.transpose %0 : tensor<3x2xf64> -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// ((A')')' = A'
// CHECK-LABEL: func.func @transpose_thrice(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @transpose_thrice(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = cmm.transpose %0 : tensor<3x2xf64> -> tensor<2x3xf64>
  %2 = cmm.transpose %1 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %2 : tensor<3x2xf64>
}

// The transpose of a 1x1 matrix is itself.
// CHECK-LABEL: func.func @transpose_1x1(
// CHECK-SAME: %[[A:.*]]: tensor<1x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: return %[[A]] : tensor<1x1xf64>
func.func @transpose_1x1(%a: tensor<1x1xf64>) -> tensor<1x1xf64> {
  %0 = cmm.transpose %a : tensor<1x1xf64> -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}

// A single transpose of a non-square matrix stays.
// CHECK-LABEL: func.func @transpose_once(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @transpose_once(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// Nor does a transpose of a square matrix (only 1x1 is its own transpose),
// nor of a row.
// CHECK-LABEL: func.func @transpose_square_and_row(
// CHECK-SAME: %[[A:.*]]: tensor<3x3xf64>, %[[R:.*]]: tensor<1x3xf64>)
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<3x3xf64> -> tensor<3x3xf64>
// CHECK-NEXT: %[[U:.*]] = cmm.transpose %[[R]] : tensor<1x3xf64> -> tensor<3x1xf64>
// CHECK-NEXT: return %[[T]], %[[U]]
func.func @transpose_square_and_row(%a: tensor<3x3xf64>, %r: tensor<1x3xf64>)
    -> (tensor<3x3xf64>, tensor<3x1xf64>) {
  %0 = cmm.transpose %a : tensor<3x3xf64> -> tensor<3x3xf64>
  %1 = cmm.transpose %r : tensor<1x3xf64> -> tensor<3x1xf64>
  return %0, %1 : tensor<3x3xf64>, tensor<3x1xf64>
}

// 1 * A = A
// CHECK-LABEL: func.func @scale_one(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: return %[[A]] : tensor<2x3xf64>
func.func @scale_one(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.scale %a by 1.0 : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// CHECK-LABEL: func.func @scale_two(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<2x3xf64>
// CHECK-NEXT: return %[[S]] : tensor<2x3xf64>
func.func @scale_two(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// Scaling by -1 is a negation, not the identity.
// CHECK-LABEL: func.func @scale_minus_one(
// CHECK-NEXT: cmm.scale %{{.*}} by -1.000000e+00 : tensor<2x3xf64>
func.func @scale_minus_one(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.scale %a by -1.0 : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// A ^ 1 = A
// CHECK-LABEL: func.func @pow_one(
// CHECK-SAME: %[[A:.*]]: tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x3xf64>
func.func @pow_one(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.pow %a, 1 : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// CHECK-LABEL: func.func @pow_two(
// CHECK-SAME: %[[A:.*]]: tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.pow %[[A]], 2 : tensor<3x3xf64>
// CHECK-NEXT: return %[[P]] : tensor<3x3xf64>
func.func @pow_two(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.pow %a, 2 : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// A ^ 0 is the identity, not A: it must not fold to its input.
// CHECK-LABEL: func.func @pow_zero(
// CHECK-SAME: %[[A:.*]]: tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NOT: return %[[A]]
// CHECK: return
func.func @pow_zero(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.pow %a, 0 : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// Unused pure ops are erased; effects stay.
// CHECK-LABEL: func.func @dead(
// CHECK-SAME: %[[A:.*]]: tensor<2x2xf64>)
// CHECK-NOT: cmm.matmul
// CHECK-NEXT: cmm.print %[[A]] "A" : tensor<2x2xf64>
// CHECK-NEXT: return
func.func @dead(%a: tensor<2x2xf64>) {
  %0 = cmm.matmul %a, %a : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  cmm.print %a "A" : tensor<2x2xf64>
  return
}
