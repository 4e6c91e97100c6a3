//===- Executor.cpp - Run a plan on MPI ranks -------------------*- C++ -*-===//

#include "cmmrt/Executor.h"

#include "cmmrt/BlasThreads.h"
#include "cmmrt/ChromeTrace.h"
#include "cmmrt/DistributedGemm.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Outputs.h"
#include "cmmrt/Placement.h"
#include "cmmrt/Program.h"
#include "cmmrt/Random.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/Startup.h"
#include "cmmrt/TaskKernels.h"
#include "cmmrt/ThreadPriority.h"
#include "cmmrt/ThreadTeam.h"
#include "cmmrt/TileMemory.h"
#include "cmmrt/TraceLayout.h"

#include <fcntl.h>
#include <mpi.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

using Clock = std::chrono::steady_clock;

/// Polls `request` until it completes or `timeout` passes; a point-to-
/// point request is cancelled then (a collective one cannot be: the caller
/// ends the job). `status`, if given, receives the request's status.
bool complete(MPI_Request &request, double timeout, bool collective = false,
              MPI_Status *status = nullptr);

/// A generated program's command line and environment.
struct Options : ExecOptions {
  bool stats = false;
  bool strictPlacement = false; // crowded hosts are an error
};

/// One measured interval for CMM_TRACE.
struct TraceEvent {
  std::string name, category;
  int thread; // the trace's thread id (cmmrt/TraceLayout.h)
  double start, finish;
  int32_t task = -1; // a task's index in the plan (its args: class, m, n, k)
};

class Executor {
public:
  Executor(const Plan &plan, const ExecOptions &options, int rank)
      : plan(plan), options(options), rank(rank), slots(plan.numSlots),
        remainingUses(plan.numSlots), reads(plan.numSlots) {
    for (int32_t s = 0; s < plan.numSlots; ++s)
      remainingUses[s] = plan.slots[s].uses;
    if (rank == 0 && options.writeOutputs)
      writer = std::make_unique<OutputWriter>(plan, options.dumpPrints,
                                              options.firstDumpedPrint);
    // Tiles that several matrix-vector products here read as their matrix
    // may be kept compressed too (SparseRows.h), if sparse enough for that
    // many products.
    for (int32_t t = 0; t < plan.numTasks; ++t) {
      const Task &task = plan.tasks[t];
      int input = vectorProductMatrixInput(plan, task);
      int32_t s = input >= 0 ? plan.inputs[task.firstInput + input] : -1;
      if (task.node == rank && s >= 0 &&
          plan.slots[s].rows * plan.slots[s].cols >= kMinSparseElements)
        ++vectorProductReads[s];
    }
    for (int32_t t = 0; t < plan.numTasks; ++t) {
      const Task &task = plan.tasks[t];
      if (task.kind != TaskKind::Load)
        continue;
      // Imports come from the environment (importedTile), not a file.
      if (plan.ops[task.op].code == OpCode::Import) {
        if (task.numOutputs == 1)
          importOf[task.firstOutput] = task.op;
      } else if (task.node == rank) {
        ++loadTilesLeft[task.op];
      }
    }
    // A tile sent twice to one node in this plan goes twice: only the first
    // transfer may be skipped in a later segment.
    std::set<std::tuple<int32_t, int32_t>> seen;
    for (int32_t i = 0; i < plan.numTransfers; ++i) {
      const Transfer &x = plan.transfers[i];
      if (importOf.count(x.source) && !seen.insert({x.source, x.to}).second)
        sentAgain.insert(i);
    }
  }

  /// Runs this rank's share of the plan; the seconds from the moment every
  /// rank was ready (the barrier after the communicators are made) to the
  /// last of this rank's threads finishing.
  double run();
  /// Counters summed on rank 0, the gathered matrices, the slowest time.
  void collect(double seconds, ExecResult &result);
  void writeTrace();
  /// A stop signal arrived (rank 0): writes the outputs complete by now and
  /// says how many of the program's were written, for the message.
  std::string writeOnStop();

private:
  /// Ends the job. On rank 0, the outputs of the program before `op` that
  /// are complete are written first, in source order (as the interpreter
  /// writes what came before a run-time error).
  [[noreturn]] void fail(const std::string &message, int32_t op = -1);
  /// Rank 0, writing outputs: those complete before op `before`, in
  /// source order, from the first not yet written (OutputWriter).
  void writeCompleteOutputs(int32_t before);
  /// Rank 0, a task of op `op` failed: the failure is reported once the
  /// outputs before `op` (which never depend on it) are complete, so they
  /// are written first, as the interpreter writes them (run() waits for
  /// that, at most half the receive timeout). The task's outputs are
  /// poisoned: tasks reading them are skipped and poison theirs.
  void deferFailure(const std::string &message, int32_t op);
  /// Whether every output before op `before` is printed or gathered.
  bool outputsCompleteBefore(int32_t before) const;
  bool isPoisoned(const std::shared_ptr<const Matrix> &tile) const {
    return tile == poison;
  }
  void poisonOutputs(const Task &task);
  /// A thread of run() is done.
  void finished();
  std::shared_ptr<const Matrix> waitFor(int32_t slot);
  /// An input `task` may overwrite (taken out of the store), or -1.
  int stealableInput(const Task &task,
                     const std::vector<std::shared_ptr<const Matrix>> &held);
  /// Stores `tile` (a result, a received copy or poison) in `slot` and
  /// wakes the threads waiting for it, if any.
  void put(int32_t slot, std::shared_ptr<const Matrix> tile);
  void put(int32_t slot, Matrix value) {
    put(slot, std::make_shared<const Matrix>(std::move(value)));
  }
  void release(int32_t slot);
  /// Runs worker `w`'s tasks; an allocation failing outside a kernel
  /// (whose own failures are the task's error) ends the job at the task.
  void worker(int w);
  /// The loop of worker(): `current` is the task it is at.
  void workerTasks(int w, int32_t &current);
  /// A distributed_gemm: every rank of its gang runs it together. When an
  /// input is `poisoned` on any of them, every one skips it (and the gang's
  /// first poisons the result), so the gang's collectives stay in step.
  void distributedGemm(const Task &task, const std::vector<TileRef> &inputs,
                       bool poisoned);
  void communicator(int c);
  /// Whether communicator thread `c` of this rank sends or receives `x`.
  bool serves(int c, const Transfer &x) const {
    return (x.from == rank && x.sendComm == c) ||
           (x.to == rank && x.recvComm == c);
  }
  void transfer(const Transfer &x, int32_t index);
  bool loadWhole(int32_t op, std::shared_ptr<const Matrix> &out,
                 std::string &error);
  double now() const {
    return std::chrono::duration<double>(Clock::now() - begin).count();
  }
  void record(TraceEvent e) {
    if (options.trace.empty())
      return;
    std::lock_guard<std::mutex> lock(traceMutex);
    events.push_back(std::move(e));
  }
  /// Worker `w` ran `task` from `start` to now: counted, timed by its cost
  /// class (--stats) and traced.
  void taskDone(const Task &task, int w, double start) {
    double end = now();
    ++tasksRun;
    countTime(unsigned(task.cost), end - start);
    record({task.name, "task", trace::workerThread(w), start, end,
            int32_t(&task - plan.tasks)});
  }
  /// One more task (or send: the last entry) of `entry` in byClass.
  void countTime(size_t entry, double seconds) {
    std::lock_guard<std::mutex> lock(statsMutex);
    ++byClass[entry].tasks;
    byClass[entry].measured += seconds;
  }
  /// The first task that reads `slot` on its node (-1: none), for messages.
  int32_t readerOf(int32_t slot) const;
  /// Ends the job for a tile of `slot` that could not be moved: the error
  /// is reported at the task that needs it.
  [[noreturn]] void failTransfer(int32_t slot, const std::string &message);

  const Plan &plan;
  const ExecOptions &options;
  int rank;
  // Once per process: a program with run-time control flow runs a plan per
  // segment and trip.
  static inline const double physicalBytes = [] {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? double(pages) * double(size) : 1e18;
  }();
  Clock::time_point begin = Clock::now();

  std::mutex mutex;
  std::condition_variable ready;
  std::vector<std::shared_ptr<const Matrix>> slots;
  std::vector<int32_t> remainingUses;
  /// The tiles of this rank that matrix-vector products read as their
  /// matrix, and how many (set at construction, read-only after).
  std::map<int32_t, int32_t> vectorProductReads;
  /// The compressed forms of those tiles that a product has asked for, kept
  /// as long as the tile (under `mutex`).
  std::map<int32_t, std::shared_ptr<SparseOperand>> sparseForms;
  /// The process's counts before this run (tests run several in one).
  SparseStats sparseAtStart = sparseStats();
  /// The compressed form of slot `s`, which `tile` holds, for a
  /// matrix-vector product (made on first request), or null when it is not
  /// a candidate.
  std::shared_ptr<SparseOperand> sparseFormOf(int32_t s, const Matrix &tile);
  std::vector<std::atomic<int32_t>> reads;
  std::vector<bool> received = std::vector<bool>(plan.numSlots, false);
  /// Threads waiting in waitFor for each slot (put wakes them).
  std::vector<int32_t> waiters = std::vector<int32_t>(plan.numSlots, 0);

