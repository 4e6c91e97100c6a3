// The dense linear algebra ops (docs/language.md, "Dense linear algebra"):
// custom form round trip (several results included) and generic form.
// RUN: cmm-opt %s | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @linalg(
func.func @linalg(%a: tensor<4x4xf64>, %x: tensor<5x3xf64>, %w: tensor<2x3xf64>,
                  %b: tensor<5x2xf64>, %c: tensor<5x5xf64>) {
  // CHECK: cmm.chol %{{.*}} : tensor<4x4xf64>
  %0 = cmm.chol %a : tensor<4x4xf64>
  // CHECK: %{{.*}}, %{{.*}} = cmm.qr %{{.*}} : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x3xf64>
  %q, %r = cmm.qr %x : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x3xf64>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = cmm.svd %{{.*}} : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>
  %u, %s, %v = cmm.svd %x : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>
  // A wide matrix: k = 2 rows.
  // CHECK: cmm.svd %{{.*}} : tensor<2x3xf64> -> tensor<2x2xf64>, tensor<2x1xf64>, tensor<3x2xf64>
  %u2, %s2, %v2 = cmm.svd %w : tensor<2x3xf64> -> tensor<2x2xf64>, tensor<2x1xf64>, tensor<3x2xf64>
  // CHECK: cmm.svdvals %{{.*}} : tensor<2x3xf64> -> tensor<2x1xf64>
  %1 = cmm.svdvals %w : tensor<2x3xf64> -> tensor<2x1xf64>
  // CHECK: %{{.*}}, %{{.*}} = cmm.eig %{{.*}} : tensor<4x4xf64> -> tensor<4x1xf64>, tensor<4x4xf64>
  %e, %vecs = cmm.eig %a : tensor<4x4xf64> -> tensor<4x1xf64>, tensor<4x4xf64>
  // CHECK: cmm.eigvals %{{.*}} : tensor<4x4xf64> -> tensor<4x1xf64>
  %2 = cmm.eigvals %a : tensor<4x4xf64> -> tensor<4x1xf64>
  // An input symmetric by construction (cmm-linear-solves): no run-time test.
  // CHECK: cmm.chol %{{.*}} symmetric : tensor<4x4xf64>
  %s0 = cmm.chol %a symmetric : tensor<4x4xf64>
  // CHECK: cmm.eig %{{.*}} symmetric : tensor<4x4xf64> -> tensor<4x1xf64>, tensor<4x4xf64>
  %se, %svecs = cmm.eig %a symmetric : tensor<4x4xf64> -> tensor<4x1xf64>, tensor<4x4xf64>
  // CHECK: cmm.eigvals %{{.*}} symmetric : tensor<4x4xf64> -> tensor<4x1xf64>
  %sv = cmm.eigvals %a symmetric : tensor<4x4xf64> -> tensor<4x1xf64>
  // CHECK: cmm.det %{{.*}} : tensor<4x4xf64> -> tensor<1x1xf64>
  %3 = cmm.det %a : tensor<4x4xf64> -> tensor<1x1xf64>
  // CHECK: cmm.pinv %{{.*}} : tensor<5x3xf64> -> tensor<3x5xf64>
  %4 = cmm.pinv %x : tensor<5x3xf64> -> tensor<3x5xf64>
  // CHECK: cmm.tril %{{.*}} : tensor<2x3xf64>
  %5 = cmm.tril %w : tensor<2x3xf64>
  // CHECK: cmm.triu %{{.*}} : tensor<5x3xf64>
  %6 = cmm.triu %x : tensor<5x3xf64>
  // Least squares: a tall A gives A's columns by B's columns.
  // CHECK: cmm.solve %{{.*}}, %{{.*}} : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  %7 = cmm.solve %x, %b : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  // The methods cmm-linear-solves marks.
  // CHECK: cmm.solve %{{.*}} transposed, %{{.*}} triangular upper : (tensor<5x5xf64>, tensor<5x2xf64>) -> tensor<5x2xf64>
  %8 = cmm.solve %c transposed, %b triangular upper : (tensor<5x5xf64>, tensor<5x2xf64>) -> tensor<5x2xf64>
  // CHECK: cmm.solve %{{.*}}, %{{.*}} cholesky : (tensor<5x5xf64>, tensor<5x2xf64>) -> tensor<5x2xf64>
  %9 = cmm.solve %c, %b cholesky : (tensor<5x5xf64>, tensor<5x2xf64>) -> tensor<5x2xf64>
  // CHECK: cmm.solve %{{.*}}, %{{.*}} full_rank : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  %10 = cmm.solve %x, %b full_rank : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  // CHECK: cmm.solve %{{.*}}, %{{.*}} full_rank replaces inv : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  %11 = cmm.solve %x, %b full_rank replaces inv : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  // CHECK: cmm.solve %{{.*}}, %{{.*}} replaces pinv : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  %12 = cmm.solve %x, %b replaces pinv : (tensor<5x3xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
  return
}

// GENERIC: "cmm.qr"(%{{.*}}) : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3x3xf64>)
// GENERIC: "cmm.svd"(%{{.*}}) : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>)
// GENERIC: "cmm.eig"(%{{.*}}) : (tensor<4x4xf64>) -> (tensor<4x1xf64>, tensor<4x4xf64>)
