//===- Refine.cpp - A machine model refitted from a run's trace -----------===//

#include "cmm/Profile/Refine.h"
#include "cmm/Profile/Fit.h"
#include "cmm/Profile/Statistics.h"
#include "cmm/Profile/TaskBench.h"
#include "cmm/Support/JsonNesting.h"
#include "cmmrt/TraceLayout.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

using namespace cmm::profile;
using cmm::scheduling::CostClass;
using cmm::scheduling::MachineModel;
using cmm::scheduling::TimePolynomial;
namespace json = llvm::json;

bool cmm::profile::readTraceTimings(const std::string &text,
                                    std::vector<TaskTiming> &out,
                                    std::string &error) {
  if (!checkJsonNesting(text, error)) {
    error = "not JSON: " + error;
    return false;
  }
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = "not JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const json::Array *events = parsed->getAsArray();
  if (const json::Object *o = parsed->getAsObject())
    events = o->getArray("traceEvents");
  if (!events) {
    error = "not a Chrome trace: no traceEvents array";
    return false;
  }
  for (const json::Value &v : *events) {
    const json::Object *e = v.getAsObject();
    if (!e || e->getString("ph") != "X" || e->getString("cat") != "task")
      continue;
    const json::Object *args = e->getObject("args");
    std::optional<llvm::StringRef> name =
        args ? args->getString("class") : std::nullopt;
    if (!name)
      continue;
    std::optional<CostClass> cost = scheduling::costClassFromName(name->str());
    std::optional<int64_t> pid = e->getInteger("pid");
    std::optional<double> dur = e->getNumber("dur");
    std::optional<double> m = args->getNumber("m"), n = args->getNumber("n"),
                          k = args->getNumber("k");
    if (!cost || !pid || !dur || !m || !n || !k ||
        *pid < cmmrt::trace::processId(0)) {
      error = llvm::formatv("task event '{0}': {1}",
                            e->getString("name").value_or("?"),
                            !cost ? "unknown cost class '" + name->str() + "'"
                                  : std::string("pid, dur, m, n or k missing "
                                                "or out of range"))
                  .str();
      return false;
    }
    TaskTiming t;
    t.node = unsigned(*pid - cmmrt::trace::processId(0));
    // A product on one BLAS thread refits gemm1's polynomial, which priced
    // it (scheduling::polynomialClass).
    t.cost = scheduling::polynomialClass(*cost, *m, *n, *k);
    t.m = *m;
    t.n = *n;
    t.k = *k;
    t.seconds = *dur * 1e-6; // the trace is in microseconds
    out.push_back(t);
  }
  if (out.empty()) {
    error = "no task events with a cost class (a trace written by a cmm "
            "program, CMM_TRACE=run.json, of this version)";
    return false;
  }
  return true;
}

std::vector<ClassRefinement>
cmm::profile::refineModel(MachineModel &model,
                          const std::vector<TaskTiming> &timings,
                          std::string &error) {
  using Shape = std::tuple<double, double, double>;
  std::map<std::pair<unsigned, unsigned>, std::map<Shape, std::vector<double>>>
      groups;
  for (const TaskTiming &t : timings) {
    if (t.node >= model.nodes.size()) {
      error = llvm::formatv("the trace has tasks on node {0} but the model "
                            "'{1}' has {2} node(s)",
                            t.node, model.name, model.nodes.size())
                  .str();
      return {};
    }
    groups[{t.node, unsigned(t.cost)}][{t.m, t.n, t.k}].push_back(t.seconds);
  }
  std::vector<ClassRefinement> report;
  for (auto &[key, shapes] : groups) {
    auto [node, index] = key;
    ClassRefinement r;
    r.node = node;
    r.cost = CostClass(index);
    r.shapes = shapes.size();
    // Each shape once, by its median, weighted by its share of the class's
    // measured time; the kernel's part (less the node's task overhead) is
    // what the class polynomial stands for.
    double overhead = model.nodes[node].taskOverhead;
    std::vector<Observation> medians, kernels;
    std::vector<double> counts;
    double medianTotal = 0; // sum of count x median over the shapes
    for (auto &[shape, seconds] : shapes) {
      auto [m, n, k] = shape;
      double t = median(seconds);
      medians.push_back({m, n, k, t});
      kernels.push_back({m, n, k, std::max(t - overhead, 1e-3 * t)});
      counts.push_back(double(seconds.size()));
      medianTotal += counts.back() * t;
      r.tasks += seconds.size();
      r.measured += std::accumulate(seconds.begin(), seconds.end(), 0.0);
    }
    // The model's time for each shape (MachineModel::taskTime) with the
    // class polynomial `p`: the relative error over the shapes weighted by
    // their share of the measured time (so a 1 x 1 combine that costs its
    // overhead alone does not count), and the run's total.
    TimePolynomial &poly = model.nodes[node].time[index];
    auto modelled = [&](const TimePolynomial &p, size_t i) {
      poly = p;
      return model.taskTime(node, r.cost, medians[i].m, medians[i].n,
                            medians[i].k);
    };
    auto rmsWith = [&](const TimePolynomial &p) {
      double sum = 0;
      for (size_t i = 0; i < medians.size(); ++i) {
        double e = modelled(p, i) / medians[i].seconds - 1;
        sum += counts[i] * medians[i].seconds / medianTotal * e * e;
      }
      return std::sqrt(sum);
    };
    auto totalWith = [&](const TimePolynomial &p) {
      double total = 0;
      for (size_t i = 0; i < medians.size(); ++i)
        total += counts[i] * modelled(p, i);
      return total;
    };
    const TimePolynomial old = poly;
    TimePolynomial best = old;
    r.before = totalWith(old);
    r.rmsBefore = r.rmsAfter = rmsWith(old);
    r.method = "kept";
    // Scaled so that the class's kernel time over the run's tasks is what
    // was measured.
    double kernelModelled = r.before - overhead * double(r.tasks);
    double kernelMeasured = 0;
    for (size_t i = 0; i < kernels.size(); ++i)
      kernelMeasured += counts[i] * kernels[i].seconds;
    if (kernelModelled > 0) {
      double s = kernelMeasured / kernelModelled;
      TimePolynomial scaled = old;
      for (double &a : scaled.a)
        a *= s;
      if (double rms = rmsWith(scaled); rms < r.rmsAfter) {
        best = scaled;
        r.rmsAfter = rms;
        r.method = llvm::formatv("scaled x{0:f3}", s).str();
      }
    }
    Terms use = fittedTerms(r.cost);
    if (r.shapes > use.count()) {
      // The run's products ran at the node's split, whose factor taskTime
      // applies on top of the polynomial: fit the polynomial without it.
      double factor = cmm::scheduling::NodeSpec::followsSplit(r.cost)
                          ? model.nodes[node].gemmFactor()
                          : 1.0;
      std::vector<Observation> unscaled = kernels;
      for (Observation &o : unscaled)
        o.seconds /= factor;
      PolynomialFit fit = fitTimePolynomial(
          unscaled, use, cmm::scheduling::isRooflineClass(r.cost));
      if (double rms = rmsWith(fit.poly); rms < r.rmsAfter) {
        best = fit.poly;
        r.rmsAfter = rms;
        r.method = "refit";
      }
    }
    r.after = totalWith(best); // leaves `best` in the model
    report.push_back(r);
  }
  return report;
}
