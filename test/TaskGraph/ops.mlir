// Every cmmtg op and task kind parses and prints; the printed form and the
// generic form both parse back to the same IR.
// RUN: cmm-opt %s | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// An unscheduled graph with every task kind.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 {
// GENERIC-LABEL: "cmmtg.graph"() <{function = "main", tile_size = 5 : i64}> ({
cmmtg.graph @main tile_size 5 {
  // CHECK-NEXT: %[[A:.*]] = cmmtg.task generate () {m = 5 : i64, n = 5 : i64, name = "rand[0,0]"} : () -> !cmmtg.tile<5x5>
  // GENERIC: "cmmtg.task"() <{kind = 0 : i32, m = 5 : i64, n = 5 : i64, name = "rand[0,0]"}> : () -> !cmmtg.tile<5x5>
  %a = cmmtg.task generate () {m = 5, n = 5, name = "rand[0,0]"} : () -> !cmmtg.tile<5x5>
  // CHECK-NEXT: %[[B:.*]] = cmmtg.task load () {m = 5 : i64, n = 2 : i64, pinned = 0 : i64} : () -> !cmmtg.tile<5x2>
  %b = cmmtg.task load () {m = 5, n = 2, pinned = 0} : () -> !cmmtg.tile<5x2>
  // CHECK-NEXT: %[[C:.*]] = cmmtg.task gemm (%[[A]], %[[B]]) {k = 5 : i64, m = 5 : i64, n = 2 : i64} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  %c = cmmtg.task gemm (%a, %b) {m = 5, n = 2, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  // CHECK-NEXT: %[[D:.*]] = cmmtg.task gemm_acc (%[[A]], %[[B]], %[[C]]) : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  // GENERIC: "cmmtg.task"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = 3 : i32}>
  %d = cmmtg.task gemm_acc (%a, %b, %c) : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  // Broadcasting: a 1x2 row against a 5x2 tile.
  // CHECK-NEXT: %[[R:.*]] = cmmtg.task generate () : () -> !cmmtg.tile<1x2>
  %r = cmmtg.task generate () : () -> !cmmtg.tile<1x2>
  // CHECK-NEXT: %[[E:.*]] = cmmtg.task elementwise (%[[D]], %[[R]]) : (!cmmtg.tile<5x2>, !cmmtg.tile<1x2>) -> !cmmtg.tile<5x2>
  %e = cmmtg.task elementwise (%d, %r) : (!cmmtg.tile<5x2>, !cmmtg.tile<1x2>) -> !cmmtg.tile<5x2>
  // A cost class other than the kind's default.
  // CHECK-NEXT: %[[F:.*]] = cmmtg.task elementwise cost map (%[[E]]) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  // GENERIC: "cmmtg.task"(%{{.*}}) <{cost = 2 : i32, kind = 4 : i32}>
  %f = cmmtg.task elementwise cost map (%e) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
  // CHECK-NEXT: %[[T:.*]] = cmmtg.task transpose (%[[F]]) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<2x5>
  %t = cmmtg.task transpose (%f) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<2x5>
  // CHECK-NEXT: %[[P0:.*]] = cmmtg.task reduce (%[[T]]) : (!cmmtg.tile<2x5>) -> !cmmtg.tile<1x1>
  %p0 = cmmtg.task reduce (%t) : (!cmmtg.tile<2x5>) -> !cmmtg.tile<1x1>
  // CHECK-NEXT: %[[P1:.*]] = cmmtg.task reduce (%[[F]]) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<1x1>
  %p1 = cmmtg.task reduce (%f) : (!cmmtg.tile<5x2>) -> !cmmtg.tile<1x1>
  // CHECK-NEXT: %[[S:.*]] = cmmtg.task reduce cost elementwise (%[[P0]], %[[P1]]) : (!cmmtg.tile<1x1>, !cmmtg.tile<1x1>) -> !cmmtg.tile<1x1>
  %s = cmmtg.task reduce cost elementwise (%p0, %p1) : (!cmmtg.tile<1x1>, !cmmtg.tile<1x1>) -> !cmmtg.tile<1x1>
  // A solve has the tiles of whole matrices in and out.
  // CHECK-NEXT: %[[X:.*]]:2 = cmmtg.task solve (%[[A]], %[[B]]) {k = 2 : i64, m = 5 : i64, n = 5 : i64} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>) -> (!cmmtg.tile<5x1>, !cmmtg.tile<5x1>)
  %x:2 = cmmtg.task solve (%a, %b) {m = 5, n = 5, k = 2} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x2>) -> (!cmmtg.tile<5x1>, !cmmtg.tile<5x1>)
  // CHECK-NEXT: cmmtg.task gather (%[[S]], %[[X]]#0, %[[X]]#1) {pinned = 0 : i64} : (!cmmtg.tile<1x1>, !cmmtg.tile<5x1>, !cmmtg.tile<5x1>) -> ()
  cmmtg.task gather (%s, %x#0, %x#1) {pinned = 0} : (!cmmtg.tile<1x1>, !cmmtg.tile<5x1>, !cmmtg.tile<5x1>) -> ()
  // A gang task over nodes 0, 2 and 3.
  // CHECK-NEXT: %{{.*}} = cmmtg.task distributed_gemm (%[[A]], %[[A]]) {k = 5 : i64, m = 5 : i64, n = 5 : i64, nodes = array<i64: 0, 2, 3>} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
  %g = cmmtg.task distributed_gemm (%a, %a) {m = 5, n = 5, k = 5, nodes = array<i64: 0, 2, 3>} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
  // The terminator is implicit in the custom form.
  // CHECK-NEXT: }
  // GENERIC: "cmmtg.end"() : () -> ()
}

