// cmm-tile: one unscheduled task graph per candidate tile size, cut with the
// paper's tile function (ceil division, ragged edge tiles).
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null
// A 10x10 product in 5x5 tiles: 2x2 output tiles, each a gemm and a
// gemm_acc along k: 2 x 2 x 2 = 8 product tasks; the ragged 7x7 one
// likewise; the 3x7 * 7x3 product of the last case 1 x 1 x 2 = 2.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5" | grep -E "cmmtg.task gemm(_acc)? " | count 18
// cosma-nodes=3: each product is one distributed_gemm over nodes 0..2 with
// A's tiles then B's as inputs, C's tiles as results, the whole product's
// m, n, k; no gemm tiles are left (the IR verifies).
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5 cosma-nodes=3" | FileCheck %s --check-prefix=GANG
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5 cosma-nodes=3" | not grep -E "cmmtg.task gemm(_acc)? "
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=5 cosma-nodes=3" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null
// GANG: %{{.*}}:4 = cmmtg.task distributed_gemm (%0, %1, %2, %3, %4, %5, %6, %7) {k = 10 : i64, m = 10 : i64, n = 10 : i64, name = "matmul@{{.*}} cosma", nodes = array<i64: 0, 1, 2>, op = @matmul2, origins = array<i64: 0, 0, 0, 5, 5, 0, 5, 5>}
// GANG: distributed_gemm ({{.*}}) {k = 7 : i64, m = 7 : i64, n = 7 : i64,
// GANG-SAME: -> (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>, !cmmtg.tile<2x5>, !cmmtg.tile<2x2>)
// GANG: distributed_gemm ({{.*}}) {k = 7 : i64, m = 3 : i64, n = 3 : i64,
// GANG-SAME: : (!cmmtg.tile<3x5>, !cmmtg.tile<3x2>, !cmmtg.tile<5x3>, !cmmtg.tile<2x3>) -> !cmmtg.tile<3x3>
// Without tile-sizes: 10 %, 20 %, ..., 70 % and 100 % of the largest dimension.
// RUN: cmm-opt %s -split-input-file --cmm-tile | FileCheck %s --check-prefix=SWEEP
// RUN: not cmm-opt %S/Inputs/no-main.mlir --cmm-tile 2>&1 | FileCheck %S/Inputs/no-main.mlir --check-prefix=NOMAIN

// CHECK-LABEL: func.func @main()
// CHECK: cmm.print
// CHECK-LABEL: cmmtg.graph @main tile_size 5 {
// The ops the tasks compute, in program order.
// CHECK-NEXT: cmmtg.op @rand0 rand {cols = 10 : i64, id = 1 : i64, rows = 10 : i64, seed = 1 : i64}
// CHECK-NEXT: cmmtg.op @rand1 rand
// CHECK-NEXT: cmmtg.op @matmul2 matmul
// CHECK-NEXT: cmmtg.op @print3 print {cols = 10 : i64, {{.*}}label = "C", rows = 10 : i64}
// Two 10x10 random matrices: 4 + 4 tiles.
// The tiles of each rand name it (op 0, op 1) and their origins.
// CHECK-NEXT: cmmtg.task generate cost rand () {m = 5 : i64, n = 5 : i64, name = "rand{{.*}}[0,0]", op = @rand0} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: cmmtg.task generate cost rand () {m = 5 : i64, n = 5 : i64, name = "rand{{.*}}[0,1]", op = @rand0, origins = array<i64: 0, 5>} : () -> !cmmtg.tile<5x5>
// CHECK-NEXT: cmmtg.task generate cost rand () {{.*}}[1,0]", op = @rand0, origins = array<i64: 5, 0>}
// CHECK-NEXT: cmmtg.task generate cost rand () {{.*}}[1,1]", op = @rand0, origins = array<i64: 5, 5>}
// CHECK-COUNT-4: cmmtg.task generate cost rand () {m = 5 : i64, n = 5 : i64, name = "rand{{.*}}", op = @rand1{{.*}}} : () -> !cmmtg.tile<5x5>
// C[i,j] = A[i,0] B[0,j] + A[i,1] B[1,j]
// CHECK-NEXT: %[[C00:.*]] = cmmtg.task gemm (%0, %4) {k = 5 : i64, m = 5 : i64, n = 5 : i64, name = "matmul{{.*}} k=0[0,0]", op = @matmul2} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[D00:.*]] = cmmtg.task gemm_acc (%1, %6, %[[C00]]) {k = 5 : i64, m = 5 : i64, n = 5 : i64, name = "matmul{{.*}} k=1[0,0]", op = @matmul2}
// CHECK-NEXT: %[[C01:.*]] = cmmtg.task gemm (%0, %5) {{.*}}k=0[0,1]
// CHECK-NEXT: %[[D01:.*]] = cmmtg.task gemm_acc (%1, %7, %[[C01]]) {{.*}}k=1[0,1]
// CHECK-NEXT: %[[C10:.*]] = cmmtg.task gemm (%2, %4) {{.*}}k=0[1,0]
// CHECK-NEXT: %[[D10:.*]] = cmmtg.task gemm_acc (%3, %6, %[[C10]]) {{.*}}k=1[1,0]
// CHECK-NEXT: %[[C11:.*]] = cmmtg.task gemm (%2, %5) {{.*}}k=0[1,1]
// CHECK-NEXT: %[[D11:.*]] = cmmtg.task gemm_acc (%3, %7, %[[C11]]) {{.*}}k=1[1,1]
// print: a gather of the four result tiles to the master.
// CHECK-NEXT: cmmtg.task gather (%[[D00]], %[[D01]], %[[D10]], %[[D11]]) {m = 10 : i64, n = 10 : i64, name = "print{{.*}}", op = @print3, pinned = 0 : i64}
// CHECK-NEXT: {{^  }}}{{$}}