  /// The slots import tasks make (Program.h), with their op: their
  /// transfers are kept on the receiving node across segments.
  std::map<int32_t, int32_t> importOf;
  std::set<int32_t> sentAgain; // transfers of such a tile after its first
  /// The key of transfer `x`'s tile in the environment's transfer cache,
  /// when it is a tile of an import sent straight from the import.
  bool cacheKey(const Transfer &x, TileKey &key) const;
  /// The tile an import task makes (Program.h), without copying where it
  /// can; null if the environment does not have it.
  std::shared_ptr<const Matrix> importedTile(const Task &task);

  std::mutex loadMutex;
  std::map<int32_t, std::shared_ptr<const Matrix>> loaded;
  std::map<int32_t, int32_t> loadTilesLeft;

  std::vector<MPI_Comm> comms;
  /// Distributed products of plans that name no gang (written by hand):
  /// every node, node 0 first.
  MPI_Comm gangComm = MPI_COMM_NULL;
  /// The communicator of each gang a generated plan names (by its nodes in
  /// rank order; MPI_COMM_NULL where this rank is not in it).
  std::map<std::vector<int32_t>, MPI_Comm> gangComms;
  std::vector<int32_t> gangOf(const Task &task) const {
    return {plan.gangNodes + task.firstGangNode,
            plan.gangNodes + task.firstGangNode + task.numGangNodes};
  }
  MPI_Comm gangCommunicator(const Task &task) const {
    return task.numGangNodes ? gangComms.at(gangOf(task)) : gangComm;
  }
  int tagLimit = 32767; // MPI_TAG_UB + 1, at least 32768 by the standard
  std::map<int32_t, Matrix> results;      // rank 0: gathered matrices by op
  /// The export tiles kept on this rank, by task (ExecResult::exported).
  std::map<int32_t, std::shared_ptr<const Matrix>> exported;
  std::map<int32_t, std::string> printed; // rank 0: print lines by op
  long long outputsStored = 0; // entries of `results` and `printed` so far
  /// Rank 0 with options.writeOutputs: writes each output as soon as it and
  /// those before it are complete (the main thread, while the workers run);
  /// outputMutex is taken before `mutex`, never after.
  std::unique_ptr<OutputWriter> writer;
  std::mutex outputMutex;
  /// Stands in the slots of results a failed task did not produce.
  const std::shared_ptr<const Matrix> poison = std::make_shared<Matrix>();
  int32_t failedOp = -1; // rank 0: the earliest failed op (program order)
  std::string failedMessage;
  std::atomic<bool> ending{false};  // fail() was called: the first call wins
  std::condition_variable progress; // an output done, a thread done, a failure
  int threadsDone = 0;
  /// Communicator threads running at their priority (run() starts the
  /// workers after them).
  int communicatorsUp = 0;
  std::condition_variable communicatorUp;
  /// The cores the process may run on (the main thread's), for a kept
  /// worker thread an earlier run bound to one of them.
  std::vector<int> processCores;

  std::atomic<long long> bytesSent{0}, bytesReceived{0}, cacheHits{0};
  std::atomic<long long> tasksRun{0};
  std::atomic<long long> transfersSent{0}, transfersKept{0};
  std::atomic<long long> communicatorsRun{0}, realtimeCommunicators{0};
  /// CPU seconds (user and system) the calling thread, or with
  /// RUSAGE_SELF the whole process, has used.
  static double cpuSeconds(int who = RUSAGE_THREAD);
  /// Adds the CPU seconds the calling thread used since it had used
  /// `before` to `total` (under statsMutex): threads are kept across runs.
  void addThreadCpu(double &total, double before);
  std::mutex statsMutex;
  double workerCpu = 0, communicatorCpu = 0; // this rank's threads, summed
  /// Measured on this rank, by CostClass; the last entry the sends.
  std::vector<ClassTime> byClass{kNumCostClasses + 1};
  std::mutex traceMutex;
  std::vector<TraceEvent> events;
};

void Executor::writeCompleteOutputs(int32_t before) {
  if (!writer)
    return;
  std::lock_guard<std::mutex> hold(outputMutex);
  // Entries of the maps stay where they are while others are added, so
  // they are written with `mutex` free for the workers.
  writer->writeComplete(before, [&](int32_t op) {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto line = printed.find(op); line != printed.end())
      return CompleteOutput{&line->second, nullptr};
    if (auto matrix = results.find(op); matrix != results.end())
      return CompleteOutput{nullptr, &matrix->second};
    return CompleteOutput{};
  });
}

std::string Executor::writeOnStop() {
  if (!writer)
    return "";
  writeCompleteOutputs(INT32_MAX);
  std::lock_guard<std::mutex> hold(outputMutex);
  return "; " + std::to_string(writer->written()) + " of the program's " +
         std::to_string(plan.numOutputs) + " output(s) were written";
}

void Executor::fail(const std::string &message, int32_t op) {
  // Two threads failing at once would write the outputs twice: the first
  // ends the job, the others wait for MPI_Abort to end them.
  if (ending.exchange(true))
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  std::string what = message;
  if (rank == 0) {
    // A failure already deferred is the cause of whatever comes after it
    // (a timeout waiting for data it never produced): report that one.
    std::lock_guard<std::mutex> lock(mutex);
    if (failedOp >= 0 && (op < 0 || failedOp <= op)) {
      op = failedOp;
      what = failedMessage;
    }
  }
  if (rank == 0 && op >= 0)
    writeCompleteOutputs(op);
  if (op >= 0 && what.rfind(sourceLocation(plan, op) + ":", 0) == 0)
    what += sourceExcerpt(plan, op);
  std::fprintf(stderr, "cmm: rank %d: %s\n", rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void Executor::deferFailure(const std::string &message, int32_t op) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    // The earliest in program order is the one the interpreter reports.
    if (failedOp < 0 || op < failedOp) {
      failedOp = op;
      failedMessage = message;
    }
  }
  progress.notify_all();
}

bool Executor::outputsCompleteBefore(int32_t before) const {
  for (int32_t i = 0; i < plan.numOutputs; ++i) {
    int32_t index = plan.outputs[i];
    if (index >= before)
      break;
    if (plan.ops[index].code != OpCode::PrintScalar && !printed.count(index) &&
        !results.count(index))
      return false;
  }
  return true;
}

void Executor::poisonOutputs(const Task &task) {
  for (int32_t o = 0; o < task.numOutputs; ++o)
    put(task.firstOutput + o, poison);
}

void Executor::finished() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++threadsDone;
  }
  progress.notify_all();
}

int32_t Executor::readerOf(int32_t slot) const {
  int32_t node = plan.slots[slot].node;
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.node != node)
      continue;
    for (int32_t i = 0; i < task.numInputs; ++i)
      if (plan.inputs[task.firstInput + i] == slot)
        return t;
  }
  // Only forwarded from there: the transfer that takes it on.
  for (int32_t i = 0; i < plan.numTransfers; ++i)
    if (plan.transfers[i].source == slot)
      return readerOf(plan.transfers[i].target);
  return -1;
}

void Executor::failTransfer(int32_t slot, const std::string &message) {
  int32_t t = readerOf(slot);
  if (t < 0)
    fail("error: " + message);
  // Not fail(..., op): on rank 0 a timeout is the consequence of a failure
  // deferred there, if any (fail reports that one).
  const Task &task = plan.tasks[t];
  fail(taskError(plan, task.op, task.name, message) +
       sourceExcerpt(plan, task.op));
}

std::shared_ptr<const Matrix> Executor::waitFor(int32_t slot) {
  std::unique_lock<std::mutex> lock(mutex);
  if (slots[slot] == nullptr) {
    ++waiters[slot];
    ready.wait(lock, [&] { return slots[slot] != nullptr; });
    --waiters[slot];
  }
  if (received[slot] && reads[slot].fetch_add(1) > 0)
    ++cacheHits; // a received tile read again: no second transfer
  return slots[slot];
}

void Executor::put(int32_t slot, std::shared_ptr<const Matrix> tile) {
  bool awaited;
  {
    std::lock_guard<std::mutex> lock(mutex);
    slots[slot] = std::move(tile);
    awaited = waiters[slot] > 0;
  }
  // Only when a thread waits for this tile: waking every waiting thread on
  // every store (a communicator waiting for the tile it sends next woke on
  // each of thousands of small tasks) takes the cores the workers run on.
  if (awaited)
    ready.notify_all();
}

