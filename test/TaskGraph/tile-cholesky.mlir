// cmm-tile of chol and of triangular solves: the tile algorithms of
// PLASMA/DPLASMA (Tiling.cpp, cmmrt/TileFactorizations.h), not one task
// over the whole matrix.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null
//
// A 7x7 chol in tiles of 3 (t = 3 tile rows, the last of 1): a symmetry
// share per tile pair of the upper triangle (t (t + 1) / 2 = 6), then for
// k = 0, 1, 2 a potrf on the master, a trsm right of it (2 + 1), a syrk of
// each trailing diagonal tile (2 + 1) and a gemm_sub of each trailing tile
// above the diagonal (1); the tiles below the diagonal are zeros.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | grep -c "cmmtg.task symmetry" | FileCheck %s --check-prefix=SIX
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | grep "cmmtg.task potrf" | grep -c "pinned = 0" | FileCheck %s --check-prefix=THREE
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | grep -c "cmmtg.task syrk" | FileCheck %s --check-prefix=THREE
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=3" | grep -c "chol@.* zeros" | FileCheck %s --check-prefix=THREE
// SIX: {{^}}6{{$}}
// THREE: {{^}}3{{$}}

// CHECK-LABEL: cmmtg.graph @main tile_size 3 {
// The symmetry shares: tile (0, 0) alone, (0, 1) with its mirror (1, 0).
// CHECK: %[[S00:.*]] = cmmtg.task symmetry (%[[A00:[0-9a-z_]+]]) {{.*}} -> !cmmtg.tile<1x2>
// CHECK-NEXT: %[[S01:.*]] = cmmtg.task symmetry (%[[A01:[0-9a-z_]+]], %{{.*}}) {{.*}} -> !cmmtg.tile<1x2>
// CHECK: %[[S22:.*]] = cmmtg.task symmetry ({{.*}}) {{.*}} (!cmmtg.tile<1x1>) -> !cmmtg.tile<1x2>
// The first potrf reads the diagonal tile and all six shares; m, n, k of
// the product of b^3 / 3 flops (3, 3, 1).
// CHECK-NEXT: %[[R00:.*]] = cmmtg.task potrf (%[[A00]], %[[S00]], %[[S01]], %{{.*}}, %{{.*}}, %{{.*}}, %[[S22]]) {m = 3 : i64, n = 3 : i64, {{.*}}pinned = 0 : i64} : {{.*}} -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[R01:.*]] = cmmtg.task trsm (%[[R00]], %[[A01]]) {{.*}} -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[R02:.*]] = cmmtg.task trsm (%[[R00]], %{{.*}}) {{.*}} -> !cmmtg.tile<3x1>
// CHECK-NEXT: %[[C11:.*]] = cmmtg.task syrk (%[[R01]], %{{.*}}) {{.*}} -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[C12:.*]] = cmmtg.task gemm_sub (%[[R01]], %[[R02]], %{{.*}}) {k = 3 : i64, m = 3 : i64, {{.*}}} : (!cmmtg.tile<3x3>, !cmmtg.tile<3x1>, !cmmtg.tile<3x1>) -> !cmmtg.tile<3x1>
// CHECK-NEXT: %[[C22:.*]] = cmmtg.task syrk (%[[R02]], %{{.*}}) {{.*}} -> !cmmtg.tile<1x1>
// k = 1: the second potrf reads the updated tile alone.
// CHECK-NEXT: %[[R11:.*]] = cmmtg.task potrf (%[[C11]]) {{.*}}pinned = 0 : i64} : (!cmmtg.tile<3x3>) -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[R12:.*]] = cmmtg.task trsm (%[[R11]], %[[C12]])
// CHECK-NEXT: %[[D22:.*]] = cmmtg.task syrk (%[[R12]], %[[C22]])
// CHECK-NEXT: %[[R22:.*]] = cmmtg.task potrf (%[[D22]]) {{.*}} -> !cmmtg.tile<1x1>
// CHECK-NEXT: %[[Z10:.*]] = cmmtg.task generate () {{.*}}name = "chol@{{.*}} zeros[1,0]"
// CHECK: cmmtg.task gather (%[[R00]], %[[R01]], %[[R02]], %[[Z10]], %[[R11]], %[[R12]], %{{.*}}, %{{.*}}, %[[R22]])
func.func @main() {
  %x = cmm.rand uniform seed 1 id 1 : tensor<7x7xf64>
  %a = cmm.gemm %x transposed, %x : (tensor<7x7xf64>, tensor<7x7xf64>) -> tensor<7x7xf64>
  %r = cmm.chol %a : tensor<7x7xf64>
  cmm.print %r "r" : tensor<7x7xf64>
  return
}

// -----

