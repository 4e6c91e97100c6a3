//===- Simulator.cpp - Discrete-event replay of a plan ----------*- C++ -*-===//

#include "cmm/Scheduling/Simulator.h"
#include "cmm/Scheduling/MemoryTimeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

using namespace cmm::scheduling;

namespace {
/// Orders a resource's events by planned start and chains them. Zero-length
/// events occupy no resource (as in the planner's timelines, which do not
/// reserve them), so they stay out of the order.
void chain(std::vector<std::pair<double, size_t>> events,
           std::vector<std::vector<size_t>> &deps,
           const std::vector<double> &plannedFinish) {
  llvm::erase_if(events, [&](const std::pair<double, size_t> &e) {
    return plannedFinish[e.second] <= e.first;
  });
  std::stable_sort(events.begin(), events.end(),
                   [](auto &a, auto &b) { return a.first < b.first; });
  for (size_t i = 1; i < events.size(); ++i)
    deps[events[i].second].push_back(events[i - 1].second);
}
} // namespace

/// A send to another host costs the sending node CPU while it is on the
/// wire (its kernel's TCP stack, NodeSpec::sendCpu); on a node without a
/// spare core for its communicator that CPU is taken from whatever the
/// workers run meanwhile. Each send's CPU is spread evenly over its planned
/// time on the wire, and every task of the sending node that overlaps it
/// runs longer by its share of the overlap (divided among the node's
/// workers); the part that falls where the node is idle costs nothing.
/// Measured on the emulated cluster (2026-11-27, docs/cluster.md): a rank
/// that sent 128 MB spent 1.4 s in the kernel, mostly while its worker
/// waited for tiles. Gang tasks do their own communication and are not
/// charged.
static void chargeSendCpu(const TaskGraph &graph, const CostModel &cost,
                          const Schedule &plan, std::vector<double> &duration) {
  bool any = false;
  for (const Transfer &x : plan.transfers)
    any = any || cost.sendCpu(graph.item(x.data), x.from) > 0;
  if (!any)
    return;
  // Per node, its tasks by planned start: (start, finish, task).
  std::vector<std::vector<std::tuple<double, double, TaskId>>> byNode(
      cost.numNodes());
  for (TaskId t = 0; t < graph.size(); ++t)
    if (!graph.task(t).isGang())
      byNode[plan.placement[t].node].push_back(
          {plan.placement[t].start, plan.placement[t].finish, t});
  for (auto &tasks : byNode)
    std::sort(tasks.begin(), tasks.end());
  for (const Transfer &x : plan.transfers) {
    double cpu = cost.sendCpu(graph.item(x.data), x.from);
    double wire = x.finish - x.start;
    const auto &tasks = byNode[x.from];
    if (cpu <= 0 || wire <= 0 || tasks.empty())
      continue;
    double perSecond = cpu / wire / cost.workers(x.from);
    auto overlap = [&](const std::tuple<double, double, TaskId> &e) {
      double from = std::max(std::get<0>(e), x.start);
      double to = std::min(std::get<1>(e), x.finish);
      if (to > from)
        duration[std::get<2>(e)] += (to - from) * perSecond;
    };
    // The tasks started before the send that may still run (a node runs
    // at most one per worker at a time), then those started during it.
    auto first = llvm::partition_point(
        tasks, [&](const auto &e) { return std::get<0>(e) < x.start; });
    auto back = first;
    for (unsigned look = 0; back != tasks.begin() && look < cost.workers(x.from);
         ++look)
      overlap(*--back);
    for (auto it = first; it != tasks.end() && std::get<0>(*it) < x.finish;
         ++it)
      overlap(*it);
  }
}

