//===- CacheReuse.h - Tasks on operands still in cache ----------*- C++ -*-===//
//
// The time polynomials are fitted on operands out of cache (TaskBench reads
// a fresh copy each repetition), as most of a program's tiles are. A task
// that streams memory and reads a tile another task touched a moment ago
// runs faster: on the development VM a 1500 x 1500 dgemv took 0.43-0.51 of
// its cold time while the matrix fitted in the 32 MB last-level cache, and
// block-lu's copies of its 200 x 200 matrix 0.42-0.59. The model keeps the
// node's last-level cache (`cache_bytes`) and the measured ratio
// (`hot_factor`); MachineCostModel::taskTime applies it by reuse distance
// (Task::inputReuse; docs/machine-model.md, "Cache reuse").
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_CACHEREUSE_H
#define CMM_PROFILE_CACHEREUSE_H

#include "cmm/Profile/Fit.h"
#include "cmm/Profile/Statistics.h"
#include "cmmrt/Plan.h"

#include <functional>
#include <string>
#include <vector>

namespace cmm::profile {

/// Bytes of this machine's last-level data cache: the highest data or
/// unified level listed under `sysfsCacheDir` (cpu 0's, by default), else
/// sysconf's level 3; 0 when neither says. sysfs comes first because on a
/// virtual machine it gives the guest's share where sysconf reads the
/// host CPU's from CPUID.
double lastLevelCacheBytes(
    const std::string &sysfsCacheDir = "/sys/devices/system/cpu/cpu0/cache");

struct HotSample {
  cmmrt::plan::CostClass cost;
  Observation shape;
  double coldSeconds = 0, hotSeconds = 0; // means
};

/// Tasks that stream memory (a matrix-vector product, an elementwise add,
/// a transpose), each timed on cold copies and on the same operands
/// repeatedly, with operands that fit in a cache of `cacheBytes`;
/// `beforeEach` runs before each timing (a barrier of co-located ranks).
std::vector<HotSample> measureHotTasks(const SamplingRule &rule,
                                       double cacheBytes,
                                       const std::function<void()> &beforeEach);

/// The median over the samples of hot / cold, within [0.05, 1]; 1 without
/// samples.
double hotFactorOf(const std::vector<HotSample> &samples);

} // namespace cmm::profile

#endif // CMM_PROFILE_CACHEREUSE_H
