//===- Configurations.h - A node's workers x threads splits -----*- C++ -*-===//
//
// Table 3 of the Julia Cloud Matrix Machine paper (section 3.6) as this
// runtime can run it: a node's cores as one worker with t BLAS threads, or
// as w single-threaded workers (OpenBLAS's thread count is process-wide, so
// the executor gives several workers one thread each). cmm-profile times
// each split with all its workers running the gemm task at once, so the
// model knows what a worker of that split does (machine model, node
// `configurations`: its gemm time relative to the fitted polynomial).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_CONFIGURATIONS_H
#define CMM_PROFILE_CONFIGURATIONS_H

#include "cmm/Profile/Statistics.h"

#include <cstdint>
#include <vector>

namespace cmm::profile {

struct Split {
  unsigned workers = 1, threads = 1;
};

/// The splits timed on `cores` cores: one worker of 1, 2, 4, ... and
/// `cores` threads, and 2, 4, ... and `cores` single-threaded workers
/// (powers of two keep a 48-core node to a dozen splits).
std::vector<Split> runnableSplits(unsigned cores);

/// `split`'s workers (threads of this process) each run the runtime's gemm
/// task on size x size x size at once; a sample is the wall time until the
/// last finishes, repeated by `rule`. OpenBLAS runs `split.threads`
/// threads meanwhile; its thread count is restored to `restoreThreads`.
Sampled timeSplit(Split split, int64_t size, const SamplingRule &rule,
                  unsigned restoreThreads);

} // namespace cmm::profile

#endif // CMM_PROFILE_CONFIGURATIONS_H
