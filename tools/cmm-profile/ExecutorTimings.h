//===- ExecutorTimings.h - The runtime's own overheads, measured -*- C++
//-*-===//
//
// What a program pays beyond its kernels, timed through the runtime's own
// executor (cmmrt::executePlan on hand-made plans, cmmrt/PlanTables.h):
//
// * a link as a program sees it: tiles handed by a worker to the sender's
//   communicator thread, sent, received by the other rank's communicator
//   thread and stored, one after another. On this VM a 1.6 KB tile took
//   25-50 us that way against 0.4 us in an MPI ping-pong (thread hand-offs,
//   polling, each communicator serving its transfers in order), so a plan of
//   thousands of small transfers (PageRank at tile 200 on 2 ranks) was
//   predicted 4-7x fast from ping-pong links;
// * a task's hand-off: waiting for its inputs in the tile store, storing its
//   result, releasing its inputs and counting it, with the rank's
//   communicator thread waiting for a tile to send as in a run. A plan of
//   thousands of microsecond tasks (a 64 x 64 stencil at tile 38) pays this
//   on every one.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_TOOL_EXECUTORTIMINGS_H
#define CMM_PROFILE_TOOL_EXECUTORTIMINGS_H

#include <cstdint>

namespace cmm::profile {

/// What one transfer through the executor cost, per transfer.
struct TransferTiming {
  /// Seconds as the senders measured them (from the start of each send to
  /// its completion, waiting for the receiver included: what the plan's
  /// communicator timelines stand for).
  double seconds = 0;
  /// CPU seconds of the sending and the receiving rank's communicator
  /// threads (getrusage: user and system; the whole run, polling included).
  double senderCpu = 0, receiverCpu = 0;
};

/// Collective (every rank of MPI_COMM_WORLD calls it, which must have been
/// initialised with MPI_THREAD_MULTIPLE): `count` tiles of rows x cols made
/// on rank `from` and sent to rank `to` in order through the executor. On
/// rank 0, the means per transfer; elsewhere zeros.
TransferTiming executorTransfer(int from, int to, int64_t rows, int64_t cols,
                                int count);

/// Collective, as above: every rank runs a chain of `count` dependent 1 x 1
/// tasks (a fill, then scalings, each taking over its input's buffer as a
/// program's elementwise tasks do) and, with more than one rank, sends the
/// chain's last tile to the next rank, which sums it. Returns this rank's
/// run time in seconds (thread start-up and communicator set-up included:
/// callers take the slope over two counts).
double executorChainSeconds(int count);

} // namespace cmm::profile

#endif // CMM_PROFILE_TOOL_EXECUTORTIMINGS_H
