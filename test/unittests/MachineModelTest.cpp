//===- MachineModelTest.cpp - Machine model: JSON, queries, built-in ------===//
//
// The c5.9xlarge model file, the strict reader's error paths, the
// print/parse round trip, task and transfer times computed by hand, the
// derived models (node count, free communication) and the built-in model.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/MachineModel.h"
#include "cmm/Scheduling/CostModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#ifndef CMM_SOURCE_DIR
#error "CMM_SOURCE_DIR must name the source tree (for models/c5.9xlarge.json)"
#endif

using namespace cmm::scheduling;

namespace {

const char *const kC5Path = CMM_SOURCE_DIR "/models/c5.9xlarge.json";

MachineModel loadC5() {
  MachineModel m;
  std::string error;
  EXPECT_TRUE(loadMachineModel(kC5Path, m, error)) << error;
  return m;
}

MachineModel parseOk(const std::string &json) {
  MachineModel m;
  std::string error;
  EXPECT_TRUE(parseMachineModel(json, m, error)) << error << "\n" << json;
  return m;
}

std::string parseError(const std::string &json) {
  MachineModel m;
  m.name = "untouched";
  std::string error;
  EXPECT_FALSE(parseMachineModel(json, m, error)) << json;
  EXPECT_EQ(m.name, "untouched") << "a failed parse must not modify the model";
  return error;
}

double coeff(const MachineModel &m, unsigned node, CostClass op, unsigned i) {
  return m.nodes[node].time[static_cast<unsigned>(op)].a[i];
}

//===----------------------------------------------------------------------===//
// The c5.9xlarge file
//===----------------------------------------------------------------------===//

TEST(MachineModelTest, C5FileDescribesEightNodes) {
  MachineModel m = loadC5();
  EXPECT_EQ(m.name, "c5.9xlarge");
  ASSERT_EQ(m.nodes.size(), 8u);
  EXPECT_DOUBLE_EQ(m.defaultLink.bandwidth, 1.25e9); // 10 Gbps
  EXPECT_DOUBLE_EQ(m.defaultLink.latency, 5e-5);
  EXPECT_TRUE(m.links.empty());

  // The master: 14 communicators (Table 10 at 10 Gbps) and one worker with
  // 2 BLAS threads.
  EXPECT_EQ(m.nodes[0].name, "master");
  EXPECT_EQ(m.nodes[0].communicators, 14u);
  EXPECT_EQ(m.nodes[0].workers, 1u);
  EXPECT_EQ(m.nodes[0].threadsPerWorker, 2u);
  EXPECT_EQ(m.nodes[0].cores, 18u);
  // The workers: Table 3's 14-thread row, 2 communicators + 3 x 4 threads.
  for (unsigned i = 1; i < 8; ++i) {
    EXPECT_EQ(m.nodes[i].name, "worker");
    EXPECT_EQ(m.nodes[i].cores, 18u);
    EXPECT_EQ(m.nodes[i].workers, 3u);
    EXPECT_EQ(m.nodes[i].threadsPerWorker, 4u);
    EXPECT_EQ(m.nodes[i].communicators, 2u);
    EXPECT_DOUBLE_EQ(m.nodes[i].memoryBytes, 72.0 * 1024 * 1024 * 1024);
    EXPECT_TRUE(m.nodes[i] == m.nodes[1]);
  }
  EXPECT_EQ(m.totalWorkers(), 1u + 7 * 3);

  // 2 flops per m n k at 720.9 / 3 GFLOPS per worker (4 significant digits
  // in the file).
  EXPECT_NEAR(coeff(m, 1, CostClass::Gemm, 7) / (2 / (720.9e9 / 3)), 1, 1e-3);
  // The master's 2-thread worker at half that rate; its other classes fall
  // back to node_defaults.
  EXPECT_NEAR(coeff(m, 0, CostClass::Gemm, 7) / (2 / (720.9e9 / 6)), 1, 1e-3);
  EXPECT_EQ(m.nodes[0].time[static_cast<unsigned>(CostClass::Elementwise)],
            m.nodes[1].time[static_cast<unsigned>(CostClass::Elementwise)]);
  for (unsigned c = 0; c < kNumCostClasses; ++c)
    EXPECT_GT(m.taskTime(1, static_cast<CostClass>(c), 1000, 1000, 1000), 0)
        << costClassName(static_cast<CostClass>(c));
}

TEST(MachineModelTest, C5TaskAndTransferTimesByHand) {
  MachineModel m = loadC5();
  // A 5k x 5k x 5k tile product on a worker: 8.323e-12 * 1.25e11 s.
  EXPECT_NEAR(m.taskTime(1, CostClass::Gemm, 5000, 5000, 5000),
              8.323e-12 * 1.25e11, 1e-12);
  // Elementwise on a 5k x 5k tile: 5.626e-10 * 2.5e7 s.
  EXPECT_NEAR(m.taskTime(3, CostClass::Elementwise, 5000, 5000),
              5.626e-10 * 2.5e7, 1e-15);
  // A 5k x 5k tile of doubles (2e8 bytes) over 10 Gbps: 5e-5 + 0.16 s.
  EXPECT_DOUBLE_EQ(m.transferTime(0, 1, 2e8), 5e-5 + 0.16);
  EXPECT_DOUBLE_EQ(m.transferTime(7, 2, 0), 5e-5);
  EXPECT_EQ(m.transferTime(4, 4, 2e8), 0.0);
}

//===----------------------------------------------------------------------===//
// Round trip
//===----------------------------------------------------------------------===//

void expectRoundTrip(const MachineModel &m) {
  std::string text = printMachineModel(m);
  MachineModel back = parseOk(text);
  EXPECT_TRUE(back == m) << text;
  // Printing is deterministic: the same model prints the same text.
  EXPECT_EQ(printMachineModel(back), text);
}

TEST(MachineModelTest, RoundTripC5) { expectRoundTrip(loadC5()); }

TEST(MachineModelTest, RoundTripBuiltin) {
  expectRoundTrip(builtinMachineModel(1));
  expectRoundTrip(builtinMachineModel(3));
}

TEST(MachineModelTest, RoundTripLinksAndOddNumbers) {
  MachineModel m = parseOk(R"({
    "name": "odd \"quoted\" name",
    "default_link": {"latency_s": 0.1, "bandwidth_Bps": 3e9},
    "links": [{"from": 1, "to": 0, "latency_s": 1e-300,
               "bandwidth_Bps": 123456789.123},
              {"from": 0, "to": 2, "bandwidth_Bps": "inf"}],
    "node_defaults": {"time": {"gemm": [0.1, 0.2, 0.30000000000000004,
                                        1e-17, 0, 0, 0, 7e-12]}},
    "nodes": [{"name": "a", "memory_bytes": 1.5}, {}, {"cores": 7}]
  })");
  ASSERT_EQ(m.nodes.size(), 3u);
  EXPECT_EQ(m.nodes[1].name, "node1"); // default names
  EXPECT_DOUBLE_EQ(coeff(m, 2, CostClass::Gemm, 2), 0.30000000000000004);
  // A link without latency takes the default link's.
  EXPECT_DOUBLE_EQ(m.link(0, 2).latency, 0.1);
  EXPECT_TRUE(std::isinf(m.link(0, 2).bandwidth));
  expectRoundTrip(m);
}

