//===- ThreadPriority.cpp - Waking communicator threads on time -----------===//

#include "cmmrt/ThreadPriority.h"

#include <pthread.h>
#include <sched.h>

bool cmmrt::raiseToRealtimePriority() {
  sched_param param{};
  param.sched_priority = sched_get_priority_min(SCHED_FIFO);
  return param.sched_priority >= 0 &&
         pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0;
}

void cmmrt::dropToNormalPriority() {
  sched_param normal{};
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &normal);
}

bool cmmrt::atRealtimePriority() {
  int policy = SCHED_OTHER;
  sched_param param{};
  return pthread_getschedparam(pthread_self(), &policy, &param) == 0 &&
         (policy == SCHED_FIFO || policy == SCHED_RR);
}
