// The planner's expected share of nonzeros (Conversion/CmmToTaskGraph/
// Density.h), seen through the tasks it costs on compressed rows
// (Planning/sparse-products.cmm has the rule): a 300 x 300 matrix (one
// tile of 90000 > 2^16 elements) times a vector three times, so p = 3 and
// the break-even share is (3 - 2) / (60 + 9) = 0.0145. A share d makes the
// first product class compress on the 300 x 300 tile with k = 300 d
// nonzeros a row, the next two class sparse with k = 900 d (rounded; 1 is
// not printed).
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=300" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=300" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null
// CHECK-LABEL: cmmtg.graph
// CHECK: cmmtg.task gemm cost compress {{.*}} {m = 300 : i64, n = 300 : i64, name
// CHECK-COUNT-2: cmmtg.task gemm cost sparse {{.*}} {m = 300 : i64, name
// rand .== 0.5: a uniform value equals one value on a set of measure zero, d = 0: k = 1.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<5.000000e-01> : tensor<1x1xf64>
  %a = cmm.cmp eq, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %a, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %a, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %a, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK: cost compress {{.*}} {k = 3 : i64, m = 300 : i64, n = 300 : i64
// CHECK-COUNT-2: cost sparse {{.*}}k = 8 : i64
// (rand .< 0.005) - (rand .< 0.004): the shares add, d = 0.009: k = 3, 8.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %r1 = cmm.rand uniform seed 1 id 1 : tensor<300x300xf64>
  %c = cmm.constant dense<5.000000e-03> : tensor<1x1xf64>
  %e = cmm.constant dense<4.000000e-03> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %b = cmm.cmp lt, %r1, %e : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %s = cmm.sub %a, %b : (tensor<300x300xf64>, tensor<300x300xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %s, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %s, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %s, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK: cost compress {{.*}} {k = 3 : i64, m = 300 : i64, n = 300 : i64
// CHECK-COUNT-2: cost sparse {{.*}}k = 9 : i64
// (rand .< 0.01) / 2, then negated: d = 0.01: k = 3, 9.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %two = cmm.constant dense<2.000000e+00> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %h = cmm.div %a, %two : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %n = cmm.neg %h : tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %n, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %n, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %n, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK: cost compress {{.*}} {k = 4 : i64, m = 300 : i64, n = 300 : i64
// CHECK-COUNT-2: cost sparse {{.*}}k = 12 : i64
// sqrt(rand .< 0.01) + eye: sqrt keeps the zeros, eye adds 1/300: d = 0.01333: k = 4, 12.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %q = cmm.map sqrt %a : tensor<300x300xf64>
  %i = cmm.eye : tensor<300x300xf64>
  %s = cmm.add %q, %i : (tensor<300x300xf64>, tensor<300x300xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %s, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %s, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %s, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK: cmmtg.task gemm cost compress {{.*}} {m = 300 : i64, n = 300 : i64, name
// 0 * rand: d = 0: k = 1.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %z = cmm.scale %r0 by 0.000000e+00 : tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %z, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %z, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %z, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK-NOT: cost {{sparse|compress}}
// CHECK: cmmtg.task gather
// Must not fire: exp(rand .< 0.01) (exp(0) = 1: dense).
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %x = cmm.map exp %a : tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %x, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %x, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %x, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK-NOT: cost {{sparse|compress}}
// CHECK: cmmtg.task gather
// Must not fire: (rand .< 0.01) + (rand .< 0.01) (d = 0.02, above 0.0145).
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %r1 = cmm.rand uniform seed 1 id 1 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %b = cmm.cmp lt, %r1, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %s = cmm.add %a, %b : (tensor<300x300xf64>, tensor<300x300xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %s, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %s, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %s, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK-NOT: cost {{sparse|compress}}
// CHECK: cmmtg.task gather
// Must not fire: randn .< 0.01 (not uniform on [0, 1): no share known).
func.func @main() {
  %r0 = cmm.rand normal seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %a, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %a, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %a, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}

// -----

// CHECK-LABEL: cmmtg.graph
// CHECK: cost compress {{.*}} {k = 3 : i64, m = 300 : i64, n = 300 : i64
// CHECK-COUNT-2: cost sparse {{.*}}k = 9 : i64
// max(rand .< 0.01, 0): max and min are 0 where both operands are (the
// shares add, PageRank's max(A, eye(n))), d = 0.01: k = 3, 9.
func.func @main() {
  %r0 = cmm.rand uniform seed 1 id 0 : tensor<300x300xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %z = cmm.constant dense<0.000000e+00> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r0, %c : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %m = cmm.max %a, %z : (tensor<300x300xf64>, tensor<1x1xf64>) -> tensor<300x300xf64>
  %v = cmm.fill 1.0 : tensor<300x1xf64>
  %x1 = cmm.matmul %m, %v : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x2 = cmm.matmul %m, %x1 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  %x3 = cmm.matmul %m, %x2 : (tensor<300x300xf64>, tensor<300x1xf64>) -> tensor<300x1xf64>
  cmm.print %x3 "x" : tensor<300x1xf64>
  return
}
