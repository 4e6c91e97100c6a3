//===- Planner.cpp - Tile-size sweep, scheduling and simulation -*- C++ -*-===//

#include "cmm/Planning/Planner.h"

#include "cmm/Conversion/CmmToTaskGraph/Tiling.h"
#include "cmm/Scheduling/GangGemm.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <thread>
#include <tuple>

using namespace cmm::scheduling;
using namespace cmm::tiling;
using namespace cmm::planning;

llvm::cl::ValuesClass cmm::planning::schedulerKindValues() {
  return llvm::cl::values(
      clEnumValN(SchedulerKind::HEFT, "heft",
                 "HEFT with the tile cache (Topcuoglu et al. 2002)"),
      clEnumValN(SchedulerKind::RoundRobin, "roundrobin",
                 "tasks in topological order on workers in turn"));
}

llvm::cl::ValuesClass cmm::planning::dynamicTilingValues() {
  return llvm::cl::values(
      clEnumValN(DynamicTiling::Auto, "auto",
                 "schedule both variants, keep the better"),
      clEnumValN(DynamicTiling::Off, "off", "never"),
      clEnumValN(DynamicTiling::Always, "always",
                 "only the dynamic variant where it applies"));
}

llvm::cl::ValuesClass cmm::planning::gemmChoiceValues() {
  return llvm::cl::values(
      clEnumValN(GemmChoice::Auto, "auto",
                 "COSMA where the model predicts it faster"),
      clEnumValN(GemmChoice::Tiled, "tiled", "gemm-accumulate tasks on tiles"),
      clEnumValN(GemmChoice::Cosma, "cosma",
                 "every product one COSMA gang task on all nodes"));
}

llvm::cl::ValuesClass cmm::planning::configureValues() {
  return llvm::cl::values(
      clEnumValN(Configure::File, "file", "as the machine model gives them"),
      clEnumValN(Configure::Auto, "auto",
                 "chosen by simulating each split of a node's cores between "
                 "workers and communicators"));
}

std::string cmm::planning::describeConfiguration(const NodeSpec &node) {
  return llvm::formatv("{0} worker{1} x {2} thread{3} + {4} communicator{5}",
                       node.workers, node.workers == 1 ? "" : "s",
                       node.threadsPerWorker,
                       node.threadsPerWorker == 1 ? "" : "s",
                       node.communicators, node.communicators == 1 ? "" : "s")
      .str();
}

/// A load that costs nothing and is placed freely (the import of a
/// loop-invariant value, which is already where it is read from the first
/// trip on) can run anywhere at once, so HEFT puts it on any idle worker,
/// and its reader then pulls the tile across (the first trip moved P on
/// tiles HEFT had put on other nodes than their products). Each is pinned
/// to the node of its first reader and the graph scheduled again; the plan
/// is kept if it is not slower by more than kFreeLoadSlack: the steady
/// state's makespan does not count the first trip, in which the other plan
/// moves those tiles.
static constexpr double kFreeLoadSlack = 0.01;
static void placeFreeLoadsAtReaders(PlanCandidate &c, const CostModel &cost,
                                    const PlanOptions &options) {
  std::vector<std::pair<TaskId, unsigned>> pins; // load, its reader's node
  bool moved = false;
  for (TaskId t = 0; t < c.graph.size(); ++t) {
    const Task &task = c.graph.task(t);
    if (task.kind != TaskKind::Load || task.pinnedNode >= 0 || task.m != 0 ||
        task.outputs.size() != 1)
      continue;
    const DataItem &tile = c.graph.item(task.outputs[0]);
    TaskId first = t;
    for (TaskId reader : tile.consumers)
      if (first == t || c.schedule.placement[reader].start <
                            c.schedule.placement[first].start)
        first = reader;
    if (first == t || c.graph.task(first).isGang())
      continue;
    unsigned node = c.schedule.placement[first].node;
    pins.push_back({t, node});
    moved |= node != c.schedule.placement[t].node;
  }
  if (!moved)
    return;
  TaskGraph pinned = c.graph;
  for (auto [t, node] : pins)
    pinned.pin(t, int(node));
  Schedule again = scheduleHEFT(pinned, cost, options.schedule);
  if (again.makespan <= c.schedule.makespan * (1 + kFreeLoadSlack)) {
    c.graph = std::move(pinned);
    c.schedule = std::move(again);
  }
}

