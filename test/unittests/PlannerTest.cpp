//===- PlannerTest.cpp - Tile cache, validator and simulator ----*- C++ -*-===//

#include "cmm/Scheduling/Schedulers.h"
#include "cmm/Scheduling/Simulator.h"

#include <gtest/gtest.h>

#include <random>

using namespace cmm::scheduling;

namespace {
/// t0 produces d0; `consumers` tasks each read d0; all consumers pinned to
/// node 1 when `pin`; t0 pinned to `producerNode` (-1: free).
TaskGraph fanOut(int consumers, bool pin, int producerNode = -1) {
  TaskGraph g;
  Task t0{"t0"};
  t0.pinnedNode = producerNode;
  TaskId producer = g.addTask(t0);
  DataId d = g.addData(producer, 8, "d0");
  for (int i = 0; i < consumers; ++i) {
    Task t;
    t.name = "c" + std::to_string(i);
    t.inputs = {d};
    t.pinnedNode = pin ? 1 : -1;
    g.addTask(t);
  }
  return g;
}

TableCostModel fanOutCost(int consumers, double transfer) {
  std::vector<std::vector<double>> time{{2, 2}};
  for (int i = 0; i < consumers; ++i)
    time.push_back({3, 3});
  return TableCostModel(time, {transfer});
}
} // namespace

TEST(TileCache, ATileCrossesToANodeOnce) {
  TaskGraph g = fanOut(3, /*pin=*/true);
  TableCostModel cost = fanOutCost(3, 5);
  SchedulerOptions cached; // tile cache and communicators on
  Schedule s = scheduleHEFT(g, cost, cached);
  ASSERT_EQ(verifySchedule(g, cost, s, cached), "");
  // t0 on node 0 or 1: if on node 0, d0 crosses once and is reused twice.
  size_t toNode1 = 0;
  for (const Transfer &x : s.transfers)
    toNode1 += x.to == 1;
  EXPECT_LE(toNode1, 1u);
  if (s.placement[0].node == 0) {
    EXPECT_EQ(s.cacheHits, 2u);
  }
}

TEST(TileCache, WithoutTheCacheEveryConsumerPays) {
  TaskGraph g = fanOut(3, /*pin=*/true);
  TableCostModel cost = fanOutCost(3, 5);
  SchedulerOptions plain;
  plain.useTileCache = false;
  plain.modelCommunicators = false;
  // Round robin puts the producer on node 0 (worker 0 of node 0 first).
  Schedule s = scheduleRoundRobin(g, cost, plain);
  ASSERT_EQ(verifySchedule(g, cost, s, plain), "");
  ASSERT_EQ(s.placement[0].node, 0u);
  EXPECT_EQ(s.transfers.size(), 3u);
}

TEST(Validator, RejectsAnInputUsedBeforeItArrives) {
  TaskGraph g = fanOut(1, /*pin=*/true);
  TableCostModel cost = fanOutCost(1, 5);
  SchedulerOptions options;
  Schedule s;
  s.placement = {{0, 0, 0, 2}, {1, 0, 2, 5}}; // no transfer at all
  EXPECT_NE(verifySchedule(g, cost, s, options).find("before its input"),
            std::string::npos);
  s.transfers = {{0, 0, 1, 0, 0, 2, 7}};
  EXPECT_NE(verifySchedule(g, cost, s, options).find("before its input"),
            std::string::npos);
  s.placement[1] = {1, 0, 7, 10};
  EXPECT_EQ(verifySchedule(g, cost, s, options), "");
}

TEST(Validator, RejectsOverlapAndWrongDurations) {
  TaskGraph g = fanOut(2, /*pin=*/false);
  TableCostModel cost = fanOutCost(2, 5);
  SchedulerOptions options;
  Schedule s;
  s.placement = {{0, 0, 0, 2}, {0, 0, 2, 5}, {0, 0, 4, 7}};
  EXPECT_NE(verifySchedule(g, cost, s, options).find("two things at once"),
            std::string::npos);
  s.placement[2] = {0, 0, 5, 9};
  EXPECT_NE(verifySchedule(g, cost, s, options).find("the model says"),
            std::string::npos);
  s.placement[2] = {0, 0, 5, 8};
  EXPECT_EQ(verifySchedule(g, cost, s, options), "");
}