TEST(MachineModelTest, NegativeZeroPrintsAsZero) {
  // Found by test/Fuzz: "-.000" read as -0, printed "-0", which reads back
  // as the integer 0 and printed "0".
  MachineModel m = parseOk(R"({"default_link": {"latency_s": -.000},
    "node_defaults": {"time": {"gemm": [-0.0, 1]}},
    "nodes": [{}], "provenance": {"x": -.000, "y": [-0.0]}})");
  std::string text = printMachineModel(m);
  EXPECT_EQ(text.find("-0"), std::string::npos) << text;
  expectRoundTrip(m);
}

// The memory limit of distributed products is a model field: read, printed
// only when set, kept by withNodes.
TEST(MachineModelTest, ProvenanceIsKept) {
  // cmm-profile's record of where the numbers come from survives reading
  // and writing, nested values included.
  MachineModel m = parseOk(
      R"({"nodes": [{}], "provenance": {"tool": "cmm-profile", "fits": )"
      R"([{"rank": 0, "rms": 0.25}], "coretype": null}})");
  EXPECT_EQ(m.provenance, R"({"coretype":null,"fits":[{"rank":0,"rms":0.25}],)"
                          R"("tool":"cmm-profile"})");
  expectRoundTrip(m);
  EXPECT_TRUE(parseOk(R"({"nodes": [{}]})").provenance.empty());
}

TEST(MachineModelTest, MemoryLimit) {
  MachineModel m =
      parseOk(R"({"memory_limit_bytes": 2.5e9, "nodes": [{}, {}]})");
  EXPECT_DOUBLE_EQ(m.memoryLimit, 2.5e9);
  EXPECT_DOUBLE_EQ(m.withNodes(5).memoryLimit, 2.5e9);
  expectRoundTrip(m);
  MachineModel none = parseOk(R"({"nodes": [{}]})");
  EXPECT_EQ(none.memoryLimit, 0.0);
  EXPECT_EQ(printMachineModel(none).find("memory_limit"), std::string::npos);
  EXPECT_NE(printMachineModel(m).find("\"memory_limit_bytes\": 2.5e+09"),
            std::string::npos)
      << printMachineModel(m);
}

TEST(MachineModelTest, RoundTripFreeCommunication) {
  MachineModel free = loadC5().withFreeCommunication();
  std::string text = printMachineModel(free);
  EXPECT_NE(text.find("\"inf\""), std::string::npos) << text;
  expectRoundTrip(free);
}

//===----------------------------------------------------------------------===//
// Validation: each error names its JSON path
//===----------------------------------------------------------------------===//

struct BadCase {
  const char *json;
  const char *error; // exact message
};

