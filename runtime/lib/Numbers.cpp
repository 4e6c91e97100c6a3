//===- Numbers.cpp - Shortest round-trip number text ------------*- C++ -*-===//

#include "cmmrt/Numbers.h"

#include <charconv>
#include <cmath>

void cmmrt::appendShortest(std::string &out, double value,
                           const char *nanSpelling, const char *infSpelling) {
  if (std::isnan(value)) {
    out += nanSpelling;
    return;
  }
  if (std::isinf(value)) {
    if (value < 0)
      out += '-';
    out += infSpelling;
    return;
  }
  char buffer[64];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

std::string cmmrt::shortest(double value, const char *nanSpelling,
                            const char *infSpelling) {
  std::string out;
  appendShortest(out, value, nanSpelling, infSpelling);
  return out;
}
