//===- RefineTest.cpp - A model refitted from a run's trace ---------------===//
//
// cmm-profile --refine (cmm/Profile/Refine.h): task timings made from known
// polynomials are recovered (a whole class slower by a factor: the factor;
// a class of another shape timed at enough sizes: the shape), classes
// without timings are kept, and traces that are not a program's are
// refused with a message.
//
//===----------------------------------------------------------------------===//

#include "cmm/Profile/Refine.h"

#include <gtest/gtest.h>

#include <random>

using namespace cmm::profile;
using cmm::scheduling::CostClass;
using cmm::scheduling::MachineModel;
using cmm::scheduling::NodeSpec;

namespace {

MachineModel twoNodes() {
  MachineModel model;
  model.name = "test";
  NodeSpec node;
  node.taskOverhead = 1e-6;
  node.time[unsigned(CostClass::Gemm)].a[7] = 1e-9;        // mnk
  node.time[unsigned(CostClass::Elementwise)].a[4] = 1e-9; // mn
  node.time[unsigned(CostClass::Elementwise)].a[0] = 2e-6; // per call
  node.time[unsigned(CostClass::Copy)].a[4] = 5e-10;
  model.nodes = {node, node};
  return model;
}

} // namespace

TEST(Refine, ScalesAClassTheRunFoundSlower) {
  MachineModel model = twoNodes();
  // Node 1's products ran 1.5x the model's kernel time (plus the overhead),
  // at two shapes: too few for a refit of five terms.
  std::vector<TaskTiming> timings;
  for (int rep = 0; rep < 3; ++rep)
    for (double s : {100.0, 200.0})
      timings.push_back(
          {1, CostClass::Gemm, s, s, s, 1.5 * 1e-9 * s * s * s + 1e-6});
  std::string error;
  auto report = refineModel(model, timings, error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].node, 1u);
  EXPECT_EQ(report[0].tasks, 6u);
  EXPECT_EQ(report[0].shapes, 2u);
  EXPECT_EQ(report[0].method.rfind("scaled", 0), 0u) << report[0].method;
  EXPECT_NEAR(model.nodes[1].time[unsigned(CostClass::Gemm)].a[7], 1.5e-9,
              1e-12);
  EXPECT_NEAR(report[0].after / report[0].measured, 1.0, 1e-9);
  EXPECT_NEAR(report[0].before / report[0].measured, 1 / 1.5, 0.01);
  // Node 0 and the other classes are as they were.
  EXPECT_EQ(model.nodes[0].time[unsigned(CostClass::Gemm)].a[7], 1e-9);
  EXPECT_EQ(model.nodes[1].time[unsigned(CostClass::Copy)].a[4], 5e-10);
}

TEST(Refine, RefitsTheShapeFromEnoughSizes) {
  MachineModel model = twoNodes();
  // The run's elementwise tasks cost 0.5 us + 3 ns per element (the model
  // says 2 us + 1 ns): no single factor fits both small and large tiles.
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(1.0, 0.01);
  std::vector<TaskTiming> timings;
  for (double m : {10.0, 50.0, 200.0, 700.0, 2000.0})
    for (double n : {10.0, 300.0, 1500.0})
      for (int rep = 0; rep < 3; ++rep)
        timings.push_back({0, CostClass::Elementwise, m, n, 1,
                           (0.5e-6 + 3e-9 * m * n) * noise(rng) + 1e-6});
  std::string error;
  auto report = refineModel(model, timings, error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].method, "refit");
  EXPECT_LT(report[0].rmsAfter, 0.03);
  EXPECT_GT(report[0].rmsBefore, 0.3);
  for (double mn : {100.0, 1e4, 1e6})
    EXPECT_NEAR(model.taskTime(0, CostClass::Elementwise, mn, 1, 1),
                0.5e-6 + 3e-9 * mn + 1e-6, 0.05 * (0.5e-6 + 3e-9 * mn + 1e-6))
        << mn;
}

