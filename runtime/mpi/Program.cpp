//===- Program.cpp - Plans run under run-time control flow ------*- C++ -*-===//

#include "cmmrt/Program.h"

#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace cmmrt;
using namespace cmmrt::plan;

void Environment::set(int32_t id, std::shared_ptr<const Matrix> matrix) {
  matrices.at(id) = std::move(matrix);
  ++versions.at(id);
  pieces.at(id).clear();
  whole.at(id) = true;
  dropCached(id);
}

void Environment::setPieces(
    int32_t id, int64_t rows, int64_t cols, std::vector<Piece> kept,
    const std::vector<std::shared_ptr<const Matrix>> &local) {
  set(id, nullptr);
  shapes.at(id) = {rows, cols};
  whole.at(id) = false;
  size_t next = 0;
  for (const Piece &piece : kept) {
    TileKey key = keyOf(id, piece);
    if (piece.node == rank) {
      keep(key, local.at(next++));
    } else if (rank == 0) {
      // As if rank 0 had sent it: a plan's transfer of this import tile
      // from the master is skipped on both ends.
      std::lock_guard<std::mutex> lock(mutex);
      sent.insert(key);
    }
  }
  pieces.at(id) = std::move(kept);
}

bool Environment::keptOn(int32_t id, const Slot &slot, int32_t node) const {
  for (const Piece &p : pieces.at(id))
    if (p.node == node && p.row0 == slot.row0 && p.col0 == slot.col0 &&
        p.rows == slot.rows && p.cols == slot.cols)
      return true;
  return false;
}

