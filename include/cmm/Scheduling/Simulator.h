//===- Simulator.h - Discrete-event replay of a plan ------------*- C++ -*-===//
//
// Replays a plan: each worker runs its tasks and each communicator its
// transfers in the planned order, each as soon as its inputs are where they
// must be, with durations from a cost model (the planning one, or another:
// free communication gives the zero-communication bound of Table 7 of the
// paper); tasks and transfers that write pages their node never touched
// before take their first-touch time on top. Reports the makespan, each
// node's peak tile memory, per-resource busy time and the lower bound
// max(critical path, total work / workers), the work term weighted by node
// speed when nodes differ.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_SIMULATOR_H
#define CMM_SCHEDULING_SIMULATOR_H

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/Schedule.h"

#include <algorithm>
#include <vector>

namespace cmm::scheduling {

struct SimulationReport {
  double makespan = 0;
  std::vector<std::vector<double>> workerBusy; // [node][worker] seconds
  std::vector<std::vector<double>> commBusy;   // [node][communicator]
  Schedule replayed;                           // the plan with simulated times
  /// Each node's peak of live tile bytes (MemoryTimeline.h), and the
  /// seconds of first-touch page faults included in the makespan.
  std::vector<double> peakBytes;
  double firstTouchSeconds = 0;
};

SimulationReport simulate(const TaskGraph &graph, const CostModel &cost,
                          const Schedule &plan);

struct Bounds {
  double criticalPath = 0;  // longest path, fastest node per task, no comm
  double workPerWorker = 0; // sum of fastest task times / workers
  /// Max over nodes: the earliest start of its pinned tasks + their work /
  /// its workers + the shortest path after one of them.
  double pinnedWork = 0;
  /// The work term when nodes differ in speed: every task done in fractions
  /// anywhere (its time on each node known) still needs, for any node
  /// weights y >= 0, T >= sum_t min_n y_n t_n / sum_n y_n W_n (weigh each
  /// node's load by y_n: the dual of the fractional assignment). y = 1 is
  /// workPerWorker; the weights are improved by a coordinate search, so
  /// this is at least workPerWorker and still a lower bound.
  double weightedWork = 0;
  /// Precedence and work together: before task t starts, all its ancestors
  /// have run, which takes at least their share of the (weighted) work term;
  /// after it starts, the longest path from t to the end still remains. So
  /// T >= max_t (work of ancestors(t) / capacity + longest path from t),
  /// which is at least both the critical path and, at the last task, the
  /// work term of the graph's ancestors; and mirrored, T >= max_t (longest
  /// path up to t's end + work of descendants(t) / capacity). 0 when the graph
  /// is too large to keep the ancestor sets (more than 8192 tasks).
  double precedenceWork = 0;
  /// The bound the issue names: max(critical path, total work / workers).
  double plain() const { return std::max(criticalPath, workPerWorker); }
  double lower() const {
    return std::max({criticalPath, workPerWorker, pinnedWork, weightedWork,
                     precedenceWork});
  }
};

Bounds lowerBounds(const TaskGraph &graph, const CostModel &cost);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_SIMULATOR_H
