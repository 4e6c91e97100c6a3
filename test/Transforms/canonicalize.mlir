// The static rules are also the cmm dialect's canonicalization patterns:
// -canonicalize applies them (with the op folders) like
// cmm-algebraic-simplify.
// RUN: cmm-opt %s -split-input-file -canonicalize | FileCheck %s

// transpose-matmul ((A'*B')' -> B*A), add-zero, scale-one, matmul-identity,
// neg-neg, scale-scale and pow-zero-one, all in one function.
// CHECK-LABEL: func.func @canon(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x2xf64>, %[[B:[^:]*]]: tensor<3x4xf64>, %[[C:[^:]*]]: tensor<2x2xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[B]], %[[A]] : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[C]] by 8.000000e+00 : tensor<2x2xf64>
// CHECK-NEXT: return %[[P]], %[[S]] : tensor<3x2xf64>, tensor<2x2xf64>
func.func @canon(%a: tensor<4x2xf64>, %b: tensor<3x4xf64>, %c: tensor<2x2xf64>) -> (tensor<3x2xf64>, tensor<2x2xf64>) {
  %0 = cmm.transpose %a : tensor<4x2xf64> -> tensor<2x4xf64>
  %1 = cmm.transpose %b : tensor<3x4xf64> -> tensor<4x3xf64>
  %2 = cmm.matmul %0, %1 : (tensor<2x4xf64>, tensor<4x3xf64>) -> tensor<2x3xf64>
  %3 = cmm.transpose %2 : tensor<2x3xf64> -> tensor<3x2xf64>
  %z = cmm.fill 0.0 : tensor<3x2xf64>
  %4 = cmm.add %3, %z : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %5 = cmm.scale %4 by 1.0 : tensor<3x2xf64>
  %i = cmm.eye : tensor<2x2xf64>
  %6 = cmm.matmul %i, %c : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %7 = cmm.neg %6 : tensor<2x2xf64>
  %8 = cmm.neg %7 : tensor<2x2xf64>
  %9 = cmm.scale %8 by 2.0 : tensor<2x2xf64>
  %10 = cmm.scale %9 by 4.0 : tensor<2x2xf64>
  %11 = cmm.pow %10, 1 : tensor<2x2xf64>
  return %5, %11 : tensor<3x2xf64>, tensor<2x2xf64>
}

// -----

// mul-zero, transpose-push and fold-fill.
// CHECK-LABEL: func.func @canon_zero_push(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[B:[^:]*]]: tensor<3x5xf64>
// CHECK-DAG: %[[Z:.*]] = cmm.fill 0.000000e+00 : tensor<2x5xf64>
// CHECK-DAG: %[[F:.*]] = cmm.fill -6.000000e+00 : tensor<3x2xf64>
// CHECK-DAG: %[[T:.*]] = cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-DAG: %[[E:.*]] = cmm.map exp %[[T]] : tensor<3x2xf64>
// CHECK-NOT: cmm.matmul
// CHECK-NOT: cmm.neg
// CHECK: return %[[Z]], %[[E]], %[[F]] : tensor<2x5xf64>, tensor<3x2xf64>, tensor<3x2xf64>
func.func @canon_zero_push(%a: tensor<2x3xf64>, %b: tensor<3x5xf64>) -> (tensor<2x5xf64>, tensor<3x2xf64>, tensor<3x2xf64>) {
  %z = cmm.constant dense<0.0> : tensor<2x3xf64>
  %0 = cmm.matmul %z, %b : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<2x5xf64>
  %1 = cmm.map exp %a : tensor<2x3xf64>
  %2 = cmm.transpose %1 : tensor<2x3xf64> -> tensor<3x2xf64>
  %f = cmm.fill 3.0 : tensor<2x3xf64>
  %g = cmm.scale %f by 2.0 : tensor<2x3xf64>
  %h = cmm.neg %g : tensor<2x3xf64>
  %3 = cmm.transpose %h : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0, %2, %3 : tensor<2x5xf64>, tensor<3x2xf64>, tensor<3x2xf64>
}

// -----

// Nothing to simplify: -canonicalize leaves the IR as it is.
// CHECK-LABEL: func.func @canon_nothing(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf64>, %[[B:[^:]*]]: tensor<3x3xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT: %[[Q:.*]] = cmm.pow %[[B]], 2 : tensor<3x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[Q]] by 2.000000e+00 : tensor<3x3xf64>
// CHECK-NEXT: return %[[T]], %[[S]] : tensor<3x2xf64>, tensor<3x3xf64>
func.func @canon_nothing(%a: tensor<2x3xf64>, %b: tensor<3x3xf64>) -> (tensor<3x2xf64>, tensor<3x3xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
  %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
  %2 = cmm.pow %b, 2 : tensor<3x3xf64>
  %3 = cmm.scale %2 by 2.0 : tensor<3x3xf64>
  return %1, %3 : tensor<3x2xf64>, tensor<3x3xf64>
}
