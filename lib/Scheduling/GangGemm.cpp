//===- GangGemm.cpp - A product as one COSMA gang task: its cost ----------===//

#include "cmm/Scheduling/GangGemm.h"

#include "cmmrt/Plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace cmm::scheduling;

double cmm::scheduling::gangMemoryBytes(const MachineModel &machine) {
  if (double bytes = cmmrt::plan::memoryLimitFromEnvironment(); bytes > 0)
    return bytes;
  if (machine.memoryLimit > 0)
    return machine.memoryLimit;
  double smallest = std::numeric_limits<double>::infinity();
  for (const NodeSpec &node : machine.nodes)
    smallest = std::min(smallest, node.memoryBytes);
  return smallest;
}

bool cmm::scheduling::gangGemmCost(const MachineModel &machine,
                                   const std::vector<unsigned> &gang, double m,
                                   double n, double k, double memoryBytes,
                                   GangGemmCost &cost, std::string &error) {
  cost = GangGemmCost();
  if (gang.empty()) {
    error = "a distributed product needs at least one node";
    return false;
  }
  cmmrt::CosmaStrategy &s = cost.strategy;
  if (!cmmrt::computeCosmaStrategy(int64_t(m), int64_t(n), int64_t(k),
                                   int(gang.size()), memoryBytes / 8.0,
                                   cmmrt::CosmaOptions(), s, error))
    return false;
  const int used = s.usedRanks();
  // Ranks are the gang's nodes in order: rank r runs on gang[r].
  const unsigned root = gang.front();
  // The slowest link between used ranks (the per-pair links among them,
  // and the default link if some pair has none: linear in nodes, not
  // quadratic); the largest latency from the first node.
  double slowestBandwidth = std::numeric_limits<double>::infinity();
  double latency = 0;
  std::vector<bool> isUsed(machine.nodes.size(), false);
  for (int r = 0; r < used; ++r)
    isUsed[gang[r]] = true;
  double overridden = 0;
  for (const auto &[pair, link] : machine.links)
    if (isUsed[pair.first] && isUsed[pair.second]) {
      slowestBandwidth = std::min(slowestBandwidth, link.bandwidth);
      ++overridden;
    }
  if (overridden < double(used) * (used - 1))
    slowestBandwidth =
        std::min(slowestBandwidth, machine.defaultLink.bandwidth);
  for (int q = 1; q < used; ++q)
    latency = std::max(latency, machine.link(root, gang[q]).latency);
  const double share = used > 1 ? double(used - 1) / used : 0.0;
  if (used > 1) {
    cost.redistribute =
        latency + 8.0 * (m * k + k * n) / used * share / slowestBandwidth;
    cost.gather = latency + 8.0 * m * n * share / slowestBandwidth;
    cost.exchange =
        s.rounds * latency +
        8.0 * cmmrt::cosmaGridTraffic(s.m, s.n, s.k, s.gm, s.gn, s.gk) /
            slowestBandwidth;
  }
  cost.copies = 2.0 * machine.taskTime(root, CostClass::Copy, m, k) / used +
                2.0 * machine.taskTime(root, CostClass::Copy, k, n) / used +
                2.0 * machine.taskTime(root, CostClass::Copy, m, n);
  // One worker of each node runs the local product with its BLAS threads
  // (the runtime cannot lend it the other workers' threads: OpenBLAS's
  // thread count is process-wide), while the gang holds them all.
  for (int r = 0; r < used; ++r)
    cost.product =
        std::max(cost.product,
                 machine.taskTime(gang[r], CostClass::Gemm, double(s.tileM),
                                  double(s.tileN), double(s.tileK)));
  return true;
}

bool cmm::scheduling::bestGang(const MachineModel &machine, double m,
                                double n, double k, double memoryBytes,
                                std::vector<unsigned> &gang,
                                GangGemmCost &cost, std::string &error) {
  // One worker's time for the whole product on each node, the speed rank.
  std::vector<double> seconds(machine.nodes.size());
  for (unsigned node = 0; node < seconds.size(); ++node)
    seconds[node] = machine.taskTime(node, CostClass::Gemm, m, n, k);
  std::vector<unsigned> bySpeed(machine.nodes.size());
  std::iota(bySpeed.begin(), bySpeed.end(), 0u);
  std::stable_sort(bySpeed.begin(), bySpeed.end(), [&](unsigned a, unsigned b) {
    return seconds[a] < seconds[b];
  });
  // The sizes tried: every u where the next node is slower (the end of a
  // class of equally fast nodes), unless there are more than 32 such
  // classes, and powers of two, and all N: a few dozen COSMA strategies
  // even for 100,000 nodes (each costs O(N)).
  const size_t count = bySpeed.size();
  std::vector<size_t> sizes;
  for (size_t u = 1; u < count; ++u)
    if (seconds[bySpeed[u - 1]] < seconds[bySpeed[u]])
      sizes.push_back(u);
  if (sizes.size() > 32)
    sizes.clear();
  for (size_t u = 1; u < count; u *= 2)
    sizes.push_back(u);
  sizes.push_back(count);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  bool found = false;
  for (size_t u : sizes) {
    std::vector<unsigned> candidate(bySpeed.begin(), bySpeed.begin() + u);
    std::sort(candidate.begin(), candidate.end());
    if (candidate.front() != 0) { // no master: the fastest gathers
      auto fastest = std::find(candidate.begin(), candidate.end(), bySpeed[0]);
      std::rotate(candidate.begin(), fastest, fastest + 1);
    }
    GangGemmCost c;
    std::string ignored;
    if (!gangGemmCost(machine, candidate, m, n, k, memoryBytes, c, ignored))
      continue;
    if (!found || c.total() < cost.total()) {
      found = true;
      gang = std::move(candidate);
      cost = c;
    }
  }
  if (!found) {
    // The whole machine's message: the most memory any gang has.
    std::vector<unsigned> every(bySpeed);
    std::sort(every.begin(), every.end());
    gangGemmCost(machine, every, m, n, k, memoryBytes, cost, error);
  }
  return found;
}

double cmm::scheduling::tiledGemmEstimate(const MachineModel &machine, double m,
                                          double n, double k,
                                          int64_t tileSize) {
  double t = double(std::max<int64_t>(1, tileSize));
  double best = std::numeric_limits<double>::infinity();
  double whole = std::numeric_limits<double>::infinity();
  for (unsigned node = 0; node < machine.nodes.size(); ++node) {
    double tm = std::min(t, m), tn = std::min(t, n), tk = std::min(t, k);
    best =
        std::min(best, std::ceil(k / t) *
                           machine.taskTime(node, CostClass::Gemm, tm, tn, tk));
    whole = std::min(whole, machine.taskTime(node, CostClass::Gemm, m, n, k));
  }
  return std::max(best, whole / std::max(1u, machine.totalWorkers()));
}