TEST(Simulator, ReplaysAHandComputedPlan) {
  // t0 on node 0 [0,2]; d0 to node 1 [2,7]; c0 on node 1 [7,10];
  // c1 on node 0 after t0 [2,5].
  TaskGraph g = fanOut(2, /*pin=*/false);
  TableCostModel cost = fanOutCost(2, 5);
  Schedule plan;
  plan.placement = {{0, 0, 0, 2}, {1, 0, 7, 10}, {0, 0, 2, 5}};
  plan.transfers = {{0, 0, 1, 0, 0, 2, 7}};
  SchedulerOptions options;
  ASSERT_EQ(verifySchedule(g, cost, plan, options), "");
  SimulationReport r = simulate(g, cost, plan);
  EXPECT_DOUBLE_EQ(r.makespan, 10);
  EXPECT_DOUBLE_EQ(r.workerBusy[0][0], 5);
  EXPECT_DOUBLE_EQ(r.workerBusy[1][0], 3);
  EXPECT_DOUBLE_EQ(r.commBusy[0][0], 5);
  // With free communication the same plan finishes at 2 + 3.
  TableCostModel free = fanOutCost(2, 0);
  EXPECT_DOUBLE_EQ(simulate(g, free, plan).makespan, 5);
}

namespace {
/// fanOutCost's times, and node 1 receiving on its workers' cores at
/// `receive` seconds per tile.
class ReceivesOnWorkers : public TableCostModel {
public:
  ReceivesOnWorkers(int consumers, double transfer, double receive)
      : TableCostModel(fanOutCost(consumers, transfer)), receive(receive) {}
  bool receivesOnWorkerCores(unsigned node) const override { return node == 1; }
  double receiveCpu(const DataItem &, unsigned node) const override {
    return node == 1 ? receive : 0;
  }

private:
  double receive;
};
} // namespace

TEST(ReceiveCpu, TheFetchingTaskRunsLongerByIt) {
  // t0 (2 s) on node 0, d0 to node 1 (5 s), c0 and c1 pinned to node 1
  // (3 s each): c0 fetches d0 and runs 3 + 1.5 s, c1 finds it cached.
  TaskGraph g = fanOut(2, /*pin=*/true);
  ReceivesOnWorkers cost(2, 5, 1.5);
  SchedulerOptions options;
  Schedule plan;
  plan.placement = {{0, 0, 0, 2}, {1, 0, 7, 11.5}, {1, 0, 11.5, 14.5}};
  plan.transfers = {{0, 0, 1, 0, 0, 2, 7}};
  // Without saying who fetched d0, c0 runs longer than the model says.
  EXPECT_NE(verifySchedule(g, cost, plan, options).find("the model says"),
            std::string::npos);
  plan.transfers[0].fetchedBy = 2; // c1 reads d0 on node 1 too, but later
  EXPECT_NE(verifySchedule(g, cost, plan, options).find("the model says"),
            std::string::npos);
  plan.transfers[0].fetchedBy = 0; // t0 does not read d0
  EXPECT_NE(verifySchedule(g, cost, plan, options).find("does not read it"),
            std::string::npos);
  plan.transfers[0].fetchedBy = 1;
  ASSERT_EQ(verifySchedule(g, cost, plan, options), "");
  EXPECT_DOUBLE_EQ(simulate(g, cost, plan).makespan, 14.5);
  // HEFT charges the fetch the same way, once: with t0 pinned to node 0,
  // 2 + 5 + (3 + 1.5) + 3.
  TaskGraph pinned = fanOut(2, /*pin=*/true, /*producerNode=*/0);
  Schedule forced = scheduleHEFT(pinned, cost, options);
  ASSERT_EQ(verifySchedule(pinned, cost, forced, options), "");
  ASSERT_EQ(forced.transfers.size(), 1u);
  EXPECT_DOUBLE_EQ(forced.makespan, 14.5);
  EXPECT_DOUBLE_EQ(simulate(pinned, cost, forced).makespan, 14.5);
  // A node with a spare core for its communicators loses nothing.
  EXPECT_DOUBLE_EQ(simulate(pinned, fanOutCost(2, 5), forced).makespan, 13);
}

