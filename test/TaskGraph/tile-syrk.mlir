// A tile against its own transpose (a diagonal tile of A' * A or A * A')
// runs on dsyrk, half a product's flops (cmmrt::multiplyAdd): the tiler
// costs it as class syrk, whose k counts half the depth. Off-diagonal
// tiles, products of two values, and matrix-vector products (dgemv) stay
// gemm, which prints no class.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=4" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=4" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null

// X' * X of a 6 x 8 X in tiles of 4: the 8 x 8 result is 2 x 2 tiles,
// each over the two row tiles of X (depth 4, then 2). Tiles (0, 0) and
// (1, 1) read one tile of X twice: syrk, k = 2 and then 1 (not printed:
// the default); (0, 1) and (1, 0) read two: gemm, k = 4 and 2.
// CHECK-LABEL: cmmtg.graph
// CHECK: cmmtg.task gemm cost syrk (%[[A:.*]], %[[A]]) {k = 2 : i64, m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm_acc cost syrk (%[[B:.*]], %[[B]], %{{.*}}) {m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm ({{.*}}) {k = 4 : i64, m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm_acc ({{.*}}) {k = 2 : i64, m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm ({{.*}}) {k = 4 : i64, m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm_acc ({{.*}}) {k = 2 : i64, m = 4 : i64, n = 4 : i64
// CHECK-NEXT: cmmtg.task gemm cost syrk
// CHECK-NEXT: cmmtg.task gemm_acc cost syrk
func.func @main() {
  %x = cmm.rand uniform seed 1 id 1 : tensor<6x8xf64>
  %g = cmm.gemm %x transposed, %x : (tensor<6x8xf64>, tensor<6x8xf64>) -> tensor<8x8xf64>
  cmm.print %g "g" : tensor<8x8xf64>
  return
}

// -----

// Must not fire: A' * B of two values, and v' * v of a vector (a 1 x 1
// result: dgemv).
// CHECK-LABEL: cmmtg.graph
// CHECK-NOT: cost syrk
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<4x4xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<4x4xf64>
  %p = cmm.gemm %a transposed, %b : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %v = cmm.rand uniform seed 1 id 3 : tensor<4x1xf64>
  %d = cmm.gemm %v transposed, %v : (tensor<4x1xf64>, tensor<4x1xf64>) -> tensor<1x1xf64>
  cmm.print %p "p" : tensor<4x4xf64>
  cmm.print %d "d" : tensor<1x1xf64>
  return
}
