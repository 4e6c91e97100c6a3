//===- ThreadPriorityTest.cpp - Real-time communicator threads ------------===//
//
// raiseToRealtimePriority (cmmrt/ThreadPriority.h) moves only the calling
// thread to SCHED_FIFO, and where it is refused leaves the thread as it was.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/ThreadPriority.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <thread>

namespace {

int policyOf(pthread_t thread) {
  int policy = -1;
  sched_param param{};
  pthread_getschedparam(thread, &policy, &param);
  return policy;
}

/// Whether this process may use SCHED_FIFO: root, or an RLIMIT_RTPRIO
/// allowance (CAP_SYS_NICE alone is not checked: the test then skips).
bool realtimeAllowed() {
  rlimit limit{};
  return geteuid() == 0 ||
         (getrlimit(RLIMIT_RTPRIO, &limit) == 0 && limit.rlim_cur > 0);
}

TEST(ThreadPriorityTest, RaisesOnlyTheCallingThread) {
  int before = policyOf(pthread_self());
  bool raised = false;
  int inside = -1;
  std::thread t([&] {
    raised = cmmrt::raiseToRealtimePriority();
    inside = policyOf(pthread_self());
  });
  t.join();
  if (realtimeAllowed()) {
    EXPECT_TRUE(raised);
    EXPECT_EQ(inside, SCHED_FIFO);
  } else {
    EXPECT_FALSE(raised);
    EXPECT_EQ(inside, before) << "a refused raise must leave the thread as is";
  }
  EXPECT_EQ(policyOf(pthread_self()), before) << "the caller's thread only";
}

TEST(ThreadPriorityTest, DropsBackToNormalAndSaysWhichItRunsAt) {
  // A kept communicator thread raised for one run and dropped for the next
  // (cmmrt/ThreadTeam.h), and a band helper made by a real-time thread.
  bool raised = false, realtimeAfterRaise = false, realtimeAfterDrop = true;
  int policyAfterDrop = -1;
  std::thread t([&] {
    raised = cmmrt::raiseToRealtimePriority();
    realtimeAfterRaise = cmmrt::atRealtimePriority();
    cmmrt::dropToNormalPriority();
    realtimeAfterDrop = cmmrt::atRealtimePriority();
    policyAfterDrop = policyOf(pthread_self());
  });
  t.join();
  EXPECT_EQ(realtimeAfterRaise, raised);
  EXPECT_EQ(raised, realtimeAllowed());
  EXPECT_FALSE(realtimeAfterDrop);
  EXPECT_EQ(policyAfterDrop, SCHED_OTHER);
  EXPECT_FALSE(cmmrt::atRealtimePriority()) << "the test's own thread";
}

} // namespace
