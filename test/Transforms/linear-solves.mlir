// cmm-linear-solves: products with an inverse become solves, the normal
// equations least squares, and solves with a matrix symmetric positive
// semi-definite by construction the Cholesky route (docs/passes.md).
// RUN: cmm-opt %s --cmm-linear-solves | FileCheck %s
// RUN: cmm-opt %s --mlir-disable-threading --cmm-flop-report=stage=before --cmm-linear-solves --cmm-flop-report=stage=after 2>&1 >/dev/null | FileCheck %s --check-prefix=FLOPS

// The flop report, by hand for the first and the least-squares cases:
// inv(A) * B, A 4x4, B 4x2: 2 n^3 + 2 n^2 k = 128 + 64 = 192; A \ B:
// 2/3 n^3 + 2 n^2 k = 42.667 + 64 = 106.667.
// FLOPS: @inv_times before: 192 flops (64 in matrix products)
// FLOPS-NEXT: @inv_times after: 106.667 flops (0 in matrix products)
// FLOPS-NEXT: cmm-linear-solves:inv-times x1
// FLOPS: @inv_used_twice after: 192 flops
// FLOPS-NEXT: no rule fired
// FLOPS: @inv_on_the_right after: 192 flops
// FLOPS-NEXT: no rule fired
// pinv(X) for X 6x3 (l = 6, k = 3): the SVD with vectors, 4 l k^2 + 8 k^3
// = 432, and V diag(1/s) U', 2 * 3 * 3 * 6 = 108; for W 2x5: 144 + 40;
// the products with y and z: 36 + 20. In all 780. The least-squares
// solves (a QR of A and an SVD of R: 2 l k^2 + 2 k^3 + 4 m n r): 108 + 54
// + 72 = 234 and 40 + 16 + 40 = 96, 330.
// FLOPS: @pinv_times before: 780 flops (56 in matrix products)
// FLOPS-NEXT: @pinv_times after: 330 flops (0 in matrix products)
// FLOPS-NEXT: cmm-linear-solves:pinv-times x2
// FLOPS: @pinv_square after: 396 flops
// FLOPS-NEXT: no rule fired
// FLOPS: @normal_equations after:
// FLOPS-NEXT: cmm-linear-solves:inv-times x1
// FLOPS-NEXT: cmm-linear-solves:normal-equations x2
// A Cholesky solve of 3x3 by one column: 3^3 / 3 + 2 * 9 = 27 instead of
// 2/3 * 27 + 18 = 36, so 9 fewer.
// FLOPS: @normal_equations_stay before: 72 flops (36 in matrix products)
// FLOPS-NEXT: @normal_equations_stay after: 63 flops (36 in matrix products)
// FLOPS-NEXT: cmm-linear-solves:cholesky-solve x1
// FLOPS: @ridge after:
// FLOPS-NEXT: cmm-linear-solves:cholesky-solve x1
// Four substitutions of n^2 = 9 flops instead of LUs of 2/3 n^3 + 2 n^2 =
// 36 flops each: 108 fewer.
// FLOPS: @triangular after:
// FLOPS-NEXT: cmm-linear-solves:triangular-solve x4

// inv(A) * B -> A \ B.
// CHECK-LABEL: func.func @inv_times(
// CHECK-SAME: %[[A:.*]]: tensor<4x4xf64>, %[[B:.*]]: tensor<4x2xf64>
// CHECK-NOT: cmm.inv
// CHECK: %[[X:.*]] = cmm.solve %[[A]], %[[B]] replaces inv : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
// CHECK: return %[[X]]
func.func @inv_times(%a: tensor<4x4xf64>, %b: tensor<4x2xf64>) -> tensor<4x2xf64> {
  %i = cmm.inv %a : tensor<4x4xf64>
  %p = cmm.matmul %i, %b : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return %p : tensor<4x2xf64>
}