TEST(MachineModelTest, ValidationErrorsNameThePath) {
  const BadCase cases[] = {
      // Structure.
      {"[]", "(top level): expected an object"},
      {"{}", "nodes: required key is missing"},
      {R"({"nodes": []})", "nodes: expected a non-empty array of node objects"},
      {R"({"nodes": {}})", "nodes: expected a non-empty array of node objects"},
      {R"({"nodes": [3]})", "nodes[0]: expected an object"},
      // Unknown keys (typos) at every level.
      {R"({"nodez": [{}], "nodes": [{}]})",
       "nodez: unknown key (expected one of: name, default_link, links, "
       "node_defaults, nodes, replicate_last_node_to, memory_limit_bytes, "
       "provenance, master_alone)"},
      {R"({"provenance": "today", "nodes": [{}]})",
       "provenance: expected an object"},
      // Found by test/Fuzz/FuzzMachineModel.cpp: kept as written, 1e999
      // was printed as `inf`, and the printed model did not read back.
      {R"({"provenance": {"fits": [{"x": 1}, {"x": -1e999}]}, "nodes": [{}]})",
       "provenance.fits[1].x: a number out of the range of a double"},
      {R"({"memory_limit_bytes": -1, "nodes": [{}]})",
       "memory_limit_bytes: expected a positive number"},
      {R"({"nodes": [{}, {"wrokers": 3}]})",
       "nodes[1].wrokers: unknown key (expected one of: name, cores, workers, "
       "threads_per_worker, communicators, memory_bytes, "
       "first_touch_s_per_byte, huge_page_bytes, task_overhead_s, "
       "network_bandwidth_Bps, "
       "receive_cpu_s, receive_cpu_s_per_byte, send_cpu_s, "
       "send_cpu_s_per_byte, cache_bytes, hot_factor, "
       "configurations, time)"},
      {R"({"node_defaults": {"name": "x"}, "nodes": [{}]})",
       "node_defaults.name: unknown key (expected one of: cores, workers, "
       "threads_per_worker, communicators, memory_bytes, "
       "first_touch_s_per_byte, huge_page_bytes, task_overhead_s, "
       "network_bandwidth_Bps, "
       "receive_cpu_s, receive_cpu_s_per_byte, send_cpu_s, "
       "send_cpu_s_per_byte, cache_bytes, hot_factor, "
       "configurations, time)"},
      {R"({"nodes": [{"network_bandwidth_Bps": 0}]})",
       "nodes[0].network_bandwidth_Bps: expected a positive number or \"inf\""},
      {R"({"node_defaults": {"time": {"gemmm": []}}, "nodes": [{}]})",
       "node_defaults.time.gemmm: unknown key (expected one of: gemm, "
       "elementwise, map, reduce, transpose, generate, solve, copy, exp, log, "
       "tanh, sin, pow, rand, randn, scale, mod, sparse, potrf, trsm, syrk, "
       "qr, svd, svdvals, eig, eigvals, lstsq, sgemm, compress, fused, gemm1)"},
      {R"({"default_link": {"latency": 1}, "nodes": [{}]})",
       "default_link.latency: unknown key (expected one of: latency_s, "
       "bandwidth_Bps)"},
      {R"({"links": [{"from": 0, "to": 1, "bw": 1}], "nodes": [{}, {}]})",
       "links[0].bw: unknown key (expected one of: from, to, latency_s, "
       "bandwidth_Bps)"},
      // Counts.
      {R"({"nodes": [{}, {"workers": 0}]})",
       "nodes[1].workers: expected a positive integer"},
      {R"({"nodes": [{"workers": -2}]})",
       "nodes[0].workers: expected a positive integer"},
      {R"({"nodes": [{"cores": 2.5}]})",
       "nodes[0].cores: expected a positive integer"},
      {R"({"nodes": [{"cores": "18"}]})",
       "nodes[0].cores: expected a positive integer"},
      {R"({"nodes": [{"cores": true}]})",
       "nodes[0].cores: expected a positive integer"},
      {R"({"nodes": [{"cores": 1e12}]})",
       "nodes[0].cores: expected a positive integer of at most 1048576"},
      {R"({"node_defaults": {"communicators": 0}, "nodes": [{}]})",
       "node_defaults.communicators: expected a positive integer"},
      {R"({"nodes": [{"threads_per_worker": null}]})",
       "nodes[0].threads_per_worker: expected a positive integer"},
      {R"({"nodes": [{"memory_bytes": 0}]})",
       "nodes[0].memory_bytes: expected a positive number"},
      {R"({"nodes": [{"name": 7}]})", "nodes[0].name: expected a string"},
      {R"({"name": ["x"], "nodes": [{}]})", "name: expected a string"},
      // Links.
      {R"({"default_link": {"bandwidth_Bps": 0}, "nodes": [{}]})",
       "default_link.bandwidth_Bps: expected a positive number or \"inf\""},
      {R"({"default_link": {"bandwidth_Bps": -1e9}, "nodes": [{}]})",
       "default_link.bandwidth_Bps: expected a positive number or \"inf\""},
      {R"({"default_link": {"bandwidth_Bps": "fast"}, "nodes": [{}]})",
       "default_link.bandwidth_Bps: expected a positive number or \"inf\""},
      {R"({"default_link": {"latency_s": -1e-6}, "nodes": [{}]})",
       "default_link.latency_s: expected a non-negative number"},
      {R"({"default_link": {"latency_s": 1e999}, "nodes": [{}]})",
       "default_link.latency_s: expected a non-negative number"},
      {R"({"default_link": 5, "nodes": [{}]})",
       "default_link: expected an object"},
      {R"({"links": {}, "nodes": [{}]})",
       "links: expected an array of link objects"},
      {R"({"links": [{"from": 0, "to": 8}], "nodes": [{}],
           "replicate_last_node_to": 8})",
       "links[0].to: node index 8 out of range (8 nodes)"},
      {R"({"links": [{"from": -1, "to": 0}], "nodes": [{}, {}]})",
       "links[0].from: expected a non-negative integer"},
      {R"({"links": [{"to": 0}], "nodes": [{}, {}]})",
       "links[0].from: required key is missing"},
      {R"({"links": [{"from": 1, "to": 1}], "nodes": [{}, {}]})",
       "links[0]: from and to must differ (a node's transfers to itself are "
       "free)"},
      {R"({"links": [{"from": 0, "to": 1}, {"from": 0, "to": 1}],
           "nodes": [{}, {}]})",
       "links[1]: duplicate link 0 -> 1"},
      {R"({"links": [{"from": 0, "to": 1, "latency_s": -3}],
           "nodes": [{}, {}]})",
       "links[0].latency_s: expected a non-negative number"},
      // Time polynomials.
      {R"({"node_defaults": {"time": {"gemm": [0,0,0,0,0,0,0,0,1]}},
           "nodes": [{}]})",
       "node_defaults.time.gemm: expected an array of at most 8 coefficients "
       "(a0..a7 for 1, m, n, k, mn, mk, nk, mnk)"},
      {R"({"nodes": [{"time": {"map": 1e-9}}]})",
       "nodes[0].time.map: expected an array of at most 8 coefficients "
       "(a0..a7 for 1, m, n, k, mn, mk, nk, mnk)"},
      {R"({"nodes": [{}, {"time": {"copy": [0, 0, 0, -1e-9]}}]})",
       "nodes[1].time.copy[3]: expected a non-negative number"},
      {R"({"nodes": [{"time": {"solve": [0, "1e-9"]}}]})",
       "nodes[0].time.solve[1]: expected a non-negative number"},
      {R"({"nodes": [{"time": []}]})", "nodes[0].time: expected an object"},
      // Replication.
      {R"({"nodes": [{}], "replicate_last_node_to": 0})",
       "replicate_last_node_to: expected a positive integer"},
      {R"({"nodes": [{}, {}, {}], "replicate_last_node_to": 2})",
       "replicate_last_node_to: 2 is less than the 3 listed nodes"},
      {R"({"nodes": [{}], "replicate_last_node_to": 100000})",
       "replicate_last_node_to: expected a positive integer of at most "
       "65536"},
  };
  for (const BadCase &c : cases)
    EXPECT_EQ(parseError(c.json), c.error) << c.json;
}

TEST(MachineModelTest, SyntaxErrorsAndFiles) {
  std::string error = parseError(R"({"nodes": [{},]})");
  EXPECT_EQ(error.rfind("invalid JSON: [1:", 0), 0u) << error;

  MachineModel m;
  EXPECT_FALSE(loadMachineModel("/nonexistent/dir/model.json", m, error));
  EXPECT_EQ(error.rfind("/nonexistent/dir/model.json: cannot read", 0), 0u)
      << error;
}