void Executor::release(int32_t slot) {
  std::lock_guard<std::mutex> lock(mutex);
  if (--remainingUses[slot] <= 0) {
    slots[slot].reset(); // the plan's eviction: the last local use is done
    sparseForms.erase(slot);
  }
}

std::shared_ptr<SparseOperand> Executor::sparseFormOf(int32_t s,
                                                      const Matrix &tile) {
  auto reads = vectorProductReads.find(s);
  if (reads == vectorProductReads.end())
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<SparseOperand> &form = sparseForms[s];
  if (!form)
    form = std::make_shared<SparseOperand>(tile, reads->second);
  return form;
}

bool Executor::loadWhole(int32_t op, std::shared_ptr<const Matrix> &out,
                         std::string &error) {
  std::lock_guard<std::mutex> lock(loadMutex);
  auto it = loaded.find(op);
  if (it == loaded.end()) {
    auto m = std::make_shared<Matrix>();
    if (!readMatrix(plan.ops[op].text, *m, error))
      return false;
    it = loaded.emplace(op, std::move(m)).first;
  }
  out = it->second;
  if (--loadTilesLeft[op] <= 0) // every tile of the file is cut
    loaded.erase(op);
  return true;
}

int Executor::stealableInput(
    const Task &task, const std::vector<std::shared_ptr<const Matrix>> &held) {
  if (task.numOutputs != 1)
    return -1;
  const Slot &out = plan.slots[task.firstOutput];
  std::lock_guard<std::mutex> lock(mutex);
  for (int i = 0; i < task.numInputs; ++i) {
    if (!mayWriteOver(task.kind, i))
      continue;
    int32_t s = plan.inputs[task.firstInput + i];
    const Slot &in = plan.slots[s];
    // Ours alone: this task is its last reader here and no one else holds it.
    if (in.rows == out.rows && in.cols == out.cols && remainingUses[s] == 1 &&
        held[i].use_count() == 2 && slots[s] == held[i]) {
      slots[s].reset();
      sparseForms.erase(s);
      remainingUses[s] = 0;
      return i;
    }
  }
  return -1;
}

void Executor::worker(int w) {
  // A lone worker on its own core, its band helpers on the next ones. The
  // thread is kept across runs (workerTeam): bound by an earlier run, it
  // gets the process's cores back for a run that binds no worker.
  thread_local bool bound = false;
  if (std::vector<int> cores = taskCores();
      options.bindThreads && !cores.empty() && plan.workers[rank] == 1)
    bound = bindThreadToCores({cores[0]}) || bound;
  else if (bound && bindThreadToCores(processCores))
    bound = false;
  int32_t current = -1;
  try {
    workerTasks(w, current);
  } catch (const std::bad_alloc &) {
    // Outside a kernel: an input's compressed rows, a printed line.
    if (current < 0)
      fail("error: out of memory");
    const Task &task = plan.tasks[current];
    fail(taskError(plan, task.op, task.name, "out of memory"), task.op);
  }
}

void Executor::workerTasks(int w, int32_t &current) {
  std::vector<TileRef> inputs;
  std::vector<std::shared_ptr<const Matrix>> held;
  std::shared_ptr<SparseOperand> heldSparse;
  std::vector<Matrix> outputs;
  LoadFn load = [this](int32_t op, std::shared_ptr<const Matrix> &m,
                       std::string &error) { return loadWhole(op, m, error); };
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.node != rank || task.worker != w)
      continue;
    current = t;
    inputs.clear();
    held.clear();
    bool poisoned = false;
    for (int32_t i = 0; i < task.numInputs; ++i) {
      int32_t s = plan.inputs[task.firstInput + i];
      held.push_back(waitFor(s));
      poisoned |= isPoisoned(held.back());
      inputs.push_back(
          {held.back().get(), plan.slots[s].row0, plan.slots[s].col0});
    }
    heldSparse.reset();
    if (int i = vectorProductMatrixInput(plan, task); i >= 0 && !poisoned) {
      heldSparse = sparseFormOf(plan.inputs[task.firstInput + i], *held[i]);
      inputs[i].sparse = heldSparse.get();
    }
    if (task.kind == TaskKind::DistributedGemm) {
      double start = now();
      distributedGemm(task, inputs, poisoned);
      held.clear();
      taskDone(task, w, start);
      continue;
    }
    if (poisoned) {
      // Downstream of a failed task (rank 0 is writing the outputs before
      // it): nothing to compute, and nothing for the tasks after it.
      for (int32_t i = 0; i < task.numInputs; ++i)
        release(plan.inputs[task.firstInput + i]);
      held.clear();
      if (task.kind != TaskKind::Gather)
        poisonOutputs(task);
      continue;
    }
    double start = now();
    std::string error;
    if (task.kind == TaskKind::Load &&
        plan.ops[task.op].code == OpCode::Import) {
      std::shared_ptr<const Matrix> tile = importedTile(task);
      if (!tile)
        fail(taskError(plan, task.op, task.name,
                       "internal error: the imported value is not here"),
             task.op);
      put(task.firstOutput, std::move(tile));
      taskDone(task, w, start);
      continue;
    }
    if (task.kind == TaskKind::Gather &&
        plan.ops[task.op].code == OpCode::Export && task.numInputs == 1) {
      // A tile crosses to the next segment as it is, where it is: a value
      // of one tile, or a piece a later segment reads on this node
      // (ProgramRun::segment).
      {
        std::lock_guard<std::mutex> lock(mutex);
        exported[t] = held[0];
        ++outputsStored;
      }
      release(plan.inputs[task.firstInput]);
      held.clear();
      progress.notify_all();
      taskDone(task, w, start);
      continue;
    }
    if (task.kind == TaskKind::Gather &&
        plan.ops[task.op].code == OpCode::Print && plan.ops[task.op].a == 0 &&
        !options.keepPrinted) {
      // The line alone: no need to assemble the matrix (display shows it
      // whole).
      const Op &op = plan.ops[task.op];
      std::string line = summarizeTiles(op.text, op.rows, op.cols, inputs);
      for (int32_t i = 0; i < task.numInputs; ++i)
        release(plan.inputs[task.firstInput + i]);
      held.clear();
      {
        std::lock_guard<std::mutex> lock(mutex);
        printed[task.op] = std::move(line);
        ++outputsStored;
      }
      progress.notify_all();
      taskDone(task, w, start);
      continue;
    }
    // The last reader of a tile of its result's shape takes the buffer
    // over: a gemm_acc its accumulator, an elementwise task one operand
    // (no allocation, no first-touch page faults).
    Matrix stolen;
    int reuse = stealableInput(task, held);
    if (reuse >= 0) {
      stolen = std::move(const_cast<Matrix &>(*held[reuse]));
      inputs[reuse].tile = &stolen;
      inputs[reuse].sparse = nullptr;
    }
    // A tile larger than the node's memory is an error at its source line,
    // not an out-of-memory kill.
    double bytes = 0;
    for (int32_t o = 0; o < task.numOutputs; ++o) {
      const Slot &s = plan.slots[task.firstOutput + o];
      bytes += 8.0 * double(s.rows) * double(s.cols);
    }
    if (task.kind == TaskKind::Gather)
      bytes = 8.0 * double(plan.ops[task.op].rows) * plan.ops[task.op].cols;
    if (bytes > physicalBytes)
      fail(taskError(plan, task.op, task.name,
                     "cannot allocate " + formatNumber(bytes / (1 << 30)) +
                         " GiB: the node has " +
                         formatNumber(physicalBytes / (1 << 30)) +
                         " GiB of memory"),
           task.op);
    bool ran = false;
    try {
      ran = runTask(plan, task, inputs, outputs, load, error,
                    reuse >= 0 ? &stolen : nullptr, reuse);
    } catch (const std::bad_alloc &) {
      error = "out of memory";
    }
    if (!ran) {
      std::string message = taskError(plan, task.op, task.name, error);
      if (rank != 0)
        fail(message, task.op);
      deferFailure(message, task.op);
      for (int32_t i = 0; i < task.numInputs; ++i)
        if (i != reuse)
          release(plan.inputs[task.firstInput + i]);
      held.clear();
      if (task.kind != TaskKind::Gather)
        poisonOutputs(task);
      continue;
    }
    for (int32_t i = 0; i < task.numInputs; ++i)
      if (i != reuse)
        release(plan.inputs[task.firstInput + i]);
    held.clear();
    if (task.kind == TaskKind::Gather) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        results[task.op] = std::move(outputs[0]);
        ++outputsStored;
      }
      progress.notify_all();
    } else {
      for (int32_t o = 0; o < task.numOutputs; ++o)
        put(task.firstOutput + o, std::move(outputs[o]));
    }
    taskDone(task, w, start);
  }
}

