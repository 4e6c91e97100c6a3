// cmm-schedule on hand-written graphs: readTaskGraph keeps kinds, cost
// classes, time parameters and pinned nodes; graphs already scheduled are
// left alone; gang tasks are placed; gangs and pins outside the machine are
// errors.
// RUN: cmm-opt %s -split-input-file --cmm-schedule="nodes=2 machine-model=%S/Inputs/test-model.json" -verify-diagnostics | FileCheck %s

// The load is pinned to the master; the transpose of a 5x2 tile is 2x5.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 attributes {makespan = {{.*}} : f64, nodes = 2 : i64, scheduler = "heft"} {
// CHECK-DAG: %[[L:.*]] = cmmtg.task load () {finish = {{.*}}, m = 5 : i64, n = 2 : i64, name = "load", node = 0 : i64, pinned = 0 : i64, start = {{.*}}, worker = {{[01]}} : i64} : () -> !cmmtg.tile<5x2>
// CHECK-DAG: cmmtg.task transpose ({{.*}}) {finish = {{.*}}, m = 2 : i64, n = 5 : i64, name = "t", node = {{[01]}} : i64, start = {{.*}}, worker = {{[01]}} : i64} : (!cmmtg.tile<5x2>) -> !cmmtg.tile<2x5>
// CHECK-DAG: cmmtg.task elementwise cost map ({{.*}}) {finish = {{.*}}, m = 5 : i64, n = 2 : i64, name = "exp"
// CHECK-DAG: cmmtg.task gather ({{.*}}) {finish = {{.*}}, name = "print", node = 0 : i64, pinned = 0 : i64
// CHECK: }
cmmtg.graph @main tile_size 5 {
  %l = cmmtg.task load () {m = 5, n = 2, name = "load", pinned = 0} : () -> !cmmtg.tile<5x2>
  %t = cmmtg.task transpose (%l) {m = 2, n = 5, name = "t"} : (!cmmtg.tile<5x2>) -> !cmmtg.tile<2x5>
  %e = cmmtg.task elementwise cost map (%l) {m = 5, n = 2, name = "exp"} : (!cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  cmmtg.task gather (%t, %e) {name = "print", pinned = 0} : (!cmmtg.tile<2x5>, !cmmtg.tile<5x2>) -> ()
}

// A scheduled graph stays as it is.
// CHECK-LABEL: cmmtg.graph @main tile_size 7 attributes {makespan = 1.000000e+00 : f64, nodes = 4 : i64, scheduler = "mine"} {
// CHECK-NEXT: cmmtg.task generate () {finish = 1.000000e+00 : f64, node = 3 : i64, start = 0.000000e+00 : f64, worker = 0 : i64}
cmmtg.graph @main tile_size 7 attributes {makespan = 1.0 : f64, nodes = 4, scheduler = "mine"} {
  %a = cmmtg.task generate () {node = 3, worker = 0, start = 0.0, finish = 1.0} : () -> !cmmtg.tile<7x7>
}

// -----

// A gang task (COSMA) is placed on its first node, worker 0, and holds
// every worker of the gang from one start to one finish: "late" (ready at
// 0) goes into the gap before it, on worker 1, not beside it.
// CHECK-LABEL: cmmtg.graph @main tile_size 5
// CHECK: %[[A:.*]] = cmmtg.task generate () {finish = [[GEN:[^ ]*]] : f64, {{.*}}name = "a", node = 0 : i64
// CHECK: cmmtg.task generate () {finish = [[GEN]] : f64, {{.*}}name = "late", node = 0 : i64, start = 0.000000e+00 : f64, worker = 1 : i64}
// CHECK: cmmtg.task distributed_gemm (%[[A]], %[[A]]) {finish = {{.*}}, k = 5 : i64, m = 5 : i64, n = 5 : i64, name = "c", node = 0 : i64, nodes = array<i64: 0, 1>, start = [[GEN]] : f64, worker = 0 : i64}
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {name = "a", m = 5, n = 5} : () -> !cmmtg.tile<5x5>
  %c = cmmtg.task distributed_gemm (%a, %a) {name = "c", nodes = array<i64: 0, 1>, m = 5, n = 5, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
  %d = cmmtg.task generate () {name = "late", m = 5, n = 5} : () -> !cmmtg.tile<5x5>
  %e = cmmtg.task elementwise (%c, %d) {name = "use", m = 5, n = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A distributed product that cannot fit in a rank's memory (the test
// model's 1e9 bytes) says what it needs.
// expected-error @+1 {{cmm-schedule: task 'huge': a 100000x100000x100000 product on 2 rank(s) needs at least}}
cmmtg.graph @main tile_size 100000 {
  %a = cmmtg.task generate () {m = 100000, n = 100000} : () -> !cmmtg.tile<100000x100000>
  %c = cmmtg.task distributed_gemm (%a, %a) {name = "huge", nodes = array<i64: 0, 1>, m = 100000, n = 100000, k = 100000} : (!cmmtg.tile<100000x100000>, !cmmtg.tile<100000x100000>) -> !cmmtg.tile<100000x100000>
}

// -----

// expected-error @+1 {{cmm-schedule: task 'wide' has gang node 2 on a machine with 2 node(s)}}
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  %c = cmmtg.task distributed_gemm (%a, %a) {name = "wide", nodes = array<i64: 0, 1, 2>, m = 5, n = 5, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// expected-error @+1 {{cmm-schedule: task 'far' is pinned to node 5 of a machine with 2 node(s)}}
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {name = "far", pinned = 5} : () -> !cmmtg.tile<5x5>
}