static std::string scheduleCandidate(PlanCandidate &c,
                                     const MachineModel &machine,
                                     const PlanOptions &options) {
  MachineCostModel cost(machine);
  c.schedule = options.scheduler == SchedulerKind::HEFT
                   ? scheduleHEFT(c.graph, cost, options.schedule)
                   : scheduleRoundRobin(c.graph, cost, options.schedule);
  if (options.scheduler == SchedulerKind::HEFT)
    placeFreeLoadsAtReaders(c, cost, options);
  // Every plan is checked before it is believed.
  if (std::string err =
          verifySchedule(c.graph, cost, c.schedule, options.schedule);
      !err.empty())
    return "internal error: invalid plan for tile size " +
           std::to_string(c.tileSize) + ": " + err;
  c.simulation = simulate(c.graph, cost, c.schedule);
  MachineCostModel free(machine.withFreeCommunication());
  // The zero-communication makespan (Table 7 of the paper): the plan
  // replayed with communication free, as the paper computes it, or HEFT
  // re-planned for free communication, whichever is shorter (both are
  // schedules without communication; greedy HEFT is not monotone in costs).
  c.zeroCommMakespan =
      std::min(scheduleHEFT(c.graph, free, options.schedule).makespan,
               simulate(c.graph, free, c.schedule).makespan);
  return "";
}

/// Bounds on computation alone (a gang task's time includes its transfers,
/// which free communication removes): no plan of `c` is faster.
static void computeBounds(PlanCandidate &c, const MachineModel &machine) {
  MachineCostModel free(machine.withFreeCommunication());
  c.bounds = lowerBounds(c.graph, free);
}

static unsigned schedulerThreads(const PlanOptions &options) {
  return options.parallel ? std::max(1u, std::thread::hardware_concurrency())
                          : 1;
}

/// Schedules, checks and simulates `candidates[i]` for each i of `which`
/// (in parallel threads when `options.parallel`), each for
/// `machines[candidate.machine]`.
static bool scheduleSome(std::vector<PlanCandidate> &candidates,
                         const std::vector<size_t> &which,
                         const std::vector<MachineModel> &machines,
                         const PlanOptions &options, std::string &error) {
  std::vector<std::string> errors(which.size());
  size_t threads = std::max<size_t>(
      1, std::min<size_t>(schedulerThreads(options), which.size()));
  std::vector<std::thread> pool;
  for (size_t w = 0; w < threads; ++w)
    pool.emplace_back([&, w] {
      for (size_t i = w; i < which.size(); i += threads) {
        PlanCandidate &c = candidates[which[i]];
        errors[i] = scheduleCandidate(c, machines[c.machine], options);
      }
    });
  for (std::thread &t : pool)
    t.join();
  for (const std::string &e : errors)
    if (!e.empty()) {
      error = e;
      return false;
    }
  return true;
}

/// Every candidate scheduled (the configurations of configure=auto).
static bool scheduleAll(std::vector<PlanCandidate> &candidates,
                        const std::vector<MachineModel> &machines,
                        const PlanOptions &options, std::string &error) {
  std::vector<size_t> all(candidates.size());
  std::iota(all.begin(), all.end(), 0);
  for (PlanCandidate &c : candidates)
    computeBounds(c, machines[c.machine]);
  return scheduleSome(candidates, all, machines, options, error);
}

/// Why `c`, whose lower bound exceeds `best`'s simulated makespan, cannot
/// win, in the terms of the grain-size trade-off (Blaze/HPX thesis, section
/// 4.3 and Figure 4.7: per-task overhead dominates small grains, starvation
/// large ones): finer than the best, the share of its predicted work that
/// per-task fixed costs take (the executor's task overhead and each
/// kernel's time at 1 x 1); coarser, its average parallelism (work over
/// critical path) against the workers.
static std::string pruneReason(const PlanCandidate &c,
                               const PlanCandidate &best,
                               const MachineModel &machine) {
  std::string why;
  llvm::raw_string_ostream os(why);
  os << llvm::format("lower bound %.4g s above the %.4g s simulated for tile "
                     "%lld",
                     c.bounds.lower(), best.simulation.makespan,
                     (long long)best.tileSize);
  if (c.tileSize < best.tileSize) {
    double fixed = 0, total = 0;
    for (const Task &t : c.graph.tasks()) {
      if (t.isGang())
        continue;
      // A fused kernel's steps are its own at any size (its k).
      fixed += machine.taskTime(0, t.op, 1, 1, isRooflineClass(t.op) ? t.k : 1);
      total += machine.taskTime(0, t.op, t.m, t.n, t.k);
    }
    os << llvm::format("; too fine: per-task fixed costs are %.0f %% of its "
                       "work",
                       100 * std::min(1.0, fixed / std::max(1e-300, total)));
  } else if (c.tileSize > best.tileSize) {
    unsigned workers = std::max(1u, c.masterOnly ? machine.nodes[0].workers
                                                 : machine.totalWorkers());
    double parallelism = c.bounds.workPerWorker * machine.totalWorkers() /
                         std::max(1e-300, c.bounds.criticalPath);
    if (parallelism < workers)
      os << llvm::format("; too coarse: average parallelism %.2f (work / "
                         "critical path) for %u workers",
                         parallelism, workers);
  }
  return why;
}