TEST(MachineModelTest, DefaultsAndOverrides) {
  MachineModel m = parseOk(R"({
    "node_defaults": {"cores": 8, "workers": 2,
                      "time": {"gemm": [1, 2], "copy": [0, 0, 0, 0, 4]}},
    "nodes": [{"workers": 5, "time": {"gemm": [3]}}, {}],
    "replicate_last_node_to": 4
  })");
  ASSERT_EQ(m.nodes.size(), 4u);
  EXPECT_EQ(m.name, "");
  // Every node field falls back to node_defaults, then to NodeSpec's.
  EXPECT_EQ(m.nodes[0].cores, 8u);
  EXPECT_EQ(m.nodes[0].workers, 5u);
  EXPECT_EQ(m.nodes[3].workers, 2u);
  EXPECT_EQ(m.nodes[3].threadsPerWorker, NodeSpec().threadsPerWorker);
  EXPECT_EQ(m.nodes[3].name, "node1"); // copies of the last listed node
  // A node's "time" replaces whole polynomials, class by class; missing
  // coefficients are 0.
  EXPECT_DOUBLE_EQ(coeff(m, 0, CostClass::Gemm, 0), 3);
  EXPECT_DOUBLE_EQ(coeff(m, 0, CostClass::Gemm, 1), 0);
  EXPECT_DOUBLE_EQ(coeff(m, 0, CostClass::Copy, 4), 4);
  EXPECT_DOUBLE_EQ(coeff(m, 2, CostClass::Gemm, 1), 2);
  // No default_link: LinkSpec's defaults.
  EXPECT_TRUE(m.defaultLink == LinkSpec());
  EXPECT_EQ(m.totalWorkers(), 5u + 2 * 3);
}

TEST(MachineModelTest, CommunicatorsShareTheirNodesNetwork) {
  // Links of 1e9 B/s; node 0 moves 2e9 B/s in all, with 4 communicators
  // (a share of 5e8 each); node 1 is unlimited with 1 communicator; node 2
  // has 1e9 B/s and 1 communicator. 1e9 bytes take latency plus:
  MachineModel m = parseOk(R"({
    "default_link": {"latency_s": 0.5, "bandwidth_Bps": 1e9},
    "nodes": [{"communicators": 4, "network_bandwidth_Bps": 2e9},
              {"communicators": 1},
              {"communicators": 1, "network_bandwidth_Bps": 1e9}]})");
  EXPECT_DOUBLE_EQ(m.transferTime(0, 1, 1e9), 0.5 + 2.0); // 0's share
  EXPECT_DOUBLE_EQ(m.transferTime(1, 0, 1e9), 0.5 + 2.0); // either end
  EXPECT_DOUBLE_EQ(m.transferTime(1, 2, 1e9), 0.5 + 1.0); // the link
  EXPECT_DOUBLE_EQ(m.transferTime(2, 2, 1e9), 0.0);
  // Printed and read back; unlimited is "inf".
  MachineModel back = parseOk(printMachineModel(m));
  EXPECT_EQ(back, m);
  EXPECT_EQ(back.nodes[1].networkBandwidth,
            std::numeric_limits<double>::infinity());
}

TEST(MachineModelTest, ClassesLeftOutTakeTheirFallback) {
  // node_defaults knows only map and generate; node 1 gives map again and
  // tanh its own; node 0 nothing.
  MachineModel m = parseOk(R"({
    "node_defaults": {"time": {"map": [1], "generate": [2], "elementwise": [3]}},
    "nodes": [{}, {"time": {"map": [4], "tanh": [5]}}]})");
  auto a0 = [&](unsigned node, CostClass c) {
    return m.nodes[node].time[static_cast<unsigned>(c)].a[0];
  };
  for (CostClass c : {CostClass::Exp, CostClass::Log, CostClass::Tanh,
                      CostClass::Sin, CostClass::Pow})
    EXPECT_EQ(a0(0, c), 1) << costClassName(c);
  EXPECT_EQ(a0(0, CostClass::Rand), 2);
  EXPECT_EQ(a0(0, CostClass::Randn), 2);
  EXPECT_EQ(a0(1, CostClass::Exp), 4); // the node's own map
  EXPECT_EQ(a0(1, CostClass::Tanh), 5);
  EXPECT_EQ(a0(1, CostClass::Rand), 2);
  // A base class is nobody's stand-in but its own: gemm stays zero.
  EXPECT_EQ(a0(1, CostClass::Gemm), 0);
  // A class given in node_defaults is not replaced by the node's fallback.
  MachineModel d = parseOk(R"({
    "node_defaults": {"time": {"exp": [7]}},
    "nodes": [{"time": {"map": [8]}}]})");
  EXPECT_EQ(d.nodes[0].time[static_cast<unsigned>(CostClass::Exp)].a[0], 7);
  EXPECT_EQ(d.nodes[0].time[static_cast<unsigned>(CostClass::Log)].a[0], 8);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

TEST(MachineModelTest, TaskTimeEvaluatesAndClamps) {
  MachineModel m = parseOk(R"({"nodes": [{"time": {
    "gemm": [1, 2, 3, 4, 5, 6, 7, 8]}}]})");
  // 1 + 2m + 3n + 4k + 5mn + 6mk + 7nk + 8mnk at m=2, n=3, k=5.
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 2, 3, 5),
                   1 + 4 + 9 + 20 + 30 + 60 + 105 + 240);
  // k defaults to 1.
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 1, 1),
                   1 + 2 + 3 + 4 + 5 + 6 + 7 + 8);
  EXPECT_EQ(m.taskTime(0, CostClass::Map, 100, 100), 0.0); // all-zero class

  // A fitted polynomial (built in code; files cannot hold negative
  // coefficients) that goes negative is clamped at 0.
  m.nodes[0].time[static_cast<unsigned>(CostClass::Reduce)].a = {-1e-3, 0, 0, 0,
                                                                 1e-9};
  EXPECT_EQ(m.taskTime(0, CostClass::Reduce, 10, 10), 0.0);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Reduce, 2000, 1000), 1e-3);
}

// The runtime's per-task overhead is added to every task, after the clamp.
TEST(MachineModelTest, TaskOverheadIsAddedToEveryTask) {
  MachineModel m = parseOk(R"({"nodes": [{"task_overhead_s": 2e-6,
    "time": {"gemm": [1e-6, 0, 0, 0, 0, 0, 0, 1e-9]}}, {}]})");
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 10, 10, 10),
                   1e-6 + 1e-9 * 1000 + 2e-6);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Map, 100, 100), 2e-6);
  EXPECT_EQ(m.taskTime(1, CostClass::Map, 100, 100), 0.0); // node 1: none
  expectRoundTrip(m);
  MachineModel bad;
  std::string error;
  EXPECT_FALSE(
      parseMachineModel(R"({"nodes": [{"task_overhead_s": -1}]})", bad, error));
  EXPECT_EQ(error, "nodes[0].task_overhead_s: expected a non-negative number");
}

