//===- CacheReuse.cpp - Tasks on operands still in cache ------------------===//

#include "cmm/Profile/CacheReuse.h"
#include "cmm/Profile/TaskBench.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace cmm::profile;
using cmmrt::plan::CostClass;

/// A sysfs cache size ("32768K", "32M").
static double parseCacheSize(const std::string &text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    return 0;
  }
  char unit = used < text.size() ? text[used] : ' ';
  if (unit == 'K')
    value *= 1024;
  else if (unit == 'M')
    value *= 1024 * 1024;
  return value;
}

double cmm::profile::lastLevelCacheBytes(const std::string &sysfsCacheDir) {
  // The highest level sysfs lists (data or unified): the kernel's view,
  // which on a virtual machine is the guest's share (32 MiB on the
  // development VM, where glibc's sysconf reads the host CPU's 256 MiB from
  // CPUID; dgemv slows past 32 MiB, as sysfs says).
  double best = 0;
  int bestLevel = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir = sysfsCacheDir + "/index" + std::to_string(index);
    std::ifstream level(dir + "/level"), type(dir + "/type"),
        size(dir + "/size");
    int l = 0;
    std::string t, s;
    if (!(level >> l) || !(type >> t) || !(size >> s))
      continue;
    if (t == "Instruction")
      continue;
    if (l > bestLevel) {
      bestLevel = l;
      best = parseCacheSize(s);
    }
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (best <= 0)
    if (long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0)
      return double(l3);
#endif
  return best;
}

std::vector<HotSample>
cmm::profile::measureHotTasks(const SamplingRule &rule, double cacheBytes,
                              const std::function<void()> &beforeEach) {
  // Operands and result of each within a quarter of the cache, so that
  // another rank's share or the task's own output does not evict them.
  double side = std::floor(std::sqrt(std::max(cacheBytes, 0.0) / 4 / 8 / 3));
  side = std::min(side, 1500.0);
  std::vector<HotSample> out;
  if (side < 64)
    return out;
  const struct {
    CostClass cost;
    Observation shape;
  } kinds[] = {
      {CostClass::Gemm, {side * std::sqrt(3.0), 1, side * std::sqrt(3.0), 0}},
      {CostClass::Elementwise, {side, side, 1, 0}},
      {CostClass::Transpose,
       {side * std::sqrt(1.5), side * std::sqrt(1.5), 1, 0}},
  };
  for (const auto &kind : kinds) {
    HotSample s{kind.cost, kind.shape};
    for (bool cold : {true, false}) {
      beforeEach();
      TaskBench bench(kind.cost, int64_t(kind.shape.m), int64_t(kind.shape.n),
                      int64_t(kind.shape.k), cold);
      s.shape = bench.signature();
      double mean =
          sampleUntilConfident([&] { return bench.run(); }, rule).stats.mean();
      (cold ? s.coldSeconds : s.hotSeconds) = mean;
    }
    out.push_back(s);
  }
  return out;
}

double cmm::profile::hotFactorOf(const std::vector<HotSample> &samples) {
  std::vector<double> ratios;
  for (const HotSample &s : samples)
    if (s.coldSeconds > 0 && s.hotSeconds >= 0)
      ratios.push_back(s.hotSeconds / s.coldSeconds);
  if (ratios.empty())
    return 1;
  return std::clamp(median(ratios), 0.05, 1.0);
}
