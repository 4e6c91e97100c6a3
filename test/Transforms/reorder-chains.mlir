// cmm-reorder-chains: the cheapest parenthesisation of each product chain
// (flops: 2mkn for an m x k times k x n product), applied only when strictly
// cheaper (counting the chain's scale, one flop per element, on the node of
// the chosen tree with the fewest elements: a factor, a product or the
// result, never inside a squared run). Values with other users are leaves
// of the chains; a scale on top of a single-use chain is part of it.
// RUN: cmm-opt %s -split-input-file --cmm-reorder-chains | FileCheck %s

// A (10x100), B (100x5), C (5x50):
//   A*(B*C) = 2*100*5*50 + 2*10*100*50 = 50000 + 100000 = 150000 flops
//   (A*B)*C = 2*10*100*5 + 2*10*5*50   = 10000 +   5000 =  15000 flops
// The program computes A*(B*C); it becomes (A*B)*C.
// CHECK-LABEL: func.func @three_right_to_left(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[AB]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
func.func @three_right_to_left(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}

// -----

// The same chain written (A*B)*C is already optimal: unchanged.
// CHECK-LABEL: func.func @three_optimal(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[AB]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
func.func @three_optimal(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
  %1 = cmm.matmul %0, %c : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}

// -----

// Square factors: every order costs the same, so the program's order stays.
// CHECK-LABEL: func.func @equal_cost(
// CHECK-SAME: %[[A:[^:]*]]: tensor<8x8xf64>, %[[B:[^:]*]]: tensor<8x8xf64>, %[[C:[^:]*]]: tensor<8x8xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.matmul %[[B]], %[[C]]
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[BC]]
// CHECK-NEXT: return %[[R]] : tensor<8x8xf64>
func.func @equal_cost(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %0 = cmm.matmul %b, %c : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  %1 = cmm.matmul %a, %0 : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64>
  return %1 : tensor<8x8xf64>
}

// -----

// Four factors A (10x20), B (20x50), C (50x1), D (1x100), written
// ((A*B)*C)*D:
//   ((A*B)*C)*D = 20000 + 1000 + 2000            = 23000
//   (A*(B*C))*D =  2000 +  400 + 2000            =  4400  <- optimal
//   A*((B*C)*D) =  2000 + 4000 + 40000           = 46000
//   (A*B)*(C*D) = 20000 + 10000 + 2*10*50*100    = 130000
//   A*(B*(C*D)) = 10000 + 2*20*50*100 + 2*10*20*100 = 250000
// CHECK-LABEL: func.func @four_factors(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x20xf64>, %[[B:[^:]*]]: tensor<20x50xf64>, %[[C:[^:]*]]: tensor<50x1xf64>, %[[D:[^:]*]]: tensor<1x100xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.matmul %[[B]], %[[C]] : (tensor<20x50xf64>, tensor<50x1xf64>) -> tensor<20x1xf64>
// CHECK-NEXT: %[[ABC:.*]] = cmm.matmul %[[A]], %[[BC]] : (tensor<10x20xf64>, tensor<20x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[ABC]], %[[D]] : (tensor<10x1xf64>, tensor<1x100xf64>) -> tensor<10x100xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x100xf64>
func.func @four_factors(%a: tensor<10x20xf64>, %b: tensor<20x50xf64>, %c: tensor<50x1xf64>, %d: tensor<1x100xf64>) -> tensor<10x100xf64> {
  %0 = cmm.matmul %a, %b : (tensor<10x20xf64>, tensor<20x50xf64>) -> tensor<10x50xf64>
  %1 = cmm.matmul %0, %c : (tensor<10x50xf64>, tensor<50x1xf64>) -> tensor<10x1xf64>
  %2 = cmm.matmul %1, %d : (tensor<10x1xf64>, tensor<1x100xf64>) -> tensor<10x100xf64>
  return %2 : tensor<10x100xf64>
}

// -----

// The Markov chain u * (P*(P*(P*P))), u 1x100, P 100x100:
//   as written: 3 * 2*100^3 + 2*100^2 = 6.02e6 flops
//   (((u*P)*P)*P)*P: 4 * 2*100^2     = 8e4 flops
// CHECK-LABEL: func.func @markov(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x100xf64>, %[[P:[^:]*]]: tensor<100x100xf64>
// CHECK-NEXT: %[[M1:.*]] = cmm.matmul %[[U]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M2:.*]] = cmm.matmul %[[M1]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M3:.*]] = cmm.matmul %[[M2]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M4:.*]] = cmm.matmul %[[M3]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: return %[[M4]] : tensor<1x100xf64>
func.func @markov(%u: tensor<1x100xf64>, %p: tensor<100x100xf64>) -> tensor<1x100xf64> {
  %0 = cmm.matmul %p, %p : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %1 = cmm.matmul %p, %0 : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %2 = cmm.matmul %p, %1 : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %3 = cmm.matmul %u, %2 : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
  return %3 : tensor<1x100xf64>
}

