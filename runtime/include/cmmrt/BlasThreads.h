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

/// Whether a row-major m x k by k x n dgemm runs faster on several BLAS
/// threads than on one: not when its result has fewer than
/// kMinThreadedProductColumns columns or its volume m n k is under
/// kMinThreadedProductVolume. OpenBLAS 0.3.21 on the 2-core development
/// VM, best of 200, 1 and 2 threads (us): 5000 x 16 by 16 x 8 (k-means'
/// X * C') 44 and 158; 8 x 5000 by 5000 x 16 43 and 89; 1000 x 1000 by
/// 1000 x 8 613 and 1065; 2000 x 200 by 200 x 20 385 and 689; 5000 x 5000
/// by 5000 x 8 22.8 and 25.9 ms; 128^3 86 and 95; 500 x 16 by 16 x 500
/// 172 and 214; where threads win: 180^3 238 and 187, 32 x 10000 by
/// 10000 x 64 1031 and 794, 2000 x 16 by 16 x 2000 3.7 and 2.3 ms, outer
/// products. (10000 x 64 by 64 x 32 loses 12 % threaded and stays so.)
constexpr long long kMinThreadedProductColumns = 24;
constexpr double kMinThreadedProductVolume = 160.0 * 160.0 * 160.0;
/// (Inline: the planner prices a product's packing pages by it,
/// Scheduling/BlasPack.h.)
inline bool threadsSpeedUpProduct(long long m, long long n, long long k) {
  return n >= kMinThreadedProductColumns &&
         double(m) * double(n) * double(k) >= kMinThreadedProductVolume;
}

/// Runs the BLAS calls of its scope on one thread where the process has
/// several (setBlasThreads) and threadsSpeedUpProduct(m, n, k) says no;
/// restores the count after. The process has one BLAS caller when it has
/// several BLAS threads (one worker: taskThreadsOf), so the count is its.
class OneBlasThreadUnlessFaster {
public:
  OneBlasThreadUnlessFaster(long long m, long long n, long long k);
  ~OneBlasThreadUnlessFaster();
  OneBlasThreadUnlessFaster(const OneBlasThreadUnlessFaster &) = delete;
  OneBlasThreadUnlessFaster &
  operator=(const OneBlasThreadUnlessFaster &) = delete;

private:
  int restore = 0; // the count to set back; 0: nothing changed
};

} // namespace cmmrt

#endif // CMMRT_BLASTHREADS_H
