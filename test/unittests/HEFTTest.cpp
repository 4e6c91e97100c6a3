//===- HEFTTest.cpp - HEFT on the worked example of Topcuoglu et al. ------===//
//
// The 10-task, 3-processor graph of Fig. 2 in Topcuoglu, Hariri, Wu (IEEE
// TPDS 13(3), 2002): published upward ranks 108, 77, 80, 80, 69, 63.3, 42.7,
// 35.7, 44.3, 14.7 and HEFT makespan 80.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/Schedulers.h"

#include <gtest/gtest.h>

using namespace cmm::scheduling;

namespace {
struct Example {
  TaskGraph graph;
  std::unique_ptr<TableCostModel> cost;
};

Example topcuoglu() {
  const double w[10][3] = {
      {14, 16, 9}, {13, 19, 18}, {11, 13, 19}, {13, 8, 17},  {12, 13, 10},
      {13, 16, 9}, {7, 15, 11},  {5, 11, 14},  {18, 12, 20}, {21, 7, 16}};
  // Edges (1-based) with their communication costs.
  const int edges[][3] = {{1, 2, 18},  {1, 3, 12},  {1, 4, 9},  {1, 5, 11},
                          {1, 6, 14},  {2, 8, 19},  {2, 9, 16}, {3, 7, 23},
                          {4, 8, 27},  {4, 9, 23},  {5, 9, 13}, {6, 8, 15},
                          {7, 10, 17}, {8, 10, 11}, {9, 10, 13}};
  Example ex;
  std::vector<std::vector<double>> time;
  std::vector<double> dataCost;
  // One data item per edge, created when its producer exists; tasks are
  // added in id order, which is topological here.
  std::vector<std::vector<DataId>> inputsOf(10);
  for (int t = 0; t < 10; ++t) {
    Task task;
    task.name = "t" + std::to_string(t + 1);
    task.inputs = inputsOf[t];
    ex.graph.addTask(task);
    time.push_back({w[t][0], w[t][1], w[t][2]});
    for (auto &e : edges)
      if (e[0] == t + 1) {
        inputsOf[e[1] - 1].push_back(ex.graph.addData(t, 0, ""));
        dataCost.push_back(e[2]);
      }
  }
  ex.cost = std::make_unique<TableCostModel>(time, dataCost);
  return ex;
}
} // namespace

TEST(HEFT, UpwardRanksMatchThePaper) {
  Example ex = topcuoglu();
  std::vector<double> rank = upwardRanks(ex.graph, *ex.cost);
  const double published[10] = {108.0, 77.0, 80.0, 80.0, 69.0,
                                63.3,  42.7, 35.7, 44.3, 14.7};
  for (int t = 0; t < 10; ++t)
    EXPECT_NEAR(rank[t], published[t], 0.05) << "t" << t + 1;
}

TEST(HEFT, MakespanIs80) {
  Example ex = topcuoglu();
  SchedulerOptions plain;
  plain.modelCommunicators = false;
  plain.useTileCache = false;
  Schedule s = scheduleHEFT(ex.graph, *ex.cost, plain);
  EXPECT_DOUBLE_EQ(s.makespan, 80.0);
  EXPECT_EQ(verifySchedule(ex.graph, *ex.cost, s, plain), "");
}

TEST(HEFT, RoundRobinIsValidAndNoBetter) {
  Example ex = topcuoglu();
  SchedulerOptions plain;
  plain.modelCommunicators = false;
  plain.useTileCache = false;
  Schedule rr = scheduleRoundRobin(ex.graph, *ex.cost, plain);
  EXPECT_EQ(verifySchedule(ex.graph, *ex.cost, rr, plain), "");
  EXPECT_GE(rr.makespan, 80.0);
}

TEST(HEFT, CommunicatorsSerializeTransfers) {
  Example ex = topcuoglu();
  SchedulerOptions withComms; // one communicator per node
  Schedule s = scheduleHEFT(ex.graph, *ex.cost, withComms);
  EXPECT_EQ(verifySchedule(ex.graph, *ex.cost, s, withComms), "");
  // Transfers can only wait longer than on unlimited links.
  EXPECT_GE(s.makespan, 80.0);
}

namespace {
/// Tasks of unit cost on `nodes` nodes: for each output in program order,
/// the tasks it needs (a chain, or independent tasks) and then its gather
/// (cost 0.01, pinned to node 0). Returns each output's gather.
struct Outputs {
  TaskGraph graph;
  std::vector<std::vector<double>> time;
  std::vector<double> dataCost;
  std::vector<TaskId> gathers;
  unsigned nodes;

