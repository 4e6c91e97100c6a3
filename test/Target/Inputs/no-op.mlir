// A scheduled task that does not say which op it computes part of.
// CHECK: error: 'cmmtg.task' op does not say which op it computes part of (attribute 'op')
module attributes {cmmtg.machine = #cmmtg.machine<name = "m", nodes = [#cmmtg.node<name = "n", cores = 1, workers = 1, threads = 1, communicators = 1, memory = 1.0e9 : f64, time = {}>], link = <latency = 1.0e-5 : f64, bandwidth = 1.0e9 : f64>, routes = [], memory_limit = 0.0 : f64>} {
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