bool cmm::planning::scheduleCandidates(
    std::vector<PlanCandidate> &candidates,
    const std::vector<MachineModel> &machines, const PlanOptions &options,
    size_t &chosen, std::string &error) {
  // Branch and bound over the sweep, lowest bound first: once a plan that
  // fits is simulated, a candidate whose bound is above its makespan cannot
  // be chosen and is not scheduled (the 64 x 64 stencil's tile 12, 57493
  // tasks bounded at 3x the chosen plan's time, took 1.3 s of planning).
  // Threads schedule a wave of candidates at once; which are pruned is
  // decided as if one at a time, so the report does not depend on the
  // number of cores (a candidate scheduled in a wave may still be pruned).
  std::vector<size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  for (PlanCandidate &c : candidates) {
    c.pruned.clear();
    computeBounds(c, machines[c.machine]);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return candidates[a].bounds.lower() < candidates[b].bounds.lower();
  });
  std::optional<size_t> bestFit;
  auto outdone = [&](const PlanCandidate &c) {
    return bestFit && c.bounds.lower() >
                          candidates[*bestFit].simulation.makespan * (1 + 1e-9);
  };
  for (size_t next = 0; next < order.size();) {
    std::vector<size_t> wave;
    for (; next < order.size() && wave.size() < schedulerThreads(options);
         ++next) {
      if (outdone(candidates[order[next]]))
        break; // and so is every later one
      wave.push_back(order[next]);
    }
    if (wave.empty())
      break;
    if (!scheduleSome(candidates, wave, machines, options, error))
      return false;
    for (size_t i : wave) {
      PlanCandidate &c = candidates[i];
      if (outdone(c))
        continue; // marked below
      if (memoryPressure(c, machines[c.machine]).fits() &&
          (!bestFit ||
           c.simulation.makespan < candidates[*bestFit].simulation.makespan))
        bestFit = i;
    }
  }
  for (PlanCandidate &c : candidates)
    if (outdone(c))
      c.pruned = pruneReason(c, candidates[*bestFit], machines[c.machine]);
  // Only plans whose live tiles fit in every node's memory are kept.
  std::vector<MemoryPressure> pressure;
  for (const PlanCandidate &c : candidates)
    pressure.push_back(memoryPressure(c, machines[c.machine]));
  size_t leastPressure = 0;
  bool any = false;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].scheduled())
      continue;
    if (pressure[i].share < pressure[leastPressure].share)
      leastPressure = i;
    if (!pressure[i].fits())
      continue;
    if (!any || candidates[i].simulation.makespan <
                    candidates[chosen].simulation.makespan)
      chosen = i;
    any = true;
  }
  if (!any && !candidates.empty()) {
    const PlanCandidate &c = candidates[leastPressure];
    const MachineModel &machine = machines[c.machine];
    unsigned node = pressure[leastPressure].node;
    const double gib = double(1 << 30);
    error = llvm::formatv(
        "no plan fits in memory: the least demanding (tile size {0}) needs "
        "{1:f2} GiB of tiles at once on node {2} ('{3}'), which has {4:f2} "
        "GiB ({5:f0} % of it usable for tiles); use smaller --tile-sizes, "
        "more --nodes, or a machine model with more memory_bytes",
        c.tileSize, c.simulation.peakBytes[node] / gib, node,
        machine.nodes[node].name, machine.nodes[node].memoryBytes / gib,
        kUsableMemoryShare * 100);
    return false;
  }
  return true;
}