// -----

// P^16 * Q (all 100x100): squaring P^16 (4 products) and one product is
// already the cheapest (5 * 2e6 flops), so the power stays.
// CHECK-LABEL: func.func @power_times_square(
// CHECK-SAME: %[[P:[^:]*]]: tensor<100x100xf64>, %[[Q:[^:]*]]: tensor<100x100xf64>
// CHECK-NEXT: %[[P16:.*]] = cmm.pow %[[P]], 16 : tensor<100x100xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[P16]], %[[Q]] : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
// CHECK-NEXT: return %[[R]] : tensor<100x100xf64>
func.func @power_times_square(%p: tensor<100x100xf64>, %q: tensor<100x100xf64>) -> tensor<100x100xf64> {
  %0 = cmm.pow %p, 16 : tensor<100x100xf64>
  %1 = cmm.matmul %0, %q : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  return %1 : tensor<100x100xf64>
}

// -----

// P^3 * P^2 * Q (100x100): one chain P P P P P Q. As written: P^3 (2
// products), P^2 (1), P^3*P^2 (1), *Q (1) = 5 products. Optimal: 4 products,
// first found as P * (P^4 * Q) with P^4 by squaring (2 squarings):
//   P * (P^4*Q) = 0 + (2 + 1) + 1 = 4;  P^5 * Q = 3 + 1 = 4 (a later split).
// CHECK-LABEL: func.func @powers_times_square(
// CHECK-SAME: %[[P:[^:]*]]: tensor<100x100xf64>, %[[Q:[^:]*]]: tensor<100x100xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// CHECK-NEXT: %[[X:.*]] = cmm.matmul %[[P4]], %[[Q]]
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[P]], %[[X]]
// CHECK-NEXT: return %[[R]] : tensor<100x100xf64>
// CHECK-NOT: cmm.pow
func.func @powers_times_square(%p: tensor<100x100xf64>, %q: tensor<100x100xf64>) -> tensor<100x100xf64> {
  %0 = cmm.pow %p, 3 : tensor<100x100xf64>
  %1 = cmm.pow %p, 2 : tensor<100x100xf64>
  %2 = cmm.matmul %0, %1 : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  %3 = cmm.matmul %2, %q : (tensor<100x100xf64>, tensor<100x100xf64>) -> tensor<100x100xf64>
  return %3 : tensor<100x100xf64>
}

// -----

// u * P^16, u 1x100: 16 vector products (16 * 2e4 = 3.2e5 flops) instead of
// squaring (4 * 2e6 + 2e4 = 8.02e6 flops).
// CHECK-LABEL: func.func @vector_times_power(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x100xf64>, %[[P:[^:]*]]: tensor<100x100xf64>
// CHECK-NEXT: %[[M1:.*]] = cmm.matmul %[[U]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M2:.*]] = cmm.matmul %[[M1]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M3:.*]] = cmm.matmul %[[M2]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M4:.*]] = cmm.matmul %[[M3]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M5:.*]] = cmm.matmul %[[M4]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M6:.*]] = cmm.matmul %[[M5]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M7:.*]] = cmm.matmul %[[M6]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M8:.*]] = cmm.matmul %[[M7]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M9:.*]] = cmm.matmul %[[M8]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M10:.*]] = cmm.matmul %[[M9]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M11:.*]] = cmm.matmul %[[M10]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M12:.*]] = cmm.matmul %[[M11]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M13:.*]] = cmm.matmul %[[M12]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M14:.*]] = cmm.matmul %[[M13]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M15:.*]] = cmm.matmul %[[M14]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: %[[M16:.*]] = cmm.matmul %[[M15]], %[[P]] : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
// CHECK-NEXT: return %[[M16]] : tensor<1x100xf64>
func.func @vector_times_power(%u: tensor<1x100xf64>, %p: tensor<100x100xf64>) -> tensor<1x100xf64> {
  %0 = cmm.pow %p, 16 : tensor<100x100xf64>
  %1 = cmm.matmul %u, %0 : (tensor<1x100xf64>, tensor<100x100xf64>) -> tensor<1x100xf64>
  return %1 : tensor<1x100xf64>
}

// -----

