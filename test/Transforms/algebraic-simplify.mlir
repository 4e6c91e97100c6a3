// The static (size-independent) rules of cmm-algebraic-simplify, each with
// cases where it fires and cases where it must leave the IR unchanged.
// RUN: cmm-opt %s -split-input-file --cmm-algebraic-simplify | FileCheck %s

//===----------------------------------------------------------------------===//
// transpose-transpose: (A')' -> A
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: return %[[A]] : tensor<2x3xf64>
func.func @transpose_transpose(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = cmm.transpose %0 : tensor<3x2xf64> -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// -----

// A single transpose stays.
// CHECK-LABEL: func.func @transpose_once(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @transpose_once(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// The inner transpose has another use: the outer pair still cancels, the
// inner transpose stays for its other user.
// CHECK-LABEL: func.func @transpose_transpose_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[A]], %[[T]] : tensor<2x3xf64>, tensor<3x2xf64>
func.func @transpose_transpose_shared(%a: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<3x2xf64>) {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = cmm.transpose %0 : tensor<3x2xf64> -> tensor<2x3xf64>
  return %1, %0 : tensor<2x3xf64>, tensor<3x2xf64>
}

//===----------------------------------------------------------------------===//
// matmul-identity: A*I -> A, I*A -> A
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @matmul_identity_right(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: return %[[A]] : tensor<2x3xf64>
func.func @matmul_identity_right(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %i = cmm.eye : tensor<3x3xf64>
  %0 = cmm.matmul %a, %i : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// CHECK-LABEL: func.func @matmul_identity_left(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: return %[[A]] : tensor<2x3xf64>
func.func @matmul_identity_left(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %i = cmm.eye : tensor<2x2xf64>
  %0 = cmm.matmul %i, %a : (tensor<2x2xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// A diagonal constant that is not the identity, and a fill of ones: no rule.
// CHECK-LABEL: func.func @matmul_not_identity(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x2xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 2.000000e+00]]> : tensor<2x2xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[D]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[O:.*]] = cmm.fill 1.000000e+00 : tensor<2x2xf64>
// CHECK-NEXT: %[[Q:.*]] = cmm.matmul %[[O]], %[[P]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: return %[[Q]] : tensor<2x2xf64>
func.func @matmul_not_identity(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %d = cmm.constant dense<[[1.0, 0.0], [0.0, 2.0]]> : tensor<2x2xf64>
  %0 = cmm.matmul %a, %d : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %o = cmm.fill 1.0 : tensor<2x2xf64>
  %1 = cmm.matmul %o, %0 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %1 : tensor<2x2xf64>
}

//===----------------------------------------------------------------------===//
// add-zero: A + 0 -> A, 0 + A -> A, A - 0 -> A
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @add_zero_right(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @add_zero_right(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.add %a, %z : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @add_zero_left(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @add_zero_left(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.add %z, %a : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// A broadcast 1x1 zero constant does not widen A: the rule fires.
// CHECK-LABEL: func.func @add_zero_scalar_constant(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @add_zero_scalar_constant(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.constant dense<0.0> : tensor<1x1xf64>
  %0 = cmm.add %a, %z : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @sub_zero(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @sub_zero(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.sub %a, %z : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// 0 - A is -A, not A: unchanged.
// CHECK-LABEL: func.func @zero_sub(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.sub %[[Z]], %[[A]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x4xf64>
func.func @zero_sub(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.sub %z, %a : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// The zero broadcasts A to a larger shape: the result is not A.
// CHECK-LABEL: func.func @add_zero_widens(
// CHECK-SAME: %[[A:[^:]*]]: tensor<1x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[A]], %[[Z]] : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.add %[[Z]], %[[A]] : (tensor<3x4xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: %[[U:.*]] = cmm.sub %[[A]], %[[Z]] : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: return %[[S]], %[[T]], %[[U]]
func.func @add_zero_widens(%a: tensor<1x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.add %a, %z : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %1 = cmm.add %z, %a : (tensor<3x4xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  %2 = cmm.sub %a, %z : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0, %1, %2 : tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
}

//===----------------------------------------------------------------------===//
// mul-zero: A .* 0 -> 0, A * 0 -> 0, 0 * A -> 0
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @mul_zero_fill(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[Z]] : tensor<3x4xf64>
func.func @mul_zero_fill(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.fill 0.0 : tensor<3x4xf64>
  %0 = cmm.mul %a, %z : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// A 1x1 splat constant zero, on the left: the zero takes the result shape.
// CHECK-LABEL: func.func @mul_zero_constant(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[Z]] : tensor<3x4xf64>
func.func @mul_zero_constant(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %z = cmm.constant dense<0.0> : tensor<1x1xf64>
  %0 = cmm.mul %z, %a : (tensor<1x1xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @matmul_zero_right(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<3x5xf64>
// CHECK-NEXT: return %[[Z]] : tensor<3x5xf64>
func.func @matmul_zero_right(%a: tensor<3x4xf64>) -> tensor<3x5xf64> {
  %z = cmm.fill 0.0 : tensor<4x5xf64>
  %0 = cmm.matmul %a, %z : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  return %0 : tensor<3x5xf64>
}

// -----

// CHECK-LABEL: func.func @matmul_zero_left_constant(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<2x4xf64>
// CHECK-NEXT: return %[[Z]] : tensor<2x4xf64>
func.func @matmul_zero_left_constant(%a: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %z = cmm.constant dense<0.0> : tensor<2x3xf64>
  %0 = cmm.matmul %z, %a : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// -----

// Multiplying by ones is not multiplying by zero.
// CHECK-LABEL: func.func @mul_one_not_zero(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// The greedy driver hoists constants to the top of the function.
// CHECK-NEXT: %[[C:.*]] = cmm.constant dense<1.000000e+00> : tensor<4x2xf64>
// CHECK-NEXT: %[[O:.*]] = cmm.fill 1.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: %[[M:.*]] = cmm.mul %[[A]], %[[O]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[M]], %[[C]] : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[P]] : tensor<3x2xf64>
func.func @mul_one_not_zero(%a: tensor<3x4xf64>) -> tensor<3x2xf64> {
  %o = cmm.fill 1.0 : tensor<3x4xf64>
  %0 = cmm.mul %a, %o : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %c = cmm.constant dense<1.0> : tensor<4x2xf64>
  %1 = cmm.matmul %0, %c : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

//===----------------------------------------------------------------------===//
// scale-scale: s*(t*A) -> (s*t)*A; scale-one: 1*A -> A
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @scale_scale(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 6.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x4xf64>
func.func @scale_scale(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<3x4xf64>
  %1 = cmm.scale %0 by 3.0 : tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// -----

// Factors whose product overflows or underflows are not merged: 1e200 *
// (1e200 * A) is finite for A near 1e-300, 1e400 * A is Inf; likewise
// 1e-200 * (1e-200 * B) for B near 1e300 against 0 * B.
// CHECK-LABEL: func.func @scale_scale_overflow(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[S0:.*]] = cmm.scale %[[A]] by 9.9999999999999996E+199
// CHECK-NEXT: %[[S1:.*]] = cmm.scale %[[S0]] by 9.9999999999999996E+199
// CHECK-NEXT: %[[T0:.*]] = cmm.scale %[[A]] by 9.9999999999999998E-201
// CHECK-NEXT: %[[T1:.*]] = cmm.scale %[[T0]] by 9.9999999999999998E-201
// CHECK-NEXT: return %[[S1]], %[[T1]]
func.func @scale_scale_overflow(%a: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %0 = cmm.scale %a by 1.0e200 : tensor<3x4xf64>
  %1 = cmm.scale %0 by 1.0e200 : tensor<3x4xf64>
  %2 = cmm.scale %a by 1.0e-200 : tensor<3x4xf64>
  %3 = cmm.scale %2 by 1.0e-200 : tensor<3x4xf64>
  return %1, %3 : tensor<3x4xf64>, tensor<3x4xf64>
}

// -----

// Scalings of different values do not merge.
// CHECK-LABEL: func.func @scale_no_scale(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[A]] : tensor<3x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[N]] by 3.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x4xf64>
func.func @scale_no_scale(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.neg %a : tensor<3x4xf64>
  %1 = cmm.scale %0 by 3.0 : tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// -----

// 2 * (0.5 * A) is 1 * A, which is A.
// CHECK-LABEL: func.func @scale_scale_one(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @scale_scale_one(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.scale %a by 0.5 : tensor<3x4xf64>
  %1 = cmm.scale %0 by 2.0 : tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @scale_one(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @scale_one(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.scale %a by 1.0 : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @scale_minus_one(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by -1.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x4xf64>
func.func @scale_minus_one(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.scale %a by -1.0 : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

//===----------------------------------------------------------------------===//
// matmul-scale: (s*A)*B -> s*(A*B), A*(s*B) -> s*(A*B), only where the
// product has no more elements than the scaled operand(s) it absorbs, so the
// scaling (one flop per element) never costs more
//===----------------------------------------------------------------------===//

// -----

// A (4x3) scaled, B (3x2): the 4x2 product (8 elements) is smaller than A
// (12), so the scale moves: 12 + 48 = 60 flops become 48 + 8 = 56.
// CHECK-LABEL: func.func @matmul_scale_left(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x3xf64>, %[[B:[^:]*]]: tensor<3x2xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P]] by 2.000000e+00 : tensor<4x2xf64>
// CHECK-NEXT: return %[[S]] : tensor<4x2xf64>
func.func @matmul_scale_left(%a: tensor<4x3xf64>, %b: tensor<3x2xf64>) -> tensor<4x2xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<4x3xf64>
  %1 = cmm.matmul %0, %b : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return %1 : tensor<4x2xf64>
}

// -----

// A (2x3), B (3x4) scaled: the 2x4 product (8) is smaller than B (12):
// 12 + 48 = 60 flops become 48 + 8 = 56.
// CHECK-LABEL: func.func @matmul_scale_right(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[B:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P]] by 3.000000e+00 : tensor<2x4xf64>
// CHECK-NEXT: return %[[S]] : tensor<2x4xf64>
func.func @matmul_scale_right(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %0 = cmm.scale %b by 3.0 : tensor<3x4xf64>
  %1 = cmm.matmul %a, %0 : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  return %1 : tensor<2x4xf64>
}

// -----

// Equal sizes fire too: A (3x3), B (3x2) scaled, the 3x2 product has as many
// elements as B (6): 6 + 36 = 42 flops either way.
// CHECK-LABEL: func.func @matmul_scale_equal(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x3xf64>, %[[B:[^:]*]]: tensor<3x2xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P]] by 3.000000e+00 : tensor<3x2xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x2xf64>
func.func @matmul_scale_equal(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = cmm.scale %b by 3.0 : tensor<3x2xf64>
  %1 = cmm.matmul %a, %0 : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// Both sides: one scale by the product of the factors. A (3x2) and B (2x3)
// have 6 elements each, the 3x3 product 9: larger than either, but not
// than the 12 elements of both scalings it replaces: 6 + 6 + 36 = 48 flops
// become 36 + 9 = 45.
// CHECK-LABEL: func.func @matmul_scale_both(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x2xf64>, %[[B:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P]] by 6.000000e+00 : tensor<3x3xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x3xf64>
func.func @matmul_scale_both(%a: tensor<3x2xf64>, %b: tensor<2x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<3x2xf64>
  %1 = cmm.scale %b by 3.0 : tensor<2x3xf64>
  %2 = cmm.matmul %0, %1 : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  return %2 : tensor<3x3xf64>
}

// -----

// The product is larger than the scaled operand: an outer product (2*a)*b
// with a 100x1, b 1x100. As written 100 + 20000 = 20100 flops; moving the
// scale would cost 20000 + 10000 = 30000: unchanged.
// CHECK-LABEL: func.func @matmul_scale_larger(
// CHECK-SAME: %[[A:[^:]*]]: tensor<100x1xf64>, %[[B:[^:]*]]: tensor<1x100xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<100x1xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[S]], %[[B]] : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
// CHECK-NEXT: return %[[P]] : tensor<100x100xf64>
func.func @matmul_scale_larger(%a: tensor<100x1xf64>, %b: tensor<1x100xf64>) -> tensor<100x100xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<100x1xf64>
  %1 = cmm.matmul %0, %b : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
  return %1 : tensor<100x100xf64>
}

// -----

// Both sides of the outer product scaled: the 10000-element product is still
// larger than the 100 + 100 elements of both scalings: unchanged.
// CHECK-LABEL: func.func @matmul_scale_both_larger(
// CHECK-SAME: %[[A:[^:]*]]: tensor<100x1xf64>, %[[B:[^:]*]]: tensor<1x100xf64>
// CHECK-NEXT: %[[SA:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<100x1xf64>
// CHECK-NEXT: %[[SB:.*]] = cmm.scale %[[B]] by 3.000000e+00 : tensor<1x100xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[SA]], %[[SB]] : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
// CHECK-NEXT: return %[[P]] : tensor<100x100xf64>
func.func @matmul_scale_both_larger(%a: tensor<100x1xf64>, %b: tensor<1x100xf64>) -> tensor<100x100xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<100x1xf64>
  %1 = cmm.scale %b by 3.0 : tensor<1x100xf64>
  %2 = cmm.matmul %0, %1 : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
  return %2 : tensor<100x100xf64>
}

// -----

// The scaled value has another use: moving the scale would compute it twice.
// The shapes of @matmul_scale_left (the 4x2 product, 8 elements, is smaller
// than A, 12), so only the other use keeps the rule from firing.
// CHECK-LABEL: func.func @matmul_scale_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x3xf64>, %[[B:[^:]*]]: tensor<3x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<4x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[S]], %[[B]] : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
// CHECK-NEXT: return %[[P]], %[[S]] : tensor<4x2xf64>, tensor<4x3xf64>
func.func @matmul_scale_shared(%a: tensor<4x3xf64>, %b: tensor<3x2xf64>) -> (tensor<4x2xf64>, tensor<4x3xf64>) {
  %0 = cmm.scale %a by 2.0 : tensor<4x3xf64>
  %1 = cmm.matmul %0, %b : (tensor<4x3xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return %1, %0 : tensor<4x2xf64>, tensor<4x3xf64>
}

//===----------------------------------------------------------------------===//
// neg-neg: -(-A) -> A
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @neg_neg(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<3x4xf64>
func.func @neg_neg(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.neg %a : tensor<3x4xf64>
  %1 = cmm.neg %0 : tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @neg_once(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[A]] : tensor<3x4xf64>
// CHECK-NEXT: return %[[N]] : tensor<3x4xf64>
func.func @neg_once(%a: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %0 = cmm.neg %a : tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

//===----------------------------------------------------------------------===//
// pow-zero-one: A^0 -> I, A^1 -> A
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @pow_zero(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x4xf64>
// CHECK-NEXT: %[[I:.*]] = cmm.eye : tensor<4x4xf64>
// CHECK-NEXT: return %[[I]] : tensor<4x4xf64>
func.func @pow_zero(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = cmm.pow %a, 0 : tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// -----

// CHECK-LABEL: func.func @pow_one(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x4xf64>
// CHECK-NEXT: return %[[A]] : tensor<4x4xf64>
func.func @pow_one(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = cmm.pow %a, 1 : tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// -----

// CHECK-LABEL: func.func @pow_two(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x4xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.pow %[[A]], 2 : tensor<4x4xf64>
// CHECK-NEXT: return %[[P]] : tensor<4x4xf64>
func.func @pow_two(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = cmm.pow %a, 2 : tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// -----

// A^0 * B -> I * B -> B: pow-zero-one exposes matmul-identity.
// CHECK-LABEL: func.func @pow_zero_times(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x4xf64>, %[[B:[^:]*]]: tensor<4x2xf64>
// CHECK-NEXT: return %[[B]] : tensor<4x2xf64>
func.func @pow_zero_times(%a: tensor<4x4xf64>, %b: tensor<4x2xf64>) -> tensor<4x2xf64> {
  %0 = cmm.pow %a, 0 : tensor<4x4xf64>
  %1 = cmm.matmul %0, %b : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return %1 : tensor<4x2xf64>
}

//===----------------------------------------------------------------------===//
// transpose-matmul: (A'*B)' -> B'*A, (A'*B')' -> B*A
//===----------------------------------------------------------------------===//

// -----

// Two transposes (A' and the outer one) become one (B').
// CHECK-LABEL: func.func @transpose_matmul_one(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x2xf64>, %[[B:[^:]*]]: tensor<4x3xf64>
// CHECK-NEXT: %[[BT:.*]] = cmm.transpose %[[B]] : tensor<4x3xf64> -> tensor<3x4xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[BT]], %[[A]] : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[P]] : tensor<3x2xf64>
func.func @transpose_matmul_one(%a: tensor<4x2xf64>, %b: tensor<4x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %a : tensor<4x2xf64> -> tensor<2x4xf64>
  %1 = cmm.matmul %0, %b : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  %2 = cmm.transpose %1 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %2 : tensor<3x2xf64>
}

// -----

// Three transposes become none.
// CHECK-LABEL: func.func @transpose_matmul_both(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x2xf64>, %[[B:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[B]], %[[A]] : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[P]] : tensor<3x2xf64>
func.func @transpose_matmul_both(%a: tensor<4x2xf64>, %b: tensor<3x4xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %a : tensor<4x2xf64> -> tensor<2x4xf64>
  %1 = cmm.transpose %b : tensor<3x4xf64> -> tensor<4x3xf64>
  %2 = cmm.matmul %0, %1 : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  %3 = cmm.transpose %2 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %3 : tensor<3x2xf64>
}

// -----

// (A*B)' -> B'*A' would trade one transpose for two: unchanged.
// CHECK-LABEL: func.func @transpose_matmul_plain(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x4xf64>, %[[B:[^:]*]]: tensor<4x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @transpose_matmul_plain(%a: tensor<2x4xf64>, %b: tensor<4x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.matmul %a, %b : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// The product has another use: rewriting the transpose would compute it twice.
// CHECK-LABEL: func.func @transpose_matmul_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x2xf64>, %[[B:[^:]*]]: tensor<3x4xf64>
// CHECK-NEXT: %[[AT:.*]] = cmm.transpose %[[A]] : tensor<4x2xf64> -> tensor<2x4xf64>
// CHECK-NEXT: %[[BT:.*]] = cmm.transpose %[[B]] : tensor<3x4xf64> -> tensor<4x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[AT]], %[[BT]] : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]], %[[P]] : tensor<3x2xf64>, tensor<2x3xf64>
func.func @transpose_matmul_shared(%a: tensor<4x2xf64>, %b: tensor<3x4xf64>) -> (tensor<3x2xf64>, tensor<2x3xf64>) {
  %0 = cmm.transpose %a : tensor<4x2xf64> -> tensor<2x4xf64>
  %1 = cmm.transpose %b : tensor<3x4xf64> -> tensor<4x3xf64>
  %2 = cmm.matmul %0, %1 : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  %3 = cmm.transpose %2 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %3, %2 : tensor<3x2xf64>, tensor<2x3xf64>
}

//===----------------------------------------------------------------------===//
// transposed-product-twin: A*B -> (B'*A')' when B'*A' is computed earlier
//===----------------------------------------------------------------------===//

// -----

// Synth's A*B + B'*A': the second product is the transpose of the first.
// CHECK-LABEL: func.func @twin_after(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x4xf64>, %[[B:[^:]*]]: tensor<4x2xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<2x4xf64>, tensor<4x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]] : tensor<2x2xf64> -> tensor<2x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[P]], %[[T]]
// CHECK-NEXT: return %[[S]]
func.func @twin_after(%a: tensor<2x4xf64>, %b: tensor<4x2xf64>) -> tensor<2x2xf64> {
  %0 = cmm.matmul %a, %b : (tensor<2x4xf64>, tensor<4x2xf64>) -> tensor<2x2xf64>
  %1 = cmm.transpose %b : tensor<4x2xf64> -> tensor<2x4xf64>
  %2 = cmm.transpose %a : tensor<2x4xf64> -> tensor<4x2xf64>
  %3 = cmm.matmul %1, %2 : (tensor<2x4xf64>, tensor<4x2xf64>) -> tensor<2x2xf64>
  %4 = cmm.add %0, %3 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %4 : tensor<2x2xf64>
}

// -----

// The transposed product first: the plain one becomes its transpose.
// CHECK-LABEL: func.func @twin_before(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x4xf64>, %[[B:[^:]*]]: tensor<4x3xf64>
// CHECK-NEXT: %[[BT:.*]] = cmm.transpose %[[B]] : tensor<4x3xf64> -> tensor<3x4xf64>
// CHECK-NEXT: %[[AT:.*]] = cmm.transpose %[[A]] : tensor<2x4xf64> -> tensor<4x2xf64>
// CHECK-NEXT: %[[Q:.*]] = cmm.matmul %[[BT]], %[[AT]] : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[Q]] : tensor<3x2xf64> -> tensor<2x3xf64>
// CHECK-NEXT: return %[[Q]], %[[T]]
func.func @twin_before(%a: tensor<2x4xf64>, %b: tensor<4x3xf64>) -> (tensor<3x2xf64>, tensor<2x3xf64>) {
  %0 = cmm.transpose %b : tensor<4x3xf64> -> tensor<3x4xf64>
  %1 = cmm.transpose %a : tensor<2x4xf64> -> tensor<4x2xf64>
  %2 = cmm.matmul %0, %1 : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  %3 = cmm.matmul %a, %b : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  return %2, %3 : tensor<3x2xf64>, tensor<2x3xf64>
}

// -----

// B'*C' is not the transpose of A*B: both products stay.
// CHECK-LABEL: func.func @twin_other_operand(
// CHECK: cmm.matmul
// CHECK: cmm.matmul
// CHECK-NOT: cmm.matmul
func.func @twin_other_operand(%a: tensor<2x2xf64>, %b: tensor<2x2xf64>, %c: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %1 = cmm.transpose %b : tensor<2x2xf64> -> tensor<2x2xf64>
  %2 = cmm.transpose %c : tensor<2x2xf64> -> tensor<2x2xf64>
  %3 = cmm.matmul %1, %2 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0, %3 : tensor<2x2xf64>, tensor<2x2xf64>
}

// -----

// A'*B' with A*B (not B*A) is not a twin either: (A*B)' = B'*A'.
// CHECK-LABEL: func.func @twin_wrong_order(
// CHECK: cmm.matmul
// CHECK: cmm.matmul
func.func @twin_wrong_order(%a: tensor<2x2xf64>, %b: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %1 = cmm.transpose %a : tensor<2x2xf64> -> tensor<2x2xf64>
  %2 = cmm.transpose %b : tensor<2x2xf64> -> tensor<2x2xf64>
  %3 = cmm.matmul %1, %2 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0, %3 : tensor<2x2xf64>, tensor<2x2xf64>
}

//===----------------------------------------------------------------------===//
// transpose-push: transposes move through scale, neg, map and broadcasting
// ops whose other operand needs no transpose
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @push_scale(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[T]] by 2.500000e+00 : tensor<3x2xf64>
// CHECK-NEXT: return %[[S]] : tensor<3x2xf64>
func.func @push_scale(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.scale %a by 2.5 : tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// CHECK-LABEL: func.func @push_neg(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[T]] : tensor<3x2xf64>
// CHECK-NEXT: return %[[N]] : tensor<3x2xf64>
func.func @push_neg(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.neg %a : tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// CHECK-LABEL: func.func @push_map(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[M:.*]] = cmm.map exp %[[T]] : tensor<3x2xf64>
// CHECK-NEXT: return %[[M]] : tensor<3x2xf64>
func.func @push_map(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.map exp %a : tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// The transpose reaches a transposed operand and cancels: (-(A'))' -> -A.
// CHECK-LABEL: func.func @push_neg_cancel(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[A]] : tensor<2x3xf64>
// CHECK-NEXT: return %[[N]] : tensor<2x3xf64>
func.func @push_neg_cancel(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = cmm.neg %0 : tensor<3x2xf64>
  %2 = cmm.transpose %1 : tensor<3x2xf64> -> tensor<2x3xf64>
  return %2 : tensor<2x3xf64>
}

// -----

// (A .+ s)' -> A' .+ s for a 1x1 s.
// CHECK-LABEL: func.func @push_broadcast_scalar(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[S:[^:]*]]: tensor<1x1xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.add %[[T]], %[[S]] : (tensor<3x2xf64>, tensor<1x1xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<3x2xf64>
func.func @push_broadcast_scalar(%a: tensor<2x3xf64>, %s: tensor<1x1xf64>) -> tensor<3x2xf64> {
  %0 = cmm.add %a, %s : (tensor<2x3xf64>, tensor<1x1xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// (A .* B')' -> A' .* B: still one transpose, now on a leaf.
// CHECK-LABEL: func.func @push_broadcast_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[B:[^:]*]]: tensor<3x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.mul %[[T]], %[[B]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<3x2xf64>
func.func @push_broadcast_transpose(%a: tensor<2x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = cmm.transpose %b : tensor<3x2xf64> -> tensor<2x3xf64>
  %1 = cmm.mul %a, %0 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %2 = cmm.transpose %1 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %2 : tensor<3x2xf64>
}

// -----

// (A - fill)' -> A' - fill of the swapped shape.
// CHECK-LABEL: func.func @push_broadcast_fill(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[F:.*]] = cmm.fill 2.000000e+00 : tensor<3x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.sub %[[T]], %[[F]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<3x2xf64>
func.func @push_broadcast_fill(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %f = cmm.fill 2.0 : tensor<2x3xf64>
  %0 = cmm.sub %a, %f : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// A comparison keeps its predicate.
// CHECK-LABEL: func.func @push_cmp(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[S:[^:]*]]: tensor<1x1xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.cmp gt, %[[S]], %[[T]] : (tensor<1x1xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<3x2xf64>
func.func @push_cmp(%a: tensor<2x3xf64>, %s: tensor<1x1xf64>) -> tensor<3x2xf64> {
  %0 = cmm.cmp gt, %s, %a : (tensor<1x1xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// Both operands of the sum would need a transpose: unchanged.
// CHECK-LABEL: func.func @no_push_two_operands(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[B:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[A]], %[[B]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[S]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @no_push_two_operands(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.add %a, %b : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// A row is not free to transpose either (unlike a 1x1): unchanged.
// CHECK-LABEL: func.func @no_push_row(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[R:[^:]*]]: tensor<1x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.mul %[[A]], %[[R]] : (tensor<2x3xf64>, tensor<1x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[S]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x2xf64>
func.func @no_push_row(%a: tensor<2x3xf64>, %r: tensor<1x3xf64>) -> tensor<3x2xf64> {
  %0 = cmm.mul %a, %r : (tensor<2x3xf64>, tensor<1x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1 : tensor<3x2xf64>
}

// -----

// The inner op has another use: pushing would compute it twice.
// CHECK-LABEL: func.func @no_push_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[S]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return %[[T]], %[[S]] : tensor<3x2xf64>, tensor<2x3xf64>
func.func @no_push_shared(%a: tensor<2x3xf64>) -> (tensor<3x2xf64>, tensor<2x3xf64>) {
  %0 = cmm.scale %a by 2.0 : tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  return %1, %0 : tensor<3x2xf64>, tensor<2x3xf64>
}

// -----

// Nothing to push through: a transpose of a product of untransposed values,
// an inverse, a reduction.
// CHECK-LABEL: func.func @no_push_inv(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x3xf64>
// CHECK-NEXT: %[[I:.*]] = cmm.inv %[[A]] : tensor<3x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[I]] : tensor<3x3xf64> -> tensor<3x3xf64>
// CHECK-NEXT: return %[[T]] : tensor<3x3xf64>
func.func @no_push_inv(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.inv %a : tensor<3x3xf64>
  %1 = cmm.transpose %0 : tensor<3x3xf64> -> tensor<3x3xf64>
  return %1 : tensor<3x3xf64>
}

//===----------------------------------------------------------------------===//
// fold-fill: constant folding of fill operands
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @fold_fill_binary()
// CHECK-DAG: %[[ADD:.*]] = cmm.fill 5.000000e+00 : tensor<2x3xf64>
// CHECK-DAG: %[[SUB:.*]] = cmm.fill -1.000000e+00 : tensor<2x3xf64>
// CHECK-DAG: %[[MUL:.*]] = cmm.fill 6.000000e+00 : tensor<2x3xf64>
// CHECK-DAG: %[[DIV:.*]] = cmm.fill 1.500000e+00 : tensor<2x3xf64>
// CHECK-NOT: cmm.add
// CHECK-NOT: cmm.sub
// CHECK-NOT: cmm.mul
// CHECK-NOT: cmm.div
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]] :
func.func @fold_fill_binary() -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %two = cmm.fill 2.0 : tensor<2x3xf64>
  %three = cmm.fill 3.0 : tensor<1x1xf64>
  %six = cmm.constant dense<6.0> : tensor<2x3xf64>
  %four = cmm.fill 4.0 : tensor<2x3xf64>
  %0 = cmm.add %two, %three : (tensor<2x3xf64>, tensor<1x1xf64>) -> tensor<2x3xf64>
  %1 = cmm.sub %two, %three : (tensor<2x3xf64>, tensor<1x1xf64>) -> tensor<2x3xf64>
  %2 = cmm.mul %three, %two : (tensor<1x1xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %3 = cmm.div %six, %four : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0, %1, %2, %3 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// -----

// A row fill against a column fill gives the full outer shape.
// CHECK-LABEL: func.func @fold_fill_outer()
// CHECK-NEXT: %[[F:.*]] = cmm.fill 7.000000e+00 : tensor<3x4xf64>
// CHECK-NEXT: return %[[F]] : tensor<3x4xf64>
func.func @fold_fill_outer() -> tensor<3x4xf64> {
  %r = cmm.fill 3.0 : tensor<1x4xf64>
  %c = cmm.fill 4.0 : tensor<3x1xf64>
  %0 = cmm.add %r, %c : (tensor<1x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

// CHECK-LABEL: func.func @fold_fill_scale()
// CHECK-NEXT: %[[F:.*]] = cmm.fill 6.000000e+00 : tensor<2x3xf64>
// CHECK-NEXT: return %[[F]] : tensor<2x3xf64>
func.func @fold_fill_scale() -> tensor<2x3xf64> {
  %two = cmm.fill 2.0 : tensor<2x3xf64>
  %0 = cmm.scale %two by 3.0 : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// CHECK-LABEL: func.func @fold_fill_neg()
// CHECK-NEXT: %[[F:.*]] = cmm.fill -2.000000e+00 : tensor<2x3xf64>
// CHECK-NEXT: return %[[F]] : tensor<2x3xf64>
func.func @fold_fill_neg() -> tensor<2x3xf64> {
  %two = cmm.fill 2.0 : tensor<2x3xf64>
  %0 = cmm.neg %two : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// CHECK-LABEL: func.func @fold_fill_transpose()
// CHECK-NEXT: %[[F:.*]] = cmm.fill 2.000000e+00 : tensor<3x2xf64>
// CHECK-NEXT: return %[[F]] : tensor<3x2xf64>
func.func @fold_fill_transpose() -> tensor<3x2xf64> {
  %two = cmm.fill 2.0 : tensor<2x3xf64>
  %0 = cmm.transpose %two : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// A fill with a non-constant operand, and a non-splat constant: no folding.
// CHECK-LABEL: func.func @no_fold_fill(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x2xf64>
// CHECK-NEXT: %[[C:.*]] = cmm.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64>
// CHECK-NEXT: %[[F:.*]] = cmm.fill 2.000000e+00 : tensor<2x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[F]], %[[A]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[C]] : tensor<2x2xf64>
// CHECK-NEXT: %[[M:.*]] = cmm.mul %[[F]], %[[C]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: return %[[S]], %[[N]], %[[M]] :
func.func @no_fold_fill(%a: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>) {
  %f = cmm.fill 2.0 : tensor<2x2xf64>
  %0 = cmm.add %f, %a : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %c = cmm.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %1 = cmm.neg %c : tensor<2x2xf64>
  %2 = cmm.mul %f, %c : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0, %1, %2 : tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xf64>
}
