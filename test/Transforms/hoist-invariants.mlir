// cmm-hoist-invariants: ops of a cmm.while whose operands are all defined
// outside the loop move before it; rand, what may fail (inv, solve, chol,
// eig, ...: Cmm_MayFail) and ops on carried
// values stay.
// RUN: cmm-opt %s --cmm-hoist-invariants | FileCheck %s

// The transpose and its scaling do not change in the loop; the product with
// the carried x does.
// CHECK-LABEL: func.func @pagerank_step(
// CHECK-SAME: %[[P:[^:]*]]: tensor<4x4xf64>
// CHECK: %[[T:.*]] = cmm.transpose %[[P]]
// CHECK: %[[D:.*]] = cmm.scale %[[T]] by 8.500000e-01
// CHECK: cmm.while
// CHECK: } do {
// CHECK: ^bb0(%[[X:.*]]: tensor<4x1xf64>):
// CHECK-NEXT: cmm.matmul %[[D]], %[[X]]
// CHECK-NOT: cmm.transpose
// CHECK: cmm.end
func.func @pagerank_step(%p: tensor<4x4xf64>, %x0: tensor<4x1xf64>, %tol: tensor<1x1xf64>) -> tensor<4x1xf64> {
  %r = cmm.while (%x0) : (tensor<4x1xf64>) -> tensor<4x1xf64> {
  ^bb0(%x: tensor<4x1xf64>):
    %n = cmm.norm %x : tensor<4x1xf64> -> tensor<1x1xf64>
    %c = cmm.cmp gt, %n, %tol : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<4x1xf64>
  } do {
  ^bb0(%x: tensor<4x1xf64>):
    %t = cmm.transpose %p : tensor<4x4xf64> -> tensor<4x4xf64>
    %d = cmm.scale %t by 0.85 : tensor<4x4xf64>
    %y = cmm.matmul %d, %x : (tensor<4x4xf64>, tensor<4x1xf64>) -> tensor<4x1xf64>
    cmm.end %y : tensor<4x1xf64>
  }
  return %r : tensor<4x1xf64>
}

// Nested loops hoist level by level: A' * A leaves both loops, the product
// with the outer carried value leaves the inner one only.
// CHECK-LABEL: func.func @nest(
// CHECK: %[[AT:.*]] = cmm.transpose
// CHECK-NEXT: %[[AA:.*]] = cmm.matmul %[[AT]], %{{.*}}
// CHECK: cmm.while
// CHECK: } do {
// CHECK: ^bb0(%[[V:.*]]: tensor<3x3xf64>):
// CHECK-NEXT: %[[AV:.*]] = cmm.matmul %[[AA]], %[[V]]
// CHECK-NEXT: cmm.while
// CHECK: } do {
// CHECK: ^bb0(%[[W:.*]]: tensor<3x3xf64>):
// CHECK-NEXT: cmm.add %[[AV]], %[[W]]
func.func @nest(%a: tensor<3x3xf64>, %v0: tensor<3x3xf64>, %c: tensor<1x1xf64>) -> tensor<3x3xf64> {
  %r = cmm.while (%v0) : (tensor<3x3xf64>) -> tensor<3x3xf64> {
  ^bb0(%v: tensor<3x3xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %v : tensor<3x3xf64>
  } do {
  ^bb0(%v: tensor<3x3xf64>):
    %s = cmm.while (%v) : (tensor<3x3xf64>) -> tensor<3x3xf64> {
    ^bb0(%w: tensor<3x3xf64>):
      cmm.condition(%c : tensor<1x1xf64>) %w : tensor<3x3xf64>
    } do {
    ^bb0(%w: tensor<3x3xf64>):
      %at = cmm.transpose %a : tensor<3x3xf64> -> tensor<3x3xf64>
      %aa = cmm.matmul %at, %a : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
      %av = cmm.matmul %aa, %v : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
      %sum = cmm.add %av, %w : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
      cmm.end %sum : tensor<3x3xf64>
    }
    cmm.end %s : tensor<3x3xf64>
  }
  return %r : tensor<3x3xf64>
}

// Must not move: rand (new values each iteration), inv and chol (may fail:
// Cmm_MayFail; the loop may run no iteration), a print (an effect), ops on
// the carried value. det cannot fail and moves.
// CHECK-LABEL: func.func @stays(
// CHECK: cmm.det
// CHECK: cmm.while
// CHECK: } do {
// CHECK: cmm.rand
// CHECK: cmm.inv
// CHECK: cmm.chol
// CHECK: cmm.print
// CHECK: cmm.end
func.func @stays(%a: tensor<2x2xf64>, %x0: tensor<2x2xf64>, %c: tensor<1x1xf64>) -> tensor<2x2xf64> {
  %r = cmm.while (%x0) : (tensor<2x2xf64>) -> tensor<2x2xf64> {
  ^bb0(%x: tensor<2x2xf64>):
    cmm.condition(%c : tensor<1x1xf64>) %x : tensor<2x2xf64>
  } do {
  ^bb0(%x: tensor<2x2xf64>):
    %u = cmm.rand uniform seed 1 id 2 : tensor<2x2xf64>
    %i = cmm.inv %a : tensor<2x2xf64>
    %f = cmm.chol %a : tensor<2x2xf64>
    %d = cmm.det %a : tensor<2x2xf64> -> tensor<1x1xf64>
    cmm.print %a "a" : tensor<2x2xf64>
    cmm.print %d "d" : tensor<1x1xf64>
    %t = cmm.add %u, %i : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %s = cmm.add %t, %f : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %y = cmm.add %s, %x : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    cmm.end %y : tensor<2x2xf64>
  }
  return %r : tensor<2x2xf64>
}
