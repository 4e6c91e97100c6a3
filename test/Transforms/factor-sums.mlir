// cmm-factor-sums: common first or last factors of the terms of a sum
// taken out (F*X + F*Y -> F*(X + Y)), and the sums it must leave alone.
// RUN: cmm-opt %s -split-input-file --cmm-factor-sums | FileCheck %s

// The four terms of Montage's mosaic: T*P1*T' + T*P2*U' + U*P3*T' + U*P4*U'
// (products as parsed, left to right) become T*(P1*T' + P2*U') +
// U*(P3*T' + P4*U'): 2 products of 8x4x8 and 4 of 4x4x8 instead of 8.
// CHECK-LABEL: func.func @montage(
// CHECK-SAME: %[[T:[^:]*]]: tensor<8x4xf64>, %[[U:[^:]*]]: tensor<8x4xf64>, %[[P1:[^:]*]]: tensor<4x4xf64>, %[[P2:[^:]*]]: tensor<4x4xf64>, %[[P3:[^:]*]]: tensor<4x4xf64>, %[[P4:[^:]*]]: tensor<4x4xf64>
// CHECK-NEXT: %[[TT:.*]] = cmm.transpose %[[T]]
// CHECK-NEXT: %[[UT:.*]] = cmm.transpose %[[U]]
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P1]], %[[TT]]
// CHECK-NEXT: %[[B:.*]] = cmm.matmul %[[P2]], %[[UT]]
// CHECK-NEXT: %[[AB:.*]] = cmm.add %[[A]], %[[B]] : (tensor<4x8xf64>, tensor<4x8xf64>) -> tensor<4x8xf64>
// CHECK-NEXT: %[[TOP:.*]] = cmm.matmul %[[T]], %[[AB]] : (tensor<8x4xf64>, tensor<4x8xf64>) -> tensor<8x8xf64>
// CHECK-NEXT: %[[C:.*]] = cmm.matmul %[[P3]], %[[TT]]
// CHECK-NEXT: %[[D:.*]] = cmm.matmul %[[P4]], %[[UT]]
// CHECK-NEXT: %[[CD:.*]] = cmm.add %[[C]], %[[D]]
// CHECK-NEXT: %[[BOTTOM:.*]] = cmm.matmul %[[U]], %[[CD]]
// CHECK-NEXT: %[[S:.*]] = cmm.add %[[TOP]], %[[BOTTOM]]
// CHECK-NEXT: return %[[S]]
func.func @montage(%t: tensor<8x4xf64>, %u: tensor<8x4xf64>, %p1: tensor<4x4xf64>, %p2: tensor<4x4xf64>, %p3: tensor<4x4xf64>, %p4: tensor<4x4xf64>) -> tensor<8x8xf64> {
  %tt = cmm.transpose %t : tensor<8x4xf64> -> tensor<4x8xf64>
  %ut = cmm.transpose %u : tensor<8x4xf64> -> tensor<4x8xf64>
  %0 = cmm.matmul %t, %p1 : (tensor<8x4xf64>, tensor<4x4xf64>) -> tensor<8x4xf64>
  %1 = cmm.matmul %0, %tt : (tensor<8x4xf64>, tensor<4x8xf64>) -> tensor<8x8xf64>
  %2 = cmm.matmul %t, %p2 : (tensor<8x4xf64>, tensor<4x4xf64>) -> tensor<8x4xf64>
  %3 = cmm.matmul %2, %ut : (tensor<8x4xf64>, tensor<4x8xf64>) -> tensor<8x8xf64>
  %4 = cmm.add %1, %3 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %5 = cmm.matmul %u, %p3 : (tensor<8x4xf64>, tensor<4x4xf64>) -> tensor<8x4xf64>
  %6 = cmm.matmul %5, %tt : (tensor<8x4xf64>, tensor<4x8xf64>) -> tensor<8x8xf64>
  %7 = cmm.add %4, %6 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %8 = cmm.matmul %u, %p4 : (tensor<8x4xf64>, tensor<4x4xf64>) -> tensor<8x4xf64>
  %9 = cmm.matmul %8, %ut : (tensor<8x4xf64>, tensor<4x8xf64>) -> tensor<8x8xf64>
  %10 = cmm.add %7, %9 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  return %10 : tensor<8x8xf64>
}

// -----

// A common right factor, a difference, and a term that is not a chain.
// CHECK-LABEL: func.func @right_sub(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x3xf64>, %[[B:[^:]*]]: tensor<3x3xf64>, %[[C:[^:]*]]: tensor<3x3xf64>, %[[D:[^:]*]]: tensor<3x3xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.add %[[B]], %[[C]]
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[BC]], %[[A]]
// CHECK-NEXT: %[[R:.*]] = cmm.sub %[[D]], %[[P]]
// CHECK-NEXT: return %[[R]]
func.func @right_sub(%a: tensor<3x3xf64>, %b: tensor<3x3xf64>, %c: tensor<3x3xf64>, %d: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.matmul %b, %a : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %1 = cmm.matmul %c, %a : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %2 = cmm.sub %d, %0 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %3 = cmm.sub %2, %1 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %3 : tensor<3x3xf64>
}

// -----

// Scalings stay with their term: 2*(A*B) + A*C -> A*(2*B + C).
// CHECK-LABEL: func.func @scaled(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x3xf64>, %[[B:[^:]*]]: tensor<3x3xf64>, %[[C:[^:]*]]: tensor<3x3xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[B]] by 2.000000e+00
// CHECK-NEXT: %[[SUM:.*]] = cmm.add %[[S]], %[[C]]
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[SUM]]
// CHECK-NEXT: return %[[P]]
func.func @scaled(%a: tensor<3x3xf64>, %b: tensor<3x3xf64>, %c: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.matmul %a, %b : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %1 = cmm.scale %0 by 2.0 : tensor<3x3xf64>
  %2 = cmm.matmul %a, %c : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %3 = cmm.add %1, %2 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %3 : tensor<3x3xf64>
}

// -----

// Must not fire: A*B is used again (factoring would compute it twice).
// CHECK-LABEL: func.func @shared_term(
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.add
func.func @shared_term(%a: tensor<3x3xf64>, %b: tensor<3x3xf64>, %c: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3x3xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %1 = cmm.matmul %a, %c : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %2 = cmm.add %0, %1 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %2, %0 : tensor<3x3xf64>, tensor<3x3xf64>
}

// -----

// Must not fire: T*X + T'*Y share T's value but not the factor.
// CHECK-LABEL: func.func @transposed_factor(
// CHECK-NEXT: cmm.transpose
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.add
func.func @transposed_factor(%t: tensor<3x3xf64>, %x: tensor<3x3xf64>, %y: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %tt = cmm.transpose %t : tensor<3x3xf64> -> tensor<3x3xf64>
  %0 = cmm.matmul %t, %x : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %1 = cmm.matmul %tt, %y : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %2 = cmm.add %0, %1 : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %2 : tensor<3x3xf64>
}

// -----

// Must not fire: a broadcasting sum is not flattened (its operands differ
// in shape).
// CHECK-LABEL: func.func @broadcast(
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.add
// CHECK-NEXT: cmm.matmul
// CHECK-NEXT: cmm.add
func.func @broadcast(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>, %c: tensor<3x1xf64>, %d: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %0 = cmm.matmul %a, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %1 = cmm.add %0, %d : (tensor<3x1xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %2 = cmm.matmul %a, %c : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %3 = cmm.add %1, %2 : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x3xf64>
  return %3 : tensor<3x3xf64>
}
