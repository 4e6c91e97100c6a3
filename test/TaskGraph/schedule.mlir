// cmm-schedule: every candidate of cmm-tile is scheduled (HEFT by default),
// the graph with the smallest predicted makespan is kept in its scheduled
// form and the other candidates are erased.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule="nodes=2 machine-model=%S/Inputs/test-model.json" -o %t
// RUN: FileCheck %s < %t
// The machine scheduled for is the module's: test-model.json's first 2 nodes
// (2 workers of 1 thread each).
// RUN: FileCheck %s --check-prefix=MACHINE < %t
// MACHINE: module attributes {cmmtg.machine = #cmmtg.machine<name = "test-model", nodes = [#cmmtg.node<name = "master", cores = 2, workers = 2, threads = 1, communicators = 1, memory = 1.000000e+09 : f64, {{.*}}>, #cmmtg.node<name = "worker", cores = 2, workers = 2, threads = 1, communicators = 1,
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
// The built-in model: one node runs one worker of 2 BLAS threads; two
// loopback nodes one worker of 1 thread each (docs/machine-model.md).
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule | FileCheck %s --check-prefix=ONEMACHINE
// ONEMACHINE: module attributes {cmmtg.machine = #cmmtg.machine<name = "builtin", nodes = [#cmmtg.node<name = "local0", cores = 2, workers = 1, threads = 2, communicators = 1, {{.*}}>]
// RUN: cmm-opt %s --cmm-tile="tile-sizes=2,5" --cmm-schedule=nodes=2 | FileCheck %s --check-prefix=TWOMACHINE
// TWOMACHINE: module attributes {cmmtg.machine = #cmmtg.machine<name = "builtin", nodes = [#cmmtg.node<name = "local0", cores = 1, workers = 1, threads = 1, communicators = 1, {{.*}}>, #cmmtg.node<name = "local1", cores = 1, workers = 1, threads = 1,
// A machine model that cannot be read is an error, not a crash.
// RUN: not cmm-opt %s --cmm-tile --cmm-schedule="machine-model=%S/Inputs/does-not-exist.json" 2>&1 | FileCheck %s --check-prefix=BADMODEL

// On the test model, 5x5 tiles (8 product tasks of 0.125 s on 4 workers)
// beat 2x2 tiles (125 small products and many transfers).
// CHECK-LABEL: func.func @main()
// CHECK: cmmtg.graph @main tile_size 5 attributes {makespan = {{[0-9.e+-]+}} : f64, nodes = 2 : i64, scheduler = "heft"} {
// CHECK: cmmtg.task generate cost rand () {finish = {{.*}} : f64, m = 5 : i64, n = 5 : i64, name = "rand{{.*}}", node = {{[01]}} : i64, op = @rand0, start = {{.*}} : f64, worker = {{[01]}} : i64} : () -> !cmmtg.tile<5x5>
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

// BUILTIN: cmmtg.graph @main tile_size {{[25]}} attributes {makespan = {{.*}} : f64, nodes = 2 : i64, scheduler = "heft"} {
// BUILTIN-NOT: cmmtg.graph

// One node: no transfers.
// ONE: cmmtg.graph @main tile_size {{[25]}} attributes {makespan = {{.*}} : f64, nodes = 1 : i64, scheduler = "heft"} {
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
