//===- Plan.cpp - Names of op codes, task kinds, cost classes ---*- C++ -*-===//

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
constexpr const char *kTaskKindNames[] = {
#define CMM_TASK_KIND(Enumerator, name) name,
#include "cmmrt/TaskKinds.def"
};
constexpr const char *kCostClassNames[] = {
#define CMM_COST_CLASS(Enumerator, name, Fallback) name,
#include "cmmrt/CostClasses.def"
};
constexpr CostClass kCostClassFallbacks[] = {
#define CMM_COST_CLASS(Enumerator, name, Fallback) CostClass::Fallback,
#include "cmmrt/CostClasses.def"
};

/// The index of `name` in `names`, or -1.
template <size_t N>
int indexOf(const char *const (&names)[N], const char *name) {
  for (size_t i = 0; i < N; ++i)
    if (std::strcmp(names[i], name) == 0)
      return int(i);
  return -1;
}
} // namespace

const char *cmmrt::plan::opCodeName(OpCode code) {
  return kOpCodeNames[static_cast<unsigned>(code)];
}

unsigned cmmrt::plan::resultCount(OpCode code) {
  switch (code) {
  case OpCode::Qr:
  case OpCode::Eig:
    return 2;
  case OpCode::Svd:
    return 3;
  default:
    return 1;
  }
}

bool cmmrt::plan::opCodeFromName(const char *name, OpCode &code) {
  int i = indexOf(kOpCodeNames, name);
  if (i >= 0)
    code = static_cast<OpCode>(i);
  return i >= 0;
}

const char *cmmrt::plan::taskKindName(TaskKind kind) {
  return kTaskKindNames[static_cast<unsigned>(kind)];
}

bool cmmrt::plan::taskKindFromName(const char *name, TaskKind &kind) {
  int i = indexOf(kTaskKindNames, name);
  if (i >= 0)
    kind = static_cast<TaskKind>(i);
  return i >= 0;
}

bool cmmrt::plan::mayWriteOver(TaskKind kind, int input) {
  return ((kind == TaskKind::GemmAcc || kind == TaskKind::GemmSub) &&
          input == 2) ||
         ((kind == TaskKind::Trsm || kind == TaskKind::Syrk) && input == 1) ||
         (kind == TaskKind::Potrf && input == 0) ||
         kind == TaskKind::Elementwise;
}

const char *cmmrt::plan::costClassName(CostClass cost) {
  return kCostClassNames[static_cast<unsigned>(cost)];
}

bool cmmrt::plan::costClassFromName(const char *name, CostClass &cost) {
  int i = indexOf(kCostClassNames, name);
  if (i >= 0)
    cost = static_cast<CostClass>(i);
  return i >= 0;
}

CostClass cmmrt::plan::costClassFallback(CostClass cost) {
  return kCostClassFallbacks[static_cast<unsigned>(cost)];
}

double cmmrt::plan::memoryLimitFromEnvironment() {
  const char *env = std::getenv("CMM_MAX_MEMORY");
  if (!env)
    return 0;
  char *end = nullptr;
  double bytes = std::strtod(env, &end);
  return end != env && *end == '\0' && bytes > 0 ? bytes : 0;
}
