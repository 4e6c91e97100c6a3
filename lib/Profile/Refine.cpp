//===- Refine.cpp - A machine model refitted from a run's trace -----------===//

#include "cmm/Profile/Refine.h"
#include "cmm/Profile/Fit.h"
#include "cmm/Profile/TaskBench.h"
#include "cmmrt/TraceLayout.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace cmm::profile;
using cmm::scheduling::CostClass;
using cmm::scheduling::MachineModel;
using cmm::scheduling::TimePolynomial;
namespace json = llvm::json;

bool cmm::profile::readTraceTimings(const std::string &text,
                                    std::vector<TaskTiming> &out,
                                    std::string &error) {
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
    t.cost = *cost;
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

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

/// sqrt(sum_i w_i (predict(shape_i) / measured_i - 1)^2) with w_i the
/// shapes' shares of the measured time (`weights`, summing to 1): the
/// shapes a run spends its time in count, a 1 x 1 combine that costs its
/// overhead alone does not.
template <typename Predict>
double rmsRelative(const std::vector<Observation> &shapes,
                   const std::vector<double> &weights, Predict predict) {
  double sum = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    double r = predict(shapes[i]) / shapes[i].seconds - 1;
    sum += weights[i] * r * r;
  }
  return std::sqrt(sum);
}

} // namespace

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
  const MachineModel before = model;
  std::vector<ClassRefinement> report;
  for (auto &[key, shapes] : groups) {
    auto [node, index] = key;
    CostClass cost = CostClass(index);
    double overhead = model.nodes[node].taskOverhead;
    ClassRefinement r;
    r.node = node;
    r.cost = cost;
    r.shapes = shapes.size();
    // Each shape once, by its median; the kernel's part is what the class
    // polynomial stands for (the overhead is the node's, apart).
    std::vector<Observation> medians, kernels;
    std::vector<double> weights, counts;
    double total = 0;
    for (auto &[shape, seconds] : shapes) {
      auto [m, n, k] = shape;
      double t = median(seconds);
      medians.push_back({m, n, k, t});
      kernels.push_back({m, n, k, std::max(t - overhead, 1e-3 * t)});
      counts.push_back(double(seconds.size()));
      weights.push_back(t * double(seconds.size()));
      total += weights.back();
    }
    for (double &w : weights)
      w /= total > 0 ? total : 1;
    auto predictWith = [&](const TimePolynomial &p) {
      return [&, p](const Observation &o) {
        return std::max(p.eval(o.m, o.n, o.k), 0.0) + overhead;
      };
    };
    TimePolynomial old = model.nodes[node].time[index];
    r.rmsBefore = rmsRelative(medians, weights, predictWith(old));
    r.rmsAfter = r.rmsBefore;
    r.method = "kept";
    // The factor that makes the class's kernel time over the run's tasks
    // what was measured.
    double predicted = 0, measured = 0;
    for (size_t i = 0; i < kernels.size(); ++i) {
      const Observation &o = kernels[i];
      predicted += counts[i] * std::max(old.eval(o.m, o.n, o.k), 0.0);
      measured += counts[i] * o.seconds;
    }
    if (predicted > 0) {
      double s = measured / predicted;
      TimePolynomial scaled = old;
      for (double &a : scaled.a)
        a *= s;
      double rms = rmsRelative(medians, weights, predictWith(scaled));
      if (rms < r.rmsAfter) {
        model.nodes[node].time[index] = scaled;
        r.rmsAfter = rms;
        r.method = llvm::formatv("scaled x{0:f3}", s).str();
      }
    }
    Terms use = fittedTerms(cost);
    if (r.shapes > use.count()) {
      PolynomialFit fit = fitTimePolynomial(kernels, use);
      double rms = rmsRelative(medians, weights, predictWith(fit.poly));
      if (rms < r.rmsAfter) {
        model.nodes[node].time[index] = fit.poly;
        r.rmsAfter = rms;
        r.method = "refit";
      }
    }
    report.push_back(r);
  }
  for (const TaskTiming &t : timings) {
    auto it = std::find_if(report.begin(), report.end(), [&](auto &r) {
      return r.node == t.node && r.cost == t.cost;
    });
    ++it->tasks;
    it->measured += t.seconds;
    it->before += before.taskTime(t.node, t.cost, t.m, t.n, t.k);
    it->after += model.taskTime(t.node, t.cost, t.m, t.n, t.k);
  }
  return report;
}