// P^16 * v, v 100x1: 16 products from the right.
// CHECK-LABEL: func.func @power_times_vector(
// CHECK-SAME: %[[P:[^:]*]]: tensor<100x100xf64>, %[[V:[^:]*]]: tensor<100x1xf64>
// CHECK-NEXT: %[[M1:.*]] = cmm.matmul %[[P]], %[[V]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M2:.*]] = cmm.matmul %[[P]], %[[M1]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M3:.*]] = cmm.matmul %[[P]], %[[M2]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M4:.*]] = cmm.matmul %[[P]], %[[M3]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M5:.*]] = cmm.matmul %[[P]], %[[M4]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M6:.*]] = cmm.matmul %[[P]], %[[M5]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M7:.*]] = cmm.matmul %[[P]], %[[M6]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M8:.*]] = cmm.matmul %[[P]], %[[M7]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M9:.*]] = cmm.matmul %[[P]], %[[M8]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M10:.*]] = cmm.matmul %[[P]], %[[M9]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M11:.*]] = cmm.matmul %[[P]], %[[M10]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M12:.*]] = cmm.matmul %[[P]], %[[M11]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M13:.*]] = cmm.matmul %[[P]], %[[M12]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M14:.*]] = cmm.matmul %[[P]], %[[M13]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M15:.*]] = cmm.matmul %[[P]], %[[M14]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[M16:.*]] = cmm.matmul %[[P]], %[[M15]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: return %[[M16]] : tensor<100x1xf64>
func.func @power_times_vector(%p: tensor<100x100xf64>, %v: tensor<100x1xf64>) -> tensor<100x1xf64> {
  %0 = cmm.pow %p, 16 : tensor<100x100xf64>
  %1 = cmm.matmul %0, %v : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
  return %1 : tensor<100x1xf64>
}

// -----

// u * P^16 with 16x16 P decided by cost. With u 8x16: 16 products of
// 2*8*16*16 = 4096 cost 65536, squaring 4 * 2*16^3 + 4096 = 36864: squaring
// wins, and the power is already computed by squaring: unchanged.
// CHECK-LABEL: func.func @squaring_wins(
// CHECK-SAME: %[[U:[^:]*]]: tensor<8x16xf64>, %[[P:[^:]*]]: tensor<16x16xf64>
// CHECK-NEXT: %[[P16:.*]] = cmm.pow %[[P]], 16 : tensor<16x16xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[U]], %[[P16]] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
// CHECK-NEXT: return %[[R]] : tensor<8x16xf64>
func.func @squaring_wins(%u: tensor<8x16xf64>, %p: tensor<16x16xf64>) -> tensor<8x16xf64> {
  %0 = cmm.pow %p, 16 : tensor<16x16xf64>
  %1 = cmm.matmul %u, %0 : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
  return %1 : tensor<8x16xf64>
}

// -----

// With u 4x16: 16 products of 2*4*16*16 = 2048 cost 32768, squaring
// 32768 + 2048 = 34816 (and P^8 by squaring then 8 products, 24576 + 2048 +
// 16384, is worse): the products win.
// CHECK-LABEL: func.func @vector_products_win(
// CHECK-SAME: %[[U:[^:]*]]: tensor<4x16xf64>, %[[P:[^:]*]]: tensor<16x16xf64>
// CHECK-NEXT: %[[M1:.*]] = cmm.matmul %[[U]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M2:.*]] = cmm.matmul %[[M1]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M3:.*]] = cmm.matmul %[[M2]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M4:.*]] = cmm.matmul %[[M3]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M5:.*]] = cmm.matmul %[[M4]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M6:.*]] = cmm.matmul %[[M5]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M7:.*]] = cmm.matmul %[[M6]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M8:.*]] = cmm.matmul %[[M7]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M9:.*]] = cmm.matmul %[[M8]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M10:.*]] = cmm.matmul %[[M9]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M11:.*]] = cmm.matmul %[[M10]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M12:.*]] = cmm.matmul %[[M11]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M13:.*]] = cmm.matmul %[[M12]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M14:.*]] = cmm.matmul %[[M13]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M15:.*]] = cmm.matmul %[[M14]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: %[[M16:.*]] = cmm.matmul %[[M15]], %[[P]] : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
// CHECK-NEXT: return %[[M16]] : tensor<4x16xf64>
func.func @vector_products_win(%u: tensor<4x16xf64>, %p: tensor<16x16xf64>) -> tensor<4x16xf64> {
  %0 = cmm.pow %p, 16 : tensor<16x16xf64>
  %1 = cmm.matmul %u, %0 : (tensor<4x16xf64>, tensor<16x16xf64>) -> tensor<4x16xf64>
  return %1 : tensor<4x16xf64>
}

