//===- ThreadTeam.h - Threads kept across the runs of a plan ----*- C++ -*-===//
//
// A program with run-time loops runs a loop body's plan once per trip
// (cmmrt/Program.h): kmeans-converge on two ranks runs 57 plans, each of
// which started and joined its worker and communicator threads. Starting
// and joining a thread took 26 us at best on a 2-core VM and far more under
// load, and every run's communicators raised their priority again; a rank's
// first task started 100-240 us after the run did. A team keeps its threads
// between jobs: a run hands each of them a job and waits until all have
// returned.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_THREADTEAM_H
#define CMMRT_THREADTEAM_H

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cmmrt {

class ThreadTeam {
public:
  /// `name` names the threads (at most 15 characters show: top -H, ps -L,
  /// /proc/PID/task/TID/comm).
  explicit ThreadTeam(std::string name) : name(std::move(name)) {}
  ThreadTeam(const ThreadTeam &) = delete;
  ThreadTeam &operator=(const ThreadTeam &) = delete;
  /// Waits for the jobs started, then ends and joins the threads.
  ~ThreadTeam();

  /// Runs job(i) for each i in [0, count) on a thread of its own (thread i
  /// of the team every time: what a job leaves in its thread, such as a
  /// scheduling policy or a core binding, is found by the next job given
  /// the same index), starting the threads the team lacks, and returns at
  /// once. The jobs of an earlier start must have returned (wait()).
  void start(int count, std::function<void(int)> job);
  /// Returns once every job of the last start has returned.
  void wait();
  /// The threads started so far.
  int size() const;

private:
  void serve(int index);

  const std::string name;
  mutable std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> threads;
  /// Per thread: whether it has a job of the last start still to run.
  std::vector<char> pending;
  std::function<void(int)> job;
  int running = 0;
  bool stopping = false;
};

} // namespace cmmrt

#endif // CMMRT_THREADTEAM_H