// The measured splits (Table 3): a worker's products take the factor of the
// node's split; the other classes, and splits not measured, are as fitted.
TEST(MachineModelTest, ConfigurationsScaleTheProductsOfTheirSplit) {
  MachineModel m = parseOk(R"({"nodes": [{"cores": 4, "workers": 1,
    "threads_per_worker": 4, "configurations": [
      {"workers": 1, "threads": 4, "gemm_factor": 1},
      {"workers": 2, "threads": 1, "gemm_factor": 2.5}],
    "time": {"gemm": [0, 0, 0, 0, 0, 0, 0, 1e-9], "solve": [1e-3],
             "elementwise": [0, 0, 0, 0, 1e-9]}}]})");
  // 200^3 runs on the worker's threads; 10^3 on one BLAS thread whatever
  // the split (class gemm1, filled from gemm here), so its factor is 1.
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 200, 200, 200), 8e-3);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 10, 10, 10), 1e-6);
  m.nodes[0].workers = 2;
  m.nodes[0].threadsPerWorker = 1;
  EXPECT_DOUBLE_EQ(m.nodes[0].gemmFactor(), 2.5);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 200, 200, 200), 2e-2);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 10, 10, 10), 1e-6);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Solve, 10, 10, 10), 2.5e-3);
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Elementwise, 10, 10), 1e-7);
  m.nodes[0].workers = 3; // not measured: as fitted
  EXPECT_DOUBLE_EQ(m.taskTime(0, CostClass::Gemm, 200, 200, 200), 8e-3);
  expectRoundTrip(m);
  struct Bad {
    const char *json, *error;
  } bad[] = {
      {R"({"nodes": [{"configurations": {}}]})",
       "nodes[0].configurations: expected an array of {workers, threads, "
       "gemm_factor} objects"},
      {R"({"nodes": [{"configurations": [{"workers": 0, "threads": 1,
         "gemm_factor": 1}]}]})",
       "nodes[0].configurations[0].workers: expected a positive integer"},
      {R"({"nodes": [{"configurations": [{"workers": 1, "threads": 1}]}]})",
       "nodes[0].configurations[0].gemm_factor: required key is missing"},
      {R"({"nodes": [{"configurations": [{"workers": 1, "threads": 1,
         "gemm_factor": 0}]}]})",
       "nodes[0].configurations[0].gemm_factor: expected a positive number"},
      {R"({"nodes": [{"configurations": [
         {"workers": 1, "threads": 1, "gemm_factor": 1},
         {"workers": 1, "threads": 1, "gemm_factor": 2}]}]})",
       "nodes[0].configurations[1]: duplicate split 1 x 1"},
      {R"({"nodes": [{"configurations": [{"workers": 1, "threads": 1,
         "gemm_factor": 1, "cores": 2}]}]})",
       "nodes[0].configurations[0].cores: unknown key (expected one of: "
       "workers, threads, gemm_factor)"},
  };
  for (const Bad &b : bad) {
    MachineModel out;
    std::string error;
    EXPECT_FALSE(parseMachineModel(b.json, out, error)) << b.json;
    EXPECT_EQ(error, b.error);
  }
}

// The classes scaled by a split's gemm factor: the products and every class
// that falls back to solve (the whole-matrix factorizations); elementwise
// work, transfers of tiles and chol's tile kernels are not.
TEST(MachineModelTest, FollowsSplitNamesTheThreadedClasses) {
  for (CostClass c : {CostClass::Gemm, CostClass::SingleGemm, CostClass::Solve,
                      CostClass::Qr, CostClass::Svd, CostClass::SvdVals,
                      CostClass::Eig, CostClass::EigVals, CostClass::Lstsq})
    EXPECT_TRUE(NodeSpec::followsSplit(c)) << cmmrt::plan::costClassName(c);
  for (CostClass c :
       {CostClass::Elementwise, CostClass::Transpose, CostClass::Sparse,
        CostClass::Potrf, CostClass::Syrk, CostClass::Copy})
    EXPECT_FALSE(NodeSpec::followsSplit(c)) << cmmrt::plan::costClassName(c);
}

// Receiving takes the workers' time only where the workers' threads and the
// communicators need more than the node's cores.
TEST(MachineModelTest, ReceiveCpuCountsWhereCommunicatorsShareCores) {
  MachineModel m = parseOk(R"({"nodes": [
    {"cores": 2, "workers": 1, "threads_per_worker": 2, "communicators": 1,
     "receive_cpu_s": 2e-5, "receive_cpu_s_per_byte": 1e-10},
    {"cores": 4, "workers": 1, "threads_per_worker": 2, "communicators": 2,
     "receive_cpu_s": 2e-5, "receive_cpu_s_per_byte": 1e-10}]})");
  EXPECT_TRUE(m.nodes[0].oversubscribed());
  EXPECT_FALSE(m.nodes[1].oversubscribed());
  EXPECT_DOUBLE_EQ(m.receiveCpuTime(0, 1e6), 2e-5 + 1e-4);
  EXPECT_EQ(m.receiveCpuTime(1, 1e6), 0.0);
  EXPECT_EQ(m.withFreeCommunication().receiveCpuTime(0, 1e6), 0.0);
  expectRoundTrip(m);
  MachineModel bad;
  std::string error;
  EXPECT_FALSE(parseMachineModel(
      R"({"nodes": [{"receive_cpu_s_per_byte": -1e-9}]})", bad, error));
  EXPECT_EQ(error,
            "nodes[0].receive_cpu_s_per_byte: expected a non-negative number");
}

// Sending to another host likewise (cmm-profile measures it between hosts).
TEST(MachineModelTest, SendCpuCountsWhereCommunicatorsShareCores) {
  MachineModel m = parseOk(R"({"nodes": [
    {"cores": 1, "workers": 1, "threads_per_worker": 1, "communicators": 1,
     "send_cpu_s": 7e-4, "send_cpu_s_per_byte": 1e-8},
    {"cores": 2, "workers": 1, "threads_per_worker": 1, "communicators": 1,
     "send_cpu_s": 7e-4, "send_cpu_s_per_byte": 1e-8}]})");
  EXPECT_DOUBLE_EQ(m.sendCpuTime(0, 1e6), 7e-4 + 1e-2);
  EXPECT_EQ(m.sendCpuTime(1, 1e6), 0.0);
  EXPECT_EQ(m.receiveCpuTime(0, 1e6), 0.0);
  EXPECT_EQ(m.withFreeCommunication().sendCpuTime(0, 1e6), 0.0);
  DataItem tile;
  tile.bytes = 1e6;
  EXPECT_DOUBLE_EQ(MachineCostModel(m).sendCpu(tile, 0), 7e-4 + 1e-2);
  expectRoundTrip(m);
  MachineModel bad;
  std::string error;
  EXPECT_FALSE(parseMachineModel(R"({"nodes": [{"send_cpu_s": -1}]})", bad,
                                 error));
  EXPECT_EQ(error, "nodes[0].send_cpu_s: expected a non-negative number");
}

