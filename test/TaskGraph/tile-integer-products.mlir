// Products of small non-negative integers run exactly in single precision
// (cmmrt/IntegerProducts.h) and are costed as class sgemm: the tiler bounds
// each value's elements (Conversion/CmmToTaskGraph/Density.h) and picks
// sgemm where both operands are such integers with depth * bounds <= 2^24
// and every dimension at least 128 (kMinIntegerProductDim). A gemm task
// costed as gemm prints no class.
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=256" | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=128" | FileCheck %s --check-prefix=TILED
// RUN: cmm-opt %s -split-input-file --cmm-tile="tile-sizes=256" | cmm-opt -split-input-file -verify-diagnostics -o /dev/null

// Reachability: R = (rand .< c) + eye is 0..2; R * R is 0..256 * 4 = 1024;
// (R * R) .> 0 is 0/1 again. Every product in sgemm, also in 128-tiles
// (the accumulating ones too).
// CHECK-LABEL: cmmtg.graph
// CHECK: cmmtg.task gemm cost sgemm ({{.*}}) {k = 256 : i64, m = 256 : i64, n = 256 : i64
// CHECK: cmmtg.task gemm cost sgemm ({{.*}}) {k = 256 : i64, m = 256 : i64, n = 256 : i64
// TILED-LABEL: cmmtg.graph
// TILED-COUNT-4: cmmtg.task gemm cost sgemm
// TILED: cmmtg.task gemm_acc cost sgemm
func.func @main() {
  %r = cmm.rand uniform seed 1 id 0 : tensor<256x256xf64>
  %c = cmm.constant dense<1.000000e-02> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r, %c : (tensor<256x256xf64>, tensor<1x1xf64>) -> tensor<256x256xf64>
  %i = cmm.eye : tensor<256x256xf64>
  %s = cmm.add %a, %i : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %p = cmm.matmul %s, %s : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %z = cmm.constant dense<0.000000e+00> : tensor<1x1xf64>
  %b = cmm.cmp gt, %p, %z : (tensor<256x256xf64>, tensor<1x1xf64>) -> tensor<256x256xf64>
  %q = cmm.matmul %b, %b : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  cmm.print %q "q" : tensor<256x256xf64>
  return
}

// -----

// The Hill cipher: floor(26 * rand) is 0..26 (a bound: 25 in fact), a
// product of two 256 * 26 * 26 = 173056; mod(that, 26) 0..25, in a fused
// body as in a plain op.
// CHECK-LABEL: cmmtg.graph
// CHECK: cmmtg.task gemm cost sgemm
// CHECK: cmmtg.task gemm cost sgemm
func.func @main() {
  %r = cmm.rand uniform seed 1 id 0 : tensor<256x256xf64>
  %s = cmm.scale %r by 26.0 : tensor<256x256xf64>
  %k = cmm.map floor %s : tensor<256x256xf64>
  %p = cmm.matmul %k, %k : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %m = cmm.fused(%p) : (tensor<256x256xf64>) -> tensor<256x256xf64> {
  ^bb0(%e: f64):
    %c = arith.constant 2.6e+01 : f64
    %x = cmm.scalar mod %e, %c : f64
    cmm.yield %x : f64
  }
  %q = cmm.matmul %m, %k : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  cmm.print %q "q" : tensor<256x256xf64>
  return
}

// -----

// Must not fire: values that are not integers (rand), integers whose
// bounds make the sums inexact in single precision (256 * 5000^2 > 2^24),
// negated 0/1 values (-0 is turned away by the runtime), a difference
// (which may be negative), a product with a dimension under 128, and a
// range with negative values (bounded by its stop, it would qualify).
// CHECK-LABEL: cmmtg.graph
// CHECK-NOT: cost sgemm
func.func @main() {
  %r = cmm.rand uniform seed 1 id 0 : tensor<256x256xf64>
  %p0 = cmm.matmul %r, %r : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %s = cmm.scale %r by 5000.0 : tensor<256x256xf64>
  %k = cmm.map floor %s : tensor<256x256xf64>
  %p1 = cmm.matmul %k, %k : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %c = cmm.constant dense<5.000000e-01> : tensor<1x1xf64>
  %a = cmm.cmp lt, %r, %c : (tensor<256x256xf64>, tensor<1x1xf64>) -> tensor<256x256xf64>
  %n = cmm.neg %a : tensor<256x256xf64>
  %p2 = cmm.matmul %n, %n : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %i = cmm.eye : tensor<256x256xf64>
  %d = cmm.sub %a, %i : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %p3 = cmm.matmul %d, %d : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  %t = cmm.rand uniform seed 1 id 1 : tensor<100x256xf64>
  %ta = cmm.cmp lt, %t, %c : (tensor<100x256xf64>, tensor<1x1xf64>) -> tensor<100x256xf64>
  %p4 = cmm.matmul %ta, %a : (tensor<100x256xf64>, tensor<256x256xf64>) -> tensor<100x256xf64>
  cmm.print %p0 "p0" : tensor<256x256xf64>
  cmm.print %p1 "p1" : tensor<256x256xf64>
  cmm.print %p2 "p2" : tensor<256x256xf64>
  cmm.print %p3 "p3" : tensor<256x256xf64>
  %g = cmm.range -65280 to 255 : tensor<1x65536xf64>
  %gs = cmm.reshape %g : tensor<1x65536xf64> -> tensor<256x256xf64>
  %p5 = cmm.matmul %gs, %gs : (tensor<256x256xf64>, tensor<256x256xf64>) -> tensor<256x256xf64>
  cmm.print %p4 "p4" : tensor<100x256xf64>
  cmm.print %p5 "p5" : tensor<256x256xf64>
  return
}
