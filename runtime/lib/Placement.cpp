//===- Placement.cpp - Where a run's ranks landed, against the plan -------===//

#include "cmmrt/Placement.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <map>

using namespace cmmrt;
using namespace cmmrt::plan;

RankHost cmmrt::thisRankHost() {
  RankHost out;
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  out.host = name;
  // The host's cores as its launcher sees them: the parent's affinity mask
  // (orted, slurmstepd, a shell) carries a cpuset, a Slurm allocation or an
  // emulated host's taskset, but not the binding mpirun gives the rank
  // itself (--bind-to core), which would make a 2-core host look like one.
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  out.cores = online > 0 ? unsigned(online) : 1;
  cpu_set_t allowed;
  for (pid_t pid : {getppid(), pid_t(0)}) {
    CPU_ZERO(&allowed);
    if (sched_getaffinity(pid, sizeof allowed, &allowed) == 0 &&
        CPU_COUNT(&allowed) > 0) {
      out.cores = unsigned(CPU_COUNT(&allowed));
      break;
    }
  }
  return out;
}

std::vector<unsigned> cmmrt::plannedCores(const Plan &plan) {
  std::vector<bool> busy(plan.nodes, false);
  for (int32_t t = 0; t < plan.numTasks; ++t) {
    const Task &task = plan.tasks[t];
    if (task.kind != TaskKind::DistributedGemm) {
      if (task.node >= 0 && task.node < plan.nodes)
        busy[task.node] = true;
      continue;
    }
    if (task.numGangNodes == 0) // every node
      std::fill(busy.begin(), busy.end(), true);
    for (int32_t g = 0; g < task.numGangNodes; ++g) {
      int32_t node = plan.gangNodes[task.firstGangNode + g];
      if (node >= 0 && node < plan.nodes)
        busy[node] = true;
    }
  }
  std::vector<unsigned> out(plan.nodes, 0);
  for (int32_t n = 0; n < plan.nodes; ++n)
    if (busy[n])
      out[n] =
          unsigned(std::max(1, plan.workers[n]) * std::max(1, plan.threads[n]));
  return out;
}

std::vector<CrowdedHost>
cmmrt::crowdedHosts(const std::vector<RankHost> &hosts,
                    const std::vector<unsigned> &planned) {
  std::vector<CrowdedHost> out;
  std::map<std::string, size_t> index;
  for (size_t r = 0; r < hosts.size(); ++r) {
    auto [it, fresh] = index.try_emplace(hosts[r].host, out.size());
    if (fresh)
      out.push_back({hosts[r].host, hosts[r].cores, 0, {}});
    CrowdedHost &h = out[it->second];
    h.cores = std::max(h.cores, hosts[r].cores);
    h.plannedCores += r < planned.size() ? planned[r] : 0;
    h.ranks.push_back(int(r));
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const CrowdedHost &h) {
                             return h.ranks.size() < 2 ||
                                    h.plannedCores <= h.cores;
                           }),
            out.end());
  return out;
}

std::string cmmrt::describePlacement(const std::vector<RankHost> &hosts) {
  std::string out;
  for (size_t r = 0; r < hosts.size(); ++r)
    out +=
        (r ? ", rank " : "rank ") + std::to_string(r) + " on " + hosts[r].host;
  return out;
}

std::string cmmrt::describeCrowding(const std::vector<CrowdedHost> &crowded) {
  std::string out;
  for (const CrowdedHost &h : crowded) {
    std::string ranks;
    for (size_t i = 0; i < h.ranks.size(); ++i)
      ranks += (i == 0                    ? ""
                : i + 1 == h.ranks.size() ? " and "
                                          : ", ") +
               std::to_string(h.ranks[i]);
    out += (out.empty() ? "" : "; ") + std::string("ranks ") + ranks +
           " share host " + h.host + " (" + std::to_string(h.cores) +
           " cores), but the plan runs them as separate nodes needing " +
           std::to_string(h.plannedCores) + " cores";
  }
  return out;
}

std::vector<int> cmmrt::taskCoresOf(const std::vector<int> &threads, int rank,
                                    const std::vector<int> &hostRanks,
                                    const std::vector<int> &allowed) {
  auto threadsOf = [&](int r) {
    return r >= 0 && size_t(r) < threads.size() ? threads[size_t(r)] : 0;
  };
  if (threadsOf(rank) <= 1)
    return {};
  size_t first = 0, total = 0;
  for (int r : hostRanks) {
    if (threadsOf(r) <= 1)
      continue;
    if (r < rank)
      first += size_t(threadsOf(r));
    total += size_t(threadsOf(r));
  }
  if (total > allowed.size())
    return {};
  return {allowed.begin() + long(first),
          allowed.begin() + long(first + size_t(threadsOf(rank)))};
}

std::vector<int> cmmrt::allowedCores() {
  std::vector<int> cores;
  cpu_set_t own;
  if (sched_getaffinity(0, sizeof own, &own) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &own))
        cores.push_back(c);
  return cores;
}
