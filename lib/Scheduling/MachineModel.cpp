//===- MachineModel.cpp - Nodes, links and time models ----------*- C++ -*-===//
//
// The machine model of docs/machine-model.md: queries (task and transfer
// times), derived models (node count, free communication), the built-in model
// of this machine, and the JSON reader and writer. The reader is strict:
// unknown keys, wrong types and out-of-range values are errors whose message
// starts with the JSON path of the offending value.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/MachineModel.h"

#include "cmm/Support/JsonNesting.h"
#include "cmmrt/Numbers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <bitset>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

using namespace cmm::scheduling;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Operation classes
//===----------------------------------------------------------------------===//

std::optional<CostClass>
cmm::scheduling::costClassFromName(const std::string &name) {
  CostClass cost;
  if (!cmmrt::plan::costClassFromName(name.c_str(), cost))
    return std::nullopt;
  return cost;
}

//===----------------------------------------------------------------------===//
// Queries and derived models
//===----------------------------------------------------------------------===//

const LinkSpec &MachineModel::link(unsigned from, unsigned to) const {
  auto it = links.find({from, to});
  return it == links.end() ? defaultLink : it->second;
}

double MachineModel::taskTime(unsigned node, CostClass op, double m, double n,
                              double k) const {
  assert(node < nodes.size() && "node index out of range");
  const NodeSpec &spec = nodes[node];
  // A node built in code without the split class's polynomial prices the
  // shape as before (a model file fills a missing class with its fallback).
  if (CostClass priced = polynomialClass(op, m, n, k);
      !spec.time[static_cast<unsigned>(priced)].isZero())
    op = priced;
  double t = evalClass(spec.time[static_cast<unsigned>(op)], op, m, n, k);
  if (NodeSpec::followsSplit(op))
    t *= spec.gemmFactor();
  // Fitted polynomials can dip below zero at small sizes; a task never takes
  // negative time. (NaN also becomes 0.)
  return (t > 0 ? t : 0.0) + spec.taskOverhead;
}

bool NodeSpec::followsSplit(CostClass cost) {
  return cost == CostClass::Gemm || cost == CostClass::SingleGemm ||
         cmmrt::plan::costClassFallback(cost) == CostClass::Solve;
}

double NodeSpec::gemmFactor() const {
  for (const NodeConfiguration &c : configurations)
    if (c.workers == workers && c.threads == threadsPerWorker)
      return c.gemmFactor;
  return 1.0;
}

double MachineModel::transferTime(unsigned from, unsigned to,
                                  double bytes) const {
  if (from == to)
    return 0.0;
  const LinkSpec &l = link(from, to);
  double rate = l.bandwidth;
  for (unsigned end : {from, to})
    if (end < nodes.size())
      rate = std::min(rate, nodes[end].networkBandwidth /
                                std::max(1u, nodes[end].communicators));
  return l.latency + bytes / rate;
}

double MachineModel::receiveCpuTime(unsigned node, double bytes) const {
  const NodeSpec &n = nodes[node];
  return n.oversubscribed() ? n.receiveCpu + bytes * n.receiveCpuPerByte : 0.0;
}

double MachineModel::sendCpuTime(unsigned node, double bytes) const {
  const NodeSpec &n = nodes[node];
  return n.oversubscribed() ? n.sendCpu + bytes * n.sendCpuPerByte : 0.0;
}

unsigned MachineModel::totalWorkers() const {
  unsigned total = 0;
  for (const NodeSpec &n : nodes)
    total += n.workers;
  return total;
}