TEST(ReceiveCpu, TheFetcherAlsoPaysTheReceivedPagesFirstTouch) {
  // As above, and every byte written into fresh pages costs 1/8 s: t0's
  // 8-byte output 1 s, the received copy on node 1 1 s (the transfer ends
  // later), and c0, whose worker's core the communicator faulted them in on,
  // 1 s more: t0 [0,3], d0 [3,9], c0 [9,14.5], c1 [14.5,17.5].
  class FreshPages : public ReceivesOnWorkers {
  public:
    using ReceivesOnWorkers::ReceivesOnWorkers;
    double firstTouch(unsigned) const override { return 0.125; }
  };
  TaskGraph g = fanOut(2, /*pin=*/true);
  FreshPages cost(2, 5, 1.5);
  Schedule plan;
  plan.placement = {{0, 0, 0, 2}, {1, 0, 7, 11.5}, {1, 0, 11.5, 14.5}};
  plan.transfers = {{0, 0, 1, 0, 0, 2, 7}};
  plan.transfers[0].fetchedBy = 1;
  ASSERT_EQ(verifySchedule(g, cost, plan, SchedulerOptions{}), "");
  SimulationReport r = simulate(g, cost, plan);
  EXPECT_DOUBLE_EQ(r.replayed.placement[1].start, 9);
  EXPECT_DOUBLE_EQ(r.replayed.placement[1].finish, 14.5);
  EXPECT_DOUBLE_EQ(r.makespan, 17.5);
}

namespace {
/// fanOutCost's times, and node 0 spending `send` CPU seconds of its
/// workers' time on each tile it sends (NodeSpec::sendCpu).
class SendsOnWorkers : public TableCostModel {
public:
  SendsOnWorkers(int consumers, double transfer, double send)
      : TableCostModel(fanOutCost(consumers, transfer)), send(send) {}
  double sendCpu(const DataItem &, unsigned node) const override {
    return node == 0 ? send : 0;
  }

private:
  double send;
};
} // namespace

TEST(SendCpu, TheTasksOverlappingASendRunLongerByTheirShare) {
  // t0 (2 s) on node 0 [0,2]; d0 to node 1 [2,7] costs node 0 2.5 s of CPU,
  // 0.5 s per second on the wire; c1 on node 0 [2,5] overlaps it for 3 s
  // and runs 3 + 1.5 s; c0 on node 1 [7,10] is not the sender's. t0 ended
  // before the send and is not charged.
  TaskGraph g = fanOut(2, /*pin=*/false);
  SendsOnWorkers cost(2, 5, 2.5);
  Schedule plan;
  plan.placement = {{0, 0, 0, 2}, {1, 0, 7, 10}, {0, 0, 2, 5}};
  plan.transfers = {{0, 0, 1, 0, 0, 2, 7}};
  SimulationReport r = simulate(g, cost, plan);
  EXPECT_DOUBLE_EQ(r.replayed.placement[0].finish, 2);
  EXPECT_DOUBLE_EQ(r.replayed.placement[2].start, 2);
  EXPECT_DOUBLE_EQ(r.replayed.placement[2].finish, 6.5);
  EXPECT_DOUBLE_EQ(r.replayed.placement[1].finish, 10);
  EXPECT_DOUBLE_EQ(r.makespan, 10);
  // A send that overlaps no task of its node costs nothing: c1 planned
  // on node 1 after c0, node 0 idle while d0 is on the wire.
  plan.placement = {{0, 0, 0, 2}, {1, 0, 7, 10}, {1, 0, 10, 13}};
  r = simulate(g, cost, plan);
  EXPECT_DOUBLE_EQ(r.makespan, 13);
  // A send longer than the task it overlaps charges the overlap only: d0
  // on the wire [2,12] (10 s, 0.25 s of CPU per second), c1 on node 0
  // [2,5]: 3 s overlap, 0.75 s more.
  SendsOnWorkers slow(2, 10, 2.5);
  plan.placement = {{0, 0, 0, 2}, {1, 0, 12, 15}, {0, 0, 2, 5}};
  plan.transfers = {{0, 0, 1, 0, 0, 2, 12}};
  r = simulate(g, slow, plan);
  EXPECT_DOUBLE_EQ(r.replayed.placement[2].finish, 5.75);
  EXPECT_DOUBLE_EQ(r.makespan, 15);
}

