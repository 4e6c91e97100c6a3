//===- cmm-profile.cpp - Measure a machine model on the cluster -----------===//
//
// Usage (the same launcher and host file as the jobs the model is for):
//
//   mpirun -np N [--hostfile H] cmm-profile -o cluster.json [--quick]
//
// Every rank is a node of the model (a generated program runs one rank per
// node). Each rank times the runtime's tasks of every cost class at a range
// of sizes, with the BLAS threads a program would give it (its host's cores
// shared among the host's ranks), all ranks at once so that ranks sharing a
// host contend as they do in a run; then every directed pair of ranks
// measures its link. Each kernel signature is repeated until its mean is
// known to --tolerance at --confidence (Critter's rule, Profile/Statistics.h)
// and the Table 1 polynomials are fitted by relative least squares
// (Profile/Fit.h). The model is written as JSON (docs/machine-model.md) with
// its provenance: hosts, date, BLAS, OPENBLAS_CORETYPE and the error of
// every fit.
//
//===----------------------------------------------------------------------===//

#include "ExecutorTimings.h"
#include "cmm/Profile/CacheReuse.h"
#include "cmm/Profile/Configurations.h"
#include "cmm/Profile/FirstTouch.h"
#include "cmm/Profile/Fit.h"
#include "cmm/Profile/Refine.h"
#include "cmm/Profile/Statistics.h"
#include "cmm/Profile/TaskBench.h"
#include "cmm/Scheduling/MachineModel.h"
#include "cmmrt/BlasThreads.h"
#include "cmmrt/Placement.h"
#include "cmmrt/RowBands.h"
#include "cmmrt/TileMemory.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <sched.h>
#include <thread>
#include <unistd.h>

using namespace cmm;
using namespace cmm::profile;
namespace cl = llvm::cl;
namespace json = llvm::json;
using cmmrt::plan::CostClass;
using cmmrt::plan::kNumCostClasses;

extern "C" char *openblas_get_config(void);

static cl::OptionCategory category("cmm-profile options");