// A scheduled graph: placement, a transfer, the tile cache.
// CHECK-LABEL: cmmtg.graph @main tile_size 5 attributes {makespan = 3.000000e+00 : f64, nodes = 2 : i64, scheduler = "heft"} {
cmmtg.graph @main tile_size 5 attributes {makespan = 3.0 : f64, nodes = 2, scheduler = "heft"} {
  // CHECK-NEXT: %[[A:.*]] = cmmtg.task generate () {finish = 1.000000e+00 : f64, node = 1 : i64, start = 0.000000e+00 : f64, worker = 0 : i64} : () -> !cmmtg.tile<5x5>
  %a = cmmtg.task generate () {node = 1, worker = 0, start = 0.0, finish = 1.0} : () -> !cmmtg.tile<5x5>
  // CHECK-NEXT: %[[R:.*]] = cmmtg.recv %[[A]] from 1 to 0 {finish = 1.500000e+00 : f64, recv_comm = 0 : i64, send_comm = 1 : i64, start = 1.000000e+00 : f64} : !cmmtg.tile<5x5>
  // GENERIC: "cmmtg.recv"(%{{.*}}) <{finish = 1.500000e+00 : f64, from = 1 : i64, recv_comm = 0 : i64, send_comm = 1 : i64, start = 1.000000e+00 : f64, to = 0 : i64}> : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
  %r = cmmtg.recv %a from 1 to 0 {send_comm = 1, recv_comm = 0, start = 1.0, finish = 1.5} : !cmmtg.tile<5x5>
  // CHECK-NEXT: cmmtg.cache_put %[[R]] on 0 at 1.500000e+00 : !cmmtg.tile<5x5>
  // GENERIC: "cmmtg.cache_put"(%{{.*}}) <{node = 0 : i64, time = 1.500000e+00 : f64}> : (!cmmtg.tile<5x5>) -> ()
  cmmtg.cache_put %r on 0 at 1.5 : !cmmtg.tile<5x5>
  // CHECK-NEXT: cmmtg.task gather (%[[R]]) {finish = 3.000000e+00 : f64, node = 0 : i64, pinned = 0 : i64, start = 2.000000e+00 : f64, worker = 0 : i64} : (!cmmtg.tile<5x5>) -> ()
  cmmtg.task gather (%r) {node = 0, worker = 0, start = 2.0, finish = 3.0, pinned = 0} : (!cmmtg.tile<5x5>) -> ()
  // CHECK-NEXT: cmmtg.evict %[[R]] on 0 at 3.000000e+00 : !cmmtg.tile<5x5>
  cmmtg.evict %r on 0 at 3.0 : !cmmtg.tile<5x5>
  // The time of a cache command is optional.
  // CHECK-NEXT: cmmtg.evict %[[A]] on 1 : !cmmtg.tile<5x5>
  // GENERIC: "cmmtg.evict"(%{{.*}}) <{node = 1 : i64}> : (!cmmtg.tile<5x5>) -> ()
  cmmtg.evict %a on 1 : !cmmtg.tile<5x5>
}

