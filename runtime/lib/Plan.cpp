//===- Plan.cpp - Names of the op codes -------------------------*- C++ -*-===//

#include "cmmrt/Plan.h"

#include <cstring>
#include <iterator>

using namespace cmmrt::plan;

namespace {
constexpr const char *kOpCodeNames[] = {
#define CMM_OP(Enumerator, name) name,
#include "cmmrt/OpCodes.def"
};
} // namespace

const char *cmmrt::plan::opCodeName(OpCode code) {
  return kOpCodeNames[static_cast<unsigned>(code)];
}

bool cmmrt::plan::opCodeFromName(const char *name, OpCode &code) {
  for (unsigned i = 0; i < std::size(kOpCodeNames); ++i)
    if (std::strcmp(kOpCodeNames[i], name) == 0) {
      code = static_cast<OpCode>(i);
      return true;
    }
  return false;
}