static cl::opt<std::string> outputPath("o", cl::desc("Output model (JSON)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<bool>
    quick("quick",
          cl::desc("Fewer and smaller sizes and a looser tolerance: about a "
                   "minute on a 2-core machine"),
          cl::init(false), cl::cat(category));
static cl::opt<double> tolerance(
    "tolerance",
    cl::desc("Repeat a kernel until the confidence interval of its mean is "
             "within this fraction of the mean (default 0.05; --quick 0.1)"),
    cl::init(0), cl::cat(category));
static cl::opt<double>
    confidence("confidence",
               cl::desc("Confidence level of the interval (default 0.95)"),
               cl::init(0.95), cl::cat(category));
static cl::opt<unsigned> minReps("min-reps",
                                 cl::desc("Repetitions at least (default 3)"),
                                 cl::init(3), cl::cat(category));
static cl::opt<unsigned> maxReps("max-reps",
                                 cl::desc("Repetitions at most (default 200)"),
                                 cl::init(200), cl::cat(category));
static cl::opt<double> maxSeconds(
    "max-seconds",
    cl::desc("Time spent on one kernel signature at most, seconds (default "
             "2; --quick 0.5)"),
    cl::init(0), cl::cat(category));
static cl::opt<double> budget(
    "budget",
    cl::desc("Wall time the compute kernels may take in all, seconds: each "
             "signature's time cap is lowered to its share of what is left "
             "(default 0: none; --quick 45, which ranks sharing a host split "
             "between their profile and their master's alone)"),
    cl::init(-1), cl::cat(category));
static cl::opt<unsigned>
    passes("passes",
           cl::desc("Time every compute signature in this many rounds over all "
                    "classes and keep each one's median (default 3)"),
           cl::init(3), cl::cat(category));
static cl::opt<std::string> refineTrace(
    "refine",
    cl::desc("Instead of measuring: refit the class polynomials of the model "
             "(-m) to the tasks of this trace of a run (CMM_TRACE=run.json), "
             "without MPI"),
    cl::value_desc("trace.json"), cl::init(""), cl::cat(category));
static cl::opt<std::string> refineModelPath(
    "m",
    cl::desc("With --refine: the model the run was planned with (default: "
             "the built-in model for the trace's node count)"),
    cl::value_desc("model.json"), cl::init(""), cl::cat(category));
static cl::opt<std::string> modelName("name",
                                      cl::desc("The model's name (default: "
                                               "the host names)"),
                                      cl::init(""), cl::cat(category));

namespace {

/// The rank's host: the model's node when one rank runs there.
struct Host {
  std::string name, cpu;
  unsigned cores = 1;
  double memoryBytes = 0;
};

Host thisHost() {
  Host h;
  cmmrt::RankHost rankHost = cmmrt::thisRankHost();
  h.name = rankHost.host;
  h.cores = rankHost.cores;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      h.cpu = colon == std::string::npos ? line : line.substr(colon + 2);
      break;
    }
  h.memoryBytes = double(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  return h;
}

/// Sends a string from `from` to rank 0 (or keeps it on rank 0).
std::string toMaster(const std::string &text, int from, int rank) {
  if (from == 0)
    return text;
  if (rank == from) {
    int len = int(text.size());
    MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(text.data(), len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    return "";
  }
  if (rank != 0)
    return "";
  int len = 0;
  MPI_Recv(&len, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string out(len, '\0');
  MPI_Recv(out.data(), len, MPI_CHAR, from, 1, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return out;
}

/// What a rank measured of its compute: the fitted time table and, per
/// class, the fit's error and the sampling statistics, as JSON text.
struct ComputeProfile {
  std::array<scheduling::TimePolynomial, kNumCostClasses> time{};
  json::Object report;
  double seconds = 0;
  unsigned rounds = 1;       // the compute signatures' rounds (--passes)
  double roundTolerance = 0; // each round's sampling tolerance
  double budgetSeconds = 0;  // --budget's share for this profile (0: none)
  unsigned budgetLowered = 0; // signatures whose cap the budget lowered
};

/// Every cost class's polynomial, fitted over its bench sizes; the ranks of
/// `comm` start each size together. The sizes are timed in `passes` rounds
/// over all classes and each signature's time is the median of its rounds'
/// means (one round for a signature whose one call takes the time cap): this VM
/// has phases of seconds in which DGEMM runs at half its rate (one profile's
/// 512 x 512 x 64 product measured 2.6x another's), and a phase spans a few
/// signatures of one round, not one signature of every round. With a
/// `budgetSeconds` (> 0), each signature's cap is at most its share of the
/// wall time left (budgetedMaxSeconds): on a noisy day more signatures run
/// to their caps, and the budget keeps the whole within its time.
ComputeProfile profileCompute(const SamplingRule &rule,
                              MPI_Comm comm = MPI_COMM_WORLD,
                              double budgetSeconds = 0) {
  ComputeProfile out;
  out.budgetSeconds = budgetSeconds;
  double begin = MPI_Wtime();
  // A round samples to a looser tolerance and smaller caps, so that the
  // rounds together take about as many samples as one round to `rule`
  // would: the half-width of a mean shrinks with the square root of the
  // samples.
  unsigned rounds = out.rounds = std::max(1u, unsigned(passes));
  SamplingRule roundRule = rule;
  roundRule.tolerance = rule.tolerance * std::sqrt(double(rounds));
  roundRule.maxSeconds = rule.maxSeconds / rounds;
  roundRule.maxReps = std::max(rule.minReps, rule.maxReps / rounds);
  out.roundTolerance = roundRule.tolerance;
  struct Signature {
    Observation shape;
    std::vector<double> roundMeans;
    RunningStats pooled; // every sample of every round
    double worstRoundHalfWidth = 0;
    unsigned capped = 0;
  };
  std::array<std::vector<Signature>, kNumCostClasses> signatures;
  std::array<double, kNumCostClasses> classSeconds{};
  size_t signaturesLeft = 0;
  for (unsigned c = 0; c < kNumCostClasses; ++c)
    if (isTimed(CostClass(c)))
      signaturesLeft += rounds * benchSizes(CostClass(c), quick).size();
  double measuredSeconds = 0;
  for (unsigned round = 0; round < rounds; ++round)
    for (unsigned c = 0; c < kNumCostClasses; ++c) {
      CostClass cost = CostClass(c);
      if (!isTimed(cost))
        continue;
      std::vector<Observation> sizes = benchSizes(cost, quick);
      signatures[c].resize(sizes.size());
      double classBegin = MPI_Wtime();
      for (size_t i = 0; i < sizes.size(); ++i, --signaturesLeft) {
        const Observation &size = sizes[i];
        // A signature one call of which takes a signature's whole time cap
        // (an eigendecomposition of 2000: 0.8 s, timed in --quick because
        // LAPACK's rate past the cache is not a fit's extrapolation from
        // inside it) is timed in the first round only, where its one sample
        // is the warm-up call (its fresh pages included: about 96 MB, a few
        // per cent of eig's 0.8 s). The ranks decide together: their
        // barriers must pair.
        if (round > 0) {
          double first = signatures[c][i].roundMeans.front(), longest = 0;
          MPI_Allreduce(&first, &longest, 1, MPI_DOUBLE, MPI_MAX, comm);
          if (longest >= rule.maxSeconds)
            continue;
        }
        // Ranks sharing a host start each size together, so they contend
        // for its cores and memory as a program's ranks do.
        MPI_Barrier(comm);
        SamplingRule signatureRule = roundRule;
        if (budgetSeconds > 0) {
          double wall = MPI_Wtime() - begin;
          signatureRule.maxSeconds = budgetedMaxSeconds(
              roundRule.maxSeconds, budgetSeconds - wall, signaturesLeft,
              wall > 0 ? measuredSeconds / wall : 1);
          out.budgetLowered += signatureRule.maxSeconds < roundRule.maxSeconds;
        }
        TaskBench bench(cost, int64_t(size.m), int64_t(size.n),
                        int64_t(size.k));
        Sampled s =
            sampleUntilConfident([&] { return bench.run(); }, signatureRule);
        measuredSeconds += s.stats.mean() * s.stats.count();
        Signature &sig = signatures[c][i];
        sig.shape = bench.signature();
        sig.roundMeans.push_back(s.stats.mean());
        sig.pooled.merge(s.stats);
        sig.worstRoundHalfWidth =
            std::max(sig.worstRoundHalfWidth,
                     relativeHalfWidth(s.stats, rule.confidence));
        sig.capped += s.reason != StopReason::Confident;
      }
      classSeconds[c] += MPI_Wtime() - classBegin;
    }
  for (unsigned c = 0; c < kNumCostClasses; ++c) {
    CostClass cost = CostClass(c);
    if (!isTimed(cost))
      continue;
    std::vector<Observation> points;
    double worstHalfWidth = 0, worstRoundHalfWidth = 0, worstCov = 0,
           worstSpread = 1;
    unsigned capped = 0, samples = 0;
    json::Array measured;
    for (Signature &sig : signatures[c]) {
      Observation o = sig.shape;
      o.seconds = median(sig.roundMeans);
      points.push_back(o);
      auto [fastest, slowest] =
          std::minmax_element(sig.roundMeans.begin(), sig.roundMeans.end());
      worstSpread = std::max(worstSpread, *slowest / *fastest);
      worstHalfWidth = std::max(worstHalfWidth,
                                relativeHalfWidth(sig.pooled, rule.confidence));
      worstRoundHalfWidth =
          std::max(worstRoundHalfWidth, sig.worstRoundHalfWidth);
      worstCov = std::max(worstCov, sig.pooled.cov());
      capped += sig.capped;
      samples += sig.pooled.count();
      json::Array rounds;
      for (double t : sig.roundMeans)
        rounds.push_back(t);
      measured.push_back(
          json::Array{o.m, o.n, o.k, o.seconds, std::move(rounds)});
    }
    PolynomialFit fit = fitTimePolynomial(points, fittedTerms(cost),
                                          scheduling::isRooflineClass(cost));
    out.time[c] = fit.poly;
    out.report[cmmrt::plan::costClassName(cost)] = json::Object{
        {"signatures", int64_t(points.size())},
        {"samples", int64_t(samples)},
        {"capped", int64_t(capped)},
        {"max_cov", worstCov},
        {"max_relative_half_width", std::isfinite(worstHalfWidth)
                                        ? json::Value(worstHalfWidth)
                                        : json::Value(nullptr)},
        {"max_round_relative_half_width", std::isfinite(worstRoundHalfWidth)
                                              ? json::Value(worstRoundHalfWidth)
                                              : json::Value(nullptr)},
        {"max_round_spread", worstSpread},
        {"rms_relative_error", fit.rmsRelativeError},
        {"max_relative_error", fit.maxRelativeError},
        {"seconds", classSeconds[c]},
        {"measured", std::move(measured)}};
  }
  // The classes not timed are their fallbacks' (TaskBench.h, isTimed).
  for (unsigned c = 0; c < kNumCostClasses; ++c)
    if (!isTimed(CostClass(c)))
      out.time[c] =
          out.time[unsigned(cmmrt::plan::costClassFallback(CostClass(c)))];
  out.seconds = MPI_Wtime() - begin;
  return out;
}

void sleepingBarrier();

/// The runtime's seconds per task beyond its kernel (ExecutorTimings.h):
/// the least-squares slope of a chain's run time over four lengths, each
/// the median of five runs (so thread start-up and set-up cancel), less
/// the chain task's own kernel time in the fitted model. Collective; each
/// rank's own. The ranks start each run together: a rank's chain ends in
/// the tile its neighbour sends, so one that started late is in the other's
/// time. (Two lengths were too few: on 2026-12-02 rank 0 of two timed the
/// 200-task chain at 4.2 ms, above its 5000-task 2.6 ms, and the slope
/// clamped to 0 made the built-in two-rank model's tasks free.)
struct OverheadProfile {
  double overhead = 0;
  json::Array measured; // [tasks, seconds] per chain length
};

OverheadProfile profileTaskOverhead(const scheduling::TimePolynomial &scale) {
  OverheadProfile out;
  const std::vector<int> lengths =
      quick ? std::vector<int>{200, 700, 1300, 2000}
            : std::vector<int>{200, 1800, 3400, 5000};
  std::vector<double> seconds;
  for (int tasks : lengths) {
    std::vector<double> runs;
    for (int r = 0; r < 5; ++r) {
      sleepingBarrier();
      runs.push_back(executorChainSeconds(tasks));
    }
    seconds.push_back(median(std::move(runs)));
    out.measured.push_back(json::Array{tasks, seconds.back()});
  }
  double meanTasks = 0, meanSeconds = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    meanTasks += lengths[i] / double(lengths.size());
    meanSeconds += seconds[i] / double(lengths.size());
  }
  double covariance = 0, variance = 0;
  for (size_t i = 0; i < lengths.size(); ++i) {
    covariance += (lengths[i] - meanTasks) * (seconds[i] - meanSeconds);
    variance += (lengths[i] - meanTasks) * (lengths[i] - meanTasks);
  }
  double perTask = covariance / variance;
  out.overhead = std::max(0.0, perTask - std::max(0.0, scale.eval(1, 1)));
  return out;
}

/// Table 3 of the paper on this rank (Profile/Configurations.h): every split
/// of its `cores` the runtime can run, all its workers multiplying at once
/// (size^3 each), and each split's worker time relative to the split the
/// polynomials were fitted on (one worker of `cores` threads).
struct ConfigurationProfile {
  std::vector<scheduling::NodeConfiguration> splits;
  json::Array measured; // [workers, threads, seconds, cov, samples, GFLOPS]
  int64_t size = 0;     // each worker's product: size^3
  double seconds = 0;
};

ConfigurationProfile profileConfigurations(unsigned cores,
                                           const SamplingRule &rule) {
  ConfigurationProfile out;
  double begin = MPI_Wtime();
  const int64_t size = out.size = quick ? 400 : 1000;
  double reference = 0;
  for (Split split : runnableSplits(cores)) {
    Sampled s = timeSplit(split, size, rule, cores);
    double seconds = s.stats.mean();
    // The round's time for now; over the reference's once that is known.
    out.splits.push_back({split.workers, split.threads, seconds});
    if (split.workers == 1 && split.threads == cores)
      reference = seconds;
    out.measured.push_back(json::Array{
        int64_t(split.workers), int64_t(split.threads), seconds, s.stats.cov(),
        int64_t(s.stats.count()),
        split.workers * 2.0 * double(size) * size * size / seconds / 1e9});
  }
  for (scheduling::NodeConfiguration &c : out.splits)
    c.gemmFactor /= reference;
  out.seconds = MPI_Wtime() - begin;
  return out;
}

enum Tag { Data = 1, Ack = 2, Stop = 3 };

/// One directed link `from` -> `to`, measured by `from`: one-way times of
/// messages of several sizes (each a send and a zero-byte acknowledgement,
/// less half a zero-byte round trip), fitted as latency + bytes /
/// bandwidth. Ranks other than the two wait.
struct LinkProfile {
  int from = 0, to = 0;
  scheduling::LinkSpec link;
  double rmsRelativeError = 0;
  json::Array measured;
  /// Through the executor only: the communicator CPU seconds charged to the
  /// receiver (with the sender's on shared cores), fitted as per transfer +
  /// per byte, and the fit's error; measured as [bytes, sender CPU s,
  /// receiver CPU s, charged CPU s] per transfer.
  double receiveCpu = 0, receiveCpuPerByte = 0, receiveCpuError = 0;
  /// Between hosts only: the sending communicator's CPU seconds, fitted
  /// the same way (0 on shared cores, where the receive is charged both).
  double sendCpu = 0, sendCpuPerByte = 0, sendCpuError = 0;
  json::Array cpuMeasured;
  bool sharedCores = false; // receive CPU charged with the sender's
};

/// `out`'s latency + bytes / bandwidth, fitted to (bytes, seconds) points
/// by relative least squares, and the fit's error.
void fitLink(const std::vector<Observation> &points, LinkProfile &out) {
  PolynomialFit fit = fitTimePolynomial(points, terms({One, M}));
  out.link.latency = fit.poly.a[One];
  out.link.bandwidth =
      fit.poly.a[M] > 0 ? 1 / fit.poly.a[M] : scheduling::LinkSpec().bandwidth;
  out.rmsRelativeError = fit.rmsRelativeError;
}

/// CPU seconds per transfer and per byte fitted to (bytes, CPU seconds)
/// points by non-negative least squares on the relative error, over the
/// tiles of 320 KB and up: below that a transfer's CPU is a few
/// microseconds of polling noise, and a plain fit let the largest tile's
/// milliseconds set the intercept to 0 (on 2026-11-26 320 KB receives
/// measured 135-184 us against 93 us from such a fit; PageRank's 2210 of
/// them ran 2x its prediction). Weighting each point by 1 / its time makes
/// the 320 KB tiles, a program's common size, count as much as the largest.
void fitCpu(const std::vector<Observation> &points, double &perTransfer,
            double &perByte, double &rmsRelativeError) {
  std::vector<Observation> large;
  for (const Observation &p : points)
    if (p.m >= 320000)
      large.push_back(p);
  std::vector<double> a, b; // column-major: 1 / t, then MB / t
  for (const Observation &p : large)
    a.push_back(1 / p.seconds);
  for (const Observation &p : large) {
    a.push_back(p.m * 1e-6 / p.seconds);
    b.push_back(1.0);
  }
  std::vector<double> x = nonNegativeLeastSquares(a, large.size(), 2, b);
  perTransfer = x[0];
  perByte = x[1] * 1e-6;
  double sum = 0;
  for (const Observation &p : large) {
    double e = (perTransfer + perByte * p.m) / p.seconds - 1;
    sum += e * e;
  }
  rmsRelativeError = large.empty() ? 0.0 : std::sqrt(sum / large.size());
}

/// The mean per-transfer and per-byte CPU (the `perTransfer` and `perByte`
/// fields) over the links `take` selects; 0 when it selects none.
template <typename Take>
void meanCpu(const std::vector<LinkProfile> &links, Take take,
             double LinkProfile::*perTransfer, double LinkProfile::*perByte,
             double &meanPerTransfer, double &meanPerByte) {
  unsigned count = 0;
  meanPerTransfer = meanPerByte = 0;
  for (const LinkProfile &l : links)
    if (take(l)) {
      meanPerTransfer += l.*perTransfer;
      meanPerByte += l.*perByte;
      ++count;
    }
  if (count) {
    meanPerTransfer /= count;
    meanPerByte /= count;
  }
}

/// A directed link through the runtime's executor (ExecutorTimings.h): for
/// tiles of 1.6 KB to 8 MB (32 MB), the median over three runs of the mean
/// seconds per transfer, fitted as latency + bytes / bandwidth. Collective;
/// the result on rank 0.
/// Between hosts (not `sharedCores`) the link is fitted to the large tiles
/// only (below). Where the two ranks share a host, the receive CPU is
/// fitted to both ends' communicator CPU: which end copies a large message
/// through shared memory depends on which posts first (on 2026-11-27 a 320 KB
/// transfer's receiver took 3 us one way and 130 us the other, the sender
/// 96-100 us), and either end's CPU comes out of the cores the host's
/// workers share.
LinkProfile profileExecutorLink(int from, int to, int rank, bool sharedCores) {
  LinkProfile out;
  out.from = from;
  out.to = to;
  out.sharedCores = sharedCores;
  // From a 1.6 KB vector tile up (an 8-byte send completes at the sender
  // before the receiver has it: eager MPI, nothing of the link's time).
  std::vector<std::pair<int64_t, int64_t>> tiles = {
      {1, 200}, {1, 2000}, {200, 200}, {1000, 1000}};
  if (!quick)
    tiles.push_back({2000, 2000});
  int count = quick ? 12 : 24;
  std::vector<Observation> points, cpuPoints, sendPoints;
  for (auto [rows, cols] : tiles) {
    std::vector<double> runs, sent, received, charged;
    for (int r = 0; r < 3; ++r) {
      TransferTiming t = executorTransfer(from, to, rows, cols, count);
      runs.push_back(t.seconds);
      sent.push_back(t.senderCpu);
      received.push_back(t.receiverCpu);
      charged.push_back(t.receiverCpu + (sharedCores ? t.senderCpu : 0));
    }
    double bytes = 8.0 * double(rows) * double(cols);
    points.push_back({bytes, 1, 1, std::max(median(runs), 1e-9)});
    cpuPoints.push_back({bytes, 1, 1, std::max(median(charged), 1e-9)});
    sendPoints.push_back({bytes, 1, 1, std::max(median(sent), 1e-9)});
    out.measured.push_back(json::Array{bytes, median(runs)});
    out.cpuMeasured.push_back(
        json::Array{bytes, median(sent), median(received), median(charged)});
  }
  if (rank != 0)
    return out;
  // Between hosts, a tile below Open MPI's eager limits (64 KB over TCP) is
  // done for the sender once the socket buffer takes it, before the link
  // carries it: on the emulated cluster's 100 Mbit link 16 KB transfers
  // measured 11 us against 1.3 ms on the wire, and the fit over every tile
  // came out at 10 GB/s. There the link is fitted to the tiles of 256 KiB
  // and up (rendezvous on every transport), and its latency is at least the
  // smallest tile's time, what any transfer costs.
  std::vector<Observation> wire;
  if (!sharedCores)
    for (const Observation &p : points)
      if (p.m >= 262144)
        wire.push_back(p);
  if (wire.size() >= 2) {
    fitLink(wire, out);
    out.link.latency = std::max(out.link.latency, points.front().seconds);
  } else {
    fitLink(points, out);
  }
  fitCpu(cpuPoints, out.receiveCpu, out.receiveCpuPerByte,
         out.receiveCpuError);
  // Over TCP the sender's kernel works for about as long as the wire
  // carries the tile (on the emulated cluster, 2026-11-27: 10 ns per byte
  // sent on a 1 Gbit/s link, against 2.4 ns received); on a host without a
  // spare core that is its workers' time (MachineModel.h, sendCpu).
  if (!sharedCores)
    fitCpu(sendPoints, out.sendCpu, out.sendCpuPerByte, out.sendCpuError);
  return out;
}

LinkProfile profileLink(int from, int to, int rank, const SamplingRule &rule) {
  LinkProfile out;
  std::vector<double> sizes =
      quick ? std::vector<double>{8, 65536, 1 << 20, 8 << 20}
            : std::vector<double>{8, 4096, 65536, 1 << 20, 8 << 20, 32 << 20};
  std::vector<char> buffer(size_t(sizes.back()), 1);
  if (rank == to) {
    for (;;) {
      MPI_Status status;
      MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      MPI_Recv(buffer.data(), count, MPI_CHAR, from, status.MPI_TAG,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (status.MPI_TAG == Stop)
        break;
      MPI_Send(nullptr, 0, MPI_CHAR, from, Ack, MPI_COMM_WORLD);
    }
    return out;
  }
  if (rank != from)
    return out;
  auto roundTrip = [&](double bytes) {
    double start = MPI_Wtime();
    MPI_Send(buffer.data(), int(bytes), MPI_CHAR, to, Data, MPI_COMM_WORLD);
    MPI_Recv(nullptr, 0, MPI_CHAR, to, Ack, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return MPI_Wtime() - start;
  };
  double ackTime =
      sampleUntilConfident([&] { return roundTrip(0); }, rule).stats.mean() / 2;
  std::vector<Observation> points;
  for (double bytes : sizes) {
    Sampled s = sampleUntilConfident([&] { return roundTrip(bytes); }, rule);
    double oneWay = std::max(s.stats.mean() - ackTime, 1e-9);
    points.push_back({bytes, 1, 1, oneWay});
    out.measured.push_back(json::Array{bytes, oneWay});
  }
  MPI_Send(nullptr, 0, MPI_CHAR, to, Stop, MPI_COMM_WORLD);
  fitLink(points, out);
  return out;
}

/// A node's aggregate bandwidth under k concurrent streams (the model's
/// network_bandwidth_Bps: what all of its transfers together can move, so
/// communicators past its saturation share it): node `node` starts k
/// messages of 8 MiB at once to its peers in turn (node + 1, node + 2, ...,
/// wrapping: with one peer all k go to it), each peer receiving its share
/// at once; a round lasts until the sender's last send completes, median of
/// three after a warm-up; k = 1, 2, 4 (and 8 without --quick). The node's
/// bandwidth is the largest k x bytes / seconds. Collective; the result on
/// rank `node`; without peers nothing is measured (no limit).
struct NetworkProfile {
  double bandwidth = std::numeric_limits<double>::infinity();
  json::Array measured; // [streams, bytes per stream, seconds]
};

NetworkProfile profileNodeNetwork(int node, int rank, int ranks) {
  NetworkProfile out;
  if (ranks < 2)
    return out;
  const int bytes = 8 << 20;
  std::vector<int> streamCounts = {1, 2, 4};
  if (!quick)
    streamCounts.push_back(8);
  std::vector<char> buffer(size_t(bytes) * size_t(streamCounts.back()), 1);
  auto peerOf = [&](int stream) {
    return (node + 1 + stream % (ranks - 1)) % ranks;
  };
  double best = 0;
  for (int k : streamCounts) {
    std::vector<double> rounds;
    for (int round = 0; round < 4; ++round) {
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      std::vector<MPI_Request> requests;
      for (int stream = 0; stream < k; ++stream) {
        char *data = buffer.data() + size_t(stream) * size_t(bytes);
        MPI_Request r;
        if (rank == node)
          MPI_Isend(data, bytes, MPI_CHAR, peerOf(stream), 100 + stream,
                    MPI_COMM_WORLD, &r);
        else if (rank == peerOf(stream))
          MPI_Irecv(data, bytes, MPI_CHAR, node, 100 + stream, MPI_COMM_WORLD,
                    &r);
        else
          continue;
        requests.push_back(r);
      }
      MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
      if (round > 0)
        rounds.push_back(MPI_Wtime() - start);
    }
    if (rank != node)
      continue;
    double seconds = std::max(median(rounds), 1e-9);
    out.measured.push_back(json::Array{k, bytes, seconds});
    best = std::max(best, double(k) * bytes / seconds);
  }
  if (rank == node)
    out.bandwidth = best;
  return out;
}

/// A barrier whose waiting ranks sleep between polls (MPI_Barrier spins,
/// taking the core a rank sharing the host is being timed on).
void sleepingBarrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

/// Writes `text` to -o (standard output for "-"); false with a message.
bool writeOutput(const std::string &text) {
  if (outputPath == "-") {
    llvm::outs() << text;
    return true;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(outputPath, ec);
  if (!ec)
    os << text;
  if (ec || os.has_error()) {
    llvm::errs() << "cmm-profile: error: cannot write " << outputPath << ": "
                 << (ec ? ec.message() : os.error().message()) << "\n";
    return false;
  }
  return true;
}

/// --refine: the model refitted to a run's task timings (Profile/Refine.h),
/// with what changed per node and class on standard error.
int refineFromTrace() {
  auto fail = [](const std::string &message) {
    llvm::errs() << "cmm-profile: error: " << message << "\n";
    return 1;
  };
  auto buffer = llvm::MemoryBuffer::getFile(refineTrace);
  if (!buffer)
    return fail("cannot read " + refineTrace + ": " +
                buffer.getError().message());
  std::vector<TaskTiming> timings;
  std::string error;
  if (!readTraceTimings((*buffer)->getBuffer().str(), timings, error))
    return fail(refineTrace + ": " + error);
  scheduling::MachineModel model;
  if (refineModelPath.empty()) {
    unsigned nodes = 0;
    for (const TaskTiming &t : timings)
      nodes = std::max(nodes, t.node + 1);
    model = scheduling::builtinMachineModel(nodes);
  } else if (!scheduling::loadMachineModel(refineModelPath, model, error)) {
    return fail(error);
  }
  std::vector<ClassRefinement> report = refineModel(model, timings, error);
  if (!error.empty())
    return fail(refineTrace + ": " + error);
  json::Array classes;
  for (const ClassRefinement &r : report)
    classes.push_back(
        json::Object{{"node", int64_t(r.node)},
                     {"class", cmmrt::plan::costClassName(r.cost)},
                     {"tasks", int64_t(r.tasks)},
                     {"shapes", int64_t(r.shapes)},
                     {"measured_s", r.measured},
                     {"predicted_before_s", r.before},
                     {"predicted_after_s", r.after},
                     {"rms_relative_error_before", r.rmsBefore},
                     {"rms_relative_error_after", r.rmsAfter},
                     {"method", r.method}});
  // The measured model's provenance stays; the refinement is added to it.
  json::Object provenance;
  if (auto old = json::parse(model.provenance))
    if (json::Object *o = old->getAsObject())
      provenance = std::move(*o);
  json::Array refinements;
  if (json::Array *earlier = provenance.getArray("refinements"))
    refinements = std::move(*earlier);
  refinements.push_back(json::Object{{"date", utcNow()},
                                     {"trace", refineTrace.getValue()},
                                     {"classes", std::move(classes)}});
  provenance["refinements"] = std::move(refinements);
  model.provenance = llvm::formatv("{0}", json::Value(std::move(provenance)));
  if (!writeOutput(scheduling::printMachineModel(model)))
    return 1;
  llvm::errs() << llvm::formatv(
      "cmm-profile: refined '{0}' from {1} task(s) "
      "of {2}\n  {3,-4} {4,-12} {5,6} {6,6} {7,12} "
      "{8,12} {9,12}  {10}\n",
      model.name, timings.size(), refineTrace.getValue(), "node", "class",
      "tasks", "shapes", "measured s", "before s", "after s", "how");
  for (const ClassRefinement &r : report)
    llvm::errs() << llvm::format("  %-4u %-12s %6u %6u %12.4g %12.4g %12.4g  "
                                 "%s\n",
                                 r.node, cmmrt::plan::costClassName(r.cost),
                                 r.tasks, r.shapes, r.measured, r.before,
                                 r.after, r.method.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cmmrt::keepFreedHeapMemory(); // as a generated program's heap behaves
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "cmm-profile: measure a machine model (docs/machine-model.md)\n\n"
      "  mpirun -np N [--hostfile H] cmm-profile -o model.json [--quick]\n"
      "  cmm-profile --refine run-trace.json [-m model.json] -o "
      "refined.json\n");
  if (!refineTrace.empty())
    return refineFromTrace();
  // The executor's communicator threads (links through the runtime).
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double begin = MPI_Wtime();

  SamplingRule rule;
  rule.tolerance = tolerance > 0 ? tolerance : quick ? 0.1 : 0.05;
  rule.confidence = confidence;
  rule.minReps = minReps;
  rule.maxReps = maxReps;
  rule.maxSeconds = maxSeconds > 0 ? maxSeconds : quick ? 0.5 : 2.0;
  if (!(rule.confidence > 0 && rule.confidence < 1) || rule.tolerance <= 0) {
    if (rank == 0)
      llvm::errs() << "cmm-profile: error: --confidence must be in (0, 1) "
                      "and --tolerance positive\n";
    MPI_Finalize();
    return 1;
  }

  // The ranks of this host share its cores, as a program's ranks would.
  Host host = thisHost();
  MPI_Comm hostComm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &hostComm);
  int hostRanks = 1;
  MPI_Comm_size(hostComm, &hostRanks);
  // Each rank's host, as the world rank of its host's first rank.
  int hostLeader = rank;
  MPI_Bcast(&hostLeader, 1, MPI_INT, 0, hostComm);
  std::vector<int> hostLeaders(ranks);
  MPI_Allgather(&hostLeader, 1, MPI_INT, hostLeaders.data(), 1, MPI_INT,
                MPI_COMM_WORLD);
  unsigned threads = std::max(1u, host.cores / unsigned(hostRanks));
  cmmrt::setBlasThreads(int(threads));
  // mpirun binds each rank to one core by default: the profile would then
  // time every BLAS thread on that core, and the model would be wrong.
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 &&
      unsigned(CPU_COUNT(&cpus)) < threads)
    llvm::errs() << llvm::formatv(
        "cmm-profile: rank {0}: warning: bound to {1} core(s) but a program "
        "would run {2} BLAS thread(s) here; start it with mpirun --bind-to "
        "none\n",
        rank, CPU_COUNT(&cpus), threads);

  // The tasks run on the threads a program's lone worker gives them
  // (cmmrt::taskThreadsOf: all of the rank's cores), as in the executor;
  // left at 1, every banded kernel (rand, elementwise, maps, reductions,
  // transposes) was timed on one thread and predicted up to 2x slow on a
  // one-rank node (a 3200^2 rand: 16.9 ms predicted, 8.6 ms run), and the
  // pool populated fresh tiles on one.
  cmmrt::setTaskThreads(int(threads));
  const unsigned taskThreads = unsigned(cmmrt::taskThreads());

  // Fresh pages: blocks big enough to be page-bound, taken from the tile
  // pool as a task takes a tile (mapped in huge pages and populated on the
  // task threads), a footprint the node's share of memory holds
  // (co-located ranks fault together). Timed first, while the process is
  // as small as a program starting. Where the host takes freed memory back
  // (a virtio balloon's free page reporting), what another process freed
  // in the seconds before (another profile, a program run a moment ago) is
  // not yet reported and costs a thirtieth of what a program a user starts
  // pays (a 2-rank profile started right after a 1-rank one measured the
  // cheap price and predicted markov's 2-rank run at a sixth of its time):
  // there, each rank takes blocks until it is past that memory, up to a
  // quarter of its share of the node's memory (docs/machine-model.md).
  MPI_Barrier(MPI_COMM_WORLD);
  const bool hostReclaims = hostReclaimsFreedMemory();
  size_t touchBlock = size_t(quick ? 64 : 128) << 20;
  const unsigned touchBlocks = quick ? 4 : 8;
  const double touchShare = host.memoryBytes / hostRanks / 4;
  touchBlock = std::min<size_t>(touchBlock, size_t(touchShare / touchBlocks));
  std::vector<FirstTouchSample> touches =
      measureFirstTouch(touchBlock, touchBlocks,
                        unsigned(touchShare / double(touchBlock)), hostReclaims);
  double firstTouch = firstTouchPerByte(touches, hostReclaims, taskThreads);
  if (hostReclaims && !touches.empty() && !freshToHostSamples(touches).back())
    llvm::errs() << llvm::formatv(
        "cmm-profile: rank {0}: warning: {1} MiB of fresh blocks never reached "
        "memory the host had taken back (other processes freed more in the "
        "last seconds); first touch is priced low. Profile again on an idle "
        "machine\n",
        rank, (touchBlock >> 20) * touches.size());
  json::Array touchReport;
  for (const FirstTouchSample &t : touches)
    touchReport.push_back(
        json::Array{t.bytes, t.firstSeconds, t.secondSeconds});
  // Where other ranks share rank 0's host, rank 0 profiles again alone
  // (below): --budget gives the shared profile two thirds and the one alone
  // what is left (a sixth at least), so the whole keeps to the budget.
  int masterHostRanks = hostRanks;
  MPI_Bcast(&masterHostRanks, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const double computeBudget = budget >= 0 ? budget : quick ? 45 : 0;
  ComputeProfile compute = profileCompute(
      rule, MPI_COMM_WORLD,
      masterHostRanks > 1 ? computeBudget * 2 / 3 : computeBudget);
  // Cache reuse: streaming tasks on hot operands against cold ones, the
  // ranks of a host together (their caches are the host's).
  double cacheBytes = lastLevelCacheBytes();
  std::vector<HotSample> hotTasks =
      measureHotTasks(rule, cacheBytes, [&] { MPI_Barrier(hostComm); });
  double hotFactor = hotFactorOf(hotTasks);
  json::Array hotReport;
  for (const HotSample &s : hotTasks)
    hotReport.push_back(json::Array{cmmrt::plan::costClassName(s.cost),
                                    s.shape.m, s.shape.n, s.shape.k,
                                    s.coldSeconds, s.hotSeconds});
  MPI_Barrier(MPI_COMM_WORLD);
  // Where other ranks share rank 0's host: rank 0 again with every core of
  // it while the others sleep, the model's master_alone (a plan that leaves
  // the other nodes idle runs so).
  std::optional<ComputeProfile> alone;
  // --quick gives it a third of the time cap per signature: ranks that
  // share a host profile it on top of their own (2 ranks here: 30 s each at
  // once, then 23.5 s alone at half the cap, 55-58 s in all with class
  // `compress`), and the whole must stay within the minute --quick
  // promises. On a noisy day more signatures run to their caps (2026-12-07:
  // 44 s and 28 s, 74-80 s in all), which the budget bounds.
  SamplingRule aloneRule = rule;
  if (quick)
    aloneRule.maxSeconds = rule.maxSeconds / 3;
  if (masterHostRanks > 1) {
    if (rank == 0) {
      cmmrt::setBlasThreads(int(host.cores));
      cmmrt::setTaskThreads(int(host.cores));
      alone = profileCompute(
          aloneRule, MPI_COMM_SELF,
          computeBudget > 0
              ? std::max(computeBudget - compute.seconds, computeBudget / 6)
              : 0);
      cmmrt::setBlasThreads(int(threads));
      cmmrt::setTaskThreads(int(threads));
    }
    sleepingBarrier();
  }
  ConfigurationProfile configurations = profileConfigurations(threads, rule);
  // The executor needs MPI_THREAD_MULTIPLE; without it no overhead is known.
  OverheadProfile overhead;
  if (provided >= MPI_THREAD_MULTIPLE)
    overhead =
        profileTaskOverhead(compute.time[unsigned(CostClass::Elementwise)]);
  double networkBegin = MPI_Wtime();
  std::vector<LinkProfile> links, executorLinks;
  for (int from = 0; from < ranks; ++from)
    for (int to = 0; to < ranks; ++to)
      if (from != to) {
        MPI_Barrier(MPI_COMM_WORLD);
        LinkProfile l = profileLink(from, to, rank, rule);
        // The sender knows the result: give it to rank 0.
        std::string text;
        if (rank == from)
          text = llvm::formatv("{0}",
                               json::Value(json::Object{
                                   {"latency_s", l.link.latency},
                                   {"bandwidth_Bps", l.link.bandwidth},
                                   {"rms_relative_error", l.rmsRelativeError},
                                   {"measured", std::move(l.measured)}}))
                     .str();
        text = toMaster(text, from, rank);
        if (rank == 0) {
          LinkProfile got;
          got.from = from;
          got.to = to;
          json::Value v = cantFail(json::parse(text));
          const json::Object *o = v.getAsObject();
          got.link.latency = *o->getNumber("latency_s");
          got.link.bandwidth = *o->getNumber("bandwidth_Bps");
          got.rmsRelativeError = *o->getNumber("rms_relative_error");
          got.measured = *o->getArray("measured");
          links.push_back(std::move(got));
        }
        // The same link through the executor: what the model uses (a
        // program's transfers cost that, not the ping-pong's time).
        if (provided >= MPI_THREAD_MULTIPLE) {
          MPI_Barrier(MPI_COMM_WORLD);
          LinkProfile path = profileExecutorLink(
              from, to, rank, hostLeaders[from] == hostLeaders[to]);
          if (rank == 0)
            executorLinks.push_back(std::move(path));
        }
      }
  NetworkProfile network;
  for (int node = 0; node < ranks; ++node) {
    NetworkProfile p = profileNodeNetwork(node, rank, ranks);
    if (rank == node)
      network = std::move(p);
  }
  double networkSeconds = MPI_Wtime() - networkBegin;

  // Every rank's node, on rank 0.
  std::string mine = llvm::formatv(
      "{0}", json::Value(json::Object{
                 {"host", host.name},
                 {"cpu", host.cpu},
                 {"host_cores", int64_t(host.cores)},
                 {"host_ranks", int64_t(hostRanks)},
                 {"threads", int64_t(threads)},
                 {"task_threads", int64_t(taskThreads)},
                 {"memory_bytes", host.memoryBytes / hostRanks},
                 {"first_touch", firstTouch},
                 {"huge_page_bytes", int64_t(cmmrt::hugePageBytes())},
                 {"first_touch_measured", std::move(touchReport)},
                 {"host_reclaims_freed_memory", hostReclaims},
                 {"task_overhead", overhead.overhead},
                 {"cache_bytes", hotTasks.empty() ? 0.0 : cacheBytes},
                 {"hot_factor", hotFactor},
                 {"hot_measured", std::move(hotReport)},
                 {"task_overhead_measured", std::move(overhead.measured)},
                 {"compute_seconds", compute.seconds},
                 {"configurations",
                  [&] {
                    json::Array a;
                    for (const scheduling::NodeConfiguration &c :
                         configurations.splits)
                      a.push_back(json::Array{int64_t(c.workers),
                                              int64_t(c.threads),
                                              c.gemmFactor});
                    return a;
                  }()},
                 {"configurations_measured",
                  std::move(configurations.measured)},
                 {"configurations_seconds", configurations.seconds},
                 {"configurations_size", configurations.size},
                 {"network_bandwidth",
                  std::isfinite(network.bandwidth)
                      ? json::Value(network.bandwidth)
                      : json::Value(nullptr)},
                 {"network_measured", std::move(network.measured)},
                 {"fits", json::Object(compute.report)},
                 {"time", [&] {
                    json::Object t;
                    for (unsigned c = 0; c < kNumCostClasses; ++c)
                      t[cmmrt::plan::costClassName(CostClass(c))] =
                          json::Array(compute.time[c].a);
                    return t;
                  }()}}));
  std::vector<std::string> nodes;
  for (int r = 0; r < ranks; ++r)
    nodes.push_back(toMaster(mine, r, rank));
  MPI_Comm_free(&hostComm);
  if (rank != 0) {
    MPI_Finalize();
    return 0;
  }

  scheduling::MachineModel model;
  json::Array hosts, fits;
  std::string names;
  for (int r = 0; r < ranks; ++r) {
    json::Value v = cantFail(json::parse(nodes[r]));
    json::Object &o = *v.getAsObject();
    scheduling::NodeSpec node;
    std::string hostName = o.getString("host")->str();
    node.name = *o.getInteger("host_ranks") > 1
                    ? hostName + "/" + std::to_string(r)
                    : hostName;
    node.cores = node.threadsPerWorker = unsigned(*o.getInteger("threads"));
    node.workers = node.communicators = 1;
    node.memoryBytes = *o.getNumber("memory_bytes");
    node.firstTouch = *o.getNumber("first_touch");
    node.hugePageBytes = double(*o.getInteger("huge_page_bytes"));
    node.taskOverhead = *o.getNumber("task_overhead");
    node.cacheBytes = *o.getNumber("cache_bytes");
    node.hotFactor = *o.getNumber("hot_factor");
    if (std::optional<double> b = o.getNumber("network_bandwidth"))
      node.networkBandwidth = *b;
    // The receive CPU: the mean over the executor links into this rank;
    // the send CPU: over those out of it to other hosts (a link within a
    // host charges it to the receive).
    meanCpu(
        executorLinks, [&](const LinkProfile &l) { return l.to == r; },
        &LinkProfile::receiveCpu, &LinkProfile::receiveCpuPerByte,
        node.receiveCpu, node.receiveCpuPerByte);
    meanCpu(
        executorLinks,
        [&](const LinkProfile &l) { return l.from == r && !l.sharedCores; },
        &LinkProfile::sendCpu, &LinkProfile::sendCpuPerByte, node.sendCpu,
        node.sendCpuPerByte);
    for (const json::Value &c : *o.getArray("configurations")) {
      const json::Array &a = *c.getAsArray();
      node.configurations.push_back({unsigned(*a[0].getAsInteger()),
                                     unsigned(*a[1].getAsInteger()),
                                     *a[2].getAsNumber()});
    }
    const json::Object &time = *o.getObject("time");
    for (unsigned c = 0; c < kNumCostClasses; ++c) {
      const json::Array &a =
          *time.getArray(cmmrt::plan::costClassName(CostClass(c)));
      for (unsigned i = 0; i < 8; ++i)
        node.time[c].a[i] = *a[i].getAsNumber();
    }
    model.nodes.push_back(node);
    if (names.find(hostName) == std::string::npos)
      names += (names.empty() ? "" : ", ") + hostName;
    hosts.push_back(json::Object{
        {"rank", r},
        {"host", hostName},
        {"cpu", o.getString("cpu")->str()},
        {"host_cores", *o.getInteger("host_cores")},
        {"host_ranks", *o.getInteger("host_ranks")},
        {"threads", *o.getInteger("threads")},
        // The threads its banded kernels and first touch were timed on.
        {"task_threads", *o.getInteger("task_threads")},
        {"compute_seconds", *o.getNumber("compute_seconds")}});
    fits.push_back(json::Object{
        {"rank", r},
        {"classes", *o.get("fits")},
        // [bytes, s to take it from the pool and write it, s to write it
        // again] per fresh block.
        {"first_touch_measured", *o.get("first_touch_measured")},
        // Whether the host takes freed memory back (FirstTouch.h): the price
        // is then that of the blocks fresh to the host.
        {"host_reclaims_freed_memory", *o.get("host_reclaims_freed_memory")},
        // [tasks, seconds] per chain of 1 x 1 tasks.
        {"task_overhead_measured", *o.get("task_overhead_measured")},
        // [class, m, n, k, cold s, hot s] per streaming task (CacheReuse.h).
        {"hot_measured", *o.get("hot_measured")},
        // Table 3: [workers, threads, seconds of a round, its CoV, samples,
        // GFLOPS of the node] per split.
        {"configurations_measured", *o.get("configurations_measured")},
        {"configurations_size", *o.get("configurations_size")},
        // [streams, bytes per stream, seconds] of the node's sends at once.
        {"network_measured", *o.get("network_measured")},
        {"configurations_seconds", *o.get("configurations_seconds")}});
  }
  if (alone) {
    scheduling::NodeSpec node = model.nodes.front();
    node.cores = node.threadsPerWorker = host.cores;
    node.configurations.clear(); // measured for the rank's share
    for (unsigned c = 0; c < kNumCostClasses; ++c)
      node.time[c] = alone->time[c];
    model.masterAlone = std::move(node);
  }
  json::Array linkReport;
  double latencySum = 0, secondsPerByteSum = 0;
  for (size_t i = 0; i < links.size(); ++i) {
    LinkProfile &ping = links[i];
    // The model's link: through the executor where it was measured (MPI
    // without MPI_THREAD_MULTIPLE cannot run it), else the ping-pong.
    LinkProfile &l = i < executorLinks.size() ? executorLinks[i] : ping;
    model.links[{unsigned(l.from), unsigned(l.to)}] = l.link;
    latencySum += l.link.latency;
    secondsPerByteSum += 1 / l.link.bandwidth;
    json::Object entry{{"from", l.from},
                       {"to", l.to},
                       {"path", &l == &ping ? "mpi" : "executor"},
                       {"rms_relative_error", l.rmsRelativeError},
                       {"measured", std::move(l.measured)}};
    if (&l != &ping) {
      entry["receive_cpu_s"] = l.receiveCpu;
      entry["receive_cpu_s_per_byte"] = l.receiveCpuPerByte;
      entry["receive_cpu_rms_relative_error"] = l.receiveCpuError;
      entry["send_cpu_s"] = l.sendCpu;
      entry["send_cpu_s_per_byte"] = l.sendCpuPerByte;
      entry["send_cpu_rms_relative_error"] = l.sendCpuError;
      // [bytes, sender CPU s, receiver CPU s, charged CPU s] per transfer
      // (charged: the receiver's, plus the sender's on shared cores).
      entry["cpu_measured"] = std::move(l.cpuMeasured);
      entry["shared_cores"] = l.sharedCores;
      entry["mpi_ping_pong"] =
          json::Object{{"latency_s", ping.link.latency},
                       {"bandwidth_Bps", ping.link.bandwidth},
                       {"rms_relative_error", ping.rmsRelativeError},
                       {"measured", std::move(ping.measured)}};
    }
    linkReport.push_back(std::move(entry));
  }
  // Pairs beyond the profiled ranks (withNodes) get the mean link.
  if (!links.empty()) {
    model.defaultLink.latency = latencySum / links.size();
    model.defaultLink.bandwidth = links.size() / secondsPerByteSum;
  }
  model.name = modelName.empty() ? "cmm-profile of " + names : modelName;
  const char *coretype = std::getenv("OPENBLAS_CORETYPE");
  json::Object provenance{
      {"tool", "cmm-profile"},
      {"date", utcNow()},
      {"ranks", ranks},
      {"hosts", std::move(hosts)},
      {"blas", openblas_get_config()},
      {"openblas_coretype",
       coretype ? json::Value(coretype) : json::Value(nullptr)},
      // log2 of the ticks OpenBLAS's threads spin after a call
      // (cmmrt/BlasThreads.h); 0: OpenBLAS's default.
      {"openblas_thread_timeout", int64_t(cmmrt::blasSpinLog2Ticks())},
      {"sampling",
       json::Object{{"tolerance", rule.tolerance},
                    {"confidence", rule.confidence},
                    {"min_reps", int64_t(rule.minReps)},
                    {"max_reps", int64_t(rule.maxReps)},
                    {"max_seconds", rule.maxSeconds},
                    {"passes", int64_t(compute.rounds)},
                    {"round_tolerance", compute.roundTolerance},
                    {"budget_s", compute.budgetSeconds},
                    {"budget_lowered_caps", int64_t(compute.budgetLowered)},
                    {"quick", bool(quick)}}},
      {"seconds", json::Object{{"compute", compute.seconds},
                               {"network", networkSeconds},
                               {"total", MPI_Wtime() - begin}}},
      {"fits", std::move(fits)},
      {"links", std::move(linkReport)}};
  if (alone)
    provenance["master_alone"] =
        json::Object{{"threads", int64_t(host.cores)},
                     {"compute_seconds", alone->seconds},
                     {"max_seconds", aloneRule.maxSeconds},
                     {"budget_s", alone->budgetSeconds},
                     {"budget_lowered_caps", int64_t(alone->budgetLowered)},
                     {"classes", json::Object(alone->report)}};
  model.provenance = llvm::formatv("{0}", json::Value(std::move(provenance)));

  if (!writeOutput(scheduling::printMachineModel(model)))
    MPI_Abort(MPI_COMM_WORLD, 1);
  // What the time bought (the Critter trade-off): the fits' errors.
  llvm::errs() << llvm::formatv("cmm-profile: {0} rank(s), profiled in "
                                "{1:f1} s (compute {2:f1} s, network "
                                "{3:f1} s), tolerance {4} at {5}\n",
                                ranks, MPI_Wtime() - begin, compute.seconds,
                                networkSeconds, rule.tolerance,
                                rule.confidence);
  llvm::errs() << llvm::formatv(
      "  first touch  rank 0: {0:f2} thread-ns per byte of fresh tiles ({1} "
      "blocks of {2} MiB on {4} task thread(s){3})\n",
      firstTouch * 1e9, touches.size(), touchBlock >> 20,
      hostReclaims
          ? llvm::formatv(", {0} fresh to the host",
                          llvm::count(freshToHostSamples(touches), true))
                .str()
          : std::string(),
      taskThreads);
  llvm::errs() << llvm::formatv(
      "  task overhead rank 0: {0:f2} us per task in the executor\n",
      overhead.overhead * 1e6);
  llvm::errs() << llvm::formatv(
      "  cache reuse  rank 0: streaming tasks on operands in its {0} MiB "
      "cache take {1:f2} of their cold time\n",
      int64_t(model.nodes[0].cacheBytes) >> 20, model.nodes[0].hotFactor);
  if (std::isfinite(model.nodes[0].networkBandwidth))
    llvm::errs() << llvm::formatv(
        "  network      rank 0: {0:f2} GB/s of concurrent sends at most\n",
        model.nodes[0].networkBandwidth / 1e9);
  for (const scheduling::NodeConfiguration &c : model.nodes[0].configurations)
    llvm::errs() << llvm::formatv(
        "  split        rank 0: {0} worker(s) x {1} thread(s): a worker's "
        "product takes {2:f2}x the fitted time\n",
        c.workers, c.threads, c.gemmFactor);
  for (unsigned c = 0; c < kNumCostClasses; ++c) {
    const char *name = cmmrt::plan::costClassName(CostClass(c));
    const json::Object *r = compute.report.getObject(name);
    if (!r) // not timed: its fallback's polynomial (isTimed)
      continue;
    llvm::errs() << llvm::formatv(
        "  {0,-12} rank 0: {1,2} sizes, {2,5} samples, fit error rms "
        "{3:p} max {4:p}\n",
        name, *r->getInteger("signatures"), *r->getInteger("samples"),
        *r->getNumber("rms_relative_error"),
        *r->getNumber("max_relative_error"));
  }
  MPI_Finalize();
  return 0;
}