// -----

// Transposes are part of the chain: (A*B)' * C is B' * A' * C with
// A (50x10), B (10x100), C (50x5):
//   ((A*B)')*C   = 2*50*10*100 + 2*100*50*5 = 100000 + 50000 = 150000
//   B'*(A'*C)    = 2*10*50*5   + 2*100*10*5 =   5000 + 10000 =  15000
// CHECK-LABEL: func.func @transposed_chain(
// CHECK-SAME: %[[A:[^:]*]]: tensor<50x10xf64>, %[[B:[^:]*]]: tensor<10x100xf64>, %[[C:[^:]*]]: tensor<50x5xf64>
// CHECK-NEXT: %[[BT:.*]] = cmm.transpose %[[B]] : tensor<10x100xf64> -> tensor<100x10xf64>
// CHECK-NEXT: %[[AT:.*]] = cmm.transpose %[[A]] : tensor<50x10xf64> -> tensor<10x50xf64>
// CHECK-NEXT: %[[ATC:.*]] = cmm.matmul %[[AT]], %[[C]] : (tensor<10x50xf64>, tensor<50x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[BT]], %[[ATC]] : (tensor<100x10xf64>, tensor<10x5xf64>) -> tensor<100x5xf64>
// CHECK-NEXT: return %[[R]] : tensor<100x5xf64>
func.func @transposed_chain(%a: tensor<50x10xf64>, %b: tensor<10x100xf64>, %c: tensor<50x5xf64>) -> tensor<100x5xf64> {
  %0 = cmm.matmul %a, %b : (tensor<50x10xf64>, tensor<10x100xf64>) -> tensor<50x100xf64>
  %1 = cmm.transpose %0 : tensor<50x100xf64> -> tensor<100x50xf64>
  %2 = cmm.matmul %1, %c : (tensor<100x50xf64>, tensor<50x5xf64>) -> tensor<100x5xf64>
  return %2 : tensor<100x5xf64>
}

// -----

// A (10x100) * ((2*B) (100x5) * C (5x50)): the chain is 2 * [A, B, C]; the
// order becomes (A*B)*C and the scale goes to the node of that tree with the
// fewest elements, the product A*B (10x5, 50; C has 250, B 500, the 10x50
// result 500, A 1000):
//   as written: 2*B 500 + B*C 50000 + A*.. 100000 = 150500
//   after:      A*B 10000 + 2*(A*B) 50 + *C 5000   =  15050
// CHECK-LABEL: func.func @scale_in_chain(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AB]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
func.func @scale_in_chain(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %s = cmm.scale %b by 2.0 : tensor<100x5xf64>
  %0 = cmm.matmul %s, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}

// -----

// The order is already optimal, but the scale is not where it is cheapest:
// (2*A)*B*C with the dims of @scale_in_chain. The tree (A*B)*C stays and
// the scale moves from A (1000 elements) to A*B (50):
//   as written: 2*A 1000 + A*B 10000 + *C 5000 = 16000
//   after:      A*B 10000 + 2*(A*B) 50 + *C 5000 = 15050
// CHECK-LABEL: func.func @scale_moves_only(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AB]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
func.func @scale_moves_only(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %s = cmm.scale %a by 2.0 : tensor<10x100xf64>
  %0 = cmm.matmul %s, %b : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
  %1 = cmm.matmul %0, %c : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}

// -----

// A scale on top of a single-use product chain is part of the chain:
// 2 * (A*(B*C)) with the dims of @scale_in_chain is the chain 2 * [A, B, C],
// ordered (A*B)*C with the scale on A*B (50 elements, against 500 for the
// result where it was):
//   as written: B*C 50000 + A*.. 100000 + 2*.. 500 = 150500
//   after:      A*B 10000 + 2*(A*B) 50 + *C 5000    =  15050
// CHECK-LABEL: func.func @scale_above_chain(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AB]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x50xf64>
func.func @scale_above_chain(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.scale %1 by 2.0 : tensor<10x50xf64>
  return %2 : tensor<10x50xf64>
}

// -----

