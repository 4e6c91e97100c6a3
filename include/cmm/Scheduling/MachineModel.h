//===- MachineModel.h - Nodes, links and time models ------------*- C++ -*-===//
//
// The machine a plan is made for (docs/machine-model.md): nodes with their
// cores, worker and communicator processes and memory; links with latency and
// bandwidth; and per-operation time polynomials of the form of Table 1 of the
// Julia Cloud Matrix Machine paper, fitted by least squares (cmm-profile) or
// derived from published figures.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_MACHINEMODEL_H
#define CMM_SCHEDULING_MACHINEMODEL_H

#include "cmmrt/BlasThreads.h"
#include "cmmrt/Plan.h"
#include "cmmrt/RowBands.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmm::scheduling {

/// Table 1 of the paper, in one form for every operation: seconds as
///   a0 + a1 m + a2 n + a3 k + a4 mn + a5 mk + a6 nk + a7 mnk
/// for an operation on an m x n tile (k: the inner dimension of a product,
/// 1 otherwise). Unused terms are zero.
struct TimePolynomial {
  std::array<double, 8> a{};
  /// No coefficients: a class a node built in code was given no polynomial.
  bool isZero() const {
    return std::all_of(a.begin(), a.end(), [](double x) { return x == 0; });
  }
  double eval(double m, double n, double k = 1) const {
    return a[0] + a[1] * m + a[2] * n + a[3] * k + a[4] * m * n + a[5] * m * k +
           a[6] * n * k + a[7] * m * n * k;
  }
  /// A roofline: the larger of the mn term (a pass over the operands) and
  /// the mnk term (k steps of arithmetic on every element) instead of their
  /// sum, so a short kernel costs its pass and a long one its arithmetic
  /// (class fused: 2 and 8 steps took the same time here, 32 steps 4x).
  /// The same as eval when one of the two is zero.
  double evalRoofline(double m, double n, double k = 1) const {
    return a[0] + a[1] * m + a[2] * n + a[3] * k + a[5] * m * k + a[6] * n * k +
           std::max(a[4] * m * n, a[7] * m * n * k);
  }
};

/// The classes with their own time polynomial: cmmrt/CostClasses.def, the
/// one list the IR, the runtime and the profiler share.
using CostClass = cmmrt::plan::CostClass;
using cmmrt::plan::costClassName;
using cmmrt::plan::kNumCostClasses;
/// Whether `cost`'s polynomial is a roofline (TimePolynomial::evalRoofline):
/// class fused, whose k is its kernel's steps.
inline bool isRooflineClass(CostClass cost) { return cost == CostClass::Fused; }
/// `cost`'s time from its polynomial `p`, a roofline where the class's is.
inline double evalClass(const TimePolynomial &p, CostClass cost, double m,
                        double n, double k) {
  return isRooflineClass(cost) ? p.evalRoofline(m, n, k) : p.eval(m, n, k);
}
/// The class whose polynomial prices a task of class `cost` on an m x n
/// result of depth k: a `gemm` the runtime runs on one BLAS thread
/// (cmmrt::threadsSpeedUpProduct, the rule the runtime applies to each
/// call) is `gemm1`'s, and so is a `sparse` product whose dense equivalent
/// would be (sparse's polynomial is gemm's); every other class is its own.
/// MachineModel::taskTime, cmm-profile's bench sizes and --refine all split
/// products by it.
inline CostClass polynomialClass(CostClass cost, double m, double n, double k) {
  if ((cost == CostClass::Gemm || cost == CostClass::Sparse) &&
      !cmmrt::threadsSpeedUpProduct((long long)m, (long long)n, (long long)k))
    return CostClass::GemmOneThread;
  return cost;
}
/// costClassName's inverse; nullopt for an unknown name.
std::optional<CostClass> costClassFromName(const std::string &name);

/// A split of a node's cores that cmm-profile timed (Table 3 of the paper,
/// Profile/Configurations.h): with `workers` workers of `threads` BLAS
/// threads each, all multiplying at once, a worker's product takes
/// `gemmFactor` times what the node's gemm polynomial gives (1 for the split
/// the polynomials were fitted on).
struct NodeConfiguration {
  unsigned workers = 1, threads = 1;
  double gemmFactor = 1;
};
inline bool operator==(const NodeConfiguration &a, const NodeConfiguration &b) {
  return a.workers == b.workers && a.threads == b.threads &&
         a.gemmFactor == b.gemmFactor;
}