TEST(Refine, RefitsProductsWithoutTheSplitsFactor) {
  // Node 0 runs 2 workers x 1 thread, measured at 2x the polynomial's
  // products; the run's products took 4 us + 2 ns x mnk (the factor
  // included): the refitted polynomial is half that, so taskTime, which
  // applies the factor, gives back what the run measured.
  MachineModel model = twoNodes();
  model.nodes[0].workers = 2;
  model.nodes[0].configurations = {{2, 1, 2.0}};
  std::vector<TaskTiming> timings;
  for (double m : {20.0, 100.0, 300.0})
    for (double n : {20.0, 200.0, 500.0})
      for (double k : {10.0, 400.0})
        timings.push_back({0, CostClass::Gemm, m, n, k,
                           4e-6 + 2e-9 * m * n * k + 1e-6});
  std::string error;
  auto report = refineModel(model, timings, error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].method, "refit");
  EXPECT_NEAR(report[0].after / report[0].measured, 1.0, 1e-3);
  for (double s : {50.0, 250.0})
    EXPECT_NEAR(model.taskTime(0, CostClass::Gemm, s, s, s),
                4e-6 + 2e-9 * s * s * s + 1e-6,
                1e-3 * (4e-6 + 2e-9 * s * s * s + 1e-6))
        << s;
}

TEST(Refine, RefusesTimingsOfNodesTheModelLacks) {
  MachineModel model = twoNodes();
  std::string error;
  auto report =
      refineModel(model, {{2, CostClass::Copy, 1, 1, 1, 1e-6}}, error);
  EXPECT_TRUE(report.empty());
  EXPECT_NE(error.find("node 2 but the model 'test' has 2 node(s)"),
            std::string::npos)
      << error;
}

TEST(Refine, ReadsAProgramsTrace) {
  // Two tasks of node 1 (process 2) with their classes; a send and a
  // metadata event are not tasks.
  std::string trace = R"({"traceEvents":[
    {"ph":"M","name":"process_name","pid":2,"tid":0,"args":{"name":"node 1"}},
    {"ph":"X","cat":"task","name":"matmul","pid":2,"tid":1,"ts":10,"dur":250,
     "args":{"class":"gemm","m":100,"n":100,"k":50,"predicted_s":0.0002}},
    {"ph":"X","cat":"send","name":"send to 0","pid":2,"tid":2,"ts":300,"dur":5},
    {"ph":"X","cat":"task","name":"add","pid":2,"tid":1,"ts":400,"dur":3,
     "args":{"class":"elementwise","m":100,"n":100,"k":1,"predicted_s":3e-6}}
  ]})";
  std::vector<TaskTiming> timings;
  std::string error;
  ASSERT_TRUE(readTraceTimings(trace, timings, error)) << error;
  ASSERT_EQ(timings.size(), 2u);
  EXPECT_EQ(timings[0].node, 1u);
  // 100 x 100 x 50 runs on one BLAS thread (m n k under 160^3): it refits
  // the polynomial that priced it, gemm1's.
  EXPECT_EQ(timings[0].cost, CostClass::GemmOneThread);
  EXPECT_EQ(timings[0].k, 50);
  EXPECT_DOUBLE_EQ(timings[0].seconds, 250e-6);
  EXPECT_EQ(timings[1].cost, CostClass::Elementwise);
}

TEST(Refine, RefusesWhatIsNotAProgramsTrace) {
  std::vector<TaskTiming> timings;
  std::string error;
  EXPECT_FALSE(readTraceTimings("{not json", timings, error));
  EXPECT_EQ(error.rfind("not JSON", 0), 0u) << error;
  EXPECT_FALSE(readTraceTimings(R"({"events":[]})", timings, error));
  EXPECT_NE(error.find("no traceEvents"), std::string::npos) << error;
  EXPECT_FALSE(readTraceTimings(R"({"traceEvents":[]})", timings, error));
  EXPECT_NE(error.find("no task events with a cost class"), std::string::npos)
      << error;
  EXPECT_FALSE(readTraceTimings(
      R"({"traceEvents":[{"ph":"X","cat":"task","name":"t","pid":1,"dur":1,
          "args":{"class":"warp","m":1,"n":1,"k":1}}]})",
      timings, error));
  EXPECT_NE(error.find("unknown cost class 'warp'"), std::string::npos)
      << error;
}

// A trace nested a million deep is refused by a scan on this (the main,
// 8 MiB) stack; cmm-profile --refine crashed on it (llvm::json recursion).
TEST(Refine, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  std::vector<TaskTiming> timings;
  std::string error;
  EXPECT_FALSE(readTraceTimings(deep, timings, error));
  EXPECT_EQ(error, "not JSON: nested deeper than 64 levels (at byte 64)");
}
