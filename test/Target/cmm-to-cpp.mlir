// cmm-translate --cmm-to-cpp: a scheduled module becomes the executor's
// tables: ops of @main, tile copies, each node's tasks in schedule order,
// transfers with their communicators, the outputs in source order.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5" --cmm-schedule="nodes=2 machine-model=%S/../TaskGraph/Inputs/test-model.json" | cmm-translate --cmm-to-cpp | FileCheck %s
// The same graph unscheduled cannot be translated.
// The source lines of the ops, for run-time errors: none above (the input
// is standard input); with debug locations, this file's lines, the others
// null.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5" --cmm-schedule="nodes=2 machine-model=%S/../TaskGraph/Inputs/test-model.json" --mlir-print-debuginfo | cmm-translate --cmm-to-cpp | FileCheck %s --check-prefix=LINES
// LINES: const char *const kSourceLines[] = {
// LINES-NEXT: nullptr, nullptr,
// LINES: "  %c = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>",
// LINES: const Plan kPlan = {
// LINES: kSourceLines, [[#]], kGangNodes, 0};
// The program compiles against this runtime's headers, and not against
// headers of another table version (the static_assert says why).
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5" --cmm-schedule="nodes=2 machine-model=%S/../TaskGraph/Inputs/test-model.json" | cmm-translate --cmm-to-cpp -o %t.cpp
// RUN: mpicxx -std=c++17 -fsyntax-only -I%cmm_src/runtime/include %t.cpp
// RUN: sed 's/kPlanAbiVersion == [0-9]*/kPlanAbiVersion == 999/' %t.cpp > %t.other.cpp
// RUN: not mpicxx -std=c++17 -fsyntax-only -I%cmm_src/runtime/include %t.other.cpp 2>&1 | FileCheck %s --check-prefix=ABI
// ABI: this program was generated for another version of the cmm runtime
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5" | not cmm-translate --cmm-to-cpp 2>&1 | FileCheck %s --check-prefix=UNSCHEDULED
// RUN: not cmm-translate --cmm-to-cpp %S/Inputs/no-op.mlir 2>&1 | FileCheck %S/Inputs/no-op.mlir
// RUN: not cmm-translate --cmm-to-cpp %S/Inputs/no-machine.mlir 2>&1 | FileCheck %S/Inputs/no-machine.mlir
// RUN: not cmm-translate --cmm-to-cpp %s 2>&1 | FileCheck %s --check-prefix=NOPLAN
// NOPLAN: error: --cmm-to-cpp: the module has no scheduled cmmtg.graph: run cmm-plan (or cmm-default-pipeline) on the cmm IR first
// The product as a COSMA gang task: listed on both nodes for worker 0 at
// the same predicted times; each entry reads the tiles generated on its
// node (A's first: 2 of A's 4 and 2 of B's 4 here, no transfers), and node
// 0's makes C's 4 tiles; both name the gang, nodes 0 and 1 from entry 0 of
// kGangNodes (COSMA's ranks in that order).
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5 cosma-nodes=2" --cmm-schedule="nodes=2 machine-model=%S/../TaskGraph/Inputs/test-model.json" | cmm-translate --cmm-to-cpp | FileCheck %s --check-prefix=GANG
// GANG: const Task kTasks[] = {
// GANG: // node 0
// GANG: {TaskKind::DistributedGemm, 2, 0, 0, {{[0-9]+}}, 4, {{[0-9]+}}, 4, "matmul@[[#]]:[[#]] cosma", [[START:[0-9.e+-]+]], [[FINISH:[0-9.e+-]+]], 2, CostClass::Gemm, 10.0, 10.0, 10.0, 0, 2},
// GANG: // node 1
// GANG: {TaskKind::DistributedGemm, 2, 1, 0, {{[0-9]+}}, 4, {{[0-9]+}}, 0, "matmul@[[#]]:[[#]] cosma", [[START]], [[FINISH]], 2, CostClass::Gemm, 10.0, 10.0, 10.0, 0, 2},
// GANG: const Transfer kTransfers[] = {{[{][{]}}0, 0, 0, 0, 0, 0, 0.0, 0.0}
// The memory per rank the products may use ends the plan (the test model's).
// GANG: const int32_t kGangNodes[] = {0, 1};
// GANG: kTransfers, 0, kOutputs, 2, 1e+09,
// GANG-NEXT: nullptr, 0, kGangNodes, 2};
// A gang of some nodes is listed on those only: node 0 runs the product
// alone (all 8 operand tiles moved to it), node 1 has no entry.
// RUN: cmm-opt %s --cmm-tile="tile-sizes=5 cosma-nodes=1" --cmm-schedule="nodes=2 machine-model=%S/../TaskGraph/Inputs/test-model.json" | cmm-translate --cmm-to-cpp | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: // node 0
// PARTIAL: {TaskKind::DistributedGemm, 2, 0, 0, {{[0-9]+}}, 8, {{[0-9]+}}, 4, "matmul@[[#]]:[[#]] cosma", {{.*}}, 4, CostClass::Gemm, 10.0, 10.0, 10.0, 0, 1},
// PARTIAL: // node 1
// PARTIAL-NOT: DistributedGemm
// PARTIAL: const int32_t kGangNodes[] = {0};
// PARTIAL: nullptr, 0, kGangNodes, 1};

