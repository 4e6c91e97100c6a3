//===- CostModel.h - Task and transfer times for the planner ----*- C++ -*-===//
//
// What the schedulers and the simulator ask of a machine: its resources and
// the time of each task on each node and of each transfer. MachineCostModel
// answers from a MachineModel (the Table 1 polynomials); tests give costs
// directly (TableCostModel), e.g. the worked example of Topcuoglu et al.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_COSTMODEL_H
#define CMM_SCHEDULING_COSTMODEL_H

#include "cmm/Scheduling/BlasPack.h"
#include "cmm/Scheduling/MachineModel.h"
#include "cmm/Scheduling/TaskGraph.h"

#include <map>
#include <vector>

namespace cmm::scheduling {

class CostModel {
public:
  virtual ~CostModel() = default;
  virtual unsigned numNodes() const = 0;
  virtual unsigned workers(unsigned node) const = 0;
  virtual unsigned communicators(unsigned node) const = 0;
  virtual double memoryBytes(unsigned node) const = 0;
  /// Seconds per byte written into pages `node` never touched before, by
  /// one thread.
  virtual double firstTouch(unsigned node) const { return 0; }
  /// The threads each task of `node` runs on, which fault a task's fresh
  /// pages in parallel (cmmrt::populateFreshPages).
  virtual unsigned taskThreads(unsigned node) const { return 1; }
  /// The node's transparent huge pages (NodeSpec::hugePageBytes; 0: none).
  virtual double hugePageBytes(unsigned node) const { return 0; }
  /// Seconds for `task` on one worker of `node`.
  virtual double taskTime(const Task &task, TaskId id, unsigned node) const = 0;
  /// Seconds to move `data` from `from` to `to`; 0 when from == to.
  virtual double transferTime(const DataItem &data, DataId id, unsigned from,
                              unsigned to) const = 0;
  /// Whether `node`'s communicators run on its workers' cores (it has no
  /// spare core for them): then receiving takes the workers' time.
  virtual bool receivesOnWorkerCores(unsigned node) const { return false; }
  /// Worker seconds `node` loses receiving `data` (0 unless
  /// receivesOnWorkerCores): the task that fetches it runs that much longer.
  virtual double receiveCpu(const DataItem &data, unsigned node) const {
    return 0;
  }
  /// Worker seconds `node` loses sending `data` to another node (0 where
  /// the node has a spare core): the simulator spreads it over the send's
  /// time on the wire and charges the node's tasks that overlap it.
  virtual double sendCpu(const DataItem &data, unsigned node) const {
    return 0;
  }

  /// Means over nodes / over ordered pairs of distinct nodes (HEFT ranks).
  double averageTaskTime(const Task &task, TaskId id) const;
  virtual double averageTransferTime(const DataItem &data, DataId id) const;
  unsigned totalWorkers() const;
};

/// Whether `task` streams its operands through memory, so that its time
/// falls when they are in cache (NodeSpec::hotFactor): copies, elementwise
/// ops and scalings, reductions, transposes, products on compressed rows
/// and matrix-vector products (a dgemv reads its matrix once).
bool streamsMemory(const Task &task);

/// The share of `task`'s input bytes whose reuse distance
/// (Task::inputReuse) fits in `cacheBytes`; 0 for a task that does not
/// stream memory or without a cache.
double hotInputShare(const Task &task, double cacheBytes);

class MachineCostModel : public CostModel {
public:
  explicit MachineCostModel(MachineModel model);
  unsigned numNodes() const override { return model.nodes.size(); }
  unsigned workers(unsigned node) const override {
    return model.nodes[node].workers;
  }
  unsigned communicators(unsigned node) const override {
    return model.nodes[node].communicators;
  }
  double memoryBytes(unsigned node) const override {
    return model.nodes[node].memoryBytes;
  }
  double firstTouch(unsigned node) const override {
    return model.nodes[node].firstTouch;
  }
  unsigned taskThreads(unsigned node) const override {
    return model.nodes[node].taskThreads();
  }
  double hugePageBytes(unsigned node) const override {
    return model.nodes[node].hugePageBytes;
  }
  /// A distributed_gemm takes its GangGemm.h time wherever it is asked
  /// about (it occupies its whole gang); other tasks their polynomial, its
  /// kernel's part at the node's hotFactor for the share of its inputs
  /// still in cache (hotInputShare).
  double taskTime(const Task &task, TaskId id, unsigned node) const override;
  double transferTime(const DataItem &data, DataId, unsigned from,
                      unsigned to) const override {
    return model.transferTime(from, to, data.bytes);
  }
  bool receivesOnWorkerCores(unsigned node) const override {
    return model.nodes[node].oversubscribed();
  }
  double receiveCpu(const DataItem &data, unsigned node) const override {
    return model.receiveCpuTime(node, data.bytes);
  }
  double sendCpu(const DataItem &data, unsigned node) const override {
    return model.sendCpuTime(node, data.bytes);
  }
  /// latency + bytes / bandwidth is linear in bytes, so its mean over node
  /// pairs is mean latency + bytes * mean 1/bandwidth, both computed once
  /// (the pairwise mean is quadratic in nodes and HEFT asks it per tile).
  double averageTransferTime(const DataItem &data, DataId) const override {
    return meanLatency + data.bytes * meanSecondsPerByte;
  }
  const MachineModel &machine() const { return model; }

private:
  MachineModel model;
  double gangBytes;
  double meanLatency = 0, meanSecondsPerByte = 0;
  /// Gang task times by task id (a strategy per call would be wasteful:
  /// HEFT asks for every node). One cost model serves one thread.
  mutable std::map<TaskId, double> gangTimes;
};

/// Costs given as tables: time[task][node] and a cost per data item (paid
/// whenever it crosses nodes). One worker and no memory limit per node.
class TableCostModel : public CostModel {
public:
  TableCostModel(std::vector<std::vector<double>> time,
                 std::vector<double> dataCost,
                 unsigned communicatorsPerNode = 1)
      : time(std::move(time)), dataCost(std::move(dataCost)),
        comms(communicatorsPerNode) {}
  unsigned numNodes() const override {
    return time.empty() ? 0 : time[0].size();
  }
  unsigned workers(unsigned) const override { return 1; }
  unsigned communicators(unsigned) const override { return comms; }
  double memoryBytes(unsigned) const override { return 1e300; }
  double taskTime(const Task &, TaskId id, unsigned node) const override {
    return time[id][node];
  }
  double transferTime(const DataItem &, DataId id, unsigned from,
                      unsigned to) const override {
    return from == to ? 0.0 : dataCost[id];
  }

private:
  std::vector<std::vector<double>> time;
  std::vector<double> dataCost;
  unsigned comms;
};

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_COSTMODEL_H