// A right operand read transposed is transposed for the solve.
// CHECK-LABEL: func.func @inv_times_transposed(
// CHECK-SAME: %[[A:.*]]: tensor<4x4xf64>, %[[B:.*]]: tensor<2x4xf64>
// CHECK: %[[T:.*]] = cmm.transpose %[[B]] : tensor<2x4xf64> -> tensor<4x2xf64>
// CHECK: cmm.solve %[[A]], %[[T]]
func.func @inv_times_transposed(%a: tensor<4x4xf64>, %b: tensor<2x4xf64>) -> tensor<4x2xf64> {
  %i = cmm.inv %a : tensor<4x4xf64>
  %p = cmm.gemm %i, %b transposed : (tensor<4x4xf64>, tensor<2x4xf64>) -> tensor<4x2xf64>
  return %p : tensor<4x2xf64>
}

// Must not fire: the inverse is used again (it is computed anyway), or it
// is the right factor.
// CHECK-LABEL: func.func @inv_used_twice(
// CHECK: cmm.inv
// CHECK: cmm.matmul
// CHECK-NOT: cmm.solve
func.func @inv_used_twice(%a: tensor<4x4xf64>, %b: tensor<4x2xf64>) -> (tensor<4x2xf64>, tensor<4x4xf64>) {
  %i = cmm.inv %a : tensor<4x4xf64>
  %p = cmm.matmul %i, %b : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return %p, %i : tensor<4x2xf64>, tensor<4x4xf64>
}
// CHECK-LABEL: func.func @inv_on_the_right(
// CHECK: cmm.inv
// CHECK-NOT: cmm.solve
func.func @inv_on_the_right(%a: tensor<4x4xf64>, %b: tensor<2x4xf64>) -> tensor<2x4xf64> {
  %i = cmm.inv %a : tensor<4x4xf64>
  %p = cmm.matmul %b, %i : (tensor<2x4xf64>, tensor<4x4xf64>) -> tensor<2x4xf64>
  return %p : tensor<2x4xf64>
}

// pinv(X) * y -> X \ y for a tall and a wide X.
// CHECK-LABEL: func.func @pinv_times(
// CHECK-SAME: %[[X:.*]]: tensor<6x3xf64>, %[[Y:.*]]: tensor<6x1xf64>, %[[W:.*]]: tensor<2x5xf64>, %[[Z:.*]]: tensor<2x1xf64>
// CHECK-NOT: cmm.pinv
// CHECK: cmm.solve %[[X]], %[[Y]] replaces pinv : (tensor<6x3xf64>, tensor<6x1xf64>) -> tensor<3x1xf64>
// CHECK: cmm.solve %[[W]], %[[Z]] replaces pinv : (tensor<2x5xf64>, tensor<2x1xf64>) -> tensor<5x1xf64>
func.func @pinv_times(%x: tensor<6x3xf64>, %y: tensor<6x1xf64>, %w: tensor<2x5xf64>, %z: tensor<2x1xf64>) -> (tensor<3x1xf64>, tensor<5x1xf64>) {
  %p = cmm.pinv %x : tensor<6x3xf64> -> tensor<3x6xf64>
  %r = cmm.matmul %p, %y : (tensor<3x6xf64>, tensor<6x1xf64>) -> tensor<3x1xf64>
  %q = cmm.pinv %w : tensor<2x5xf64> -> tensor<5x2xf64>
  %s = cmm.matmul %q, %z : (tensor<5x2xf64>, tensor<2x1xf64>) -> tensor<5x1xf64>
  return %r, %s : tensor<3x1xf64>, tensor<5x1xf64>
}

// Must not fire: a square X (X \ y is an LU, which fails where pinv does not).
// CHECK-LABEL: func.func @pinv_square(
// CHECK: cmm.pinv
// CHECK-NOT: cmm.solve
func.func @pinv_square(%x: tensor<3x3xf64>, %y: tensor<3x1xf64>) -> tensor<3x1xf64> {
  %p = cmm.pinv %x : tensor<3x3xf64> -> tensor<3x3xf64>
  %r = cmm.matmul %p, %y : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return %r : tensor<3x1xf64>
}