void Executor::distributedGemm(const Task &task,
                               const std::vector<TileRef> &inputs,
                               bool poisoned) {
  // Every rank has reached the product before any enters its collectives,
  // so a stalled rank ends the job with a message instead of hanging it;
  // on the way, the ranks agree whether an input anywhere is poisoned.
  int anyPoisoned = poisoned;
  MPI_Request arrived;
  MPI_Comm gang = gangCommunicator(task);
  int gangRank = 0;
  MPI_Comm_rank(gang, &gangRank);
  MPI_Iallreduce(MPI_IN_PLACE, &anyPoisoned, 1, MPI_INT, MPI_MAX, gang,
                 &arrived);
  if (!complete(arrived, options.recvTimeout, /*collective=*/true)) {
    char what[128];
    std::snprintf(what, sizeof what,
                  "timed out after %g s waiting for the other ranks to start "
                  "the distributed product",
                  options.recvTimeout);
    fail(taskError(plan, task.op, task.name, what), task.op);
  }
  if (anyPoisoned) {
    for (int32_t i = 0; i < task.numInputs; ++i)
      release(plan.inputs[task.firstInput + i]);
    if (task.numOutputs)
      poisonOutputs(task);
    return;
  }
  // The product runs on this worker with its BLAS threads (the plan gives
  // it every worker of the node, but OpenBLAS's thread count is process-
  // wide: raising it while other workers may be inside dgemm is unsafe).
  std::vector<Matrix> outputs;
  DistributedGemmStats stats;
  std::string error;
  bool ok = false;
  try {
    ok =
        runDistributedGemm(plan, task, inputs, outputs, gang, stats, error);
  } catch (const std::bad_alloc &) {
    error = "out of memory";
  }
  if (!ok) {
    // Every rank of the gang found the same error: its first ends the job
    // (rank 0, when in the gang, writes the outputs before the product
    // first, as for any failed task); the others wait for that (or for the
    // timeout).
    if (gangRank != 0)
      std::this_thread::sleep_for(
          std::chrono::duration<double>(options.recvTimeout));
    fail(taskError(plan, task.op, task.name, error), task.op);
  }
  bytesSent += (long long)stats.bytesSent;
  bytesReceived += (long long)stats.bytesReceived;
  for (int32_t i = 0; i < task.numInputs; ++i)
    release(plan.inputs[task.firstInput + i]);
  for (int32_t o = 0; o < task.numOutputs; ++o)
    put(task.firstOutput + o, std::move(outputs[o]));
}

bool complete(MPI_Request &request, double timeout, bool collective,
              MPI_Status *status) {
  auto begin = Clock::now();
  auto deadline = begin + std::chrono::duration<double>(timeout);
  int done = 0;
  for (int spins = 0;; ++spins) {
    MPI_Test(&request, &done, status ? status : MPI_STATUS_IGNORE);
    if (done)
      return true;
    auto now = Clock::now();
    if (now > deadline) {
      if (!collective)
        MPI_Cancel(&request);
      return false;
    }
    // The wait is on the critical path of whatever needs the tile, but a
    // polling thread takes CPU from the workers when they share cores (two
    // ranks on this 2-core VM). Sleeping an eighth of the time waited so far
    // (5 us to 0.5 ms) bounds both: a completion is seen at most ~12 %
    // late, and a wait of T costs O(log T) wake-ups, not T / 10 us.
    if (spins > 20)
      std::this_thread::sleep_for(std::clamp<Clock::duration>(
          (now - begin) / 8, std::chrono::microseconds(5),
          std::chrono::microseconds(500)));
  }
}

std::shared_ptr<const Matrix> Executor::importedTile(const Task &task) {
  Environment *env = options.environment;
  if (!env)
    return nullptr;
  const Slot &s = plan.slots[task.firstOutput];
  int32_t value = int32_t(plan.ops[task.op].a);
  TileKey key = env->keyOf(value, s, /*from=*/0, rank);
  // A piece kept here (Environment::setPieces); elsewhere than the master,
  // else the copy ProgramRun::prefetch brought (a loop-invariant value's
  // tile, sent once per version).
  std::shared_ptr<const Matrix> kept = env->cached(key);
  if (kept || rank != 0)
    return kept;
  // On the master: the value itself when the tile is all of it, else a copy
  // made once per version and kept for the later runs of the segment.
  std::shared_ptr<const Matrix> whole = env->value(value);
  if (!whole)
    return nullptr;
  if (s.row0 == 0 && s.col0 == 0 && s.rows == whole->rows() &&
      s.cols == whole->cols())
    return whole;
  auto tile = std::make_shared<const Matrix>(
      sliceOf(*whole, s.row0, s.col0, s.rows, s.cols));
  env->keep(key, tile);
  return tile;
}

bool Executor::cacheKey(const Transfer &x, TileKey &key) const {
  auto it = importOf.find(x.source);
  if (!options.environment || it == importOf.end())
    return false;
  const Slot &s = plan.slots[x.source];
  int32_t value = int32_t(plan.ops[it->second].a);
  key = options.environment->keyOf(value, s, x.from, x.to);
  return true;
}

void Executor::transfer(const Transfer &x, int32_t index) {
  const Slot &target = plan.slots[x.target];
  int count = static_cast<int>(target.rows * target.cols);
  // A tile of a value an earlier segment sent here is still here
  // (Program.h): neither end moves it again.
  TileKey key;
  bool cacheable = !sentAgain.count(index) && cacheKey(x, key);
  if (cacheable && x.from == rank && !options.environment->firstSend(key)) {
    ++transfersKept;
    release(x.source);
    return;
  }
  if (cacheable && x.to == rank) {
    if (std::shared_ptr<const Matrix> kept = options.environment->cached(key)) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        received[x.target] = true;
      }
      put(x.target, std::move(kept));
      return;
    }
  }
  int tag = index % tagLimit; // unique unless the plan is huge
  MPI_Comm comm = comms[x.sendComm];
  char what[256];
  double start = now();
  if (x.from == rank) {
    std::shared_ptr<const Matrix> tile = waitFor(x.source);
    // A tile never produced (rank 0 is ending the run) goes as an empty
    // message: the receiver poisons its copy instead of waiting for it,
    // which would hold up the transfers after it on that communicator.
    bool poisoned = isPoisoned(tile);
    if (poisoned)
      count = 0;
    start = now();
    MPI_Request request;
    MPI_Isend(poisoned ? nullptr : tile->data(), count, MPI_DOUBLE, x.to, tag,
              comm, &request);
    if (!complete(request, options.recvTimeout)) {
      std::snprintf(what, sizeof what,
                    "timed out after %g s sending a %lldx%lld tile to rank "
                    "%d, which needs it",
                    options.recvTimeout, (long long)target.rows,
                    (long long)target.cols, x.to);
      failTransfer(x.target, what);
    }
    bytesSent += 8LL * count;
    ++transfersSent;
    release(x.source);
    double end = now();
    countTime(byClass.size() - 1, end - start);
    record({"send to " + std::to_string(x.to), "send",
            trace::commThread(plan.workers[rank], x.sendComm), start, end});
    return;
  }
  Matrix tile(target.rows, target.cols);
  MPI_Request request;
  MPI_Status status;
  MPI_Irecv(tile.data(), count, MPI_DOUBLE, x.from, tag, comm, &request);
  if (!complete(request, options.recvTimeout, /*collective=*/false, &status)) {
    std::snprintf(what, sizeof what,
                  "timed out after %g s waiting for a %lldx%lld tile from "
                  "rank %d",
                  options.recvTimeout, (long long)target.rows,
                  (long long)target.cols, x.from);
    failTransfer(x.target, what);
  }
  int arrived = 0;
  MPI_Get_count(&status, MPI_DOUBLE, &arrived);
  if (arrived == 0 && count > 0) { // poisoned at the sender
    put(x.target, poison);
    return;
  }
  bytesReceived += 8LL * count;
  {
    std::lock_guard<std::mutex> lock(mutex);
    received[x.target] = true;
  }
  auto copy = std::make_shared<const Matrix>(std::move(tile));
  if (cacheable)
    options.environment->keep(key, copy);
  put(x.target, std::move(copy));
  record({"recv from " + std::to_string(x.from), "recv",
          trace::commThread(plan.workers[rank], x.recvComm), start, now()});
}