// SWEEP-LABEL: func.func @main()
// SWEEP: cmmtg.graph @main tile_size 1 {
// SWEEP: cmmtg.graph @main tile_size 2 {
// SWEEP: cmmtg.graph @main tile_size 3 {
// SWEEP: cmmtg.graph @main tile_size 4 {
// SWEEP: cmmtg.graph @main tile_size 5 {
// SWEEP: cmmtg.graph @main tile_size 6 {
// SWEEP: cmmtg.graph @main tile_size 7 {
// SWEEP: cmmtg.graph @main tile_size 10 {
// SWEEP-NOT: cmmtg.graph
// SWEEP: // {{-----}}
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<10x10xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<10x10xf64>
  %c = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  cmm.print %c "C" : tensor<10x10xf64>
  return
}

// -----

// Ragged: 7 = 5 + 2, so the tiles are 5x5, 5x2, 2x5 and 2x2.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 {
// The ops the tasks compute, in program order.
// CHECK-NEXT: cmmtg.op @rand0 rand
// CHECK-NEXT: cmmtg.op @rand1 rand
// CHECK-NEXT: cmmtg.op @matmul2 matmul
// CHECK-NEXT: cmmtg.op @print3 print
// CHECK-NEXT: %[[A00:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[A01:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<5x2>
// CHECK-NEXT: %[[A10:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<2x5>
// CHECK-NEXT: %[[A11:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<2x2>
// CHECK-NEXT: %[[B00:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[B01:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<5x2>
// CHECK-NEXT: %[[B10:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<2x5>
// CHECK-NEXT: %[[B11:.*]] = cmmtg.task generate cost rand () {{.*}} -> !cmmtg.tile<2x2>
// CHECK-NEXT: %[[C00:.*]] = cmmtg.task gemm (%[[A00]], %[[B00]]) {k = 5 : i64, m = 5 : i64, n = 5 : i64, {{.*}}} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[D00:.*]] = cmmtg.task gemm_acc (%[[A01]], %[[B10]], %[[C00]]) {k = 2 : i64, m = 5 : i64, n = 5 : i64, {{.*}}} : (!cmmtg.tile<5x2>, !cmmtg.tile<2x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
// CHECK-NEXT: %[[C01:.*]] = cmmtg.task gemm (%[[A00]], %[[B01]]) {k = 5 : i64, m = 5 : i64, n = 2 : i64, {{.*}}} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
// CHECK-NEXT: %[[D01:.*]] = cmmtg.task gemm_acc (%[[A01]], %[[B11]], %[[C01]]) {k = 2 : i64, m = 5 : i64, n = 2 : i64, {{.*}}} : (!cmmtg.tile<5x2>, !cmmtg.tile<2x2>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
// CHECK-NEXT: %[[C10:.*]] = cmmtg.task gemm (%[[A10]], %[[B00]]) {k = 5 : i64, m = 2 : i64, n = 5 : i64, {{.*}}} : (!cmmtg.tile<2x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<2x5>
// CHECK-NEXT: %[[D10:.*]] = cmmtg.task gemm_acc (%[[A11]], %[[B10]], %[[C10]]) {k = 2 : i64, m = 2 : i64, n = 5 : i64, {{.*}}} : (!cmmtg.tile<2x2>, !cmmtg.tile<2x5>, !cmmtg.tile<2x5>) -> !cmmtg.tile<2x5>
// CHECK-NEXT: %[[C11:.*]] = cmmtg.task gemm (%[[A10]], %[[B01]]) {k = 5 : i64, m = 2 : i64, n = 2 : i64, {{.*}}} : (!cmmtg.tile<2x5>, !cmmtg.tile<5x2>) -> !cmmtg.tile<2x2>
// CHECK-NEXT: %[[D11:.*]] = cmmtg.task gemm_acc (%[[A11]], %[[B11]], %[[C11]]) {k = 2 : i64, m = 2 : i64, n = 2 : i64, {{.*}}} : (!cmmtg.tile<2x2>, !cmmtg.tile<2x2>, !cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
// CHECK-NEXT: cmmtg.task gather (%[[D00]], %[[D01]], %[[D10]], %[[D11]])
// CHECK-NEXT: {{^  }}}{{$}}
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<7x7xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<7x7xf64>
  %c = cmm.matmul %a, %b : (tensor<7x7xf64>, tensor<7x7xf64>) -> tensor<7x7xf64>
  cmm.print %c "C" : tensor<7x7xf64>
  return
}

