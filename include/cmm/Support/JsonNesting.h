//===- JsonNesting.h - Refuse deeply nested JSON before parsing -*- C++ -*-===//
//
// llvm::json parses, and destroys, arrays and objects recursively: a file
// nested 10^5 deep overflows an 8 MiB stack before any check of its
// contents runs (cmm-profile --refine crashed on one). The JSON the cmm
// tools read (machine models, run traces) is a few levels deep, so a
// linear scan refuses anything deeper than a small limit first.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SUPPORT_JSONNESTING_H
#define CMM_SUPPORT_JSONNESTING_H

#include <string>
#include <string_view>

namespace cmm {

/// The deepest nesting of arrays and objects the tools accept.
constexpr unsigned kMaxJsonNesting = 64;

/// False, with "nested deeper than 64 levels (at byte N)" in `error`, if
/// `text` nests arrays and objects deeper than `limit`; brackets inside
/// strings do not count.
inline bool checkJsonNesting(std::string_view text, std::string &error,
                             unsigned limit = kMaxJsonNesting) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) {
        error = "nested deeper than " + std::to_string(limit) +
                " levels (at byte " + std::to_string(i) + ")";
        return false;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

} // namespace cmm

#endif // CMM_SUPPORT_JSONNESTING_H
