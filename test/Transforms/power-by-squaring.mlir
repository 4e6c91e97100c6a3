// cmm-power-by-squaring: chains made only of one square value become
// floor(log2 k) squarings and popcount(k)-1 products of the shared squares.
// With lower-all, the powers left inside larger chains are expanded too.
// RUN: cmm-opt %s -split-input-file --cmm-power-by-squaring | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: cmm-opt %s -split-input-file --cmm-power-by-squaring=lower-all=true | FileCheck %s --check-prefixes=CHECK,LOWER

// The traced loop M = P*M: P*(P*(P*P)) is 3 products; by squaring it is 2
// (P2 = P*P, P4 = P2*P2).
// CHECK-LABEL: func.func @loop_chain(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: return %[[P4]] : tensor<5x5xf64>
func.func @loop_chain(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.matmul %p, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %p, %0 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %2 = cmm.matmul %p, %1 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %2 : tensor<5x5xf64>
}

// -----

// The left-nested chain ((P*P)*P)*P is the same power.
// CHECK-LABEL: func.func @loop_chain_left(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// CHECK-NEXT: return %[[P4]] : tensor<5x5xf64>
func.func @loop_chain_left(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.matmul %p, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %0, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %2 = cmm.matmul %1, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %2 : tensor<5x5xf64>
}

// -----

// 13 = 8 + 4 + 1: squares P2, P4, P8 (3 squarings) and the products P*P4
// and (P*P4)*P8 (2 products); each square is computed once.
// CHECK-LABEL: func.func @pow13(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P5:.*]] = cmm.matmul %[[P]], %[[P4]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P8:.*]] = cmm.matmul %[[P4]], %[[P4]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P13:.*]] = cmm.matmul %[[P5]], %[[P8]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: return %[[P13]] : tensor<5x5xf64>
func.func @pow13(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.pow %p, 13 : tensor<5x5xf64>
  return %0 : tensor<5x5xf64>
}

// -----

// CHECK-LABEL: func.func @pow2(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: return %[[P2]] : tensor<5x5xf64>
func.func @pow2(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.pow %p, 2 : tensor<5x5xf64>
  return %0 : tensor<5x5xf64>
}

// -----

// (2*P)^3 = 8 * P^3: the scale leaves the power and is applied once.
// CHECK-LABEL: func.func @scaled_power(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[P3:.*]] = cmm.matmul %[[P]], %[[P2]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[S:.*]] = cmm.scale %[[P3]] by 8.000000e+00 : tensor<5x5xf64>
// CHECK-NEXT: return %[[S]] : tensor<5x5xf64>
func.func @scaled_power(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %s = cmm.scale %p by 2.0 : tensor<5x5xf64>
  %0 = cmm.pow %s, 3 : tensor<5x5xf64>
  return %0 : tensor<5x5xf64>
}

// -----

// (P^3)^2 = P^6 = P2 * P4: one chain of 6 factors, 3 products sharing P2.
// CHECK-LABEL: func.func @power_of_power(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// CHECK-NEXT: %[[P6:.*]] = cmm.matmul %[[P2]], %[[P4]]
// CHECK-NEXT: return %[[P6]] : tensor<5x5xf64>
func.func @power_of_power(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.pow %p, 3 : tensor<5x5xf64>
  %1 = cmm.pow %0, 2 : tensor<5x5xf64>
  return %1 : tensor<5x5xf64>
}

// -----

// (P')^3: the chain is one value, P', transposed once.
// CHECK-LABEL: func.func @transposed_power(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]] : tensor<5x5xf64> -> tensor<5x5xf64>
// CHECK-NEXT: %[[T2:.*]] = cmm.matmul %[[T]], %[[T]]
// CHECK-NEXT: %[[T3:.*]] = cmm.matmul %[[T]], %[[T2]]
// CHECK-NEXT: return %[[T3]] : tensor<5x5xf64>
func.func @transposed_power(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %t = cmm.transpose %p : tensor<5x5xf64> -> tensor<5x5xf64>
  %0 = cmm.pow %t, 3 : tensor<5x5xf64>
  return %0 : tensor<5x5xf64>
}

// -----