double Executor::cpuSeconds(int who) {
  struct rusage usage;
  if (getrusage(who, &usage) != 0)
    return 0;
  auto seconds = [](const timeval &t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void Executor::addThreadCpu(double &total, double before) {
  double seconds = cpuSeconds() - before;
  std::lock_guard<std::mutex> lock(statsMutex);
  total += seconds;
}

void Executor::communicator(int c) {
  // complete()'s short sleeps would otherwise last the default 50 us timer
  // slack (a 10 us sleep took 60-90 us: most of a small transfer's time).
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  ++communicatorsRun;
  // The thread is kept across runs (communicatorTeam), at the priority the
  // last one gave it.
  bool realtime = atRealtimePriority();
  if (options.realtimeCommunicators && !realtime)
    realtime = raiseToRealtimePriority();
  else if (!options.realtimeCommunicators && realtime) {
    dropToNormalPriority();
    realtime = false;
  }
  if (realtime)
    ++realtimeCommunicators;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ++communicatorsUp;
  }
  communicatorUp.notify_all();
  int32_t current = -1;
  try {
    for (int32_t i = 0; i < plan.numTransfers; ++i) {
      const Transfer &x = plan.transfers[i];
      if (serves(c, x)) {
        current = i;
        transfer(x, i);
      }
    }
  } catch (const std::bad_alloc &) {
    // The receive buffer of a tile.
    const Transfer &x = plan.transfers[current];
    const Slot &tile = plan.slots[x.target];
    failTransfer(x.target, "out of memory for a " + std::to_string(tile.rows) +
                               "x" + std::to_string(tile.cols) +
                               " tile from rank " + std::to_string(x.from));
  }
}

/// The communicators every plan run of the process shares: a program with
/// run-time loops runs plans many times (cmmrt/Program.h), and
/// MPI_Comm_dup and MPI_Comm_split are collective (about 0.1 ms each on two
/// local ranks). Every rank asks for them in the same order (its plans are
/// the same tables), so the collectives match; a run's messages are all
/// complete before the next run starts. They are freed when MPI_Finalize
/// deletes MPI_COMM_SELF's attributes.
struct SharedCommunicators {
  std::vector<MPI_Comm> pool;
  MPI_Comm gang = MPI_COMM_NULL; // gangComm
  std::map<std::vector<int32_t>, MPI_Comm> gangs;
  /// The world ranks on this rank's host, in rank order; empty until the
  /// first run asks (a collective).
  std::vector<int> hostRanks;
};

int freeSharedCommunicators(MPI_Comm, int, void *state, void *) {
  auto *shared = static_cast<SharedCommunicators *>(state);
  for (MPI_Comm &c : shared->pool)
    MPI_Comm_free(&c);
  if (shared->gang != MPI_COMM_NULL)
    MPI_Comm_free(&shared->gang);
  for (auto &[nodes, c] : shared->gangs)
    if (c != MPI_COMM_NULL)
      MPI_Comm_free(&c);
  *shared = SharedCommunicators();
  return MPI_SUCCESS;
}

/// The worker and communicator threads of every plan run of the process
/// (cmmrt/ThreadTeam.h), each role a team of its own: a kept communicator
/// thread keeps its real-time priority, and a worker its core binding.
/// Never destroyed, like the communicators: at exit their threads wait for
/// a job that will not come.
ThreadTeam &communicatorTeam() {
  static ThreadTeam *team = new ThreadTeam("cmm-comm");
  return *team;
}

ThreadTeam &workerTeam() {
  static ThreadTeam *team = new ThreadTeam("cmm-worker");
  return *team;
}

SharedCommunicators &sharedCommunicators() {
  static SharedCommunicators shared;
  static bool registered = false;
  if (!registered) {
    int key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, freeSharedCommunicators, &key,
                           nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, &shared);
    registered = true;
  }
  return shared;
}

double Executor::run() {
  int32_t pool = 1;
  for (int32_t n = 0; n < plan.nodes; ++n)
    pool = std::max(pool, plan.communicators[n]);
  int *ub = nullptr, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (flag && ub && *ub > 0)
    tagLimit = *ub;
  SharedCommunicators &shared = sharedCommunicators();
  while (int32_t(shared.pool.size()) < pool) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    shared.pool.push_back(c);
  }
  comms.assign(shared.pool.begin(), shared.pool.begin() + pool);
  if (shared.gang == MPI_COMM_NULL)
    MPI_Comm_dup(MPI_COMM_WORLD, &shared.gang);
  gangComm = shared.gang;
  // One communicator per gang of some nodes, made by every rank in the
  // order the gangs first appear in the plans (the same tables everywhere),
  // ranked in the gang's order so its first node is COSMA's rank 0.
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.kind != TaskKind::DistributedGemm || !task.numGangNodes)
      continue;
    std::vector<int32_t> gang = gangOf(task);
    if (gangComms.count(gang))
      continue;
    auto made = shared.gangs.find(gang);
    if (made == shared.gangs.end()) {
      auto at = std::find(gang.begin(), gang.end(), rank);
      MPI_Comm c;
      MPI_Comm_split(MPI_COMM_WORLD, at == gang.end() ? MPI_UNDEFINED : 0,
                     int(at - gang.begin()), &c);
      made = shared.gangs.emplace(gang, c).first;
    }
    gangComms[gang] = made->second;
  }

  // The task threads' cores, chosen once per process (the band helpers and
  // OpenBLAS's threads live as long as it) before the first setBlasThreads.
  if (shared.hostRanks.empty()) {
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &host);
    int size = 1;
    MPI_Comm_size(host, &size);
    shared.hostRanks.resize(size_t(size));
    MPI_Allgather(&rank, 1, MPI_INT, shared.hostRanks.data(), 1, MPI_INT, host);
    MPI_Comm_free(&host);
    static bool placed = false;
    if (!placed && options.bindThreads) {
      placed = true;
      std::vector<unsigned> planned = plannedCores(plan);
      std::vector<int> threads(size_t(plan.nodes));
      for (int32_t r = 0; r < plan.nodes; ++r)
        threads[size_t(r)] =
            planned[size_t(r)] ? taskThreadsOf(plan.workers[r], plan.threads[r])
                               : 0;
      setTaskCores(
          taskCoresOf(threads, rank, shared.hostRanks, allowedCores()));
    }
  }
  // One worker: it gets the node's BLAS threads; several: one each.
  int workers = plan.workers[rank];
  int blasThreads = taskThreadsOf(workers, plan.threads[rank]);
  setBlasThreads(blasThreads);
  // ... and its other tasks split their rows over as many cores.
  setTaskThreads(blasThreads);
  // mpirun binds each rank to one core by default, which would run every
  // BLAS thread and worker of the rank on that core.
  // (A rank that may use every core of a smaller machine than the plan's
  // is not warned: binding is not what is wrong there.)
  // Said once per process, not at every plan run of a loop's trips.
  cpu_set_t cpus;
  static const long online = sysconf(_SC_NPROCESSORS_ONLN);
  static bool warnedBound = false;
  if (!warnedBound && sched_getaffinity(0, sizeof cpus, &cpus) == 0 &&
      CPU_COUNT(&cpus) < workers * blasThreads &&
      (online <= 0 || CPU_COUNT(&cpus) < online)) {
    warnedBound = true;
    std::fprintf(stderr,
                 "cmm: rank %d: warning: bound to %d core(s) but the plan runs "
                 "%d worker(s) x %d BLAS thread(s) here; start it with "
                 "mpirun --bind-to none (cmmc --run does)\n",
                 rank, CPU_COUNT(&cpus), workers, blasThreads);
  }

  // Communicators with nothing to do get no thread.
  std::vector<int> active;
  for (int c = 0; c < plan.communicators[rank]; ++c) {
    bool any = false;
    for (int32_t i = 0; i < plan.numTransfers && !any; ++i) {
      const Transfer &x = plan.transfers[i];
      any = serves(c, x);
    }
    if (any)
      active.push_back(c);
  }
  int communicators = int(active.size());
  int started = communicators + workers;
  processCores = allowedCores(); // this thread's: the workers' are bound

  MPI_Barrier(MPI_COMM_WORLD);
  begin = Clock::now();
  // The communicators start first, and the workers once each is up: a
  // thread made after the workers waits for a core before it can raise its
  // priority, and their BLAS threads hold both cores of a 2-core node (in a
  // loop body's plan, run once per trip, the first tile left 1.2 ms late
  // every trip).
  communicatorTeam().start(communicators, [this, active](int i) {
    double before = cpuSeconds();
    communicator(active[size_t(i)]);
    addThreadCpu(communicatorCpu, before);
    finished();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    communicatorUp.wait(lock, [&] { return communicatorsUp == communicators; });
  }
  workerTeam().start(workers, [this](int w) {
    double before = cpuSeconds();
    worker(w);
    addThreadCpu(workerCpu, before);
    finished();
  });
  // Rank 0 writes each output once it and those before it are complete.
  // After a task failed: the outputs before it are written once
  // complete (or after half the receive timeout, before the other ranks
  // give up waiting for data that will not come), then the run ends.
  {
    std::unique_lock<std::mutex> lock(mutex);
    Clock::time_point giveUp = Clock::time_point::max();
    long long outputsWritten = 0; // outputsStored when last written
    while (threadsDone < started) {
      if (failedOp >= 0) {
        if (giveUp == Clock::time_point::max())
          giveUp = Clock::now() +
                   std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(options.recvTimeout / 2));
        if (outputsCompleteBefore(failedOp) || Clock::now() >= giveUp)
          break;
      } else if (writer && outputsStored != outputsWritten) {
        outputsWritten = outputsStored;
        lock.unlock();
        writeCompleteOutputs(INT32_MAX);
        lock.lock();
        continue;
      }
      long long stored = outputsStored;
      int32_t failed = failedOp;
      progress.wait_for(lock, std::chrono::milliseconds(50), [&] {
        return threadsDone >= started || failedOp != failed ||
               outputsStored != stored;
      });
    }
    if (failedOp >= 0) {
      std::string message = failedMessage;
      int32_t op = failedOp;
      lock.unlock();
      fail(message, op);
    }
  }
  communicatorTeam().wait();
  workerTeam().wait();
  if (writer) {
    writeCompleteOutputs(INT32_MAX);
    writer->finish();
  }
  return now();
}

