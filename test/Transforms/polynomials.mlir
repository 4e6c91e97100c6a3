// cmm-polynomials: a polynomial in one matrix by Paterson-Stockmeyer, only
// where it takes fewer products than the ops it replaces, and only ops read
// nowhere else. (test/Transforms/polynomials.cmm checks values and the
// degree-16 flop count.)
// RUN: cmm-opt %s --cmm-polynomials | FileCheck %s

// I + A + A^2/2 + A^3/6 + A^4/24 (the traced sum of powers: 1 + 2 + 2 = 5
// products) becomes s = 2: A^2 (one product), then the top block A^4/24 =
// (1/24) A^2 * A^2 and one Horner step: 2 products in all.
// CHECK-LABEL: func.func @taylor4(
// CHECK-SAME: %[[A:.*]]: tensor<4x4xf64>
// CHECK-NOT: cmm.pow
// CHECK: %[[A2:.*]] = cmm.matmul %[[A]], %[[A]]
// CHECK: %[[TOP:.*]] = cmm.scale %[[A2]] by 0.041666666666666664
// CHECK: %[[E:.*]] = cmm.eye
// CHECK: %[[HALF:.*]] = cmm.scale %[[E]] by 5.000000e-01
// CHECK: %[[SIXTH:.*]] = cmm.scale %[[A]] by 0.16666666666666666
// CHECK: %[[B1:.*]] = cmm.add %[[HALF]], %[[SIXTH]]
// CHECK: %[[T:.*]] = cmm.add %[[TOP]], %[[B1]]
// CHECK: %[[H:.*]] = cmm.matmul %[[T]], %[[A2]]
// CHECK: %[[B0:.*]] = cmm.add %{{.*}}, %[[A]]
// CHECK: %[[R:.*]] = cmm.add %[[H]], %[[B0]]
// CHECK-NOT: cmm.matmul
// CHECK: return %[[R]]
func.func @taylor4(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %e = cmm.eye : tensor<4x4xf64>
  %0 = cmm.add %e, %a : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p2 = cmm.pow %a, 2 : tensor<4x4xf64>
  %s2 = cmm.scale %p2 by 0.5 : tensor<4x4xf64>
  %1 = cmm.add %0, %s2 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p3 = cmm.pow %a, 3 : tensor<4x4xf64>
  %s3 = cmm.scale %p3 by 0.16666666666666666 : tensor<4x4xf64>
  %2 = cmm.add %1, %s3 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p4 = cmm.pow %a, 4 : tensor<4x4xf64>
  %s4 = cmm.scale %p4 by 0.041666666666666664 : tensor<4x4xf64>
  %3 = cmm.add %2, %s4 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %3 : tensor<4x4xf64>
}

// Must not fire: A^2 + A + I already takes one product (Paterson-Stockmeyer
// would take one too).
// CHECK-LABEL: func.func @degree2(
// CHECK: cmm.pow %{{.*}}, 2
func.func @degree2(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %e = cmm.eye : tensor<4x4xf64>
  %p2 = cmm.pow %a, 2 : tensor<4x4xf64>
  %0 = cmm.add %p2, %a : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %1 = cmm.add %0, %e : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %1 : tensor<4x4xf64>
}

// Must not fire: a term is read elsewhere (A^3 is returned too), so the
// products stay.
// CHECK-LABEL: func.func @shared_term(
// CHECK-COUNT-3: cmm.pow
func.func @shared_term(%a: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %p2 = cmm.pow %a, 2 : tensor<4x4xf64>
  %p3 = cmm.pow %a, 3 : tensor<4x4xf64>
  %p4 = cmm.pow %a, 4 : tensor<4x4xf64>
  %0 = cmm.add %p2, %p3 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %1 = cmm.add %0, %p4 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %1, %p3 : tensor<4x4xf64>, tensor<4x4xf64>
}

// Must not fire: two matrices (A^3 + B^3 + A^4 is no polynomial in one).
// CHECK-LABEL: func.func @two_matrices(
// CHECK-COUNT-3: cmm.pow
func.func @two_matrices(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %pa = cmm.pow %a, 3 : tensor<4x4xf64>
  %pb = cmm.pow %b, 3 : tensor<4x4xf64>
  %pc = cmm.pow %a, 4 : tensor<4x4xf64>
  %0 = cmm.add %pa, %pb : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %1 = cmm.add %0, %pc : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %1 : tensor<4x4xf64>
}

