//===- RowBands.cpp - One task's rows on several cores ---------*- C++ -*-===//

#include "cmmrt/RowBands.h"
#include "cmmrt/ThreadPriority.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

using namespace cmmrt;

namespace {

/// Whether this thread is running a band now: a band that makes bands of
/// its own (a kernel allocating a fresh block, which populates its pages on
/// the task's threads) runs them inline, since the helpers are busy with
/// its caller's bands and would never take them.
thread_local bool inBand = false;

class InBand {
public:
  InBand() : outer(std::exchange(inBand, true)) {}
  ~InBand() { inBand = outer; }

private:
  bool outer;
};

/// `cores` as a mask (cores outside CPU_SETSIZE left out).
cpu_set_t cpuSetOf(const std::vector<int> &cores) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int core : cores)
    if (core >= 0 && core < CPU_SETSIZE)
      CPU_SET(core, &set);
  return set;
}

/// How long a helper stays awake after its band before it sleeps. A
/// helper that slept runs its next band late and slow: the scheduler often
/// wakes it on its caller's core, where it waits for the caller's band to
/// end (a 200 us band of a 2-band call after a 2 ms idle gap started its
/// helper 205 us late at the median, 20 us on a core of its own), and an
/// idle core of a VM halts and wakes cold. OpenBLAS's threads spin as long
/// after a call (cmmrt/BlasThreads.h).
constexpr std::chrono::microseconds kHelperSpin{100};

/// Helper threads that sleep until a band is theirs. They live as long as
/// the process (detached: a program's exit does not wait for them).
class BandPool {
public:
  /// Runs fn over `threads` bands of [0, rows). With `ifFree`, returns false
  /// at once (having run nothing) when another caller holds the helpers.
  bool run(int threads, int64_t rows,
           const std::function<void(int64_t, int64_t)> &fn, bool ifFree) {
    std::unique_lock<std::mutex> turn(callers, std::defer_lock);
    if (!ifFree)
      turn.lock();
    else if (!turn.try_lock())
      return false;
    grow(threads - 1);
    {
      std::lock_guard<std::mutex> lock(mutex);
      job = &fn;
      bands = threads;
      totalRows = rows;
      pending = threads - 1;
      ++generation;
      latest.store(generation, std::memory_order_release);
    }
    wake.notify_all();
    {
      InBand band;
      fn(0, bandEnd(0, threads, rows));
    }
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return pending == 0; });
    job = nullptr;
    return true;
  }

  /// Binds the helpers started so far to their cores of `cores` (helper i
  /// to cores[i]), or to the process's cores when it has none for them.
  /// Not from inside a band (the caller holds `callers`).
  void bindHelpers(const std::vector<int> &cores) {
    std::lock_guard<std::mutex> turn(callers);
    boundHelpers = int(cores.size());
    for (size_t i = 0; i < helperThreads.size(); ++i)
      bindHelper(helperThreads[i], int(i) + 1, cores);
  }

