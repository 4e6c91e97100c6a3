// The cmm-simplify pipeline (CSE, static simplification, power by squaring,
// chain ordering, lowering of the remaining powers, dynamic simplification,
// CSE, static simplification) on small functions, and through cmmc on .cmm
// programs.
// RUN: split-file %s %t
// RUN: cmm-opt %t/simplify.mlir -split-input-file --cmm-simplify | FileCheck %s
// RUN: cmm-opt %t/simplify.mlir -split-input-file --cmm-simplify="flop-report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// The Markov benchmark (n = 10000): u * P*P*P*P becomes four vector
// products. Before: 3 products of 2n^3 and u*M, 2n^2: 6.0002e12, plus
// sum(P, 2) and P ./ ... (n^2 each). After: 4 * 2n^2 = 8e8.
// RUN: cmmc %examples/markov.cmm --emit=opt --flop-report 2>&1 | FileCheck %s --check-prefix=MARKOV
// MARKOV: cmm-flop-report: @main before: 6.0004e+12 flops (6.0002e+12 in matrix products)
// MARKOV-NEXT: cmm-flop-report: @main after: 1e+09 flops (8e+08 in matrix products)
// MARKOV-NEXT: cmm-flop-report:   cmm-reorder-chains:chain-factors x5
// MARKOV-NEXT: cmm-flop-report:   cmm-reorder-chains:chains-reordered x1
// MARKOV-LABEL: func.func @main()
// MARKOV-NOT: cmm.matmul {{.*}} -> tensor<10000x10000xf64>
// MARKOV-COUNT-4: cmm.matmul {{.*}} : (tensor<1x10000xf64>, tensor<10000x10000xf64>) -> tensor<1x10000xf64>
// MARKOV-NOT: cmm.matmul
// MARKOV-NOT: cmm.pow
// MARKOV: cmm.print

// P^16 * Q (100x100): squaring P^16 and one product is already cheapest, so
// the chain keeps its order and the power is lowered to 4 squarings: 5
// products in all (8e6 + 2e6 = 1e7 flops, before and after).
// RUN: cmmc %t/p16q.cmm --emit=opt | grep -c cmm.matmul | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}5{{$}}
// RUN: cmmc %t/p16q.cmm --emit=opt --flop-report 2>&1 | FileCheck %s --check-prefix=P16Q
// P16Q: cmm-flop-report: @main before: 1e+07 flops (1e+07 in matrix products)
// P16Q-NEXT: cmm-flop-report: @main after: 1e+07 flops (1e+07 in matrix products)
// P16Q-NOT: cmm.pow
// P16Q: %[[P:.*]] = cmm.rand uniform seed 1
// P16Q: %[[Q:.*]] = cmm.rand uniform seed 2
// P16Q-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// P16Q-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// P16Q-NEXT: %[[P8:.*]] = cmm.matmul %[[P4]], %[[P4]]
// P16Q-NEXT: %[[P16:.*]] = cmm.matmul %[[P8]], %[[P8]]
// P16Q-NEXT: %[[R:.*]] = cmm.matmul %[[P16]], %[[Q]]
// P16Q-NEXT: cmm.print %[[R]]
// P16Q-NOT: cmm.pow

// u * P^16 (u 1x100): 16 vector products, 16 * 2e4 = 3.2e5 flops instead of
// 4 * 2e6 + 2e4 = 8.02e6.
// RUN: cmmc %t/up16.cmm --emit=opt | grep -c 'cmm.matmul .* -> tensor<1x100xf64>' | FileCheck %s --check-prefix=COUNT16
// COUNT16: {{^}}16{{$}}
// RUN: cmmc %t/up16.cmm --emit=opt --flop-report 2>&1 | FileCheck %s --check-prefix=UP16
// UP16: cmm-flop-report: @main before: 8.02e+06 flops (8.02e+06 in matrix products)
// UP16-NEXT: cmm-flop-report: @main after: 320000 flops (320000 in matrix products)
// UP16-NOT: cmm.pow
// UP16-NOT: tensor<100x100xf64>) -> tensor<100x100xf64>

