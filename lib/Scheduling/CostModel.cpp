//===- CostModel.cpp - Task times from a machine model --------------------===//

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/GangGemm.h"

#include <limits>

using namespace cmm::scheduling;

MachineCostModel::MachineCostModel(MachineModel model)
    : model(std::move(model)), gangBytes(gangMemoryBytes(this->model)) {
  // Ordered pairs of distinct nodes: the per-pair links, and the default
  // link for every other pair.
  double nodes = this->model.nodes.size();
  double pairs = nodes * (nodes - 1);
  if (pairs <= 0)
    return;
  const LinkSpec &fallback = this->model.defaultLink;
  if (this->model.links.empty()) {
    meanLatency = fallback.latency;
    meanSecondsPerByte = 1.0 / fallback.bandwidth;
    return;
  }
  double others = pairs - double(this->model.links.size());
  meanLatency = others * fallback.latency;
  meanSecondsPerByte = others / fallback.bandwidth;
  for (const auto &[pair, link] : this->model.links) {
    meanLatency += link.latency;
    meanSecondsPerByte += 1.0 / link.bandwidth;
  }
  meanLatency /= pairs;
  meanSecondsPerByte /= pairs;
}

double MachineCostModel::taskTime(const Task &task, TaskId id,
                                  unsigned node) const {
  if (!task.isGang())
    return model.taskTime(node, task.op, task.m, task.n, task.k);
  auto it = gangTimes.find(id);
  if (it != gangTimes.end())
    return it->second;
  GangGemmCost cost;
  std::string error;
  // The tiler only makes gang tasks that fit; one that does not never wins.
  double t = gangGemmCost(model, task.gangNodes, task.m, task.n, task.k,
                          gangBytes, cost, error)
                 ? cost.total()
                 : std::numeric_limits<double>::infinity();
  gangTimes.emplace(id, t);
  return t;
}
