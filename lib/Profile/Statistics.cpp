//===- Statistics.cpp - Adaptive sampling of kernel times -----------------===//

#include "cmm/Profile/Statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace cmm::profile;

void RunningStats::add(double x) {
  lo = n == 0 ? x : std::min(lo, x);
  ++n;
  double delta = x - m;
  m += delta / n;
  s += delta * (x - m);
}

void RunningStats::merge(const RunningStats &other) {
  if (other.n == 0)
    return;
  if (n == 0) {
    *this = other;
    return;
  }
  double total = double(n) + other.n;
  double delta = other.m - m;
  s += other.s + delta * delta * n * other.n / total;
  m += delta * other.n / total;
  lo = std::min(lo, other.lo);
  n += other.n;
}

double RunningStats::stddev() const { return std::sqrt(variance()); }

double RunningStats::cov() const { return m != 0 ? stddev() / m : 0.0; }

/// The standard normal quantile (Acklam's rational approximation, relative
/// error below 1.2e-9).
static double normalQuantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                             -2.759285104469687e+02, 1.383577518672690e+02,
                             -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                             -1.556989798598866e+02, 6.680131188771972e+01,
                             -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                             -2.400758277161838e+00, -2.549732539343734e+00,
                             4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                             2.445134137142996e+00, 3.754408661907416e+00};
  const double low = 0.02425;
  if (p < low) {
    double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q +
            c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low)
    return -normalQuantile(1 - p);
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) *
         q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/// P(|T| <= t) for Student's t with `dof` degrees of freedom, exactly
/// (Abramowitz and Stegun 26.7.3 and 26.7.4: a finite series in cos(theta),
/// theta = atan(t / sqrt(dof))).
static double centralProbability(double t, unsigned dof) {
  double theta = std::atan(t / std::sqrt(double(dof)));
  double c2 = std::cos(theta) * std::cos(theta), sum = 1, term = 1;
  if (dof % 2 == 0) {
    for (unsigned i = 2; i + 2 <= dof; i += 2) {
      term *= c2 * double(i - 1) / double(i);
      sum += term;
    }
    return std::sin(theta) * sum;
  }
  if (dof == 1)
    return 2 * theta / M_PI;
  for (unsigned i = 3; i + 2 <= dof; i += 2) {
    term *= c2 * double(i - 1) / double(i);
    sum += term;
  }
  return 2 / M_PI * (theta + std::sin(theta) * std::cos(theta) * sum);
}

double cmm::profile::median(std::vector<double> samples) {
  if (samples.empty())
    return 0;
  std::sort(samples.begin(), samples.end());
  size_t h = samples.size() / 2;
  return samples.size() % 2 ? samples[h] : (samples[h - 1] + samples[h]) / 2;
}

double cmm::profile::studentT(double confidence, unsigned dof) {
  if (dof == 0)
    return std::numeric_limits<double>::infinity();
  double p = 0.5 + confidence / 2; // the upper quantile
  if (dof > 1000) {
    // G. W. Hill, Algorithm 396 (CACM 13, 1970): the first terms of the
    // Cornish-Fisher expansion of t in powers of 1/dof.
    double z = normalQuantile(p), z3 = z * z * z;
    return z + (z3 + z) / (4.0 * dof);
  }
  // Bisection on the exact distribution function.
  double lo = 0, hi = 1;
  while (centralProbability(hi, dof) < confidence)
    hi *= 2;
  for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; ++i) {
    double mid = (lo + hi) / 2;
    (centralProbability(mid, dof) < confidence ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double cmm::profile::relativeHalfWidth(const RunningStats &stats,
                                       double confidence) {
  if (stats.count() < 2 || stats.mean() <= 0)
    return std::numeric_limits<double>::infinity();
  return studentT(confidence, stats.count() - 1) * stats.stddev() /
         std::sqrt(double(stats.count())) / stats.mean();
}

Sampled
cmm::profile::sampleUntilConfident(const std::function<double()> &measure,
                                   const SamplingRule &rule) {
  Sampled out;
  double warmUp = measure();
  double spent = warmUp;
  if (warmUp >= rule.maxSeconds) {
    out.stats.add(warmUp);
    out.reason = StopReason::MaxSeconds;
    return out;
  }
  unsigned minReps = std::max(2u, rule.minReps);
  unsigned maxReps = std::max(minReps, rule.maxReps);
  for (;;) {
    double t = measure();
    out.stats.add(t);
    spent += t;
    if (out.stats.count() >= minReps &&
        relativeHalfWidth(out.stats, rule.confidence) <= rule.tolerance) {
      out.reason = StopReason::Confident;
      return out;
    }
    if (out.stats.count() >= maxReps) {
      out.reason = StopReason::MaxReps;
      return out;
    }
    if (spent >= rule.maxSeconds && out.stats.count() >= minReps) {
      out.reason = StopReason::MaxSeconds;
      return out;
    }
  }
}

double cmm::profile::budgetedMaxSeconds(double cap, double wallSecondsLeft,
                                        size_t signaturesLeft,
                                        double measuredPerWall) {
  if (signaturesLeft == 0)
    return cap;
  double share = std::max(0.0, wallSecondsLeft) / double(signaturesLeft) *
                 std::clamp(measuredPerWall, 0.05, 1.0);
  return std::min(cap, share);
}