// An empty graph.
// CHECK-LABEL: cmmtg.graph @empty tile_size 1 {
// CHECK-NEXT: }
cmmtg.graph @empty tile_size 1 {
}

// Op declarations (every parameter kind) and tasks naming them by symbol.
// CHECK-LABEL: cmmtg.graph @main tile_size 2 {
// CHECK-NEXT: cmmtg.op @rand0 randn {cols = 2 : i64, id = -5 : i64, rows = 2 : i64, seed = 7 : i64}
// CHECK-NEXT: cmmtg.op @range1 range {cols = 3 : i64, first = 1 : i64, last = 3 : i64, rows = 1 : i64}
// CHECK-NEXT: cmmtg.op @const2 constant {cols = 2 : i64, data = dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf64>, rows = 1 : i64}
// CHECK-NEXT: cmmtg.op @map3 map {cols = 2 : i64, fn = "tanh", rows = 2 : i64}
// CHECK-NEXT: cmmtg.op @sum4 reduce_mean {cols = 1 : i64, dim = 2 : i64, in_cols = 2 : i64, in_rows = 2 : i64, rows = 2 : i64}
// CHECK-NEXT: cmmtg.op @save5 save {cols = 1 : i64, path = "out.npy", rows = 2 : i64}
// CHECK-NEXT: cmmtg.op @s6 print_scalar {cols = 1 : i64, label = "n", rows = 1 : i64, value = 2.500000e+00 : f64}
// CHECK-NEXT: %[[R:.*]] = cmmtg.task generate () {op = @rand0} : () -> !cmmtg.tile<2x2>
// CHECK-NEXT: %[[M:.*]] = cmmtg.task elementwise cost map (%[[R]]) {op = @map3}
// GENERIC: "cmmtg.op"() <{code = 1 : i32, cols = 2 : i64, id = -5 : i64, rows = 2 : i64, seed = 7 : i64, sym_name = "rand0"}> : () -> ()
cmmtg.graph @main tile_size 2 {
  cmmtg.op @rand0 randn {rows = 2, cols = 2, seed = 7, id = -5}
  cmmtg.op @range1 range {rows = 1, cols = 3, first = 1, last = 3}
  cmmtg.op @const2 constant {rows = 1, cols = 2, data = dense<[[1.0, 2.0]]> : tensor<1x2xf64>}
  cmmtg.op @map3 map {rows = 2, cols = 2, fn = "tanh"}
  cmmtg.op @sum4 reduce_mean {rows = 2, cols = 1, in_rows = 2, in_cols = 2, dim = 2}
  cmmtg.op @save5 save {rows = 2, cols = 1, path = "out.npy"}
  cmmtg.op @s6 "print_scalar" {rows = 1, cols = 1, label = "n", value = 2.5}
  %r = cmmtg.task generate () {op = @rand0} : () -> !cmmtg.tile<2x2>
  %m = cmmtg.task elementwise cost map (%r) {op = @map3} : (!cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}