// The product under the scale has another use, so the scale is not part of
// its chain: A*(B*C) is reordered alone and the scale stays on the 10x50
// result (500 elements), which the other user needs unscaled:
//   as written: 50000 + 100000 + 500 = 150500;  after: 10000 + 5000 + 500
//   = 15500.
// CHECK-LABEL: func.func @scale_above_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x100xf64>, tensor<100x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT: %[[P:.*]] = cmm.matmul %[[AB]], %[[C]] : (tensor<10x5xf64>, tensor<5x50xf64>) -> tensor<10x50xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P]] by 2.000000e+00 : tensor<10x50xf64>
// CHECK-NEXT: return %[[S]], %[[P]] : tensor<10x50xf64>, tensor<10x50xf64>
func.func @scale_above_shared(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> (tensor<10x50xf64>, tensor<10x50xf64>) {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.scale %1 by 2.0 : tensor<10x50xf64>
  return %2, %1 : tensor<10x50xf64>, tensor<10x50xf64>
}

// -----

// u (1x100) * ((3*P) * v (100x1)): the 1x1 result is the cheapest place for
// the scale (1 element, against 100 for u, v and P*v, 10000 for P). The
// products u*(P*v) and (u*P)*v tie (20200 flops); the first split is kept:
//   as written: 3*P 10000 + P*v 20000 + u*.. 200 = 30200
//   after:      P*v 20000 + u*.. 200 + 3*.. 1     = 20201
// CHECK-LABEL: func.func @scale_on_result(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x100xf64>, %[[P:[^:]*]]: tensor<100x100xf64>, %[[V:[^:]*]]: tensor<100x1xf64>
// CHECK-NEXT: %[[PV:.*]] = cmm.matmul %[[P]], %[[V]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[UPV:.*]] = cmm.matmul %[[U]], %[[PV]] : (tensor<1x100xf64>, tensor<100x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.scale %[[UPV]] by 3.000000e+00 : tensor<1x1xf64>
// CHECK-NEXT: return %[[R]] : tensor<1x1xf64>
func.func @scale_on_result(%u: tensor<1x100xf64>, %p: tensor<100x100xf64>, %v: tensor<100x1xf64>) -> tensor<1x1xf64> {
  %s = cmm.scale %p by 3.0 : tensor<100x100xf64>
  %0 = cmm.matmul %s, %v : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
  %1 = cmm.matmul %u, %0 : (tensor<1x100xf64>, tensor<100x1xf64>) -> tensor<1x1xf64>
  return %1 : tensor<1x1xf64>
}

// -----

// The same chain written 3 * (u*(P*v)): already the cheapest order, with the
// scale already on the 1x1 result (20200 + 1 = 20201 flops). Nothing is
// strictly cheaper: unchanged.
// CHECK-LABEL: func.func @scale_above_optimal(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x100xf64>, %[[P:[^:]*]]: tensor<100x100xf64>, %[[V:[^:]*]]: tensor<100x1xf64>
// CHECK-NEXT: %[[PV:.*]] = cmm.matmul %[[P]], %[[V]] : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[UPV:.*]] = cmm.matmul %[[U]], %[[PV]] : (tensor<1x100xf64>, tensor<100x1xf64>) -> tensor<1x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.scale %[[UPV]] by 3.000000e+00 : tensor<1x1xf64>
// CHECK-NEXT: return %[[R]] : tensor<1x1xf64>
func.func @scale_above_optimal(%u: tensor<1x100xf64>, %p: tensor<100x100xf64>, %v: tensor<100x1xf64>) -> tensor<1x1xf64> {
  %0 = cmm.matmul %p, %v : (tensor<100x100xf64>, tensor<100x1xf64>) -> tensor<100x1xf64>
  %1 = cmm.matmul %u, %0 : (tensor<1x100xf64>, tensor<100x1xf64>) -> tensor<1x1xf64>
  %2 = cmm.scale %1 by 3.0 : tensor<1x1xf64>
  return %2 : tensor<1x1xf64>
}

// -----

// The scale of a transposed factor: (2*A)' * B * C with A (5x10), B (5x100),
// C (100x20). The tree becomes A'*(B*C); of its nodes A' has the fewest
// elements (50; B*C has 100, the 10x20 result 200, B 500, C 2000), so the
// transposed leaf is scaled:
//   as written: 2*A 50 + ((2A)'*B) 10000 + *C 40000 = 50050
//   after:      B*C 20000 + 2*A' 50 + A'*.. 2000     = 22050
// CHECK-LABEL: func.func @scale_transposed_factor(
// CHECK-SAME: %[[A:[^:]*]]: tensor<5x10xf64>, %[[B:[^:]*]]: tensor<5x100xf64>, %[[C:[^:]*]]: tensor<100x20xf64>
// CHECK-NEXT: %[[AT:.*]] = cmm.transpose %[[A]] : tensor<5x10xf64> -> tensor<10x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[AT]] by 2.000000e+00 : tensor<10x5xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.matmul %[[B]], %[[C]] : (tensor<5x100xf64>, tensor<100x20xf64>) -> tensor<5x20xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[BC]] : (tensor<10x5xf64>, tensor<5x20xf64>) -> tensor<10x20xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x20xf64>
func.func @scale_transposed_factor(%a: tensor<5x10xf64>, %b: tensor<5x100xf64>, %c: tensor<100x20xf64>) -> tensor<10x20xf64> {
  %s = cmm.scale %a by 2.0 : tensor<5x10xf64>
  %t = cmm.transpose %s : tensor<5x10xf64> -> tensor<10x5xf64>
  %0 = cmm.matmul %t, %b : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
  %1 = cmm.matmul %0, %c : (tensor<10x100xf64>, tensor<100x20xf64>) -> tensor<10x20xf64>
  return %1 : tensor<10x20xf64>
}

// -----

// A squared run keeps the scale out: P*(P*(P*(P*(2*Q)))) with P (2x2),
// Q (2x100) is the chain 2 * [P, P, P, P, Q], ordered P^4 * Q with P^4 by
// squaring (P2 = P*P, P4 = P2*P2). The scale cannot go on a P inside the run
// (squaring would raise it to a power); the run's result P4 (4 elements,
// against 200 for Q and the result) takes it:
//   as written: 2*Q 200 + 4 * (2*2*2*100 = 800) = 3400
//   after:      P2 16 + P4 16 + 2*P4 4 + P4*Q 800 = 836
// CHECK-LABEL: func.func @scale_squared_run(
// CHECK-SAME: %[[P:[^:]*]]: tensor<2x2xf64>, %[[Q:[^:]*]]: tensor<2x100xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P4]] by 2.000000e+00 : tensor<2x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[S]], %[[Q]] : (tensor<2x2xf64>, tensor<2x100xf64>) -> tensor<2x100xf64>
// CHECK-NEXT: return %[[R]] : tensor<2x100xf64>
func.func @scale_squared_run(%p: tensor<2x2xf64>, %q: tensor<2x100xf64>) -> tensor<2x100xf64> {
  %s = cmm.scale %q by 2.0 : tensor<2x100xf64>
  %0 = cmm.matmul %p, %s : (tensor<2x2xf64>, tensor<2x100xf64>) -> tensor<2x100xf64>
  %1 = cmm.matmul %p, %0 : (tensor<2x2xf64>, tensor<2x100xf64>) -> tensor<2x100xf64>
  %2 = cmm.matmul %p, %1 : (tensor<2x2xf64>, tensor<2x100xf64>) -> tensor<2x100xf64>
  %3 = cmm.matmul %p, %2 : (tensor<2x2xf64>, tensor<2x100xf64>) -> tensor<2x100xf64>
  return %3 : tensor<2x100xf64>
}

// -----

// Shared intermediate (SystemDS PR #683 / #1058): T = B*C is also returned,
// so it is a leaf of the chain A*T*D and is computed exactly once. With
// A (10x100), T (100x100), D (100x2):
//   (A*T)*D = 200000 + 4000 = 204000;  A*(T*D) = 40000 + 4000 = 44000.
// CHECK-LABEL: func.func @shared_leaf(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x100xf64>, %[[D:[^:]*]]: tensor<100x2xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.matmul %[[B]], %[[C]] : (tensor<100x5xf64>, tensor<5x100xf64>) -> tensor<100x100xf64>
// CHECK-NEXT: %[[TD:.*]] = cmm.matmul %[[T]], %[[D]] : (tensor<100x100xf64>, tensor<100x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[TD]] : (tensor<10x100xf64>, tensor<100x2xf64>) -> tensor<10x2xf64>
// CHECK-NEXT: return %[[R]], %[[T]] : tensor<10x2xf64>, tensor<100x100xf64>
func.func @shared_leaf(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x100xf64>, %d: tensor<100x2xf64>) -> (tensor<10x2xf64>, tensor<100x100xf64>) {
  %t = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x100xf64>) -> tensor<100x100xf64>
  %0 = cmm.matmul %a, %t : (tensor<10x100xf64>, tensor<100x100xf64>) -> tensor<10x100xf64>
  %1 = cmm.matmul %0, %d : (tensor<10x100xf64>, tensor<100x2xf64>) -> tensor<10x2xf64>
  return %1, %t : tensor<10x2xf64>, tensor<100x100xf64>
}

