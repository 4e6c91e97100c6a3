//===- HEFT.cpp - Heterogeneous earliest finish time ------------*- C++ -*-===//
//
// Topcuoglu, Hariri and Wu, "Performance-effective and low-complexity task
// scheduling for heterogeneous computing", IEEE TPDS 13(3), 2002:
//   rank_u(t) = mean_w(t) + max over successors s (mean_c(t,s) + rank_u(s))
// then, in decreasing rank, each task goes to the worker where its earliest
// finish time (with insertion into idle gaps) is smallest. The tile cache and
// the communicators are the PlanBuilder's (paper section 3.5).
//
//===----------------------------------------------------------------------===//

#include "PlanBuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

using namespace cmm::scheduling;

/// How much longer (relative) a plan that completes the outputs in program
/// order may be predicted than HEFT's rank order and still be kept.
static constexpr double kOutputOrderSlack = 0.01;

std::vector<double> cmm::scheduling::upwardRanks(const TaskGraph &graph,
                                                 const CostModel &cost) {
  std::vector<double> rank(graph.size(), 0.0);
  // Ids are topological, so reverse id order visits successors first.
  for (TaskId t = graph.size(); t-- > 0;) {
    double tail = 0;
    for (DataId d : graph.task(t).outputs) {
      double comm = cost.averageTransferTime(graph.item(d), d);
      for (TaskId s : graph.item(d).consumers)
        tail = std::max(tail, comm + rank[s]);
    }
    rank[t] = cost.averageTaskTime(graph.task(t), t) + tail;
  }
  // A gather (a print's or save's result on the master) ranks just below
  // its lowest-ranked producer instead of last: list scheduling then puts it
  // right after the tile it needs, so the output is complete, and written
  // (cmmrt/Outputs.h), as early as the plan allows rather than at the end
  // (issue 18). It has no successors, so no other rank depends on it.
  for (TaskId t = 0; t < graph.size(); ++t) {
    if (graph.task(t).kind != TaskKind::Gather)
      continue;
    double below = std::numeric_limits<double>::infinity();
    for (DataId d : graph.task(t).inputs)
      below = std::min(below, rank[graph.item(d).producer]);
    if (std::isfinite(below))
      rank[t] = std::max(rank[t], std::nextafter(below, 0.0));
  }
  return rank;
}

/// The node each task's outputs are drawn to (Task::drawsInputs), through
/// its consumers, or -1. Each task's pull is split over nodes: the bytes
/// it sends each consumer times that consumer's shares. A task goes where
/// the largest share is, if one share is the largest.
/// All -1 in a graph without such tasks.
static std::vector<int> affinities(const TaskGraph &graph) {
  std::vector<int> affinity(graph.size(), -1);
  auto drawn = [](const Task &task) {
    return task.drawsInputs && task.pinnedNode >= 0;
  };
  if (std::none_of(graph.tasks().begin(), graph.tasks().end(), drawn))
    return affinity;
  std::vector<std::map<int, double>> share(graph.size());
  for (TaskId t = graph.size(); t-- > 0;) {
    const Task &task = graph.task(t);
    if (drawn(task)) {
      share[t][task.pinnedNode] = 1;
      affinity[t] = task.pinnedNode;
      continue;
    }
    std::map<int, double> &pull = share[t];
    double total = 0;
    for (DataId d : task.outputs)
      for (TaskId c : graph.item(d).consumers)
        for (auto [node, fraction] : share[c]) {
          pull[node] += graph.item(d).bytes * fraction;
          total += graph.item(d).bytes * fraction;
        }
    double most = 0;
    for (auto &[node, bytes] : pull) {
      bytes /= total;
      if (bytes > most + 1e-9) {
        most = bytes;
        affinity[t] = node;
      } else if (bytes > most - 1e-9) {
        affinity[t] = -1; // a tie
      }
    }
  }
  return affinity;
}

