// A scheduled task that does not say which op of @main it computes.
// CHECK: error: 'cmmtg.task' op does not name an op of @main (attribute 'op')
func.func @main() {
  %a = cmm.fill 1.0 : tensor<2x2xf64>
  cmm.print %a "A" : tensor<2x2xf64>
  return
}
cmmtg.graph @main tile_size 2 attributes {makespan = 1.0 : f64, nodes = 1 : i64} {
  %0 = cmmtg.task generate () {node = 0 : i64, worker = 0 : i64, start = 0.0 : f64, finish = 1.0 : f64} : () -> !cmmtg.tile<2x2>
  cmmtg.task gather (%0) {op = 1 : i64, pinned = 0 : i64, node = 0 : i64, worker = 0 : i64, start = 1.0 : f64, finish = 1.0 : f64} : (!cmmtg.tile<2x2>) -> ()
}
