//===- ThreadTeam.cpp - Threads kept across the runs of a plan ------------===//

#include "cmmrt/ThreadTeam.h"

#include <pthread.h>

using namespace cmmrt;

ThreadTeam::~ThreadTeam() {
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return running == 0; });
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &t : threads)
    t.join();
}

void ThreadTeam::start(int count, std::function<void(int)> fn) {
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return running == 0; });
    job = std::move(fn);
    ++generation;
    // A new thread waits for the lock, then finds its job given.
    while (int(threads.size()) < count) {
      given.push_back(0);
      ran.push_back(0);
      threads.emplace_back(&ThreadTeam::serve, this, int(threads.size()));
    }
    for (int i = 0; i < count; ++i)
      given[size_t(i)] = generation;
    running = count;
  }
  wake.notify_all();
}

void ThreadTeam::wait() {
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, [&] { return running == 0; });
  job = nullptr; // what the jobs captured is released with the run
}

int ThreadTeam::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return int(threads.size());
}

void ThreadTeam::serve(int index) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    wake.wait(lock, [&] {
      return stopping || given[size_t(index)] > ran[size_t(index)];
    });
    long long generationGiven = given[size_t(index)];
    if (generationGiven == ran[size_t(index)])
      return; // stopping, and nothing left to run
    lock.unlock();
    // `job` is not replaced while a job of its start runs (start() waits
    // for `running` to fall to 0), and calls of a const std::function may
    // overlap.
    job(index);
    lock.lock();
    ran[size_t(index)] = generationGiven;
    if (--running == 0)
      done.notify_all();
  }
}
