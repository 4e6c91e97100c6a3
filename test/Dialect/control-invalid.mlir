// The verifiers of cmm.while and cmm.if.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

func.func @condition_shape(%x0: tensor<2x1xf64>) {
  // expected-error @+1 {{'cmm.while' op condition must be 1x1, got 2x1}}
  %r = cmm.while (%x0) : (tensor<2x1xf64>) -> tensor<2x1xf64> {
  ^bb0(%x: tensor<2x1xf64>):
    cmm.condition(%x : tensor<2x1xf64>) %x : tensor<2x1xf64>
  } do {
  ^bb0(%x: tensor<2x1xf64>):
    cmm.end %x : tensor<2x1xf64>
  }
  return
}

// -----

func.func @body_type(%x0: tensor<2x1xf64>, %c: tensor<1x1xf64>) {
  // expected-error @+1 {{'cmm.while' op the body's cmm.end value #0 is 'tensor<1x2xf64>', the inits have 'tensor<2x1xf64>'}}
  %r = cmm.while (%x0) : (tensor<2x1xf64>) -> tensor<2x1xf64> {
  ^bb0(%x: tensor<2x1xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<2x1xf64>
  } do {
  ^bb0(%x: tensor<2x1xf64>):
    %t = cmm.transpose %x : tensor<2x1xf64> -> tensor<1x2xf64>
    cmm.end %t : tensor<1x2xf64>
  }
  return
}

// -----

func.func @before_args(%x0: tensor<2x1xf64>, %c: tensor<1x1xf64>) {
  // expected-error @+1 {{'cmm.while' op 'before' argument has 0 value(s), the inits have 1}}
  %r = cmm.while (%x0) : (tensor<2x1xf64>) -> tensor<2x1xf64> {
    cmm.condition(%c : tensor<1x1xf64>) %x0 : tensor<2x1xf64>
  } do {
  ^bb0(%x: tensor<2x1xf64>):
    cmm.end %x : tensor<2x1xf64>
  }
  return
}

// -----

func.func @branch_types(%c: tensor<1x1xf64>, %a: tensor<2x2xf64>, %b: tensor<3x3xf64>) {
  // expected-error @+1 {{'cmm.if' op a branch's cmm.end value #0 is 'tensor<3x3xf64>', the results have 'tensor<2x2xf64>'}}
  %r = cmm.if %c : tensor<1x1xf64> -> tensor<2x2xf64> {
    cmm.end %a : tensor<2x2xf64>
  } else {
    cmm.end %b : tensor<3x3xf64>
  }
  return
}

// -----

func.func @if_condition(%c: tensor<1x2xf64>) {
  // expected-error @+1 {{'cmm.if' op condition must be 1x1, got 1x2}}
  cmm.if %c : tensor<1x2xf64> {
    cmm.end
  } else {
    cmm.end
  }
  return
}

// -----

func.func @end_outside(%a: tensor<2x2xf64>) {
  // expected-error @+1 {{'cmm.end' op expects parent op to be one of 'cmm.while, cmm.if'}}
  cmm.end %a : tensor<2x2xf64>
}