  explicit Outputs(unsigned nodes) : nodes(nodes) {}
  TaskId add(std::vector<DataId> inputs, double cost, TaskKind kind) {
    Task task;
    task.kind = kind;
    task.inputs = std::move(inputs);
    if (kind == TaskKind::Gather)
      task.pinnedNode = 0;
    TaskId t = graph.addTask(task);
    time.push_back(std::vector<double>(nodes, cost));
    return t;
  }
  TableCostModel cost() const { return TableCostModel(time, dataCost); }
  DataId out(TaskId t) {
    dataCost.push_back(0);
    return graph.addData(t, 0, "");
  }
  void output(unsigned tasks, bool chain) {
    std::vector<DataId> needed;
    for (unsigned i = 0; i < tasks; ++i) {
      std::vector<DataId> in;
      if (chain && !needed.empty())
        in = {needed.back()};
      DataId d = out(add(in, 1.0, TaskKind::Elementwise));
      if (chain)
        needed = {d};
      else
        needed.push_back(d);
    }
    gathers.push_back(add(needed, 0.01, TaskKind::Gather));
  }
};
} // namespace

// print(a) before a long chain's print: rank order alone would run the
// short task last (its upward rank is the smallest), so the first output
// would be complete only at the end. On one worker the order that
// completes outputs in program order costs nothing and is kept.
TEST(HEFT, OutputsCompleteInProgramOrderWhenItCostsNothing) {
  Outputs o(1);
  o.output(1, /*chain=*/true);
  o.output(4, /*chain=*/true);
  TableCostModel cost = o.cost();
  std::vector<double> rank = upwardRanks(o.graph, cost);
  ASSERT_LT(rank[0], rank[2]); // HEFT's own order puts the chain first
  Schedule s = scheduleHEFT(o.graph, cost);
  EXPECT_EQ(verifySchedule(o.graph, cost, s, {}), "");
  EXPECT_NEAR(s.placement[o.gathers[0]].finish, 1.01, 1e-9);
  EXPECT_NEAR(s.makespan, 5.02, 1e-9);
}

// Where completing the outputs in program order would lengthen the plan
// (four independent tasks first hold both nodes, then the chain of the
// second output runs alone: 6 time units against 4), rank order is kept.
TEST(HEFT, RankOrderIsKeptWhenProgramOrderIsSlower) {
  Outputs o(2);
  o.output(4, /*chain=*/false);
  o.output(4, /*chain=*/true);
  TableCostModel cost = o.cost();
  Schedule s = scheduleHEFT(o.graph, cost);
  EXPECT_EQ(verifySchedule(o.graph, cost, s, {}), "");
  EXPECT_LT(s.makespan, 4.1);
}

// A gather ranks just below its producer, not last.
TEST(HEFT, GathersRankJustBelowTheirProducer) {
  Outputs o(1);
  o.output(1, /*chain=*/true);
  o.output(3, /*chain=*/true);
  TableCostModel cost = o.cost();
  std::vector<double> rank = upwardRanks(o.graph, cost);
  EXPECT_LT(rank[o.gathers[0]], rank[0]);
  EXPECT_GT(rank[o.gathers[0]], rank[0] - 1e-9);
  EXPECT_GT(rank[o.gathers[1]], rank[o.gathers[1] - 1] - 1e-9);
}

// A task pinned where its input is wanted (Task::drawsInputs: a kept
// export) draws its producers there: HEFT alone puts the chain on the first
// node, where it finishes soonest, and sends its result after (makespan
// 7); with the transfer counted, the chain runs on the node that wants it
// (makespan 2).
TEST(HEFT, DrawnInputsAreMadeWhereTheyAreWanted) {
  for (bool draws : {false, true}) {
    TaskGraph graph;
    Task make;
    make.name = "make";
    graph.addTask(make);
    Task scale;
    scale.name = "scale";
    scale.inputs = {graph.addData(0, 1)};
    graph.addTask(scale);
    Task keep;
    keep.name = "keep";
    keep.kind = TaskKind::Gather;
    keep.inputs = {graph.addData(1, 1)};
    TaskId kept = graph.addTask(keep);
    graph.pin(kept, 1);
    if (draws)
      graph.drawInputs(kept);
    TableCostModel cost({{1, 1}, {1, 1}, {0, 0}}, {5, 5});
    Schedule s = scheduleHEFT(graph, cost);
    EXPECT_EQ(verifySchedule(graph, cost, s, {}), "");
    EXPECT_EQ(s.placement[0].node, draws ? 1u : 0u) << draws;
    EXPECT_EQ(s.placement[1].node, draws ? 1u : 0u) << draws;
    EXPECT_NEAR(s.makespan, draws ? 2.0 : 7.0, 1e-9) << draws;
  }
}