// The cache model (NodeSpec::cacheBytes, hotFactor): read, written only
// where there is a cache, refused outside (0, 1].
TEST(MachineModelTest, CacheReuseFieldsRoundTrip) {
  MachineModel m = parseOk(R"({"nodes": [
    {"cache_bytes": 33554432, "hot_factor": 0.6}, {}]})");
  EXPECT_DOUBLE_EQ(m.nodes[0].cacheBytes, 33554432.0);
  EXPECT_DOUBLE_EQ(m.nodes[0].hotFactor, 0.6);
  EXPECT_EQ(m.nodes[1].cacheBytes, 0.0);
  EXPECT_EQ(m.nodes[1].hotFactor, 1.0);
  expectRoundTrip(m);
  EXPECT_EQ(printMachineModel(m).find("hot_factor"),
            printMachineModel(m).rfind("hot_factor"));
  for (const char *text : {R"({"nodes": [{"hot_factor": 0}]})",
                           R"({"nodes": [{"hot_factor": 1.5}]})"}) {
    MachineModel bad;
    std::string error;
    EXPECT_FALSE(parseMachineModel(text, bad, error)) << text;
    EXPECT_EQ(error, "nodes[0].hot_factor: expected a number in (0, 1]");
  }
  MachineModel bad;
  std::string error;
  EXPECT_FALSE(
      parseMachineModel(R"({"nodes": [{"cache_bytes": -1}]})", bad, error));
  EXPECT_EQ(error, "nodes[0].cache_bytes: expected a non-negative number");
}

// The node's huge pages (NodeSpec::hugePageBytes): read, written only where
// there are some, refused below 0.
TEST(MachineModelTest, HugePagesRoundTrip) {
  MachineModel m = parseOk(R"({"nodes": [{"huge_page_bytes": 2097152}, {}]})");
  EXPECT_DOUBLE_EQ(m.nodes[0].hugePageBytes, 2097152.0);
  EXPECT_EQ(m.nodes[1].hugePageBytes, 0.0);
  expectRoundTrip(m);
  std::string printed = printMachineModel(m);
  EXPECT_NE(printed.find("huge_page_bytes"), std::string::npos);
  EXPECT_EQ(printed.find("huge_page_bytes"), printed.rfind("huge_page_bytes"));
  MachineModel bad;
  std::string error;
  EXPECT_FALSE(
      parseMachineModel(R"({"nodes": [{"huge_page_bytes": -1}]})", bad, error));
  EXPECT_EQ(error, "nodes[0].huge_page_bytes: expected a non-negative number");
}

TEST(MachineModelTest, PerPairLinks) {
  MachineModel m = parseOk(R"({
    "default_link": {"latency_s": 1e-4, "bandwidth_Bps": 1e9},
    "links": [{"from": 0, "to": 1, "latency_s": 2e-3, "bandwidth_Bps": 1e8}],
    "nodes": [{}, {}, {}]
  })");
  EXPECT_DOUBLE_EQ(m.transferTime(0, 1, 1e8), 2e-3 + 1.0); // override
  EXPECT_DOUBLE_EQ(m.transferTime(1, 0, 1e8), 1e-4 + 0.1); // links are directed
  EXPECT_DOUBLE_EQ(m.transferTime(2, 1, 5e8), 1e-4 + 0.5);
  EXPECT_EQ(m.transferTime(1, 1, 5e8), 0.0);
  EXPECT_DOUBLE_EQ(m.link(0, 1).bandwidth, 1e8);
  EXPECT_DOUBLE_EQ(m.link(0, 2).bandwidth, 1e9);
}

TEST(MachineModelTest, MeanTransferTimeOverNodePairs) {
  // HEFT's mean transfer time of a 1e8-byte tile over the 6 ordered pairs
  // of 3 nodes: 5 default pairs (1e-4 + 0.1 s) and one override (2e-3 +
  // 1 s). MachineCostModel computes it in closed form; the pairwise mean
  // of CostModel is the oracle.
  MachineModel m = parseOk(R"({
    "default_link": {"latency_s": 1e-4, "bandwidth_Bps": 1e9},
    "links": [{"from": 0, "to": 1, "latency_s": 2e-3, "bandwidth_Bps": 1e8}],
    "nodes": [{}, {}, {}]
  })");
  MachineCostModel cost(m);
  DataItem tile;
  tile.bytes = 1e8;
  double byHand = (5 * (1e-4 + 0.1) + (2e-3 + 1.0)) / 6;
  EXPECT_NEAR(cost.averageTransferTime(tile, 0), byHand, 1e-15);
  EXPECT_NEAR(cost.CostModel::averageTransferTime(tile, 0), byHand, 1e-15);
  // Free communication: every mean is 0; one node: no pairs.
  EXPECT_EQ(
      MachineCostModel(m.withFreeCommunication()).averageTransferTime(tile, 0),
      0.0);
  EXPECT_EQ(MachineCostModel(m.withNodes(1)).averageTransferTime(tile, 0), 0.0);
}

