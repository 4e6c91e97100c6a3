//===- Schedulers.h - HEFT and a round-robin baseline -----------*- C++ -*-===//
//
// HEFT (Topcuoglu, Hariri, Wu, IEEE TPDS 13(3), 2002): tasks in decreasing
// upward rank (average computation plus average communication along the
// longest path to an exit), each assigned, with insertion, to the worker
// where it finishes earliest. The Cloud Matrix Machine extensions (paper
// section 3.5): a node-level tile cache (a tile already on a node costs no
// transfer and is never sent there twice while cached; eviction when the
// node's memory would overflow) and communicators as resources (a transfer
// occupies one on the sender and one on the receiver).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_SCHEDULERS_H
#define CMM_SCHEDULING_SCHEDULERS_H

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/Schedule.h"

#include <vector>

namespace cmm::scheduling {

struct SchedulerOptions {
  /// A transfer occupies a communicator on both ends (else links are
  /// unlimited, as in plain HEFT).
  bool modelCommunicators = true;
  /// The node-level tile cache: a data item already on a node is reused.
  /// Without it, as in plain HEFT, every consumer on another node than the
  /// data's pays its own transfer.
  bool useTileCache = true;
};

/// Upward ranks of every task (HEFT's priority).
std::vector<double> upwardRanks(const TaskGraph &graph, const CostModel &cost);

Schedule scheduleHEFT(const TaskGraph &graph, const CostModel &cost,
                      const SchedulerOptions &options = {});

/// Baseline: tasks in topological order, workers in turn (pinned tasks on
/// their node), each as early as its inputs allow.
Schedule scheduleRoundRobin(const TaskGraph &graph, const CostModel &cost,
                            const SchedulerOptions &options = {});

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_SCHEDULERS_H
