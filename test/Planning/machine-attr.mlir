// The machine model in the IR: cmm-attach-machine-model sets the module's
// cmmtg.machine from a JSON model (or the built-in one), it prints and
// parses back exactly, and the planning passes plan for it: the plan for
// an attached c5 model is the plan for machine-model=c5 (byte for byte).
// RUN: cmm-opt %s --cmm-attach-machine-model="file=%cmm_src/models/c5.9xlarge.json nodes=2" -o %t.attached
// RUN: cmm-opt %t.attached | diff %t.attached -
// RUN: FileCheck %s --check-prefix=ATTACHED < %t.attached
// ATTACHED: module attributes {cmmtg.machine = #cmmtg.machine<name = "c5.9xlarge", nodes = [#cmmtg.node<name = "master", cores = 18, workers = 1, threads = 2, communicators = 14,
// ATTACHED-SAME: gemm = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.665000e-11>
// ATTACHED-SAME: #cmmtg.node<name = "worker", cores = 18, workers = 3, threads = 4, communicators = 2,
// ATTACHED-SAME: link = <latency = 5.000000e-05 : f64, bandwidth = 1.250000e+09 : f64>, routes = [], memory_limit = 0.000000e+00 : f64>
// RUN: cmm-opt %s --cmm-plan="machine-model=%cmm_src/models/c5.9xlarge.json nodes=2 tile-sizes=32" -mlir-print-debuginfo -o %t.option
// RUN: cmm-opt %s --cmm-attach-machine-model="file=%cmm_src/models/c5.9xlarge.json nodes=2" -mlir-print-debuginfo | cmm-opt --cmm-plan="tile-sizes=32" -mlir-print-debuginfo | diff %t.option -
// cmm-plan leaves the machine it planned for on the module (here the
// built-in model on 2 nodes: one worker of one thread each, the cores
// shared, and node 0 alone with the machine's two threads, the machine a
// master-only plan runs on).
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=32" | FileCheck %s --check-prefix=PLANNED
// PLANNED: module attributes {cmmtg.machine = #cmmtg.machine<name = "builtin", nodes = [#cmmtg.node<name = "local0", cores = {{[12]}}, workers = 1, threads = {{[12]}}, communicators = 1, memory = {{[^,]+}} : f64, {{.*}}>, #cmmtg.node<name = "local1", cores = 1, workers = 1, threads = 1, communicators = 1, memory = {{[^,]+}} : f64,
// PLANNED-SAME: master_alone = <name = "local0", cores = 2, workers = 1, threads = 2, communicators = 1,
// The machine with its master_alone prints and parses back exactly.
// RUN: cmm-opt %s --cmm-attach-machine-model="nodes=2" -o %t.builtin
// RUN: cmm-opt %t.builtin | diff %t.builtin -
// PLANNED: cmmtg.graph @main tile_size 32 attributes {{{.*}}nodes = 2 : i64
// nodes resizes an attached model (node 1 copied); a file would replace
// it, which only cmm-attach-machine-model does.
// RUN: cmm-opt %t.attached --cmm-plan="nodes=3 tile-sizes=64" | FileCheck %s --check-prefix=RESIZED
// RESIZED: cmmtg.graph @main tile_size 64 attributes {{{.*}}nodes = 3 : i64
// RUN: not cmm-opt %t.attached --cmm-plan="machine-model=%cmm_src/models/c5.9xlarge.json" 2>&1 | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: error: the module already has a machine model (cmmtg.machine); machine-model='{{.*}}c5.9xlarge.json' would replace it (use cmm-attach-machine-model)
// RUN: not cmm-opt %s --cmm-attach-machine-model="file=%t.none.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cmm-attach-machine-model: {{.*}}none.json: cannot read machine model
// Verifier errors: RUN in machine-attr-invalid.mlir.

module {
  func.func @main() {
    %0 = cmm.rand uniform seed 20260101 id 1 : tensor<64x64xf64>
    %1 = cmm.rand uniform seed 20260101 id 2 : tensor<64x64xf64>
    %2 = cmm.matmul %0, %1 : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
    cmm.print %2 "A * B" : tensor<64x64xf64>
    return
  }
}
