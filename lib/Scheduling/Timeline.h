//===- Timeline.h - Busy intervals of one resource --------------*- C++ -*-===//
//
// Insertion-based scheduling (HEFT's policy): a new interval may go into an
// idle gap between already reserved ones.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_LIB_PLANNER_TIMELINE_H
#define CMM_LIB_PLANNER_TIMELINE_H

#include <algorithm>
#include <utility>
#include <vector>

namespace cmm::scheduling {

class Timeline {
public:
  /// Earliest start >= ready of an idle gap of `duration`.
  double earliest(double ready, double duration) const {
    double t = ready;
    // Intervals are disjoint and sorted, so their ends are sorted too.
    auto it = std::lower_bound(busy.begin(), busy.end(), t,
                               [](const std::pair<double, double> &iv,
                                  double v) { return iv.second <= v; });
    for (; it != busy.end(); ++it) {
      if (it->first - t >= duration)
        return t;
      t = std::max(t, it->second);
    }
    return t;
  }
  void reserve(double start, double finish) {
    if (finish <= start)
      return; // zero-length work occupies nothing
    auto it = std::lower_bound(busy.begin(), busy.end(), start,
                               [](const std::pair<double, double> &iv,
                                  double v) { return iv.first < v; });
    busy.insert(it, {start, finish});
    total += finish - start;
  }
  const std::vector<std::pair<double, double>> &intervals() const {
    return busy;
  }
  /// Kept as intervals are reserved: the scheduler asks for it for every
  /// candidate worker of every task (summing here made planning quadratic).
  double busyTime() const { return total; }

private:
  std::vector<std::pair<double, double>> busy;
  double total = 0;
};

} // namespace cmm::scheduling

#endif // CMM_LIB_PLANNER_TIMELINE_H
