//===- ThreadPriority.h - Waking communicator threads on time ---*- C++ -*-===//
//
// A communicator thread sleeps between polls of its MPI request
// (docs/runtime.md, "Polling"). When every core runs a worker (two ranks of
// one worker each on a 2-core host), Linux's fair scheduler lets a woken
// thread wait for a worker's time slice: on this VM a 20 us sleep overslept
// by 2.4-3.6 ms once in a thousand with both cores busy (under 0.1 ms with a
// core free), and each such miss holds up every transfer queued behind it
// on that communicator. As SCHED_FIFO at the lowest real-time priority the
// same sleep never overslept by more than 78 us, and since the thread
// sleeps between its few polls it takes little from the workers. But each
// poll takes a worker's core at once, and where workers hold every core
// that starved them (spmv on 2 ranks of a 2-core VM: 0.82 s against 0.14 at
// normal priority), so real-time communicators are an option
// (--comm-priority=realtime), not the default (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_THREADPRIORITY_H
#define CMMRT_THREADPRIORITY_H

namespace cmmrt {

/// Moves the calling thread to SCHED_FIFO at the lowest real-time priority.
/// Returns false, changing nothing, where that is not permitted (a process
/// without CAP_SYS_NICE and without an RLIMIT_RTPRIO allowance).
bool raiseToRealtimePriority();
/// Moves the calling thread back to SCHED_OTHER (a thread that inherited or
/// kept a real-time policy it should not have: a band helper made by a
/// communicator, a kept communicator thread of a run at normal priority).
void dropToNormalPriority();
/// Whether the calling thread runs at a real-time policy.
bool atRealtimePriority();

} // namespace cmmrt

#endif // CMMRT_THREADPRIORITY_H