private:
  static void bindHelper(pthread_t helper, int index,
                         const std::vector<int> &cores) {
    cpu_set_t set;
    if (size_t(index) < cores.size() && cores[size_t(index)] >= 0 &&
        cores[size_t(index)] < CPU_SETSIZE)
      set = cpuSetOf({cores[size_t(index)]});
    // The main thread's cores (a pid's are its main thread's), which the
    // runtime never binds: the launcher's binding of the rank, if any.
    else if (sched_getaffinity(getpid(), sizeof set, &set) != 0)
      return;
    pthread_setaffinity_np(helper, sizeof set, &set);
  }

  static int64_t bandEnd(int band, int bands, int64_t rows) {
    return rows * (band + 1) / bands;
  }

  void grow(int helpers) {
    while (started < helpers) {
      int index = started + 1; // band 0 is the caller's
      uint64_t now;
      {
        std::lock_guard<std::mutex> lock(mutex);
        now = generation; // a helper serves the calls after its start
      }
      std::thread helper([this, index, now] { serve(index, now); });
      // Its core from the start: a helper that inherited its caller's
      // (the worker's) core would wait there for the caller's band.
      bindHelper(helper.native_handle(), index, taskCores());
      helperThreads.push_back(helper.native_handle());
      helper.detach();
      ++started;
    }
  }

  void serve(int index, uint64_t seen) {
    InBand band; // a helper runs nothing but bands
    // At normal priority even when a real-time communicator thread made it
    // (its spin would otherwise keep normal threads off its core).
    cmmrt::dropToNormalPriority();
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      // Only a helper with a core of its own spins: elsewhere it would take
      // CPU from the threads it shares a core with.
      if (generation == seen &&
          index < boundHelpers.load(std::memory_order_relaxed)) {
        // Stay awake a while, yielding the core to any other thread that
        // wants it: the next task's band then starts on this core at once
        // (kHelperSpin).
        lock.unlock();
        auto until = std::chrono::steady_clock::now() + kHelperSpin;
        while (latest.load(std::memory_order_acquire) == seen &&
               std::chrono::steady_clock::now() < until)
          std::this_thread::yield();
        lock.lock();
      }
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index >= bands)
        continue; // a call with fewer threads than there are helpers
      const std::function<void(int64_t, int64_t)> *fn = job;
      int64_t first = bandEnd(index - 1, bands, totalRows);
      int64_t end = bandEnd(index, bands, totalRows);
      lock.unlock();
      (*fn)(first, end);
      lock.lock();
      if (--pending == 0)
        done.notify_one();
    }
  }

  std::mutex callers; // one call at a time
  std::mutex mutex;
  std::condition_variable wake, done;
  const std::function<void(int64_t, int64_t)> *job = nullptr;
  int bands = 1;
  int64_t totalRows = 0;
  int pending = 0;
  uint64_t generation = 0;
  /// `generation`, for the helpers' spin to read without the mutex.
  std::atomic<uint64_t> latest{0};
  int started = 0; // helpers (touched only under `callers`)
  std::vector<pthread_t> helperThreads; // the same, by index - 1
  /// Helpers 1 .. boundHelpers - 1 have a core of their own (setTaskCores).
  std::atomic<int> boundHelpers{0};
};

std::atomic<int> threadsPerTask{1};

BandPool &pool() {
  static BandPool *p = new BandPool; // never destroyed: helpers outlive main
  return *p;
}

} // namespace

void cmmrt::setTaskThreads(int threads) {
  threadsPerTask = std::max(1, threads);
}

int cmmrt::taskThreads() { return threadsPerTask; }

namespace {
std::mutex coresMutex;
std::vector<int> &coresOfTasks() {
  static std::vector<int> *cores = new std::vector<int>; // outlives helpers
  return *cores;
}
} // namespace

void cmmrt::setTaskCores(std::vector<int> cores) {
  {
    std::lock_guard<std::mutex> lock(coresMutex);
    coresOfTasks() = cores;
  }
  pool().bindHelpers(cores);
}

std::vector<int> cmmrt::taskCores() {
  std::lock_guard<std::mutex> lock(coresMutex);
  return coresOfTasks();
}

bool cmmrt::bindThreadToCores(const std::vector<int> &cores) {
  if (cores.empty())
    return false;
  cpu_set_t set = cpuSetOf(cores);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

/// Runs fn over bands of [0, rows), or once inline when the task is small,
/// has one thread, is itself a band, or (with `ifFree`) finds the helpers
/// serving another caller.
static void runBands(int64_t rows, int64_t cols,
                     const std::function<void(int64_t, int64_t)> &fn,
                     bool ifFree) {
  int threads = int(std::min<int64_t>(taskThreads(), rows));
  if (threads <= 1 || rows * cols < kMinBandedElements || inBand ||
      !pool().run(threads, rows, fn, ifFree))
    fn(0, rows);
}

void cmmrt::forEachRowBand(int64_t rows, int64_t cols,
                           const std::function<void(int64_t, int64_t)> &fn) {
  runBands(rows, cols, fn, /*ifFree=*/false);
}

void cmmrt::forEachRowBandIfFree(
    int64_t rows, int64_t cols,
    const std::function<void(int64_t, int64_t)> &fn) {
  runBands(rows, cols, fn, /*ifFree=*/true);
}