TEST(Simulator, MatchesTheSchedulersPrediction) {
  TaskGraph g = fanOut(6, /*pin=*/false);
  TableCostModel cost = fanOutCost(6, 1);
  for (bool rr : {false, true}) {
    SchedulerOptions options;
    Schedule s = rr ? scheduleRoundRobin(g, cost, options)
                    : scheduleHEFT(g, cost, options);
    ASSERT_EQ(verifySchedule(g, cost, s, options), "");
    EXPECT_NEAR(simulate(g, cost, s).makespan, s.makespan, 1e-12);
  }
}

TEST(Bounds, CriticalPathAndWork) {
  TaskGraph g = fanOut(4, /*pin=*/false);
  TableCostModel cost = fanOutCost(4, 1); // 2 nodes, 1 worker each
  Bounds b = lowerBounds(g, cost);
  EXPECT_DOUBLE_EQ(b.criticalPath, 5);         // 2 + 3
  EXPECT_DOUBLE_EQ(b.workPerWorker, 14.0 / 2); // (2 + 4 * 3) / 2
  // The four consumers can only start after the producer's 2 s, and then
  // take 12 / 2: the work after a task (Bounds::precedenceWork) gives 8,
  // which one consumer per node twice attains.
  EXPECT_DOUBLE_EQ(b.precedenceWork, 8);
  EXPECT_DOUBLE_EQ(b.lower(), 8);
  SchedulerOptions options;
  EXPECT_GE(scheduleHEFT(g, cost, options).makespan, b.lower());
}

TEST(Bounds, WeightedWorkWhenNodesDifferInSpeed) {
  // Three independent tasks, 1 s on node 1 and 2 s on node 0 (one worker
  // each). Counting node 0 as fast, work / workers = 3 / 2; but node 0
  // does half a task per second, so even cut into fractions the tasks need
  // 3 / 1.5 = 2 s, and HEFT's schedule (two on node 1, one on node 0) is
  // exactly that.
  TaskGraph g;
  for (int i = 0; i < 3; ++i) {
    Task t;
    t.name = "t" + std::to_string(i);
    TaskId id = g.addTask(t);
    g.addData(id, 8);
  }
  TableCostModel cost({{2, 1}, {2, 1}, {2, 1}}, {0, 0, 0});
  Bounds b = lowerBounds(g, cost);
  EXPECT_DOUBLE_EQ(b.workPerWorker, 1.5);
  EXPECT_DOUBLE_EQ(b.weightedWork, 2.0);
  EXPECT_DOUBLE_EQ(b.lower(), 2.0);
  SchedulerOptions options;
  EXPECT_DOUBLE_EQ(scheduleHEFT(g, cost, options).makespan, 2.0);
  // Equal nodes: the weighted term is the plain one.
  TableCostModel same({{1, 1}, {1, 1}, {1, 1}}, {0, 0, 0});
  EXPECT_DOUBLE_EQ(lowerBounds(g, same).weightedWork, 1.5);
}

TEST(Bounds, PrecedenceWorkBeatsPathAndWork) {
  // Four independent 1 s tasks join in one 1 s task, followed by a chain of
  // three 1 s tasks; two nodes of one worker, free communication. Critical
  // path 1 + 1 + 3 = 5, work 8 / 2 = 4; but the join cannot start before
  // its four inputs took 4 / 2 = 2 s, and 4 s of chain follow it: 6, which
  // the optimal (and HEFT's) schedule attains.
  TaskGraph g;
  std::vector<DataId> inputs;
  for (int i = 0; i < 4; ++i) {
    Task t;
    t.name = "a" + std::to_string(i);
    inputs.push_back(g.addData(g.addTask(t), 8));
  }
  Task join;
  join.name = "join";
  join.inputs = inputs;
  DataId last = g.addData(g.addTask(join), 8);
  for (int i = 0; i < 3; ++i) {
    Task t;
    t.name = "c" + std::to_string(i);
    t.inputs = {last};
    last = g.addData(g.addTask(t), 8);
  }
  TableCostModel cost(std::vector<std::vector<double>>(8, {1, 1}),
                      std::vector<double>(8, 0));
  Bounds b = lowerBounds(g, cost);
  EXPECT_DOUBLE_EQ(b.criticalPath, 5);
  EXPECT_DOUBLE_EQ(b.workPerWorker, 4);
  EXPECT_DOUBLE_EQ(b.plain(), 5);
  EXPECT_DOUBLE_EQ(b.precedenceWork, 6);
  EXPECT_DOUBLE_EQ(b.lower(), 6);
  SchedulerOptions options;
  EXPECT_DOUBLE_EQ(scheduleHEFT(g, cost, options).makespan, 6);
}