struct NodeSpec {
  std::string name;
  unsigned cores = 1;
  unsigned workers = 1;          // worker processes
  unsigned threadsPerWorker = 1; // BLAS threads of each worker
  unsigned communicators = 1;    // communicator processes
  double memoryBytes = 8e9;
  /// Seconds per byte of writing pages the process has not touched before
  /// (their page faults), beyond what the time polynomials charge. The
  /// runtime reuses freed tile buffers (cmmrt/TileMemory.h), so a node pays
  /// it for the bytes its live tiles grow past their previous peak.
  double firstTouch = 0;
  /// The node's transparent huge pages (JSON "huge_page_bytes"; 0: none),
  /// in which the runtime's tile pool maps fresh blocks: a block faults in
  /// whole huge pages and only from two of them on its task's threads in
  /// parallel (cmmrt::touchedBytesPerFreshByte, cmmrt::populatedInBands).
  double hugePageBytes = 0;
  /// Seconds the runtime spends on each task beyond its kernel (JSON
  /// "task_overhead_s"): the worker's hand-offs through the tile store
  /// (waiting for inputs, storing the result, releasing inputs, counting),
  /// measured by cmm-profile on chains of 1 x 1 tasks run by the executor.
  /// taskTime adds it to every task, so plans of thousands of microsecond
  /// tasks cost what they cost.
  double taskOverhead = 0;
  /// Bytes per second all of this node's transfers together can move (its
  /// network interface; JSON "network_bandwidth_Bps"); infinity: no limit
  /// beyond each link's. When the node's communicators could together move
  /// more, each gets an equal share (transferTime): section 3.6 of the
  /// paper, where communicators past saturation stop helping.
  double networkBandwidth = std::numeric_limits<double>::infinity();
  /// CPU seconds the node's communicator takes to receive a transfer, per
  /// transfer and per byte (JSON "receive_cpu_s", "receive_cpu_s_per_byte";
  /// cmm-profile: the receiving communicator thread's getrusage time over
  /// the executor link runs). Shared memory copies on the receiver's CPU,
  /// so on a node whose workers and communicators need more cores than it
  /// has (oversubscribed()) every receive is time the workers lose.
  double receiveCpu = 0, receiveCpuPerByte = 0;
  /// CPU seconds the node's communicator takes to send a transfer to
  /// another host, per transfer and per byte (JSON "send_cpu_s",
  /// "send_cpu_s_per_byte"; cmm-profile: the sending communicator's
  /// getrusage time between ranks on different hosts, where a TCP send
  /// costs the sender's kernel about as long as the wire takes). Charged,
  /// like a receive, only where the node is oversubscribed(), to the
  /// node's tasks that overlap the send, each by its share (Simulator.cpp).
  /// A link within a host charges both ends' CPU to the receive instead.
  double sendCpu = 0, sendCpuPerByte = 0;
  /// Bytes of the node's last-level cache (JSON "cache_bytes"; 0: no
  /// cache model) and the share of its cold time a task that streams
  /// memory (streamsMemory, CostModel.h) takes when its inputs are still
  /// in that cache (JSON "hot_factor", in (0, 1]). The polynomials are
  /// fitted on operands out of cache; MachineCostModel::taskTime charges a
  /// task hotFactor for the input bytes whose reuse distance fits in
  /// cacheBytes (hotInputShare, docs/machine-model.md "Cache reuse").
  double cacheBytes = 0, hotFactor = 1;
  /// The threads each of this node's tasks runs on (cmmrt::taskThreadsOf,
  /// the runtime's rule).
  unsigned taskThreads() const {
    return unsigned(cmmrt::taskThreadsOf(int(workers), int(threadsPerWorker)));
  }
  /// The workers' threads and the communicators together need more cores
  /// than the node has: communication takes CPU from the workers.
  bool oversubscribed() const {
    return workers * threadsPerWorker + communicators > cores;
  }
  /// The splits of the cores measured (JSON "configurations"); empty: none.
  std::vector<NodeConfiguration> configurations;
  /// The gemmFactor of this node's split (workers x threadsPerWorker) in
  /// `configurations`, 1 when it is not there: taskTime scales the
  /// polynomials of the BLAS-threaded classes (followsSplit) by it.
  double gemmFactor() const;
  /// Whether `cost` runs on threaded BLAS as products do: gemm and sgemm,
  /// and solve with the other whole-matrix factorizations (the classes
  /// falling back to it).
  static bool followsSplit(CostClass cost);
  /// Time models of this node's workers, by CostClass.
  std::array<TimePolynomial, kNumCostClasses> time{};
};

struct LinkSpec {
  double latency = 50e-6;    // seconds
  double bandwidth = 1.25e9; // bytes per second
};

struct MachineModel {
  std::string name;
  std::vector<NodeSpec> nodes; // node 0 is the master
  LinkSpec defaultLink;
  std::map<std::pair<unsigned, unsigned>, LinkSpec> links; // by (from, to)
  /// Memory per rank a distributed (COSMA) product may use, bytes; 0: the
  /// smallest node's memory. JSON "memory_limit_bytes".
  double memoryLimit = 0;
  /// Where the numbers come from, as a compact JSON object (cmm-profile
  /// writes hosts, date, BLAS and the error of every fit); kept as it is.
  /// Empty: none. JSON "provenance".
  std::string provenance;
  /// Node 0 when every other node is idle, where that differs from
  /// nodes[0] (JSON "master_alone"): nodes that share one host's cores, as
  /// the built-in model's loopback ranks do, each get a share of them, but
  /// a plan that leaves the others idle has the host to itself. The
  /// planner's master-only candidates are simulated on it. Unset: nodes[0].
  std::optional<NodeSpec> masterAlone;