SimulationReport cmm::scheduling::simulate(const TaskGraph &graph,
                                           const CostModel &cost,
                                           const Schedule &plan) {
  size_t numTasks = graph.size(), numEvents = numTasks + plan.transfers.size();
  std::vector<std::vector<size_t>> deps(numEvents);

  // Resource orders.
  std::map<std::pair<unsigned, unsigned>,
           std::vector<std::pair<double, size_t>>>
      byWorker, byComm;
  for (TaskId t = 0; t < numTasks; ++t) {
    const Task &task = graph.task(t);
    if (task.isGang()) {
      for (unsigned n : task.gangNodes)
        for (unsigned w = 0; w < cost.workers(n); ++w)
          byWorker[{n, w}].push_back({plan.placement[t].start, t});
    } else {
      byWorker[{plan.placement[t].node, plan.placement[t].worker}].push_back(
          {plan.placement[t].start, t});
    }
  }
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer &x = plan.transfers[i];
    if (x.sendComm >= 0) {
      byComm[{x.from, unsigned(x.sendComm)}].push_back({x.start, numTasks + i});
      byComm[{x.to, unsigned(x.recvComm)}].push_back({x.start, numTasks + i});
    }
  }
  std::vector<double> plannedFinish(numEvents);
  for (TaskId t = 0; t < numTasks; ++t)
    plannedFinish[t] = plan.placement[t].finish;
  for (size_t i = 0; i < plan.transfers.size(); ++i)
    plannedFinish[numTasks + i] = plan.transfers[i].finish;
  for (auto &[r, events] : byWorker)
    chain(events, deps, plannedFinish);
  for (auto &[r, events] : byComm)
    chain(events, deps, plannedFinish);

  // Data: where a copy on a node came from (the producer or a transfer), by
  // planned arrival; a use depends on the latest copy planned before it.
  std::map<std::pair<DataId, unsigned>, std::vector<std::pair<double, size_t>>>
      copies;
  for (TaskId t = 0; t < numTasks; ++t)
    for (DataId d : graph.task(t).outputs)
      copies[{d, plan.placement[t].node}].push_back(
          {plan.placement[t].finish, t});
  for (size_t i = 0; i < plan.transfers.size(); ++i)
    copies[{plan.transfers[i].data, plan.transfers[i].to}].push_back(
        {plan.transfers[i].finish, numTasks + i});
  for (auto &[key, list] : copies)
    std::sort(list.begin(), list.end());
  // A use reads the earliest copy that arrived before it and was not
  // evicted in between (without the tile cache, copies are never evicted and
  // each consumer's own transfer may arrive later than another's).
  std::map<std::pair<DataId, unsigned>, std::vector<double>> evictions;
  for (const CacheEvent &e : plan.cacheEvents)
    if (e.kind == CacheEvent::Evict)
      evictions[{e.data, e.node}].push_back(e.time);
  auto source = [&](DataId d, unsigned node, double when) -> long {
    auto it = copies.find({d, node});
    if (it == copies.end())
      return -1;
    auto ev = evictions.find({d, node});
    for (auto &[arrived, event] : it->second) {
      if (arrived > when + 1e-9)
        break;
      bool gone = false;
      if (ev != evictions.end())
        for (double e : ev->second)
          gone = gone || (e > arrived + 1e-9 && e < when - 1e-9);
      if (!gone)
        return long(event);
    }
    return -1;
  };
  for (TaskId t = 0; t < numTasks; ++t) {
    const std::vector<DataId> &inputs = graph.task(t).inputs;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (long s = source(inputs[i], plan.placement[t].inputNode(i),
                          plan.placement[t].start);
          s >= 0)
        deps[t].push_back(size_t(s));
  }
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer &x = plan.transfers[i];
    if (long s = source(x.data, x.from, x.start); s >= 0)
      deps[numTasks + i].push_back(size_t(s));
  }

  // Kahn's algorithm; durations from `cost`. Resource orders and data
  // sources are taken from the plan's times, so zero-duration events at one
  // instant can form a cycle; when no event is ready, the one planned first
  // goes (such ties take no time, so this changes no result). No event is
  // ever dropped.
  std::vector<std::vector<size_t>> users(numEvents);
  for (size_t e = 0; e < numEvents; ++e)
    for (size_t d : deps[e])
      users[d].push_back(e);
  auto plannedStart = [&](size_t e) {
    return e < numTasks ? plan.placement[e].start
                        : plan.transfers[e - numTasks].start;
  };
  // Each event's duration from `cost`, asked once for both replays.
  std::vector<double> duration(numEvents);
  std::vector<double> receiveCpu = receiveCpuByTask(graph, cost, plan);
  for (TaskId t = 0; t < numTasks; ++t)
    duration[t] =
        cost.taskTime(graph.task(t), t, plan.placement[t].node) + receiveCpu[t];
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer &x = plan.transfers[i];
    duration[numTasks + i] =
        cost.transferTime(graph.item(x.data), x.data, x.from, x.to);
  }
  chargeSendCpu(graph, cost, plan, duration);
  // One replay with `extra` seconds added to each event (first touch).
  SimulationReport report;
  auto replay = [&](const std::vector<double> &extra) {
    report.replayed = plan;
    report.makespan = 0;
    std::vector<double> start(numEvents, 0), finish(numEvents, 0);
    std::vector<bool> done(numEvents, false);
    std::vector<size_t> pending(numEvents), ready;
    for (size_t e = 0; e < numEvents; ++e)
      if (!(pending[e] = deps[e].size()))
        ready.push_back(e);
    for (size_t processed = 0; processed < numEvents; ++processed) {
      size_t e;
      if (!ready.empty()) {
        e = ready.back();
        ready.pop_back();
      } else {
        e = numEvents;
        for (size_t c = 0; c < numEvents; ++c)
          if (!done[c] && (e == numEvents || plannedStart(c) < plannedStart(e)))
            e = c;
      }
      done[e] = true;
      for (size_t d : deps[e])
        if (done[d])
          start[e] = std::max(start[e], finish[d]);
      finish[e] = start[e] + duration[e] + extra[e];
      if (e < numTasks) {
        report.replayed.placement[e].start = start[e];
        report.replayed.placement[e].finish = finish[e];
      } else {
        Transfer &x = report.replayed.transfers[e - numTasks];
        x.start = start[e];
        x.finish = finish[e];
      }
      report.makespan = std::max(report.makespan, finish[e]);
      for (size_t u : users[e])
        if (--pending[u] == 0 && !done[u])
          ready.push_back(u);
    }
  };
  // First touch: the pages a node writes above its previous peak of live
  // tiles (MemoryTimeline.h) cost their faults. Where they fall depends on
  // the times, so the plan is replayed once without them to find which
  // tasks and transfers write fresh pages, and again with their cost. The
  // pool populates a task's fresh result of at least two huge pages on all
  // of its task threads (cmmrt::populateFreshPages), so they take its faults
  // in parallel; smaller ones fault on one, and a communicator receives on
  // one.
  std::vector<double> extra(numEvents, 0.0);
  replay(extra);
  std::vector<double> hugePages(cost.numNodes());
  for (unsigned n = 0; n < cost.numNodes(); ++n)
    hugePages[n] = cost.hugePageBytes(n);
  MemoryTimeline memory =
      memoryTimeline(graph, report.replayed, cost.numNodes(), hugePages);
  double touch = 0;
  for (TaskId t = 0; t < numTasks; ++t) {
    unsigned node = graph.task(t).isGang() ? graph.task(t).gangNodes.front()
                                           : plan.placement[t].node;
    double banded = memory.bandedTaskBytes[t];
    extra[t] = (memory.freshTaskBytes[t] - banded +
                banded / std::max(1u, cost.taskThreads(node))) *
               cost.firstTouch(node);
    touch += extra[t];
  }
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const Transfer &x = plan.transfers[i];
    extra[numTasks + i] = memory.freshTransferBytes[i] * cost.firstTouch(x.to);
    touch += extra[numTasks + i];
    // The receiving communicator faults those pages in; on a node without a
    // spare core that is the fetching task's worker's time too.
    if (x.fetchedBy >= 0 && cost.receivesOnWorkerCores(x.to))
      extra[x.fetchedBy] += extra[numTasks + i];
  }
  if (touch > 0) {
    replay(extra);
    memory = memoryTimeline(graph, report.replayed, cost.numNodes(), hugePages);
  }
  report.firstTouchSeconds = touch;
  for (TaskId t = 0; t < numTasks; ++t)
    report.replayed.placement[t].firstTouch = extra[t];
  for (size_t i = 0; i < plan.transfers.size(); ++i)
    report.replayed.transfers[i].firstTouch = extra[numTasks + i];
  report.peakBytes = std::move(memory.peakBytes);

  report.workerBusy.resize(cost.numNodes());
  report.commBusy.resize(cost.numNodes());
  for (unsigned n = 0; n < cost.numNodes(); ++n) {
    report.workerBusy[n].assign(cost.workers(n), 0.0);
    report.commBusy[n].assign(std::max(1u, cost.communicators(n)), 0.0);
  }
  for (TaskId t = 0; t < numTasks; ++t) {
    const TaskPlacement &p = report.replayed.placement[t];
    const Task &task = graph.task(t);
    if (task.isGang()) {
      for (unsigned n : task.gangNodes)
        for (double &busy : report.workerBusy[n])
          busy += p.finish - p.start;
    } else {
      report.workerBusy[p.node][p.worker] += p.finish - p.start;
    }
  }
  for (const Transfer &x : report.replayed.transfers)
    if (x.sendComm >= 0) {
      report.commBusy[x.from][x.sendComm] += x.finish - x.start;
      report.commBusy[x.to][x.recvComm] += x.finish - x.start;
    }
  report.replayed.makespan = report.makespan;
  return report;
}

