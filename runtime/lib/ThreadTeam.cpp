//===- ThreadTeam.cpp - Threads kept across the runs of a plan ------------===//

#include "cmmrt/ThreadTeam.h"

#include <pthread.h>

#include <algorithm>

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
    // A new thread waits for the lock, then finds its job pending.
    while (int(threads.size()) < count) {
      pending.push_back(0);
      threads.emplace_back(&ThreadTeam::serve, this, int(threads.size()));
    }
    std::fill(pending.begin(), pending.begin() + count, 1);
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
    wake.wait(lock, [&] { return stopping || pending[size_t(index)]; });
    if (!pending[size_t(index)])
      return; // stopping, and nothing left to run
    lock.unlock();
    // `job` is not replaced while a job of its start runs (start() waits
    // for `running` to fall to 0), and calls of a const std::function may
    // overlap.
    job(index);
    lock.lock();
    pending[size_t(index)] = 0;
    if (--running == 0)
      done.notify_all();
  }
}
