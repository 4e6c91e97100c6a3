// Every verifier error of the cmmtg dialect.
// RUN: cmm-opt %s -split-input-file -verify-diagnostics

// Placement: a task uses a tile located on another node.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 0, worker = 0} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op (task "t") runs on node 1 but operand #0 is located on node 0}}
  %b = cmmtg.task transpose (%a) {name = "t", node = 1, worker = 0} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A distributed_gemm reads its operands on any node of its gang, not
// outside it (the first operand, on node 1 of the gang, is fine).
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1, worker = 0} : () -> !cmmtg.tile<5x5>
  %b = cmmtg.task generate () {node = 2, worker = 0} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op (task "g") runs on node 0 but operand #1 is located on node 2}}
  %c = cmmtg.task distributed_gemm (%a, %b) {name = "g", node = 0, worker = 0, nodes = array<i64: 0, 1>, m = 5, n = 5, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A recv result is on its destination, not on its source.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 0} : () -> !cmmtg.tile<5x5>
  %r = cmmtg.recv %a from 0 to 2 : !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op (task) runs on node 0 but operand #1 is located on node 2}}
  %c = cmmtg.task gemm (%a, %r) {node = 0} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A recv sends from the node where its tile is.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.recv' op sends from node 0 a tile located on node 1}}
  %r = cmmtg.recv %a from 0 to 2 : !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.recv' op sends a tile from node 3 to itself}}
  %r = cmmtg.recv %a from 3 to 3 : !cmmtg.tile<5x5>
}

// -----

// Pinned tasks run on their node.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 0} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op (task "print") is pinned to node 0 but runs on node 1}}
  cmmtg.task gather (%a) {name = "print", pinned = 0, node = 1} : (!cmmtg.tile<5x5>) -> ()
}

// -----

// gemm_acc: A (m x k), B (k x n), C' (m x n).
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  %c = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op accumulator shape 5x5 does not match 5x3 * 3x2 = 5x2}}
  %d = cmmtg.task gemm_acc (%a, %b, %c) : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x2>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op inner dimensions differ: 5x3 * 2x2}}
  %d = cmmtg.task gemm (%a, %b) : (!cmmtg.tile<5x3>, !cmmtg.tile<2x2>) -> !cmmtg.tile<5x2>
}

// -----

// A product read transposed (cmm.gemm): the tiles' shapes are checked as
// its op reads them, A' (3x5) * B (5x2) here, not A (5x3) * B.
cmmtg.graph @main tile_size 5 {
  cmmtg.op @matmul0 matmul {rows = 3, cols = 2, transpose_lhs}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<5x2>
  %ok = cmmtg.task gemm (%a, %b) {op = @matmul0} : (!cmmtg.tile<5x3>, !cmmtg.tile<5x2>) -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op result shape 5x2 does not match 5x3' * 5x2 = 3x2}}
  %d = cmmtg.task gemm (%a, %b) {op = @matmul0} : (!cmmtg.tile<5x3>, !cmmtg.tile<5x2>) -> !cmmtg.tile<5x2>
}

// -----

cmmtg.graph @main tile_size 5 {
  cmmtg.op @matmul0 matmul {rows = 3, cols = 2, transpose_rhs}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<3x5>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<5x2>
  // expected-error @+1 {{'cmmtg.task' op inner dimensions differ: 3x5 * 5x2'}}
  %d = cmmtg.task gemm (%a, %b) {op = @matmul0} : (!cmmtg.tile<3x5>, !cmmtg.tile<5x2>) -> !cmmtg.tile<3x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op (fill) cannot read operands transposed: only a matmul can}}
  cmmtg.op @fill0 fill {rows = 2, cols = 2, value = 1.0, transpose_lhs}
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op result shape 2x5 does not match 5x3 * 3x2 = 5x2}}
  %d = cmmtg.task gemm (%a, %b) : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<2x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op m, n, k must be 5, 2, 3 for 5x3 * 3x2 = 5x2}}
  %d = cmmtg.task gemm (%a, %b) {m = 5, n = 2, k = 5} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<5x2>
}

