//===- BlasThreads.h - The BLAS threads of a process -------------*- C++
//-*-===//
//
// OpenBLAS's helper threads spin after each call before they sleep, for
// 2^28 TSC ticks by default (about 0.1 s here). A program's next task is
// often not a BLAS call: a map, a fused kernel or `rand` that splits its
// rows over the node's cores (RowBands.h), whose helper then shares a core
// with a spinning BLAS thread. Measured on the 2-core development VM, DFT
// n = 1024 on one rank ran 35-41 ms with the default and 28-35 ms with
// 2^18 ticks (its prediction 28.7 ms), Gaussian process 97 -> 82 ms, PCA
// 164 -> 151 ms, neural network 1.50 -> 1.40 s (docs/runtime.md, "BLAS
// threads").
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_BLASTHREADS_H
#define CMMRT_BLASTHREADS_H

namespace cmmrt {

/// log2 of the TSC ticks OpenBLAS's threads spin after a call
/// (OPENBLAS_THREAD_TIMEOUT): about 0.1 ms at 2.4 GHz, long enough to keep
/// them awake between the products of a chain, short enough to leave the
/// cores to the task after it.
constexpr int kBlasSpinLog2Ticks = 18;

/// Sets the threads of this process's BLAS calls. The first call also
/// restarts OpenBLAS's threads (they sleep at that point; nothing happens
/// with another BLAS): with a spin of kBlasSpinLog2Ticks unless the user's
/// environment sets OPENBLAS_THREAD_TIMEOUT, and on the band helpers'
/// cores when the executor chose cores (RowBands.h, setTaskCores) before.
/// Every program and cmm-profile set their threads here, so the model is
/// measured as the programs run.
void setBlasThreads(int threads);

/// OpenBLAS's spin after a call as log2 of TSC ticks (its
/// openblas_thread_timeout()), 0 for its default or another BLAS.
int blasSpinLog2Ticks();

} // namespace cmmrt

#endif // CMMRT_BLASTHREADS_H
