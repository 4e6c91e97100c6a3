// cmm-fuse-elementwise: chains of elementwise ops become one cmm.fused op
// whose body computes one element; values another op needs stay outside
// (computed once), as do non-elementwise ops and broadcast producers.
// RUN: cmm-opt %s -split-input-file --cmm-fuse-elementwise | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-fuse-elementwise --mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-fuse-elementwise --cmm-fuse-elementwise | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-fuse-elementwise --cmm-flop-report 2>&1 >/dev/null | FileCheck %s --check-prefix=FLOPS

// tanh(X * W .+ b) scaled: the product stays, the rest is one kernel; the
// row b broadcasts into it, the 1x1 constants become scalars of the body.
// CHECK-LABEL: func.func @layer(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x4xf64>, %[[W:[^:]*]]: tensor<4x6xf64>, %[[B:[^:]*]]: tensor<1x6xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[F:.*]] = cmm.fused(%[[P]], %[[B]]) : (tensor<8x6xf64>, tensor<1x6xf64>) -> tensor<8x6xf64> {
// CHECK-NEXT: ^bb0(%[[E0:.*]]: f64, %[[E1:.*]]: f64):
// CHECK-NEXT: %[[S0:.*]] = cmm.scalar add %[[E0]], %[[E1]] : f64
// CHECK-NEXT: %[[S1:.*]] = cmm.scalar tanh %[[S0]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2.0{{0*}}e+00 : f64
// CHECK-NEXT: %[[S2:.*]] = cmm.scalar mul %[[S1]], %[[C2]] : f64
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3.0{{0*}}e+00 : f64
// CHECK-NEXT: %[[S3:.*]] = cmm.scalar mul %[[S2]], %[[C3]] : f64
// CHECK-NEXT: cmm.yield %[[S3]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
// FLOPS: cmm-flop-report: @layer now: 576 flops (384 in matrix products)
func.func @layer(%x: tensor<8x4xf64>, %w: tensor<4x6xf64>, %b: tensor<1x6xf64>) -> tensor<8x6xf64> {
  %c = cmm.fill 2.0 : tensor<1x1xf64>
  %p = cmm.matmul %x, %w : (tensor<8x4xf64>, tensor<4x6xf64>) -> tensor<8x6xf64>
  %s = cmm.add %p, %b : (tensor<8x6xf64>, tensor<1x6xf64>) -> tensor<8x6xf64>
  %t = cmm.map tanh %s : tensor<8x6xf64>
  %u = cmm.mul %t, %c : (tensor<8x6xf64>, tensor<1x1xf64>) -> tensor<8x6xf64>
  %v = cmm.scale %u by 3.0 : tensor<8x6xf64>
  return %v : tensor<8x6xf64>
}

// -----

// A value used twice inside one chain is computed once in the body; every
// kind of fusible op maps to its step (cmp, neg, epow, max, min, mod, div,
// sub).
// CHECK-LABEL: func.func @shared_inside(
// CHECK-NEXT: cmm.fused(%{{.*}}, %{{.*}}) : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK: %[[D:.*]] = cmm.scalar sub
// CHECK-NEXT: %[[G:.*]] = cmm.scalar gt %[[D]], %{{.*}} : f64
// CHECK-NEXT: %[[N:.*]] = cmm.scalar neg %[[D]] : f64
// CHECK-NEXT: cmm.scalar pow %[[N]], %{{.*}} : f64
// CHECK-NEXT: cmm.scalar max
// CHECK-NEXT: cmm.scalar min
// CHECK-NEXT: cmm.scalar mod
// CHECK-NEXT: cmm.scalar div
// CHECK-NEXT: cmm.yield
// CHECK-NOT: cmm.sub
func.func @shared_inside(%a: tensor<3x3xf64>, %b: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %d = cmm.sub %a, %b : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %g = cmm.cmp gt, %d, %a : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %n = cmm.neg %d : tensor<3x3xf64>
  %p = cmm.epow %n, %b : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %m = cmm.max %p, %g : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %l = cmm.min %m, %d : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %o = cmm.mod %l, %a : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  %q = cmm.div %o, %b : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
  return %q : tensor<3x3xf64>
}

// -----

