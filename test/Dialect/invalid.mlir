// Every verifier error of the cmm dialect, with the shapes it names.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

func.func @matmul_inner(%a: tensor<2x3xf64>, %b: tensor<4x5xf64>) {
  // expected-error @+1 {{'cmm.matmul' op inner dimensions differ: 2x3 * 4x5}}
  %0 = cmm.matmul %a, %b : (tensor<2x3xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  return
}

// -----

func.func @matmul_result(%a: tensor<2x3xf64>, %b: tensor<3x5xf64>) {
  // expected-error @+1 {{'cmm.matmul' op result shape 5x2 does not match 2x3 * 3x5 = 2x5}}
  %0 = cmm.matmul %a, %b : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<5x2xf64>
  return
}

// -----

func.func @gemm_inner(%a: tensor<2x3xf64>, %b: tensor<3x5xf64>) {
  // expected-error @+1 {{'cmm.gemm' op inner dimensions differ: 3x2 (transposed) * 3x5}}
  %0 = cmm.gemm %a transposed, %b : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>
  return
}

// -----

func.func @gemm_result(%a: tensor<2x3xf64>, %b: tensor<5x3xf64>) {
  // expected-error @+1 {{'cmm.gemm' op result shape 2x3 does not match 2x5}}
  %0 = cmm.gemm %a, %b transposed : (tensor<2x3xf64>, tensor<5x3xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @gemm_no_transpose(%a: tensor<2x3xf64>, %b: tensor<3x5xf64>) {
  // expected-error @+1 {{'cmm.gemm' op transposes neither operand: that product is 'cmm.matmul'}}
  %0 = cmm.gemm %a, %b : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<2x5xf64>
  return
}

// -----

func.func @add_mismatch(%a: tensor<2x3xf64>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.add' op operand shapes 2x3 and 3x2 do not broadcast}}
  %0 = cmm.add %a, %b : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @add_wrong_result(%a: tensor<1x4xf64>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{'cmm.add' op result shape 1x4 does not match the broadcast of 1x4 and 3x1 (3x4)}}
  %0 = cmm.add %a, %b : (tensor<1x4xf64>, tensor<3x1xf64>) -> tensor<1x4xf64>
  return
}

// -----

func.func @sub_mismatch(%a: tensor<2x3xf64>, %b: tensor<2x4xf64>) {
  // expected-error @+1 {{'cmm.sub' op operand shapes 2x3 and 2x4 do not broadcast}}
  %0 = cmm.sub %a, %b : (tensor<2x3xf64>, tensor<2x4xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @mul_mismatch(%a: tensor<2x3xf64>, %b: tensor<1x2xf64>) {
  // expected-error @+1 {{'cmm.mul' op operand shapes 2x3 and 1x2 do not broadcast}}
  %0 = cmm.mul %a, %b : (tensor<2x3xf64>, tensor<1x2xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @div_mismatch(%a: tensor<2x3xf64>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{'cmm.div' op operand shapes 2x3 and 3x1 do not broadcast}}
  %0 = cmm.div %a, %b : (tensor<2x3xf64>, tensor<3x1xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @epow_mismatch(%a: tensor<2x3xf64>, %b: tensor<2x2xf64>) {
  // expected-error @+1 {{'cmm.epow' op operand shapes 2x3 and 2x2 do not broadcast}}
  %0 = cmm.epow %a, %b : (tensor<2x3xf64>, tensor<2x2xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @max_mismatch(%a: tensor<1x3xf64>, %b: tensor<1x4xf64>) {
  // expected-error @+1 {{'cmm.max' op operand shapes 1x3 and 1x4 do not broadcast}}
  %0 = cmm.max %a, %b : (tensor<1x3xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
  return
}

// -----

func.func @min_mismatch(%a: tensor<3x1xf64>, %b: tensor<4x1xf64>) {
  // expected-error @+1 {{'cmm.min' op operand shapes 3x1 and 4x1 do not broadcast}}
  %0 = cmm.min %a, %b : (tensor<3x1xf64>, tensor<4x1xf64>) -> tensor<4x1xf64>
  return
}

// -----

func.func @mod_mismatch(%a: tensor<5x5xf64>, %b: tensor<2x2xf64>) {
  // expected-error @+1 {{'cmm.mod' op operand shapes 5x5 and 2x2 do not broadcast}}
  %0 = cmm.mod %a, %b : (tensor<5x5xf64>, tensor<2x2xf64>) -> tensor<5x5xf64>
  return
}

// -----

func.func @cmp_mismatch(%a: tensor<2x3xf64>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.cmp' op operand shapes 2x3 and 3x2 do not broadcast}}
  %0 = cmm.cmp gt, %a, %b : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x3xf64>
  return
}

// -----

func.func @cmp_wrong_result(%a: tensor<2x3xf64>, %b: tensor<1x1xf64>) {
  // expected-error @+1 {{'cmm.cmp' op result shape 1x1 does not match the broadcast of 2x3 and 1x1 (2x3)}}
  %0 = cmm.cmp eq, %a, %b : (tensor<2x3xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
  return
}

// -----

func.func @transpose_result(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.transpose' op result shape 2x3 is not the transpose of 2x3}}
  %0 = cmm.transpose %a : tensor<2x3xf64> -> tensor<2x3xf64>
  return
}

// -----

func.func @pow_not_square(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.pow' op matrix power needs a square matrix, got 2x3}}
  %0 = cmm.pow %a, 2 : tensor<2x3xf64>
  return
}

// -----

func.func @pow_negative(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'cmm.pow' op attribute 'exponent' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = cmm.pow %a, -1 : tensor<3x3xf64>
  return
}

// -----

func.func @inv_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.inv' op inverse needs a square matrix, got 3x2}}
  %0 = cmm.inv %a : tensor<3x2xf64>
  return
}

// -----

func.func @least_squares_result(%a: tensor<3x2xf64>, %b: tensor<3x1xf64>) {
  // A tall A: the least-squares solution has A's 2 columns as rows.
  // expected-error @+1 {{'cmm.solve' op result #0 shape 3x1 should be 2x1}}
  %0 = cmm.solve %a, %b : (tensor<3x2xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return
}

// -----

func.func @solve_rows(%a: tensor<3x3xf64>, %b: tensor<4x2xf64>) {
  // expected-error @+1 {{'cmm.solve' op row counts differ: 3x3 \ 4x2}}
  %0 = cmm.solve %a, %b : (tensor<3x3xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return
}

// -----

func.func @solve_result(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.solve' op result #0 shape 3x3 should be 3x2}}
  %0 = cmm.solve %a, %b : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x3xf64>
  return
}

// -----

func.func @solve_cholesky_square(%a: tensor<3x2xf64>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{'cmm.solve' op a Cholesky solve needs a square matrix, got 3x2}}
  %0 = cmm.solve %a, %b cholesky : (tensor<3x2xf64>, tensor<3x1xf64>) -> tensor<2x1xf64>
  return
}

// -----

func.func @solve_two_methods(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{'cmm.solve' op takes one of cholesky, triangular and full_rank}}
  %0 = cmm.solve %a, %b cholesky triangular upper : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return
}

// -----

func.func @solve_full_rank_wide(%a: tensor<2x3xf64>, %b: tensor<2x1xf64>) {
  // expected-error @+1 {{'cmm.solve' op full_rank needs at least as many rows as columns, got 2x3}}
  %0 = cmm.solve %a, %b full_rank : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<3x1xf64>
  return
}

// -----

func.func @solve_transposed_general(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{'cmm.solve' op reads its matrix transposed only in a triangular solve}}
  %0 = cmm.solve %a transposed, %b : (tensor<3x3xf64>, tensor<3x1xf64>) -> tensor<3x1xf64>
  return
}

// -----

func.func @reduce_all(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.reduce' op result shape 1x4 does not match the reduction of 3x4 (expected 1x1)}}
  %0 = cmm.reduce sum %a : tensor<3x4xf64> -> tensor<1x4xf64>
  return
}

// -----

func.func @reduce_along_1(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.reduce' op result shape 3x1 does not match the reduction of 3x4 (expected 1x4)}}
  %0 = cmm.reduce max %a along 1 : tensor<3x4xf64> -> tensor<3x1xf64>
  return
}

// -----

func.func @reduce_along_2(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.reduce' op result shape 1x4 does not match the reduction of 3x4 (expected 3x1)}}
  %0 = cmm.reduce mean %a along 2 : tensor<3x4xf64> -> tensor<1x4xf64>
  return
}

// -----

func.func @reduce_along_3(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.reduce' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 2}}
  %0 = cmm.reduce min %a along 3 : tensor<3x4xf64> -> tensor<1x1xf64>
  return
}

// -----

func.func @reduce_along_0(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.reduce' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 2}}
  %0 = cmm.reduce sum %a along 0 : tensor<3x4xf64> -> tensor<1x1xf64>
  return
}

// -----

func.func @norm_result(%a: tensor<3x4xf64>) {
  // expected-error @+1 {{'cmm.norm' op result shape 1x4 must be 1x1}}
  %0 = cmm.norm %a : tensor<3x4xf64> -> tensor<1x4xf64>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{'cmm.range' op empty range 5:1 (stop is below start)}}
  %0 = cmm.range 5 to 1 : tensor<1x1xf64>
  return
}

// -----

func.func @range_shape() {
  // expected-error @+1 {{'cmm.range' op range 1:5 has shape 1x5 but the result is 1x4}}
  %0 = cmm.range 1 to 5 : tensor<1x4xf64>
  return
}

// -----

func.func @range_column() {
  // expected-error @+1 {{'cmm.range' op range 1:3 has shape 1x3 but the result is 3x1}}
  %0 = cmm.range 1 to 3 : tensor<3x1xf64>
  return
}

// -----

func.func @eye_not_square() {
  // expected-error @+1 {{'cmm.eye' op identity must be square, got 3x4}}
  %0 = cmm.eye : tensor<3x4xf64>
  return
}

// -----

func.func @load_suffix() {
  // expected-error @+1 {{'cmm.load' op unsupported matrix file format 'data.txt' (expected .npy, .mtx or .csv)}}
  %0 = cmm.load "data.txt" : tensor<2x2xf64>
  return
}

// -----

func.func @save_suffix(%a: tensor<2x2xf64>) {
  // expected-error @+1 {{'cmm.save' op unsupported matrix file format 'out' (expected .npy, .mtx or .csv)}}
  cmm.save %a to "out" : tensor<2x2xf64>
  return
}

// -----

func.func @constant_type() {
  // The custom form takes its type from the value; the generic form can
  // disagree.
  // expected-error @+1 {{'cmm.constant' op value type 'tensor<2x2xf64>' does not match result type 'tensor<1x4xf64>'}}
  %0 = "cmm.constant"() <{value = dense<1.0> : tensor<2x2xf64>}> : () -> tensor<1x4xf64>
  return
}

// -----

func.func @constant_not_float() {
  // expected-error @+1 {{expected dense f64 elements}}
  %0 = cmm.constant dense<1> : tensor<2x2xi64>
  return
}

// -----

func.func @constant_f32() {
  // expected-error @+1 {{'cmm.constant' op attribute 'value' failed to satisfy constraint: 64-bit float elements attribute}}
  %0 = "cmm.constant"() <{value = dense<1.0> : tensor<2x2xf32>}> : () -> tensor<2x2xf64>
  return
}

// -----

func.func @rank1(%a: tensor<3xf64>) {
  // expected-error @+1 {{'cmm.neg' op operand #0 must be matrix (2-D statically shaped tensor of f64), but got 'tensor<3xf64>'}}
  %0 = cmm.neg %a : tensor<3xf64>
  return
}

// -----

func.func @dynamic(%a: tensor<?x3xf64>) {
  // expected-error @+1 {{'cmm.map' op operand #0 must be matrix (2-D statically shaped tensor of f64), but got 'tensor<?x3xf64>'}}
  %0 = cmm.map exp %a : tensor<?x3xf64>
  return
}

// -----

func.func @f32(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{'cmm.inv' op operand #0 must be matrix (2-D statically shaped tensor of f64), but got 'tensor<2x2xf32>'}}
  %0 = cmm.inv %a : tensor<2x2xf32>
  return
}

// -----

func.func @rank3_result() {
  // expected-error @+1 {{'cmm.fill' op result #0 must be matrix (2-D statically shaped tensor of f64), but got 'tensor<2x2x2xf64>'}}
  %0 = cmm.fill 1.0 : tensor<2x2x2xf64>
  return
}

// -----

func.func @unranked(%a: tensor<*xf64>) {
  // expected-error @+1 {{'cmm.print' op operand #0 must be matrix (2-D statically shaped tensor of f64), but got 'tensor<*xf64>'}}
  "cmm.print"(%a) <{label = "a"}> : (tensor<*xf64>) -> ()
  return
}

// -----

func.func @bad_enum(%a: tensor<2x2xf64>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'fn' [sqrt, exp, log, abs, sin, cos, tanh, floor, round]}}
  %0 = cmm.map cbrt %a : tensor<2x2xf64>
  return
}

// -----

func.func @fused_broadcast(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.fused' op input 0 of shape 2x3 does not broadcast to the result shape 4x3}}
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<4x3xf64> {
  ^bb0(%e: f64):
    cmm.yield %e : f64
  }
  return
}

// -----

func.func @fused_arguments(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.fused' op has 1 input(s) but its body takes 2 element(s)}}
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> {
  ^bb0(%e: f64, %f: f64):
    cmm.yield %e : f64
  }
  return
}

// -----

func.func @fused_argument_type(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.fused' op body arguments must be f64 elements, not 'f32'}}
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> {
  ^bb0(%e: f32):
    %c = arith.constant 1.0 : f64
    cmm.yield %c : f64
  }
  return
}

// -----

func.func @fused_body_op(%a: tensor<2x3xf64>) {
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> {
  ^bb0(%e: f64):
    // expected-error @+1 {{'arith.addf' op cannot appear in a cmm.fused body (only cmm.scalar, f64 arith.constant and cmm.yield)}}
    %s = arith.addf %e, %e : f64
    cmm.yield %s : f64
  }
  return
}

// -----

func.func @fused_terminator(%a: tensor<2x3xf64>) {
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> {
  ^bb0(%e: f64):
    // expected-error @+1 {{block with no terminator}}
    %s = cmm.scalar neg %e : f64
  }
  return
}

// -----

func.func @scalar_arity(%a: tensor<2x3xf64>) {
  %0 = cmm.fused(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> {
  ^bb0(%e: f64):
    // expected-error @+1 {{'cmm.scalar' op 'add' takes 2 argument(s), got 1}}
    %s = cmm.scalar add %e : f64
    cmm.yield %s : f64
  }
  return
}

// -----

func.func @scalar_outside(%x: f64) -> f64 {
  // expected-error @+1 {{'cmm.scalar' op expects parent op 'cmm.fused'}}
  %s = cmm.scalar exp %x : f64
  return %s : f64
}