//--- simplify.mlir

// transpose-transpose; matmul-scale (the scale of the 10x100 A, 1000
// elements, moves to the 10x50 product, 500); chain ordering of
// 2 * (A*(B*C)) (A 10x100, B 100x5, C 5x50; the scale on top of the
// single-use product is part of the chain) to (A*B)*C, with the scale on the
// smallest node of that tree, A*B (10x5, 50 elements); the final
// matmul-scale leaves it there (the 10x50 product is larger); then
// X - Y.*X -> (1-Y).*X for the row Y.
//   before: 2*A 1000, B*C 50000, A*(B*C) 100000, Y.*X 500, X - .. 500
//           = 152000 (150000 in products)
//   after:  A*B 10000, 2*(A*B) 50, *C 5000, 1-Y 50, .* 500 = 15600
//           (15000 in products)
// CHECK-LABEL: func.func @mix(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>, %[[Y:[^:]*]]: tensor<1x50xf64>
// CHECK-NEXT: %[[ONE:.*]] = cmm.constant dense<1.000000e+00> : tensor<1x1xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AB]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[X:.*]] = cmm.matmul %[[S]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: %[[D:.*]] = cmm.sub %[[ONE]], %[[Y]] : (tensor<1x1xf64>, tensor<1x50xf64>) -> tensor<1x50xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.mul %[[D]], %[[X]] : (tensor<1x50xf64>, tensor<10x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
// One chain, 2 * [A, B, C], is reordered: 3 factors, 1 chain.
// REPORT: cmm-flop-report: @mix before: 152000 flops (150000 in matrix products)
// REPORT-NEXT: cmm-flop-report: @mix after: 15600 flops (15000 in matrix products)
// REPORT-NEXT: cmm-flop-report:   cmm-algebraic-simplify:matmul-scale x1
// REPORT-NEXT: cmm-flop-report:   cmm-algebraic-simplify:transpose-transpose x1
// REPORT-NEXT: cmm-flop-report:   cmm-dynamic-simplify:distributive-binary x1
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chain-factors x3
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chains-reordered x1
func.func @mix(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>, %y: tensor<1x50xf64>) -> tensor<10x50xf64> {
  %bt = cmm.transpose %b : tensor<100x5xf64> -> tensor<5x100xf64>
  %btt = cmm.transpose %bt : tensor<5x100xf64> -> tensor<100x5xf64>
  %s = cmm.scale %a by 2.0 : tensor<10x100xf64>
  %0 = cmm.matmul %btt, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %s, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.mul %y, %1 : (tensor<1x50xf64>, tensor<10x50xf64>) -> tensor<10x50xf64>
  %3 = cmm.sub %1, %2 : (tensor<10x50xf64>, tensor<10x50xf64>) -> tensor<10x50xf64>
  return %3 : tensor<10x50xf64>
}

// -----

// pow-zero-one (P^1 -> P), then (P^4)*(P^4): P^4 is shared by the two
// operands, so it is its own chain, squared (P2, P4), and P^8 = P4*P4:
// 3 products of 1024 flops, as before.
// CHECK-LABEL: func.func @powers(
// CHECK-SAME: %[[P:[^:]*]]: tensor<8x8xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// CHECK-NEXT: %[[P8:.*]] = cmm.matmul %[[P4]], %[[P4]]
// CHECK-NEXT: return %[[P8]] : tensor<8x8xf64>
// REPORT: cmm-flop-report: @powers before: 3072 flops (3072 in matrix products)
// REPORT-NEXT: cmm-flop-report: @powers after: 3072 flops (3072 in matrix products)
// REPORT-NEXT: cmm-flop-report:   cmm-algebraic-simplify:pow-zero-one x1
// REPORT-NEXT: cmm-flop-report:   cmm-power-by-squaring:powers-expanded x1
// REPORT-NEXT: cmm-flop-report:   cmm-power-by-squaring:squarings x2
func.func @powers(%p: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = cmm.pow %p, 1 : tensor<8x8xf64>
  %1 = cmm.pow %0, 4 : tensor<8x8xf64>
  %2 = cmm.matmul %1, %1 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  return %2 : tensor<8x8xf64>
}

