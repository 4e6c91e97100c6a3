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
#include <limits>
#include <numeric>

using namespace cmm::scheduling;

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
  return rank;
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

  PlanBuilder builder(graph, cost, options);
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
      if (c.betterThan(best))
        best = c;
    }
    builder.commit(t, best.node, best.worker);
  }
  return builder.take();
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