/// Bounds::weightedWork: tasks grouped by their time on each node (one
/// row per distinct vector, with a count), node weights improved by a
/// coordinate search over multiplicative steps. Gang tasks hold every
/// worker of their nodes: their time counts whole (`gangTime`). Nodes
/// alike in workers and in every row share one weight: the value is a
/// concave function over a linear one, so averaging the weights of such
/// nodes loses nothing, and the search runs over these classes (two in the
/// shipped models, whatever the node count) instead of over nodes.
static double
weightedWorkBound(const std::map<std::vector<double>, double> &rows,
                  const std::vector<double> &workers, double gangTime,
                  std::vector<double> &y) {
  const size_t nodes = workers.size();
  std::map<std::pair<double, std::vector<double>>, size_t> classes;
  std::vector<size_t> classOf(nodes), firstNode;
  std::vector<double> classWorkers;
  for (size_t n = 0; n < nodes; ++n) {
    std::vector<double> column;
    column.reserve(rows.size());
    for (const auto &row : rows)
      column.push_back(row.first[n]);
    auto [it, added] =
        classes.try_emplace({workers[n], std::move(column)}, firstNode.size());
    if (added) {
      firstNode.push_back(n);
      classWorkers.push_back(0);
    }
    classOf[n] = it->second;
    classWorkers[it->second] += workers[n];
  }
  const size_t numClasses = firstNode.size();
  auto value = [&](const std::vector<double> &weight) {
    double capacity = 0, load = 0;
    for (size_t c = 0; c < numClasses; ++c)
      capacity += weight[c] * classWorkers[c];
    if (capacity <= 0)
      return 0.0;
    for (const auto &[times, count] : rows) {
      double best = std::numeric_limits<double>::infinity();
      for (size_t c = 0; c < numClasses; ++c)
        if (double t = times[firstNode[c]];
            t < std::numeric_limits<double>::infinity()) // pinned
          best = std::min(best, weight[c] * t);
      load += count * best;
    }
    return load / capacity + gangTime;
  };
  std::vector<double> weight(numClasses, 1.0);
  double best = value(weight);
  const double steps[] = {0.0, 0.25, 0.5, 0.8, 0.9, 1.1, 1.25, 2.0, 4.0};
  for (int round = 0; round < 20; ++round) {
    bool improved = false;
    for (size_t c = 0; c < numClasses; ++c) {
      double keep = weight[c];
      for (double step : steps) {
        weight[c] = keep * step;
        if (double v = value(weight); v > best * (1 + 1e-12)) {
          best = v;
          keep = weight[c];
          improved = true;
        }
      }
      weight[c] = keep;
    }
    if (!improved)
      break;
  }
  y.resize(nodes);
  for (size_t n = 0; n < nodes; ++n)
    y[n] = weight[classOf[n]];
  return best;
}

