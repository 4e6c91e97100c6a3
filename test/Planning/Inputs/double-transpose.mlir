// (A')' * 2: a double transpose the rewrites remove.
module {
  func.func @main() {
    %0 = cmm.rand uniform seed 1 id 1 : tensor<8x4xf64>
    %1 = cmm.transpose %0 : tensor<8x4xf64> -> tensor<4x8xf64>
    %2 = cmm.transpose %1 : tensor<4x8xf64> -> tensor<8x4xf64>
    cmm.print %2 "(A')'" : tensor<8x4xf64>
    return
  }
}
