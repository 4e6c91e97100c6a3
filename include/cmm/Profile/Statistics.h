//===- Statistics.h - Adaptive sampling of kernel times ---------*- C++ -*-===//
//
// How cmm-profile decides that it has timed a kernel often enough, in the
// manner of Critter (papers/critter-approximate-autotuning.txt, section
// III): a kernel signature (a kernel at one size) is repeated until the
// confidence interval of its mean time, relative to the mean, is within a
// tolerance, instead of a fixed number of times. A steady kernel stops after
// the minimum count; a noisy one runs longer, up to a cap on repetitions and
// on time.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_STATISTICS_H
#define CMM_PROFILE_STATISTICS_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace cmm::profile {

/// The median of `samples` (the mean of the middle two for an even count);
/// 0 for none.
double median(std::vector<double> samples);

/// Mean and variance in one pass (Welford's update), and the minimum.
class RunningStats {
public:
  void add(double x);
  /// Adds every sample `other` saw (Chan, Golub and LeVeque's pairwise
  /// update): the statistics of both sets of samples together.
  void merge(const RunningStats &other);
  unsigned count() const { return n; }
  double mean() const { return m; }
  /// The sample variance (n - 1 in the denominator); 0 below two samples.
  double variance() const { return n > 1 ? s / (n - 1) : 0.0; }
  double stddev() const;
  /// Coefficient of variation: stddev / mean (0 for a zero mean).
  double cov() const;
  double min() const { return lo; }

private:
  unsigned n = 0;
  double m = 0, s = 0, lo = 0;
};

/// The quantile of Student's t distribution with `dof` degrees of freedom at
/// two-sided confidence `confidence` (0.95: the 97.5 % quantile), from the
/// exact distribution function up to 1000 degrees of freedom.
double studentT(double confidence, unsigned dof);

/// Half the width of the `confidence` interval of the mean, divided by the
/// mean: Critter's relative interval size. Infinite below two samples or
/// for a mean of 0.
double relativeHalfWidth(const RunningStats &stats, double confidence);

struct SamplingRule {
  double tolerance = 0.05;  // stop when relativeHalfWidth <= tolerance ...
  double confidence = 0.95; // ... at this confidence
  unsigned minReps = 3;     // at least this many samples
  unsigned maxReps = 200;   // at most this many
  double maxSeconds = 2.0;  // stop after this much measured time
};

/// The time cap of the next signature under a wall-time budget over many
/// (cmm-profile --budget: the cap on total time): its share of the
/// wall time left, `wallSecondsLeft / signaturesLeft`, in measured seconds
/// (the benches' setup, e.g. copying operands out of cache, takes wall time
/// the cap does not count, so the share is scaled by `measuredPerWall`, the
/// measured share of the wall time so far, at least 5 %), and never more
/// than `cap`. A spent budget gives 0: each signature is then timed once,
/// by its warm-up call (sampleUntilConfident), as one longer than a cap.
double budgetedMaxSeconds(double cap, double wallSecondsLeft,
                          size_t signaturesLeft, double measuredPerWall);

/// Why sampling stopped.
enum class StopReason { Confident, MaxReps, MaxSeconds };

struct Sampled {
  RunningStats stats;
  StopReason reason = StopReason::Confident;
};

/// Calls `measure` (one timed run, seconds) until `rule` says stop. The
/// first call is a warm-up and is not counted (caches, page mappings, lazy
/// thread start-up) unless it alone exceeds the time cap.
Sampled sampleUntilConfident(const std::function<double()> &measure,
                             const SamplingRule &rule);

} // namespace cmm::profile

#endif // CMM_PROFILE_STATISTICS_H
