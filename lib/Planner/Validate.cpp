//===- Validate.cpp - Check a schedule against its task graph ---*- C++ -*-===//
//
// Rebuilds, from the placements, transfers and cache events alone, when each
// data item is on each node, and checks every rule of Schedule.h. It shares
// no state with the schedulers, so it can catch their mistakes.
//
//===----------------------------------------------------------------------===//

#include "cmm/Planner/CostModel.h"
#include "cmm/Planner/Schedule.h"
#include "cmm/Planner/Schedulers.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

using namespace cmm::planner;

namespace {
constexpr double kEps = 1e-9;

bool sameTime(double a, double b) {
  return std::fabs(a - b) <= kEps * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// Arrivals and evictions of each data item on each node.
struct Presence {
  std::map<std::pair<DataId, unsigned>, std::vector<double>> arrivals, evicts;

  /// Is `d` on `node` at time `t`? With `strictlyBefore`, only copies that
  /// arrived before `t` count (a transfer must not see its own arrival).
  bool heldAt(DataId d, unsigned node, double t,
              bool strictlyBefore = false) const {
    auto a = arrivals.find({d, node});
    if (a == arrivals.end())
      return false;
    auto e = evicts.find({d, node});
    for (double arrived : a->second) {
      if (strictlyBefore ? arrived >= t - kEps : arrived > t + kEps)
        continue;
      bool evictedSince = false;
      if (e != evicts.end())
        for (double ev : e->second)
          if (ev + kEps >= arrived && ev < t - kEps)
            evictedSince = true;
      if (!evictedSince)
        return true;
    }
    return false;
  }
};

template <typename T> std::string describe(const T &what) {
  std::ostringstream os;
  os << what;
  return os.str();
}

std::string noOverlap(std::vector<std::pair<double, double>> intervals,
                      const std::string &resource) {
  std::sort(intervals.begin(), intervals.end());
  for (size_t i = 1; i < intervals.size(); ++i)
    if (intervals[i].first < intervals[i - 1].second - kEps &&
        intervals[i].second > intervals[i].first &&
        intervals[i - 1].second > intervals[i - 1].first)
      return resource + " runs two things at once at t=" +
             describe(intervals[i].first);
  return "";
}
} // namespace

std::string cmm::planner::verifySchedule(const TaskGraph &graph,
                                         const CostModel &cost,
                                         const Schedule &schedule,
                                         const SchedulerOptions &options) {
  if (schedule.placement.size() != graph.size())
    return "the schedule places " + describe(schedule.placement.size()) +
           " tasks, the graph has " + describe(graph.size());

  Presence presence;
  std::map<std::pair<unsigned, unsigned>, std::vector<std::pair<double, double>>>
      workerBusy, sendBusy, recvBusy;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    const Task &task = graph.task(t);
    std::string name = "task " + describe(t) + " (" + task.name + ")";
    if (p.node >= cost.numNodes() || p.worker >= cost.workers(p.node))
      return name + " is on a worker that does not exist";
    if (task.pinnedNode >= 0 && p.node != unsigned(task.pinnedNode))
      return name + " must run on node " + describe(task.pinnedNode);
    if (!sameTime(p.finish - p.start, cost.taskTime(task, t, p.node)))
      return name + " runs " + describe(p.finish - p.start) +
             " s, the model says " + describe(cost.taskTime(task, t, p.node));
    workerBusy[{p.node, p.worker}].push_back({p.start, p.finish});
    for (DataId out : task.outputs)
      presence.arrivals[{out, p.node}].push_back(p.finish);
  }
  for (const Transfer &x : schedule.transfers) {
    if (x.from >= cost.numNodes() || x.to >= cost.numNodes() || x.from == x.to)
      return "transfer of data " + describe(x.data) + " has bad nodes";
    double expected =
        cost.transferTime(graph.item(x.data), x.data, x.from, x.to);
    if (!sameTime(x.finish - x.start, expected))
      return "transfer of data " + describe(x.data) + " takes " +
             describe(x.finish - x.start) + " s, the model says " +
             describe(expected);
    presence.arrivals[{x.data, x.to}].push_back(x.finish);
    if (options.modelCommunicators) {
      if (x.sendComm < 0 || unsigned(x.sendComm) >= cost.communicators(x.from) ||
          x.recvComm < 0 || unsigned(x.recvComm) >= cost.communicators(x.to))
        return "transfer of data " + describe(x.data) +
               " uses a communicator that does not exist";
      sendBusy[{x.from, unsigned(x.sendComm)}].push_back({x.start, x.finish});
      recvBusy[{x.to, unsigned(x.recvComm)}].push_back({x.start, x.finish});
    }
  }
  for (const CacheEvent &e : schedule.cacheEvents)
    if (e.kind == CacheEvent::Evict)
      presence.evicts[{e.data, e.node}].push_back(e.time);

  for (auto &[worker, busy] : workerBusy)
    if (std::string err = noOverlap(busy, "worker " + describe(worker.first) +
                                              "." + describe(worker.second));
        !err.empty())
      return err;
  // A communicator process both sends and receives.
  std::map<std::pair<unsigned, unsigned>, std::vector<std::pair<double, double>>>
      commBusy = sendBusy;
  for (auto &[comm, busy] : recvBusy)
    commBusy[comm].insert(commBusy[comm].end(), busy.begin(), busy.end());
  for (auto &[comm, busy] : commBusy)
    if (std::string err = noOverlap(busy, "communicator " +
                                              describe(comm.first) + "." +
                                              describe(comm.second));
        !err.empty())
      return err;

  for (const Transfer &x : schedule.transfers) {
    if (!presence.heldAt(x.data, x.from, x.start))
      return "data " + describe(x.data) + " is sent from node " +
             describe(x.from) + " at t=" + describe(x.start) +
             " before it is there";
    if (options.useTileCache &&
        presence.heldAt(x.data, x.to, x.start, /*strictlyBefore=*/true))
      return "data " + describe(x.data) + " is sent to node " +
             describe(x.to) + " while it is cached there";
  }
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    for (DataId d : graph.task(t).inputs)
      if (!presence.heldAt(d, p.node, p.start))
        return "task " + describe(t) + " (" + graph.task(t).name +
               ") starts at t=" + describe(p.start) + " on node " +
               describe(p.node) + " before its input " + describe(d) +
               " is there";
  }
  return "";
}