// -----

// The same program without the other use of T: the chain is A*B*C*D with
// A (10x100), B (100x5), C (5x100), D (100x2):
//   A*(B*(C*D)) = 2000 + 2000 + 4000    =   8000  <- optimal
//   (A*B)*(C*D) = 10000 + 2000 + 200    =  12200
//   ((A*B)*C)*D = 10000 + 10000 + 4000  =  24000
//   as written (A*(B*C))*D = 100000 + 200000 + 4000 = 304000
// CHECK-LABEL: func.func @not_shared(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x100xf64>, %[[D:[^:]*]]: tensor<100x2xf64>
// CHECK-NEXT: %[[CD:.*]] = cmm.matmul %[[C]], %[[D]] : (tensor<5x100xf64>, tensor<100x2xf64>) -> tensor<5x2xf64>
// CHECK-NEXT: %[[BCD:.*]] = cmm.matmul %[[B]], %[[CD]] : (tensor<100x5xf64>, tensor<5x2xf64>) -> tensor<100x2xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[BCD]] : (tensor<10x100xf64>, tensor<100x2xf64>) -> tensor<10x2xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x2xf64>
func.func @not_shared(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x100xf64>, %d: tensor<100x2xf64>) -> tensor<10x2xf64> {
  %t = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x100xf64>) -> tensor<100x100xf64>
  %0 = cmm.matmul %a, %t : (tensor<10x100xf64>, tensor<100x100xf64>) -> tensor<10x100xf64>
  %1 = cmm.matmul %0, %d : (tensor<10x100xf64>, tensor<100x2xf64>) -> tensor<10x2xf64>
  return %1 : tensor<10x2xf64>
}

