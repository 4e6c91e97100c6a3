// A plan is the whole program: its graph declares the ops its tasks compute
// (cmmtg.op) and tasks name them by symbol, so rewriting @main after
// planning changes nothing in the generated program. Here canonicalization
// erases a dead transpose before the add (it shifted every later op when
// tasks named ops by position, binding an elementwise task to the print).
// (Locations are printed: the program names its source.)
// RUN: cmm-opt %s --cmm-plan="nodes=2 tile-sizes=2" -mlir-print-debuginfo -o %t.plan
// RUN: cmm-translate --cmm-to-cpp %t.plan -o %t.plain.cpp
// RUN: cmm-opt %t.plan --canonicalize -mlir-print-debuginfo | cmm-translate --cmm-to-cpp -o %t.canon.cpp
// RUN: cmm-opt %t.plan --canonicalize | FileCheck %s --check-prefix=DEAD
// RUN: diff %t.plain.cpp %t.canon.cpp
// RUN: FileCheck %s < %t.canon.cpp
// Even with @main gone, the graph alone is the program.
// RUN: cmm-opt %t.plan --canonicalize -mlir-print-debuginfo | sed '/func.func @main/,/^  } loc/d' > %t.nomain
// RUN: not grep func.func %t.nomain
// RUN: cmm-translate --cmm-to-cpp %t.nomain | diff %t.plain.cpp -

// DEAD-NOT: cmm.transpose
// The op table: the four ops that run, in program order (not the
// transpose), and the add's tasks bound to the add.
// CHECK: const Op kOps[] = {
// CHECK-NEXT: /*0*/ {OpCode::Fill, 4, 4,
// CHECK-NEXT: /*1*/ {OpCode::Fill, 4, 4,
// CHECK-NEXT: /*2*/ {OpCode::Add, 4, 4,
// CHECK-NEXT: /*3*/ {OpCode::Print, 4, 4, 4, 4, 0.0, 0, 0, "A + B", nullptr,
// CHECK-NEXT: };
// CHECK: {TaskKind::Elementwise, 2,
// CHECK-NOT: {TaskKind::Elementwise, 3,
// CHECK: {TaskKind::Gather, 3,
module {
  func.func @main() {
    %0 = cmm.fill 1.0 : tensor<4x4xf64>
    %1 = cmm.fill 2.0 : tensor<4x4xf64>
    %2 = cmm.transpose %0 : tensor<4x4xf64> -> tensor<4x4xf64>
    %3 = cmm.add %0, %1 : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
    cmm.print %3 "A + B" : tensor<4x4xf64>
    return
  }
}
