// Regression test: the cmm-simplify pipeline must never make a program more
// expensive through the placement of a scale. The static rule matmul-scale
// ((s*A)*B -> s*(A*B)) once moved a scale from a small operand to a larger
// product unconditionally, and nothing moved it back: the pipeline then
// increased the flop count (an outer product went from 20100 to 30000
// flops), and it undid the placement chosen by cmm-reorder-chains (a scaled
// chain ended with its scale on the result). matmul-scale now fires only
// when the product is no larger than the scaled operand(s), and
// cmm-reorder-chains places a chain's scale on the smallest node of the
// chosen product tree, where the final matmul-scale leaves it.
// RUN: cmm-opt %s -split-input-file --cmm-simplify | FileCheck %s
// RUN: cmm-opt %s -split-input-file --cmm-simplify="flop-report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// An outer product (2*a) * b, a 100x1, b 1x100:
//   as written: 2*a = 100, a*b = 2*100*1*100 = 20000  -> 20100 flops
//   with the scale on the product: 20000 + 2*(a*b) 10000 = 30000 flops
// The 100x100 product is larger than a (100 elements): nothing fires, and
// the program keeps its 20100 flops.
// CHECK-LABEL: func.func @outer_product(
// CHECK-SAME: %[[A:[^:]*]]: tensor<100x1xf64>, %[[B:[^:]*]]: tensor<1x100xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[A]] by 2.000000e+00 : tensor<100x1xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[S]], %[[B]] : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
// CHECK-NEXT: return %[[P]] : tensor<100x100xf64>
// REPORT: cmm-flop-report: @outer_product before: 20100 flops (20000 in matrix products)
// REPORT-NEXT: cmm-flop-report: @outer_product after: 20100 flops (20000 in matrix products)
// REPORT-NEXT: cmm-flop-report:   no rule fired
func.func @outer_product(%a: tensor<100x1xf64>, %b: tensor<1x100xf64>) -> tensor<100x100xf64> {
  %0 = cmm.scale %a by 2.0 : tensor<100x1xf64>
  %1 = cmm.matmul %0, %b : (tensor<100x1xf64>, tensor<1x100xf64>) -> tensor<100x100xf64>
  return %1 : tensor<100x100xf64>
}

// -----

// A (10x100) * (B (100x5) * 2*C (5x50)): matmul-scale leaves 2*C alone (the
// 100x50 product B*C, 5000 elements, is larger than C, 250). The chain
// 2 * [A, B, C] is reordered to (A*B)*C, and its scale goes on the smallest
// node of that tree: A*B (10x5, 50 elements; C has 250, B 500, the result
// 500, A 1000). The final matmul-scale must not move it to the 10x50 result
// (500 elements > 50).
//   as written: 2*C 250 + B*C 2*100*5*50 = 50000 + A*.. 2*10*100*50 = 100000
//               = 150250 flops (150000 in products)
//   after:      A*B 2*10*100*5 = 10000 + 2*(A*B) 50 + *C 2*10*5*50 = 5000
//               = 15050 flops (15000 in products)
// CHECK-LABEL: func.func @scaled_chain(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AB]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
// REPORT: cmm-flop-report: @scaled_chain before: 150250 flops (150000 in matrix products)
// REPORT-NEXT: cmm-flop-report: @scaled_chain after: 15050 flops (15000 in matrix products)
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chain-factors x3
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chains-reordered x1
func.func @scaled_chain(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %s = cmm.scale %c by 2.0 : tensor<5x50xf64>
  %0 = cmm.matmul %b, %s : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}
