//===- PlanBuilder.h - Incremental construction of a plan -------*- C++ -*-===//
//
// The state every list scheduler shares: worker and communicator timelines
// (with insertion), where each data item is and since when, node memory and
// the tile cache. A scheduler asks evaluate() for candidate placements and
// commit()s one per task, in an order that respects dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_LIB_PLANNER_PLANBUILDER_H
#define CMM_LIB_PLANNER_PLANBUILDER_H

#include "Timeline.h"

#include "cmm/Scheduling/Schedulers.h"

#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace cmm::scheduling {

class PlanBuilder {
public:
  PlanBuilder(const TaskGraph &graph, const CostModel &cost,
              const SchedulerOptions &options);

  struct Candidate {
    unsigned node = 0, worker = 0;
    double start = 0, finish = 0;
    double load = 0; // busy time of the worker so far

    /// Earliest finish first; among equal finishes (common when several
    /// workers are idle), the least loaded worker, so that work does not
    /// pile onto the first node (the master, where pinned gathers run).
    bool betterThan(const Candidate &o) const {
      if (std::isinf(o.finish))
        return !std::isinf(finish);
      double eps = 1e-12 * std::max(1.0, std::abs(o.finish));
      if (finish < o.finish - eps)
        return true;
      return finish <= o.finish + eps && load < o.load;
    }
  };

  /// When every input of `task` could be on `node`.
  double readyOn(TaskId task, unsigned node) const;
  /// Where `task` would run on (node, worker) if placed now.
  Candidate evaluate(TaskId task, unsigned node, unsigned worker) const;
  /// The worker of `node` where `task` finishes earliest.
  Candidate bestOnNode(TaskId task, unsigned node) const;
  void commit(TaskId task, unsigned node, unsigned worker);
  Schedule take();

private:
  /// When `data` can be on `node`: now if it is there, else after the
  /// earliest transfer from a holder (reserving it when `reserve`).
  double arrival(DataId data, unsigned node, bool reserve);
  double arrivalEstimate(DataId data, unsigned node) const;
  /// The receive CPU (CostModel::receiveCpu) of the inputs `task` would
  /// fetch to `node` now.
  double receiveCpu(TaskId task, unsigned node) const;
  /// `task`'s time on `node` placed now: its model time and, but for a gang
  /// task, the receive CPU of what it fetches.
  double duration(TaskId task, unsigned node) const;
  /// The earliest transfer of `data` to `node` from a node that holds it.
  Transfer bestTransfer(DataId data, unsigned node) const;
  /// Earliest start >= ready of `duration` on a free communicator of each
  /// end; the communicators chosen go to sendComm/recvComm.
  double commSlot(unsigned from, unsigned to, double ready, double duration,
                  int *sendComm, int *recvComm) const;
  bool holds(DataId data, unsigned node) const;
  double refetchAfter(DataId data, unsigned node) const;
  /// A copy of `data` appears on `node` at `time` (produced or received).
  void place(DataId data, unsigned node, double time);
  void evict(DataId data, unsigned node);
  void makeRoom(unsigned node, double time, DataId keep);

  const TaskGraph &graph;
  const CostModel &cost;
  SchedulerOptions options;
  std::vector<std::vector<Timeline>> workerTimelines; // [node][worker]
  std::vector<std::vector<Timeline>> commTimelines;   // [node][communicator]
  std::vector<std::map<unsigned, double>> location;   // data -> node -> since
  /// data -> node -> when it was last evicted there: a copy fetched again
  /// must not arrive (nor start moving) before the old one left, even when
  /// insertion would find an earlier gap.
  std::vector<std::map<unsigned, double>> evictedAt;
  std::vector<std::map<DataId, double>> lastUse; // node -> data -> time
  std::vector<double> usedBytes;                 // node
  /// Inputs of the task being committed: fetching one must not evict another.
  std::set<DataId> inUse;
  std::vector<unsigned> unscheduledConsumers; // data
  Schedule schedule;
};

} // namespace cmm::scheduling

#endif // CMM_LIB_PLANNER_PLANBUILDER_H