// The normal equations, written as a solve and through the inverse, become
// the least-squares solve X \ y, `full_rank`: a rank-deficient X stays the
// error of the singular X' X.
// CHECK-LABEL: func.func @normal_equations(
// CHECK-SAME: %[[X:.*]]: tensor<6x3xf64>, %[[Y:.*]]: tensor<6x2xf64>
// CHECK-NOT: cmm.gemm
// CHECK: %[[S:.*]] = cmm.solve %[[X]], %[[Y]] full_rank : (tensor<6x3xf64>, tensor<6x2xf64>) -> tensor<3x2xf64>
// CHECK-NOT: cholesky
// CHECK: %[[T:.*]] = cmm.solve %[[X]], %[[Y]] full_rank replaces inv : (tensor<6x3xf64>, tensor<6x2xf64>) -> tensor<3x2xf64>
// CHECK: return %[[S]], %[[T]]
func.func @normal_equations(%x: tensor<6x3xf64>, %y: tensor<6x2xf64>) -> (tensor<3x2xf64>, tensor<3x2xf64>) {
  %g = cmm.gemm %x transposed, %x : (tensor<6x3xf64>, tensor<6x3xf64>) -> tensor<3x3xf64>
  %m = cmm.gemm %x transposed, %y : (tensor<6x3xf64>, tensor<6x2xf64>) -> tensor<3x2xf64>
  %s = cmm.solve %g, %m : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %g2 = cmm.gemm %x transposed, %x : (tensor<6x3xf64>, tensor<6x3xf64>) -> tensor<3x3xf64>
  %i = cmm.inv %g2 : tensor<3x3xf64>
  %m2 = cmm.gemm %x transposed, %y : (tensor<6x3xf64>, tensor<6x2xf64>) -> tensor<3x2xf64>
  %t = cmm.matmul %i, %m2 : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return %s, %t : tensor<3x2xf64>, tensor<3x2xf64>
}

// Must not fire: a wide X (X' X is singular, and the program's error on it
// stays). X' X is semi-definite: the solve tries Cholesky, then LU, which
// reports the singular matrix as before.
// CHECK-LABEL: func.func @normal_equations_stay(
// CHECK: %[[G:.*]] = cmm.gemm %{{.*}} transposed, %{{.*}} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
// CHECK: cmm.solve %[[G]], %{{.*}} cholesky
func.func @normal_equations_stay(%w: tensor<2x3xf64>, %z: tensor<2x1xf64>) -> tensor<3x1xf64> {
  %g = cmm.gemm %w transposed, %w : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  %m = cmm.gemm %w transposed, %z : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<3x1xf64>
  %s = cmm.solve %g, %m : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return %s : tensor<3x1xf64>
}

// Must not fire: X' X + c I is not the normal equations of X (ridge); it is
// positive definite by construction, so the solve takes the Cholesky route.
// Neither fires for a matrix that is not symmetric by construction.
// CHECK-LABEL: func.func @ridge(
// CHECK: %[[S:.*]] = cmm.solve %{{.*}}, %{{.*}} cholesky : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
// CHECK: %[[T:.*]] = cmm.solve %{{.*}}, %{{.*}} : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
// CHECK: return %[[S]], %[[T]]
func.func @ridge(%x: tensor<6x3xf64>, %y: tensor<6x1xf64>, %a: tensor<3x3xf64>) -> (tensor<3x1xf64>, tensor<3x1xf64>) {
  %g = cmm.gemm %x transposed, %x : (tensor<6x3xf64>, tensor<6x3xf64>) -> tensor<3x3xf64>
  %e = cmm.eye : tensor<3x3xf64>
  %c = cmm.scale %e by 5.000000e-01 : tensor<3x3xf64>
  %r = cmm.add %g, %c : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %m = cmm.gemm %x transposed, %y : (tensor<6x3xf64>, tensor<6x1xf64>) -> tensor<3x1xf64>
  %s = cmm.solve %r, %m : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %n = cmm.add %a, %c : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %t = cmm.solve %n, %m : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return %s, %t : tensor<3x1xf64>, tensor<3x1xf64>
}