MachineModel MachineModel::withNodes(unsigned count) const {
  count = std::max(count, 1u);
  if (count == 1 && masterAlone) {
    MachineModel alone = withMasterAlone();
    alone.masterAlone.reset();
    return alone.withNodes(1);
  }
  MachineModel out;
  out.name = name;
  out.defaultLink = defaultLink;
  out.memoryLimit = memoryLimit;
  out.masterAlone = masterAlone;
  unsigned kept = std::min<unsigned>(count, nodes.size());
  out.nodes.assign(nodes.begin(), nodes.begin() + kept);
  for (const auto &[key, spec] : links)
    if (key.first < kept && key.second < kept)
      out.links[key] = spec;
  if (nodes.empty() || count == kept)
    return out;
  unsigned source = nodes.size() > 1 ? 1 : 0;
  for (unsigned j = kept; j < count; ++j) {
    out.nodes.push_back(nodes[source]);
    for (const auto &[key, spec] : links) {
      if (key.first == source && key.second < kept)
        out.links[{j, key.second}] = spec;
      if (key.second == source && key.first < kept)
        out.links[{key.first, j}] = spec;
    }
  }
  return out;
}

MachineModel MachineModel::withMasterAlone() const {
  MachineModel out = *this;
  if (masterAlone && !out.nodes.empty()) {
    std::string name = out.nodes[0].name;
    out.nodes[0] = *masterAlone;
    out.nodes[0].name = name;
  }
  return out;
}

MachineModel MachineModel::withFreeCommunication() const {
  MachineModel out = *this;
  LinkSpec free;
  free.latency = 0;
  free.bandwidth = std::numeric_limits<double>::infinity();
  out.defaultLink = free;
  for (auto &entry : out.links)
    entry.second = free;
  for (NodeSpec &n : out.nodes)
    n.receiveCpu = n.receiveCpuPerByte = n.sendCpu = n.sendCpuPerByte = 0;
  return out;
}

//===----------------------------------------------------------------------===//
// The built-in model
//===----------------------------------------------------------------------===//

#include "BuiltinModels.inc"

/// A profile compiled in (its text never changes, so it is read once by
/// the caller's function-local static).
static MachineModel parseProfile(const char *json) {
  MachineModel model;
  std::string error;
  if (!parseMachineModel(json, model, error))
    llvm::report_fatal_error(
        llvm::Twine("the built-in machine model does not parse: ") + error);
  return model;
}

MachineModel cmm::scheduling::builtinMachineModel(unsigned nodes) {
  nodes = std::max(nodes, 1u);
  // cmm-profile on this machine (models/builtin/, written by
  // scripts/regenerate-builtin-model): one rank with the machine's BLAS
  // threads for a single node; two ranks sharing the cores, one thread
  // each, for several loopback nodes, with the link measured between them.
  static const MachineModel single = parseProfile(kOneRankProfile);
  static const MachineModel pair = parseProfile(kTwoRanksProfile);
  const MachineModel &profile = nodes == 1 ? single : pair;
  MachineModel model;
  model.name = "builtin";
  model.provenance = profile.provenance;
  NodeSpec node = profile.nodes.front();
  // The ranks of one machine share its memory.
  node.memoryBytes = single.nodes.front().memoryBytes / nodes;
  // ... and its cores: more ranks than the pair profile ran get each a
  // share that much smaller of what one of its ranks had, so their tasks
  // take nodes / 2 as long (4 ranks on this 2-core machine: a tiled chol
  // of n = 2000 spread over all 4 was predicted at 0.039 s and ran in
  // 0.21 s, twice ScaLAPACK's time on the same ranks).
  const double ranksProfiled = double(pair.nodes.size());
  if (nodes > ranksProfiled) {
    const double slower = double(nodes) / ranksProfiled;
    for (TimePolynomial &p : node.time)
      for (double &a : p.a)
        a *= slower;
    node.taskOverhead *= slower;
  }
  model.nodes.assign(nodes, node);
  for (unsigned i = 0; i < nodes; ++i)
    model.nodes[i].name = "local" + std::to_string(i);
  model.defaultLink = profile.defaultLink;
  // A plan that leaves the other ranks idle runs on the machine as one rank
  // does (the stencil of issue 15: 3.3 ms on the master of 2 ranks, as on
  // 1 rank, where the two-rank profile's node predicted 5.2 ms).
  // (Its memory is its share still: the other ranks' processes remain.)
  if (nodes > 1) {
    model.masterAlone = single.nodes.front();
    model.masterAlone->memoryBytes = node.memoryBytes;
    model.masterAlone->name = "local0";
  }
  return model;
}

