//===- FirstTouch.cpp - The cost of writing fresh pages -------------------===//

#include "cmm/Profile/FirstTouch.h"
#include "cmm/Profile/Statistics.h"
#include "cmmrt/TileMemory.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>

using namespace cmm::profile;

static double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool FirstTouchSample::freshToHost() const {
  return firstSeconds - secondSeconds >= kFreshToHostRatio * secondSeconds;
}

std::vector<bool>
cmm::profile::freshToHostSamples(const std::vector<FirstTouchSample> &samples) {
  double slowest = 0;
  for (const FirstTouchSample &s : samples)
    slowest = std::max(slowest, s.perByte());
  std::vector<bool> fresh;
  for (const FirstTouchSample &s : samples)
    fresh.push_back(s.freshToHost() &&
                    s.perByte() >= kFreshShareOfSlowest * slowest);
  return fresh;
}

/// Whether the last `count` samples were all fresh to the host.
static bool endsFreshToHost(const std::vector<FirstTouchSample> &samples,
                            unsigned count) {
  std::vector<bool> fresh = freshToHostSamples(samples);
  return samples.size() >= count &&
         std::all_of(fresh.end() - count, fresh.end(),
                     [](bool f) { return f; });
}

std::vector<FirstTouchSample>
cmm::profile::measureFirstTouch(size_t blockBytes, unsigned minBlocks,
                                unsigned maxBlocks, bool probeReclaimed) {
  std::vector<FirstTouchSample> samples;
  std::vector<void *> blocks;
  for (unsigned b = 0; b < std::max(minBlocks, maxBlocks); ++b) {
    if (b >= minBlocks &&
        (!probeReclaimed || endsFreshToHost(samples, kReclaimedBlocks)))
      break;
    FirstTouchSample s;
    s.bytes = double(blockBytes);
    // A tile as a task makes it: from the pool, which maps it fresh (the
    // pool is empty) and populates it on the task threads.
    double t0 = now();
    void *p;
    try {
      p = cmmrt::allocateTileMemory(blockBytes);
    } catch (const std::bad_alloc &) {
      break;
    }
    std::memset(p, 1, blockBytes);
    double t1 = now();
    std::memset(p, 2, blockBytes);
    double t2 = now();
    blocks.push_back(p);
    s.firstSeconds = t1 - t0;
    s.secondSeconds = t2 - t1;
    samples.push_back(s);
  }
  for (void *p : blocks)
    cmmrt::releaseTileMemory(p, blockBytes);
  cmmrt::trimTileMemory();
  return samples;
}

double
cmm::profile::firstTouchPerByte(const std::vector<FirstTouchSample> &samples,
                                bool hostReclaims, unsigned taskThreads) {
  std::vector<bool> fresh = freshToHostSamples(samples);
  bool anyFresh = std::find(fresh.begin(), fresh.end(), true) != fresh.end();
  std::vector<double> perByte;
  for (size_t i = 0; i < samples.size(); ++i)
    if (!hostReclaims || !anyFresh || fresh[i])
      perByte.push_back(samples[i].perByte());
  if (perByte.empty())
    return 0;
  return std::max(0.0, median(std::move(perByte))) * std::max(1u, taskThreads);
}

bool cmm::profile::hostReclaimsFreedMemory() {
  // /sys/bus/virtio/devices/virtioN: `device` 0x0005 is a balloon; its
  // `features` is one '0'/'1' per feature bit, bit 5 free page reporting.
  std::error_code ec;
  for (const auto &entry :
       std::filesystem::directory_iterator("/sys/bus/virtio/devices", ec)) {
    std::string id, features;
    std::ifstream(entry.path() / "device") >> id;
    if (id != "0x0005")
      continue;
    std::ifstream(entry.path() / "features") >> features;
    if (features.size() > 5 && features[5] == '1')
      return true;
  }
  return false;
}
