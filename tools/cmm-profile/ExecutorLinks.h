//===- ExecutorLinks.h - Transfers timed through the runtime ----*- C++ -*-===//
//
// A link as a program sees it: tiles handed by a worker to the sender's
// communicator thread, sent, received by the other rank's communicator
// thread and stored, one after another, by the runtime's own executor
// (cmmrt::executePlan on a plan of fills and transfers). On this VM a
// 1.6 KB tile took 25-50 us that way against 0.4 us in an MPI ping-pong
// (thread hand-offs, polling, each communicator serving its transfers in
// order), so a plan of thousands of small transfers (PageRank at tile 200 on
// 2 ranks) was predicted 4-7x fast from ping-pong links.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_TOOL_EXECUTORLINKS_H
#define CMM_PROFILE_TOOL_EXECUTORLINKS_H

#include <cstdint>

namespace cmm::profile {

/// Collective (every rank of MPI_COMM_WORLD calls it, which must have been
/// initialised with MPI_THREAD_MULTIPLE): `count` tiles of rows x cols made
/// on rank `from` and sent to rank `to` in order through the executor. On
/// rank 0, the mean seconds per transfer as the senders measured them (from
/// the start of each send to its completion, waiting for the receiver
/// included: what the plan's communicator timelines stand for); elsewhere 0.
double executorTransferSeconds(int from, int to, int64_t rows, int64_t cols,
                               int count);

} // namespace cmm::profile

#endif // CMM_PROFILE_TOOL_EXECUTORLINKS_H