TEST(MachineModelTest, OpClassNamesMatchTheJsonKeys) {
  const char *expected[] = {
      "gemm",  "elementwise", "map",   "reduce", "transpose", "generate",
      "solve", "copy",        "exp",   "log",    "tanh",      "sin",
      "pow",   "rand",        "randn", "scale",  "mod",       "sparse",
      "potrf", "trsm",        "syrk",  "qr",     "svd",       "svdvals",
      "eig",   "eigvals",     "lstsq", "sgemm",  "compress",  "fused",
      "gemm1"};
  ASSERT_EQ(std::size(expected), size_t(kNumCostClasses));
  for (unsigned c = 0; c < kNumCostClasses; ++c) {
    CostClass op = static_cast<CostClass>(c);
    EXPECT_STREQ(costClassName(op), expected[c]);
    EXPECT_EQ(costClassFromName(expected[c]), op);
    // Each name is accepted as a key of "time" and sets that class, and
    // the classes it stands in for (their fallback), only.
    MachineModel m = parseOk(std::string(R"({"nodes": [{"time": {")") +
                             expected[c] + R"(": [0.5]}}]})");
    // (At 200^3, a product the runtime runs threaded: each class is priced
    // by its own polynomial.)
    for (unsigned d = 0; d < kNumCostClasses; ++d) {
      CostClass other = static_cast<CostClass>(d);
      bool set = d == c || (cmmrt::plan::costClassFallback(other) == op);
      EXPECT_EQ(m.taskTime(0, other, 200, 200, 200), set ? 0.5 : 0)
          << expected[c] << " -> " << expected[d];
    }
  }
  // A product on one BLAS thread (1 x 1 x 1) is gemm1's, a dense one and
  // a sparse one alike (polynomialClass).
  MachineModel oneThread =
      parseOk(R"({"nodes": [{"time": {"gemm1": [0.5]}}]})");
  EXPECT_EQ(oneThread.taskTime(0, CostClass::Gemm, 1, 1, 1), 0.5);
  EXPECT_EQ(oneThread.taskTime(0, CostClass::Sparse, 1, 1, 1), 0.5);
  EXPECT_EQ(oneThread.taskTime(0, CostClass::Gemm, 200, 200, 200), 0);
  EXPECT_EQ(costClassFromName("Gemm"), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Derived models
//===----------------------------------------------------------------------===//

TEST(MachineModelTest, WithNodesTakesThePrefixAndCopiesNodeOne) {
  MachineModel c5 = loadC5();
  for (unsigned n = 1; n <= 8; ++n) {
    MachineModel m = c5.withNodes(n);
    ASSERT_EQ(m.nodes.size(), n);
    for (unsigned i = 0; i < n; ++i)
      EXPECT_TRUE(m.nodes[i] == c5.nodes[i]);
    EXPECT_TRUE(m.defaultLink == c5.defaultLink);
    EXPECT_EQ(m.name, c5.name);
  }
  MachineModel twelve = c5.withNodes(12);
  ASSERT_EQ(twelve.nodes.size(), 12u);
  EXPECT_EQ(twelve.nodes[0].name, "master");
  EXPECT_TRUE(twelve.nodes[11] == c5.nodes[1]);
  EXPECT_EQ(twelve.totalWorkers(), 1u + 11 * 3);
  EXPECT_TRUE(c5.withNodes(8) == c5);
  EXPECT_EQ(c5.withNodes(0).nodes.size(), 1u);

  // One node: more nodes are copies of node 0.
  MachineModel one = builtinMachineModel(1).withNodes(3);
  ASSERT_EQ(one.nodes.size(), 3u);
  EXPECT_TRUE(one.nodes[2] == one.nodes[0]);
}

TEST(MachineModelTest, MasterAloneReadWrittenAndUsed) {
  // Two nodes sharing a host's two cores: one core each, and node 0 with
  // both when node 1 is idle ("master_alone", node_defaults applied first).
  MachineModel m = parseOk(R"({
    "node_defaults": {"cores": 1, "memory_bytes": 4e9,
                      "time": {"gemm": [0, 0, 0, 0, 0, 0, 0, 2e-11]}},
    "nodes": [{"name": "a"}, {"name": "b"}],
    "master_alone": {"cores": 2, "threads_per_worker": 2,
                     "time": {"gemm": [0, 0, 0, 0, 0, 0, 0, 1e-11]}}
  })");
  ASSERT_TRUE(m.masterAlone.has_value());
  EXPECT_EQ(m.masterAlone->cores, 2u);
  EXPECT_EQ(m.masterAlone->threadsPerWorker, 2u);
  EXPECT_EQ(m.masterAlone->memoryBytes, 4e9);
  EXPECT_EQ(m.masterAlone->name, "master_alone");
  expectRoundTrip(m);
  // The machine a master-only plan runs on: node 0 replaced, its name kept.
  MachineModel alone = m.withMasterAlone();
  EXPECT_EQ(alone.nodes[0].name, "a");
  EXPECT_EQ(alone.nodes[0].cores, 2u);
  EXPECT_DOUBLE_EQ(alone.taskTime(0, CostClass::Gemm, 1000, 1000, 1000), 0.01);
  EXPECT_DOUBLE_EQ(alone.taskTime(1, CostClass::Gemm, 1000, 1000, 1000), 0.02);
  EXPECT_TRUE(alone.nodes[1] == m.nodes[1]);
  // One node of it is the master alone; more keep it.
  MachineModel one = m.withNodes(1);
  ASSERT_EQ(one.nodes.size(), 1u);
  EXPECT_FALSE(one.masterAlone.has_value());
  EXPECT_EQ(one.nodes[0].cores, 2u);
  EXPECT_TRUE(m.withNodes(4).masterAlone == m.masterAlone);
  // A model without one is its own master alone.
  MachineModel plain = parseOk(R"({"nodes": [{}, {}]})");
  EXPECT_TRUE(plain.withMasterAlone() == plain);
  EXPECT_EQ(plain.withNodes(1).nodes[0].cores, 1u);
  // Errors inside it name its path.
  EXPECT_EQ(parseError(R"({"nodes": [{}], "master_alone": {"cores": 0}})"),
            "master_alone.cores: expected a positive integer");
  EXPECT_EQ(parseError(R"({"nodes": [{}], "master_alone": 3})"),
            "master_alone: expected an object");
}

TEST(MachineModelTest, WithNodesKeepsAndCopiesLinks) {
  MachineModel m = parseOk(R"({
    "links": [{"from": 0, "to": 1, "latency_s": 1},
              {"from": 1, "to": 0, "latency_s": 2},
              {"from": 2, "to": 0, "latency_s": 3},
              {"from": 1, "to": 2, "latency_s": 4}],
    "nodes": [{}, {}, {}]
  })");
  MachineModel two = m.withNodes(2);
  EXPECT_EQ(two.links.size(), 2u); // links to node 2 dropped
  EXPECT_DOUBLE_EQ(two.link(0, 1).latency, 1);
  EXPECT_DOUBLE_EQ(two.link(1, 0).latency, 2);

  MachineModel four = m.withNodes(4); // node 3 is a copy of node 1
  EXPECT_EQ(four.links.size(), 4u + 3);
  EXPECT_DOUBLE_EQ(four.link(0, 3).latency, 1);
  EXPECT_DOUBLE_EQ(four.link(3, 0).latency, 2);
  EXPECT_DOUBLE_EQ(four.link(3, 2).latency, 4);
  EXPECT_DOUBLE_EQ(four.link(2, 3).latency, LinkSpec().latency); // default
  EXPECT_DOUBLE_EQ(four.link(1, 3).latency, LinkSpec().latency);
  expectRoundTrip(four);
}

