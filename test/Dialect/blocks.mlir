// The block ops (slice, insert, concat, diag, reshape) and display's print:
// custom form round trip, generic form, and the folders (with the cases
// that must not fold).
// RUN: cmm-opt %s | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @blocks(
func.func @blocks(%a: tensor<4x4xf64>, %b: tensor<2x2xf64>, %c: tensor<2x3xf64>,
                  %v: tensor<3x1xf64>) {
  // CHECK: cmm.slice %{{.*}} at [1, 0] : tensor<4x4xf64> -> tensor<2x4xf64>
  %0 = cmm.slice %a at [1, 0] : tensor<4x4xf64> -> tensor<2x4xf64>
  // CHECK: cmm.insert %{{.*}} into %{{.*}} at [2, 2] : tensor<2x2xf64> into tensor<4x4xf64>
  %1 = cmm.insert %b into %a at [2, 2] : tensor<2x2xf64> into tensor<4x4xf64>
  // CHECK: cmm.concat %{{.*}}, %{{.*}} along 2 : (tensor<2x2xf64>, tensor<2x3xf64>) -> tensor<2x5xf64>
  %2 = cmm.concat %b, %c along 2 : (tensor<2x2xf64>, tensor<2x3xf64>) -> tensor<2x5xf64>
  // CHECK: cmm.concat %{{.*}}, %{{.*}} along 1 : (tensor<2x4xf64>, tensor<4x4xf64>) -> tensor<6x4xf64>
  %3 = cmm.concat %0, %1 along 1 : (tensor<2x4xf64>, tensor<4x4xf64>) -> tensor<6x4xf64>
  // CHECK: cmm.diag %{{.*}} : tensor<4x4xf64> -> tensor<4x1xf64>
  %4 = cmm.diag %a : tensor<4x4xf64> -> tensor<4x1xf64>
  // CHECK: cmm.diag %{{.*}} : tensor<3x1xf64> -> tensor<3x3xf64>
  %5 = cmm.diag %v : tensor<3x1xf64> -> tensor<3x3xf64>
  // CHECK: cmm.reshape %{{.*}} : tensor<2x3xf64> -> tensor<3x2xf64>
  %6 = cmm.reshape %c : tensor<2x3xf64> -> tensor<3x2xf64>
  // CHECK: cmm.print %{{.*}} "B" rows : tensor<2x2xf64>
  cmm.print %b "B" rows : tensor<2x2xf64>
  // CHECK: cmm.print %{{.*}} "C" : tensor<2x5xf64>
  cmm.print %2 "C" : tensor<2x5xf64>
  cmm.print %3 "D" : tensor<6x4xf64>
  cmm.print %4 "E" : tensor<4x1xf64>
  cmm.print %5 "F" : tensor<3x3xf64>
  cmm.print %6 "G" : tensor<3x2xf64>
  return
}

// A slice of a slice is one slice of the first input.
// FOLD-LABEL: func.func @slice_of_slice(
// FOLD: cmm.slice %{{.*}} at [3, 2] : tensor<8x8xf64> -> tensor<2x2xf64>
// FOLD-NOT: cmm.slice
func.func @slice_of_slice(%a: tensor<8x8xf64>) -> tensor<2x2xf64> {
  %0 = cmm.slice %a at [2, 1] : tensor<8x8xf64> -> tensor<4x4xf64>
  %1 = cmm.slice %0 at [1, 1] : tensor<4x4xf64> -> tensor<2x2xf64>
  return %1 : tensor<2x2xf64>
}

// The whole input, and a single input concatenated, are the input.
// FOLD-LABEL: func.func @identities(
// FOLD-SAME: %[[A:.*]]: tensor<3x3xf64>
// FOLD-NOT: cmm.slice
// FOLD-NOT: cmm.concat
// FOLD-NOT: cmm.reshape
// FOLD: return %[[A]], %[[A]], %[[A]]
func.func @identities(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x3xf64>) {
  %0 = cmm.slice %a at [0, 0] : tensor<3x3xf64> -> tensor<3x3xf64>
  %1 = cmm.concat %a along 1 : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %2 = cmm.reshape %a : tensor<3x3xf64> -> tensor<3x3xf64>
  return %0, %1, %2 : tensor<3x3xf64>, tensor<3x3xf64>, tensor<3x3xf64>
}

// A block of a constant is a constant (elements picked row by row).
// FOLD-LABEL: func.func @slice_of_constant(
// FOLD: cmm.constant dense<{{\[\[}}5.000000e+00, 6.000000e+00], [8.000000e+00, 9.000000e+00]]> : tensor<2x2xf64>
// FOLD-NOT: cmm.slice
func.func @slice_of_constant() -> tensor<2x2xf64> {
  %0 = cmm.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf64>
  %1 = cmm.slice %0 at [1, 1] : tensor<3x3xf64> -> tensor<2x2xf64>
  return %1 : tensor<2x2xf64>
}

// Two reshapes are one; a reshape of another shape and a slice of a
// non-constant stay.
// FOLD-LABEL: func.func @reshapes(
// FOLD: %[[R:.*]] = cmm.reshape %{{.*}} : tensor<2x6xf64> -> tensor<4x3xf64>
// FOLD: %[[S:.*]] = cmm.slice %[[R]] at [1, 0] : tensor<4x3xf64> -> tensor<1x3xf64>
// FOLD: return %[[S]]
func.func @reshapes(%a: tensor<2x6xf64>) -> tensor<1x3xf64> {
  %0 = cmm.reshape %a : tensor<2x6xf64> -> tensor<3x4xf64>
  %1 = cmm.reshape %0 : tensor<3x4xf64> -> tensor<4x3xf64>
  %2 = cmm.slice %1 at [1, 0] : tensor<4x3xf64> -> tensor<1x3xf64>
  return %2 : tensor<1x3xf64>
}
