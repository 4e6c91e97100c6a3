// Dynamic tiling (paper section 3.2): with 4 workers and one 10x10 tile per
// start-up matrix, cmm-tile starts the rand in 5x5 sub-tiles, keeps the
// elementwise op on them, and merges the sub-tiles back into the one tile
// the product needs (once, although the product uses it twice).
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=10 dynamic-tiling-workers=4" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=10 dynamic-tiling-workers=4" | cmm-opt -split-input-file -o /dev/null
// One worker per tile already: nothing changes.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=10 dynamic-tiling-workers=1" | FileCheck %s --check-prefix=OFF
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=10" | FileCheck %s --check-prefix=OFF
// 16 workers: halved twice (10 -> 5 -> 3), never more: 4x4 sub-tiles of
// 3 (ragged: 3 + 3 + 3 + 1), one merge of all 16.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=10 dynamic-tiling-workers=16" | FileCheck %s --check-prefix=QUARTER

// CHECK-LABEL: cmmtg.graph @main tile_size 10 {
// CHECK-NEXT: cmmtg.op @rand0 rand
// CHECK-NEXT: cmmtg.op @scale1 scale {{{.*}}value = 2.000000e+00 : f64}
// CHECK-NEXT: cmmtg.op @matmul2 matmul
// CHECK-NEXT: cmmtg.op @print3 print
// CHECK-NEXT: %[[A0:.*]] = cmmtg.task generate cost rand () {m = 5 : i64, n = 5 : i64, name = "rand{{.*}}[0,0]", op = @rand0} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[A1:.*]] = cmmtg.task generate cost rand () {{.*}}origins = array<i64: 0, 5>} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[A2:.*]] = cmmtg.task generate cost rand () {{.*}}origins = array<i64: 5, 0>} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[A3:.*]] = cmmtg.task generate cost rand () {{.*}}origins = array<i64: 5, 5>} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[B0:.*]] = cmmtg.task elementwise cost scale (%[[A0]]) {{.*}}op = @scale1} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[B1:.*]] = cmmtg.task elementwise cost scale (%[[A1]])
// CHECK-NEXT: %[[B2:.*]] = cmmtg.task elementwise cost scale (%[[A2]])
// CHECK-NEXT: %[[B3:.*]] = cmmtg.task elementwise cost scale (%[[A3]])
// CHECK-NEXT: %[[M:.*]] = cmmtg.task merge (%[[B0]], %[[B1]], %[[B2]], %[[B3]]) {m = 10 : i64, n = 10 : i64, name = "{{.*}} merge[0,0]"} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>, !cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<10x10>
// CHECK-NEXT: %[[C:.*]] = cmmtg.task gemm (%[[M]], %[[M]]) {{.*}}op = @matmul2}
// CHECK-NEXT: cmmtg.task gather (%[[C]])
// CHECK-NOT: merge

// OFF-LABEL: cmmtg.graph @main tile_size 10 {
// OFF-NOT: merge
// OFF-COUNT-1: cmmtg.task generate
// OFF-NOT: merge

// QUARTER-LABEL: cmmtg.graph @main tile_size 10 {
// QUARTER-COUNT-16: cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<{{[13]}}x{{[13]}}>
// QUARTER: cmmtg.task merge ({{(%[0-9]+, )+}}%{{[0-9]+}}) {{.*}} -> !cmmtg.tile<10x10>
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<10x10xf64>
  %b = cmm.scale %a by 2.0 : tensor<10x10xf64>
  %c = cmm.matmul %b, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  cmm.print %c "C" : tensor<10x10xf64>
  return
}
