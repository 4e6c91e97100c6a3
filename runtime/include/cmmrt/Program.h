//===- Program.h - Plans run under run-time control flow --------*- C++ -*-===//
//
// A program with `while` or `if` decided at run time (docs/language.md
// §14.2) is planned as straight-line segments, one plan each
// (docs/planner.md, "Run-time control flow"); its generated `main` runs them
// under the loops and branches of the source:
//
//   run.segment(0);                       // before the loop
//   run.assign({4}, {1});                 // the carried values enter it
//   for (run.beginLoop(0);; run.nextTrip(0)) {
//     run.segment(1);                     // the condition's ops
//     if (!run.condition(6, 0)) break;
//     ...
//   }
//   run.endLoop(0);
//
// The values that cross from one segment to another live in the
// Environment, whole, on rank 0 (the master): a segment's `import` ops read
// their tiles from there and its `export` gathers put its results there;
// or in pieces, each tile kept on the node that made it, where the plan
// that reads the value wants it (tiling::kKeepOnAttr), and assembled on
// the master only if something else reads it (Environment::materialize).
// Every import of a given value version is the same tile, so a tile sent to
// a node is kept there (Environment's cache) and later segments' transfers
// of it are skipped on both ends. The planner places the imports of a
// loop-invariant value freely (tiling::kInvariantAttr): before a segment,
// rank 0 sends those tiles to their nodes once per value version
// (ProgramRun::prefetch), and the import tasks there read the kept copy.
// A loop-invariant matrix crosses the network once per node over the whole
// loop, not once per trip, and the plan of a loop body is its steady state.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_PROGRAM_H
#define CMMRT_PROGRAM_H

#include "cmmrt/ChromeTrace.h"
#include "cmmrt/Executor.h"
#include "cmmrt/Matrix.h"
#include "cmmrt/Plan.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

namespace cmmrt {

/// A tile of one version of an environment value sent from node `from` to
/// node `to`: both ends know whether it went before (the sender what it
/// sent, the receiver what it received from that sender).
struct TileKey {
  int32_t value;
  int64_t version, row0, col0, rows, cols;
  int32_t from, to;
  bool operator<(const TileKey &o) const {
    return std::tie(value, version, row0, col0, rows, cols, from, to) <
           std::tie(o.value, o.version, o.row0, o.col0, o.rows, o.cols, o.from,
                    o.to);
  }
};

/// A tile of an environment value kept on the node that made it: an export
/// whose tiles a later segment reads where they are (tiling::kKeepOnAttr)
/// is not gathered to the master.
struct Piece {
  int64_t row0, col0, rows, cols;
  int32_t node;
};

/// The values crossing between the segments of a program, numbered as the
/// generated program numbers them. Rank 0 holds the matrices, or the value
/// is in pieces on the nodes that made them; every rank holds the versions
/// and the pieces' places (each rank runs the same segments, so they agree)
/// and its side of the transfer cache, where its own pieces are.
class Environment {
public:
  /// `values` values, as seen from MPI rank `rank`.
  Environment(int32_t values, int rank)
      : rank(rank), matrices(values), versions(values, 0), pieces(values),
        shapes(values), whole(values, true) {}

  int32_t size() const { return int32_t(versions.size()); }
  /// Rank 0: the current value of `id` (null before it is set).
  std::shared_ptr<const Matrix> value(int32_t id) const {
    return matrices.at(id);
  }
  int64_t version(int32_t id) const { return versions.at(id); }
  /// The key of tile `slot` of the current version of `id` sent from node
  /// `from` to node `to`.
  TileKey keyOf(int32_t id, const plan::Slot &slot, int32_t from,
                int32_t to) const {
    return {id,        version(id), slot.row0, slot.col0,
            slot.rows, slot.cols,   from,      to};
  }
  /// The key a piece is kept under on its node: as if the master had sent
  /// it there, so imports and transfers of that tile find it.
  TileKey keyOf(int32_t id, const Piece &piece) const {
    return {id,         version(id), piece.row0, piece.col0,
            piece.rows, piece.cols,  0,          piece.node};
  }
  /// Every rank: `id` has a new value (rank 0 passes it; the others null);
  /// the cached tiles of the old one are dropped.
  void set(int32_t id, std::shared_ptr<const Matrix> matrix);
  /// Every rank: `id` has a new value of `rows` x `cols` in `pieces`, each on
  /// its node; `local` holds this rank's tiles, in the order of its pieces.
  void setPieces(int32_t id, int64_t rows, int64_t cols,
                 std::vector<Piece> pieces,
                 const std::vector<std::shared_ptr<const Matrix>> &local);
  /// Every rank: whether rank 0 has `id` whole (else it is in pieces).
  bool isWhole(int32_t id) const { return whole.at(id); }
  const std::vector<Piece> &piecesOf(int32_t id) const { return pieces.at(id); }
  /// Every rank: whether tile `slot` of `id` is a piece kept on `node`.
  bool keptOn(int32_t id, const plan::Slot &slot, int32_t node) const;
  /// Every rank, all at once: rank 0 assembles `id` from its pieces (each
  /// holder sends its own); the pieces stay where they are. Returns the
  /// tiles that crossed to rank 0, and adds their bytes to `bytes`.
  long long materialize(int32_t id, long long &bytes);
  /// Every rank: to[i] = from[i] for all i at once (the carried values of a
  /// loop entering, going round or leaving it). A value in pieces stays in
  /// pieces: each rank keys its own again.
  void assign(const std::vector<int32_t> &to, const std::vector<int32_t> &from);