void Executor::collect(double seconds, ExecResult &result) {
  long long live = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &slot : slots)
      live += slot != nullptr;
  }
  const SparseStats sparse = sparseStats();
  long long local[13] = {bytesSent.load(),
                         bytesReceived.load(),
                         cacheHits.load(),
                         tasksRun.load(),
                         live,
                         communicatorsRun.load(),
                         realtimeCommunicators.load(),
                         sparse.tiles - sparseAtStart.tiles,
                         sparse.nonzeros - sparseAtStart.nonzeros,
                         sparse.elements - sparseAtStart.elements,
                         sparse.products - sparseAtStart.products,
                         transfersSent.load(),
                         transfersKept.load()};
  long long total[13] = {};
  double slowest = 0, cpu[3] = {}, cpuTotal[3] = {};
  {
    std::lock_guard<std::mutex> lock(statsMutex);
    cpu[0] = workerCpu;
    cpu[1] = communicatorCpu;
  }
  cpu[2] = cpuSeconds(RUSAGE_SELF);
  MPI_Reduce(local, total, 13, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(cpu, cpuTotal, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  result.workerCpuSeconds = cpuTotal[0];
  result.communicatorCpuSeconds = cpuTotal[1];
  result.processCpuSeconds = cpuTotal[2];
  result.ownCommunicatorCpuSeconds = cpu[1];
  MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  result.bytesSent = total[0];
  result.bytesReceived = total[1];
  result.cacheHits = total[2];
  result.tasks = total[3];
  result.liveSlots = total[4];
  result.communicators = total[5];
  result.realtimeCommunicators = total[6];
  result.sparseTiles = total[7];
  result.sparseNonzeros = total[8];
  result.sparseElements = total[9];
  result.sparseProducts = total[10];
  result.transfers = total[11];
  result.transfersKept = total[12];
  result.dumpedPrints =
      writer ? writer->nextDumped() : options.firstDumpedPrint;
  result.seconds = slowest;
  result.gathered = std::move(results);
  result.exported = std::move(exported);
  result.printed = std::move(printed);
  result.outputsWritten = !writer || writer->ok();

  // Per class: measured summed over ranks, predicted from the plan.
  std::vector<double> measured, counts, summed(2 * byClass.size());
  for (const ClassTime &c : byClass) {
    measured.push_back(c.measured);
    counts.push_back(double(c.tasks));
  }
  measured.insert(measured.end(), counts.begin(), counts.end());
  MPI_Reduce(measured.data(), summed.data(), int(summed.size()), MPI_DOUBLE,
             MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0)
    return;
  result.byClass.assign(byClass.size(), ClassTime{});
  for (size_t c = 0; c < byClass.size(); ++c) {
    result.byClass[c].measured = summed[c];
    result.byClass[c].tasks = (long long)summed[byClass.size() + c];
  }
  for (int32_t t = 0; t < plan.numTasks; ++t)
    result.byClass[unsigned(plan.tasks[t].cost)].predicted +=
        plan.tasks[t].finish - plan.tasks[t].start + plan.tasks[t].touch;
  for (int32_t i = 0; i < plan.numTransfers; ++i)
    result.byClass.back().predicted += plan.transfers[i].finish -
                                       plan.transfers[i].start +
                                       plan.transfers[i].touch;
}

void Executor::writeTrace() {
  // This rank's process and threads, named as in the plan's predicted
  // trace (cmmrt/TraceLayout.h), then its events.
  trace::EventList mine;
  int pid = trace::processId(rank);
  auto name = [](const std::string &n) {
    return trace::JsonObject().string("name", n);
  };
  mine.metadata("process_name", pid, trace::threadId(0),
                name(trace::processName(rank)));
  int workers = plan.workers[rank], comms = plan.communicators[rank];
  for (int w = 0; w < workers; ++w)
    mine.metadata("thread_name", pid, trace::workerThread(w),
                  name(trace::workerName(w)));
  for (int c = 0; c < comms; ++c)
    mine.metadata("thread_name", pid, trace::commThread(workers, c),
                  name(trace::commName(c)));
  // A run of a program's segment: times from the program's start, with
  // the segment and the trips.
  double offset =
      options.traceSink
          ? std::chrono::duration<double>(begin - options.traceStart).count()
          : 0;
  std::string trips;
  for (int64_t trip : options.iterations)
    trips += (trips.empty() ? "" : ".") + std::to_string(trip);
  for (const TraceEvent &e : events) {
    // A task's cost class and parameters: what `cmm-profile --refine`
    // refits the model from (docs/machine-model.md).
    trace::JsonObject args;
    if (e.task >= 0) {
      const Task &t = plan.tasks[e.task];
      args.string("class", costClassName(t.cost))
          .number("m", t.m)
          .number("n", t.n)
          .number("k", t.k)
          .number("predicted_s", t.finish - t.start + t.touch);
      if (t.touch > 0) // of which its fresh pages' faults
        args.number("first_touch_s", t.touch);
    }
    if (options.traceSink) {
      args.number("segment", options.traceSegment);
      if (!trips.empty())
        args.string("trip", trips);
    }
    mine.complete(e.name, e.category, pid, e.thread, offset + e.start,
                  e.finish - e.start, args);
  }
  int size = worldSize();
  int length = static_cast<int>(mine.text().size());
  std::vector<int> lengths(size), offsets(size);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0,
             MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    all.resize(total);
  }
  MPI_Gatherv(mine.text().data(), length, MPI_CHAR, all.data(), lengths.data(),
              offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0)
    return;
  trace::EventList everyone;
  for (int r = 0; r < size; ++r)
    everyone.append(std::string_view(all).substr(offsets[r], lengths[r]));
  if (options.traceSink)
    options.traceSink->append(everyone.text());
  else
    writeTraceFile(options.trace, everyone, rank);
}

bool parseOptions(int argc, char **argv, Options &options, std::string &error) {
  if (const char *t = std::getenv("CMM_TRACE"))
    options.trace = t;
  if (const char *t = std::getenv("CMM_RECV_TIMEOUT"))
    options.recvTimeout = std::atof(t);
  // Normal priority by default (docs/runtime.md, "Communicator priority").
  std::string priority = "normal", binding = "cores";
  if (const char *p = std::getenv("CMM_COMM_PRIORITY"))
    priority = p;
  if (const char *b = std::getenv("CMM_BIND_THREADS"))
    binding = b;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--stats")
      options.stats = true;
    else if (arg == "--strict-placement")
      options.strictPlacement = true;
    else if (arg.rfind("--recv-timeout=", 0) == 0)
      options.recvTimeout = std::atof(arg.c_str() + 15);
    else if (arg.rfind("--comm-priority=", 0) == 0)
      priority = arg.substr(16);
    else if (arg.rfind("--bind-threads=", 0) == 0)
      binding = arg.substr(15);
    else if (arg.rfind("--dump-prints=", 0) == 0) {
      options.dumpPrints = arg.substr(14);
      options.keepPrinted = true;
    } else {
      error = "unknown option '" + arg +
              "' (options: --stats, --strict-placement, "
              "--recv-timeout=SECONDS, --comm-priority=normal|realtime, "
              "--bind-threads=cores|none, --dump-prints=DIR, --help)";
      return false;
    }
  }
  if (priority != "realtime" && priority != "normal") {
    error = "unknown communicator priority '" + priority +
            "' (--comm-priority or CMM_COMM_PRIORITY: normal or realtime)";
    return false;
  }
  options.realtimeCommunicators = priority == "realtime";
  if (binding != "cores" && binding != "none") {
    error = "unknown thread binding '" + binding +
            "' (--bind-threads or CMM_BIND_THREADS: cores or none)";
    return false;
  }
  options.bindThreads = binding == "cores";
  if (!(options.recvTimeout > 0)) {
    error = "the receive timeout must be a positive number of seconds";
    return false;
  }
  return true;
}