// R \ B for an upper R, by block substitution from the last block row: X_2
// = R_22^-1 B_2, then B_1 - R_12 X_2, then B_0 - R_02 X_2 - R_01 X_1; each
// trsm on the master (a zero on the diagonal is the singular error). A
// lower L goes from the first block row.
// CHECK-LABEL: cmmtg.graph @main tile_size 3 {
// CHECK: %[[X2:.*]] = cmmtg.task trsm (%{{.*}}, %{{.*}}) {{.*}}name = "solve@{{.*}} trsm[2,0]"{{.*}}pinned = 0 : i64} : (!cmmtg.tile<1x1>, !cmmtg.tile<1x2>) -> !cmmtg.tile<1x2>
// CHECK-NEXT: %[[B1:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X2]], %{{.*}}) {{.*}} -> !cmmtg.tile<3x2>
// CHECK-NEXT: %[[X1:.*]] = cmmtg.task trsm (%{{.*}}, %[[B1]]) {{.*}}pinned = 0
// CHECK-NEXT: %[[B0:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X2]], %{{.*}})
// CHECK-NEXT: %[[B0b:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X1]], %[[B0]])
// CHECK-NEXT: %[[X0:.*]] = cmmtg.task trsm (%{{.*}}, %[[B0b]]) {{.*}}pinned = 0
// CHECK: %[[Y0:.*]] = cmmtg.task trsm ({{.*}}) {{.*}}name = "solve@{{.*}} trsm[0,0]"
// CHECK: cmmtg.task gather (%[[X0]], %[[X1]], %[[X2]])
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<7x7xf64>
  %u = cmm.triu %a : tensor<7x7xf64>
  %b = cmm.rand uniform seed 2 id 2 : tensor<7x2xf64>
  %x = cmm.solve %u, %b triangular upper : (tensor<7x7xf64>, tensor<7x2xf64>) -> tensor<7x2xf64>
  %l = cmm.tril %a : tensor<7x7xf64>
  %y = cmm.solve %l, %b triangular lower : (tensor<7x7xf64>, tensor<7x2xf64>) -> tensor<7x2xf64>
  cmm.print %x "x" : tensor<7x2xf64>
  cmm.print %y "y" : tensor<7x2xf64>
  return
}

// -----

// U' \ B read where U is stored (`transposed`; R' \ B after chol): U' is
// lower, so from the first block row, and block (i, j) of U' is U's
// (j, i) read transposed: B_2 - U_02' X_0 reads U's 3x1 tile (0, 2) for a
// 1x2 update.
// CHECK-LABEL: cmmtg.graph @main tile_size 3 {
// CHECK: %[[X0:.*]] = cmmtg.task trsm (%{{.*}}, %{{.*}}) {{.*}}name = "solve@{{.*}} trsm[0,0]"{{.*}}pinned = 0 : i64} : (!cmmtg.tile<3x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<3x2>
// CHECK-NEXT: %[[B1:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X0]], %{{.*}}) {{.*}} : (!cmmtg.tile<3x3>, !cmmtg.tile<3x2>, !cmmtg.tile<3x2>) -> !cmmtg.tile<3x2>
// CHECK-NEXT: %[[X1:.*]] = cmmtg.task trsm (%{{.*}}, %[[B1]]) {{.*}}pinned = 0
// CHECK-NEXT: %[[B2:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X0]], %{{.*}}) {{.*}} : (!cmmtg.tile<3x1>, !cmmtg.tile<3x2>, !cmmtg.tile<1x2>) -> !cmmtg.tile<1x2>
// CHECK-NEXT: %[[B2b:.*]] = cmmtg.task gemm_sub (%{{.*}}, %[[X1]], %[[B2]]) {{.*}} : (!cmmtg.tile<3x1>, !cmmtg.tile<3x2>, !cmmtg.tile<1x2>) -> !cmmtg.tile<1x2>
// CHECK-NEXT: %[[X2:.*]] = cmmtg.task trsm (%{{.*}}, %[[B2b]]) {{.*}}pinned = 0
// CHECK: cmmtg.task gather (%[[X0]], %[[X1]], %[[X2]])
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<7x7xf64>
  %u = cmm.triu %a : tensor<7x7xf64>
  %b = cmm.rand uniform seed 2 id 2 : tensor<7x2xf64>
  %x = cmm.solve %u transposed, %b triangular upper : (tensor<7x7xf64>, tensor<7x2xf64>) -> tensor<7x2xf64>
  cmm.print %x "x" : tensor<7x2xf64>
  return
}

// -----

// A general solve and the other factorizations stay one task on the master.
// CHECK-LABEL: cmmtg.graph @main tile_size 3 {
// CHECK: cmmtg.task solve ({{.*}}) {{.*}}pinned = 0
// CHECK-NOT: trsm
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<7x7xf64>
  %b = cmm.rand uniform seed 2 id 2 : tensor<7x2xf64>
  %x = cmm.solve %a, %b : (tensor<7x7xf64>, tensor<7x2xf64>) -> tensor<7x2xf64>
  cmm.print %x "x" : tensor<7x2xf64>
  return
}
