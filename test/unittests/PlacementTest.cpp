//===- PlacementTest.cpp - Ranks' hosts against the plan's nodes ----------===//

#include "cmmrt/Placement.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

Task taskOn(int32_t node, TaskKind kind = TaskKind::Elementwise) {
  Task t{};
  t.kind = kind;
  t.node = node;
  return t;
}

} // namespace

TEST(PlacementTest, IdleNodesNeedNoCores) {
  // Three nodes of 2 workers x 3 threads; node 2 has nothing to do.
  int32_t workers[] = {2, 2, 2}, threads[] = {3, 3, 3}, comms[] = {1, 1, 1};
  Task tasks[] = {taskOn(0), taskOn(1), taskOn(0)};
  Plan plan{};
  plan.nodes = 3;
  plan.workers = workers;
  plan.threads = threads;
  plan.communicators = comms;
  plan.tasks = tasks;
  plan.numTasks = 3;
  EXPECT_EQ(plannedCores(plan), (std::vector<unsigned>{6, 6, 0}));
}

TEST(PlacementTest, AGangBusiesItsNodes) {
  int32_t workers[] = {1, 1, 1}, threads[] = {2, 2, 2}, comms[] = {1, 1, 1};
  int32_t gang[] = {2, 1};
  Task product = taskOn(0, TaskKind::DistributedGemm);
  product.firstGangNode = 0;
  product.numGangNodes = 2;
  Plan plan{};
  plan.nodes = 3;
  plan.workers = workers;
  plan.threads = threads;
  plan.communicators = comms;
  plan.tasks = &product;
  plan.numTasks = 1;
  plan.gangNodes = gang;
  plan.numGangNodes = 2;
  EXPECT_EQ(plannedCores(plan), (std::vector<unsigned>{0, 2, 2}));
  product.numGangNodes = 0; // every node
  EXPECT_EQ(plannedCores(plan), (std::vector<unsigned>{2, 2, 2}));
}

TEST(PlacementTest, SharedHostWithEnoughCoresIsFine) {
  // Two ranks of one core each on a 2-core host: the built-in model's
  // local plan.
  std::vector<RankHost> hosts = {{"vm", 2}, {"vm", 2}};
  EXPECT_TRUE(crowdedHosts(hosts, {1, 1}).empty());
}

TEST(PlacementTest, RanksPackedOntoOneHostAreNamed) {
  // mpirun without a mapping policy: ranks 0, 1 and 3 on host a (8 cores),
  // each planned as a node of 4 cores; rank 2 alone on b.
  std::vector<RankHost> hosts = {{"a", 8}, {"a", 8}, {"b", 8}, {"a", 8}};
  std::vector<CrowdedHost> crowded = crowdedHosts(hosts, {4, 4, 4, 4});
  ASSERT_EQ(crowded.size(), 1u);
  EXPECT_EQ(crowded[0].host, "a");
  EXPECT_EQ(crowded[0].cores, 8u);
  EXPECT_EQ(crowded[0].plannedCores, 12u);
  EXPECT_EQ(crowded[0].ranks, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(describeCrowding(crowded),
            "ranks 0, 1 and 3 share host a (8 cores), but the plan runs them "
            "as separate nodes needing 12 cores");
  EXPECT_EQ(describePlacement(hosts),
            "rank 0 on a, rank 1 on a, rank 2 on b, rank 3 on a");
}

TEST(PlacementTest, OneRankPerHostIsNeverCrowded) {
  // A rank alone on a host planned for more cores than it has is a model
  // question, not a placement one.
  std::vector<RankHost> hosts = {{"a", 2}, {"b", 2}};
  EXPECT_TRUE(crowdedHosts(hosts, {36, 36}).empty());
}

// Runs `body` in a child process confined to one core and returns what it
// exits with.
static int inConfinedChild(int (*body)()) {
  pid_t pid = fork();
  if (pid == 0) {
    cpu_set_t mask, one;
    sched_getaffinity(0, sizeof mask, &mask);
    int first = 0;
    while (!CPU_ISSET(first, &mask))
      ++first;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    sched_setaffinity(0, sizeof one, &one);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A process launched into one core (taskset, a cpuset, an emulated host)
// has a one-core host, whatever the machine has online.
TEST(PlacementTest, HostCoresFollowTheLaunchersAffinity) {
  int cores = inConfinedChild([] {
    pid_t grandchild = fork();
    if (grandchild == 0)
      _exit(int(cmmrt::thisRankHost().cores));
    int status = 0;
    waitpid(grandchild, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
  });
  EXPECT_EQ(cores, 1);
}

// A rank that mpirun bound to one core (its own mask, not its launcher's)
// still sees the host's cores: the binding is checked apart.
TEST(PlacementTest, HostCoresIgnoreTheRanksOwnBinding) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  int cores = inConfinedChild([] { return int(cmmrt::thisRankHost().cores); });
  EXPECT_EQ(cores, CPU_COUNT(&mine));
}

TEST(PlacementTest, ALoneRanksTaskThreadsTakeTheFirstCores) {
  using V = std::vector<int>;
  EXPECT_EQ(taskCoresOf({2}, 0, {0}, {0, 1}), (V{0, 1}));
  EXPECT_EQ(taskCoresOf({2}, 0, {0}, {3, 5, 7}), (V{3, 5}));
  // One task thread, or more threads than cores: left to the scheduler.
  EXPECT_EQ(taskCoresOf({1}, 0, {0}, {0, 1}), V{});
  EXPECT_EQ(taskCoresOf({4}, 0, {0}, {0, 1}), V{});
}

TEST(PlacementTest, RanksOfAHostTakeDisjointCores) {
  using V = std::vector<int>;
  // Two ranks of two threads on a 4-core host, in rank order.
  EXPECT_EQ(taskCoresOf({2, 2}, 0, {0, 1}, {0, 1, 2, 3}), (V{0, 1}));
  EXPECT_EQ(taskCoresOf({2, 2}, 1, {0, 1}, {0, 1, 2, 3}), (V{2, 3}));
  // ... on a 2-core host they do not fit: neither is bound.
  EXPECT_EQ(taskCoresOf({2, 2}, 0, {0, 1}, {0, 1}), V{});
  EXPECT_EQ(taskCoresOf({2, 2}, 1, {0, 1}, {0, 1}), V{});
  // A master-only plan: the idle rank (0 threads) and a rank of one
  // thread leave the cores to the one that runs two.
  EXPECT_EQ(taskCoresOf({2, 0}, 0, {0, 1}, {0, 1}), (V{0, 1}));
  EXPECT_EQ(taskCoresOf({2, 1}, 0, {0, 1}, {0, 1}), (V{0, 1}));
  // Ranks on other hosts do not count: rank 2 is alone on its host.
  EXPECT_EQ(taskCoresOf({2, 2, 2}, 2, {2}, {0, 1}), (V{0, 1}));
  EXPECT_EQ(taskCoresOf({2, 2, 2}, 1, {0, 1}, {0, 1, 2, 3}), (V{2, 3}));
}