TEST(Bounds, PrecedenceWorkWeighsSlowNodes) {
  // Two independent tasks (2 s on node 0, 1 s on node 1) feed a 1 s task.
  // With node 0 at half speed the two inputs need 2 / 1.5 s of the
  // weighted capacity before the last task: 4/3 + 1.
  TaskGraph g;
  std::vector<DataId> inputs;
  for (int i = 0; i < 2; ++i) {
    Task t;
    t.name = "a" + std::to_string(i);
    inputs.push_back(g.addData(g.addTask(t), 8));
  }
  Task sink;
  sink.name = "sink";
  sink.inputs = inputs;
  g.addData(g.addTask(sink), 8);
  TableCostModel cost({{2, 1}, {2, 1}, {2, 1}}, {0, 0, 0});
  Bounds b = lowerBounds(g, cost);
  EXPECT_DOUBLE_EQ(b.weightedWork, 2.0);
  EXPECT_NEAR(b.precedenceWork, 2.0 / 1.5 + 1, 1e-12);
  EXPECT_GE(scheduleHEFT(g, cost, SchedulerOptions()).makespan,
            b.lower() - 1e-12);
}

namespace {
/// A cost model with a tiny memory per node, to force evictions.
class SmallMemory : public TableCostModel {
public:
  using TableCostModel::TableCostModel;
  double memoryBytes(unsigned) const override { return 24; }
};
} // namespace

TEST(TileCache, StaysValidUnderMemoryPressure) {
  // A chain of 6 tasks each producing an 8-byte tile read by the next one
  // and by a final task: more tiles than fit in 24 bytes.
  TaskGraph g;
  std::vector<DataId> tiles;
  for (int i = 0; i < 6; ++i) {
    Task t;
    t.name = "p" + std::to_string(i);
    if (i)
      t.inputs = {tiles.back()};
    TaskId id = g.addTask(t);
    tiles.push_back(g.addData(id, 8));
  }
  Task last;
  last.name = "sink";
  last.inputs = tiles;
  g.addTask(last);
  std::vector<std::vector<double>> time(7, {1.0, 1.0});
  SmallMemory cost(time, std::vector<double>(6, 0.5));
  SchedulerOptions options;
  Schedule s = scheduleHEFT(g, cost, options);
  EXPECT_EQ(verifySchedule(g, cost, s, options), "");
}

TEST(Bounds, PinnedWorkCountsOnItsNode) {
  // Three 3-second tasks pinned to node 0 (one worker), after a 2 s
  // producer: none starts before 2 s, and they take 9 s there, whatever the
  // other node does: 11 (work / workers alone would say (9 + 2) / 2).
  TaskGraph g = fanOut(3, /*pin=*/false);
  std::vector<Task> tasks = g.tasks();
  TaskGraph pinned;
  TaskId producer = pinned.addTask(tasks[0]);
  DataId d = pinned.addData(producer, 8);
  for (int i = 0; i < 3; ++i) {
    Task t = tasks[i + 1];
    t.inputs = {d};
    t.pinnedNode = 0;
    pinned.addTask(t);
  }
  TableCostModel cost = fanOutCost(3, 1);
  Bounds b = lowerBounds(pinned, cost);
  EXPECT_DOUBLE_EQ(b.pinnedWork, 11);
  EXPECT_DOUBLE_EQ(b.lower(), 11);
  EXPECT_DOUBLE_EQ(scheduleHEFT(pinned, cost, SchedulerOptions()).makespan, 11);
}