// Must not fuse: %s is returned as well as read by the chain, so it is
// computed once, by its own op, and the kernel reads it as an input.
// CHECK-LABEL: func.func @second_consumer(
// CHECK-NEXT: %[[S:.*]] = cmm.add %arg0, %arg1
// CHECK-NEXT: %[[F:.*]] = cmm.fused(%[[S]]) : (tensor<4x4xf64>) -> tensor<4x4xf64>
// CHECK: cmm.scalar exp
// CHECK-NEXT: cmm.scalar sqrt
// CHECK: return %[[S]], %[[F]]
func.func @second_consumer(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %s = cmm.add %a, %b : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %e = cmm.map exp %s : tensor<4x4xf64>
  %r = cmm.map sqrt %e : tensor<4x4xf64>
  return %s, %r : tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// Must not fuse across a product, a transpose or a reduction: each chain
// on either side stays its own (and a lone op is left as it is).
// CHECK-LABEL: func.func @not_elementwise(
// CHECK-NEXT: %[[N:.*]] = cmm.neg %arg0
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[N]], %arg0
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]]
// CHECK-NEXT: %[[E:.*]] = cmm.map exp %[[T]]
// CHECK-NEXT: %[[R:.*]] = cmm.reduce sum %[[E]]
// CHECK-NEXT: %[[A:.*]] = cmm.map abs %[[R]]
// CHECK-NEXT: return %[[A]]
// CHECK-NOT: cmm.fused
func.func @not_elementwise(%a: tensor<5x5xf64>) -> tensor<1x1xf64> {
  %n = cmm.neg %a : tensor<5x5xf64>
  %p = cmm.matmul %n, %a : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %t = cmm.transpose %p : tensor<5x5xf64> -> tensor<5x5xf64>
  %e = cmm.map exp %t : tensor<5x5xf64>
  %r = cmm.reduce sum %e : tensor<5x5xf64> -> tensor<1x1xf64>
  %s = cmm.map abs %r : tensor<1x1xf64>
  return %s : tensor<1x1xf64>
}

// -----

// Must not fuse a broadcast producer into a larger result: exp of the row
// would be recomputed for every row. The row's chain is a kernel of its own.
// CHECK-LABEL: func.func @broadcast_producer(
// CHECK-NEXT: %[[ROW:.*]] = cmm.fused(%arg1) : (tensor<1x6xf64>) -> tensor<1x6xf64>
// CHECK: cmm.scalar exp
// CHECK-NEXT: cmm.scalar abs
// CHECK: %[[F:.*]] = cmm.fused(%arg0, %[[ROW]]) : (tensor<6x6xf64>, tensor<1x6xf64>) -> tensor<6x6xf64>
// CHECK: cmm.scalar mul
// CHECK-NEXT: cmm.scalar floor
// CHECK: return %[[F]]
func.func @broadcast_producer(%a: tensor<6x6xf64>, %r: tensor<1x6xf64>) -> tensor<6x6xf64> {
  %e = cmm.map exp %r : tensor<1x6xf64>
  %f = cmm.map abs %e : tensor<1x6xf64>
  %m = cmm.mul %a, %f : (tensor<6x6xf64>, tensor<1x6xf64>) -> tensor<6x6xf64>
  %g = cmm.map floor %m : tensor<6x6xf64>
  return %g : tensor<6x6xf64>
}

// -----

// A fused op joins a later chain (its body inlined), and a second run of
// the pass changes nothing.
// CHECK-LABEL: func.func @refuse(
// CHECK-NEXT: %[[F:.*]] = cmm.fused(%arg0) : (tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: ^bb0(%[[E:.*]]: f64):
// CHECK-NEXT: %[[A:.*]] = cmm.scalar cos %[[E]] : f64
// CHECK-NEXT: %[[B:.*]] = cmm.scalar sin %[[A]] : f64
// CHECK-NEXT: %[[C:.*]] = cmm.scalar round %[[B]] : f64
// CHECK-NEXT: cmm.yield %[[C]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @refuse(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %f = cmm.fused(%a) : (tensor<2x2xf64>) -> tensor<2x2xf64> {
  ^bb0(%e: f64):
    %0 = cmm.scalar cos %e : f64
    %1 = cmm.scalar sin %0 : f64
    cmm.yield %1 : f64
  }
  %r = cmm.map round %f : tensor<2x2xf64>
  return %r : tensor<2x2xf64>
}

// -----

// Inside a cmm.while body each block's chains fuse on their own: nothing
// from outside the loop is pulled in (the scale before it stays there,
// computed once).
// CHECK-LABEL: func.func @regions(
// CHECK-NEXT: %[[S:.*]] = cmm.scale %arg0 by 2.0
// CHECK-NEXT: cmm.while
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<4x1xf64>):
// CHECK-NEXT: %[[F:.*]] = cmm.fused(
// CHECK-DAG: cmm.scalar exp
// CHECK-DAG: cmm.scalar add
// CHECK: cmm.end %[[F]]
func.func @regions(%a: tensor<4x1xf64>, %c: tensor<1x1xf64>) -> tensor<4x1xf64> {
  %s = cmm.scale %a by 2.0 : tensor<4x1xf64>
  %r = cmm.while (%a) : (tensor<4x1xf64>) -> tensor<4x1xf64> {
  ^bb0(%x: tensor<4x1xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<4x1xf64>
  } do {
  ^bb0(%x: tensor<4x1xf64>):
    %e = cmm.map exp %x : tensor<4x1xf64>
    %y = cmm.add %e, %s : (tensor<4x1xf64>, tensor<4x1xf64>) -> tensor<4x1xf64>
    cmm.end %y : tensor<4x1xf64>
  }
  return %r : tensor<4x1xf64>
}