// -----

// A shared product that is the whole left part: T = A*B is also returned,
// so T*C is a chain of two leaves and stays, although (A*B)*C would be
// cheaper as A*(B*C) were T not needed. A (10x5), B (5x100), C (100x1).
// CHECK-LABEL: func.func @shared_prefix(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x5xf64>, %[[B:[^:]*]]: tensor<5x100xf64>, %[[C:[^:]*]]: tensor<100x1xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[T]], %[[C]] : (tensor<10x100xf64>, tensor<100x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT: return %[[R]], %[[T]] : tensor<10x1xf64>, tensor<10x100xf64>
func.func @shared_prefix(%a: tensor<10x5xf64>, %b: tensor<5x100xf64>, %c: tensor<100x1xf64>) -> (tensor<10x1xf64>, tensor<10x100xf64>) {
  %t = cmm.matmul %a, %b : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
  %r = cmm.matmul %t, %c : (tensor<10x100xf64>, tensor<100x1xf64>) -> tensor<10x1xf64>
  return %r, %t : tensor<10x1xf64>, tensor<10x100xf64>
}

// -----

// Not shared: (A*B)*C = 10000 + 2000 = 12000 becomes A*(B*C) = 1000 + 100.
// CHECK-LABEL: func.func @unshared_prefix(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x5xf64>, %[[B:[^:]*]]: tensor<5x100xf64>, %[[C:[^:]*]]: tensor<100x1xf64>
// CHECK-NEXT: %[[BC:.*]] = cmm.matmul %[[B]], %[[C]] : (tensor<5x100xf64>, tensor<100x1xf64>) -> tensor<5x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[A]], %[[BC]] : (tensor<10x5xf64>, tensor<5x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT: return %[[R]] : tensor<10x1xf64>
func.func @unshared_prefix(%a: tensor<10x5xf64>, %b: tensor<5x100xf64>, %c: tensor<100x1xf64>) -> tensor<10x1xf64> {
  %t = cmm.matmul %a, %b : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
  %r = cmm.matmul %t, %c : (tensor<10x100xf64>, tensor<100x1xf64>) -> tensor<10x1xf64>
  return %r : tensor<10x1xf64>
}

// -----

// A shared product used by another op (a transpose that is returned) is a
// leaf too, and a shared transposed product enters the chain as a transposed
// leaf: T = A*B (10x100) has two users, T' * C with C (10x1) keeps T.
//   as written: T = 10000, T'*C = 2000; T is needed anyway, nothing to gain.
// CHECK-LABEL: func.func @shared_through_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x5xf64>, %[[B:[^:]*]]: tensor<5x100xf64>, %[[C:[^:]*]]: tensor<10x1xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
// CHECK-NEXT: %[[TT:.*]] = cmm.transpose %[[T]] : tensor<10x100xf64> -> tensor<100x10xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[TT]], %[[C]] : (tensor<100x10xf64>, tensor<10x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[T]] : tensor<10x100xf64>
// CHECK-NEXT: return %[[R]], %[[N]] : tensor<100x1xf64>, tensor<10x100xf64>
func.func @shared_through_transpose(%a: tensor<10x5xf64>, %b: tensor<5x100xf64>, %c: tensor<10x1xf64>) -> (tensor<100x1xf64>, tensor<10x100xf64>) {
  %t = cmm.matmul %a, %b : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
  %tt = cmm.transpose %t : tensor<10x100xf64> -> tensor<100x10xf64>
  %r = cmm.matmul %tt, %c : (tensor<100x10xf64>, tensor<10x1xf64>) -> tensor<100x1xf64>
  %n = cmm.neg %t : tensor<10x100xf64>
  return %r, %n : tensor<100x1xf64>, tensor<10x100xf64>
}

