// cmm-schedule: every candidate of cmm-tile is scheduled (HEFT by default),
// the graph with the smallest predicted makespan is kept in its scheduled
// form and the other candidates are erased.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule="nodes=2 machine-model=%S/Inputs/test-model.json" -o %t
// RUN: FileCheck %s < %t
// Exactly one graph is left.
// RUN: grep "cmmtg.graph" %t | count 1
// Every task is placed.
// RUN: grep -c "cmmtg.task" %t | FileCheck %s --check-prefix=TASKS
// RUN: awk '/cmmtg\.task/ && !(/node = / && /worker = / && /start = / && /finish = /)' %t | count 0
// The scheduled graph parses and verifies (every use on its node), also in
// the generic form.
// RUN: cmm-opt %t -o /dev/null
// RUN: cmm-opt %t -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule="nodes=2 machine-model=%S/Inputs/test-model.json scheduler=roundrobin" | FileCheck %s --check-prefix=RR
// The built-in model of this machine.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule="nodes=2" | FileCheck %s --check-prefix=BUILTIN
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule | FileCheck %s --check-prefix=ONE
// A machine model that cannot be read is an error, not a crash.
// RUN: not cmm-opt %s --cmm-tile --cmm-schedule="machine-model=%S/Inputs/does-not-exist.json" 2>&1 | FileCheck %s --check-prefix=BADMODEL

// On the test model, 5x5 tiles (8 product tasks of 0.125 s on 4 workers)
// beat 2x2 tiles (125 small products and many transfers).
// CHECK-LABEL: func.func @main()
// CHECK: cmmtg.graph @main tile_size 5 attributes {communicators = array<i64: 1, 1>, gemm_memory = {{.*}} : f64, makespan = {{[0-9.e+-]+}} : f64, nodes = 2 : i64, scheduler = "heft", threads = array<i64: 1, 1>, workers = array<i64: 2, 2>} {
// CHECK: cmmtg.task generate () {finish = {{.*}} : f64, m = 5 : i64, n = 5 : i64, name = "rand{{.*}}", node = {{[01]}} : i64, op = @rand0, start = {{.*}} : f64, worker = {{[01]}} : i64} : () -> !cmmtg.tile<5x5>
// Tiles made on the other node are sent and enter the tile cache.
// CHECK: %[[R:.*]] = cmmtg.recv %{{.*}} from {{[01]}} to {{[01]}} {finish = {{.*}} : f64, recv_comm = 0 : i64, send_comm = 0 : i64, start = {{.*}} : f64} : !cmmtg.tile<5x5>
// CHECK: cmmtg.cache_put %[[R]] on {{[01]}} at {{.*}} : !cmmtg.tile<5x5>
// CHECK: cmmtg.task gemm_acc
// The gather to the master.
// CHECK: cmmtg.task gather ({{.*}}) {finish = {{.*}} : f64, m = 10 : i64, n = 10 : i64, name = "print{{.*}}", node = 0 : i64, op = @print3, pinned = 0 : i64, start = {{.*}} : f64, worker = {{[01]}} : i64}
// CHECK: cmmtg.evict
// CHECK-NOT: cmmtg.graph

// 8 generate, 4 gemm, 4 gemm_acc, 1 gather.
// TASKS: 17

// RR: cmmtg.graph @main tile_size {{[25]}} attributes {{{.*}}makespan = {{.*}} : f64, nodes = 2 : i64, scheduler = "roundrobin"{{.*}}} {
// RR-NOT: cmmtg.graph

// BUILTIN: cmmtg.graph @main tile_size {{[25]}} attributes {communicators = array<i64: 1, 1>, gemm_memory = {{.*}} : f64, makespan = {{.*}} : f64, nodes = 2 : i64, scheduler = "heft", threads = array<i64: 1, 1>, workers = array<i64: 1, 1>} {
// BUILTIN-NOT: cmmtg.graph

// One node: no transfers.
// ONE: cmmtg.graph @main tile_size {{[25]}} attributes {communicators = array<i64: 1>, gemm_memory = {{.*}} : f64, makespan = {{.*}} : f64, nodes = 1 : i64, scheduler = "heft", threads = array<i64: 2>, workers = array<i64: 1>} {
// ONE-NOT: cmmtg.recv
// ONE-NOT: cmmtg.graph

// BADMODEL: error: cmm-schedule: {{.*}}does-not-exist.json: cannot read machine model

func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<10x10xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<10x10xf64>
  %c = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  cmm.print %c "C" : tensor<10x10xf64>
  return
}
