//===- RowBands.h - One task's rows on several cores -----------*- C++ -*-===//
//
// A node whose plan runs one worker gives it every core for BLAS (one
// multi-threaded call), but the worker's other tasks (random generation,
// fused and elementwise kernels, maps) ran on one core while the others
// idled (issue 17 item 4). Such a task splits its result's rows into bands,
// one per core: the worker runs the first, helper threads the rest. Every
// element is computed by the same code whichever band holds it, so a result
// is bit for bit the same on any number of threads.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_ROWBANDS_H
#define CMMRT_ROWBANDS_H

#include <cstdint>
#include <functional>
#include <vector>

namespace cmmrt {

/// Tasks smaller than this many elements run on their worker alone (waking
/// a helper costs tens of microseconds).
constexpr int64_t kMinBandedElements = int64_t(1) << 16;

/// The threads each task of a rank runs on: a lone worker gets the node's
/// BLAS threads, several workers one each (Debian's pthread OpenBLAS has
/// one process-wide thread count). The executor sets them; the planner's
/// first-touch charge divides a task's page faults among them.
inline int taskThreadsOf(int workers, int threadsPerWorker) {
  return workers == 1 && threadsPerWorker > 1 ? threadsPerWorker : 1;
}

/// The threads a task may use (the executor sets the node's BLAS thread
/// count when it runs one worker; 1, the default, runs every band inline).
void setTaskThreads(int threads);
int taskThreads();

/// The cores a rank's task threads run on: the worker's first, then one
/// per band helper; empty (the default): wherever the scheduler puts them.
/// The executor chooses them (Executor.cpp, taskCoresOf) before the first
/// banded call. Left to the scheduler, a helper woken after an idle gap
/// was often put on its caller's core and ran its band after the caller's
/// (DFT n = 1024 on one rank: 33.6 ms, 26.6 pinned; docs/runtime.md).
void setTaskCores(std::vector<int> cores);
std::vector<int> taskCores();
/// Binds the calling thread to `cores` (all of them: it may run on any);
/// false when `cores` is empty or the system refuses.
bool bindThreadToCores(const std::vector<int> &cores);
/// Calls fn(firstRow, endRow) over disjoint bands covering [0, rows), on up
/// to taskThreads() threads when rows x cols is at least kMinBandedElements
/// (else once, inline), and returns when all are done. Callers from several
/// threads at once take turns; a call from inside a band runs inline.
void forEachRowBand(int64_t rows, int64_t cols,
                    const std::function<void(int64_t, int64_t)> &fn);
/// The same, but runs inline instead of waiting its turn when another
/// caller holds the helper threads: for work a thread outside the task
/// threads may do (a communicator thread allocating a receive buffer), which
/// must not wait for a worker's task to finish.
void forEachRowBandIfFree(int64_t rows, int64_t cols,
                          const std::function<void(int64_t, int64_t)> &fn);

/// A row-major operand that broadcasts to a result (each dimension the
/// result's or 1): what the binary and fused kernels read.
struct BroadcastOperand {
  const double *data;
  int64_t rows, cols;
};

/// What rows [first, end) of a `rows`-row result read of `o`: its own rows
/// when it has that many, else all of it (a row or a scalar).
inline BroadcastOperand bandOf(BroadcastOperand o, int64_t rows, int64_t first,
                               int64_t end) {
  if (o.rows == rows && rows != 1)
    return {o.data + first * o.cols, end - first, o.cols};
  return o;
}

} // namespace cmmrt

#endif // CMMRT_ROWBANDS_H