/// Every rank's host name and cores (thisRankHost), on every rank.
std::vector<RankHost> gatherHosts() {
  constexpr int nameLength = 256;
  int size = worldSize();
  RankHost mine = thisRankHost();
  char name[nameLength] = {};
  mine.host.copy(name, nameLength - 1);
  int cores = int(mine.cores);
  std::vector<char> names(size_t(size) * nameLength);
  std::vector<int> allCores(size);
  MPI_Allgather(name, nameLength, MPI_CHAR, names.data(), nameLength, MPI_CHAR,
                MPI_COMM_WORLD);
  MPI_Allgather(&cores, 1, MPI_INT, allCores.data(), 1, MPI_INT,
                MPI_COMM_WORLD);
  std::vector<RankHost> out(size);
  for (int r = 0; r < size; ++r) {
    const char *n = names.data() + size_t(r) * nameLength;
    out[r].host.assign(n, strnlen(n, nameLength));
    out[r].cores = unsigned(allCores[r]);
  }
  return out;
}

} // namespace

int cmmrt::worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

namespace {
/// The run a stop signal ends: executePlan's, while it runs.
std::mutex runningMutex;
Executor *running = nullptr;

struct RunningExecutor {
  explicit RunningExecutor(Executor &e) {
    std::lock_guard<std::mutex> lock(runningMutex);
    running = &e;
  }
  ~RunningExecutor() {
    std::lock_guard<std::mutex> lock(runningMutex);
    running = nullptr;
  }
};

/// The handler only tells the stop thread which signal came and from whom
/// (a write is async-signal-safe; writing outputs is not).
struct StopSignal {
  int signal;
  pid_t sender;
};
int stopPipe[2] = {-1, -1};
extern "C" void onStopSignal(int signal, siginfo_t *info, void *) {
  StopSignal s{signal, info ? info->si_pid : 0};
  ssize_t sent = write(stopPipe[1], &s, sizeof s); // atomic: < PIPE_BUF
  (void)sent;
}

/// Who sent a stop signal, for the message: the launcher that started this
/// rank (mpirun's daemon ends the other ranks when one fails, and forwards a
/// scheduler's kill), another process, or the kernel / a terminal.
std::string stopSender(pid_t sender) {
  if (sender <= 0)
    return "";
  std::string command;
  if (FILE *f = std::fopen(
          ("/proc/" + std::to_string(sender) + "/comm").c_str(), "r")) {
    char name[64] = {};
    if (std::fgets(name, sizeof name, f))
      command.assign(name, strcspn(name, "\n"));
    std::fclose(f);
  }
  std::string who = command.empty()
                        ? "pid " + std::to_string(sender)
                        : command + ", pid " + std::to_string(sender);
  return sender == getppid() ? " from its parent (" + who + ")"
                             : " from " + who;
}

/// SIGTERM and SIGINT (a batch scheduler's wall-time kill, Ctrl-C, or the
/// launcher ending the job because another rank failed) end the run
/// cleanly: rank 0 writes the outputs complete by then (they are written as
/// they complete, so at most the ones just finished), each rank says it was
/// stopped and by whom, and the process exits with 128 + the signal's
/// number (a launcher then ends the other ranks).
void stopOnSignals(int rank) {
  if (pipe2(stopPipe, O_CLOEXEC) != 0)
    return; // the signals keep their default action
  std::thread([rank] {
    StopSignal stop{};
    while (read(stopPipe[0], &stop, sizeof stop) != sizeof stop)
      if (errno != EINTR)
        return;
    std::string written;
    {
      std::lock_guard<std::mutex> lock(runningMutex);
      if (running)
        written = running->writeOnStop();
    }
    std::fflush(stdout);
    std::fprintf(stderr, "cmm: rank %d: stopped by %s%s%s\n", rank,
                 stop.signal == SIGINT ? "SIGINT" : "SIGTERM",
                 stopSender(stop.sender).c_str(), written.c_str());
    std::fflush(stderr);
    std::_Exit(128 + stop.signal);
  }).detach();
  struct sigaction action = {};
  action.sa_sigaction = onStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_SIGINFO;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
}
} // namespace

void cmmrt::writeTraceFile(const std::string &path,
                           const trace::EventList &events, int rank) {
  std::string document = trace::traceDocument(events);
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f ||
      std::fwrite(document.data(), 1, document.size(), f) != document.size()) {
    std::fprintf(stderr, "cmm: rank %d: warning: cannot write trace '%s': %s\n",
                 rank, path.c_str(), std::strerror(errno));
    if (f)
      std::fclose(f);
    return;
  }
  std::fclose(f);
}

void cmmrt::ExecResult::add(const ExecResult &later) {
  bytesSent += later.bytesSent;
  bytesReceived += later.bytesReceived;
  cacheHits += later.cacheHits;
  tasks += later.tasks;
  transfers += later.transfers;
  transfersKept += later.transfersKept;
  liveSlots = later.liveSlots;
  sparseTiles += later.sparseTiles;
  sparseNonzeros += later.sparseNonzeros;
  sparseElements += later.sparseElements;
  sparseProducts += later.sparseProducts;
  communicators += later.communicators;
  realtimeCommunicators += later.realtimeCommunicators;
  workerCpuSeconds += later.workerCpuSeconds;
  communicatorCpuSeconds += later.communicatorCpuSeconds;
  ownCommunicatorCpuSeconds += later.ownCommunicatorCpuSeconds;
  processCpuSeconds = later.processCpuSeconds; // the whole process so far
  seconds += later.seconds;
  if (byClass.size() < later.byClass.size())
    byClass.resize(later.byClass.size());
  for (size_t c = 0; c < later.byClass.size(); ++c) {
    byClass[c].tasks += later.byClass[c].tasks;
    byClass[c].predicted += later.byClass[c].predicted;
    byClass[c].measured += later.byClass[c].measured;
  }
}

void cmmrt::executePlan(const Plan &given, const ExecOptions &options,
                        ExecResult &result) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Inside run-time loops each trip's rand draws new values: the trip
  // numbers are mixed into the call ids, as the interpreter does.
  Plan plan = given;
  std::vector<Op> ops;
  if (!options.iterations.empty()) {
    ops.assign(given.ops, given.ops + given.numOps);
    for (Op &op : ops)
      if (op.code == OpCode::Rand || op.code == OpCode::Randn)
        op.b =
            int64_t(iterationCallId(uint64_t(op.b), options.iterations.data(),
                                    options.iterations.size()));
    plan.ops = ops.data();
  }
  Executor executor(plan, options, rank);
  RunningExecutor stoppable(executor);
  // The makespan: from the start every rank waited for (making the
  // communicators is start-up, as MPI_Init is: a rank that starts late
  // made a 3 ms plan of two ranks measure 10-18 ms).
  double seconds = executor.run();
  // Every rank is done before any leaves: a rank that stalls after its
  // last transfer would otherwise hang the collectives below.
  MPI_Request done;
  MPI_Ibarrier(MPI_COMM_WORLD, &done);
  if (!complete(done, options.recvTimeout, /*collective=*/true)) {
    std::fprintf(stderr,
                 "cmm: rank %d: error: timed out after %g s waiting for the "
                 "other ranks to finish\n",
                 rank, options.recvTimeout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  executor.collect(seconds, result);
  if (!options.trace.empty())
    executor.writeTrace();
}

/// --stats: per cost class that ran, the task time the plan predicted and
/// the time measured (each summed over every worker of every rank), so a
/// user sees which term of the machine model is off (docs/machine-model.md).
static void printClassTimes(const std::vector<ClassTime> &byClass) {
  std::fprintf(stderr,
               "cmm stats by cost class (task seconds summed over "
               "workers):\n  %-12s %8s %12s %12s %9s\n",
               "class", "tasks", "predicted s", "measured s",
               "measured/"
               "predicted");
  for (size_t c = 0; c < byClass.size(); ++c) {
    const ClassTime &t = byClass[c];
    if (t.tasks == 0)
      continue;
    const char *name =
        c < kNumCostClasses ? costClassName(CostClass(c)) : "transfers";
    std::fprintf(stderr, "  %-12s %8lld %12.4g %12.4g ", name, t.tasks,
                 t.predicted, t.measured);
    if (t.predicted > 0)
      std::fprintf(stderr, "%9.2f\n", t.measured / t.predicted);
    else
      std::fprintf(stderr, "%9s\n", "-");
  }
}

#if defined(__SANITIZE_ADDRESS__)
/// A sanitizer build's MPI programs unwind allocation stacks the slow way:
/// Open MPI's libraries have no frame pointers, so the fast unwinder stops
/// inside them, before a frame test/sanitize/lsan.supp can name (a leak of
/// PMIx's was "<unknown module>"). Programs allocate little; the cost is
/// small. ASAN_OPTIONS still overrides it.
extern "C" const char *__asan_default_options() {
  return "fast_unwind_on_malloc=0";
}
#endif

// An MPI call that fails (a broken connection, an exhausted resource) is a
// run-time error like any other: said in the one format, then the job ends,
// as MPI_ERRORS_ARE_FATAL would end it with only Open MPI's text.
static void reportMpiError(MPI_Comm *, int *code, ...) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0, rank = -1;
  MPI_Error_string(*code, text, &length);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "cmm: rank %d: error: MPI: %.*s\n", rank, length, text);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int cmmrt::runPlan(const Plan &plan, int argc, char **argv) {
  const Plan *plans[] = {&plan};
  ProgramInfo program{plan.sourceFile,       0, plans, 1, nullptr, 0,
                      plan.predictedMakespan};
  return runProgram(
      program, [](ProgramRun &run) { run.segment(0); }, argc, argv);
}

