//===- Validate.cpp - Check a schedule against its task graph ---*- C++ -*-===//
//
// Rebuilds, from the placements, transfers and cache events alone, when each
// data item is on each node, and checks every rule of Schedule.h. It shares
// no state with the schedulers, so it can catch their mistakes.
//
//===----------------------------------------------------------------------===//

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/Schedule.h"
#include "cmm/Scheduling/Schedulers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

using namespace cmm::scheduling;

namespace {
constexpr double kEps = 1e-9;

bool sameTime(double a, double b) {
  return std::fabs(a - b) <= kEps * std::max({1.0, std::fabs(a), std::fabs(b)});
}

/// Where each data item is: per (data, node), the lifetimes [arrived, left]
/// of its copies. With cache events, lifetimes come from the Put/Evict events
/// in their recorded (causal) order; copies without events (plans written by
/// hand, transfers without the tile cache) live from arrival on.
struct Presence {
  struct Lifetime {
    double arrived, left;
  };
  std::map<std::pair<DataId, unsigned>, std::vector<Lifetime>> copies;
  std::string error;

  void fromEvents(const std::vector<CacheEvent> &events) {
    std::map<std::pair<DataId, unsigned>, std::vector<size_t>> open;
    for (const CacheEvent &e : events) {
      auto key = std::make_pair(e.data, e.node);
      auto &list = copies[key];
      if (e.kind == CacheEvent::Put) {
        open[key].push_back(list.size());
        list.push_back({e.time, std::numeric_limits<double>::infinity()});
      } else if (open[key].empty()) {
        if (error.empty())
          error = "data " + std::to_string(e.data) + " is evicted from node " +
                  std::to_string(e.node) + " where it is not";
      } else {
        list[open[key].front()].left = e.time;
        open[key].erase(open[key].begin());
      }
    }
  }
  /// Arrivals not covered by events live until the end.
  void addArrival(DataId d, unsigned node, double t, bool hasEvents) {
    if (!hasEvents)
      copies[{d, node}].push_back({t, std::numeric_limits<double>::infinity()});
  }

  /// Is a copy of `d` on `node` at `t` (arrived by t, not gone before t)?
  bool heldAt(DataId d, unsigned node, double t) const {
    auto it = copies.find({d, node});
    if (it == copies.end())
      return false;
    for (const Lifetime &c : it->second)
      if (c.arrived <= t + kEps && t <= c.left + kEps)
        return true;
    return false;
  }
  /// Is an earlier copy still there after `t` (sending another would
  /// duplicate it)?
  bool cachedAcross(DataId d, unsigned node, double t) const {
    auto it = copies.find({d, node});
    if (it == copies.end())
      return false;
    for (const Lifetime &c : it->second)
      if (c.arrived < t - kEps && c.left > t + kEps)
        return true;
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
      return resource +
             " runs two things at once at t=" + describe(intervals[i].first);
  return "";
}
} // namespace

std::vector<double>
cmm::scheduling::receiveCpuByTask(const TaskGraph &graph, const CostModel &cost,
                                  const Schedule &schedule) {
  std::vector<double> cpu(graph.size(), 0.0);
  for (const Transfer &x : schedule.transfers)
    if (x.fetchedBy >= 0 && size_t(x.fetchedBy) < graph.size())
      cpu[x.fetchedBy] += cost.receiveCpu(graph.item(x.data), x.to);
  return cpu;
}

std::string cmm::scheduling::verifySchedule(const TaskGraph &graph,
                                            const CostModel &cost,
                                            const Schedule &schedule,
                                            const SchedulerOptions &options) {
  if (schedule.placement.size() != graph.size())
    return "the schedule places " + describe(schedule.placement.size()) +
           " tasks, the graph has " + describe(graph.size());

  Presence presence;
  presence.fromEvents(schedule.cacheEvents);
  if (!presence.error.empty())
    return presence.error;
  std::set<std::pair<DataId, unsigned>> withEvents;
  for (const CacheEvent &e : schedule.cacheEvents)
    withEvents.insert({e.data, e.node});
  std::map<std::pair<unsigned, unsigned>,
           std::vector<std::pair<double, double>>>
      workerBusy, sendBusy, recvBusy;
  for (const Transfer &x : schedule.transfers) {
    if (x.fetchedBy < 0)
      continue;
    if (size_t(x.fetchedBy) >= graph.size())
      return "transfer of data " + describe(x.data) +
             " is fetched by a task that does not exist";
    const TaskPlacement &p = schedule.placement[x.fetchedBy];
    const Task &task = graph.task(x.fetchedBy);
    bool reads = false;
    for (size_t i = 0; i < task.inputs.size(); ++i)
      reads = reads || (task.inputs[i] == x.data && p.inputNode(i) == x.to);
    if (!reads)
      return "transfer of data " + describe(x.data) + " to node " +
             describe(x.to) + " is fetched by task " + describe(x.fetchedBy) +
             ", which does not read it there";
  }
  std::vector<double> receiveCpu = receiveCpuByTask(graph, cost, schedule);
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    const Task &task = graph.task(t);
    std::string name = "task " + describe(t) + " (" + task.name + ")";
    if (p.node >= cost.numNodes() || p.worker >= cost.workers(p.node))
      return name + " is on a worker that does not exist";
    if (task.pinnedNode >= 0 && p.node != unsigned(task.pinnedNode))
      return name + " must run on node " + describe(task.pinnedNode);
    double modelled = cost.taskTime(task, t, p.node) + receiveCpu[t];
    if (!sameTime(p.finish - p.start, modelled))
      return name + " runs " + describe(p.finish - p.start) +
             " s, the model says " + describe(modelled);
    if (task.isGang()) {
      if (p.node != task.gangNodes.front())
        return name + " is a gang task placed off its first node " +
               describe(task.gangNodes.front());
      for (unsigned n : task.gangNodes) {
        if (n >= cost.numNodes())
          return name + " names node " + describe(n) + " that does not exist";
        for (unsigned w = 0; w < cost.workers(n); ++w)
          workerBusy[{n, w}].push_back({p.start, p.finish});
      }
    } else {
      workerBusy[{p.node, p.worker}].push_back({p.start, p.finish});
    }
    for (DataId out : task.outputs)
      presence.addArrival(out, p.node, p.finish,
                          withEvents.count({out, p.node}) > 0);
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
    // Without the tile cache a received copy serves one use and has no
    // events.
    presence.addArrival(x.data, x.to, x.finish,
                        options.useTileCache &&
                            withEvents.count({x.data, x.to}) > 0);
    if (options.modelCommunicators) {
      if (x.sendComm < 0 ||
          unsigned(x.sendComm) >= cost.communicators(x.from) ||
          x.recvComm < 0 || unsigned(x.recvComm) >= cost.communicators(x.to))
        return "transfer of data " + describe(x.data) +
               " uses a communicator that does not exist";
      sendBusy[{x.from, unsigned(x.sendComm)}].push_back({x.start, x.finish});
      recvBusy[{x.to, unsigned(x.recvComm)}].push_back({x.start, x.finish});
    }
  }

