// The whole-matrix factorizations: one task over whole operands each, in
// the cost class of its LAPACK routine (cmmrt/CostClasses.def), with m the
// operand's longer side, n its shorter and k = flops / (2 m n)
// (cmmrt/FactorizationCosts.h), worked by hand below. LU (solve, det, inv)
// keeps the class `solve`, printed as the kind's default.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=100" | FileCheck %s
// RUN: cmm-opt %s --cmm-tile="tile-sizes=16" | FileCheck %s --check-prefix=TILED

// QR of 40 x 10: 4 m n^2 - 4 n^3 / 3 = 14666.7 flops, k = 14666.7 / 800.
// CHECK: cmmtg.task solve cost qr ({{.*}}) {k = 18 : i64, m = 40 : i64, n = 10 : i64,
// The SVD of the wide 10 x 40 costs as the tall 40 x 10: 4 l s^2 + 8 s^3 =
// 24000 flops, k = 30.
// CHECK: cmmtg.task solve cost svd ({{.*}}) {k = 30 : i64, m = 40 : i64, n = 10 : i64,
// Without vectors: 4 l s^2 - 4 s^3 / 3, k = 18.
// CHECK: cmmtg.task solve cost svdvals ({{.*}}) {k = 18 : i64, m = 40 : i64, n = 10 : i64,
// eig: 9 n^3 = 15552 flops over 2 * 144, k = 54; eigvals 4 n^3 / 3, k = 8.
// CHECK: cmmtg.task solve cost eig ({{.*}}) {k = 54 : i64, m = 12 : i64, n = 12 : i64,
// CHECK: cmmtg.task solve cost eigvals ({{.*}}) {k = 8 : i64, m = 12 : i64, n = 12 : i64,
// pinv costs as its SVD (the product after it is not counted).
// CHECK: cmmtg.task solve cost svd ({{.*}}) {k = 30 : i64, m = 40 : i64, n = 10 : i64, name = "pinv
// Least squares (dgelsd): 2 l s^2 + 2 s^3 + 4 m n r = 11600, k = 14.5 -> 15.
// CHECK: cmmtg.task solve cost lstsq ({{.*}}) {k = 15 : i64, m = 40 : i64, n = 10 : i64,
// A square solve is LU, 2 n^3 / 3 + 2 n^2 r = 1440: k = 5; det 1152: k = 4;
// inv 2 n^3: k = n.
// CHECK: cmmtg.task solve ({{.*}}) {k = 5 : i64, m = 12 : i64, n = 12 : i64, name = "solve
// CHECK: cmmtg.task solve ({{.*}}) {k = 4 : i64, m = 12 : i64, n = 12 : i64, name = "det
// CHECK: cmmtg.task solve ({{.*}}) {k = 12 : i64, m = 12 : i64, n = 12 : i64, name = "inv

// In tiles of 16 the tasks read every tile of their operands and cost the
// same: the class and (m, n, k) are the whole matrix's, not a tile's.
// TILED: cmmtg.task solve cost qr ({{.*}}, {{.*}}, {{.*}}) {k = 18 : i64, m = 40 : i64, n = 10 : i64,
// TILED: cmmtg.task solve cost svd ({{.*}}, {{.*}}, {{.*}}) {k = 30 : i64, m = 40 : i64, n = 10 : i64,
func.func @main() {
  %x = cmm.rand uniform seed 1 id 1 : tensor<40x10xf64>
  %w = cmm.rand uniform seed 2 id 2 : tensor<10x40xf64>
  %a = cmm.rand uniform seed 3 id 3 : tensor<12x12xf64>
  %y = cmm.rand uniform seed 4 id 4 : tensor<40x1xf64>
  %z = cmm.rand uniform seed 5 id 5 : tensor<12x1xf64>
  %q, %r = cmm.qr %x : tensor<40x10xf64> -> tensor<40x10xf64>, tensor<10x10xf64>
  %u, %s, %v = cmm.svd %w : tensor<10x40xf64> -> tensor<10x10xf64>, tensor<10x1xf64>, tensor<40x10xf64>
  %sv = cmm.svdvals %x : tensor<40x10xf64> -> tensor<10x1xf64>
  %e, %vecs = cmm.eig %a : tensor<12x12xf64> -> tensor<12x1xf64>, tensor<12x12xf64>
  %ev = cmm.eigvals %a : tensor<12x12xf64> -> tensor<12x1xf64>
  %p = cmm.pinv %x : tensor<40x10xf64> -> tensor<10x40xf64>
  %ls = cmm.solve %x, %y : (tensor<40x10xf64>, tensor<40x1xf64>) -> tensor<10x1xf64>
  %lu = cmm.solve %a, %z : (tensor<12x12xf64>, tensor<12x1xf64>) -> tensor<12x1xf64>
  %d = cmm.det %a : tensor<12x12xf64> -> tensor<1x1xf64>
  %i = cmm.inv %a : tensor<12x12xf64>
  cmm.print %q "q" : tensor<40x10xf64>
  cmm.print %u "u" : tensor<10x10xf64>
  cmm.print %sv "sv" : tensor<10x1xf64>
  cmm.print %vecs "vecs" : tensor<12x12xf64>
  cmm.print %ev "ev" : tensor<12x1xf64>
  cmm.print %p "p" : tensor<10x40xf64>
  cmm.print %ls "ls" : tensor<10x1xf64>
  cmm.print %lu "lu" : tensor<12x1xf64>
  cmm.print %d "d" : tensor<1x1xf64>
  cmm.print %i "i" : tensor<12x12xf64>
  return
}