int cmmrt::runProgram(const ProgramInfo &program, void (*body)(ProgramRun &),
                      int argc, char **argv) {
  // Every plan of a program is for the same machine (docs/planner.md).
  const Plan &plan = *program.plans[0];
  keepFreedHeapMemory(); // the first-touch model's assumption
  if (!startedByLauncher())
    prepareSingletonStart();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  // Communicators made from MPI_COMM_WORLD inherit the handler.
  MPI_Errhandler mpiErrors;
  MPI_Comm_create_errhandler(reportMpiError, &mpiErrors);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, mpiErrors);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto refuse = [&](const std::string &message) {
    if (rank == 0)
      std::fprintf(stderr, "cmm: rank 0: error: %s\n", message.c_str());
    MPI_Finalize();
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg != "--help" && arg != "-h")
      continue;
    if (rank == 0 && plan.nodes == 1)
      std::printf("A cmm program planned for 1 node: run it with\n"
                  "  %s [options]\n"
                  "(or under a launcher with one rank: mpirun -np 1 "
                  "--bind-to none %s)\n",
                  argv[0], argv[0]);
    else if (rank == 0)
      std::printf("A cmm program planned for %d node(s): run it with\n"
                  "  mpirun -np %d --bind-to none [--hostfile F] %s "
                  "[options]\n",
                  plan.nodes, plan.nodes, argv[0]);
    if (rank == 0)
      std::printf(
          "options:\n"
          "  --stats              predicted and measured makespan, tasks, "
          "transfers, MB moved and cache hits, on stderr\n"
          "  --strict-placement   stop when ranks the plan runs as separate "
          "nodes share a host too small for them (default: a warning)\n"
          "  --recv-timeout=S     seconds a send or receive may wait "
          "(default 60; also CMM_RECV_TIMEOUT)\n"
          "  --comm-priority=P    normal (default) or realtime (communicator "
          "threads as SCHED_FIFO where permitted); also CMM_COMM_PRIORITY\n"
          "  --bind-threads=B     cores (default: a lone worker and its "
          "helper threads each on a core of their own) or none; also "
          "CMM_BIND_THREADS\n"
          "  --dump-prints=DIR    every printed matrix also as "
          "DIR/print<N>.npy\n"
          "  --help, -h           this text\n"
          "environment: CMM_TRACE=run.json writes the measured schedule as "
          "Chrome trace events\n");
    MPI_Finalize();
    return 0;
  }
  if (provided < MPI_THREAD_MULTIPLE)
    return refuse("this MPI library does not provide MPI_THREAD_MULTIPLE, "
                  "which the communicator threads need");
  if (size != plan.nodes)
    return refuse(
        "this program was planned for " + std::to_string(plan.nodes) +
        " node(s), one MPI rank each; run it " +
        (plan.nodes == 1
             ? "directly (" + std::string(argv[0]) + ") or with mpirun -np 1"
             : "with mpirun -np " + std::to_string(plan.nodes)) +
        " (it was started on " + std::to_string(size) +
        " rank(s)), or compile it again "
        "with --nodes=" +
        std::to_string(size));
  Options options;
  std::string error;
  if (!parseOptions(argc, argv, options, error))
    return refuse(error);
  // --dump-prints' directory is made (rank 0 writes the files) or the run
  // is refused before it starts, on every rank alike.
  if (!options.dumpPrints.empty()) {
    std::error_code made;
    if (rank == 0)
      std::filesystem::create_directories(options.dumpPrints, made);
    char ok =
        !made &&
        (rank != 0 || std::filesystem::is_directory(options.dumpPrints, made));
    MPI_Bcast(&ok, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!ok)
      return refuse("--dump-prints: cannot create directory '" +
                    options.dumpPrints + "'" +
                    (made ? ": " + made.message() : ": not a directory"));
  }

  // Where the ranks landed: every rank sees every host, so all stop alike.
  std::vector<RankHost> hosts = gatherHosts();
  std::vector<CrowdedHost> crowded = crowdedHosts(hosts, plannedCores(plan));
  if (!crowded.empty()) {
    std::string text = describeCrowding(crowded) +
                       "; map one rank per host (mpirun --map-by "
                       "ppr:1:node, as cmmc --run does with a hostfile)";
    if (options.strictPlacement)
      return refuse(text + " (--strict-placement)");
    if (rank == 0)
      std::fprintf(stderr, "cmm: rank 0: warning: %s\n", text.c_str());
  }
  if (options.stats && rank == 0)
    std::fprintf(stderr, "cmm stats: placement: %s\n",
                 describePlacement(hosts).c_str());

  options.writeOutputs = true;
  stopOnSignals(rank);
  ProgramRun run(program, options, rank);
  body(run);
  run.writeTrace();
  const ExecResult &result = run.total();
  bool ok = rank != 0 || result.outputsWritten;
  if (options.stats && rank == 0 && program.numLoops == 0 &&
      run.segmentsRun() <= 1)
    std::fprintf(stderr,
                 "cmm stats: %d rank(s), tile size %lld, predicted makespan "
                 "%.4g s, measured %.4g s; %lld tasks, %d transfers, %.4g MB "
                 "moved, %lld cache hits\n",
                 plan.nodes, (long long)plan.tileSize, plan.predictedMakespan,
                 result.seconds, result.tasks, plan.numTransfers,
                 result.bytesReceived / 1e6, result.cacheHits);
  else if (options.stats && rank == 0)
    std::fprintf(stderr,
                 "cmm stats: %d rank(s), %d plan(s) run %d time(s), predicted "
                 "makespan %.4g s (at the assumed trip counts; %.4g s at the "
                 "trips run), measured %.4g s; %lld tasks, %lld transfers "
                 "(%lld more skipped: the tile was kept on its node), %.4g MB "
                 "moved, %lld cache hits\n",
                 plan.nodes, program.numPlans, run.segmentsRun(),
                 program.predictedMakespan, run.predictedForRunsMade(),
                 result.seconds, result.tasks, result.transfers,
                 result.transfersKept, result.bytesReceived / 1e6,
                 result.cacheHits);
  if (options.stats && rank == 0)
    run.reportLoops();
  if (options.stats && rank == 0 && result.communicators > 0)
    std::fprintf(stderr,
                 "cmm stats: %lld of %lld communicator thread(s) at "
                 "real-time priority%s\n",
                 result.realtimeCommunicators, result.communicators,
                 options.realtimeCommunicators &&
                         result.realtimeCommunicators < result.communicators
                     ? " (not permitted here: see docs/runtime.md, Polling)"
                     : "");
  if (options.stats && rank == 0)
    std::fprintf(stderr,
                 "cmm stats: CPU seconds over all ranks: worker threads "
                 "%.4g, communicator threads %.4g, whole processes %.4g\n",
                 result.workerCpuSeconds, result.communicatorCpuSeconds,
                 result.processCpuSeconds);
  if (options.stats) {
    // The pool's fresh pages are what the model's first touch prices
    // (docs/machine-model.md); --emit=plan prints the plan's predicted
    // peak of live tiles per node beside it.
    TileMemoryStats memory = tileMemoryStats();
    double local[2] = {double(memory.freshBytes), double(memory.peakLiveBytes)};
    double most[2] = {0, 0};
    MPI_Reduce(local, most, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::fprintf(stderr,
                   "cmm stats: tile memory, largest rank: %.4g MB written "
                   "fresh, peak %.4g MB live\n",
                   most[0] / 1e6, most[1] / 1e6);
  }
  if (options.stats && rank == 0 && result.sparseTiles > 0)
    std::fprintf(
        stderr,
        "cmm stats: %lld matrix-vector product(s) on the compressed "
        "rows of %lld tile(s): %lld nonzeros, %.3g %% of their "
        "elements\n",
        result.sparseProducts, result.sparseTiles, result.sparseNonzeros,
        100.0 * double(result.sparseNonzeros) / double(result.sparseElements));
  if (options.stats && rank == 0)
    printClassTimes(result.byClass);
  if (!ok) {
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Finalize();
  return 0;
}
