//===- Refine.h - A machine model refitted from a run's trace ---*- C++ -*-===//
//
// `cmm-profile --refine run.json -m model.json`: a program run with
// CMM_TRACE records every task with its cost class and the (m, n, k) the
// planner charged it (cmmrt/Plan.h); this refits each node's class
// polynomials to those timings, so a model measured once follows the
// machine as the programs find it (docs/machine-model.md, "Refining from a
// run"). A class is refitted on the fitted terms of the profile
// (TaskBench.h) when the run timed enough distinct shapes for them, and
// its polynomial is scaled so that the class's tasks sum to what was
// measured; whichever predicts the run's shapes better (relative error
// weighted by each shape's share of the time) is kept.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_REFINE_H
#define CMM_PROFILE_REFINE_H

#include "cmm/Scheduling/MachineModel.h"

#include <string>
#include <vector>

namespace cmm::profile {

/// One task as a run's trace measured it.
struct TaskTiming {
  unsigned node = 0;
  scheduling::CostClass cost = scheduling::CostClass::Elementwise;
  double m = 1, n = 1, k = 1;
  double seconds = 0;
};

/// The task events of a Chrome trace written by a generated program
/// (CMM_TRACE): those carrying a class and m, n, k. False with a message
/// naming what is wrong when `json` is not such a trace.
bool readTraceTimings(const std::string &json, std::vector<TaskTiming> &out,
                      std::string &error);

/// What refining did to one class of one node.
struct ClassRefinement {
  unsigned node = 0;
  scheduling::CostClass cost = scheduling::CostClass::Elementwise;
  unsigned tasks = 0, shapes = 0; // timings, distinct (m, n, k)
  /// Seconds summed over the timings: measured, and the model's before and
  /// after (each task's time including the node's task overhead).
  double measured = 0, before = 0, after = 0;
  /// sqrt(sum w (predicted / measured - 1)^2) over the shapes' medians,
  /// w a shape's share of the class's measured time.
  double rmsBefore = 0, rmsAfter = 0;
  std::string method; // "refit", "scaled xF" or "kept"
};

/// Refits `model`'s class polynomials to `timings` (a timing's node must
/// be one of the model's); the classes without timings are kept. Each
/// shape counts once, by its median time, so a loop of a thousand equal
/// tasks does not outweigh the other shapes.
std::vector<ClassRefinement> refineModel(scheduling::MachineModel &model,
                                         const std::vector<TaskTiming> &timings,
                                         std::string &error);

} // namespace cmm::profile

#endif // CMM_PROFILE_REFINE_H
