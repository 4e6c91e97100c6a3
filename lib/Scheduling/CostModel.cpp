//===- CostModel.cpp - Task times from a machine model --------------------===//

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/GangGemm.h"

#include <algorithm>
#include <cmath>
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

bool cmm::scheduling::streamsMemory(const Task &task) {
  switch (task.op) {
  case CostClass::Copy:
  case CostClass::Elementwise:
  case CostClass::Scale:
  case CostClass::Reduce:
  case CostClass::Transpose:
  case CostClass::Sparse:
  case CostClass::Fused:
    return !task.isGang();
  case CostClass::Gemm:
    return !task.isGang() && (task.m == 1 || task.n == 1);
  default:
    return false;
  }
}

double cmm::scheduling::hotInputShare(const Task &task, double cacheBytes) {
  if (!(cacheBytes > 0) || !streamsMemory(task))
    return 0;
  double all = 0, hot = 0;
  for (const Task::InputReuse &input : task.inputReuse) {
    all += input.bytes;
    if (input.distance <= cacheBytes)
      hot += input.bytes;
  }
  return all > 0 ? hot / all : 0;
}

double MachineCostModel::taskTime(const Task &task, TaskId id,
                                  unsigned node) const {
  if (!task.isGang()) {
    double t = model.taskTime(node, task.op, task.m, task.n, task.k);
    // Inputs still in the node's cache: the kernel's part at hotFactor
    // (docs/machine-model.md, "Cache reuse").
    const NodeSpec &spec = model.nodes[node];
    if (double share = hotInputShare(task, spec.cacheBytes); share > 0) {
      double overhead = std::min(t, spec.taskOverhead);
      t = overhead +
          (t - overhead) * (1 - share * (1 - std::min(1.0, spec.hotFactor)));
    }
    // The BLAS packing buffer's fresh pages, at the node's first-touch
    // price: a BLAS-3 routine's first call in a process runs up to 2-3x
    // its later ones (docs/machine-model.md, "The BLAS packing buffer");
    // a node of one task thread packs as OpenBLAS does on one.
    t += task.freshPack.bytes(spec.taskThreads()) * spec.firstTouch;
    return t;
  }
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