bool cmm::planning::scheduleCandidates(std::vector<PlanCandidate> &candidates,
                                       const MachineModel &machine,
                                       const PlanOptions &options,
                                       size_t &chosen, std::string &error) {
  for (PlanCandidate &c : candidates)
    c.machine = 0;
  return scheduleCandidates(candidates, std::vector<MachineModel>{machine},
                            options, chosen, error);
}

/// A split of a node's cores: workers of `threads` BLAS threads each and
/// communicators.
struct CoreSplit {
  unsigned workers, threads, communicators;
  bool operator==(const CoreSplit &o) const {
    return workers == o.workers && threads == o.threads &&
           communicators == o.communicators;
  }
};

/// The splits of a node's cores that configure=auto tries (section 3.6:
/// communicators take cores from workers): 1 to 16 communicators, the rest
/// of the cores in workers of the model's threads; for a node whose splits
/// were measured (Table 3, NodeSpec::configurations), each measured
/// workers x threads with every communicator count the cores leave room
/// for, and at least one. The model's own split is always one of them.
static std::vector<CoreSplit> coreSplits(const NodeSpec &node) {
  constexpr unsigned kMaxCommunicators = 16;
  std::vector<CoreSplit> splits;
  if (node.configurations.empty()) {
    unsigned threads = std::max(1u, node.threadsPerWorker);
    for (unsigned c = 1; c <= kMaxCommunicators && c < node.cores; ++c)
      if (unsigned w = (node.cores - c) / threads; w >= 1)
        splits.push_back({w, threads, c});
  }
  // A measured split whose workers use every core shares them with one
  // communicator (oversubscribed, as cmm-profile's nodes are).
  for (const NodeConfiguration &conf : node.configurations)
    for (unsigned c = 1; c <= kMaxCommunicators &&
                         (conf.workers * conf.threads + c <= node.cores ||
                          (c == 1 && conf.workers * conf.threads <= node.cores));
         ++c)
      splits.push_back({conf.workers, conf.threads, c});
  CoreSplit own{node.workers, node.threadsPerWorker, node.communicators};
  if (std::find(splits.begin(), splits.end(), own) == splits.end())
    splits.push_back(own);
  return splits;
}

/// configure=auto: the chosen candidate's graph planned again for each
/// split of each class of alike nodes (the master usually a class of its
/// own), one class after the other, keeping the fastest for the next.
static bool sweepConfigurations(Plan &plan, const PlanOptions &options,
                                std::string &error) {
  const MachineModel &given = plan.machines.front();
  // Classes: nodes equal but for their names.
  std::vector<std::vector<unsigned>> classes;
  for (unsigned n = 0; n < given.nodes.size(); ++n) {
    auto alike = [&](const std::vector<unsigned> &cls) {
      NodeSpec a = given.nodes[cls.front()], b = given.nodes[n];
      a.name = b.name;
      return a == b;
    };
    auto it = std::find_if(classes.begin(), classes.end(), alike);
    if (it == classes.end())
      classes.push_back({n});
    else
      it->push_back(n);
  }
  for (const std::vector<unsigned> &cls : classes) {
    const PlanCandidate base = plan.best();
    const MachineModel current = plan.machines[base.machine];
    std::vector<PlanCandidate> tried;
    for (CoreSplit split : coreSplits(current.nodes[cls.front()])) {
      MachineModel m = current;
      for (unsigned n : cls) {
        m.nodes[n].workers = split.workers;
        m.nodes[n].threadsPerWorker = split.threads;
        m.nodes[n].communicators = split.communicators;
      }
      if (m == current)
        continue; // already planned
      PlanCandidate c;
      c.tileSize = base.tileSize;
      c.startupTileSize = base.startupTileSize;
      c.graph = base.graph;
      c.masterOnly = base.masterOnly;
      c.gangGemms = base.gangGemms;
      c.machine = plan.machines.size();
      tried.push_back(std::move(c));
      plan.machines.push_back(std::move(m));
    }
    if (!scheduleAll(tried, plan.machines, options, error))
      return false;
    // A split that does not fit in memory is listed but never chosen.
    for (PlanCandidate &c : tried) {
      bool better = memoryPressure(c, plan.machines[c.machine]).fits() &&
                    c.simulation.makespan < plan.best().simulation.makespan;
      plan.candidates.push_back(std::move(c));
      if (better)
        plan.chosen = plan.candidates.size() - 1;
    }
  }
  return true;
}

