//===- MachineAttr.cpp - The machine model in the IR ------------*- C++ -*-===//

#include "cmm/Planning/MachineAttr.h"

#include "cmm/Planning/Planner.h"

#include "mlir/IR/Builders.h"

#include <cmath>

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::planning;

static tg::NodeAttr toNodeAttr(MLIRContext *context, const NodeSpec &n) {
  Builder b(context);
  SmallVector<NamedAttribute> time;
  for (unsigned c = 0; c < kNumCostClasses; ++c)
    time.push_back(b.getNamedAttr(costClassName(CostClass(c)),
                                  b.getDenseF64ArrayAttr(n.time[c].a)));
  // Printed only where they say something: no first touch, no limit, no
  // overhead, no receive or send CPU.
  FloatAttr network = std::isfinite(n.networkBandwidth)
                          ? b.getF64FloatAttr(n.networkBandwidth)
                          : FloatAttr();
  auto nonZero = [&](double x) {
    return x != 0 ? b.getF64FloatAttr(x) : FloatAttr();
  };
  SmallVector<double> splits;
  for (const NodeConfiguration &c : n.configurations)
    splits.append({double(c.workers), double(c.threads), c.gemmFactor});
  return tg::NodeAttr::get(
      context, n.name, n.cores, n.workers, n.threadsPerWorker, n.communicators,
      b.getF64FloatAttr(n.memoryBytes), b.getDictionaryAttr(time),
      nonZero(n.firstTouch), network, nonZero(n.taskOverhead),
      nonZero(n.receiveCpu), nonZero(n.receiveCpuPerByte), nonZero(n.sendCpu),
      nonZero(n.sendCpuPerByte),
      splits.empty() ? DenseF64ArrayAttr() : b.getDenseF64ArrayAttr(splits),
      nonZero(n.cacheBytes),
      n.cacheBytes > 0 ? b.getF64FloatAttr(n.hotFactor) : FloatAttr(),
      n.hugePageBytes > 0 ? b.getI64IntegerAttr(int64_t(n.hugePageBytes))
                          : IntegerAttr());
}

tg::MachineAttr cmm::planning::toMachineAttr(MLIRContext *context,
                                             const MachineModel &machine) {
  Builder b(context);
  auto link = [&](const LinkSpec &l) {
    return tg::LinkAttr::get(context, b.getF64FloatAttr(l.latency),
                             b.getF64FloatAttr(l.bandwidth));
  };
  SmallVector<Attribute> nodes;
  for (const NodeSpec &n : machine.nodes)
    nodes.push_back(toNodeAttr(context, n));
  SmallVector<Attribute> routes;
  for (const auto &[key, spec] : machine.links)
    routes.push_back(
        tg::RouteAttr::get(context, key.first, key.second, link(spec)));
  return tg::MachineAttr::get(
      context, machine.name, b.getArrayAttr(nodes), link(machine.defaultLink),
      b.getArrayAttr(routes), b.getF64FloatAttr(machine.memoryLimit),
      machine.masterAlone ? toNodeAttr(context, *machine.masterAlone)
                          : tg::NodeAttr());
}

static bool fromNodeAttr(tg::NodeAttr n, NodeSpec &node, std::string &error) {
  node.name = n.getName().str();
  node.cores = n.getCores();
  node.workers = n.getWorkers();
  node.threadsPerWorker = n.getThreads();
  node.communicators = n.getCommunicators();
  node.memoryBytes = n.getMemory().getValueAsDouble();
  // Absent: the NodeSpec default (no first touch, no limit, ...).
  for (auto [attr, out] :
       {std::pair{n.getFirstTouch(), &node.firstTouch},
        std::pair{n.getNetwork(), &node.networkBandwidth},
        std::pair{n.getTaskOverhead(), &node.taskOverhead},
        std::pair{n.getReceiveCpu(), &node.receiveCpu},
        std::pair{n.getReceiveCpuPerByte(), &node.receiveCpuPerByte},
        std::pair{n.getSendCpu(), &node.sendCpu},
        std::pair{n.getSendCpuPerByte(), &node.sendCpuPerByte},
        std::pair{n.getCacheBytes(), &node.cacheBytes},
        std::pair{n.getHotFactor(), &node.hotFactor}})
    if (attr)
      *out = attr.getValueAsDouble();
  if (IntegerAttr huge = n.getHugePageBytes())
    node.hugePageBytes = double(huge.getInt());
  if (DenseF64ArrayAttr splits = n.getConfigurations())
    for (int64_t i = 0; i + 2 < splits.size(); i += 3)
      node.configurations.push_back(
          {unsigned(splits[i]), unsigned(splits[i + 1]), splits[i + 2]});
  for (NamedAttribute entry : n.getTime()) {
    std::optional<CostClass> c = costClassFromName(entry.getName().str());
    auto coefficients = dyn_cast<DenseF64ArrayAttr>(entry.getValue());
    if (!c || !coefficients || coefficients.size() != 8) {
      error = "node '" + node.name + "': time '" + entry.getName().str() +
              "' must be a cost class with 8 coefficients";
      return false;
    }
    std::copy(coefficients.asArrayRef().begin(),
              coefficients.asArrayRef().end(), node.time[int(*c)].a.begin());
  }
  return true;
}

bool cmm::planning::fromMachineAttr(tg::MachineAttr attr, MachineModel &machine,
                                    std::string &error) {
  auto link = [](tg::LinkAttr l) {
    LinkSpec spec;
    spec.latency = l.getLatency().getValueAsDouble();
    spec.bandwidth = l.getBandwidth().getValueAsDouble();
    return spec;
  };
  MachineModel out;
  out.name = attr.getName().str();
  out.defaultLink = link(attr.getLink());
  out.memoryLimit = attr.getMemoryLimit().getValueAsDouble();
  for (Attribute a : attr.getNodes()) {
    NodeSpec node;
    if (!fromNodeAttr(cast<tg::NodeAttr>(a), node, error))
      return false;
    out.nodes.push_back(std::move(node));
  }
  if (tg::NodeAttr alone = attr.getMasterAlone()) {
    NodeSpec node;
    if (!fromNodeAttr(alone, node, error))
      return false;
    out.masterAlone = std::move(node);
  }
  for (Attribute a : attr.getRoutes()) {
    auto r = cast<tg::RouteAttr>(a);
    out.links[{unsigned(r.getFrom()), unsigned(r.getTo())}] = link(r.getLink());
  }
  machine = std::move(out);
  return true;
}

void cmm::planning::attachMachineModel(ModuleOp module,
                                       const MachineModel &machine) {
  module->setAttr(tg::TaskGraphDialect::kMachineAttrName,
                  toMachineAttr(module.getContext(), machine));
}

bool cmm::planning::machineModelOf(ModuleOp module, const std::string &path,
                                   unsigned nodes, MachineModel &machine,
                                   std::string &error) {
  auto attached = module->getAttrOfType<tg::MachineAttr>(
      tg::TaskGraphDialect::kMachineAttrName);
  if (!attached)
    return resolveMachineModel(path, nodes, machine, error);
  if (!path.empty()) {
    error = "the module already has a machine model (cmmtg.machine); "
            "machine-model='" +
            path + "' would replace it (use cmm-attach-machine-model)";
    return false;
  }
  if (!fromMachineAttr(attached, machine, error))
    return false;
  if (nodes)
    machine = machine.withNodes(nodes);
  return true;
}