/// Bounds::precedenceWork, both ways (work before a task, work after it).
/// `share[t]` is task t's part of the work term
/// (its weighted time over the weighted capacity), `fastest[t]` its time on
/// the fastest node. Ancestor sets are bitsets, so graphs above
/// `kPrecedenceLimit` tasks are skipped (0: no bound). `floor` is a bound
/// already known: tasks that cannot beat it are not summed, and the result
/// is at least it.
static constexpr size_t kPrecedenceLimit = 8192;
static double precedenceWorkBound(const TaskGraph &graph,
                                  const std::vector<double> &share,
                                  const std::vector<double> &fastest,
                                  double floor) {
  const size_t n = graph.size(), words = (n + 63) / 64;
  if (n == 0 || n > kPrecedenceLimit)
    return 0;
  // tail[t]: the longest path from t's start to the end (t included).
  std::vector<double> tail(n, 0.0);
  for (TaskId t = n; t-- > 0;) {
    double after = 0;
    for (DataId d : graph.task(t).outputs)
      for (TaskId c : graph.item(d).consumers)
        after = std::max(after, tail[c]);
    tail[t] = after + fastest[t];
  }
  std::vector<uint64_t> ancestors(n * words, 0);
  double best = floor, earlier = 0; // earlier: the shares of tasks 0..t-1
  for (TaskId t = 0; t < n; earlier += share[t++]) {
    uint64_t *row = &ancestors[t * words];
    for (TaskId p : graph.predecessors(t)) {
      const uint64_t *from = &ancestors[p * words];
      for (size_t w = 0; w < words; ++w)
        row[w] |= from[w];
      row[p / 64] |= uint64_t(1) << (p % 64);
    }
    // Ids are topological: ancestors have smaller ids, so when all earlier
    // tasks together cannot beat the best, t's ancestors cannot either.
    if (earlier + tail[t] <= best)
      continue;
    double before = 0;
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = row[w]; bits; bits &= bits - 1)
        before += share[w * 64 + llvm::countr_zero(bits)];
    best = std::max(best, before + tail[t]);
  }
  // The mirror image: once t finishes, all its descendants still have to
  // run (their share of the work), after the longest path up to t's end.
  std::vector<double> head(n, 0.0); // longest path from the start to t's end
  for (TaskId t = 0; t < n; ++t) {
    double before = 0;
    for (TaskId p : graph.predecessors(t))
      before = std::max(before, head[p]);
    head[t] = before + fastest[t];
  }
  std::vector<uint64_t> &descendants = ancestors;
  std::fill(descendants.begin(), descendants.end(), 0);
  double later = 0; // the shares of tasks t+1..n-1
  for (TaskId t = n; t-- > 0; later += share[t]) {
    uint64_t *row = &descendants[t * words];
    for (DataId d : graph.task(t).outputs)
      for (TaskId c : graph.item(d).consumers) {
        const uint64_t *from = &descendants[c * words];
        for (size_t w = 0; w < words; ++w)
          row[w] |= from[w];
        row[c / 64] |= uint64_t(1) << (c % 64);
      }
    if (head[t] + later <= best)
      continue;
    double after = 0;
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = row[w]; bits; bits &= bits - 1)
        after += share[w * 64 + llvm::countr_zero(bits)];
    best = std::max(best, head[t] + after);
  }
  return best;
}

