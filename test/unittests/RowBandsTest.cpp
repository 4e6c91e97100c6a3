//===- RowBandsTest.cpp - One task's rows on several cores -----*- C++ -*-===//

#include "cmmrt/RowBands.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/Placement.h"
#include "cmmrt/Random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include <sched.h>

using namespace cmmrt;

namespace {

/// Sets the task threads for one test and puts back 1 (the default).
struct TaskThreads {
  explicit TaskThreads(int n) { setTaskThreads(n); }
  ~TaskThreads() { setTaskThreads(1); }
};

/// The bands one call makes, sorted.
std::vector<std::pair<int64_t, int64_t>> bandsOf(int64_t rows, int64_t cols) {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> bands;
  forEachRowBand(rows, cols, [&](int64_t first, int64_t end) {
    std::lock_guard<std::mutex> lock(mutex);
    bands.push_back({first, end});
  });
  std::sort(bands.begin(), bands.end());
  return bands;
}

TEST(RowBands, BandsCoverEveryRowOnce) {
  for (int threads : {1, 2, 3, 7}) {
    TaskThreads use(threads);
    for (int64_t rows : {1, 2, 5, 1000, 1001}) {
      auto bands = bandsOf(rows, kMinBandedElements);
      int64_t next = 0;
      for (auto [first, end] : bands) {
        EXPECT_EQ(first, next) << threads << " threads, " << rows << " rows";
        EXPECT_LT(first, end);
        next = end;
      }
      EXPECT_EQ(next, rows);
      EXPECT_EQ(int64_t(bands.size()), std::min<int64_t>(threads, rows));
    }
  }
}

TEST(RowBands, SmallTasksRunInline) {
  TaskThreads use(4);
  std::thread::id caller = std::this_thread::get_id(), ran;
  forEachRowBand(100, kMinBandedElements / 100 - 1,
                 [&](int64_t first, int64_t end) {
                   EXPECT_EQ(first, 0);
                   EXPECT_EQ(end, 100);
                   ran = std::this_thread::get_id();
                 });
  EXPECT_EQ(ran, caller);
}

TEST(RowBands, HelpersRunBandsOnOtherThreads) {
  TaskThreads use(3);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for (int call = 0; call < 50; ++call)
    forEachRowBand(300, kMinBandedElements, [&](int64_t, int64_t) {
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
  EXPECT_EQ(threads.size(), 3u);
}

// Callers on several threads at once take turns; every call sees all of
// its own rows.
TEST(RowBands, ConcurrentCallersEachGetTheirRows) {
  TaskThreads use(2);
  std::atomic<int64_t> wrong{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int call = 0; call < 200; ++call) {
        std::atomic<int64_t> rows{0};
        forEachRowBand(64, kMinBandedElements, [&](int64_t first, int64_t end) {
          rows += end - first;
        });
        wrong += rows != 64;
      }
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(wrong, 0);
}

// A random matrix and a map are the same bits on 1 and on 3 threads.
TEST(RowBands, ResultsDoNotDependOnTheThreadCount) {
  Matrix one(517, 301), three(517, 301);
  fillRandom(one, /*normal=*/false, 3, 4);
  mapInPlace(MapFn::Tanh, one);
  {
    TaskThreads use(3);
    fillRandom(three, /*normal=*/false, 3, 4);
    forEachRowBand(three.rows(), three.cols(), [&](int64_t first, int64_t end) {
      mapValues(MapFn::Tanh, three.data() + first * three.cols(),
                (end - first) * three.cols());
    });
  }
  for (int64_t e = 0; e < one.size(); ++e)
    ASSERT_EQ(one.values()[e], three.values()[e]) << e;
}

// Every broadcast kind of a binary op, and a transpose, computed in bands
// on 3 threads equal the whole-matrix kernels bit for bit (bands of 1 row
// included: 3 rows on 3 threads).
TEST(RowBands, BandedKernelsEqualTheWholeOnes) {
  TaskThreads use(3);
  for (int64_t rows : {3, 41}) {
    const int64_t cols = kMinBandedElements / 3 + 7;
    Matrix full(rows, cols), row(1, cols), column(rows, 1), scalar(1, 1);
    fillRandom(full, false, 1, 1);
    fillRandom(row, false, 1, 2);
    fillRandom(column, false, 1, 3);
    fillRandom(scalar, false, 1, 4);
    const std::pair<const Matrix *, const Matrix *> pairs[] = {
        {&full, &full},   {&full, &row},    {&row, &full},
        {&full, &column}, {&column, &full}, {&full, &scalar},
        {&scalar, &full}, {&row, &column},  {&column, &row}};
    for (BinaryFn fn : {BinaryFn::Div, BinaryFn::Pow, BinaryFn::Mod}) {
      for (auto [a, b] : pairs) {
        Matrix whole = broadcast(fn, *a, *b);
        Matrix banded(whole.rows(), whole.cols(), -1.0);
        forEachRowBand(banded.rows(), banded.cols(),
                       [&](int64_t first, int64_t end) {
                         broadcastRows(fn, *a, *b, banded, first, end);
                       });
        ASSERT_EQ(std::memcmp(whole.data(), banded.data(),
                              sizeof(double) * whole.size()),
                  0)
            << rows << " rows, " << a->rows() << "x" << a->cols() << " with "
            << b->rows() << "x" << b->cols();
      }
    }
    Matrix t = transpose(full), banded(cols, rows, -1.0);
    forEachRowBand(cols, rows, [&](int64_t first, int64_t end) {
      transposeRows(full, banded, first, end);
    });
    ASSERT_EQ(std::memcmp(t.data(), banded.data(), sizeof(double) * t.size()),
              0);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; j += 97)
        ASSERT_EQ(banded(j, i), full(i, j)); // the oracle: the definition
  }
}

// A band that makes bands of its own (a kernel whose result needs a fresh
// block, which the pool populates in bands) runs them inline: the helpers
// are busy with its caller's bands. Before, this waited forever.
TEST(RowBands, BandsInsideABandRunInline) {
  TaskThreads use(2);
  std::atomic<int64_t> innerRows{0}, innerCalls{0};
  forEachRowBand(2, kMinBandedElements, [&](int64_t, int64_t) {
    std::thread::id self = std::this_thread::get_id();
    forEachRowBand(64, kMinBandedElements, [&](int64_t first, int64_t end) {
      EXPECT_EQ(std::this_thread::get_id(), self);
      innerRows += end - first;
      ++innerCalls;
    });
  });
  EXPECT_EQ(innerRows, 2 * 64);
  EXPECT_EQ(innerCalls, 2);
}

// forEachRowBandIfFree does not wait for another caller's bands: with the
// helpers held by a task that cannot finish yet, it runs inline at once.
TEST(RowBands, IfFreeRunsInlineWhileTheHelpersAreBusy) {
  TaskThreads use(2);
  std::atomic<int> started{0};
  std::atomic<bool> release{false};
  std::thread busy([&] {
    forEachRowBand(2, kMinBandedElements, [&](int64_t, int64_t) {
      ++started;
      while (!release)
        std::this_thread::yield();
    });
  });
  while (started < 2)
    std::this_thread::yield();
  std::thread::id caller = std::this_thread::get_id(), ran;
  int calls = 0;
  forEachRowBandIfFree(64, kMinBandedElements, [&](int64_t first, int64_t end) {
    EXPECT_EQ(first, 0);
    EXPECT_EQ(end, 64);
    ran = std::this_thread::get_id();
    ++calls;
  });
  EXPECT_FALSE(release); // it returned while the helpers were still held
  release = true;
  busy.join();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(ran, caller);
  // With the helpers free it bands as forEachRowBand does.
  std::atomic<int> bands{0};
  forEachRowBandIfFree(64, kMinBandedElements,
                       [&](int64_t, int64_t) { ++bands; });
  EXPECT_EQ(bands, 2);
}

} // namespace

TEST(RowBands, HelpersRunOnTheirTaskCores) {
  std::vector<int> cores = allowedCores();
  if (cores.size() < 2)
    GTEST_SKIP() << "needs 2 cores, this thread may use " << cores.size();
  TaskThreads threads(2);
  // Helpers made before and after the cores are set are both bound.
  bandsOf(1 << 9, 1 << 9);
  std::vector<int> mine = {cores[1], cores[0]};
  setTaskCores(mine);
  EXPECT_EQ(taskCores(), mine);
  std::atomic<int> helperCore{-1};
  forEachRowBand(1 << 9, 1 << 9, [&](int64_t first, int64_t) {
    if (first != 0)
      helperCore = sched_getcpu();
  });
  EXPECT_EQ(helperCore.load(), cores[0]);
  // The caller binds itself (the executor's worker does).
  ASSERT_TRUE(bindThreadToCores({cores[1]}));
  EXPECT_EQ(sched_getcpu(), cores[1]);
  EXPECT_EQ(allowedCores(), std::vector<int>{cores[1]});
  EXPECT_TRUE(bindThreadToCores(cores));
  // No cores: helpers run on the process's (its main thread's) again.
  setTaskCores({});
  std::atomic<int> helperCores{0};
  forEachRowBand(1 << 9, 1 << 9, [&](int64_t first, int64_t) {
    if (first != 0)
      helperCores = int(allowedCores().size());
  });
  EXPECT_EQ(size_t(helperCores.load()), cores.size());
  EXPECT_FALSE(bindThreadToCores({}));
}
