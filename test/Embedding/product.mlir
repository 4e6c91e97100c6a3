// The input of cmm-embed (test/Embedding/install.sh): a 64x64 product,
// planned for two nodes by cmm-default-pipeline from C++ and from text.
// CHECK: func.func @main()
// CHECK: cmmtg.graph @main tile_size {{[0-9]+}} attributes {{{.*}}nodes = 2 : i64
// CHECK: cmmtg.op @matmul2 matmul
// CHECK: op = @matmul2
module {
  func.func @main() {
    %0 = cmm.rand uniform seed 1 id 1 : tensor<64x64xf64>
    %1 = cmm.rand uniform seed 1 id 2 : tensor<64x64xf64>
    %2 = cmm.matmul %0, %1 : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
    cmm.print %2 "A * B" : tensor<64x64xf64>
    return
  }
}
