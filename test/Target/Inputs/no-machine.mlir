// A scheduled module without a machine model (cmmtg.machine).
// CHECK: error: --cmm-to-cpp: the module has no machine model (cmmtg.machine): plan it with cmm-plan, or run cmm-attach-machine-model before cmm-schedule
module {
  func.func @main() {
    %a = cmm.fill 1.0 : tensor<2x2xf64>
    cmm.print %a "A" : tensor<2x2xf64>
    return
  }
  cmmtg.graph @main tile_size 2 attributes {makespan = 1.0 : f64, nodes = 1 : i64} {
    cmmtg.op @fill0 fill {rows = 2, cols = 2, value = 1.0}
    cmmtg.op @print1 print {rows = 2, cols = 2, label = "A"}
    %0 = cmmtg.task generate () {node = 0 : i64, worker = 0 : i64, start = 0.0 : f64, finish = 1.0 : f64} : () -> !cmmtg.tile<2x2>
    cmmtg.task gather (%0) {op = @print1, pinned = 0 : i64, node = 0 : i64, worker = 0 : i64, start = 1.0 : f64, finish = 1.0 : f64} : (!cmmtg.tile<2x2>) -> ()
  }
}