TEST(Bounds, PinnedTasksWithHeadsAndTails) {
  // Two 1 s tasks pinned to node 0 (one worker) that can start at 4 (after
  // a 4 s chain) and are each followed by a 2 s task: whatever the order,
  // the second ends at 6 and its follower at 8. Path/work (7, 12 / 2 = 6)
  // and pinned work alone (2) say less.
  TaskGraph g;
  Task chain;
  chain.name = "chain";
  DataId ready = g.addData(g.addTask(chain), 8);
  for (int i = 0; i < 2; ++i) {
    Task p;
    p.name = "pinned" + std::to_string(i);
    p.inputs = {ready};
    p.pinnedNode = 0;
    DataId out = g.addData(g.addTask(p), 8);
    Task f;
    f.name = "follow" + std::to_string(i);
    f.inputs = {out};
    g.addData(g.addTask(f), 8);
  }
  // Times per task (ids: chain, pinned0, follow0, pinned1, follow1).
  TableCostModel cost({{4, 4}, {1, 1}, {2, 2}, {1, 1}, {2, 2}},
                      {0, 0, 0, 0, 0});
  Bounds b = lowerBounds(g, cost);
  EXPECT_DOUBLE_EQ(b.criticalPath, 7);
  EXPECT_DOUBLE_EQ(b.pinnedWork, 8); // head 4 + 2 / 1 + tail 2
  EXPECT_DOUBLE_EQ(b.lower(), 8);
  EXPECT_DOUBLE_EQ(scheduleHEFT(g, cost, SchedulerOptions()).makespan, 8);
}

TEST(HEFT, SpreadsEqualWorkOverIdleWorkers) {
  // Six independent 3-second consumers of a tile that moves for free: the
  // producer (2 s) then three per node, 2 + 9 = 11 s, not all on node 0.
  TaskGraph g = fanOut(6, /*pin=*/false);
  TableCostModel cost = fanOutCost(6, 0);
  SchedulerOptions options;
  Schedule s = scheduleHEFT(g, cost, options);
  ASSERT_EQ(verifySchedule(g, cost, s, options), "");
  EXPECT_DOUBLE_EQ(s.makespan, 11);
}

namespace {
/// A costs-by-table model with a memory limit and two communicators.
class LimitedMemory : public TableCostModel {
public:
  /// `receive`: the worker seconds node 1 loses per received tile (its
  /// communicators share the workers' cores); the other nodes lose none.
  LimitedMemory(std::vector<std::vector<double>> time, std::vector<double> data,
                double memory, double receive = 0)
      : TableCostModel(std::move(time), std::move(data), 2), memory(memory),
        receive(receive) {}
  double memoryBytes(unsigned) const override { return memory; }
  bool receivesOnWorkerCores(unsigned node) const override {
    return node == 1 && receive > 0;
  }
  double receiveCpu(const DataItem &, unsigned node) const override {
    return receivesOnWorkerCores(node) ? receive : 0;
  }

private:
  double memory, receive;
};
} // namespace

