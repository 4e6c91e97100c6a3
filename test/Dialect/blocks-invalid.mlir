// The verifiers of the block ops, with the shapes they name.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

func.func @slice_outside(%a: tensor<4x4xf64>) {
  // expected-error @+1 {{'cmm.slice' op the 2x2 block at [3, 0] does not fit in the 4x4 input}}
  %0 = cmm.slice %a at [3, 0] : tensor<4x4xf64> -> tensor<2x2xf64>
  return
}

// -----

func.func @slice_negative(%a: tensor<4x4xf64>) {
  // expected-error @+1 {{'cmm.slice' op attribute 'row' failed to satisfy constraint}}
  %0 = cmm.slice %a at [-1, 0] : tensor<4x4xf64> -> tensor<2x2xf64>
  return
}

// -----

func.func @insert_outside(%a: tensor<4x4xf64>, %b: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.insert' op the 2x3 block at [0, 2] does not fit in the 4x4 destination}}
  %0 = cmm.insert %b into %a at [0, 2] : tensor<2x3xf64> into tensor<4x4xf64>
  return
}

// -----

func.func @concat_rows(%a: tensor<2x2xf64>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.concat' op inputs 2x2 and 3x2 differ in their row count along 2}}
  %0 = cmm.concat %a, %b along 2 : (tensor<2x2xf64>, tensor<3x2xf64>) -> tensor<2x4xf64>
  return
}

// -----

func.func @concat_result(%a: tensor<2x2xf64>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{'cmm.concat' op result shape 4x2 is not the concatenation's 5x2}}
  %0 = cmm.concat %a, %b along 1 : (tensor<2x2xf64>, tensor<3x2xf64>) -> tensor<4x2xf64>
  return
}

// -----

func.func @diag_rectangular(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.diag' op input 2x3 is neither square nor a vector}}
  %0 = cmm.diag %a : tensor<2x3xf64> -> tensor<2x1xf64>
  return
}

// -----

func.func @diag_result(%a: tensor<1x3xf64>) {
  // expected-error @+1 {{'cmm.diag' op result shape 3x1 should be 3x3 for a 1x3 input}}
  %0 = cmm.diag %a : tensor<1x3xf64> -> tensor<3x1xf64>
  return
}

// -----

func.func @reshape_count(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{'cmm.reshape' op cannot reshape 2x3 to 4x2: the element counts differ}}
  %0 = cmm.reshape %a : tensor<2x3xf64> -> tensor<4x2xf64>
  return
}

// -----

func.func @display_large(%a: tensor<100x11xf64>) {
  // expected-error @+1 {{'cmm.print' op with 'rows' prints at most 1000 elements, got 100x11}}
  cmm.print %a "A" rows : tensor<100x11xf64>
  return
}
