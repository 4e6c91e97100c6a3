//===- Configurations.cpp - A node's workers x threads splits -------------===//

#include "cmm/Profile/Configurations.h"

#include "cmm/Profile/TaskBench.h"
#include "cmmrt/BlasThreads.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

using namespace cmm::profile;

std::vector<Split> cmm::profile::runnableSplits(unsigned cores) {
  cores = std::max(1u, cores);
  std::vector<Split> splits;
  for (unsigned t = 1; t < cores; t *= 2)
    splits.push_back({1, t});
  splits.push_back({1, cores});
  for (unsigned w = 2; w < cores; w *= 2)
    splits.push_back({w, 1});
  if (cores > 1)
    splits.push_back({cores, 1});
  return splits;
}

Sampled cmm::profile::timeSplit(Split split, int64_t size,
                                const SamplingRule &rule,
                                unsigned restoreThreads) {
  cmmrt::setBlasThreads(int(split.threads));
  // Each worker its own operands (out of cache, as TaskBench reads them).
  std::vector<std::unique_ptr<TaskBench>> benches;
  for (unsigned w = 0; w < split.workers; ++w)
    benches.push_back(std::make_unique<TaskBench>(
        cmmrt::plan::CostClass::Gemm, size, size, size));
  auto round = [&] {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (unsigned w = 1; w < split.workers; ++w)
      workers.emplace_back([&, w] { benches[w]->run(); });
    benches[0]->run();
    for (std::thread &t : workers)
      t.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  Sampled s = sampleUntilConfident(round, rule);
  cmmrt::setBlasThreads(int(restoreThreads));
  return s;
}