// -----

// A product on compressed rows is a matrix times a vector (its k, the depth
// of the dense product that costs as much, may differ from the tiles').
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op is costed as a product on compressed rows, but 5x3 * 3x2 = 5x2 is not a matrix-vector product}}
  %d = cmmtg.task gemm cost sparse (%a, %b) {m = 5, n = 2, k = 1} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<5x2>
}

// -----

// The first product on a tile the runtime compresses is a matrix times a
// vector, with the stored tile's rows and columns as m and n.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op is costed as the compression of its matrix, but 5x3 * 3x2 = 5x2 is not a matrix-vector product}}
  %d = cmmtg.task gemm cost compress (%a, %b) {m = 5, n = 3, k = 1} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<5x2>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x1>
  // expected-error @+1 {{'cmmtg.task' op m, n must be its matrix tile's 5, 3 for 5x3 * 3x1 = 5x1}}
  %d = cmmtg.task gemm cost compress (%a, %b) {m = 5, n = 1, k = 2} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x1>) -> !cmmtg.tile<5x1>
}

// -----

// A row vector times a matrix: the matrix is the right operand, m and n
// its tile's.
cmmtg.graph @main tile_size 5 {
  %x = cmmtg.task generate () : () -> !cmmtg.tile<1x5>
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  // expected-error @+1 {{'cmmtg.task' op m, n must be its matrix tile's 5, 3 for 1x5 * 5x3 = 1x3}}
  %d = cmmtg.task gemm cost compress (%x, %a) {m = 1, n = 3, k = 2} : (!cmmtg.tile<1x5>, !cmmtg.tile<5x3>) -> !cmmtg.tile<1x3>
}

// -----

// A product costed as the dsyrk it runs is one tile against its own
// transpose (Tiling.cpp's matmul).
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x2>
  // expected-error @+1 {{'cmmtg.task' op is costed as syrk, but 5x3 * 3x2 = 5x2 is not a tile against its own transpose}}
  %d = cmmtg.task gemm cost syrk (%a, %b) {m = 5, n = 2, k = 2} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x2>) -> !cmmtg.tile<5x2>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x1>
  // expected-error @+1 {{'cmmtg.task' op m, n, k must be 5, 1, 3 for 5x3 * 3x1 = 5x1}}
  %d = cmmtg.task gemm cost sparse (%a, %b) {m = 4, k = 1} : (!cmmtg.tile<5x3>, !cmmtg.tile<3x1>) -> !cmmtg.tile<5x1>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  // expected-error @+1 {{'cmmtg.task' op gemm_acc takes 3 tile(s), got 2}}
  %d = cmmtg.task gemm_acc (%a, %a) : (!cmmtg.tile<5x3>, !cmmtg.tile<5x3>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  // expected-error @+1 {{'cmmtg.task' op result shape 5x3 is not the transpose of 5x3}}
  %t = cmmtg.task transpose (%a) : (!cmmtg.tile<5x3>) -> !cmmtg.tile<5x3>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<2x3>
  // expected-error @+1 {{'cmmtg.task' op operand #1 shape 2x3 does not broadcast to 5x3}}
  %e = cmmtg.task elementwise (%a, %b) : (!cmmtg.tile<5x3>, !cmmtg.tile<2x3>) -> !cmmtg.tile<5x3>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x1>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<1x3>
  // expected-error @+1 {{'cmmtg.task' op result shape 5x1 does not match the broadcast of the operands (5x3)}}
  %e = cmmtg.task elementwise (%a, %b) : (!cmmtg.tile<5x1>, !cmmtg.tile<1x3>) -> !cmmtg.tile<5x1>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<1x1>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<1x1>
  // expected-error @+1 {{'cmmtg.task' op combine operand #0 shape 1x1 differs from the result shape 1x5}}
  %e = cmmtg.task reduce (%a, %b) : (!cmmtg.tile<1x1>, !cmmtg.tile<1x1>) -> !cmmtg.tile<1x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.task' op generate produces 1 tile(s), got 2}}
  %a:2 = cmmtg.task generate () : () -> (!cmmtg.tile<1x1>, !cmmtg.tile<1x1>)
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<1x1>
  // expected-error @+1 {{'cmmtg.task' op gather produces 0 tile(s), got 1}}
  %b = cmmtg.task gather (%a) : (!cmmtg.tile<1x1>) -> !cmmtg.tile<1x1>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op distributed_gemm needs its gang of nodes}}
  %c = cmmtg.task distributed_gemm (%a, %a) : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op runs on node 1 outside its gang of nodes}}
  %c = cmmtg.task distributed_gemm (%a, %a) {nodes = array<i64: 0, 2>, node = 1} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op gang lists a node twice}}
  %c = cmmtg.task distributed_gemm (%a, %a) {nodes = array<i64: 2, 0, 2>} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op only a distributed_gemm has a gang of nodes}}
  %c = cmmtg.task gemm (%a, %a) {nodes = array<i64: 0, 1>} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.task' op worker must be at least 0, got -1}}
  %a = cmmtg.task generate () {node = 0, worker = -1} : () -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.task' op finishes at 1.000000e+00 before it starts at 2.000000e+00}}
  %a = cmmtg.task generate () {start = 2.0, finish = 1.0} : () -> !cmmtg.tile<5x5>
}