Bounds cmm::scheduling::lowerBounds(const TaskGraph &graph,
                                    const CostModel &cost) {
  Bounds b;
  std::vector<double> fastest(graph.size()), longest(graph.size(), 0);
  std::vector<double> pinned(cost.numNodes(), 0.0);
  double work = 0, gangTime = 0;
  const double never = std::numeric_limits<double>::infinity();
  std::map<std::vector<double>, double> rows; // time per node -> tasks
  std::vector<double> times(cost.numNodes());
  for (TaskId t = 0; t < graph.size(); ++t) {
    double best = never;
    int pin = graph.task(t).pinnedNode;
    for (unsigned n = 0; n < cost.numNodes(); ++n) {
      times[n] = pin < 0 || unsigned(pin) == n
                     ? cost.taskTime(graph.task(t), t, n)
                     : never;
      best = std::min(best, times[n]);
    }
    if (graph.task(t).isGang())
      gangTime += best;
    else
      rows[times] += 1.0;
    if (pin >= 0 && unsigned(pin) < cost.numNodes())
      pinned[pin] += best;
    fastest[t] = best;
    // A gang task keeps every worker of its nodes busy.
    double holds = 0;
    for (unsigned n : graph.task(t).gangNodes)
      holds += cost.workers(n);
    work += best * std::max(1.0, holds);
    double before = 0;
    for (TaskId p : graph.predecessors(t))
      before = std::max(before, longest[p]);
    longest[t] = before + best;
    b.criticalPath = std::max(b.criticalPath, longest[t]);
  }
  b.workPerWorker = work / std::max(1u, cost.totalWorkers());
  std::vector<double> workers(cost.numNodes());
  for (unsigned n = 0; n < cost.numNodes(); ++n)
    workers[n] = cost.workers(n);
  // The weighted term counts a gang as holding every node, a lower bound
  // only when it does; with a gang over some nodes (bestGang leaves slow
  // ones out) fall back to the plain term.
  bool allGangsWhole = true;
  for (const Task &task : graph.tasks())
    allGangsWhole &= !task.isGang() || task.gangNodes.size() == cost.numNodes();
  std::vector<double> y(cost.numNodes(), 1.0);
  b.weightedWork = allGangsWhole ? weightedWorkBound(rows, workers, gangTime, y)
                                 : b.workPerWorker;
  if (!allGangsWhole)
    y.assign(cost.numNodes(), 1.0);
  // Each task's part of the work term under the weights y (the plain term
  // when y = 1): the work that must precede a task is a sum of these.
  double capacity = 0;
  for (unsigned n = 0; n < cost.numNodes(); ++n)
    capacity += y[n] * workers[n];
  std::vector<double> share(graph.size(), 0.0);
  for (TaskId t = 0; t < graph.size() && capacity > 0; ++t) {
    if (graph.task(t).isGang()) {
      share[t] = fastest[t]; // holds every worker
      continue;
    }
    double least = never;
    int pin = graph.task(t).pinnedNode;
    for (unsigned n = 0; n < cost.numNodes(); ++n)
      if (pin < 0 || unsigned(pin) == n)
        least = std::min(least, y[n] * cost.taskTime(graph.task(t), t, n));
    share[t] = least / capacity;
  }
  b.precedenceWork = precedenceWorkBound(
      graph, share, fastest,
      std::max({b.criticalPath, b.workPerWorker, b.weightedWork}));
  // Pinned work with heads and tails (the one-machine bound of scheduling
  // theory, per node): for any h and q, the pinned tasks of node n that
  // cannot start before h (their head: the longest path before them) and
  // are followed by at least q (their tail: the longest path after them)
  // all run after h, taking their work / the node's workers, and at least q
  // remains after the last of them. Every head of the node is tried as h,
  // and with up to 256 pinned tasks every tail as q (else the smallest).
  std::vector<double> tailAfter(graph.size(), 0.0);
  for (TaskId t = graph.size(); t-- > 0;)
    for (DataId d : graph.task(t).outputs)
      for (TaskId c : graph.item(d).consumers)
        tailAfter[t] = std::max(tailAfter[t], fastest[c] + tailAfter[c]);
  std::vector<std::vector<TaskId>> pinnedTasks(cost.numNodes());
  for (TaskId t = 0; t < graph.size(); ++t)
    if (int pin = graph.task(t).pinnedNode;
        pin >= 0 && unsigned(pin) < cost.numNodes())
      pinnedTasks[pin].push_back(t);
  for (unsigned n = 0; n < cost.numNodes(); ++n) {
    std::vector<TaskId> &tasks = pinnedTasks[n];
    const double nodeWorkers = std::max(1u, cost.workers(n));
    auto head = [&](TaskId t) { return longest[t] - fastest[t]; };
    std::sort(tasks.begin(), tasks.end(),
              [&](TaskId a, TaskId c) { return head(a) > head(c); });
    double after = 0, shortestTail = never;
    std::vector<std::pair<double, double>> released; // (tail, time)
    for (TaskId t : tasks) { // latest heads first: growing sets
      after += fastest[t];
      shortestTail = std::min(shortestTail, tailAfter[t]);
      b.pinnedWork =
          std::max(b.pinnedWork, head(t) + after / nodeWorkers + shortestTail);
      if (tasks.size() > 256)
        continue;
      released.push_back({tailAfter[t], fastest[t]});
      std::vector<std::pair<double, double>> byTail = released;
      std::sort(byTail.begin(), byTail.end(), std::greater<>());
      double work = 0;
      for (const auto &[tail, time] : byTail) { // longest tails first
        work += time;
        b.pinnedWork =
            std::max(b.pinnedWork, head(t) + work / nodeWorkers + tail);
      }
    }
  }
  return b;
}
