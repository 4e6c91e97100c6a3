//===- Fused.cpp - Fused elementwise kernels: text and reference run -----===//

#include "cmmrt/Fused.h"

#include "cmmrt/Numbers.h"
#include "cmmrt/Scalar.h"
#include "cmmrt/VectorMath.h"

#include <cstdlib>

using namespace cmmrt;
using namespace cmmrt::fused;

const char *cmmrt::fused::functionName(const Step &step) {
  switch (step.fn) {
  case StepFn::Neg:
    return "neg";
  case StepFn::Binary:
    switch (step.binary) {
#define CMM_BINARY(Enumerator, name)                                           \
  case BinaryFn::Enumerator:                                                   \
    return #name;
#include "cmmrt/ElementFunctions.def"
    }
    break;
  case StepFn::Map:
    switch (step.map) {
#define CMM_MAP(Enumerator, name)                                              \
  case MapFn::Enumerator:                                                      \
    return #name;
#include "cmmrt/ElementFunctions.def"
    }
    break;
  }
  return "?";
}

bool cmmrt::fused::stepFunction(const std::string &name, Step &step) {
  if (name == "neg") {
    step.fn = StepFn::Neg;
    return true;
  }
#define CMM_BINARY(Enumerator, text)                                           \
  if (name == #text) {                                                         \
    step.fn = StepFn::Binary;                                                  \
    step.binary = BinaryFn::Enumerator;                                        \
    return true;                                                               \
  }
#define CMM_MAP(Enumerator, text)                                              \
  if (name == #text) {                                                         \
    step.fn = StepFn::Map;                                                     \
    step.map = MapFn::Enumerator;                                              \
    return true;                                                               \
  }
#include "cmmrt/ElementFunctions.def"
  return false;
}

void cmmrt::fused::forEachChunk(int64_t rows, int64_t cols, const Operand *in,
                                int numInputs, double *out, ChunkFn body) {
  forEachChunk<ChunkFn>(rows, cols, in, numInputs, out, body);
}

namespace {
std::string formatArg(const Arg &a) {
  switch (a.kind) {
  case Arg::Input:
    return "%i" + std::to_string(a.index);
  case Arg::Step:
    return "%t" + std::to_string(a.index);
  case Arg::Constant:
    return shortest(a.value);
  }
  return "?";
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// `%iK`, `%tK` (K below `bound`) or a number.
bool parseArg(const std::string &text, int32_t inputs, int32_t steps, Arg &a,
              std::string &error) {
  if (text.size() > 2 && text[0] == '%' && (text[1] == 'i' || text[1] == 't')) {
    char *end = nullptr;
    long k = std::strtol(text.c_str() + 2, &end, 10);
    int32_t bound = text[1] == 'i' ? inputs : steps;
    if (*end || k < 0 || k >= bound) {
      error = "'" + text + "' names no " +
              (text[1] == 'i' ? "input" : "earlier step");
      return false;
    }
    a.kind = text[1] == 'i' ? Arg::Input : Arg::Step;
    a.index = int32_t(k);
    return true;
  }
  char *end = nullptr;
  a.value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end) {
    error = "'" + text + "' is neither %iK, %tK nor a number";
    return false;
  }
  a.kind = Arg::Constant;
  return true;
}
} // namespace

std::string cmmrt::fused::format(const Kernel &kernel) {
  std::string text;
  for (const Step &s : kernel.steps) {
    text += functionName(s);
    for (int a = 0; a < s.arity(); ++a)
      text += (a ? ", " : " ") + formatArg(s.args[a]);
    text += "; ";
  }
  return text + "yield " + formatArg(kernel.result);
}