/// Places the tasks in `order` (topological), each on the worker where it
/// finishes first, with insertion into idle gaps. A task whose outputs are
/// drawn to a node (affinities) counts, elsewhere, the time to send them
/// there: plain HEFT does not look past the next task, and would make a
/// kept export's tiles anywhere and move them after.
static Schedule listSchedule(const TaskGraph &graph, const CostModel &cost,
                             const SchedulerOptions &options,
                             const std::vector<TaskId> &order) {
  PlanBuilder builder(graph, cost, options);
  std::vector<int> affinity = affinities(graph);
  for (TaskId t : order) {
    const Task &task = graph.task(t);
    if (task.isGang()) {
      builder.commit(t, task.gangNodes.front(), 0);
      continue;
    }
    PlanBuilder::Candidate best;
    best.finish = std::numeric_limits<double>::infinity();
    for (unsigned node = 0; node < cost.numNodes(); ++node) {
      if (task.pinnedNode >= 0 && node != unsigned(task.pinnedNode))
        continue;
      PlanBuilder::Candidate c = builder.bestOnNode(t, node);
      if (affinity[t] >= 0 && node != unsigned(affinity[t]))
        for (DataId d : task.outputs)
          c.finish +=
              cost.transferTime(graph.item(d), d, node, unsigned(affinity[t]));
      if (c.betterThan(best))
        best = c;
    }
    builder.commit(t, best.node, best.worker);
  }
  return builder.take();
}

/// The order that finishes the program's outputs in program order: tasks
/// by the first output (gather) that needs them, then by upward rank. A
/// producer needs every output its consumer needs, so the order stays
/// topological.
static std::vector<TaskId> outputsFirstOrder(const TaskGraph &graph,
                                             const std::vector<double> &rank) {
  // Gathers are made in program order, so their ids are its order.
  const TaskId none = std::numeric_limits<TaskId>::max();
  std::vector<TaskId> firstOutput(graph.size(), none);
  for (TaskId t = graph.size(); t-- > 0;) {
    if (graph.task(t).kind == TaskKind::Gather)
      firstOutput[t] = t;
    for (DataId d : graph.task(t).outputs)
      for (TaskId s : graph.item(d).consumers)
        firstOutput[t] = std::min(firstOutput[t], firstOutput[s]);
  }
  std::vector<TaskId> order(graph.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](TaskId a, TaskId b) {
    if (firstOutput[a] != firstOutput[b])
      return firstOutput[a] < firstOutput[b];
    return rank[a] > rank[b];
  });
  return order;
}

Schedule cmm::scheduling::scheduleHEFT(const TaskGraph &graph,
                                       const CostModel &cost,
                                       const SchedulerOptions &options) {
  std::vector<double> rank = upwardRanks(graph, cost);
  std::vector<TaskId> order(graph.size());
  std::iota(order.begin(), order.end(), 0);
  // Decreasing rank; ties in id order, which is topological, so a task never
  // precedes its producer even when costs are zero.
  std::stable_sort(order.begin(), order.end(),
                   [&](TaskId a, TaskId b) { return rank[a] > rank[b]; });
  Schedule fastest = listSchedule(graph, cost, options, order);
  // Rank order may leave an early print's work for the end of the run, and
  // a compiled program writes each output as soon as it is complete
  // (cmmrt/Outputs.h): a job stopped early keeps them. The order that
  // completes outputs in program order is kept unless it is predicted
  // slower than kOutputOrderSlack (on one worker it never is).
  std::vector<TaskId> streaming = outputsFirstOrder(graph, rank);
  if (streaming == order)
    return fastest;
  Schedule inOrder = listSchedule(graph, cost, options, streaming);
  return inOrder.makespan <= fastest.makespan * (1 + kOutputOrderSlack)
             ? inOrder
             : fastest;
}

Schedule cmm::scheduling::scheduleRoundRobin(const TaskGraph &graph,
                                             const CostModel &cost,
                                             const SchedulerOptions &options) {
  PlanBuilder builder(graph, cost, options);
  unsigned total = cost.totalWorkers();
  unsigned next = 0;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const Task &task = graph.task(t);
    if (task.isGang()) {
      builder.commit(t, task.gangNodes.front(), 0);
      continue;
    }
    if (task.pinnedNode >= 0) {
      PlanBuilder::Candidate c = builder.bestOnNode(t, task.pinnedNode);
      builder.commit(t, c.node, c.worker);
      continue;
    }
    // The next worker in turn, counting across nodes.
    unsigned index = next++ % total, node = 0;
    while (index >= cost.workers(node))
      index -= cost.workers(node++);
    builder.commit(t, node, index);
  }
  return builder.take();
}
