//===- Plan.cpp - Names of the op codes -------------------------*- C++ -*-===//

#include "cmmrt/Plan.h"

#include <cstdlib>
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

double cmmrt::plan::memoryLimitFromEnvironment() {
  const char *env = std::getenv("CMM_MAX_MEMORY");
  if (!env)
    return 0;
  char *end = nullptr;
  double bytes = std::strtod(env, &end);
  return end != env && *end == '\0' && bytes > 0 ? bytes : 0;
}
