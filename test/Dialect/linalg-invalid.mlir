// The dense linear algebra ops' verifiers: each shape rule, with both the
// shape given and the one expected.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

func.func @chol_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.chol' op Cholesky factorization needs a square matrix, got 3x2}}
  %0 = cmm.chol %a : tensor<3x2xf64>
  return
}

// -----

func.func @qr_wide(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.qr' op thin QR needs at least as many rows as columns, not 2x3}}
  %q, %r = cmm.qr %a : tensor<2x3xf64> -> tensor<2x3xf64>, tensor<3x3xf64>
  return
}

// -----

func.func @qr_r_shape(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.qr' op result #1 shape 5x3 should be 3x3}}
  %q, %r = cmm.qr %a : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<5x3xf64>
  return
}

// -----

func.func @svd_u_shape(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.svd' op result #0 shape 2x3 should be 2x2}}
  %u, %s, %v = cmm.svd %a : tensor<2x3xf64> -> tensor<2x3xf64>, tensor<2x1xf64>, tensor<3x2xf64>
  return
}

// -----

func.func @svd_s_row(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.svd' op result #1 shape 1x3 should be 3x1}}
  %u, %s, %v = cmm.svd %a : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<1x3xf64>, tensor<3x3xf64>
  return
}

// -----

func.func @svd_v_shape(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.svd' op result #2 shape 5x3 should be 3x3}}
  %u, %s, %v = cmm.svd %a : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x1xf64>, tensor<5x3xf64>
  return
}

// -----

func.func @svd_wrong_result_count(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{operation defines 3 results but was provided 2 to bind}}
  %u, %s = cmm.svd %a : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>
  return
}

// -----

func.func @svdvals_shape(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.svdvals' op result #0 shape 3x1 should be 2x1}}
  %0 = cmm.svdvals %a : tensor<2x3xf64> -> tensor<3x1xf64>
  return
}

// -----

func.func @eig_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.eig' op eigendecomposition needs a square matrix, got 3x2}}
  %w, %v = cmm.eig %a : tensor<3x2xf64> -> tensor<3x1xf64>, tensor<3x3xf64>
  return
}

// -----

func.func @eig_vectors_shape(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'cmm.eig' op result #1 shape 3x1 should be 3x3}}
  %w, %v = cmm.eig %a : tensor<3x3xf64> -> tensor<3x1xf64>, tensor<3x1xf64>
  return
}

// -----

func.func @eigvals_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.eigvals' op eigendecomposition needs a square matrix, got 3x2}}
  %0 = cmm.eigvals %a : tensor<3x2xf64> -> tensor<3x1xf64>
  return
}

// -----

func.func @det_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.det' op determinant needs a square matrix, got 3x2}}
  %0 = cmm.det %a : tensor<3x2xf64> -> tensor<1x1xf64>
  return
}

// -----

func.func @det_shape(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'cmm.det' op result #0 shape 3x3 should be 1x1}}
  %0 = cmm.det %a : tensor<3x3xf64> -> tensor<3x3xf64>
  return
}

// -----

func.func @pinv_shape(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.pinv' op result #0 shape 5x3 should be 3x5}}
  %0 = cmm.pinv %a : tensor<5x3xf64> -> tensor<5x3xf64>
  return
}

// -----

func.func @tril_shape(%a: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.tril' op requires the same type for all operands and results}}
  %0 = "cmm.tril"(%a) : (tensor<5x3xf64>) -> tensor<3x5xf64>
  return
}
