// cmm-tile of a chol marked `symmetric` (cmm-linear-solves: its input is
// symmetric bit for bit by construction): no symmetry shares, so the first
// potrf reads its diagonal tile alone and can start as soon as that tile
// is made; the op declaration carries `symmetric` to the whole-matrix
// kernels (a chol of one tile).
// RUN: cmm-opt %s --cmm-tile="tile-sizes=3" | FileCheck %s --implicit-check-not="cmmtg.task symmetry"
// RUN: cmm-opt %s --cmm-tile="tile-sizes=3" | cmm-opt -verify-diagnostics -o /dev/null

// CHECK-LABEL: cmmtg.graph @main tile_size 3 {
// CHECK: cmmtg.op @chol{{[0-9]+}} chol {cols{{.*}}, symmetric}
// CHECK: %[[A00:[0-9]+]] = cmmtg.task elementwise {{.*}}[0,0]", op = @add4}
// CHECK: cmmtg.task potrf (%[[A00]]) {{.*}}pinned = 0 : i64} : (!cmmtg.tile<3x3>) -> !cmmtg.tile<3x3>
func.func @main() {
  %u = cmm.rand uniform seed 1 id 1 : tensor<4x4xf64>
  %t = cmm.transpose %u : tensor<4x4xf64> -> tensor<4x4xf64>
  %i = cmm.eye : tensor<4x4xf64>
  %s = cmm.add %u, %t : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %a = cmm.add %s, %i : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %r = cmm.chol %a symmetric : tensor<4x4xf64>
  cmm.print %r "r" : tensor<4x4xf64>
  return
}
