// configure=auto (paper section 3.6, Tables 9 and 10): each class of alike
// nodes gets the split of its cores between communicators and workers that
// simulates fastest at the chosen tile size; the report lists every split
// tried, the chosen configuration and the runner-up, and the machine left on
// the module (what the program runs) has it. models/c5-table9.json: a
// 48-core master (4 workers x 2 threads + 14 communicators in the file)
// whose communicators share 10 Gbps, workers of 18 cores.
// RUN: cmm-opt %s --cmm-plan="machine-model=%cmm_src/models/c5-table9.json nodes=3 tile-sizes=32 configure=auto report=%t.report" | FileCheck %s --check-prefix=AUTO
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// REPORT: tile     32: {{.*}}(node 0: 23 workers x 2 threads + 1 communicator)
// REPORT: tile     32: {{.*}}(node 0: 16 workers x 2 threads + 16 communicators)
// REPORT: tile     32: {{.*}}(node 0: {{[^;]*}}; node 1: 4 workers x 4 threads + 1 communicator)
// REPORT: chosen configuration: node 0 on: {{[0-9]+}} workers x 2 threads + {{[0-9]+}} communicator{{s?}}; node 1 on: {{[0-9]}} workers x 4 threads + {{[0-9]+}} communicator{{s?}} (runner-up configuration: predicted {{.*}} s)
// The attached machine is the chosen split: the master's workers and
// communicators fill its 48 cores (2 threads each), and the first-touch and
// network terms travel with it.
// On this 64x64 product every split plans the same makespan (the master
// alone), so the first tried, 1 communicator and 23 workers, is kept.
// AUTO: #cmmtg.node<name = "master", cores = 48, workers = 23, threads = 2, communicators = 1, {{.*}}network = 1.250000e+09 : f64>
//
// configure=file (the default) plans for the file's split and says nothing
// about configurations.
// RUN: cmm-opt %s --cmm-plan="machine-model=%cmm_src/models/c5-table9.json nodes=3 tile-sizes=32 report=-" | FileCheck %s --check-prefix=FILE
// FILE-NOT: chosen configuration
// FILE-NOT: workers x
// FILE: #cmmtg.node<name = "master", cores = 48, workers = 4, threads = 2, communicators = 14,
//
// An attached first touch is kept through the IR (the built-in model has
// one) and a bad one is refused.
// RUN: cmm-opt %s --cmm-attach-machine-model | FileCheck %s --check-prefix=TOUCH
// TOUCH: first_touch = {{[0-9.]+}}E-{{[0-9]+}} : f64
// A plan from the attached model is the plan from the model itself, first
// touch, network, task overhead, receive and send CPU and measured splits
// included:
// Inputs/shared-network.json has them (2 communicators share 4 B/s on 8 B/s
// links; 1 us per fresh byte; 0.5 s per task; 0.25 s + 1 ms per byte of
// each receive, 0.125 s + 0.5 ms per byte of each send, charged since 2
// cores run 1 worker and 2 communicators;
// products at twice the polynomial's time in its split of 1 worker x 1
// thread), and its
// 4000x4000 product at tile 2000 has pool-sized tiles and transfers, so
// either term lost on the way through the IR changes the plan's times.
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-plan="machine-model=%S/Inputs/shared-network.json tile-sizes=2000 gemm=tiled" -mlir-print-debuginfo -o %t.direct
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-attach-machine-model="file=%S/Inputs/shared-network.json" -mlir-print-debuginfo | cmm-opt --cmm-plan="tile-sizes=2000 gemm=tiled" -mlir-print-debuginfo | diff %t.direct -
// RUN: FileCheck %s --check-prefix=SHARED < %t.direct
// SHARED: network = 4.000000e+00 : f64, task_overhead = 5.000000e-01 : f64, receive_cpu = 2.500000e-01 : f64, receive_cpu_per_byte = 1.000000e-03 : f64, send_cpu = 1.250000e-01 : f64, send_cpu_per_byte = 5.000000e-04 : f64, configurations = [1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00, 3.000000e+00], cache_bytes = 1.600000e+01 : f64, hot_factor = 5.000000e-01 : f64, huge_page_bytes = 2097152
// RUN: cmm-opt %s --cmm-plan="tile-sizes=32" | cmm-opt | FileCheck %s --check-prefix=TOUCH
//
// Measured splits (Inputs/measured-splits.json, Table 3): two 4-core nodes
// whose two single-threaded workers each multiply in 1.2x the time of one
// 4-thread worker (one worker of 2 threads: 1.6x, of 1 thread: 2.2x). The
// 4000^3 product in 2000-tiles is 4 chains of two 8 s products: 32 s on the
// file's one 4-thread worker a node, 2 x 8 x 1.6 = 25.6 s a chain on 1 x 2
// threads (51.2 s: two chains a node), 70.4 s on 1 x 1, 2 x 8 x 1.2 = 19.2
// s on 2 x 1 thread (a chain per worker), which is chosen and which the
// generated program runs. Four single-threaded workers use every core, so
// they are tried with one communicator sharing them (2 x 8 x 1.9 = 30.4
// s), and with no more.
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-plan="machine-model=%S/Inputs/measured-splits.json tile-sizes=2000 gemm=tiled configure=auto report=%t.splits" | cmm-translate --cmm-to-cpp | FileCheck %s --check-prefix=SPLITS-CPP
// RUN: FileCheck %s --check-prefix=SPLITS < %t.splits
// SPLITS: tile   2000: {{.*}} predicted         32 s
// SPLITS: predicted       51.2 s{{.*}}(node 0: 1 worker x 2 threads + 1 communicator)
// SPLITS: predicted       70.4 s{{.*}}(node 0: 1 worker x 1 thread + 1 communicator)
// SPLITS: predicted       19.2 s{{.*}}(node 0: 2 workers x 1 thread + 1 communicator)
// SPLITS: predicted       30.4 s{{.*}}(node 0: 4 workers x 1 thread + 1 communicator)
// SPLITS-NOT: 4 workers x 1 thread + 2 communicators
// SPLITS: chosen configuration: node 0 on: 2 workers x 1 thread + {{[12]}} communicator
// SPLITS-CPP: const int32_t kWorkers[] = {2, 2};
// SPLITS-CPP: const int32_t kThreads[] = {1, 1};
// Without configure=auto the file's split runs (32 s).
// RUN: cmm-opt %S/Inputs/big-product.mlir --cmm-plan="machine-model=%S/Inputs/measured-splits.json tile-sizes=2000 gemm=tiled" | cmm-translate --cmm-to-cpp | FileCheck %s --check-prefix=SPLITS-FILE
// SPLITS-FILE: Plan: 2 node(s), tile size 2000, scheduler heft, predicted makespan 32
// SPLITS-FILE: const int32_t kThreads[] = {4, 4};
// RUN: not cmm-opt --cmm-plan=configure=best %s 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: Cannot find option named 'best'
module {
  func.func @main() {
    %0 = cmm.rand uniform seed 20260101 id 1 : tensor<64x64xf64>
    %1 = cmm.rand uniform seed 20260101 id 2 : tensor<64x64xf64>
    %2 = cmm.matmul %0, %1 : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
    cmm.print %2 "A * B" : tensor<64x64xf64>
    return
  }
}
