//===- Schedule.h - A solution of a task graph ------------------*- C++ -*-===//
//
// A plan: where and when each task runs, every transfer with the
// communicators it occupies, and the tile-cache commands (put, evict) of
// each node. verifySchedule() checks a plan against its graph.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_SCHEDULE_H
#define CMM_SCHEDULING_SCHEDULE_H

#include "cmm/Scheduling/TaskGraph.h"

#include <string>
#include <vector>

namespace cmm::scheduling {

class CostModel;
struct SchedulerOptions;

struct TaskPlacement {
  unsigned node = 0, worker = 0; // worker index within the node
  double start = 0, finish = 0;
  /// A gang task reads each input on the gang node that holds it (by input
  /// index); empty: every input on `node`.
  std::vector<unsigned> inputNodes;
  unsigned inputNode(size_t input) const {
    return inputNodes.empty() ? node : inputNodes[input];
  }
  /// Seconds of first-touch page faults the simulation adds to the task
  /// (Simulator.cpp): in a simulated schedule's finish - start, not in a
  /// scheduler's. The plan carries it so that `--stats` compares a class's
  /// measured time, faults included, with all of its prediction.
  double firstTouch = 0;
};

struct Transfer {
  DataId data = 0;
  unsigned from = 0, to = 0;
  int sendComm = -1, recvComm = -1; // -1 when communicators are not modelled
  double start = 0, finish = 0;
  double firstTouch = 0; // as TaskPlacement::firstTouch, on the receiver
  /// The task whose placement fetched the data (-1: none, or a gang task,
  /// whose time is its own). Where receiving takes the workers' time
  /// (CostModel::receiveCpu), that task's duration includes it.
  long fetchedBy = -1;
};

/// Put when a copy of a data item appears on a node (produced or received),
/// Evict when it leaves; events are in causal order, so a copy evicted and
/// fetched again at the same instant is told apart from one that arrives and
/// leaves at that instant.
struct CacheEvent {
  enum Kind { Put, Evict } kind = Put;
  DataId data = 0;
  unsigned node = 0;
  double time = 0;
};

struct Schedule {
  std::vector<TaskPlacement> placement; // by TaskId
  std::vector<Transfer> transfers;
  std::vector<CacheEvent> cacheEvents;
  double makespan = 0;
  unsigned cacheHits = 0; // inputs found on the node without a transfer
  double bytesMoved = 0;
};

/// The receive CPU each task's duration includes (by TaskId): the
/// CostModel::receiveCpu of the transfers it fetched.
std::vector<double> receiveCpuByTask(const TaskGraph &graph,
                                     const CostModel &cost,
                                     const Schedule &schedule);

/// Checks: every task placed on an existing worker once; no two tasks
/// overlap on a worker; a task runs for its modelled time (within
/// tolerance, its receive CPU included); each input is on the task's node
/// before it starts (produced there, or transferred there and not evicted in
/// between); transfers start after their data is on the sender; no communicator
/// carries two transfers at once (when `options.modelCommunicators`); no data
/// item is sent to a node while it is cached there (when
/// `options.useTileCache`). Returns an empty string when the schedule is valid,
/// else the first violation.
std::string verifySchedule(const TaskGraph &graph, const CostModel &cost,
                           const Schedule &schedule,
                           const SchedulerOptions &options);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_SCHEDULE_H
