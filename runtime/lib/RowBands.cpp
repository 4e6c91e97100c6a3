//===- RowBands.cpp - One task's rows on several cores ---------*- C++ -*-===//

#include "cmmrt/RowBands.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

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

private:
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
      std::thread([this, index, now] { serve(index, now); }).detach();
      ++started;
    }
  }

  void serve(int index, uint64_t seen) {
    InBand band; // a helper runs nothing but bands
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
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
  int started = 0; // helpers (touched only under `callers`)
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
