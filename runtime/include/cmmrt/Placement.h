//===- Placement.h - Where a run's ranks landed, against the plan -*- C++
//-*-===//
//
// A plan for N nodes assumes each rank has the cores its node was given
// (workers x BLAS threads). mpirun without a mapping policy packs ranks onto
// the first host of a hostfile, so a "2-node" plan can run on one host with
// half the cores it was planned for (issue 16). At start-up every rank
// reports its host; the hosts whose ranks together need more cores than the
// host has are reported by name (a warning, or an error with
// --strict-placement).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_PLACEMENT_H
#define CMMRT_PLACEMENT_H

#include "cmmrt/Plan.h"

#include <string>
#include <vector>

namespace cmmrt {

/// One rank's host: its name and the cores the rank may run on there.
struct RankHost {
  std::string host;
  unsigned cores = 1;
};

/// This process's host: gethostname and the cores in its parent's affinity
/// mask (a cpuset, Slurm's allocation, taskset), not counting a binding of
/// the rank itself; the cores online when no mask can be read.
RankHost thisRankHost();

/// A host whose ranks need more cores than it has.
struct CrowdedHost {
  std::string host;
  unsigned cores = 0;        // the host's, as its ranks see them
  unsigned plannedCores = 0; // the plan's total for the ranks there
  std::vector<int> ranks;
};

/// The cores the plan gives each node: workers x threads per worker where
/// the node has a task (its own or a share of a gang's), 0 where the plan
/// leaves it idle.
std::vector<unsigned> plannedCores(const plan::Plan &plan);

/// The hosts (in order of their first rank) where two or more ranks need
/// more cores together than the host has. `hosts[r]` is rank r's host.
std::vector<CrowdedHost> crowdedHosts(const std::vector<RankHost> &hosts,
                                      const std::vector<unsigned> &planned);

/// The cores the calling thread may run on, in order (its affinity mask;
/// empty if it cannot be read).
std::vector<int> allowedCores();
/// The cores of `rank`'s task threads (RowBands.h, setTaskCores), where
/// `threads[r]` is rank r's task threads (taskThreadsOf; 0 for a rank the
/// plan leaves idle), `hostRanks` the ranks on its host and `allowed` the
/// cores the rank may use, in order: the host's ranks of more than one
/// task thread each take that many of `allowed`, in rank order, when
/// together they fit; otherwise none (the scheduler places the threads).
/// A rank of one task thread gets none.
std::vector<int> taskCoresOf(const std::vector<int> &threads, int rank,
                             const std::vector<int> &hostRanks,
                             const std::vector<int> &allowed);
/// "rank 0 on a, rank 1 on b": the start-up report of --stats.
std::string describePlacement(const std::vector<RankHost> &hosts);

/// The warning (or error) text for `crowded`, one sentence per host.
std::string describeCrowding(const std::vector<CrowdedHost> &crowded);

} // namespace cmmrt

#endif // CMMRT_PLACEMENT_H