/// The splits of `machine`'s nodes: "node N on: ..." for each node whose
/// split differs from the node before it (the nodes after it alike); with
/// `from`, "node N: ..." for the nodes whose split differs from `from`'s,
/// each run of them once.
static std::string describeSplits(const MachineModel &machine,
                                  const MachineModel *from = nullptr) {
  auto split = [](const NodeSpec &x) {
    return std::make_tuple(x.workers, x.threadsPerWorker, x.communicators);
  };
  auto listed = [&](unsigned n) {
    return !from || split(machine.nodes[n]) != split(from->nodes[n]);
  };
  std::string text;
  for (unsigned n = 0; n < machine.nodes.size(); ++n) {
    bool sameRun = n > 0 && listed(n - 1) &&
                   split(machine.nodes[n]) == split(machine.nodes[n - 1]);
    if (!listed(n) || sameRun)
      continue;
    text += std::string(text.empty() ? "" : "; ") + "node " +
            std::to_string(n) +
            (from || n + 1 == machine.nodes.size() ? "" : " on") + ": " +
            describeConfiguration(machine.nodes[n]);
  }
  return text;
}

Schedule PlanCandidate::emittedSchedule() const {
  Schedule out = schedule;
  const Schedule &simulated = simulation.replayed;
  for (size_t t = 0; t < out.placement.size() && t < simulated.placement.size();
       ++t)
    out.placement[t].firstTouch = simulated.placement[t].firstTouch;
  for (size_t i = 0; i < out.transfers.size() && i < simulated.transfers.size();
       ++i)
    out.transfers[i].firstTouch = simulated.transfers[i].firstTouch;
  return out;
}

unsigned PlanCandidate::nodesUsed() const {
  std::vector<bool> used;
  for (TaskId t = 0; t < graph.size(); ++t) {
    auto mark = [&](unsigned n) {
      if (n >= used.size())
        used.resize(n + 1, false);
      used[n] = true;
    };
    if (graph.task(t).isGang())
      for (unsigned n : graph.task(t).gangNodes)
        mark(n);
    else
      mark(schedule.placement[t].node);
  }
  return std::count(used.begin(), used.end(), true);
}

MemoryPressure cmm::planning::memoryPressure(const PlanCandidate &candidate,
                                             const MachineModel &machine) {
  std::vector<double> memory;
  for (const NodeSpec &node : machine.nodes)
    memory.push_back(node.memoryBytes);
  return scheduling::memoryPressure(candidate.simulation.peakBytes, memory);
}

bool cmm::planning::resolveMachineModel(const std::string &path, unsigned nodes,
                                        MachineModel &machine,
                                        std::string &error) {
  if (path.empty()) {
    machine = builtinMachineModel(nodes ? nodes : 1);
    return true;
  }
  MachineModel loaded;
  if (!loadMachineModel(path, loaded, error))
    return false;
  machine = nodes ? loaded.withNodes(nodes) : loaded;
  return true;
}