// -----

// Times: a task starts after its operands are ready on its node.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1, start = 0.0, finish = 1.0} : () -> !cmmtg.tile<5x5>
  %r = cmmtg.recv %a from 1 to 0 {start = 1.0, finish = 2.0} : !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op (task) starts at 1.500000e+00 before operand #0 is ready on node 0 at 2.000000e+00}}
  %t = cmmtg.task transpose (%r) {node = 0, start = 1.5, finish = 3.0} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1, start = 0.0, finish = 1.0} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.recv' op starts at 5.000000e-01 before its tile is ready on node 1 at 1.000000e+00}}
  %r = cmmtg.recv %a from 1 to 0 {start = 0.5, finish = 2.0} : !cmmtg.tile<5x5>
}

// -----

// No use after an eviction.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1} : () -> !cmmtg.tile<5x5>
  // expected-note @+1 {{evicted here}}
  cmmtg.evict %a on 1 : !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op operand #0 is used after it was evicted from node 1}}
  %t = cmmtg.task transpose (%a) {node = 1} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.evict' op evicts on node 0 a tile located on node 1}}
  cmmtg.evict %a on 0 : !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () {node = 1} : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.cache_put' op caches on node 2 a tile located on node 1}}
  cmmtg.cache_put %a on 2 at 1.0 : !cmmtg.tile<5x5>
}

// -----

// A scheduled graph places every task.
cmmtg.graph @main tile_size 5 attributes {makespan = 1.0 : f64, nodes = 2} {
  // expected-error @+1 {{'cmmtg.task' op in a scheduled graph needs node, worker, start and finish}}
  %a = cmmtg.task generate () {node = 1} : () -> !cmmtg.tile<5x5>
}

// -----

cmmtg.graph @main tile_size 5 attributes {makespan = 1.0 : f64, nodes = 2} {
  // expected-error @+1 {{'cmmtg.task' op node 2 does not exist (the graph has 2 node(s))}}
  %a = cmmtg.task generate () {node = 2, worker = 0, start = 0.0, finish = 1.0} : () -> !cmmtg.tile<5x5>
}

// -----

// expected-error @+1 {{'cmmtg.graph' op tile_size must be at least 1, got 0}}
cmmtg.graph @main tile_size 0 {
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{tile dimensions must be positive, got 0x5}}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<0x5>
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{expected a tile shape RxC, got 3 dimension(s)}}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<2x3x4>
}


// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{needs one (row, column) origin per result: 1 value(s) for 1 result(s)}}
  %0 = cmmtg.task generate () {origins = array<i64: 5>} : () -> !cmmtg.tile<5x5>
}

// -----