  for (auto &[worker, busy] : workerBusy)
    if (std::string err = noOverlap(busy, "worker " + describe(worker.first) +
                                              "." + describe(worker.second));
        !err.empty())
      return err;
  // A communicator process both sends and receives.
  std::map<std::pair<unsigned, unsigned>,
           std::vector<std::pair<double, double>>>
      commBusy = sendBusy;
  for (auto &[comm, busy] : recvBusy)
    commBusy[comm].insert(commBusy[comm].end(), busy.begin(), busy.end());
  for (auto &[comm, busy] : commBusy)
    if (std::string err =
            noOverlap(busy, "communicator " + describe(comm.first) + "." +
                                describe(comm.second));
        !err.empty())
      return err;

  for (const Transfer &x : schedule.transfers) {
    if (!presence.heldAt(x.data, x.from, x.start))
      return "data " + describe(x.data) + " is sent from node " +
             describe(x.from) + " at t=" + describe(x.start) +
             " before it is there";
    if (options.useTileCache && presence.cachedAcross(x.data, x.to, x.start))
      return "data " + describe(x.data) + " is sent to node " + describe(x.to) +
             " while it is cached there";
  }
  for (TaskId t = 0; t < graph.size(); ++t) {
    const TaskPlacement &p = schedule.placement[t];
    const std::vector<DataId> &inputs = graph.task(t).inputs;
    if (!p.inputNodes.empty() && p.inputNodes.size() != inputs.size())
      return "task " + describe(t) + " (" + graph.task(t).name +
             ") says where " + describe(p.inputNodes.size()) + " of its " +
             describe(inputs.size()) + " inputs are";
    for (size_t i = 0; i < inputs.size(); ++i) {
      unsigned node = p.inputNode(i);
      const Task &task = graph.task(t);
      if (node != p.node &&
          std::find(task.gangNodes.begin(), task.gangNodes.end(), node) ==
              task.gangNodes.end())
        return "task " + describe(t) + " (" + task.name +
               ") reads an input on node " + describe(node) +
               " outside its gang";
      if (!presence.heldAt(inputs[i], node, p.start))
        return "task " + describe(t) + " (" + task.name +
               ") starts at t=" + describe(p.start) + " on node " +
               describe(node) + " before its input " + describe(inputs[i]) +
               " is there";
    }
  }
  return "";
}