// Different values: not a power.
// CHECK-LABEL: func.func @not_one_value(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>, %[[Q:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P]], %[[Q]]
// CHECK-NEXT: %[[B:.*]] = cmm.matmul %[[P]], %[[A]]
// CHECK-NEXT: return %[[B]] : tensor<5x5xf64>
func.func @not_one_value(%p: tensor<5x5xf64>, %q: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.matmul %p, %q : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %p, %0 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %1 : tensor<5x5xf64>
}

// -----

// P and P' are different factors.
// CHECK-LABEL: func.func @not_same_transpose(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[T:.*]] = cmm.transpose %[[P]]
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P]], %[[T]]
// CHECK-NEXT: %[[B:.*]] = cmm.matmul %[[A]], %[[P]]
// CHECK-NEXT: return %[[B]] : tensor<5x5xf64>
func.func @not_same_transpose(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %t = cmm.transpose %p : tensor<5x5xf64> -> tensor<5x5xf64>
  %0 = cmm.matmul %p, %t : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %0, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %1 : tensor<5x5xf64>
}

// -----

// P*P is already one squaring: unchanged (and P^1, P^0 are not this pass's).
// CHECK-LABEL: func.func @already_squared(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[B:.*]] = cmm.pow %[[P]], 1 : tensor<5x5xf64>
// CHECK-NEXT: %[[C:.*]] = cmm.pow %[[P]], 0 : tensor<5x5xf64>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @already_squared(%p: tensor<5x5xf64>) -> (tensor<5x5xf64>, tensor<5x5xf64>, tensor<5x5xf64>) {
  %0 = cmm.matmul %p, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.pow %p, 1 : tensor<5x5xf64>
  %2 = cmm.pow %p, 0 : tensor<5x5xf64>
  return %0, %1, %2 : tensor<5x5xf64>, tensor<5x5xf64>, tensor<5x5xf64>
}

// -----

// u * P^4 mixes another factor: the default pass leaves it to chain ordering
// and the power stays; lower-all expands the power into 2 squarings.
// CHECK-LABEL: func.func @mixed_chain(
// CHECK-SAME: %[[U:[^:]*]]: tensor<1x5xf64>, %[[P:[^:]*]]: tensor<5x5xf64>
// DEFAULT-NEXT: %[[P4:.*]] = cmm.pow %[[P]], 4 : tensor<5x5xf64>
// LOWER-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// LOWER-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
// CHECK-NEXT: %[[R:.*]] = cmm.matmul %[[U]], %[[P4]] : (tensor<1x5xf64>, tensor<5x5xf64>) -> tensor<1x5xf64>
// CHECK-NEXT: return %[[R]] : tensor<1x5xf64>
func.func @mixed_chain(%u: tensor<1x5xf64>, %p: tensor<5x5xf64>) -> tensor<1x5xf64> {
  %0 = cmm.pow %p, 4 : tensor<5x5xf64>
  %1 = cmm.matmul %u, %0 : (tensor<1x5xf64>, tensor<5x5xf64>) -> tensor<1x5xf64>
  return %1 : tensor<1x5xf64>
}

// -----