// -----

// Transposes, elementwise maps (exp: cost class exp), row sums (partials and
// combines), inv (one solve task over every tile) with ragged tiles.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 {
// CHECK: %[[A0:.*]] = cmmtg.task generate cost rand () {m = 5 : i64, n = 3 : i64, {{.*}}} : () -> !cmmtg.tile<5x3>
// CHECK-NEXT: %[[A1:.*]] = cmmtg.task generate cost rand () {m = 2 : i64, n = 3 : i64, {{.*}}} : () -> !cmmtg.tile<2x3>
// CHECK-NEXT: %[[T0:.*]] = cmmtg.task transpose (%[[A0]]) {{.*}} : (!cmmtg.tile<5x3>) -> !cmmtg.tile<3x5>
// CHECK-NEXT: %[[T1:.*]] = cmmtg.task transpose (%[[A1]]) {{.*}} : (!cmmtg.tile<2x3>) -> !cmmtg.tile<3x2>
// CHECK-NEXT: %[[E0:.*]] = cmmtg.task elementwise cost exp (%[[T0]]) {{.*}} : (!cmmtg.tile<3x5>) -> !cmmtg.tile<3x5>
// CHECK-NEXT: %[[E1:.*]] = cmmtg.task elementwise cost exp (%[[T1]]) {{.*}} : (!cmmtg.tile<3x2>) -> !cmmtg.tile<3x2>
// CHECK-NEXT: %[[P0:.*]] = cmmtg.task reduce (%[[E0]]) {{.*}} : (!cmmtg.tile<3x5>) -> !cmmtg.tile<3x1>
// CHECK-NEXT: %[[P1:.*]] = cmmtg.task reduce (%[[E1]]) {{.*}} : (!cmmtg.tile<3x2>) -> !cmmtg.tile<3x1>
// CHECK-NEXT: %[[S:.*]] = cmmtg.task reduce cost elementwise (%[[P0]], %[[P1]]) {{.*}} : (!cmmtg.tile<3x1>, !cmmtg.tile<3x1>) -> !cmmtg.tile<3x1>
// CHECK-NEXT: %[[M0:.*]] = cmmtg.task gemm (%[[E0]], %[[A0]]) {{.*}} -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[M1:.*]] = cmmtg.task gemm_acc (%[[E1]], %[[A1]], %[[M0]]) {k = 2 : i64, {{.*}} -> !cmmtg.tile<3x3>
// CHECK-NEXT: %[[I:.*]] = cmmtg.task solve (%[[M1]]) {k = 3 : i64, m = 3 : i64, n = 3 : i64, {{.*}}} : (!cmmtg.tile<3x3>) -> !cmmtg.tile<3x3>
// CHECK-NEXT: cmmtg.task gather (%[[I]])
// CHECK-NEXT: cmmtg.task gather (%[[S]])
// CHECK-NEXT: {{^  }}}{{$}}
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<7x3xf64>
  %t = cmm.transpose %a : tensor<7x3xf64> -> tensor<3x7xf64>
  %e = cmm.map exp %t : tensor<3x7xf64>
  %s = cmm.reduce sum %e along 2 : tensor<3x7xf64> -> tensor<3x1xf64>
  %m = cmm.matmul %e, %a : (tensor<3x7xf64>, tensor<7x3xf64>) -> tensor<3x3xf64>
  %i = cmm.inv %m : tensor<3x3xf64>
  cmm.print %i "i" : tensor<3x3xf64>
  cmm.print %s "s" : tensor<3x1xf64>
  return
}

// -----