  const LinkSpec &link(unsigned from, unsigned to) const;
  /// Seconds for one worker of `node` to run `op` on an m x n tile: the
  /// class polynomial (gemm and solve scaled by the node's gemmFactor) and
  /// the node's per-task overhead.
  double taskTime(unsigned node, CostClass op, double m, double n,
                  double k = 1) const;
  /// Seconds to move `bytes` from `from` to `to` (0 on the same node): the
  /// link's latency plus the bytes at the link's bandwidth, or at an end's
  /// share of its network (networkBandwidth / communicators) where lower.
  double transferTime(unsigned from, unsigned to, double bytes) const;
  /// Seconds of worker time that receiving `bytes` on `node` takes: the
  /// node's receive CPU where it is oversubscribed, else 0 (a spare core
  /// runs the communicator).
  double receiveCpuTime(unsigned node, double bytes) const;
  /// The same for sending `bytes` from `node` (NodeSpec::sendCpu).
  double sendCpuTime(unsigned node, double bytes) const;
  unsigned totalWorkers() const;

  /// The same machine with `count` nodes: node 0 as is, the others copies of
  /// node 1 (or of node 0 when there is only one). Precisely: the first
  /// min(count, nodes.size()) nodes are kept as they are (so a file of 8
  /// nodes gives its first N for N < 8), links between kept nodes are kept,
  /// and each added node is a copy of node 1 (node 0 if there is no node 1)
  /// together with that node's per-pair links to the kept nodes. `count` = 0
  /// is taken as 1. One node of a model with a masterAlone is that node.
  MachineModel withNodes(unsigned count) const;
  /// The machine a master-only plan runs on: node 0 replaced by
  /// masterAlone (its name kept), or this machine when there is none.
  MachineModel withMasterAlone() const;
  /// Communication made free (zero latency, infinite bandwidth, no receive
  /// CPU): the zero-communication upper bound of Table 7. Every link,
  /// default and per-pair, becomes {0, +infinity}, so transferTime is
  /// exactly 0.
  MachineModel withFreeCommunication() const;
};

inline bool operator==(const TimePolynomial &a, const TimePolynomial &b) {
  return a.a == b.a;
}
inline bool operator==(const NodeSpec &a, const NodeSpec &b) {
  return a.name == b.name && a.cores == b.cores && a.workers == b.workers &&
         a.threadsPerWorker == b.threadsPerWorker &&
         a.communicators == b.communicators && a.memoryBytes == b.memoryBytes &&
         a.firstTouch == b.firstTouch && a.hugePageBytes == b.hugePageBytes &&
         a.taskOverhead == b.taskOverhead &&
         a.networkBandwidth == b.networkBandwidth &&
         a.receiveCpu == b.receiveCpu &&
         a.receiveCpuPerByte == b.receiveCpuPerByte && a.sendCpu == b.sendCpu &&
         a.sendCpuPerByte == b.sendCpuPerByte && a.cacheBytes == b.cacheBytes &&
         a.hotFactor == b.hotFactor && a.configurations == b.configurations &&
         a.time == b.time;
}
inline bool operator==(const LinkSpec &a, const LinkSpec &b) {
  return a.latency == b.latency && a.bandwidth == b.bandwidth;
}
inline bool operator==(const MachineModel &a, const MachineModel &b) {
  return a.name == b.name && a.nodes == b.nodes &&
         a.defaultLink == b.defaultLink && a.links == b.links &&
         a.memoryLimit == b.memoryLimit && a.provenance == b.provenance &&
         a.masterAlone == b.masterAlone;
}
inline bool operator!=(const MachineModel &a, const MachineModel &b) {
  return !(a == b);
}

/// The built-in model of "this machine" (docs/machine-model.md): cmm-profile's
/// output for this 2-core VM, compiled in from models/builtin/ (regenerated
/// by scripts/regenerate-builtin-model). One node is the one-rank profile (1
/// worker with the machine's 2 BLAS threads); `nodes` >= 2 are copies of
/// rank 0 of the two-rank profile (1 thread each, the cores shared) on the
/// loopback link measured between the two ranks. The machine's memory is
/// divided among the nodes. `nodes` = 0 is taken as 1.
MachineModel builtinMachineModel(unsigned nodes = 1);

/// Parses the JSON of docs/machine-model.md; false with a message (naming
/// the JSON path of the bad value, e.g. "nodes[1].workers: expected a
/// positive integer") on error, leaving `model` unchanged.
bool parseMachineModel(const std::string &json, MachineModel &model,
                       std::string &error);
bool loadMachineModel(const std::string &path, MachineModel &model,
                      std::string &error);
/// Pretty-printed JSON that parseMachineModel reads back to an equal model:
/// every node written out in full, numbers in their shortest exact form, an
/// infinite bandwidth as the string "inf".
std::string printMachineModel(const MachineModel &model);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_MACHINEMODEL_H
