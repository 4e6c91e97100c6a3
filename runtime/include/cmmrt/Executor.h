//===- Executor.h - Run a plan on MPI ranks ---------------------*- C++ -*-===//
//
// The main function of every generated program. One MPI rank per node of
// the plan (a plan for N nodes refuses any other rank count); on each rank:
//
// * a tile store holding the node's tile copies ("slots"), each released
//   after its last local use (the plan's eviction), counting cache hits;
// * W worker threads running the node's tasks in schedule order, each
//   waiting for its inputs, with the plan's BLAS thread count;
// * C communicator threads, each serving its share of the plan's sends and
//   receives in schedule order over the pool of duplicated communicators
//   (MPI_THREAD_MULTIPLE). A receive or send that does not complete within
//   the timeout (default 60 s) aborts the job with a message naming the
//   rank, the tile, the task that needs it and its source line;
// * rank 0 gathers printed and saved matrices and writes each output, in
//   source order, as soon as it and those before it are complete
//   (cmmrt/Outputs.h); SIGTERM or SIGINT ends the run after writing the
//   outputs complete by then, with status 128 + the signal's number.
//
// Options of a generated program: --stats (predicted vs measured makespan,
// bytes moved, cache hits, and task time per cost class, so a user sees
// which term of the model is off), --recv-timeout=SECONDS,
// --comm-priority=normal|realtime (CMM_COMM_PRIORITY),
// --bind-threads=cores|none (CMM_BIND_THREADS), --dump-prints=DIR
// (each printed matrix also as DIR/print<N>.npy, as the interpreter's
// --dump-prints). CMM_TRACE=file.json writes the measured schedule as Chrome
// trace events; CMM_RECV_TIMEOUT sets the timeout.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_EXECUTOR_H
#define CMMRT_EXECUTOR_H

#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cmmrt {
namespace trace {
class EventList;
} // namespace trace

class Environment;

struct ExecOptions {
  double recvTimeout = 60.0; // seconds a receive or send may wait
  std::string trace;         // CMM_TRACE: Chrome trace events file
  /// Gather printed matrices whole (for --dump-prints); otherwise a print
  /// keeps only its line, made from the tiles.
  bool keepPrinted = false;
  /// Communicator threads at real-time priority where permitted
  /// (cmmrt/ThreadPriority.h; --comm-priority=realtime, CMM_COMM_PRIORITY;
  /// off by default: docs/runtime.md, "Communicator priority").
  bool realtimeCommunicators = false;
  /// A rank's lone worker and its band helpers (and OpenBLAS's threads)
  /// bound to cores of their own where the host has them (RowBands.h,
  /// setTaskCores; --bind-threads=cores|none, CMM_BIND_THREADS).
  bool bindThreads = true;
  /// Rank 0 writes the program's outputs while the run goes on
  /// (cmmrt/Outputs.h), as generated programs do; without it (tests) they
  /// are only collected in ExecResult.
  bool writeOutputs = false;
  /// With writeOutputs: every printed matrix also as DIR/print<N>.npy
  /// (--dump-prints; needs keepPrinted).
  std::string dumpPrints;
  /// The number the first matrix this run dumps gets (print<N>.npy): a
  /// program of several plans numbers its prints as the interpreter does.
  int firstDumpedPrint = 0;
  /// A segment of a program with run-time control flow (cmmrt/Program.h):
  /// its import ops read this environment (rank 0) and transfers of their
  /// tiles are kept on the receiving nodes.
  Environment *environment = nullptr;
  /// The trip numbers of the run-time loops around the segment, outermost
  /// first: rand mixes them into its call id (cmmrt/Random.h).
  std::vector<int64_t> iterations;
  /// With `trace`, in a program of several plan runs (cmmrt/Program.h): the
  /// run's events are added to this list on rank 0 instead of written, at
  /// their time since `traceStart`, each with `segment` and the `trip`
  /// numbers in its args; the program writes the list once at its end.
  trace::EventList *traceSink = nullptr;
  std::chrono::steady_clock::time_point traceStart;
  int traceSegment = -1;
};

/// Writes `events` as a Chrome trace document to `path` (CMM_TRACE); a
/// failure is a warning from `rank`.
void writeTraceFile(const std::string &path, const trace::EventList &events,
                    int rank);

/// The task time of one cost class (or of the transfers), summed over the
/// workers of every rank: what the plan predicted and what was measured.
struct ClassTime {
  long long tasks = 0;
  double predicted = 0, measured = 0;
};

/// What one rank saw; the counters summed over ranks on rank 0.
struct ExecResult {
  std::map<int32_t, Matrix> gathered;     // rank 0: gathered matrices by op
  /// The export tiles this rank keeps, by the index of their task: a value
  /// of one tile on the master, or the pieces of a value kept where they
  /// were made (no copy; the other exports are in `gathered`).
  std::map<int32_t, std::shared_ptr<const Matrix>> exported;
  std::map<int32_t, std::string> printed; // rank 0: print lines by op
  /// Rank 0 with writeOutputs: every output was written (else an error was
  /// reported on stderr).
  bool outputsWritten = true;
  long long bytesSent = 0, bytesReceived = 0, cacheHits = 0, tasks = 0;
  long long liveSlots = 0; // tile copies still held after the run
  /// Transfers sent, and those skipped because the receiver kept the tile
  /// from an earlier segment (Program.h), counted at the senders.
  long long transfers = 0, transfersKept = 0;
  /// Rank 0: the number the next dumped print gets.
  int dumpedPrints = 0;
  /// Summed over ranks: tiles kept compressed for matrix-vector products,
  /// their nonzeros and elements, and the products run on them
  /// (cmmrt/SparseRows.h).
  long long sparseTiles = 0, sparseNonzeros = 0, sparseElements = 0;
  long long sparseProducts = 0;
  /// Communicator threads started, and those of them at real-time priority.
  long long communicators = 0, realtimeCommunicators = 0;
  /// CPU seconds (user and system, getrusage) of the worker threads (their
  /// BLAS threads not included), of the communicator threads and of the
  /// whole processes (start-up included), summed over ranks: on a node
  /// without a spare core, what the communicators use is the workers' loss.
  double workerCpuSeconds = 0, communicatorCpuSeconds = 0;
  double processCpuSeconds = 0;
  /// This rank's communicator CPU seconds alone (not summed over ranks).
  double ownCommunicatorCpuSeconds = 0;
  double seconds = 0; // the slowest rank's run time
  /// Rank 0: by CostClass; the last entry the transfers (measured at the
  /// sender, from the send's start to its completion).
  std::vector<ClassTime> byClass;

  /// Adds the counters of a later run (a program's next segment run):
  /// sums, except the live slots and the process CPU seconds, which are the
  /// later run's. The outputs themselves are not merged.
  void add(const ExecResult &later);
};

/// The run itself, for tests: MPI is initialized with MPI_THREAD_MULTIPLE
/// and MPI_COMM_WORLD has `plan.nodes` ranks. A failure (a task error, a
/// timeout) prints its message and aborts the job.
void executePlan(const plan::Plan &plan, const ExecOptions &options,
                 ExecResult &result);

/// MPI_COMM_WORLD's number of ranks (MPI initialized): the node count of
/// the plans executePlan runs there.
int worldSize();

} // namespace cmmrt

#endif // CMMRT_EXECUTOR_H