// CHECK: // Plan: 2 node(s), tile size 5, scheduler heft, predicted makespan
// CHECK: #include "cmmrt/Plan.h"
// The runtime's table layout is the one this program was generated for.
// CHECK: static_assert(cmmrt::plan::kPlanAbiVersion == [[#]],
// CHECK: const Op kOps[] = {
// CHECK-NEXT: /*0*/ {OpCode::Rand, 10, 10, 0, 0, 0.0, 1, 1, nullptr, nullptr, [[#]], [[#]], nullptr},
// CHECK-NEXT: /*1*/ {OpCode::Rand, 10, 10, 0, 0, 0.0, 1, 2, nullptr, nullptr,
// CHECK-NEXT: /*2*/ {OpCode::Matmul, 10, 10, 10, 10,
// CHECK-NEXT: /*3*/ {OpCode::Print, 10, 10, 10, 10, 0.0, 0, 0, "C", nullptr,
// CHECK-NEXT: /*4*/ {OpCode::PrintScalar, 1, 1, 0, 0, 2.5, 0, 0, "s", nullptr,
// CHECK-NEXT: };
// Eight 5x5 rand tiles at their origins, on one node or the other.
// CHECK: const Slot kSlots[] = {
// CHECK-DAG: {{[01]}}, 5, 5, 0, 0,
// CHECK-DAG: {{[01]}}, 5, 5, 0, 5,
// CHECK-DAG: {{[01]}}, 5, 5, 5, 0,
// CHECK-DAG: {{[01]}}, 5, 5, 5, 5,
// CHECK: const Task kTasks[] = {
// CHECK-NEXT: // node 0
// Each task names its cost class and the class polynomial's m, n, k (the
// program's --stats by class, its trace): 5 x 5 tiles, inner 5.
// CHECK: {TaskKind::Gemm, 2, {{[01]}}, {{[01]}},{{.*}}, CostClass::Gemm, 5.0, 5.0, 5.0},
// CHECK: {TaskKind::GemmAcc, 2,{{.*}}, CostClass::Gemm, 5.0, 5.0, 5.0},
// The gather runs on the master, after everything it reads.
// CHECK: {TaskKind::Gather, 3, 0, {{[01]}}, {{[0-9]+}}, 4, {{[0-9]+}}, 0, "print{{.*}}, CostClass::Copy, {{[0-9.]+}}, {{[0-9.]+}}, {{[0-9.]+}}},
// CHECK: // node 1
// CHECK: const Transfer kTransfers[] = {
// CHECK-NEXT: {{{[0-9]+}}, {{[0-9]+}}, {{[01]}}, {{[01]}}, 0, 0,
// CHECK: const int32_t kWorkers[] = {2, 2};
// CHECK: const int32_t kThreads[] = {1, 1};
// CHECK: const int32_t kCommunicators[] = {1, 1};
// CHECK: const int32_t kOutputs[] = {3, 4};
// CHECK: const Plan kPlan = {
// CHECK: int main(int argc, char **argv) { return cmmrt::runPlan(kPlan, argc, argv); }

// UNSCHEDULED: error: --cmm-to-cpp: the module's task graphs are not scheduled: run cmm-schedule first (or cmm-plan on the cmm IR)
func.func @main() {
  %a = cmm.rand uniform seed 1 id 1 : tensor<10x10xf64>
  %b = cmm.rand uniform seed 1 id 2 : tensor<10x10xf64>
  %c = cmm.matmul %a, %b : (tensor<10x10xf64>, tensor<10x10xf64>) -> tensor<10x10xf64>
  cmm.print %c "C" : tensor<10x10xf64>
  cmm.print_scalar "s" 2.5
  return
}
