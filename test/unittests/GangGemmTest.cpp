//===- GangGemmTest.cpp - The planner's cost of a COSMA gang task ---------===//
//
// Hand-computed costs of distributed products (GangGemm.h) on a unit
// machine: a gemm of m x n x k takes mnk seconds, a link moves 8 bytes (one
// word) per second with no latency.

#include "cmm/Scheduling/GangGemm.h"
#include "cmm/Scheduling/CostModel.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace cmm::scheduling;

namespace {

MachineModel unitMachine(unsigned nodes, unsigned workers = 1) {
  MachineModel m;
  m.name = "unit";
  NodeSpec node;
  node.workers = workers;
  node.memoryBytes = 1e9;
  node.time[static_cast<unsigned>(CostClass::Gemm)].a[7] = 1.0;
  m.nodes.assign(nodes, node);
  m.defaultLink = {0.0, 8.0};
  return m;
}

TEST(GangGemmTest, HandComputedOnTwoNodes) {
  // 4x4x4 on 2 ranks: the grid halves one dimension, so a rank's local
  // product is 2x4x4 (or 4x4x2) = 32 s. The tiles (spread evenly) move
  // into COSMA's layout: each rank sends half of its half of A and B,
  // (16 + 16) / 4 = 8 words, 8 s; the ranks exchange half a panel (or
  // reduce-scatter half of C): 8 words, 8 s, under the product; node 0
  // gathers half of C: 8 words, 8 s. Total 8 + 32 + 8 = 48 s.
  GangGemmCost cost;
  std::string error;
  ASSERT_TRUE(gangGemmCost(unitMachine(2), {0, 1}, 4, 4, 4, 1e9, cost, error))
      << error;
  EXPECT_EQ(cost.strategy.usedRanks(), 2);
  EXPECT_DOUBLE_EQ(cost.redistribute, 8.0);
  EXPECT_DOUBLE_EQ(cost.product, 32.0);
  EXPECT_DOUBLE_EQ(cost.exchange, 8.0);
  EXPECT_DOUBLE_EQ(cost.gather, 8.0);
  EXPECT_DOUBLE_EQ(cost.total(), 48.0);
}

TEST(GangGemmTest, OneWorkerRunsTheLocalProduct) {
  // Four workers per node: the gang holds them all, but one runs the local
  // product (OpenBLAS's thread count is process-wide).
  GangGemmCost cost;
  std::string error;
  ASSERT_TRUE(
      gangGemmCost(unitMachine(2, 4), {0, 1}, 4, 4, 4, 1e9, cost, error));
  EXPECT_DOUBLE_EQ(cost.product, 32.0);
  EXPECT_DOUBLE_EQ(cost.total(), 48.0);
}

TEST(GangGemmTest, TheFirstNodeCopiesTheOperandsAndTheResult) {
  // copy: 1 s per element. Each rank's half of A and of B copied twice
  // (2 x 8 + 2 x 8 = 32 s), C assembled and cut into tiles (2 x 16 s):
  // 64 s on top of the 48 s above.
  MachineModel m = unitMachine(2);
  m.nodes[0].time[static_cast<unsigned>(CostClass::Copy)].a[4] = 1.0;
  GangGemmCost cost;
  std::string error;
  ASSERT_TRUE(gangGemmCost(m, {0, 1}, 4, 4, 4, 1e9, cost, error));
  EXPECT_DOUBLE_EQ(cost.copies, 64.0);
  EXPECT_DOUBLE_EQ(cost.total(), 112.0);
}

TEST(GangGemmTest, OneNodeMovesNothing) {
  GangGemmCost cost;
  std::string error;
  ASSERT_TRUE(gangGemmCost(unitMachine(1), {0}, 4, 4, 4, 1e9, cost, error));
  EXPECT_DOUBLE_EQ(cost.total(), 64.0);
  EXPECT_DOUBLE_EQ(cost.redistribute + cost.exchange + cost.gather, 0.0);
}

TEST(GangGemmTest, FreeCommunicationLeavesTheProduct) {
  GangGemmCost cost;
  std::string error;
  MachineModel free = unitMachine(4).withFreeCommunication();
  ASSERT_TRUE(gangGemmCost(free, {0, 1, 2, 3}, 8, 8, 8, 1e9, cost, error));
  // 512 s of work on 4 ranks with divisible sides: 128 s each.
  EXPECT_DOUBLE_EQ(cost.total(), 128.0);
}

TEST(GangGemmTest, TooLittleMemoryIsAnError) {
  GangGemmCost cost;
  std::string error;
  EXPECT_FALSE(gangGemmCost(unitMachine(2), {0, 1}, 1000, 1000, 1000, 800.0,
                            cost, error));
  EXPECT_NE(error.find("GiB per rank"), std::string::npos) << error;
}

// bestGang: of the gangs of the u fastest nodes, the cheapest; the costs
// below are the hand-computed ones of the tests above (1 node: 64 s; 2
// nodes of the unit speed: 8 + 32 + 8 = 48 s).
struct ChosenGang {
  std::vector<unsigned> nodes;
  GangGemmCost cost;
};

/// bestGang's choice for the 4 x 4 x 4 product with memory to spare.
ChosenGang chooseGang(const MachineModel &m) {
  ChosenGang chosen;
  std::string error;
  EXPECT_TRUE(bestGang(m, 4, 4, 4, 1e9, chosen.nodes, chosen.cost, error))
      << error;
  return chosen;
}

TEST(GangGemmTest, EqualNodesGangUpWithTheMasterFirst) {
  ChosenGang chosen = chooseGang(unitMachine(2));
  EXPECT_EQ(chosen.nodes, (std::vector<unsigned>{0, 1}));
  EXPECT_DOUBLE_EQ(chosen.cost.total(), 48.0);
}

TEST(GangGemmTest, ASlowMasterIsLeftOut) {
  // Node 0 runs a product 10x slower: any gang with it waits for its share
  // (COSMA's grid splits evenly), so nodes 1 and 2 run it: 48 s.
  MachineModel m = unitMachine(3);
  m.nodes[0].time[static_cast<unsigned>(CostClass::Gemm)].a[7] = 10.0;
  ChosenGang chosen = chooseGang(m);
  EXPECT_EQ(chosen.nodes, (std::vector<unsigned>{1, 2}));
  EXPECT_DOUBLE_EQ(chosen.cost.total(), 48.0);
  // The whole machine would be slower: the gang of three costs more.
  GangGemmCost all;
  std::string error;
  ASSERT_TRUE(gangGemmCost(m, {0, 1, 2}, 4, 4, 4, 1e9, all, error));
  EXPECT_GT(all.total(), chosen.cost.total());
}

TEST(GangGemmTest, WithoutTheMasterTheFastestGathers) {
  // Node 2 is a little faster than node 1 (0.9 s per mnk): it leads the
  // gang. Its half product takes 28.8 s, node 1's 32 s: 8 + 32 + 8 = 48 s,
  // against 57.6 s for node 2 alone.
  MachineModel m = unitMachine(3);
  m.nodes[0].time[static_cast<unsigned>(CostClass::Gemm)].a[7] = 10.0;
  m.nodes[2].time[static_cast<unsigned>(CostClass::Gemm)].a[7] = 0.9;
  ChosenGang chosen = chooseGang(m);
  EXPECT_EQ(chosen.nodes, (std::vector<unsigned>{2, 1}));
  EXPECT_DOUBLE_EQ(chosen.cost.total(), 48.0);
}

TEST(GangGemmTest, ASlowNetworkKeepsTheProductOnOneNode) {
  // Links at a tenth of a word per second: on two nodes the 8 words of
  // each phase take 80 s (80 + max(32, 80) + 80 = 240 s); on the master
  // alone 64 s.
  MachineModel m = unitMachine(2);
  m.defaultLink.bandwidth = 0.8;
  ChosenGang chosen = chooseGang(m);
  EXPECT_EQ(chosen.nodes, (std::vector<unsigned>{0}));
  EXPECT_DOUBLE_EQ(chosen.cost.total(), 64.0);
  GangGemmCost two;
  std::string error;
  ASSERT_TRUE(gangGemmCost(m, {0, 1}, 4, 4, 4, 1e9, two, error));
  EXPECT_DOUBLE_EQ(two.total(), 240.0);
}

TEST(GangGemmTest, NoGangFitsIsAnError) {
  std::vector<unsigned> gang;
  GangGemmCost cost;
  std::string error;
  EXPECT_FALSE(
      bestGang(unitMachine(2), 1000, 1000, 1000, 800.0, gang, cost, error));
  EXPECT_NE(error.find("GiB per rank"), std::string::npos) << error;
}

TEST(GangGemmTest, TiledEstimate) {
  MachineModel m = unitMachine(2);
  // 4x4x4 in 2x2 tiles on 2 workers: a chain is 2 products of 8 s, the work
  // 64 s over 2 workers is 32 s: 32.
  EXPECT_DOUBLE_EQ(tiledGemmEstimate(m, 4, 4, 4, 2), 32.0);
  // One 4x4 tile: the chain is the whole product.
  EXPECT_DOUBLE_EQ(tiledGemmEstimate(m, 4, 4, 4, 4), 64.0);
  // largeK-like, 2 x 2 x 64 in tiles of 8: one output tile, a chain of 8
  // products of 2x2x8 = 32 s each: 256 s (the work over 2 workers: 128 s).
  EXPECT_DOUBLE_EQ(tiledGemmEstimate(m, 2, 2, 64, 8), 256.0);
}

TEST(GangGemmTest, MemoryFromTheModelOrTheEnvironment) {
  MachineModel m = unitMachine(3);
  m.nodes[2].memoryBytes = 5e8;
  unsetenv("CMM_MAX_MEMORY");
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 5e8); // the smallest node
  setenv("CMM_MAX_MEMORY", "123456", 1);
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 123456.0);
  setenv("CMM_MAX_MEMORY", "lots", 1); // not a number: ignored
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 5e8);
  // The model's limit, below the environment's override.
  m.memoryLimit = 2e8;
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 2e8);
  setenv("CMM_MAX_MEMORY", "123456", 1);
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 123456.0);
  setenv("CMM_MAX_MEMORY", "-5", 1); // not positive: ignored
  EXPECT_DOUBLE_EQ(gangMemoryBytes(m), 2e8);
  unsetenv("CMM_MAX_MEMORY");
}

TEST(GangGemmTest, CostModelAsksOncePerTask) {
  MachineCostModel cost(unitMachine(2));
  Task t;
  t.kind = TaskKind::DistributedGemm;
  t.op = CostClass::Gemm;
  t.m = t.n = t.k = 4;
  t.gangNodes = {0, 1};
  // Wherever asked, the gang's time (HEFT averages over nodes).
  EXPECT_DOUBLE_EQ(cost.taskTime(t, 0, 0), 48.0);
  EXPECT_DOUBLE_EQ(cost.taskTime(t, 0, 1), 48.0);
  EXPECT_DOUBLE_EQ(cost.averageTaskTime(t, 0), 48.0);
}

} // namespace