TEST(Property, RandomGraphsGiveValidPlansUnderMemoryPressure) {
  // Random layered DAGs with 8-byte tiles on 3 nodes whose memory holds 2-5
  // tiles: every scheduler and option combination must give a plan the
  // validator accepts (this found re-fetches overlapping evictions).
  std::mt19937 rng(2026);
  for (int round = 0; round < 60; ++round) {
    TaskGraph g;
    std::vector<DataId> tiles;
    int tasks = 10 + rng() % 40;
    for (int t = 0; t < tasks; ++t) {
      Task task;
      task.name = "t" + std::to_string(t);
      int inputs = tiles.empty() ? 0 : 1 + rng() % 3;
      for (int i = 0; i < inputs; ++i)
        task.inputs.push_back(tiles[rng() % tiles.size()]);
      if (rng() % 10 == 0)
        task.pinnedNode = 0;
      TaskId id = g.addTask(task);
      tiles.push_back(g.addData(id, 8));
    }
    std::vector<std::vector<double>> time;
    for (int t = 0; t < tasks; ++t)
      time.push_back({1.0 + rng() % 5, 1.0 + rng() % 5, 1.0 + rng() % 5});
    std::vector<double> transfer;
    for (size_t d = 0; d < tiles.size(); ++d)
      transfer.push_back(rng() % 3);
    for (double memory : {1e9, 8.0 * (2 + rng() % 4)}) {
      // Every other round node 1 receives on its workers' cores.
      LimitedMemory cost(time, transfer, memory, round % 2 ? 0.5 : 0);
      for (bool heft : {true, false})
        for (bool cache : {true, false})
          for (bool comms : {true, false}) {
            SchedulerOptions options;
            options.useTileCache = cache;
            options.modelCommunicators = comms;
            Schedule s = heft ? scheduleHEFT(g, cost, options)
                              : scheduleRoundRobin(g, cost, options);
            ASSERT_EQ(verifySchedule(g, cost, s, options), "")
                << "round " << round << (heft ? " heft" : " round-robin")
                << (cache ? " cache" : "") << (comms ? " comms" : "")
                << " memory " << memory;
            // The replay keeps the plan's orders, so it never ends later.
            // With the tile cache and room in memory it is the plan; without
            // the cache a use may read an earlier copy sent for another
            // consumer, and under eviction a re-fetch waits in the plan for
            // the old copy to leave, so the replay may end earlier.
            double replayed = simulate(g, cost, s).makespan;
            EXPECT_GE(replayed, lowerBounds(g, cost).lower() - 1e-9);
            EXPECT_LE(replayed, s.makespan + 1e-9)
                << "round " << round << (heft ? " heft" : " round-robin");
            if (cache && memory > 1e6) {
              EXPECT_NEAR(replayed, s.makespan, 1e-9)
                  << "round " << round << (heft ? " heft" : " round-robin")
                  << (comms ? " comms" : "");
            }
          }
    }
  }
}

TEST(Gang, ADistributedGemmHoldsEveryWorkerOfItsNodes) {
  // t0 (2 s) feeds a gang task over nodes 0 and 1 (5 s) and an ordinary
  // task c (3 s). The gang needs both nodes' workers at once, so c cannot run
  // beside it: HEFT puts c before or after, never overlapping.
  TaskGraph g;
  TaskId t0 = g.addTask(Task{"t0"});
  DataId d = g.addData(t0, 8, "d0");
  Task gang;
  gang.name = "cosma";
  gang.kind = TaskKind::DistributedGemm;
  gang.inputs = {d};
  gang.gangNodes = {0, 1};
  g.addTask(gang);
  Task c;
  c.name = "c";
  c.inputs = {d};
  g.addTask(c);
  TableCostModel cost({{2, 2}, {5, 5}, {3, 3}}, {1});
  for (bool heft : {true, false}) {
    SchedulerOptions options;
    Schedule s = heft ? scheduleHEFT(g, cost, options)
                      : scheduleRoundRobin(g, cost, options);
    ASSERT_EQ(verifySchedule(g, cost, s, options), "");
    const TaskPlacement &p = s.placement[1], &q = s.placement[2];
    EXPECT_EQ(p.node, 0u);
    EXPECT_TRUE(q.finish <= p.start || q.start >= p.finish)
        << "c overlaps the gang task";
    SimulationReport r = simulate(g, cost, s);
    EXPECT_NEAR(r.makespan, s.makespan, 1e-12);
    // Both nodes' workers are busy for the gang's 5 s.
    EXPECT_GE(r.workerBusy[1][0], 5.0);
  }
}

TEST(Gang, ValidatorRejectsWorkBesideAGang) {
  TaskGraph g;
  TaskId t0 = g.addTask(Task{"t0"});
  DataId d = g.addData(t0, 8, "d0");
  Task gang;
  gang.name = "cosma";
  gang.inputs = {d};
  gang.gangNodes = {0, 1};
  g.addTask(gang);
  Task c;
  c.name = "c";
  g.addTask(c);
  TableCostModel cost({{2, 2}, {5, 5}, {3, 3}}, {1});
  SchedulerOptions options;
  Schedule s;
  s.placement = {{0, 0, 0, 2}, {0, 0, 2, 7}, {1, 0, 3, 6}}; // c inside the gang
  EXPECT_NE(verifySchedule(g, cost, s, options).find("two things at once"),
            std::string::npos);
  s.placement[2] = {1, 0, 7, 10};
  EXPECT_EQ(verifySchedule(g, cost, s, options), "");
}