//===----------------------------------------------------------------------===//
// JSON reader
//===----------------------------------------------------------------------===//

namespace {
/// Limits that keep a typo from allocating the machine away.
constexpr int64_t kMaxCount = 1 << 20; // cores, workers, threads, comms
constexpr int64_t kMaxNodes = 1 << 16;

/// The reader. Every check reports "<path>: <message>" and returns false;
/// the first error stops the parse.
class Reader {
public:
  std::string error;

  bool fail(const std::string &path, const std::string &message) {
    error = (path.empty() ? std::string("(top level)") : path) + ": " + message;
    return false;
  }

  static std::string field(const std::string &path, llvm::StringRef key) {
    return path.empty() ? key.str() : path + "." + key.str();
  }
  static std::string index(const std::string &path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

  const json::Object *object(const json::Value &v, const std::string &path) {
    const json::Object *o = v.getAsObject();
    if (!o)
      fail(path, "expected an object");
    return o;
  }

  /// Rejects keys not in `allowed` (in sorted order, so the message does not
  /// depend on hash order).
  bool onlyKeys(const json::Object &o, const std::string &path,
                llvm::ArrayRef<llvm::StringRef> allowed) {
    for (const auto *kv : json::sortedElements(o)) {
      llvm::StringRef key = kv->first;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (llvm::StringRef a : allowed)
          list += (list.empty() ? "" : ", ") + a.str();
        return fail(field(path, key),
                    "unknown key (expected one of: " + list + ")");
      }
    }
    return true;
  }

  bool positiveInteger(const json::Value &v, const std::string &path,
                       int64_t max, unsigned &out) {
    std::optional<int64_t> i = v.getAsInteger();
    if (v.kind() != json::Value::Number || !i || *i <= 0)
      return fail(path, "expected a positive integer");
    if (*i > max)
      return fail(path, "expected a positive integer of at most " +
                            std::to_string(max));
    out = static_cast<unsigned>(*i);
    return true;
  }

  bool nonNegativeInteger(const json::Value &v, const std::string &path,
                          int64_t &out) {
    std::optional<int64_t> i = v.getAsInteger();
    if (v.kind() != json::Value::Number || !i || *i < 0)
      return fail(path, "expected a non-negative integer");
    out = *i;
    return true;
  }

  bool nonNegativeNumber(const json::Value &v, const std::string &path,
                         double &out) {
    std::optional<double> d = v.getAsNumber();
    if (!d || !std::isfinite(*d) || *d < 0)
      return fail(path, "expected a non-negative number");
    out = *d;
    return true;
  }

  bool positiveNumber(const json::Value &v, const std::string &path,
                      double &out) {
    std::optional<double> d = v.getAsNumber();
    if (!d || !std::isfinite(*d) || *d <= 0)
      return fail(path, "expected a positive number");
    out = *d;
    return true;
  }

  /// Every number in `v` is finite: it is kept as it was written, and
  /// llvm::json writes a number too large for a double (1e999) as `inf`,
  /// which no JSON reader (this one included) takes back (found by
  /// test/Fuzz: a model's printed form did not read back).
  bool finiteNumbers(const json::Value &v, const std::string &path) {
    if (const json::Object *o = v.getAsObject()) {
      for (const auto &field : *o)
        if (!finiteNumbers(field.second, path + "." + field.first.str()))
          return false;
    } else if (const json::Array *a = v.getAsArray()) {
      for (size_t i = 0; i < a->size(); ++i)
        if (!finiteNumbers((*a)[i], path + "[" + std::to_string(i) + "]"))
          return false;
    } else if (std::optional<double> d = v.getAsNumber()) {
      if (!std::isfinite(*d))
        return fail(path, "a number out of the range of a double");
    }
    return true;
  }