// -----

// A*B + A*C -> A*(B+C) (cmm-factor-sums, before the chains are ordered;
// cmm-dynamic-simplify's distributive-matmul would take it later) and
// scalar-matmul:
//   before: 2 * 12000 + 300 + 2*30 = 24360;  after: 600 + 12000 + 30 = 12630.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x30xf64>, %[[C:[^:]*]]: tensor<20x30xf64>, %[[S:[^:]*]]: tensor<1x1xf64>, %[[R:[^:]*]]: tensor<1x30xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.add %[[B]], %[[C]]
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[A]], %[[BC]]
// CHECK-NEXT: %[[M:.*]] = cmm.mul %[[S]], %[[R]] : (tensor<1x1xf64>, tensor<1x30xf64>) -> tensor<1x30xf64>
// CHECK-NEXT: return %[[P]], %[[M]]
// REPORT: cmm-flop-report: @dynamic before: 24360 flops (24060 in matrix products)
// REPORT-NEXT: cmm-flop-report: @dynamic after: 12630 flops (12000 in matrix products)
// REPORT-NEXT: cmm-flop-report:   cmm-dynamic-simplify:scalar-matmul x1
// REPORT-NEXT: cmm-flop-report:   cmm-factor-sums:sums-factored x1
// REPORT-NEXT: cmm-flop-report:   cmm-factor-sums:terms-factored x2
func.func @dynamic(%a: tensor<10x20xf64>, %b: tensor<20x30xf64>, %c: tensor<20x30xf64>, %s: tensor<1x1xf64>, %r: tensor<1x30xf64>) -> (tensor<10x30xf64>, tensor<1x30xf64>) {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %1 = cmm.matmul %a, %c : (tensor<10x20xf64>, tensor<20x30xf64>) -> tensor<10x30xf64>
  %2 = cmm.add %0, %1 : (tensor<10x30xf64>, tensor<10x30xf64>) -> tensor<10x30xf64>
  %3 = cmm.matmul %s, %r : (tensor<1x1xf64>, tensor<1x30xf64>) -> tensor<1x30xf64>
  return %2, %3 : tensor<10x30xf64>, tensor<1x30xf64>
}

// -----

// CSE first: the two identical products become one value with two users,
// so A*(B*C) + A*(B*C) is not a distributive pair (the product is shared),
// and the shared B*C-chain is ordered once.
// CHECK-LABEL: func.func @cse_first(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[AB]], %[[C]]
// CHECK-NEXT: %[[D:.*]] = cmm.add %[[P]], %[[P]]
// CHECK-NEXT: return %[[D]] : tensor<10x50xf64>
// REPORT: cmm-flop-report: @cse_first before: 300500 flops (300000 in matrix products)
// REPORT-NEXT: cmm-flop-report: @cse_first after: 15500 flops (15000 in matrix products)
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chain-factors x3
// REPORT-NEXT: cmm-flop-report:   cmm-reorder-chains:chains-reordered x1
func.func @cse_first(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %3 = cmm.matmul %a, %2 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %4 = cmm.add %1, %3 : (tensor<10x50xf64>, tensor<10x50xf64>) -> tensor<10x50xf64>
  return %4 : tensor<10x50xf64>
}

//--- p16q.cmm
n = 100
P = rand(n, n, 1)
Q = rand(n, n, 2)
print(P^16 * Q)

//--- up16.cmm
n = 100
P = rand(n, n, 1)
u = rand(1, n, 2)
print(u * P^16)
