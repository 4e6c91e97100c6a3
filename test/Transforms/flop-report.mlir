// The flop report of the cmm-simplify pipeline: the count before and after
// the rewrites (2mkn per m x k times k x n product, A^k as its squarings
// and products, one flop per element for elementwise ops, scalings and
// reductions, two per element for norm, none for transposes and
// constructors) and every rule that fired, by pass.
// RUN: cmm-opt %s -split-input-file --cmm-simplify="flop-report=true" 2>&1 >/dev/null | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-flop-report 2>&1 >/dev/null | FileCheck %s --check-prefix=NOW
// RUN: cmm-opt %s -split-input-file --cmm-flop-report=stage=mine 2>&1 >/dev/null | FileCheck %s --check-prefix=MINE
// The report does not change the IR.
// RUN: cmm-opt %s -split-input-file --cmm-flop-report 2>/dev/null | FileCheck %s --check-prefix=IR

// Before (A 10x100, B 100x5, C 5x50):
//   B*C         2*100*5*50  =  50000
//   A*(B*C)     2*10*100*50 = 100000
//   (X')'                   =      0
//   X + 0       10*50       =    500
//   1 * X       10*50       =    500
//   norm(X)     2*10*50     =   1000
//   sum(X, 1)   10*50       =    500
//   total 152500, of which 150000 in products.
// After: (A*B)*C = 10000 + 5000 = 15000, norm 1000, sum 500: 16500.
// CHECK: cmm-flop-report: @chain before: 152500 flops (150000 in matrix products)
// CHECK-NEXT: cmm-flop-report: @chain after: 16500 flops (15000 in matrix products)
// CHECK-NEXT: cmm-flop-report:   cmm-algebraic-simplify:add-zero x1
// CHECK-NEXT: cmm-flop-report:   cmm-algebraic-simplify:scale-one x1
// CHECK-NEXT: cmm-flop-report:   cmm-algebraic-simplify:transpose-transpose x1
// CHECK-NEXT: cmm-flop-report:   cmm-reorder-chains:chain-factors x3
// CHECK-NEXT: cmm-flop-report:   cmm-reorder-chains:chains-reordered x1
// NOW: cmm-flop-report: @chain now: 152500 flops (150000 in matrix products)
// MINE: cmm-flop-report: @chain mine: 152500 flops (150000 in matrix products)
// IR-LABEL: func.func @chain(
// IR: cmm.matmul %arg1, %arg2
// IR: cmm.matmul %arg0,
// IR: cmm.transpose
// IR: cmm.transpose
// IR: cmm.fill 0.000000e+00
// IR: cmm.add
// IR: cmm.scale
func.func @chain(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> (tensor<10x50xf64>, tensor<1x1xf64>, tensor<1x50xf64>) {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.transpose %1 : tensor<10x50xf64> -> tensor<50x10xf64>
  %3 = cmm.transpose %2 : tensor<50x10xf64> -> tensor<10x50xf64>
  %z = cmm.fill 0.0 : tensor<10x50xf64>
  %4 = cmm.add %3, %z : (tensor<10x50xf64>, tensor<10x50xf64>) -> tensor<10x50xf64>
  %5 = cmm.scale %4 by 1.0 : tensor<10x50xf64>
  %6 = cmm.norm %5 : tensor<10x50xf64> -> tensor<1x1xf64>
  %7 = cmm.reduce sum %5 along 1 : tensor<10x50xf64> -> tensor<1x50xf64>
  return %5, %6, %7 : tensor<10x50xf64>, tensor<1x1xf64>, tensor<1x50xf64>
}

// -----

// P^13 (10x10) counts as its 3 squarings and 2 products, 5 * 2000 flops,
// before and after it is expanded.
// CHECK: cmm-flop-report: @power before: 10000 flops (10000 in matrix products)
// CHECK-NEXT: cmm-flop-report: @power after: 10000 flops (10000 in matrix products)
// CHECK-NEXT: cmm-flop-report:   cmm-power-by-squaring:powers-expanded x1
// CHECK-NEXT: cmm-flop-report:   cmm-power-by-squaring:products x2
// CHECK-NEXT: cmm-flop-report:   cmm-power-by-squaring:squarings x3
// NOW-NEXT: cmm-flop-report: @power now: 10000 flops (10000 in matrix products)
// MINE-NEXT: cmm-flop-report: @power mine: 10000 flops (10000 in matrix products)
// IR-LABEL: func.func @power(
// IR-NEXT: cmm.pow %arg0, 13
func.func @power(%p: tensor<10x10xf64>) -> tensor<10x10xf64> {
  %0 = cmm.pow %p, 13 : tensor<10x10xf64>
  return %0 : tensor<10x10xf64>
}

// -----

// sum(A*B), A 10x20, B 20x30: 12000 + 300 before;
// sum(A,1) 200 + sum(B,2) 600 + .* 20 + sum 20 = 840 after.
// CHECK: cmm-flop-report: @sum_of_product before: 12300 flops (12000 in matrix products)
// CHECK-NEXT: cmm-flop-report: @sum_of_product after: 840 flops (0 in matrix products)
// CHECK-NEXT: cmm-flop-report:   cmm-dynamic-simplify:sum-matmul x1
// NOW-NEXT: cmm-flop-report: @sum_of_product now: 12300 flops (12000 in matrix products)
// MINE-NEXT: cmm-flop-report: @sum_of_product mine: 12300 flops (12000 in matrix products)
func.func @sum_of_product(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>) -> tensor<1x1xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.reduce sum %0 : tensor<10x30xf64> -> tensor<1x1xf64>
  return %1 : tensor<1x1xf64>
}

// -----

// Nothing to rewrite: 2000 + 100 flops, and the report says so.
// CHECK: cmm-flop-report: @nothing before: 2100 flops (2000 in matrix products)
// CHECK-NEXT: cmm-flop-report: @nothing after: 2100 flops (2000 in matrix products)
// CHECK-NEXT: cmm-flop-report:   no rule fired
// CHECK-NOT: cmm-flop-report
// NOW-NEXT: cmm-flop-report: @nothing now: 2100 flops (2000 in matrix products)
// NOW-NOT: cmm-flop-report
// MINE-NEXT: cmm-flop-report: @nothing mine: 2100 flops (2000 in matrix products)
// MINE-NOT: cmm-flop-report
func.func @nothing(%a: tensor<10x10xf64>, %b: tensor<10x10xf64>) -> tensor<10x10xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  %1 = cmm.map exp %0 : tensor<10x10xf64>
  return %1 : tensor<10x10xf64>
}