// (A*B)^3 is a power of a product whose factors differ: the default pass
// leaves it to chain ordering; lower-all squares the product as a whole.
// CHECK-LABEL: func.func @power_of_product(
// CHECK-SAME: %[[A:[^:]*]]: tensor<5x2xf64>, %[[B:[^:]*]]: tensor<2x5xf64>
// CHECK-NEXT: %[[AB:.*]] = cmm.matmul %[[A]], %[[B]] : (tensor<5x2xf64>, tensor<2x5xf64>) -> tensor<5x5xf64>
// DEFAULT-NEXT: %[[R:.*]] = cmm.pow %[[AB]], 3 : tensor<5x5xf64>
// LOWER-NEXT: %[[AB2:.*]] = cmm.matmul %[[AB]], %[[AB]]
// LOWER-NEXT: %[[R:.*]] = cmm.matmul %[[AB]], %[[AB2]]
// CHECK-NEXT: return %[[R]] : tensor<5x5xf64>
func.func @power_of_product(%a: tensor<5x2xf64>, %b: tensor<2x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.matmul %a, %b : (tensor<5x2xf64>, tensor<2x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.pow %0, 3 : tensor<5x5xf64>
  return %1 : tensor<5x5xf64>
}

// -----

// The intermediate P*P is also returned, so it is a leaf of the outer chain
// P*(P*X) with X = P*P: that chain mixes P and X and is not a power of one
// value, so nothing changes (X is neither recomputed nor absorbed).
// CHECK-LABEL: func.func @shared_intermediate(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[X:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P]], %[[X]]
// CHECK-NEXT: %[[B:.*]] = cmm.matmul %[[P]], %[[A]]
// CHECK-NEXT: return %[[B]], %[[X]] : tensor<5x5xf64>, tensor<5x5xf64>
func.func @shared_intermediate(%p: tensor<5x5xf64>) -> (tensor<5x5xf64>, tensor<5x5xf64>) {
  %0 = cmm.matmul %p, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %p, %0 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %2 = cmm.matmul %p, %1 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %2, %0 : tensor<5x5xf64>, tensor<5x5xf64>
}

// -----

// The shared value is P^3 = P*(P*P): its own chain is a power of P (squared
// as P2 = P*P, P*P2, no cheaper but the same), the outer chain P*(P*Y) with
// Y = P^3 shared stays: only the inner part is rewritten and Y is computed
// once.
// CHECK-LABEL: func.func @shared_cube(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[Y:.*]] = cmm.matmul %[[P]], %[[P2]]
// CHECK-NEXT: %[[A:.*]] = cmm.matmul %[[P]], %[[Y]]
// CHECK-NEXT: %[[B:.*]] = cmm.matmul %[[P]], %[[A]]
// CHECK-NEXT: return %[[B]], %[[Y]] : tensor<5x5xf64>, tensor<5x5xf64>
// CHECK-NOT: cmm.matmul
func.func @shared_cube(%p: tensor<5x5xf64>) -> (tensor<5x5xf64>, tensor<5x5xf64>) {
  %0 = cmm.matmul %p, %p : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %1 = cmm.matmul %p, %0 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %2 = cmm.matmul %p, %1 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  %3 = cmm.matmul %p, %2 : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
  return %3, %1 : tensor<5x5xf64>, tensor<5x5xf64>
}

// -----

// A power used twice is computed once and both users see the result.
// CHECK-LABEL: func.func @power_two_users(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// CHECK-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// CHECK-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// CHECK-NEXT: %[[N:.*]] = cmm.neg %[[P4]]
// CHECK-NEXT: return %[[P4]], %[[N]] : tensor<5x5xf64>, tensor<5x5xf64>
func.func @power_two_users(%p: tensor<5x5xf64>) -> (tensor<5x5xf64>, tensor<5x5xf64>) {
  %0 = cmm.pow %p, 4 : tensor<5x5xf64>
  %1 = cmm.neg %0 : tensor<5x5xf64>
  return %0, %1 : tensor<5x5xf64>, tensor<5x5xf64>
}

// -----

// Beyond the expansion limit of chains (64), a pure power is not squared by
// the default pass; lower-all squares it: 100 = 64 + 32 + 4, 6 squarings and
// 2 products.
// CHECK-LABEL: func.func @pow100(
// CHECK-SAME: %[[P:[^:]*]]: tensor<5x5xf64>
// DEFAULT-NEXT: %[[R:.*]] = cmm.pow %[[P]], 100 : tensor<5x5xf64>
// LOWER-NEXT: %[[P2:.*]] = cmm.matmul %[[P]], %[[P]]
// LOWER-NEXT: %[[P4:.*]] = cmm.matmul %[[P2]], %[[P2]]
// LOWER-NEXT: %[[P8:.*]] = cmm.matmul %[[P4]], %[[P4]]
// LOWER-NEXT: %[[P16:.*]] = cmm.matmul %[[P8]], %[[P8]]
// LOWER-NEXT: %[[P32:.*]] = cmm.matmul %[[P16]], %[[P16]]
// LOWER-NEXT: %[[P36:.*]] = cmm.matmul %[[P4]], %[[P32]]
// LOWER-NEXT: %[[P64:.*]] = cmm.matmul %[[P32]], %[[P32]]
// LOWER-NEXT: %[[R:.*]] = cmm.matmul %[[P36]], %[[P64]]
// CHECK-NEXT: return %[[R]] : tensor<5x5xf64>
func.func @pow100(%p: tensor<5x5xf64>) -> tensor<5x5xf64> {
  %0 = cmm.pow %p, 100 : tensor<5x5xf64>
  return %0 : tensor<5x5xf64>
}