bool cmmrt::fused::parse(const std::string &text, int32_t numInputs,
                         Kernel &kernel, std::string &error) {
  kernel = Kernel{};
  kernel.numInputs = numInputs;
  size_t begin = 0;
  bool yielded = false;
  while (begin <= text.size()) {
    size_t end = text.find(';', begin);
    std::string part =
        trim(text.substr(begin, end == std::string::npos ? end : end - begin));
    begin = end == std::string::npos ? text.size() + 1 : end + 1;
    if (yielded) {
      error = "nothing may follow 'yield'";
      return false;
    }
    size_t space = part.find(' ');
    std::string name = part.substr(0, space);
    std::vector<std::string> args;
    if (space != std::string::npos) {
      std::string rest = part.substr(space + 1);
      for (size_t b = 0; b <= rest.size();) {
        size_t comma = rest.find(',', b);
        args.push_back(trim(
            rest.substr(b, comma == std::string::npos ? comma : comma - b)));
        b = comma == std::string::npos ? rest.size() + 1 : comma + 1;
      }
    }
    const int32_t steps = int32_t(kernel.steps.size());
    if (name == "yield") {
      if (args.size() != 1) {
        error = "'yield' takes one value";
        return false;
      }
      if (!parseArg(args[0], numInputs, steps, kernel.result, error))
        return false;
      yielded = true;
      continue;
    }
    Step step;
    if (!stepFunction(name, step)) {
      error = "'" + name + "' is not an elementwise function";
      return false;
    }
    if (int(args.size()) != step.arity()) {
      error = "'" + name + "' takes " + std::to_string(step.arity()) +
              " argument(s), not " + std::to_string(args.size());
      return false;
    }
    for (int a = 0; a < step.arity(); ++a)
      if (!parseArg(args[a], numInputs, steps, step.args[a], error))
        return false;
    kernel.steps.push_back(step);
  }
  if (!yielded) {
    error = "the kernel does not end in 'yield'";
    return false;
  }
  return true;
}

namespace {
/// Applies one step to n elements: the functions inlined in their loops.
void apply(const Step &s, const double *x, const double *y, double *out,
           int64_t n) {
  switch (s.fn) {
  case StepFn::Neg:
    for (int64_t e = 0; e < n; ++e)
      out[e] = scalar::neg(x[e]);
    return;
  case StepFn::Map:
    if (isVectorMathFunction(s.map)) {
      vectorMap(s.map, x, out, n);
      return;
    }
    for (int64_t e = 0; e < n; ++e)
      out[e] = applyMap(s.map, x[e]); // sqrt, abs, floor, round: scalar::
    return;
  case StepFn::Binary:
    switch (s.binary) {
#define CMM_BINARY(Enumerator, name)                                           \
  case BinaryFn::Enumerator:                                                   \
    for (int64_t e = 0; e < n; ++e)                                            \
      out[e] = scalar::name(x[e], y[e]);                                       \
    return;
#include "cmmrt/ElementFunctions.def"
    }
    return;
  }
}
} // namespace

void cmmrt::fused::run(const Kernel &kernel, int64_t rows, int64_t cols,
                       const Operand *in, double *out) {
  const size_t steps = kernel.steps.size();
  // A chunk of every step's values, and of every constant argument.
  std::vector<double> values((steps + 2 * steps + 1) * kChunk);
  auto valuesOf = [&](size_t k) { return values.data() + k * kChunk; };
  size_t constants = steps;
  auto place = [&](const Arg &a) -> size_t {
    if (a.kind != Arg::Constant)
      return 0;
    double *c = valuesOf(constants);
    for (int64_t e = 0; e < kChunk; ++e)
      c[e] = a.value;
    return constants++;
  };
  std::vector<size_t> constantOf(2 * steps + 1);
  for (size_t s = 0; s < steps; ++s)
    for (int a = 0; a < kernel.steps[s].arity(); ++a)
      constantOf[2 * s + a] = place(kernel.steps[s].args[a]);
  constantOf[2 * steps] = place(kernel.result);

  forEachChunk(rows, cols, in, kernel.numInputs, out,
               [&](int64_t n, const double *const *x, double *y) {
                 auto read = [&](const Arg &a, size_t slot) -> const double * {
                   switch (a.kind) {
                   case Arg::Input:
                     return x[a.index];
                   case Arg::Step:
                     return valuesOf(a.index);
                   case Arg::Constant:
                     return valuesOf(constantOf[slot]);
                   }
                   return nullptr;
                 };
                 for (size_t s = 0; s < steps; ++s) {
                   const Step &step = kernel.steps[s];
                   apply(step, read(step.args[0], 2 * s),
                         step.arity() == 2 ? read(step.args[1], 2 * s + 1)
                                           : nullptr,
                         valuesOf(s), n);
                 }
                 const double *r = read(kernel.result, 2 * steps);
                 for (int64_t e = 0; e < n; ++e)
                   y[e] = r[e];
               });
}