  /// A bandwidth: a positive number, or the string "inf".
  bool bandwidth(const json::Value &v, const std::string &path, double &out) {
    if (std::optional<llvm::StringRef> s = v.getAsString()) {
      if (*s == "inf") {
        out = std::numeric_limits<double>::infinity();
        return true;
      }
    } else if (std::optional<double> d = v.getAsNumber()) {
      if (std::isfinite(*d) && *d > 0) {
        out = *d;
        return true;
      }
    }
    return fail(path, "expected a positive number or \"inf\"");
  }

  /// The optional "latency_s" and "bandwidth_Bps" of a link object; a
  /// missing one keeps its value in `link`. (The caller checks the keys.)
  bool linkFields(const json::Object &o, const std::string &path,
                  LinkSpec &link) {
    if (const json::Value *v = o.get("latency_s"))
      if (!nonNegativeNumber(*v, field(path, "latency_s"), link.latency))
        return false;
    if (const json::Value *v = o.get("bandwidth_Bps"))
      if (!bandwidth(*v, field(path, "bandwidth_Bps"), link.bandwidth))
        return false;
    return true;
  }

  bool polynomial(const json::Value &v, const std::string &path,
                  TimePolynomial &out) {
    const json::Array *a = v.getAsArray();
    if (!a || a->size() > 8)
      return fail(path, "expected an array of at most 8 coefficients "
                        "(a0..a7 for 1, m, n, k, mn, mk, nk, mnk)");
    TimePolynomial p;
    for (size_t i = 0; i < a->size(); ++i)
      if (!nonNegativeNumber((*a)[i], index(path, i), p.a[i]))
        return false;
    out = p;
    return true;
  }

  /// Reads the classes `v` gives into `time`, marking them in `given`.
  bool timeTable(const json::Value &v, const std::string &path,
                 std::array<TimePolynomial, kNumCostClasses> &time,
                 std::bitset<kNumCostClasses> &given) {
    std::vector<llvm::StringRef> names;
    for (unsigned i = 0; i < kNumCostClasses; ++i)
      names.push_back(costClassName(CostClass(i)));
    const json::Object *o = object(v, path);
    if (!o || !onlyKeys(*o, path, names))
      return false;
    for (unsigned i = 0; i < kNumCostClasses; ++i)
      if (const json::Value *p = o->get(names[i])) {
        if (!polynomial(*p, field(path, names[i]), time[i]))
          return false;
        given.set(i);
      }
    return true;
  }

  /// Classes a node's table (and node_defaults') leave out take their
  /// fallback's polynomial (CostClasses.def): a model that knows only `map`
  /// costs `tanh` as `map`, as before the class existed.
  static void applyFallbacks(NodeSpec &node,
                             const std::bitset<kNumCostClasses> &given) {
    for (unsigned i = 0; i < kNumCostClasses; ++i)
      if (!given.test(i))
        node.time[i] = node.time[static_cast<unsigned>(
            cmmrt::plan::costClassFallback(CostClass(i)))];
  }