// -----

// The same without the other use: (A*B)' * C = B' * A' * C, with
// B' (100x5), A' (5x10), C (10x1):
//   as written: 10000 + 2000 = 12000;  B'*(A'*C) = 100 + 1000 = 1100.
// CHECK-LABEL: func.func @unshared_through_transpose(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x5xf64>, %[[B:[^:]*]]: tensor<5x100xf64>, %[[C:[^:]*]]: tensor<10x1xf64>
// CHECK-NEXT: %[[BT:.*]] = cmm.transpose %[[B]] : tensor<5x100xf64> -> tensor<100x5xf64>
// CHECK-NEXT: %[[AT:.*]] = cmm.transpose %[[A]] : tensor<10x5xf64> -> tensor<5x10xf64>
// CHECK-NEXT: %[[ATC:.*]] = cmm.matmul %[[AT]], %[[C]] : (tensor<5x10xf64>, tensor<10x1xf64>) -> tensor<5x1xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[BT]], %[[ATC]] : (tensor<100x5xf64>, tensor<5x1xf64>) -> tensor<100x1xf64>
// CHECK-NEXT: return %[[R]] : tensor<100x1xf64>
func.func @unshared_through_transpose(%a: tensor<10x5xf64>, %b: tensor<5x100xf64>, %c: tensor<10x1xf64>) -> tensor<100x1xf64> {
  %t = cmm.matmul %a, %b : (tensor<10x5xf64>, tensor<5x100xf64>) -> tensor<10x100xf64>
  %tt = cmm.transpose %t : tensor<10x100xf64> -> tensor<100x10xf64>
  %r = cmm.matmul %tt, %c : (tensor<100x10xf64>, tensor<10x1xf64>) -> tensor<100x1xf64>
  return %r : tensor<100x1xf64>
}

// -----

// The root itself may have several users: it is rewritten once and every
// user sees the new value. A*(B*C) with the dims of @three_right_to_left.
// CHECK-LABEL: func.func @root_two_users(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[AB]], %[[C]]
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[R]]
// CHECK-NEXT: return %[[R]], %[[N]] : tensor<10x50xf64>, tensor<10x50xf64>
func.func @root_two_users(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> (tensor<10x50xf64>, tensor<10x50xf64>) {
  %0 = cmm.matmul %b, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %1 = cmm.matmul %a, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  %2 = cmm.neg %1 : tensor<10x50xf64>
  return %1, %2 : tensor<10x50xf64>, tensor<10x50xf64>
}

// -----

// The chain of @three_right_to_left with scalings whose product overflows
// (1e200 * 1e200 = Inf): one folded factor would turn finite results into
// Inf, so the chain stays as written (not reordered, scalings in place).
// CHECK-LABEL: func.func @scales_overflow(
// CHECK-SAME: %[[A:[^:]*]]: tensor<10x100xf64>, %[[B:[^:]*]]: tensor<100x5xf64>, %[[C:[^:]*]]: tensor<5x50xf64>
// CHECK-NEXT: %[[SB:.*]] = cmm.scale %[[B]] by 9.9999999999999996E+199
// CHECK-NEXT: %[[BC:.*]] = cmm.matmul %[[SB]], %[[C]]
// CHECK-NEXT: %[[SA:.*]] = cmm.scale %[[A]] by 9.9999999999999996E+199
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[SA]], %[[BC]]
// CHECK-NEXT: return %[[R]]
func.func @scales_overflow(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %sb = cmm.scale %b by 1.0e200 : tensor<100x5xf64>
  %0 = cmm.matmul %sb, %c : (tensor<100x5xf64>, tensor<5x50xf64>) -> tensor<100x50xf64>
  %sa = cmm.scale %a by 1.0e200 : tensor<10x100xf64>
  %1 = cmm.matmul %sa, %0 : (tensor<10x100xf64>, tensor<100x50xf64>) -> tensor<10x50xf64>
  return %1 : tensor<10x50xf64>
}
