//===- PlanBuilder.cpp - Incremental construction of a plan -----*- C++ -*-===//

#include "PlanBuilder.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace cmm::scheduling;

PlanBuilder::PlanBuilder(const TaskGraph &graph, const CostModel &cost,
                         const SchedulerOptions &options)
    : graph(graph), cost(cost), options(options) {
  unsigned nodes = cost.numNodes();
  workerTimelines.resize(nodes);
  commTimelines.resize(nodes);
  for (unsigned n = 0; n < nodes; ++n) {
    workerTimelines[n].resize(cost.workers(n));
    commTimelines[n].resize(std::max(1u, cost.communicators(n)));
  }
  location.resize(graph.data().size());
  evictedAt.resize(graph.data().size());
  lastUse.resize(nodes);
  usedBytes.assign(nodes, 0.0);
  unscheduledConsumers.resize(graph.data().size());
  for (DataId d = 0; d < graph.data().size(); ++d) {
    std::set<TaskId> consumers(graph.item(d).consumers.begin(),
                               graph.item(d).consumers.end());
    unscheduledConsumers[d] = consumers.size();
  }
  schedule.placement.resize(graph.size());
}

bool PlanBuilder::holds(DataId data, unsigned node) const {
  auto it = location[data].find(node);
  if (it == location[data].end())
    return false;
  // Without the tile cache, only the producer's own copy is reused.
  return options.useTileCache ||
         schedule.placement[graph.item(data).producer].node == node;
}

double PlanBuilder::commSlot(unsigned from, unsigned to, double ready,
                             double duration, int *sendComm,
                             int *recvComm) const {
  if (!options.modelCommunicators) {
    *sendComm = *recvComm = -1;
    return ready;
  }
  // For each pair of communicators, the earliest common gap: alternate
  // between the two timelines until both are free at the same start.
  double best = std::numeric_limits<double>::infinity();
  for (unsigned s = 0; s < commTimelines[from].size(); ++s) {
    const Timeline &send = commTimelines[from][s];
    double sendFirst = send.earliest(ready, duration);
    if (sendFirst >= best)
      continue;
    for (unsigned r = 0; r < commTimelines[to].size(); ++r) {
      const Timeline &recv = commTimelines[to][r];
      double t = sendFirst;
      for (;;) {
        double u = recv.earliest(t, duration);
        if (u >= best)
          break;
        double v = send.earliest(u, duration);
        if (v == u) {
          best = u;
          *sendComm = static_cast<int>(s);
          *recvComm = static_cast<int>(r);
          break;
        }
        t = v;
      }
    }
  }
  return best;
}

Transfer PlanBuilder::bestTransfer(DataId data, unsigned node) const {
  const DataItem &item = graph.item(data);
  Transfer best;
  best.finish = std::numeric_limits<double>::infinity();
  for (auto &[from, since] : location[data]) {
    // Without the tile cache only the producer's copy is sent.
    if (!options.useTileCache && from != schedule.placement[item.producer].node)
      continue;
    double duration = cost.transferTime(item, data, from, node);
    int s, r;
    double start =
        commSlot(from, node, std::max(since, refetchAfter(data, node)),
                 duration, &s, &r);
    if (start + duration < best.finish)
      best = {data, from, node, s, r, start, start + duration};
  }
  return best;
}

double PlanBuilder::arrivalEstimate(DataId data, unsigned node) const {
  if (holds(data, node))
    return location[data].at(node);
  return bestTransfer(data, node).finish;
}

double PlanBuilder::arrival(DataId data, unsigned node, bool reserve) {
  if (holds(data, node)) {
    if (graph.item(data).producer < graph.size() &&
        schedule.placement[graph.item(data).producer].node != node)
      ++schedule.cacheHits;
    return location[data].at(node);
  }
  const DataItem &item = graph.item(data);
  Transfer best = bestTransfer(data, node);
  if (!reserve)
    return best.finish;
  if (best.sendComm >= 0) {
    commTimelines[best.from][best.sendComm].reserve(best.start, best.finish);
    commTimelines[best.to][best.recvComm].reserve(best.start, best.finish);
  }
  schedule.transfers.push_back(best);
  schedule.bytesMoved += item.bytes;
  // The sender's copy is in use until the send completes.
  double &senderUse = lastUse[best.from][data];
  senderUse = std::max(senderUse, best.finish);
  if (options.useTileCache)
    place(data, node, best.finish);
  return best.finish;
}

double PlanBuilder::readyOn(TaskId task, unsigned node) const {
  double ready = 0;
  for (DataId d : graph.task(task).inputs)
    ready = std::max(ready, arrivalEstimate(d, node));
  return ready;
}

double PlanBuilder::receiveCpu(TaskId task, unsigned node) const {
  double cpu = 0;
  std::vector<DataId> fetched;
  for (DataId d : graph.task(task).inputs) {
    // With the tile cache an input read twice is fetched once.
    if (holds(d, node) ||
        (options.useTileCache &&
         std::find(fetched.begin(), fetched.end(), d) != fetched.end()))
      continue;
    fetched.push_back(d);
    cpu += cost.receiveCpu(graph.item(d), node);
  }
  return cpu;
}

double PlanBuilder::duration(TaskId task, unsigned node) const {
  const Task &t = graph.task(task);
  return cost.taskTime(t, task, node) +
         (t.isGang() ? 0 : receiveCpu(task, node));
}