  /// The fields of a node (or of node_defaults, without "name").
  bool nodeFields(const json::Value &v, const std::string &path, NodeSpec &node,
                  bool allowName, std::bitset<kNumCostClasses> &given) {
    const json::Object *o = object(v, path);
    if (!o)
      return false;
    static const llvm::StringRef keys[] = {"name",
                                           "cores",
                                           "workers",
                                           "threads_per_worker",
                                           "communicators",
                                           "memory_bytes",
                                           "first_touch_s_per_byte",
                                           "huge_page_bytes",
                                           "task_overhead_s",
                                           "network_bandwidth_Bps",
                                           "receive_cpu_s",
                                           "receive_cpu_s_per_byte",
                                           "send_cpu_s",
                                           "send_cpu_s_per_byte",
                                           "cache_bytes",
                                           "hot_factor",
                                           "configurations",
                                           "time"};
    if (!onlyKeys(*o, path, llvm::ArrayRef(keys).drop_front(allowName ? 0 : 1)))
      return false;
    if (const json::Value *n = o->get("name")) {
      std::optional<llvm::StringRef> s = n->getAsString();
      if (!s)
        return fail(field(path, "name"), "expected a string");
      node.name = s->str();
    }
    struct Count {
      const char *key;
      unsigned *out;
    } counts[] = {{"cores", &node.cores},
                  {"workers", &node.workers},
                  {"threads_per_worker", &node.threadsPerWorker},
                  {"communicators", &node.communicators}};
    for (const Count &c : counts)
      if (const json::Value *x = o->get(c.key))
        if (!positiveInteger(*x, field(path, c.key), kMaxCount, *c.out))
          return false;
    if (const json::Value *x = o->get("memory_bytes"))
      if (!positiveNumber(*x, field(path, "memory_bytes"), node.memoryBytes))
        return false;
    struct Cost {
      const char *key;
      double *out;
    } costs[] = {{"first_touch_s_per_byte", &node.firstTouch},
                 {"task_overhead_s", &node.taskOverhead},
                 {"receive_cpu_s", &node.receiveCpu},
                 {"receive_cpu_s_per_byte", &node.receiveCpuPerByte},
                 {"send_cpu_s", &node.sendCpu},
                 {"send_cpu_s_per_byte", &node.sendCpuPerByte}};
    for (const Cost &c : costs)
      if (const json::Value *x = o->get(c.key))
        if (!nonNegativeNumber(*x, field(path, c.key), *c.out))
          return false;
    if (const json::Value *x = o->get("cache_bytes"))
      if (!nonNegativeNumber(*x, field(path, "cache_bytes"), node.cacheBytes))
        return false;
    if (const json::Value *x = o->get("huge_page_bytes"))
      if (!nonNegativeNumber(*x, field(path, "huge_page_bytes"),
                             node.hugePageBytes))
        return false;
    if (const json::Value *x = o->get("hot_factor")) {
      std::optional<double> f = x->getAsNumber();
      if (!f || !(*f > 0 && *f <= 1))
        return fail(field(path, "hot_factor"), "expected a number in (0, 1]");
      node.hotFactor = *f;
    }
    if (const json::Value *x = o->get("network_bandwidth_Bps"))
      if (!bandwidth(*x, field(path, "network_bandwidth_Bps"),
                     node.networkBandwidth))
        return false;
    if (const json::Value *x = o->get("configurations"))
      if (!configurations(*x, field(path, "configurations"),
                          node.configurations))
        return false;
    if (const json::Value *x = o->get("time"))
      if (!timeTable(*x, field(path, "time"), node.time, given))
        return false;
    return true;
  }

  /// A node's measured splits: [{"workers", "threads", "gemm_factor"}],
  /// each split at most once.
  bool configurations(const json::Value &v, const std::string &path,
                      std::vector<NodeConfiguration> &out) {
    const json::Array *a = v.getAsArray();
    if (!a)
      return fail(path, "expected an array of {workers, threads, "
                        "gemm_factor} objects");
    out.clear();
    for (size_t i = 0; i < a->size(); ++i) {
      std::string at = index(path, i);
      const json::Object *o = object((*a)[i], at);
      if (!o || !onlyKeys(*o, at, {"workers", "threads", "gemm_factor"}))
        return false;
      NodeConfiguration c;
      for (auto [key, value] : {std::pair{"workers", &c.workers},
                                std::pair{"threads", &c.threads}}) {
        const json::Value *x = o->get(key);
        if (!x)
          return fail(field(at, key), "required key is missing");
        if (!positiveInteger(*x, field(at, key), kMaxCount, *value))
          return false;
      }
      const json::Value *f = o->get("gemm_factor");
      if (!f)
        return fail(field(at, "gemm_factor"), "required key is missing");
      if (!positiveNumber(*f, field(at, "gemm_factor"), c.gemmFactor))
        return false;
      for (const NodeConfiguration &seen : out)
        if (seen.workers == c.workers && seen.threads == c.threads)
          return fail(at, "duplicate split " + std::to_string(c.workers) +
                              " x " + std::to_string(c.threads));
      out.push_back(c);
    }
    return true;
  }