  /// The sending side of a cached transfer: true the first time `key` is
  /// sent (the caller sends it), false after (the receiver has it).
  bool firstSend(const TileKey &key);
  /// The receiving side: the tile kept from an earlier receipt, or null
  /// (the caller receives it and keeps it).
  std::shared_ptr<const Matrix> cached(const TileKey &key);
  void keep(const TileKey &key, std::shared_ptr<const Matrix> tile);

private:
  void dropCached(int32_t id);
  static constexpr int kMaterializeTag = 8;

  int rank;
  std::vector<std::shared_ptr<const Matrix>> matrices;
  std::vector<int64_t> versions;
  std::vector<std::vector<Piece>> pieces; // of the values not whole
  std::vector<std::pair<int64_t, int64_t>> shapes;
  std::vector<bool> whole;
  std::mutex mutex; // the cache: communicator threads use it at once
  std::set<TileKey> sent;
  std::map<TileKey, std::shared_ptr<const Matrix>> received;
};

/// A run-time loop of the source, for messages and --stats.
struct LoopInfo {
  int line, column;
  int64_t assumedTrips; // what the plans' simulation assumed
  bool annotated;       // from `# expect N` (else the default)
};

/// What a generated program describes of itself.
struct ProgramInfo {
  const char *sourceFile;
  int32_t numValues; // environment values
  const plan::Plan *const *plans;
  int32_t numPlans;
  const LoopInfo *loops;
  int32_t numLoops;
  /// The predicted makespan of the whole program at the assumed trips.
  double predictedMakespan;
};

/// What a generated program's control code calls (every rank alike).
class ProgramRun {
public:
  ProgramRun(const ProgramInfo &program, const ExecOptions &options, int rank)
      : program(program), options(options), rank(rank),
        environment(program.numValues, rank), loops(program.numLoops),
        programStart(std::chrono::steady_clock::now()) {}

  /// Runs plan `index` (executePlan) under the environment; its exports
  /// become the values they name.
  void segment(int32_t index);
  /// The truth of the 1x1 value `id` on every rank (rank 0 broadcasts it);
  /// a NaN ends the run with an error at `line`:`column`.
  bool condition(int32_t id, int line, int column);
  void assign(std::initializer_list<int32_t> to,
              std::initializer_list<int32_t> from) {
    environment.assign(to, from);
  }
  void beginLoop(int32_t loop);
  void nextTrip(int32_t loop);
  void endLoop(int32_t loop);

  /// Summed over the segments run (rank 0).
  const ExecResult &total() const { return sum; }
  int32_t segmentsRun() const { return runs; }
  /// The plans' predicted makespans summed over the runs made: the
  /// prediction at the trips the loops took.
  double predictedForRunsMade() const { return predictedRuns; }
  /// --stats lines of the loops (rank 0).
  void reportLoops() const;
  /// With CMM_TRACE, in a program of several plan runs: rank 0 writes the
  /// events of every run (each run's own tasks and transfers, at their time
  /// since the program started, with the segment and trips in their args).
  void writeTrace() const;
  /// Whether the program is one plan run once (no control flow).
  bool isOnePlan() const {
    return program.numPlans == 1 && program.numLoops == 0;
  }

private:
  struct LoopRecord {
    int64_t entries = 0, trips = 0; // trips: runs of the condition
    long long bytes = 0;            // sent in the current trip
    long long firstTripBytes = -1;  // sent in the first trip
    long long laterTripBytes = 0;   // most sent in any later trip
    long long transfers = 0;        // in the current trip
    long long firstTripTransfers = 0, laterTripTransfers = 0;
  };
  void closeTrip(LoopRecord &loop);
  /// Before a segment: the tiles of its imports placed on other nodes than
  /// the master (loop-invariant values the plan put there) go there, each
  /// once per value version (kept by the receiver, Environment).
  void prefetch(const plan::Plan &plan);
  /// After a segment: its exports become the values they name, whole on
  /// the master or in pieces where their tasks ran.
  void exportValues(const plan::Plan &plan, ExecResult &result);
  /// Every rank: `id` whole on the master (Environment::materialize),
  /// counted as transfers.
  void wholeOnMaster(int32_t id);
  static constexpr int kPrefetchTag = 7;
  long long prefetchedBytes = 0, prefetchedTiles = 0; // rank 0: sent

  const ProgramInfo &program;
  const ExecOptions &options;
  int rank;
  Environment environment;
  std::vector<LoopRecord> loops;
  std::vector<int32_t> active;     // the loops running, outermost first
  std::vector<int64_t> iterations; // their trip numbers (from 1)
  ExecResult sum;
  int32_t runs = 0;
  double predictedRuns = 0;
  int dumpedPrints = 0;
  std::chrono::steady_clock::time_point programStart;
  trace::EventList traceEvents; // rank 0: of the runs so far
};

/// The main function of a generated program with run-time control flow:
/// `body` is its control code. As runPlan (Plan.h) otherwise.
int runProgram(const ProgramInfo &program, void (*body)(ProgramRun &), int argc,
               char **argv);

} // namespace cmmrt

#endif // CMMRT_PROGRAM_H
