// cmm-tile tiles straight-line code: a cmm.while or cmm.if is planned by
// cmm-plan, which outlines the segments around it (Planning/Segments.h).
// RUN: cmm-opt %s --cmm-tile -verify-diagnostics -split-input-file

func.func @main() {
  %x = cmm.fill 1.0 : tensor<2x1xf64>
  %c = cmm.constant dense<1.0> : tensor<1x1xf64>
  // expected-error @+1 {{cmm-tile: a 'while' decided at run time is planned by cmm-plan, segment by segment; cmm-tile tiles straight-line code}}
  %r = cmm.while (%x) : (tensor<2x1xf64>) -> tensor<2x1xf64> {
  ^bb0(%a: tensor<2x1xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %a : tensor<2x1xf64>
  } do {
  ^bb0(%a: tensor<2x1xf64>):
    cmm.end %a : tensor<2x1xf64>
  }
  cmm.print %r "r" : tensor<2x1xf64>
  return
}

// -----

func.func @main() {
  %x = cmm.fill 1.0 : tensor<2x1xf64>
  %c = cmm.constant dense<1.0> : tensor<1x1xf64>
  // expected-error @+1 {{cmm-tile: an 'if' decided at run time is planned by cmm-plan}}
  %r = cmm.if %c : tensor<1x1xf64> -> tensor<2x1xf64> {
    cmm.end %x : tensor<2x1xf64>
  } else {
    cmm.end %x : tensor<2x1xf64>
  }
  cmm.print %r "r" : tensor<2x1xf64>
  return
}