  bool model(const json::Value &root, MachineModel &out) {
    const json::Object *o = object(root, "");
    if (!o || !onlyKeys(*o, "",
                        {"name", "default_link", "links", "node_defaults",
                         "nodes", "replicate_last_node_to",
                         "memory_limit_bytes", "provenance", "master_alone"}))
      return false;
    MachineModel m;
    if (const json::Value *v = o->get("name")) {
      std::optional<llvm::StringRef> s = v->getAsString();
      if (!s)
        return fail("name", "expected a string");
      m.name = s->str();
    }
    if (const json::Value *v = o->get("default_link")) {
      const json::Object *l = object(*v, "default_link");
      if (!l || !onlyKeys(*l, "default_link", {"latency_s", "bandwidth_Bps"}) ||
          !linkFields(*l, "default_link", m.defaultLink))
        return false;
    }
    if (const json::Value *v = o->get("memory_limit_bytes"))
      if (!positiveNumber(*v, "memory_limit_bytes", m.memoryLimit))
        return false;
    if (const json::Value *v = o->get("provenance")) {
      if (!object(*v, "provenance") || !finiteNumbers(*v, "provenance"))
        return false;
      m.provenance = llvm::formatv("{0}", *v).str();
    }
    NodeSpec defaults;
    std::bitset<kNumCostClasses> defaultsGiven;
    if (const json::Value *v = o->get("node_defaults"))
      if (!nodeFields(*v, "node_defaults", defaults, /*allowName=*/false,
                      defaultsGiven))
        return false;

    const json::Value *nodesValue = o->get("nodes");
    if (!nodesValue)
      return fail("nodes", "required key is missing");
    const json::Array *nodes = nodesValue->getAsArray();
    if (!nodes || nodes->empty())
      return fail("nodes", "expected a non-empty array of node objects");
    if (nodes->size() > static_cast<size_t>(kMaxNodes))
      return fail("nodes", "more than " + std::to_string(kMaxNodes) + " nodes");
    // A node object: node_defaults, then its own fields, then the
    // fallbacks of the classes neither gave.
    auto readNode = [&](const json::Value &v, const std::string &path,
                        std::string name, NodeSpec &node) {
      node = defaults;
      node.name = std::move(name);
      std::bitset<kNumCostClasses> given = defaultsGiven;
      if (!nodeFields(v, path, node, /*allowName=*/true, given))
        return false;
      applyFallbacks(node, given);
      return true;
    };
    for (size_t i = 0; i < nodes->size(); ++i) {
      NodeSpec node;
      if (!readNode((*nodes)[i], index("nodes", i), "node" + std::to_string(i),
                    node))
        return false;
      m.nodes.push_back(std::move(node));
    }
    if (const json::Value *v = o->get("master_alone"))
      if (!readNode(*v, "master_alone", "master_alone",
                    m.masterAlone.emplace()))
        return false;
    if (const json::Value *v = o->get("replicate_last_node_to")) {
      unsigned count = 0;
      if (!positiveInteger(*v, "replicate_last_node_to", kMaxNodes, count))
        return false;
      if (count < m.nodes.size())
        return fail("replicate_last_node_to",
                    std::to_string(count) + " is less than the " +
                        std::to_string(m.nodes.size()) + " listed nodes");
      NodeSpec last = m.nodes.back();
      m.nodes.resize(count, last);
    }

    if (const json::Value *v = o->get("links")) {
      const json::Array *links = v->getAsArray();
      if (!links)
        return fail("links", "expected an array of link objects");
      for (size_t i = 0; i < links->size(); ++i) {
        std::string path = index("links", i);
        const json::Object *l = object((*links)[i], path);
        if (!l ||
            !onlyKeys(*l, path, {"from", "to", "latency_s", "bandwidth_Bps"}))
          return false;
        int64_t ends[2];
        const char *names[2] = {"from", "to"};
        for (int e = 0; e < 2; ++e) {
          const json::Value *x = l->get(names[e]);
          if (!x)
            return fail(field(path, names[e]), "required key is missing");
          if (!nonNegativeInteger(*x, field(path, names[e]), ends[e]))
            return false;
          if (ends[e] >= static_cast<int64_t>(m.nodes.size()))
            return fail(field(path, names[e]),
                        "node index " + std::to_string(ends[e]) +
                            " out of range (" + std::to_string(m.nodes.size()) +
                            " nodes)");
        }
        if (ends[0] == ends[1])
          return fail(path, "from and to must differ (a node's transfers to "
                            "itself are free)");
        std::pair<unsigned, unsigned> key(static_cast<unsigned>(ends[0]),
                                          static_cast<unsigned>(ends[1]));
        if (m.links.count(key))
          return fail(path, "duplicate link " + std::to_string(key.first) +
                                " -> " + std::to_string(key.second));
        LinkSpec spec = m.defaultLink;
        if (!linkFields(*l, path, spec))
          return false;
        m.links[key] = spec;
      }
    }
    out = std::move(m);
    return true;
  }
};
} // namespace