TEST(MachineModelTest, WithFreeCommunication) {
  MachineModel m = parseOk(R"({
    "links": [{"from": 0, "to": 1, "latency_s": 1, "bandwidth_Bps": 10}],
    "nodes": [{"time": {"gemm": [0, 0, 0, 0, 0, 0, 0, 1e-11]}}, {}, {}]
  })");
  MachineModel free = m.withFreeCommunication();
  for (unsigned a = 0; a < 3; ++a)
    for (unsigned b = 0; b < 3; ++b)
      for (double bytes : {0.0, 1.0, 8e6, 1e15})
        EXPECT_EQ(free.transferTime(a, b, bytes), 0.0)
            << a << " -> " << b << ", " << bytes << " bytes";
  EXPECT_EQ(free.link(0, 1).latency, 0.0);
  EXPECT_EQ(free.link(0, 1).bandwidth, std::numeric_limits<double>::infinity());
  // Everything else unchanged.
  EXPECT_TRUE(free.nodes == m.nodes);
  EXPECT_EQ(free.links.size(), m.links.size());
  EXPECT_DOUBLE_EQ(free.taskTime(0, CostClass::Gemm, 100, 100, 100), 1e-5);
}

//===----------------------------------------------------------------------===//
// The built-in model
//===----------------------------------------------------------------------===//

TEST(MachineModelTest, BuiltinIsTheCompiledInProfile) {
  // The built-in model is cmm-profile's output in models/builtin/, read
  // here by the file loader: one node is the one-rank profile; several are
  // copies of rank 0 of the two-rank profile on its measured link, the
  // machine's memory shared.
  MachineModel one, two;
  std::string error;
  ASSERT_TRUE(loadMachineModel(CMM_SOURCE_DIR "/models/builtin/one-rank.json",
                               one, error))
      << error;
  ASSERT_TRUE(loadMachineModel(CMM_SOURCE_DIR "/models/builtin/two-ranks.json",
                               two, error))
      << error;
  for (unsigned nodes : {1u, 2u, 4u}) {
    MachineModel m = builtinMachineModel(nodes);
    const MachineModel &profile = nodes == 1 ? one : two;
    ASSERT_EQ(m.nodes.size(), nodes);
    EXPECT_EQ(m.name, "builtin");
    EXPECT_EQ(m.provenance, profile.provenance);
    // More ranks than the two profiled share the cores: each is nodes / 2
    // times slower at every class.
    const double slower = nodes > 2 ? nodes / 2.0 : 1.0;
    for (unsigned i = 0; i < nodes; ++i) {
      const NodeSpec &n = m.nodes[i];
      EXPECT_EQ(n.name, "local" + std::to_string(i));
      for (unsigned c = 0; c < kNumCostClasses; ++c)
        for (size_t t = 0; t < n.time[c].a.size(); ++t)
          EXPECT_DOUBLE_EQ(n.time[c].a[t],
                           profile.nodes[0].time[c].a[t] * slower);
      EXPECT_EQ(n.threadsPerWorker, profile.nodes[0].threadsPerWorker);
      EXPECT_EQ(n.firstTouch, profile.nodes[0].firstTouch);
      EXPECT_DOUBLE_EQ(n.taskOverhead, profile.nodes[0].taskOverhead * slower);
      EXPECT_DOUBLE_EQ(n.memoryBytes, one.nodes[0].memoryBytes / nodes);
    }
    if (nodes > 1) {
      EXPECT_EQ(m.defaultLink, two.defaultLink);
    }
    // Gemm: positive and increasing with the size; every class positive.
    double previous = 0;
    for (double s : {1.0, 10.0, 100.0, 500.0, 1000.0, 2000.0, 5000.0}) {
      double t = m.taskTime(0, CostClass::Gemm, s, s, s);
      EXPECT_GT(t, previous) << s;
      previous = t;
    }
    for (unsigned c = 0; c < kNumCostClasses; ++c)
      EXPECT_GT(m.taskTime(0, static_cast<CostClass>(c), 1000, 1000, 1000), 0)
          << costClassName(static_cast<CostClass>(c));
  }
  // The profiles hold what a node of this 2-core machine is: every core to
  // one rank, one core to each of two.
  EXPECT_EQ(builtinMachineModel(1).nodes[0].threadsPerWorker, 2u);
  EXPECT_EQ(builtinMachineModel(2).nodes[0].threadsPerWorker, 1u);
  EXPECT_EQ(builtinMachineModel(0).nodes.size(), 1u);
  // Several ranks share the machine: node 0 with the others idle is the
  // one-rank profile's node (with its share of the memory).
  EXPECT_FALSE(builtinMachineModel(1).masterAlone.has_value());
  MachineModel three = builtinMachineModel(3);
  ASSERT_TRUE(three.masterAlone.has_value());
  EXPECT_EQ(three.masterAlone->time, one.nodes[0].time);
  EXPECT_EQ(three.masterAlone->threadsPerWorker, one.nodes[0].threadsPerWorker);
  EXPECT_EQ(three.masterAlone->name, "local0");
  EXPECT_DOUBLE_EQ(three.masterAlone->memoryBytes,
                   one.nodes[0].memoryBytes / 3);
  EXPECT_EQ(three.withNodes(1).nodes[0].time, one.nodes[0].time);
}

} // namespace

// JSON nested a million deep is refused by a scan, on this (the main,
// 8 MiB) stack: llvm::json parses recursively and overflowed it before.
// Brackets in strings do not count; a model's own nesting is accepted.
TEST(MachineModelTest, DeepNestingIsRefusedBeforeParsing) {
  const size_t depth = 1000000;
  std::string deep =
      "{\"nodes\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
  MachineModel m;
  std::string error;
  EXPECT_FALSE(parseMachineModel(deep, m, error));
  EXPECT_EQ(error, "invalid JSON: nested deeper than 64 levels (at byte 73)");
  std::string quoted =
      R"({"nodes": [{"name": ")" + std::string(1000, '[') + R"("}]})";
  EXPECT_TRUE(parseMachineModel(quoted, m, error)) << error;
  EXPECT_EQ(m.nodes[0].name, std::string(1000, '['));
}
