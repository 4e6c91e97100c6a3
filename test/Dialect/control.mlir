// cmm.while, cmm.condition, cmm.if and cmm.end: custom form round trip and
// the generic form; DCE keeps a loop that prints and drops one whose
// results nobody uses.
// RUN: cmm-opt %s | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -canonicalize | FileCheck %s --check-prefix=DCE

// CHECK-LABEL: func.func @halve_until_small(
// CHECK: %[[R:.*]] = cmm.while (%{{.*}}) {expected_trips = 10 : i64} : (tensor<3x1xf64>) -> tensor<3x1xf64> {
// CHECK: ^bb0(%[[X:.*]]: tensor<3x1xf64>):
// CHECK:   cmm.condition(%{{.*}} : tensor<1x1xf64>) %[[X]] : tensor<3x1xf64>
// CHECK: } do {
// CHECK:   cmm.end %{{.*}} : tensor<3x1xf64>
// CHECK: cmm.print %[[R]] "x"
func.func @halve_until_small(%x0: tensor<3x1xf64>, %tol: tensor<1x1xf64>) {
  %r = cmm.while (%x0) {expected_trips = 10 : i64} : (tensor<3x1xf64>) -> tensor<3x1xf64> {
  ^bb0(%x: tensor<3x1xf64>):
    %n = cmm.norm %x : tensor<3x1xf64> -> tensor<1x1xf64>
    %c = cmm.cmp gt, %n, %tol : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<3x1xf64>
  } do {
  ^bb0(%x: tensor<3x1xf64>):
    %y = cmm.scale %x by 5.0e-01 : tensor<3x1xf64>
    cmm.end %y : tensor<3x1xf64>
  }
  cmm.print %r "x" : tensor<3x1xf64>
  return
}

// CHECK-LABEL: func.func @branch(
// CHECK: cmm.if %{{.*}} : tensor<1x1xf64> -> tensor<2x2xf64> {
// CHECK:   cmm.end %{{.*}} : tensor<2x2xf64>
// CHECK: } else {
// CHECK:   cmm.end %{{.*}} : tensor<2x2xf64>
// CHECK: cmm.if %{{.*}} : tensor<1x1xf64> {
// CHECK:   cmm.print
// CHECK:   cmm.end
// CHECK: } else {
func.func @branch(%c: tensor<1x1xf64>, %a: tensor<2x2xf64>) {
  %r = cmm.if %c : tensor<1x1xf64> -> tensor<2x2xf64> {
    %d = cmm.scale %a by 2.0 : tensor<2x2xf64>
    cmm.end %d : tensor<2x2xf64>
  } else {
    cmm.end %a : tensor<2x2xf64>
  }
  cmm.print %r "r" : tensor<2x2xf64>
  cmm.if %c : tensor<1x1xf64> {
    cmm.print %a "a" : tensor<2x2xf64>
    cmm.end
  } else {
    cmm.end
  }
  return
}

// A loop that prints stays; an if whose results are unused and which has
// no effect goes.
// DCE-LABEL: func.func @dead(
// DCE: cmm.while
// DCE: cmm.print
// DCE-NOT: cmm.if
// DCE: return
func.func @dead(%c: tensor<1x1xf64>, %a: tensor<2x2xf64>) {
  %r = cmm.while (%c) : (tensor<1x1xf64>) -> tensor<1x1xf64> {
  ^bb0(%x: tensor<1x1xf64>):
    cmm.condition(%x : tensor<1x1xf64>) %x : tensor<1x1xf64>
  } do {
  ^bb0(%x: tensor<1x1xf64>):
    cmm.print %x "x" : tensor<1x1xf64>
    %y = cmm.neg %x : tensor<1x1xf64>
    cmm.end %y : tensor<1x1xf64>
  }
  %unused = cmm.if %c : tensor<1x1xf64> -> tensor<2x2xf64> {
    cmm.end %a : tensor<2x2xf64>
  } else {
    cmm.end %a : tensor<2x2xf64>
  }
  return
}
