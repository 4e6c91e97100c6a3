// One 4000x4000 product: at tile size 4000 tiled it is one gemm task on one
// node; as a COSMA product both nodes share it (plan-pass.mlir).
module {
  func.func @main() {
    %0 = cmm.rand uniform seed 20260101 id 1 : tensor<4000x4000xf64>
    %1 = cmm.rand uniform seed 20260101 id 2 : tensor<4000x4000xf64>
    %2 = cmm.matmul %0, %1 : (tensor<4000x4000xf64>, tensor<4000x4000xf64>) -> tensor<4000x4000xf64>
    cmm.print %2 "A * B" : tensor<4000x4000xf64>
    return
  }
}
