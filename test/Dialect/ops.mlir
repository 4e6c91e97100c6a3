// Every cmm op parses and prints in its custom form; the printed form and the
// generic form both parse back to the same IR.
// RUN: cmm-opt %s | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | cmm-opt | FileCheck %s
// RUN: cmm-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @constructors()
func.func @constructors() {
  // CHECK: cmm.constant dense<{{\[\[}}1.000000e+00, -2.000000e+00], [3.000000e+00, 4.500000e+00]]> : tensor<2x2xf64>
  %0 = cmm.constant dense<[[1.0, -2.0], [3.0, 4.5]]> : tensor<2x2xf64>
  // CHECK: cmm.constant dense<2.500000e-01> : tensor<1x1xf64>
  %1 = cmm.constant dense<0.25> : tensor<1x1xf64>
  // A splat over a larger shape.
  // CHECK: cmm.constant dense<7.000000e+00> : tensor<2x3xf64>
  %2 = cmm.constant dense<7.0> : tensor<2x3xf64>
  // CHECK: cmm.range 1 to 5 : tensor<1x5xf64>
  %3 = cmm.range 1 to 5 : tensor<1x5xf64>
  // CHECK: cmm.range -2 to -2 : tensor<1x1xf64>
  %4 = cmm.range -2 to -2 : tensor<1x1xf64>
  // CHECK: cmm.fill 0.000000e+00 : tensor<3x4xf64>
  %5 = cmm.fill 0.0 : tensor<3x4xf64>
  // CHECK: cmm.fill -1.250000e+00 : tensor<1x7xf64>
  %6 = cmm.fill -1.25 : tensor<1x7xf64>
  // CHECK: cmm.eye : tensor<4x4xf64>
  %7 = cmm.eye : tensor<4x4xf64>
  // CHECK: cmm.rand uniform seed 42 id 7316 : tensor<100x100xf64>
  %8 = cmm.rand uniform seed 42 id 7316 : tensor<100x100xf64>
  // CHECK: cmm.rand normal seed 20260101 id 9223372036854775807 : tensor<3x1xf64>
  %9 = cmm.rand normal seed 20260101 id 9223372036854775807 : tensor<3x1xf64>
  // CHECK: cmm.load "data/a.npy" : tensor<200x200xf64>
  %10 = cmm.load "data/a.npy" : tensor<200x200xf64>
  // CHECK: cmm.load "b.mtx" : tensor<5x3xf64>
  %11 = cmm.load "b.mtx" : tensor<5x3xf64>
  // CHECK: cmm.load "c.csv" : tensor<1x2xf64>
  %12 = cmm.load "c.csv" : tensor<1x2xf64>
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func @linalg(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<3x4xf64>, %[[S:.*]]: tensor<3x3xf64>, %[[R:.*]]: tensor<3x2xf64>
func.func @linalg(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>, %s: tensor<3x3xf64>,
                  %r: tensor<3x2xf64>) {
  // CHECK: cmm.matmul %[[A]], %[[B]] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  %0 = cmm.matmul %a, %b : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  // CHECK: cmm.gemm %[[A]] transposed, %[[A]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  %g0 = cmm.gemm %a transposed, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  // CHECK: cmm.gemm %[[B]] transposed, %[[A]] transposed : (tensor<3x4xf64>, tensor<2x3xf64>) -> tensor<4x2xf64>
  %g1 = cmm.gemm %b transposed, %a transposed : (tensor<3x4xf64>, tensor<2x3xf64>) -> tensor<4x2xf64>
  // CHECK: cmm.gemm %[[A]], %[[S]] transposed : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
  %g2 = cmm.gemm %a, %s transposed : (tensor<2x3xf64>, tensor<3x3xf64>) -> tensor<2x3xf64>
  // CHECK: cmm.pow %[[S]], 3 : tensor<3x3xf64>
  %1 = cmm.pow %s, 3 : tensor<3x3xf64>
  // CHECK: cmm.pow %[[S]], 0 : tensor<3x3xf64>
  %2 = cmm.pow %s, 0 : tensor<3x3xf64>
  // CHECK: cmm.inv %[[S]] : tensor<3x3xf64>
  %3 = cmm.inv %s : tensor<3x3xf64>
  // CHECK: cmm.solve %[[S]], %[[R]] : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %4 = cmm.solve %s, %r : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  // CHECK: cmm.transpose %[[A]] : tensor<2x3xf64> -> tensor<3x2xf64>
  %5 = cmm.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  // CHECK: cmm.scale %[[A]] by 2.500000e+00 : tensor<2x3xf64>
  %6 = cmm.scale %a by 2.5 : tensor<2x3xf64>
  // CHECK: cmm.scale %[[A]] by -1.000000e-03 : tensor<2x3xf64>
  %7 = cmm.scale %a by -1.0e-3 : tensor<2x3xf64>
  // CHECK: cmm.neg %[[A]] : tensor<2x3xf64>
  %8 = cmm.neg %a : tensor<2x3xf64>
  return
}

// CHECK-LABEL: func.func @maps(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf64>
func.func @maps(%x: tensor<2x3xf64>) {
  // CHECK: cmm.map sqrt %[[X]] : tensor<2x3xf64>
  %0 = cmm.map sqrt %x : tensor<2x3xf64>
  // CHECK: cmm.map exp %[[X]] : tensor<2x3xf64>
  %1 = cmm.map exp %x : tensor<2x3xf64>
  // CHECK: cmm.map log %[[X]] : tensor<2x3xf64>
  %2 = cmm.map log %x : tensor<2x3xf64>
  // CHECK: cmm.map abs %[[X]] : tensor<2x3xf64>
  %3 = cmm.map abs %x : tensor<2x3xf64>
  // CHECK: cmm.map sin %[[X]] : tensor<2x3xf64>
  %4 = cmm.map sin %x : tensor<2x3xf64>
  // CHECK: cmm.map cos %[[X]] : tensor<2x3xf64>
  %5 = cmm.map cos %x : tensor<2x3xf64>
  // CHECK: cmm.map tanh %[[X]] : tensor<2x3xf64>
  %6 = cmm.map tanh %x : tensor<2x3xf64>
  // CHECK: cmm.map floor %[[X]] : tensor<2x3xf64>
  %7 = cmm.map floor %x : tensor<2x3xf64>
  // CHECK: cmm.map round %[[X]] : tensor<2x3xf64>
  %8 = cmm.map round %x : tensor<2x3xf64>
  return
}

// Each broadcasting op with equal shapes, a 1x1 operand on either side, a
// row, a column, and a row against a column.
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME: %[[M:[^:]*]]: tensor<3x4xf64>, %[[N:[^:]*]]: tensor<3x4xf64>, %[[ONE:[^:]*]]: tensor<1x1xf64>, %[[ROW:[^:]*]]: tensor<1x4xf64>, %[[COL:[^:]*]]: tensor<3x1xf64>
func.func @broadcast(%m: tensor<3x4xf64>, %n: tensor<3x4xf64>,
                     %one: tensor<1x1xf64>, %row: tensor<1x4xf64>,
                     %col: tensor<3x1xf64>) {
  // CHECK: cmm.add %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %0 = cmm.add %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.add %[[ONE]], %[[M]] : (tensor<1x1xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %1 = cmm.add %one, %m : (tensor<1x1xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.add %[[ROW]], %[[COL]] : (tensor<1x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  %2 = cmm.add %row, %col : (tensor<1x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.sub %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %3 = cmm.sub %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.sub %[[M]], %[[ONE]] : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  %4 = cmm.sub %m, %one : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.sub %[[COL]], %[[ROW]] : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  %5 = cmm.sub %col, %row : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.mul %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %6 = cmm.mul %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.mul %[[M]], %[[ROW]] : (tensor<3x4xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  %7 = cmm.mul %m, %row : (tensor<3x4xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.div %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %8 = cmm.div %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.div %[[M]], %[[COL]] : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  %9 = cmm.div %m, %col : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.epow %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %10 = cmm.epow %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.epow %[[M]], %[[ONE]] : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  %11 = cmm.epow %m, %one : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.max %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %12 = cmm.max %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.max %[[ROW]], %[[M]] : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %13 = cmm.max %row, %m : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.min %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %14 = cmm.min %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.min %[[COL]], %[[M]] : (tensor<3x1xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %15 = cmm.min %col, %m : (tensor<3x1xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>

  // CHECK: cmm.mod %[[M]], %[[N]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %16 = cmm.mod %m, %n : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.mod %[[M]], %[[ONE]] : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  %17 = cmm.mod %m, %one : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>

  // A 1x1 against a 1x1 stays 1x1; a row against a row of the same length.
  // CHECK: cmm.add %[[ONE]], %[[ONE]] : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
  %18 = cmm.add %one, %one : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
  // CHECK: cmm.mul %[[ROW]], %[[ONE]] : (tensor<1x4xf64>, tensor<1x1xf64>) -> tensor<1x4xf64>
  %19 = cmm.mul %row, %one : (tensor<1x4xf64>, tensor<1x1xf64>) -> tensor<1x4xf64>
  return
}

// CHECK-LABEL: func.func @compare(
// CHECK-SAME: %[[M:[^:]*]]: tensor<3x4xf64>, %[[ONE:[^:]*]]: tensor<1x1xf64>, %[[ROW:[^:]*]]: tensor<1x4xf64>, %[[COL:[^:]*]]: tensor<3x1xf64>
func.func @compare(%m: tensor<3x4xf64>, %one: tensor<1x1xf64>,
                   %row: tensor<1x4xf64>, %col: tensor<3x1xf64>) {
  // CHECK: cmm.cmp gt, %[[M]], %[[ONE]] : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  %0 = cmm.cmp gt, %m, %one : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.cmp lt, %[[M]], %[[M]] : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %1 = cmm.cmp lt, %m, %m : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.cmp ge, %[[ROW]], %[[M]] : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  %2 = cmm.cmp ge, %row, %m : (tensor<1x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.cmp le, %[[M]], %[[COL]] : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  %3 = cmm.cmp le, %m, %col : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
  // CHECK: cmm.cmp eq, %[[COL]], %[[ROW]] : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  %4 = cmm.cmp eq, %col, %row : (tensor<3x1xf64>, tensor<1x4xf64>) -> tensor<3x4xf64>
  return
}

// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: %[[M:.*]]: tensor<3x4xf64>
func.func @reductions(%m: tensor<3x4xf64>) {
  // CHECK: cmm.reduce sum %[[M]] : tensor<3x4xf64> -> tensor<1x1xf64>
  %0 = cmm.reduce sum %m : tensor<3x4xf64> -> tensor<1x1xf64>
  // CHECK: cmm.reduce sum %[[M]] along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  %1 = cmm.reduce sum %m along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  // CHECK: cmm.reduce sum %[[M]] along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  %2 = cmm.reduce sum %m along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  // CHECK: cmm.reduce max %[[M]] : tensor<3x4xf64> -> tensor<1x1xf64>
  %3 = cmm.reduce max %m : tensor<3x4xf64> -> tensor<1x1xf64>
  // CHECK: cmm.reduce max %[[M]] along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  %4 = cmm.reduce max %m along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  // CHECK: cmm.reduce max %[[M]] along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  %5 = cmm.reduce max %m along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  // CHECK: cmm.reduce min %[[M]] : tensor<3x4xf64> -> tensor<1x1xf64>
  %6 = cmm.reduce min %m : tensor<3x4xf64> -> tensor<1x1xf64>
  // CHECK: cmm.reduce min %[[M]] along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  %7 = cmm.reduce min %m along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  // CHECK: cmm.reduce min %[[M]] along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  %8 = cmm.reduce min %m along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  // CHECK: cmm.reduce mean %[[M]] : tensor<3x4xf64> -> tensor<1x1xf64>
  %9 = cmm.reduce mean %m : tensor<3x4xf64> -> tensor<1x1xf64>
  // CHECK: cmm.reduce mean %[[M]] along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  %10 = cmm.reduce mean %m along 1 : tensor<3x4xf64> -> tensor<1x4xf64>
  // CHECK: cmm.reduce mean %[[M]] along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  %11 = cmm.reduce mean %m along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
  // CHECK: cmm.norm %[[M]] : tensor<3x4xf64> -> tensor<1x1xf64>
  %12 = cmm.norm %m : tensor<3x4xf64> -> tensor<1x1xf64>
  return
}

// CHECK-LABEL: func.func @effects(
// CHECK-SAME: %[[M:.*]]: tensor<1x100xf64>
func.func @effects(%m: tensor<1x100xf64>) {
  // CHECK: cmm.print %[[M]] "M" : tensor<1x100xf64>
  cmm.print %m "M" : tensor<1x100xf64>
  // A label that is an expression text, with quotes and spaces.
  // CHECK: cmm.print %[[M]] "sum(M .* M') + 1" : tensor<1x100xf64>
  cmm.print %m "sum(M .* M') + 1" : tensor<1x100xf64>
  // CHECK: cmm.print_scalar "n" 1.000000e+03
  cmm.print_scalar "n" 1000.0
  // CHECK: cmm.print_scalar "n / 2" -2.500000e-01
  cmm.print_scalar "n / 2" -0.25
  // CHECK: cmm.save %[[M]] to "out.npy" : tensor<1x100xf64>
  cmm.save %m to "out.npy" : tensor<1x100xf64>
  // CHECK: cmm.save %[[M]] to "dir/out.mtx" : tensor<1x100xf64>
  cmm.save %m to "dir/out.mtx" : tensor<1x100xf64>
  // CHECK: cmm.save %[[M]] to "out.csv" : tensor<1x100xf64>
  cmm.save %m to "out.csv" : tensor<1x100xf64>
  return
}

// The generic form spells the enums and attributes.
// GENERIC-LABEL: "func.func"() <{function_type = () -> (), sym_name = "constructors"}>
// GENERIC: "cmm.constant"() <{value = dense<{{\[\[}}1.000000e+00, -2.000000e+00], [3.000000e+00, 4.500000e+00]]> : tensor<2x2xf64>}> : () -> tensor<2x2xf64>
// GENERIC: "cmm.range"() <{start = 1 : i64, stop = 5 : i64}> : () -> tensor<1x5xf64>
// GENERIC: "cmm.fill"() <{value = 0.000000e+00 : f64}> : () -> tensor<3x4xf64>
// GENERIC: "cmm.eye"() : () -> tensor<4x4xf64>
// GENERIC: "cmm.rand"() <{call_id = 7316 : i64, distribution = 0 : i32, seed = 42 : i64}> : () -> tensor<100x100xf64>
// GENERIC: "cmm.rand"() <{call_id = 9223372036854775807 : i64, distribution = 1 : i32, seed = 20260101 : i64}> : () -> tensor<3x1xf64>
// GENERIC: "cmm.load"() <{path = "data/a.npy"}> : () -> tensor<200x200xf64>
// GENERIC-LABEL: sym_name = "linalg"
// GENERIC: "cmm.gemm"(%{{.*}}, %{{.*}}) <{transpose_lhs}>
// GENERIC: "cmm.gemm"(%{{.*}}, %{{.*}}) <{transpose_lhs, transpose_rhs}>
// GENERIC: "cmm.pow"(%{{.*}}) <{exponent = 3 : i64}>
// GENERIC: "cmm.scale"(%{{.*}}) <{factor = 2.500000e+00 : f64}>
// GENERIC-LABEL: sym_name = "maps"
// GENERIC: "cmm.map"(%{{.*}}) <{fn = 0 : i32}>
// GENERIC: "cmm.map"(%{{.*}}) <{fn = 8 : i32}>
// GENERIC-LABEL: sym_name = "compare"
// GENERIC: "cmm.cmp"(%{{.*}}, %{{.*}}) <{predicate = 0 : i32}>
// GENERIC: "cmm.cmp"(%{{.*}}, %{{.*}}) <{predicate = 4 : i32}>
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC: "cmm.reduce"(%{{.*}}) <{kind = 0 : i32}> : (tensor<3x4xf64>) -> tensor<1x1xf64>
// GENERIC: "cmm.reduce"(%{{.*}}) <{dim = 1 : i64, kind = 0 : i32}> : (tensor<3x4xf64>) -> tensor<1x4xf64>
// GENERIC: "cmm.reduce"(%{{.*}}) <{dim = 2 : i64, kind = 3 : i32}> : (tensor<3x4xf64>) -> tensor<3x1xf64>
// GENERIC-LABEL: sym_name = "effects"
// GENERIC: "cmm.print"(%{{.*}}) <{label = "M"}> : (tensor<1x100xf64>) -> ()
// GENERIC: "cmm.print_scalar"() <{label = "n", value = 1.000000e+03 : f64}> : () -> ()
// GENERIC: "cmm.save"(%{{.*}}) <{path = "out.npy"}> : (tensor<1x100xf64>) -> ()
