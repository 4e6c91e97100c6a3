//===- BlasThreads.cpp - The BLAS threads of a process ---------*- C++ -*-===//

#include "cmmrt/BlasThreads.h"
#include "cmmrt/RowBands.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <pthread.h>
#include <sched.h>

// OpenBLAS's thread count (process-wide in Debian's default pthread build).
extern "C" void openblas_set_num_threads(int);

// OpenBLAS reads OPENBLAS_THREAD_TIMEOUT when the library loads, before
// main; these let a running process re-read it and restart its threads.
// Weak: with another BLAS they are null, and nothing changes.
extern "C" {
__attribute__((weak)) void openblas_read_env(void);
__attribute__((weak)) int openblas_thread_timeout(void);
__attribute__((weak)) int blas_thread_shutdown_(void);
__attribute__((weak)) int blas_thread_init(void);
}

namespace {
/// Restarts OpenBLAS's threads with a short spin (unless the user set
/// one) on the band helpers' cores (when the executor chose cores).
void restartBlasThreads() {
  if (!openblas_read_env || !blas_thread_shutdown_ || !blas_thread_init)
    return;
  setenv("OPENBLAS_THREAD_TIMEOUT",
         std::to_string(cmmrt::kBlasSpinLog2Ticks).c_str(), 0);
  // The threads read the timeout when they start: stop them (they sleep
  // before a process's first product), re-read it, start them again.
  blas_thread_shutdown_();
  openblas_read_env();
  // A thread starts with its creator's cores: make them the helpers'.
  std::vector<int> cores = cmmrt::taskCores();
  cpu_set_t own;
  bool bound = cores.size() > 1 &&
               pthread_getaffinity_np(pthread_self(), sizeof own, &own) == 0 &&
               cmmrt::bindThreadToCores({cores.begin() + 1, cores.end()});
  blas_thread_init();
  if (bound)
    pthread_setaffinity_np(pthread_self(), sizeof own, &own);
}

/// The count setBlasThreads last set (0: never called).
std::atomic<int> processBlasThreads{0};
} // namespace

void cmmrt::setBlasThreads(int threads) {
  static std::once_flag once;
  std::call_once(once, restartBlasThreads);
  openblas_set_num_threads(threads);
  processBlasThreads = threads;
}

cmmrt::OneBlasThreadUnlessFaster::OneBlasThreadUnlessFaster(long long m,
                                                            long long n,
                                                            long long k) {
  int threads = processBlasThreads;
  if (threads > 1 && !threadsSpeedUpProduct(m, n, k)) {
    openblas_set_num_threads(1);
    restore = threads;
  }
}

cmmrt::OneBlasThreadUnlessFaster::~OneBlasThreadUnlessFaster() {
  if (restore)
    openblas_set_num_threads(restore);
}

int cmmrt::blasSpinLog2Ticks() {
  return openblas_thread_timeout ? openblas_thread_timeout() : 0;
}