// A triangular by construction: one substitution. R = chol(A) is upper,
// tril lower; a transposed triangle, R' or (triu)', is read where it is
// stored (`transposed`), so no transpose is left.
// CHECK-LABEL: func.func @triangular(
// CHECK-SAME: %[[B:[^:]*]]: tensor<3x1xf64>
// CHECK-NOT: cmm.transpose
// CHECK: %[[R:.*]] = cmm.chol
// CHECK-NOT: cmm.transpose
// CHECK: %[[Y:.*]] = cmm.solve %[[R]] transposed, %[[B]] triangular upper
// CHECK: cmm.solve %[[R]], %[[Y]] triangular upper
// CHECK: %[[L:.*]] = cmm.tril
// CHECK: cmm.solve %[[L]], %[[B]] triangular lower
// CHECK: %[[U:.*]] = cmm.triu
// CHECK-NOT: cmm.transpose
// CHECK: cmm.solve %[[U]] transposed, %[[B]] triangular upper
// Must not fire: a matrix that is not triangular by construction.
// CHECK: cmm.solve %{{.*}}, %{{.*}} : (tensor<3x3xf64>
func.func @triangular(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>, %m: tensor<3x3xf64>) -> (tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x1xf64>) {
  %r = cmm.chol %a : tensor<3x3xf64>
  %t = cmm.transpose %r : tensor<3x3xf64> -> tensor<3x3xf64>
  %y = cmm.solve %t, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %x = cmm.solve %r, %y : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %l = cmm.tril %m : tensor<3x3xf64>
  %z = cmm.solve %l, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %u = cmm.triu %m : tensor<3x3xf64>
  %ut = cmm.transpose %u : tensor<3x3xf64> -> tensor<3x3xf64>
  %w = cmm.solve %ut, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  %v = cmm.solve %m, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return %x, %z, %w, %v : tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x1xf64>
}