// A polynomial in a value made in the block (A + A'), found below an op
// that is no polynomial (the print reads the sum, not a product).
// CHECK-LABEL: func.func @inner(
// CHECK: %[[S:.*]] = cmm.add %{{.*}}, %{{.*}} : (tensor<4x4xf64>, tensor<4x4xf64>)
// CHECK-NOT: cmm.pow
// CHECK: cmm.matmul %[[S]], %[[S]]
func.func @inner(%a: tensor<4x4xf64>) -> tensor<1x1xf64> {
  %t = cmm.transpose %a : tensor<4x4xf64> -> tensor<4x4xf64>
  %s = cmm.add %a, %t : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p2 = cmm.pow %s, 2 : tensor<4x4xf64>
  %p3 = cmm.pow %s, 3 : tensor<4x4xf64>
  %p4 = cmm.pow %s, 4 : tensor<4x4xf64>
  %0 = cmm.add %p2, %p3 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %1 = cmm.add %0, %p4 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %n = cmm.norm %1 : tensor<4x4xf64> -> tensor<1x1xf64>
  return %n : tensor<1x1xf64>
}

// Must not fire: a power alone (P * (P * (P * P)): the squaring and chain
// passes', which see u * P^4 as four vector products), and a polynomial
// multiplied by a row (Horner's rule on the row would be cheaper than any
// n x n product).
// CHECK-LABEL: func.func @monomial_and_thin(
// CHECK-COUNT-3: cmm.matmul {{.*}} -> tensor<4x4xf64>
// CHECK-COUNT-3: cmm.pow
func.func @monomial_and_thin(%p: tensor<4x4xf64>, %u: tensor<1x4xf64>) -> (tensor<1x4xf64>, tensor<1x4xf64>) {
  %0 = cmm.matmul %p, %p : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %1 = cmm.matmul %p, %0 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %2 = cmm.matmul %p, %1 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %m = cmm.matmul %u, %2 : (tensor<1x4xf64>, tensor<4x4xf64>) -> tensor<1x4xf64>
  %a2 = cmm.pow %p, 2 : tensor<4x4xf64>
  %a3 = cmm.pow %p, 3 : tensor<4x4xf64>
  %a4 = cmm.pow %p, 4 : tensor<4x4xf64>
  %s = cmm.add %a2, %a3 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %t = cmm.add %s, %a4 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %v = cmm.matmul %u, %t : (tensor<1x4xf64>, tensor<4x4xf64>) -> tensor<1x4xf64>
  return %m, %v : tensor<1x4xf64>, tensor<1x4xf64>
}

// Terms that cancel (A^5 - A^5) leave a polynomial of degree 3, not 5;
// and a polynomial in a scaled matrix A = B * 1e30 is one in A (its
// coefficients are not folded into B's powers, which would overflow).
// CHECK-LABEL: func.func @cancel_and_scaled(
// CHECK-SAME: %[[B:.*]]: tensor<4x4xf64>
// CHECK: %[[A:.*]] = cmm.scale %[[B]] by 1.000000e+30
// Degree 3 by Horner: ((A + I) A + I) A + I, two products.
// CHECK-NOT: cmm.pow
// CHECK: cmm.add %[[A]], %{{.*}}
// CHECK: cmm.matmul %{{.*}}, %[[A]]
// CHECK: cmm.matmul %{{.*}}, %[[A]]
// CHECK-NOT: cmm.matmul
// CHECK-NOT: cmm.scale %{{.*}} by 0.0
func.func @cancel_and_scaled(%b: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %a = cmm.scale %b by 1.0e30 : tensor<4x4xf64>
  %e = cmm.eye : tensor<4x4xf64>
  %0 = cmm.add %e, %a : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p2 = cmm.pow %a, 2 : tensor<4x4xf64>
  %1 = cmm.add %0, %p2 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p3 = cmm.pow %a, 3 : tensor<4x4xf64>
  %2 = cmm.add %1, %p3 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %p5 = cmm.pow %a, 5 : tensor<4x4xf64>
  %3 = cmm.add %2, %p5 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %4 = cmm.sub %3, %p5 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return %4 : tensor<4x4xf64>
}