PlanBuilder::Candidate PlanBuilder::evaluate(TaskId task, unsigned node,
                                             unsigned worker) const {
  double ready = readyOn(task, node);
  double duration = this->duration(task, node);
  double start = workerTimelines[node][worker].earliest(ready, duration);
  return {node, worker, start, start + duration,
          workerTimelines[node][worker].busyTime()};
}

PlanBuilder::Candidate PlanBuilder::bestOnNode(TaskId task,
                                               unsigned node) const {
  double ready = readyOn(task, node);
  double duration = this->duration(task, node);
  Candidate best;
  best.finish = std::numeric_limits<double>::infinity();
  for (unsigned w = 0; w < workerTimelines[node].size(); ++w) {
    double start = workerTimelines[node][w].earliest(ready, duration);
    Candidate c{node, w, start, start + duration,
                workerTimelines[node][w].busyTime()};
    if (c.betterThan(best))
      best = c;
  }
  return best;
}

void PlanBuilder::place(DataId data, unsigned node, double time) {
  location[data][node] = time;
  usedBytes[node] += graph.item(data).bytes;
  // Every copy a node holds, produced or received, is put in its cache, so
  // the events give each copy's lifetime in order (see verifySchedule).
  schedule.cacheEvents.push_back({CacheEvent::Put, data, node, time});
  makeRoom(node, time, data);
}

double PlanBuilder::refetchAfter(DataId data, unsigned node) const {
  auto it = evictedAt[data].find(node);
  return it == evictedAt[data].end() ? 0.0 : it->second;
}

void PlanBuilder::evict(DataId data, unsigned node) {
  double since = location[data][node];
  double last = lastUse[node].count(data) ? lastUse[node][data] : since;
  double when = std::max(since, last);
  schedule.cacheEvents.push_back({CacheEvent::Evict, data, node, when});
  double &evicted = evictedAt[data][node];
  evicted = std::max(evicted, when);
  location[data].erase(node);
  lastUse[node].erase(data);
  usedBytes[node] -= graph.item(data).bytes;
}

/// Evicts least recently used data from `node` while it is over its memory:
/// only data whose uses on the node are all before `time` and that is either
/// dead or held elsewhere too, so nothing is lost.
void PlanBuilder::makeRoom(unsigned node, double time, DataId keep) {
  while (usedBytes[node] > cost.memoryBytes(node)) {
    DataId victim = 0;
    double oldest = std::numeric_limits<double>::infinity();
    for (auto &[d, used] : lastUse[node]) {
      if (d == keep || used > time || !location[d].count(node) ||
          inUse.count(d))
        continue;
      if (unscheduledConsumers[d] > 0 && location[d].size() < 2)
        continue;
      if (used < oldest) {
        oldest = used;
        victim = d;
      }
    }
    if (oldest == std::numeric_limits<double>::infinity())
      return; // nothing can go; the node is over-committed
    evict(victim, node);
  }
}

void PlanBuilder::commit(TaskId task, unsigned node, unsigned worker) {
  const Task &t = graph.task(task);
  inUse = std::set<DataId>(t.inputs.begin(), t.inputs.end());
  // Known before the inputs are fetched (and so become held).
  double duration = this->duration(task, node);
  size_t transfersBefore = schedule.transfers.size();
  double ready = 0;
  // A gang task reads each input on the gang node where it is first there
  // (COSMA moves it into its layout from anywhere); other tasks on `node`.
  std::vector<unsigned> inputNodes;
  for (DataId d : t.inputs) {
    unsigned where = node;
    if (t.isGang()) {
      double first = std::numeric_limits<double>::infinity();
      for (unsigned n : t.gangNodes)
        if (holds(d, n) && location[d].at(n) < first) {
          first = location[d].at(n);
          where = n;
        }
      inputNodes.push_back(where);
    }
    ready = std::max(ready, arrival(d, where, /*reserve=*/true));
  }
  if (!t.isGang())
    for (size_t i = transfersBefore; i < schedule.transfers.size(); ++i)
      schedule.transfers[i].fetchedBy = long(task);
  double start, finish;
  if (t.isGang()) {
    // The gang holds all the workers of its nodes at once.
    start = ready;
    for (bool moved = true; moved;) {
      moved = false;
      for (unsigned n : t.gangNodes)
        for (const Timeline &tl : workerTimelines[n])
          if (double s = tl.earliest(start, duration); s > start) {
            start = s;
            moved = true;
          }
    }
    finish = start + duration;
    for (unsigned n : t.gangNodes)
      for (Timeline &tl : workerTimelines[n])
        tl.reserve(start, finish);
    worker = 0;
  } else {
    start = workerTimelines[node][worker].earliest(ready, duration);
    finish = start + duration;
    workerTimelines[node][worker].reserve(start, finish);
  }
  schedule.placement[task] = {node, worker, start, finish, inputNodes};
  schedule.makespan = std::max(schedule.makespan, finish);

  std::set<DataId> inputs = std::move(inUse);
  inUse.clear();
  const TaskPlacement &placed = schedule.placement[task];
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    double &used = lastUse[placed.inputNode(i)][t.inputs[i]];
    used = std::max(used, start);
  }
  for (DataId out : t.outputs) {
    lastUse[node][out] = finish;
    place(out, node, finish);
  }
  // Data whose consumers are all placed leaves every node's cache.
  for (DataId d : inputs)
    if (--unscheduledConsumers[d] == 0)
      for (auto it = location[d].begin(); it != location[d].end();) {
        unsigned holder = (it++)->first;
        evict(d, holder);
      }
}

Schedule PlanBuilder::take() { return std::move(schedule); }
