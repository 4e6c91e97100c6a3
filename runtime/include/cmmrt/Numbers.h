//===- Numbers.h - Number text and hashing shared by cmm --------*- C++ -*-===//
//
// The helpers the compiler and the runtime both need and must agree on: the
// shortest decimal text that reads back to the same double (machine models,
// generated C++ literals, CSV/Matrix Market output, traces), and the
// splitmix64 finalizer that hashes random-number call sites (front end) and
// element coordinates (cmmrt/Random.h).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_NUMBERS_H
#define CMMRT_NUMBERS_H

#include <cstdint>
#include <string>

namespace cmmrt {

/// Appends the shortest decimal form of `value` that reads back exactly
/// (std::to_chars). Non-finite values are spelled `nanSpelling`,
/// `infSpelling` and `-` followed by `infSpelling`.
void appendShortest(std::string &out, double value,
                    const char *nanSpelling = "nan",
                    const char *infSpelling = "inf");

/// The same as a string.
std::string shortest(double value, const char *nanSpelling = "nan",
                     const char *infSpelling = "inf");

/// The splitmix64 finalizer (Steele, Lea, Flood 2014): a bijective mix of
/// 64 bits whose output passes BigCrush when fed a counter.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace cmmrt

#endif // CMMRT_NUMBERS_H