bool cmm::planning::planFunction(mlir::func::FuncOp func,
                                 const MachineModel &machine,
                                 const PlanOptions &options, Plan &plan,
                                 std::string &error,
                                 mlir::Operation **errorOp) {
  auto begin = std::chrono::steady_clock::now();
  std::vector<int64_t> sizes =
      options.tileSizes.empty() ? defaultTileSizes(func) : options.tileSizes;
  for (int64_t size : sizes)
    if (size < 1) {
      error = "tile size must be at least 1 (got " + std::to_string(size) + ")";
      return false;
    }
  plan.candidates.clear();
  plan.machines = {machine};
  plan.chosen = 0;
  // Master-only candidates run on the master as it is when the others are
  // idle (MachineModel::masterAlone: ranks sharing one host).
  unsigned masterAloneMachine = 0;
  if (machine.masterAlone && machine.nodes.size() > 1) {
    masterAloneMachine = plan.machines.size();
    plan.machines.push_back(machine.withMasterAlone());
  }
  plan.ops = declareOps(func);
  // Distributed products (COSMA) run on the gang of nodes that runs them
  // fastest (bestGang: a slow master is left out), the first gathering C.
  const double gangMemory = gangMemoryBytes(machine);
  GangGemmChoice forced{[&](int64_t m, int64_t n, int64_t k,
                            std::vector<unsigned> &gang, std::string &err) {
    GangGemmCost cost;
    if (bestGang(machine, m, n, k, gangMemory, gang, cost, err))
      return true;
    err = "the product cannot run as a distributed (COSMA) product: " + err;
    return false;
  }};
  int64_t autoSize = 0; // the tile size the auto choice compares with
  GangGemmChoice chosenByCost{[&](int64_t m, int64_t n, int64_t k,
                                  std::vector<unsigned> &gang, std::string &) {
    GangGemmCost cost;
    std::string ignored; // a product that does not fit stays tiled
    return bestGang(machine, m, n, k, gangMemory, gang, cost, ignored) &&
           cost.total() < tiledGemmEstimate(machine, m, n, k, autoSize);
  }};
  const GangGemmChoice *always =
      options.gemm == GemmChoice::Cosma ? &forced : nullptr;
  // A size of the default sweep that would make too many tasks is left out
  // (a long trace of small matrices makes that of its 10 % tiles); sizes
  // the user gave, or a sweep left empty, are an error.
  if (options.tileSizes.empty()) {
    std::vector<int64_t> feasible;
    for (int64_t size : sizes)
      if (countTasks(func, size) <= kMaxTasks)
        feasible.push_back(size);
    if (!feasible.empty())
      sizes = std::move(feasible);
    else
      sizes = {sizes.back()}; // the coarsest: its error explains
  }
  // Tiling reads the IR; it runs here, the schedulers in threads.
  for (int64_t size : sizes) {
    std::vector<int64_t> startups{size};
    if (options.dynamicTiling != DynamicTiling::Off)
      if (int64_t sub = startupTileSize(func, size, machine.totalWorkers());
          sub < size) {
        if (options.dynamicTiling == DynamicTiling::Always)
          startups.clear();
        startups.push_back(sub);
      }
    std::optional<size_t> whole; // this size without sub-tiles
    for (int64_t startup : startups) {
      if (startup == size)
        whole = plan.candidates.size();
      PlanCandidate &c = plan.candidates.emplace_back();
      c.tileSize = size;
      c.startupTileSize = startup;
      if (!buildTaskGraph(func, size, c.graph, error, startup, always, errorOp))
        return false;
    }
    // The same tiles on the master alone (issue 15: a 64x64 stencil ran 15x
    // slower on 2 nodes than on 1); the simulation decides.
    if (machine.nodes.size() > 1 && options.gemm != GemmChoice::Cosma &&
        whole) {
      PlanCandidate c;
      c.tileSize = c.startupTileSize = size;
      c.graph = plan.candidates[*whole].graph;
      c.masterOnly = true;
      c.machine = masterAloneMachine;
      for (TaskId t = 0; t < c.graph.size(); ++t)
        c.graph.pin(t, 0);
      plan.candidates.push_back(std::move(c));
    }
    // The variant with the products the cost model gives to COSMA, kept
    // when there are any (the simulation then decides).
    if (options.gemm == GemmChoice::Auto && machine.nodes.size() > 1) {
      PlanCandidate c;
      c.tileSize = c.startupTileSize = autoSize = size;
      if (!buildTaskGraph(func, size, c.graph, error, size, &chosenByCost,
                          errorOp))
        return false;
      if (std::any_of(c.graph.tasks().begin(), c.graph.tasks().end(),
                      [](const Task &t) { return t.isGang(); }))
        plan.candidates.push_back(std::move(c));
    }
  }
  for (PlanCandidate &c : plan.candidates)
    c.gangGemms = std::count_if(c.graph.tasks().begin(), c.graph.tasks().end(),
                                [](const Task &t) { return t.isGang(); });
  if (!scheduleCandidates(plan.candidates, plan.machines, options, plan.chosen,
                          error))
    return false;
  if (options.configure == Configure::Auto && machine.nodes.size() > 1 &&
      !sweepConfigurations(plan, options, error))
    return false;
  plan.planningSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  return true;
}

