// cmm-plan: the tile-size sweep, scheduling, simulation and the choice, as a
// pass; cmm-default-pipeline runs cmm-simplify first. Both give the plan
// cmmc gives (test/Pipelines/routes.test compares every example).
//
// A 4000x4000 product on 2 nodes at tile 4000 (Inputs/big-product.mlir) on
// the unit model (a product m n k seconds, 8 B/s links): tiled, it is one
// gemm task on one node (6.4e10 s, and one 128 MB input sent: 1.6e7 s);
// gemm=auto gives it to COSMA, both nodes sharing it (3.2e10 s and its
// exchanges). (On the built-in model of this 2-core machine the master
// alone, with both cores, is as fast as COSMA on two ranks of one core.)
// A 64x64 product at tile 32 stays tiled under gemm=auto: COSMA's
// transfers cost more than the product (eight gemm/gemm_acc tasks).
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-plan="machine-model=%S/Inputs/unit-model.json tile-sizes=4000" | FileCheck %s --check-prefix=AUTO
// RUN: cmm-opt %S/Inputs/big-product.mlir --pass-pipeline="builtin.module(cmm-default-pipeline{machine-model=%S/Inputs/unit-model.json tile-sizes=4000})" | FileCheck %s --check-prefix=AUTO
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-plan="machine-model=%S/Inputs/unit-model.json tile-sizes=4000 gemm=tiled" | FileCheck %s --check-prefix=BIGTILED
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=32" | FileCheck %s --check-prefix=TILED
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=32 gemm=tiled" | FileCheck %s --check-prefix=TILED
// The stages of the same code: cmm-tile then cmm-schedule (no gemm=auto).
// RUN: cmm-opt %s --cmm-tile="tile-sizes=32" --cmm-schedule="nodes=2" | FileCheck %s --check-prefix=TILED
// AUTO: cmmtg.graph @main tile_size 4000 attributes {{{.*}}makespan = 3.21{{[0-9]*}}e+10 : f64, nodes = 2 : i64, scheduler = "heft"
// AUTO: cmmtg.task distributed_gemm
// BIGTILED: cmmtg.graph @main tile_size 4000 attributes {{{.*}}makespan = 6.40{{[0-9]*}}e+10 : f64, nodes = 2 : i64
// BIGTILED-NOT: distributed_gemm
// TILED: cmmtg.graph @main tile_size 32 attributes {{{.*}}nodes = 2 : i64
// TILED-NOT: distributed_gemm
// TILED-COUNT-8: cmmtg.task gemm

// One node: one scheduled graph, @main kept, every task placed on node 0.
// RUN: cmm-opt %s --cmm-plan | FileCheck %s --check-prefix=ONE
// RUN: cmm-opt %s --cmm-plan | grep -c "cmmtg.graph" | FileCheck %s --check-prefix=COUNT
// RUN: cmm-opt %s --cmm-plan | grep "cmmtg.task" | not grep -v "node = 0 : i64"
// ONE: func.func @main()
// ONE: cmm.matmul
// ONE: cmmtg.graph @main tile_size {{[0-9]+}} attributes {{{.*}}nodes = 1 : i64
// COUNT: 1

// The sweep report: one line per candidate, the choice, the speedup.
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=32,64 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: plan: builtin, 2 node(s), 2 worker(s)
// REPORT: tile     32:
// REPORT: tile     64:
// REPORT: chosen tile size:
// REPORT: predicted speedup of 2 nodes over 1 node
// Pictures of the chosen plan.
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=32 plan-trace=%t.json plan-svg=%t.svg" -o /dev/null
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// TRACE: "traceEvents"
// SVG: <svg

// The pipeline without the rewrites keeps the program as written (a double
// transpose stays); with them it is gone. A pipeline option of cmm-plan that
// is misspelt or has a bad value is an error.
// RUN: cmm-opt %S/Inputs/double-transpose.mlir --pass-pipeline="builtin.module(cmm-default-pipeline{simplify=false tile-sizes=4})" | FileCheck %s --check-prefix=ASIS
// RUN: cmm-opt %S/Inputs/double-transpose.mlir --pass-pipeline="builtin.module(cmm-default-pipeline{tile-sizes=4})" | FileCheck %s --check-prefix=SIMPLIFIED
// ASIS-COUNT-2: cmm.transpose
// SIMPLIFIED-NOT: cmm.transpose
// RUN: not cmm-opt %s --pass-pipeline="builtin.module(cmm-default-pipeline{gemm=fast})" 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not cmm-opt %s --pass-pipeline="builtin.module(cmm-default-pipeline{tiles=4})" 2>&1 | FileCheck %s --check-prefix=BADNAME
// BADVALUE: Cannot find option named 'fast'
// BADNAME: no such option tiles

// Errors: a module planned twice, no @main, a bad tile size or model.
// RUN: cmm-opt %s --cmm-plan="tile-sizes=64" | not cmm-opt --cmm-plan 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: cmm-plan: @main already has a task graph (plan a module once)
// RUN: not cmm-opt %S/../TaskGraph/Inputs/no-main.mlir --cmm-plan 2>&1 | FileCheck %s --check-prefix=NOMAIN
// NOMAIN: error: cmm-plan: no func.func @main with a body
// RUN: not cmm-opt %s --cmm-plan="tile-sizes=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: tile size must be at least 1 (got 0)
// RUN: not cmm-opt %s --cmm-plan="machine-model=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: error: {{.*}}missing.json: cannot read machine model
// cmm-schedule with nothing to schedule says what to run.
// RUN: not cmm-opt %s --cmm-schedule 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: error: cmm-schedule: no unscheduled cmmtg.graph to schedule (run cmm-tile first, or cmm-plan to tile and schedule)

module {
  func.func @main() {
    %0 = cmm.rand uniform seed 20260101 id 1 : tensor<64x64xf64>
    %1 = cmm.rand uniform seed 20260101 id 2 : tensor<64x64xf64>
    %2 = cmm.matmul %0, %1 : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
    cmm.print %2 "A * B" : tensor<64x64xf64>
    return
  }
}