// Must not fire: an effect between the inverse and the product (the print
// would come before the singular error), or the product in another block
// (a loop that may run it many times, or none).
// CHECK-LABEL: func.func @inverse_then_print(
// CHECK: cmm.inv
// CHECK: cmm.print
// CHECK: cmm.matmul
// CHECK-NOT: cmm.solve
func.func @inverse_then_print(%a: tensor<2x2xf64>, %b: tensor<2x1xf64>) -> tensor<2x1xf64> {
  %i = cmm.inv %a : tensor<2x2xf64>
  cmm.print %a "A" : tensor<2x2xf64>
  %p = cmm.matmul %i, %b : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
  return %p : tensor<2x1xf64>
}
// CHECK-LABEL: func.func @inverse_outside_loop(
// CHECK: cmm.inv
// CHECK: cmm.while
// CHECK: cmm.matmul
// CHECK-NOT: cmm.solve
func.func @inverse_outside_loop(%a: tensor<2x2xf64>, %x0: tensor<2x1xf64>, %c: tensor<1x1xf64>) -> tensor<2x1xf64> {
  %i = cmm.inv %a : tensor<2x2xf64>
  %r = cmm.while (%x0) : (tensor<2x1xf64>) -> tensor<2x1xf64> {
  ^bb0(%x: tensor<2x1xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<2x1xf64>
  } do {
  ^bb0(%x: tensor<2x1xf64>):
    %y = cmm.matmul %i, %x : (tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>
    cmm.end %y : tensor<2x1xf64>
  }
  return %r : tensor<2x1xf64>
}

// A transposed triangle with another use stays for that use; the solve
// still reads the triangle where it is stored.
// CHECK-LABEL: func.func @transposed_triangle_kept(
// CHECK: %[[L:.*]] = cmm.tril
// CHECK: %[[T:.*]] = cmm.transpose %[[L]]
// CHECK: %[[X:.*]] = cmm.solve %[[L]] transposed, %{{.*}} triangular lower
// CHECK: return %[[X]], %[[T]]
func.func @transposed_triangle_kept(%m: tensor<3x3xf64>, %b: tensor<3x1xf64>) -> (tensor<3x1xf64>, tensor<3x3xf64>) {
  %l = cmm.tril %m : tensor<3x3xf64>
  %t = cmm.transpose %l : tensor<3x3xf64> -> tensor<3x3xf64>
  %x = cmm.solve %t, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return %x, %t : tensor<3x1xf64>, tensor<3x3xf64>
}

// chol, eig and eigvals of a matrix symmetric bit for bit by construction
// are marked `symmetric` (no run-time test): (U + U') / 2 + n * eye(n),
// U .* U' - 1, max(S, 0) of such an S, a fill; once only (the last chol is
// marked already: four rules fire, the flops are unchanged).
// FLOPS: @symmetric_inputs after:
// FLOPS-NEXT: cmm-linear-solves:symmetric-input x4
// FLOPS: @symmetric_up_to_rounding after:
// FLOPS-NEXT: no rule fired
// CHECK-LABEL: func.func @symmetric_inputs(
// CHECK: cmm.chol %{{.*}} symmetric : tensor<3x3xf64>
// CHECK: cmm.eig %{{.*}} symmetric : tensor<3x3xf64>
// CHECK: cmm.eigvals %{{.*}} symmetric : tensor<3x3xf64>
// CHECK: cmm.chol %{{.*}} symmetric : tensor<3x3xf64>
// CHECK: cmm.chol %{{.*}} symmetric : tensor<3x3xf64>
func.func @symmetric_inputs(%u: tensor<3x3xf64>, %c: tensor<1x1xf64>) -> (tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x3xf64>) {
  %t = cmm.transpose %u : tensor<3x3xf64> -> tensor<3x3xf64>
  %s = cmm.add %u, %t : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %h = cmm.scale %s by 5.000000e-01 : tensor<3x3xf64>
  %i = cmm.eye : tensor<3x3xf64>
  %n = cmm.scale %i by 3.000000e+00 : tensor<3x3xf64>
  %a = cmm.add %h, %n : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %r = cmm.chol %a : tensor<3x3xf64>
  %p = cmm.mul %t, %u : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %q = cmm.sub %p, %c : (tensor<3x3xf64>, tensor<1x1xf64>) -> tensor<3x3xf64>
  %w, %v = cmm.eig %q : tensor<3x3xf64> -> tensor<3x1xf64>, tensor<3x3xf64>
  %m = cmm.max %a, %c : (tensor<3x3xf64>, tensor<1x1xf64>) -> tensor<3x3xf64>
  %e = cmm.eigvals %m : tensor<3x3xf64> -> tensor<3x1xf64>
  %f = cmm.fill 2.000000e+00 : tensor<3x3xf64>
  %rf = cmm.chol %f : tensor<3x3xf64>
  %ra = cmm.chol %a symmetric : tensor<3x3xf64>
  return %r, %w, %v, %e, %rf, %ra : tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x3xf64>
}

// Must not fire: symmetric only up to rounding (X' X as a product, a
// library map of a symmetric matrix, a matrix power, an inverse), or not
// symmetric at all (U - U', U alone, a non-symmetric constant). Their
// run-time test stays.
// CHECK-LABEL: func.func @symmetric_up_to_rounding(
// CHECK-NOT: symmetric
// CHECK: return
func.func @symmetric_up_to_rounding(%x: tensor<4x3xf64>, %u: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x3xf64>, tensor<2x2xf64>) {
  %g = cmm.gemm %x transposed, %x : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<3x3xf64>
  %r = cmm.chol %g : tensor<3x3xf64>
  %t = cmm.transpose %u : tensor<3x3xf64> -> tensor<3x3xf64>
  %s = cmm.add %u, %t : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %e = cmm.map exp %s : tensor<3x3xf64>
  %re = cmm.chol %e : tensor<3x3xf64>
  %p = cmm.pow %s, 3 : tensor<3x3xf64>
  %w = cmm.eigvals %p : tensor<3x3xf64> -> tensor<3x1xf64>
  %i = cmm.inv %s : tensor<3x3xf64>
  %wi = cmm.eigvals %i : tensor<3x3xf64> -> tensor<3x1xf64>
  %d = cmm.sub %u, %t : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %rd = cmm.chol %d : tensor<3x3xf64>
  %ru = cmm.chol %u : tensor<3x3xf64>
  %k = cmm.constant dense<[[2.0, 1.0], [1.5, 2.0]]> : tensor<2x2xf64>
  %rk = cmm.chol %k : tensor<2x2xf64>
  return %r, %re, %w, %wi, %rd, %ru, %rk : tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x1xf64>, tensor<3x1xf64>, tensor<3x3xf64>, tensor<3x3xf64>, tensor<2x2xf64>
}