long long Environment::materialize(int32_t id, long long &bytes) {
  if (whole.at(id))
    return 0;
  auto [rows, cols] = shapes.at(id);
  Matrix assembled(rank == 0 ? rows : 0, rank == 0 ? cols : 0);
  long long moved = 0;
  // Pieces in one order on every rank; only rank 0 receives, so the
  // blocking calls cannot deadlock.
  for (const Piece &piece : pieces.at(id)) {
    int count = int(piece.rows * piece.cols);
    std::shared_ptr<const Matrix> tile;
    if (piece.node == rank)
      tile = cached(keyOf(id, piece));
    if (rank == 0) {
      if (piece.node != 0) {
        auto arrived = std::make_shared<Matrix>(piece.rows, piece.cols);
        MPI_Recv(arrived->data(), count, MPI_DOUBLE, piece.node,
                 kMaterializeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        tile = std::move(arrived);
        bytes += 8LL * count;
        ++moved;
      }
      for (int64_t i = 0; i < piece.rows; ++i)
        std::copy_n(tile->data() + i * piece.cols, piece.cols,
                    assembled.data() + (piece.row0 + i) * cols + piece.col0);
    } else if (piece.node == rank) {
      MPI_Send(tile->data(), count, MPI_DOUBLE, 0, kMaterializeTag,
               MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    matrices.at(id) = std::make_shared<const Matrix>(std::move(assembled));
  whole.at(id) = true;
  return moved;
}

void Environment::assign(const std::vector<int32_t> &to,
                         const std::vector<int32_t> &from) {
  struct Held {
    std::shared_ptr<const Matrix> matrix;
    bool whole;
    std::vector<Piece> pieces;
    std::pair<int64_t, int64_t> shape;
    std::vector<std::shared_ptr<const Matrix>> local;
  };
  std::vector<Held> values;
  for (int32_t id : from) {
    Held held{matrices.at(id), whole.at(id), pieces.at(id), shapes.at(id), {}};
    for (const Piece &piece : held.pieces)
      if (piece.node == rank)
        held.local.push_back(cached(keyOf(id, piece)));
    values.push_back(std::move(held));
  }
  for (size_t i = 0; i < to.size(); ++i) {
    Held &held = values[i];
    if (held.pieces.empty()) {
      set(to[i], held.matrix);
      continue;
    }
    setPieces(to[i], held.shape.first, held.shape.second, held.pieces,
              held.local);
    matrices.at(to[i]) = held.matrix;
    whole.at(to[i]) = held.whole;
  }
}

void Environment::dropCached(int32_t id) {
  std::lock_guard<std::mutex> lock(mutex);
  auto start = [](int32_t value) {
    return TileKey{value,     INT64_MIN, INT64_MIN, INT64_MIN,
                   INT64_MIN, INT64_MIN, INT32_MIN, INT32_MIN};
  };
  sent.erase(sent.lower_bound(start(id)), sent.lower_bound(start(id + 1)));
  received.erase(received.lower_bound(start(id)),
                 received.lower_bound(start(id + 1)));
}

bool Environment::firstSend(const TileKey &key) {
  std::lock_guard<std::mutex> lock(mutex);
  return sent.insert(key).second;
}

std::shared_ptr<const Matrix> Environment::cached(const TileKey &key) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = received.find(key);
  return it == received.end() ? nullptr : it->second;
}

void Environment::keep(const TileKey &key, std::shared_ptr<const Matrix> tile) {
  std::lock_guard<std::mutex> lock(mutex);
  received[key] = std::move(tile);
}

void ProgramRun::prefetch(const Plan &plan) {
  // Every rank goes through the tasks in the table's order, and in each
  // step only rank 0 receives (materialize) or sends (here): blocking calls
  // cannot deadlock.
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.kind != TaskKind::Load ||
        plan.ops[task.op].code != OpCode::Import || task.numOutputs != 1)
      continue;
    const Slot &s = plan.slots[task.firstOutput];
    int32_t value = int32_t(plan.ops[task.op].a);
    // A value in pieces is read where they are; a tile of it read anywhere
    // else needs it whole on the master first.
    if (!environment.isWhole(value) && !environment.keptOn(value, s, task.node))
      prefetchedTiles += environment.materialize(value, prefetchedBytes);
    // A piece kept on the node that imports it counts as sent there
    // (Environment::setPieces).
    if (task.node == 0)
      continue;
    TileKey key = environment.keyOf(value, s, /*from=*/0, task.node);
    int count = int(s.rows * s.cols);
    if (rank == 0 && environment.firstSend(key)) {
      std::shared_ptr<const Matrix> whole = environment.value(value);
      Matrix tile = sliceOf(*whole, s.row0, s.col0, s.rows, s.cols);
      MPI_Send(tile.data(), count, MPI_DOUBLE, task.node, kPrefetchTag,
               MPI_COMM_WORLD);
      prefetchedBytes += 8LL * count;
      ++prefetchedTiles;
    } else if (rank == task.node && !environment.cached(key)) {
      Matrix tile(s.rows, s.cols);
      MPI_Recv(tile.data(), count, MPI_DOUBLE, 0, kPrefetchTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      environment.keep(key, std::make_shared<const Matrix>(std::move(tile)));
    }
  }
}

void ProgramRun::segment(int32_t index) {
  const Plan &plan = *program.plans[index];
  long long bytesBefore = prefetchedBytes, tilesBefore = prefetchedTiles;
  double started = MPI_Wtime();
  prefetch(plan);
  double prefetchSeconds = MPI_Wtime() - started;
  long long prefetched = prefetchedBytes - bytesBefore;
  long long prefetchedNow = prefetchedTiles - tilesBefore;
  ExecOptions run = options;
  run.environment = &environment;
  run.iterations = iterations;
  run.firstDumpedPrint = dumpedPrints;
  // One trace over the whole program, not one file per plan run.
  if (!options.trace.empty() && !isOnePlan()) {
    run.traceSink = &traceEvents;
    run.traceStart = programStart;
    run.traceSegment = index;
  }
  ExecResult result;
  executePlan(plan, run, result);
  ++runs;
  predictedRuns += plan.predictedMakespan;
  dumpedPrints = result.dumpedPrints;
  exportValues(plan, result);
  // An output that could not be written ends a program with control flow
  // here (runProgram ends a one-plan program after its --stats).
  sum.outputsWritten = sum.outputsWritten && result.outputsWritten;
  if (rank == 0 && !result.outputsWritten &&
      (program.numPlans > 1 || program.numLoops > 0)) {
    std::fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // Totals (rank 0 has the sums over ranks), the prefetches among them.
  sum.add(result);
  sum.bytesSent += prefetched;
  sum.bytesReceived += prefetched;
  sum.transfers += prefetchedNow;
  // The prefetched tiles are transfers (the last entry: the sends).
  if (prefetchedNow && !sum.byClass.empty()) {
    sum.byClass.back().tasks += prefetchedNow;
    sum.byClass.back().measured += prefetchSeconds;
  }
  for (int32_t loop : active) {
    loops[loop].bytes += result.bytesSent + prefetched;
    loops[loop].transfers += result.transfers + prefetchedNow;
  }
}

void ProgramRun::exportValues(const Plan &plan, ExecResult &result) {
  std::map<int32_t, std::vector<int32_t>> tasksOf; // export op -> its tasks
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.kind == TaskKind::Gather &&
        plan.ops[task.op].code == OpCode::Export)
      tasksOf[task.op].push_back(t);
  }
  // In the plan's order on every rank (the versions agree).
  for (int32_t op = 0; op < plan.numOps; ++op) {
    const Op &o = plan.ops[op];
    if (o.code != OpCode::Export)
      continue;
    // Tasks of one tile each leave the value where they ran: in pieces,
    // unless it is one tile on the master (then it is whole there).
    std::vector<Piece> pieces;
    std::vector<std::shared_ptr<const Matrix>> local;
    const std::vector<int32_t> &tasks = tasksOf[op];
    for (int32_t t : tasks) {
      const Task &task = plan.tasks[t];
      if (task.numInputs != 1)
        break;
      const Slot &s = plan.slots[plan.inputs[task.firstInput]];
      pieces.push_back({s.row0, s.col0, s.rows, s.cols, task.node});
      if (task.node == rank) {
        auto it = result.exported.find(t);
        local.push_back(it == result.exported.end() ? nullptr : it->second);
      }
    }
    bool inPieces = !tasks.empty() && pieces.size() == tasks.size();
    bool oneTileOnMaster = inPieces && pieces.size() == 1 &&
                           pieces[0].node == 0 && pieces[0].rows == o.rows &&
                           pieces[0].cols == o.cols;
    if (inPieces && !oneTileOnMaster) {
      environment.setPieces(int32_t(o.a), o.rows, o.cols, std::move(pieces),
                            local);
      continue;
    }
    std::shared_ptr<const Matrix> value;
    if (rank == 0) {
      auto it = result.gathered.find(op);
      if (oneTileOnMaster)
        value = local.front();
      else if (it != result.gathered.end())
        value = std::make_shared<const Matrix>(std::move(it->second));
    }
    environment.set(int32_t(o.a), std::move(value));
  }
}

void ProgramRun::wholeOnMaster(int32_t id) {
  long long bytes = 0;
  long long tiles = environment.materialize(id, bytes);
  sum.bytesSent += bytes;
  sum.bytesReceived += bytes;
  sum.transfers += tiles;
  for (int32_t loop : active) {
    loops[loop].bytes += bytes;
    loops[loop].transfers += tiles;
  }
}

void ProgramRun::writeTrace() const {
  if (rank == 0 && !options.trace.empty() && !isOnePlan())
    writeTraceFile(options.trace, traceEvents, rank);
}

bool ProgramRun::condition(int32_t id, int line, int column) {
  wholeOnMaster(id);
  double value = 0;
  if (rank == 0) {
    std::shared_ptr<const Matrix> m = environment.value(id);
    value = m && m->size() == 1 ? m->data()[0] : std::nan("");
    if (std::isnan(value)) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "cmm: rank 0: %s:%d:%d: error: the condition is NaN\n",
                   program.sourceFile, line, column);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return value != 0;
}

void ProgramRun::beginLoop(int32_t loop) {
  active.push_back(loop);
  iterations.push_back(1);
  ++loops[loop].entries;
  ++loops[loop].trips;
}

void ProgramRun::closeTrip(LoopRecord &loop) {
  if (loop.firstTripBytes < 0) {
    loop.firstTripBytes = loop.bytes;
    loop.firstTripTransfers = loop.transfers;
  } else {
    loop.laterTripBytes = std::max(loop.laterTripBytes, loop.bytes);
    loop.laterTripTransfers = std::max(loop.laterTripTransfers, loop.transfers);
  }
  loop.bytes = loop.transfers = 0;
}

void ProgramRun::nextTrip(int32_t loop) {
  closeTrip(loops[loop]);
  ++iterations.back();
  ++loops[loop].trips;
}

void ProgramRun::endLoop(int32_t loop) {
  // The last trip ran the condition only: counted with the trips, as the
  // interpreter's iteration numbers count it.
  closeTrip(loops[loop]);
  active.pop_back();
  iterations.pop_back();
}

void ProgramRun::reportLoops() const {
  for (int32_t l = 0; l < program.numLoops; ++l) {
    const LoopInfo &info = program.loops[l];
    const LoopRecord &r = loops[l];
    // Each entry runs the condition once more than the body.
    std::fprintf(stderr,
                 "cmm stats: loop at %s:%d:%d: %lld trip(s) of its body "
                 "(the plan assumed %lld, %s); sent per trip: first %lld "
                 "transfer(s) %.4g MB, later at most %lld transfer(s) "
                 "%.4g MB\n",
                 program.sourceFile, info.line, info.column,
                 (long long)(r.trips - r.entries), (long long)info.assumedTrips,
                 info.annotated ? "from '# expect'" : "the default",
                 r.firstTripTransfers, std::max(0LL, r.firstTripBytes) / 1e6,
                 r.laterTripTransfers, r.laterTripBytes / 1e6);
  }
}