// Every function with a time polynomial of its own gets its cost class
// (cmmrt/CostClasses.def): cos shares sin's, sqrt and abs stay `map`,
// A .^ B is `pow` unless B is 2 everywhere (a constant or a fill: the
// runtime squares with a product of one tile, `scale`), randn and fill are
// `randn` and `generate`, mod is `mod`; a binary op with a scalar (or
// vector) operand, negation and scaling stream one tile (`scale`), one of
// two whole tiles is `elementwise`.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 {
// CHECK: cmmtg.task generate cost randn () {{.*}}name = "rand
// CHECK-NEXT: cmmtg.task generate () {{.*}}name = "fill
// CHECK-NEXT: cmmtg.task elementwise cost map ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost log ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost tanh ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost sin ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost sin ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost map ({{.*}}name = "map
// CHECK-NEXT: cmmtg.task elementwise cost pow ({{.*}}name = "epow
// CHECK-NEXT: cmmtg.task elementwise ({{.*}}name = "add
// CHECK-NEXT: cmmtg.task generate () {{.*}}name = "constant
// CHECK-NEXT: cmmtg.task elementwise cost scale ({{.*}}name = "epow
// CHECK-NEXT: cmmtg.task generate () {{.*}}name = "fill
// CHECK-NEXT: cmmtg.task elementwise cost scale ({{.*}}name = "epow
// CHECK-NEXT: cmmtg.task generate () {{.*}}name = "constant
// CHECK-NEXT: cmmtg.task elementwise cost pow ({{.*}}name = "epow
// CHECK-NEXT: cmmtg.task elementwise cost mod ({{.*}}name = "mod
// CHECK-NEXT: cmmtg.task elementwise cost scale ({{.*}}name = "sub
// CHECK-NEXT: cmmtg.task elementwise cost scale ({{.*}}name = "neg
// CHECK-NEXT: cmmtg.task elementwise cost scale ({{.*}}name = "cmp
// CHECK-NEXT: cmmtg.task elementwise ({{.*}}name = "cmp
// CHECK-NEXT: cmmtg.task gather
func.func @main() {
  %a = cmm.rand normal seed 1 id 1 : tensor<2x2xf64>
  %f = cmm.fill 3.0 : tensor<2x2xf64>
  %q = cmm.map sqrt %a : tensor<2x2xf64>
  %l = cmm.map log %q : tensor<2x2xf64>
  %t = cmm.map tanh %l : tensor<2x2xf64>
  %s = cmm.map sin %t : tensor<2x2xf64>
  %c = cmm.map cos %s : tensor<2x2xf64>
  %b = cmm.map abs %c : tensor<2x2xf64>
  %p = cmm.epow %b, %f : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %r = cmm.add %p, %f : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %two = cmm.constant dense<2.0> : tensor<1x1xf64>
  %sq = cmm.epow %r, %two : (tensor<2x2xf64>, tensor<1x1xf64>) -> tensor<2x2xf64>
  %f2 = cmm.fill 2.0 : tensor<2x2xf64>
  %sq2 = cmm.epow %sq, %f2 : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %three = cmm.constant dense<3.0> : tensor<1x1xf64>
  %cube = cmm.epow %sq2, %three : (tensor<2x2xf64>, tensor<1x1xf64>) -> tensor<2x2xf64>
  %mod = cmm.mod %cube, %f : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %less = cmm.sub %mod, %three : (tensor<2x2xf64>, tensor<1x1xf64>) -> tensor<2x2xf64>
  %neg = cmm.neg %less : tensor<2x2xf64>
  %lt = cmm.cmp lt, %neg, %two : (tensor<2x2xf64>, tensor<1x1xf64>) -> tensor<2x2xf64>
  %eq = cmm.cmp eq, %lt, %neg : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  cmm.print %eq "r" : tensor<2x2xf64>
  return
}

// -----

// A fused kernel of arithmetic alone is class fused with its steps as k
// (a pass or its arithmetic, whichever is longer); one with a function
// among its steps is that function's class.
// CHECK-LABEL: cmmtg.op @fused{{[0-9]+}} fused
// CHECK: cmmtg.task elementwise cost fused ({{.*}}k = 3 : i64, m = 5 : i64, n = 5 : i64, name = "fused
// CHECK: cmmtg.task elementwise cost exp ({{.*}}name = "fused
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<5x5xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<5x5xf64>
  %f = cmm.fused(%a, %b) : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64> {
  ^bb0(%x: f64, %y: f64):
    %0 = cmm.scalar mul %x, %y : f64
    %1 = cmm.scalar add %0, %y : f64
    %2 = cmm.scalar sub %1, %x : f64
    cmm.yield %2 : f64
  }
  %g = cmm.fused(%f, %b) : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64> {
  ^bb0(%x: f64, %y: f64):
    %0 = cmm.scalar mul %x, %y : f64
    %1 = cmm.scalar exp %0 : f64
    cmm.yield %1 : f64
  }
  cmm.print %g "g" : tensor<5x5xf64>
  return
}