// A distributed_gemm's results appear on the first node of its gang.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op runs on node 1 but its results appear on the gang's first node 0}}
  %c = cmmtg.task distributed_gemm (%a, %a) {nodes = array<i64: 0, 1>, node = 1, m = 5, n = 5, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// Its operands are A's tiles then B's: m x k + k x n elements.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op operand tiles cover 50 elements, not the 60 of A (6x5) and B (5x6)}}
  %c = cmmtg.task distributed_gemm (%a, %a) {nodes = array<i64: 0, 1>, m = 6, n = 6, k = 5} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<6x6>
}

// -----

// m, n and k default to 1, as for every task.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op operand tiles cover 50 elements, not the 2 of A (1x1) and B (1x1)}}
  %c = cmmtg.task distributed_gemm (%a, %a) {nodes = array<i64: 0, 1>} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A task names the op it computes part of: a declared one (a hand-edited
// graph that names another symbol is refused)...
cmmtg.graph @main tile_size 2 {
  cmmtg.op @fill0 fill {rows = 2, cols = 2, value = 1.0}
  // expected-error @+1 {{'cmmtg.task' op computes part of @fill9, which the graph does not declare (cmmtg.op)}}
  %0 = cmmtg.task generate () {op = @fill9} : () -> !cmmtg.tile<2x2>
}

// -----

// ... that its kind can compute: a gemm is part of a product, not a print.
cmmtg.graph @main tile_size 2 {
  cmmtg.op @fill0 fill {rows = 2, cols = 2, value = 1.0}
  // expected-note @+1 {{declared here}}
  cmmtg.op @print1 print {rows = 2, cols = 2, label = "A"}
  %0 = cmmtg.task generate () {op = @fill0} : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op is a gemm task, which cannot compute part of @print1 (print)}}
  %1 = cmmtg.task gemm (%0, %0) {op = @print1, m = 2, n = 2, k = 2} : (!cmmtg.tile<2x2>, !cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}

// -----

// Op codes are those of cmmrt/OpCodes.def.
cmmtg.graph @main tile_size 2 {
  // expected-error @+1 {{unknown op code 'matmull'}}
  cmmtg.op @m0 matmull {rows = 2, cols = 2}
}

// -----

cmmtg.graph @main tile_size 2 {
  // expected-error @+1 {{'cmmtg.op' op (rand) needs 'seed'}}
  cmmtg.op @r0 rand {rows = 2, cols = 2, id = 3}
}

// -----

cmmtg.graph @main tile_size 2 {
  // expected-error @+1 {{'cmmtg.op' op data has 3 elements, not 2x2}}
  cmmtg.op @c0 constant {rows = 2, cols = 2, data = dense<[1.0, 2.0, 3.0]> : tensor<3xf64>}
}

// -----

cmmtg.graph @main tile_size 2 {
  // expected-note @+1 {{see existing symbol definition here}}
  cmmtg.op @a0 fill {rows = 2, cols = 2, value = 1.0}
  // expected-error @+1 {{redefinition of symbol named 'a0'}}
  cmmtg.op @a0 fill {rows = 2, cols = 2, value = 2.0}
}

// -----

// Cost classes are those of cmmrt/CostClasses.def, by name ...
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{unknown cost class 'cosh'}}
  %b = cmmtg.task elementwise cost cosh (%a) : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// ... and by number in the generic form.
cmmtg.graph @main tile_size 5 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op has no cost class 99}}
  %b = "cmmtg.task"(%a) {kind = 4 : i32, cost = 99 : i32} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// A fused op's kernel is checked as the runtime reads it.
cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has a kernel that does not read: '%t1' names no earlier step}}
  cmmtg.op @fused0 fused {rows = 5, cols = 5, inputs = 1, kernel = "exp %i0; add %t1, %i0; yield %t1"}
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has a kernel that does not read: 'cbrt' is not an elementwise function}}
  cmmtg.op @fused0 fused {rows = 5, cols = 5, inputs = 1, kernel = "cbrt %i0; yield %t0"}
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has a kernel that does not read: the kernel does not end in 'yield'}}
  cmmtg.op @fused0 fused {rows = 5, cols = 5, inputs = 2, kernel = "mul %i0, %i1"}
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has 'inputs' and 'kernel' exactly when it is fused}}
  cmmtg.op @fused0 fused {rows = 5, cols = 5}
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has a kernel that does not read: a fused op takes at least one input}}
  cmmtg.op @fused0 fused {rows = 5, cols = 5, inputs = 0, kernel = "yield 1"}
}

// -----

cmmtg.graph @main tile_size 5 {
  // expected-error @+1 {{'cmmtg.op' op has 'inputs' and 'kernel' exactly when it is fused}}
  cmmtg.op @neg0 neg {rows = 5, cols = 5, inputs = 1, kernel = "neg %i0; yield %t0"}
}

// -----

cmmtg.graph @main tile_size 5 {
  cmmtg.op @fused0 fused {rows = 5, cols = 5, inputs = 2, kernel = "sub %i0, 1.5; mul %t0, %i1; yield %t1"}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<5x5>
  %ok = cmmtg.task elementwise (%a, %a) {op = @fused0} : (!cmmtg.tile<5x5>, !cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
  // expected-error @+1 {{'cmmtg.task' op reads 1 tile(s), but its fused kernel @fused0 takes 2}}
  %d = cmmtg.task elementwise (%a) {op = @fused0} : (!cmmtg.tile<5x5>) -> !cmmtg.tile<5x5>
}

// -----

// The tile kernels of chol and triangular solves (cmmrt/TileFactorizations.h)
// have the shapes of their BLAS and LAPACK calls.
cmmtg.graph @main tile_size 2 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<2x3>
  // expected-error @+1 {{'cmmtg.task' op potrf factors a square tile into one of its shape: 2x3 into 2x3}}
  %r = cmmtg.task potrf (%a) : (!cmmtg.tile<2x3>) -> !cmmtg.tile<2x3>
}

// -----

cmmtg.graph @main tile_size 2 {
  %t = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<3x1>
  // expected-error @+1 {{'cmmtg.task' op trsm solves a square triangle against a tile of as many rows, into its shape: 2x2 \ 3x1 = 3x1}}
  %x = cmmtg.task trsm (%t, %b) : (!cmmtg.tile<2x2>, !cmmtg.tile<3x1>) -> !cmmtg.tile<3x1>
}

// -----

cmmtg.graph @main tile_size 2 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<4x3>
  %c = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op syrk updates a square tile C - A' A: 2x2 - 4x3' * 4x3}}
  %d = cmmtg.task syrk (%a, %c) : (!cmmtg.tile<4x3>, !cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}

// -----

cmmtg.graph @main tile_size 2 {
  %a = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op symmetry produces a 1x2 share, not 2x2}}
  %s = cmmtg.task symmetry (%a) : (!cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}

// -----

// chol's trailing update reads the factor's tile transposed: C - A' B.
cmmtg.graph @main tile_size 2 {
  cmmtg.op @chol0 chol {rows = 4, cols = 4}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<2x3>
  %b = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  %c = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op accumulator shape 2x2 does not match 2x3' * 2x2 = 3x2}}
  %d = cmmtg.task gemm_sub (%a, %b, %c) {op = @chol0} : (!cmmtg.tile<2x3>, !cmmtg.tile<2x2>, !cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}

// -----

// ... and only chol and solve have tile kernels.
cmmtg.graph @main tile_size 2 {
  // expected-note @+1 {{declared here}}
  cmmtg.op @inv0 inv {rows = 2, cols = 2}
  %a = cmmtg.task generate () : () -> !cmmtg.tile<2x2>
  // expected-error @+1 {{'cmmtg.task' op is a trsm task, which cannot compute part of @inv0 (inv)}}
  %x = cmmtg.task trsm (%a, %a) {op = @inv0} : (!cmmtg.tile<2x2>, !cmmtg.tile<2x2>) -> !cmmtg.tile<2x2>
}
