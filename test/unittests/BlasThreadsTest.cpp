//===- BlasThreadsTest.cpp - The BLAS threads of a process -----*- C++ -*-===//

#include "cmmrt/BlasThreads.h"

#include <gtest/gtest.h>

#include <cblas.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

#include <sys/resource.h>

using namespace cmmrt;

extern "C" int openblas_get_num_threads(void);

namespace {

/// The process's CPU seconds so far, every thread's.
double processCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](timeval t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// A row-major n x n product on the BLAS against the plain triple loop:
/// their relative Frobenius error.
double productError(int n) {
  std::vector<double> a(size_t(n) * n), b(a.size()), c(a.size()),
      reference(a.size(), 0.0);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = std::sin(0.37 * double(i));
    b[i] = std::cos(0.11 * double(i));
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(),
              n, b.data(), n, 0.0, c.data(), n);
  for (int i = 0; i < n; ++i)
    for (int l = 0; l < n; ++l)
      for (int j = 0; j < n; ++j)
        reference[size_t(i) * n + j] +=
            a[size_t(i) * n + l] * b[size_t(l) * n + j];
  double diff = 0, norm = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    diff += (c[i] - reference[i]) * (c[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return std::sqrt(diff / norm);
}

} // namespace

TEST(BlasThreads, TheSpinIsShortenedUnlessTheUserSetsIt) {
  // Read before the first setBlasThreads of this process, which sets it
  // when the user did not (and then reads the same value back).
  const char *user = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  int expected = user ? std::atoi(user) : kBlasSpinLog2Ticks;
  const int before = openblas_get_num_threads();
  setBlasThreads(2);
  EXPECT_EQ(blasSpinLog2Ticks(), expected);
  setBlasThreads(before);
}

TEST(BlasThreads, ProductsAreRightOnTheRestartedThreads) {
  const int before = openblas_get_num_threads();
  setBlasThreads(2);
  // OpenBLAS caps the count at the cores it found.
  EXPECT_GE(openblas_get_num_threads(), 1);
  EXPECT_LT(productError(300), 1e-13);
  setBlasThreads(1);
  EXPECT_EQ(openblas_get_num_threads(), 1);
  EXPECT_LT(productError(300), 1e-13);
  setBlasThreads(before);
}

// The point of the shorter spin: once a product returns, its helper threads
// go to sleep within about 0.1 ms instead of burning a core for 0.1 s.
TEST(BlasThreads, HelpersSleepSoonAfterAProduct) {
  const int before = openblas_get_num_threads();
  setBlasThreads(2);
  if (openblas_get_num_threads() < 2 ||
      blasSpinLog2Ticks() != kBlasSpinLog2Ticks)
    GTEST_SKIP() << "needs 2 BLAS threads and the runtime's spin (threads "
                 << openblas_get_num_threads() << ", spin 2^"
                 << blasSpinLog2Ticks() << ")";
  productError(300); // wakes the helper
  double cpu = processCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  double spent = processCpuSeconds() - cpu;
  // With OpenBLAS's default 2^28 ticks the helper spins for most of the
  // 100 ms (measured: 90-100 ms of CPU); with 2^18 it is a fraction of one.
  EXPECT_LT(spent, 0.03) << "CPU seconds while the process slept";
  setBlasThreads(before);
}

// The shapes measured in BlasThreads.h (1 against 2 threads on the 2-core
// VM): those that ran slower threaded are run on one thread.
TEST(BlasThreads, ThinAndSmallProductsRunOnOneThread) {
  EXPECT_FALSE(threadsSpeedUpProduct(5000, 8, 16));   // 44 against 158 us
  EXPECT_FALSE(threadsSpeedUpProduct(8, 16, 5000));   // 43 against 89 us
  EXPECT_FALSE(threadsSpeedUpProduct(1000, 8, 1000)); // 613 against 1065 us
  EXPECT_FALSE(threadsSpeedUpProduct(2000, 20, 200)); // 385 against 689 us
  EXPECT_FALSE(threadsSpeedUpProduct(128, 128, 128)); // 86 against 95 us
  EXPECT_FALSE(threadsSpeedUpProduct(500, 500, 16));  // 172 against 214 us
  EXPECT_TRUE(threadsSpeedUpProduct(180, 180, 180));  // 238 against 187 us
  EXPECT_TRUE(threadsSpeedUpProduct(32, 64, 10000));  // 1031 against 794 us
  EXPECT_TRUE(threadsSpeedUpProduct(2000, 2000, 16)); // 3.7 against 2.3 ms
  EXPECT_TRUE(threadsSpeedUpProduct(3000, 3000, 1));  // outer: 5.9 and 4.2
}

TEST(BlasThreads, ASmallProductsScopeRestoresTheThreads) {
  const int before = openblas_get_num_threads();
  setBlasThreads(2);
  const int threads = openblas_get_num_threads(); // capped at the cores
  {
    OneBlasThreadUnlessFaster one(5000, 8, 16);
    EXPECT_EQ(openblas_get_num_threads(), 1);
  }
  EXPECT_EQ(openblas_get_num_threads(), threads);
  {
    OneBlasThreadUnlessFaster many(1000, 1000, 1000);
    EXPECT_EQ(openblas_get_num_threads(), threads);
  }
  // Products are right on one thread and back on the process's count.
  {
    OneBlasThreadUnlessFaster one(100, 100, 100);
    EXPECT_LT(productError(100), 1e-13);
  }
  EXPECT_LT(productError(300), 1e-13);
  setBlasThreads(before);
}