/// Every -0 in `v` made 0: llvm::json prints a double -0 as "-0", which
/// reads back as the integer 0, so a model holding one (a latency of
/// -.000, found by test/Fuzz) printed differently once read back.
static void positiveZeros(json::Value &v) {
  if (json::Object *o = v.getAsObject()) {
    for (auto &field : *o)
      positiveZeros(field.second);
  } else if (json::Array *a = v.getAsArray()) {
    for (json::Value &element : *a)
      positiveZeros(element);
  } else if (std::optional<double> d = v.getAsNumber();
             d && *d == 0 && std::signbit(*d)) {
    v = 0.0;
  }
}

bool cmm::scheduling::parseMachineModel(const std::string &text,
                                        MachineModel &model,
                                        std::string &error) {
  if (!checkJsonNesting(text, error)) {
    error = "invalid JSON: " + error;
    return false;
  }
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value) {
    error = "invalid JSON: " + llvm::toString(value.takeError());
    return false;
  }
  positiveZeros(*value);
  Reader reader;
  if (!reader.model(*value, model)) {
    error = reader.error;
    return false;
  }
  return true;
}

bool cmm::scheduling::loadMachineModel(const std::string &path,
                                       MachineModel &model,
                                       std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error =
        path + ": cannot read machine model: " + buffer.getError().message();
    return false;
  }
  std::string message;
  if (!parseMachineModel((*buffer)->getBuffer().str(), model, message)) {
    error = path + ": " + message;
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// JSON writer
//===----------------------------------------------------------------------===//

static void writeNumber(json::OStream &j, double x) {
  // -0 is written 0, as reading makes it (positiveZeros): "-0" would read
  // back as the integer 0.
  if (std::isfinite(x))
    j.rawValue(cmmrt::shortest(x == 0 ? 0.0 : x));
  else
    j.value(nullptr); // not representable; parse rejects it
}

static void writeBandwidth(json::OStream &j, double x) {
  if (x == std::numeric_limits<double>::infinity())
    j.value("inf");
  else
    writeNumber(j, x);
}

std::string cmm::scheduling::printMachineModel(const MachineModel &model) {
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    json::OStream j(os, /*IndentSize=*/2);
    auto number = [&](llvm::StringRef key, double x) {
      j.attributeBegin(key);
      writeNumber(j, x);
      j.attributeEnd();
    };
    auto bandwidth = [&](llvm::StringRef key, double x) {
      j.attributeBegin(key);
      writeBandwidth(j, x);
      j.attributeEnd();
    };
    j.object([&] {
      j.attribute("name", model.name);
      if (model.memoryLimit > 0)
        number("memory_limit_bytes", model.memoryLimit);
      j.attributeObject("default_link", [&] {
        number("latency_s", model.defaultLink.latency);
        bandwidth("bandwidth_Bps", model.defaultLink.bandwidth);
      });
      j.attributeArray("links", [&] {
        for (const auto &[key, spec] : model.links)
          j.object([&] {
            j.attribute("from", static_cast<int64_t>(key.first));
            j.attribute("to", static_cast<int64_t>(key.second));
            number("latency_s", spec.latency);
            bandwidth("bandwidth_Bps", spec.bandwidth);
          });
      });
      auto node = [&](const NodeSpec &n) {
        j.object([&] {
          j.attribute("name", n.name);
          j.attribute("cores", static_cast<int64_t>(n.cores));
          j.attribute("workers", static_cast<int64_t>(n.workers));
          j.attribute("threads_per_worker",
                      static_cast<int64_t>(n.threadsPerWorker));
          j.attribute("communicators", static_cast<int64_t>(n.communicators));
          number("memory_bytes", n.memoryBytes);
          number("first_touch_s_per_byte", n.firstTouch);
          if (n.hugePageBytes > 0)
            number("huge_page_bytes", n.hugePageBytes);
          number("task_overhead_s", n.taskOverhead);
          bandwidth("network_bandwidth_Bps", n.networkBandwidth);
          number("receive_cpu_s", n.receiveCpu);
          number("receive_cpu_s_per_byte", n.receiveCpuPerByte);
          if (n.sendCpu != 0 || n.sendCpuPerByte != 0) {
            number("send_cpu_s", n.sendCpu);
            number("send_cpu_s_per_byte", n.sendCpuPerByte);
          }
          if (n.cacheBytes > 0) {
            number("cache_bytes", n.cacheBytes);
            number("hot_factor", n.hotFactor);
          }
          if (!n.configurations.empty())
            j.attributeArray("configurations", [&] {
              for (const NodeConfiguration &c : n.configurations)
                j.object([&] {
                  j.attribute("workers", static_cast<int64_t>(c.workers));
                  j.attribute("threads", static_cast<int64_t>(c.threads));
                  number("gemm_factor", c.gemmFactor);
                });
            });
          j.attributeObject("time", [&] {
            for (unsigned c = 0; c < kNumCostClasses; ++c) {
              // Trailing zero coefficients are left out (missing means 0);
              // -0 is 0, as in writeNumber.
              const auto &a = n.time[c].a;
              size_t len = a.size();
              while (len > 0 && a[len - 1] == 0)
                --len;
              // One line per polynomial: "gemm": [a0, ..., a7].
              std::string line = "[";
              for (size_t i = 0; i < len; ++i)
                line += (i ? ", " : "") +
                        (std::isfinite(a[i])
                             ? cmmrt::shortest(a[i] == 0 ? 0.0 : a[i])
                             : std::string("null"));
              j.attributeBegin(costClassName(CostClass(c)));
              j.rawValue(line + "]");
              j.attributeEnd();
            }
          });
        });
      };
      j.attributeArray("nodes", [&] {
        for (const NodeSpec &n : model.nodes)
          node(n);
      });
      if (model.masterAlone) {
        j.attributeBegin("master_alone");
        node(*model.masterAlone);
        j.attributeEnd();
      }
      if (!model.provenance.empty()) {
        j.attributeBegin("provenance");
        j.rawValue(model.provenance);
        j.attributeEnd();
      }
    });
  }
  os << "\n";
  return text;
}