void cmm::planning::printPlanReport(mlir::func::FuncOp func, const Plan &plan,
                                    const MachineModel &machine,
                                    const PlanOptions &options,
                                    llvm::raw_ostream &os) {
  unsigned workers = machine.totalWorkers();
  os << "plan: " << machine.name << ", " << machine.nodes.size() << " node(s), "
     << workers << " worker(s)\n";
  for (size_t i = 0; i < plan.candidates.size(); ++i) {
    const PlanCandidate &c = plan.candidates[i];
    double ratio = c.simulation.makespan / std::max(1e-300, c.bounds.lower());
    std::string startup;
    if (c.startupTileSize && c.startupTileSize < c.tileSize)
      startup = " (dynamic tiling, start-up sub-tiles " +
                std::to_string(c.startupTileSize) + ")";
    if (c.gangGemms)
      startup += " (" + std::to_string(c.gangGemms) + " COSMA product" +
                 (c.gangGemms == 1 ? "" : "s") + ")";
    if (c.masterOnly)
      startup += " (master only)";
    // A configuration of the sweep: what differs from the given model.
    const MachineModel &planned = plan.machines[c.machine];
    if (c.machine != 0)
      if (std::string changed = describeSplits(planned, &machine);
          !changed.empty())
        startup += " (" + changed + ")";
    if (!c.scheduled()) {
      os << llvm::format("  tile %6lld: %6zu tasks%s, pruned: %s\n",
                         (long long)c.tileSize, c.graph.size(), startup.c_str(),
                         c.pruned.c_str());
      continue;
    }
    if (MemoryPressure pressure = memoryPressure(c, planned); !pressure.fits())
      startup += llvm::formatv(" (does not fit: {0:f3} GB of tiles on node "
                               "{1})",
                               c.simulation.peakBytes[pressure.node] / 1e9,
                               pressure.node)
                     .str();
    double peak = 0;
    for (double p : c.simulation.peakBytes)
      peak = std::max(peak, p);
    os << llvm::format("  tile %6lld: %6zu tasks, predicted %10.4g s, "
                       "lower bound %10.4g s (x%.2f; path/work %.4g s), "
                       "zero-comm %10.4g s, "
                       "moved %8.4g GB, %zu transfers, %u cache hits, "
                       "peak %.4g GB/node%s%s\n",
                       (long long)c.tileSize, c.graph.size(),
                       c.simulation.makespan, c.bounds.lower(), ratio,
                       c.bounds.plain(), c.zeroCommMakespan,
                       c.schedule.bytesMoved / 1e9, c.schedule.transfers.size(),
                       c.schedule.cacheHits, peak / 1e9, startup.c_str(),
                       i == plan.chosen ? "  <- chosen" : "");
  }
  os << llvm::format("chosen tile size: %lld (predicted makespan %.4g s, "
                     "tasks on %u of %zu node(s)); planning took %.1f ms\n",
                     (long long)plan.best().tileSize,
                     plan.best().simulation.makespan, plan.best().nodesUsed(),
                     machine.nodes.size(), plan.planningSeconds * 1e3);
  // configure=auto: the configuration chosen, per node class, and the best
  // plan of another configuration at the chosen tile size.
  if (options.configure == Configure::Auto && machine.nodes.size() > 1) {
    const PlanCandidate *runnerUp = nullptr;
    for (const PlanCandidate &c : plan.candidates)
      if (c.scheduled() && c.machine != plan.best().machine &&
          c.tileSize == plan.best().tileSize &&
          memoryPressure(c, plan.machines[c.machine]).fits() &&
          (!runnerUp || c.simulation.makespan < runnerUp->simulation.makespan))
        runnerUp = &c;
    os << "chosen configuration: " << describeSplits(plan.machine());
    if (runnerUp)
      os << llvm::format(" (runner-up configuration: predicted %.4g s)",
                         runnerUp->simulation.makespan);
    os << "\n";
  }
  // The same program on one node of the cluster's worker kind (the last
  // node; the master may keep cores for communicators), or on the master
  // alone where the nodes share a host, for the speedup.
  if (machine.nodes.size() < 2)
    return;
  MachineModel single = machine;
  single.nodes = {machine.masterAlone ? *machine.masterAlone
                                      : machine.nodes.back()};
  single.masterAlone.reset();
  single.links.clear();
  PlanOptions one = options;
  one.tileSizes = {plan.best().tileSize};
  Plan alone;
  std::string error;
  if (planFunction(func, single, one, alone, error))
    os << llvm::format("predicted speedup of %zu nodes over 1 node at tile "
                       "size %lld: %.2f (1 node: %.4g s)\n",
                       machine.nodes.size(), (long long)plan.best().tileSize,
                       alone.best().simulation.makespan /
                           plan.best().simulation.makespan,
                       alone.best().simulation.makespan);
}
