//===- Numbers.h - Number text and hashing shared by cmm --------*- C++ -*-===//
//
// The helpers the compiler and the runtime both need and must agree on: the
// shortest decimal text that reads back to the same double (machine models,
// generated C++ literals, CSV/Matrix Market output, traces), and (from
// cmmrt/Mix64.h) the splitmix64 finalizer that hashes random-number call
// sites (front end) and element coordinates (cmmrt/Random.h).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_NUMBERS_H
#define CMMRT_NUMBERS_H

#include "cmmrt/Mix64.h"

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

} // namespace cmmrt

#endif // CMMRT_NUMBERS_H
