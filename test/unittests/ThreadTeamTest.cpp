//===- ThreadTeamTest.cpp - Threads kept across the runs of a plan --------===//

#include "cmmrt/ThreadTeam.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <set>

using cmmrt::ThreadTeam;
using namespace std::chrono_literals;

namespace {

TEST(ThreadTeam, EachJobRunsOnceOnAThreadOfItsOwnAndIsWaitedFor) {
  ThreadTeam team("test-team");
  std::mutex mutex;
  std::vector<int> runs(3, 0);
  std::set<std::thread::id> ids;
  team.start(3, [&](int i) {
    std::this_thread::sleep_for(20ms); // wait() must not return before
    std::lock_guard<std::mutex> lock(mutex);
    ++runs[size_t(i)];
    ids.insert(std::this_thread::get_id());
  });
  team.wait();
  EXPECT_EQ(runs, std::vector<int>({1, 1, 1}));
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);
  EXPECT_EQ(team.size(), 3);
}

TEST(ThreadTeam, JobsRunAtTheSameTime) {
  // Each job waits for the other: jobs run one after the other would each
  // give up after a second.
  ThreadTeam team("test-team");
  std::atomic<int> arrived{0};
  std::atomic<int> met{0};
  team.start(2, [&](int) {
    ++arrived;
    auto giveUp = std::chrono::steady_clock::now() + 1s;
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < giveUp)
      std::this_thread::yield();
    if (arrived.load() == 2)
      ++met;
  });
  team.wait();
  EXPECT_EQ(met.load(), 2);
}

TEST(ThreadTeam, ThreadIKeepsWhatTheLastJobIGaveIt) {
  // The same thread serves index i at every start, so what a job sets in
  // its thread (a priority, a core binding) is there for the next one.
  ThreadTeam team("test-team");
  thread_local int jobsHere = 0;
  std::mutex mutex;
  std::vector<std::thread::id> first(2), second(2);
  std::vector<int> seen(2, 0);
  team.start(2, [&](int i) {
    ++jobsHere;
    std::lock_guard<std::mutex> lock(mutex);
    first[size_t(i)] = std::this_thread::get_id();
  });
  team.wait();
  team.start(2, [&](int i) {
    ++jobsHere;
    std::lock_guard<std::mutex> lock(mutex);
    second[size_t(i)] = std::this_thread::get_id();
    seen[size_t(i)] = jobsHere;
  });
  team.wait();
  EXPECT_EQ(first, second);
  EXPECT_NE(first[0], first[1]);
  EXPECT_EQ(seen, std::vector<int>({2, 2}));
  EXPECT_EQ(team.size(), 2);
}

TEST(ThreadTeam, AStartOfFewerJobsLeavesTheOtherThreadsIdleAndMoreAddsThreads) {
  ThreadTeam team("test-team");
  std::atomic<int> runs{0};
  std::vector<std::atomic<int>> byIndex(4);
  auto count = [&](int i) {
    ++runs;
    ++byIndex[size_t(i)];
  };
  team.start(3, count);
  team.wait();
  team.start(1, count);
  team.wait();
  EXPECT_EQ(runs.load(), 4);
  EXPECT_EQ(byIndex[0].load(), 2);
  EXPECT_EQ(byIndex[1].load(), 1);
  EXPECT_EQ(byIndex[2].load(), 1);
  EXPECT_EQ(team.size(), 3);
  team.start(4, count);
  team.wait();
  EXPECT_EQ(runs.load(), 8);
  EXPECT_EQ(byIndex[3].load(), 1);
  EXPECT_EQ(team.size(), 4);
}

TEST(ThreadTeam, AStartWaitsForTheJobsOfTheLastOne) {
  ThreadTeam team("test-team");
  std::atomic<bool> firstDone{false};
  std::atomic<bool> sawFirstDone{false};
  team.start(1, [&](int) {
    std::this_thread::sleep_for(50ms);
    firstDone = true;
  });
  team.start(1, [&](int) { sawFirstDone = firstDone.load(); });
  team.wait();
  EXPECT_TRUE(sawFirstDone.load());
}

TEST(ThreadTeam, DestroyingATeamWaitsForItsJobs) {
  std::atomic<int> finished{0};
  {
    ThreadTeam team("test-team");
    team.start(2, [&](int) {
      std::this_thread::sleep_for(30ms);
      ++finished;
    });
  }
  EXPECT_EQ(finished.load(), 2);
}

TEST(ThreadTeam, AJobReleasesWhatItCapturedOnceWaitedFor) {
  ThreadTeam team("test-team");
  auto held = std::make_shared<int>(1);
  std::weak_ptr<int> watch = held;
  team.start(1, [held](int) { (void)held; });
  held.reset();
  team.wait();
  EXPECT_TRUE(watch.expired());
}

TEST(ThreadTeam, ItsThreadsCarryItsName) {
  ThreadTeam team("cmm-a-long-team-name");
  char name[32] = {};
  team.start(
      1, [&](int) { pthread_getname_np(pthread_self(), name, sizeof name); });
  team.wait();
  EXPECT_STREQ(name, "cmm-a-long-team"); // the kernel keeps 15 characters
}

} // namespace
