//===- Outputs.cpp - A program's prints and saves, in order ---------------===//

#include "cmmrt/Outputs.h"

#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/TaskKernels.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

using namespace cmmrt;
using namespace cmmrt::plan;

// Standard output on a full disk or a closed descriptor loses the print:
// an error, as a failed save is.
static bool flushStdout(std::string &error) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout))
    return true;
  error =
      std::string("cannot write to standard output: ") + std::strerror(errno);
  return false;
}

OutputWriter::OutputWriter(const Plan &plan, std::string dumpPrints,
                           int firstDumped)
    : plan(plan), dumpPrints(std::move(dumpPrints)), dumped(firstDumped) {}

bool OutputWriter::writeComplete(
    int32_t before, const std::function<CompleteOutput(int32_t)> &find) {
  for (; good && next < plan.numOutputs; ++next) {
    int32_t index = plan.outputs[next];
    if (index >= before)
      break;
    const Op &op = plan.ops[index];
    std::string error;
    if (op.code == OpCode::PrintScalar) {
      std::printf("%s\n", formatScalar(op.text, op.scalar).c_str());
      if (!(good = flushStdout(error)))
        report(index, error);
      continue;
    }
    CompleteOutput value = find(index);
    if (!value.complete())
      break;
    if (value.line) {
      std::printf("%s\n", value.line->c_str());
    } else if (op.code == OpCode::Print) {
      std::printf("%s\n", op.a ? formatDisplay(op.text, *value.matrix).c_str()
                               : formatSummary(op.text, *value.matrix).c_str());
      if (!dumpPrints.empty())
        good = writeMatrix(dumpPrints + "/print" + std::to_string(dumped++) +
                               ".npy",
                           *value.matrix, error);
    } else {
      good = writeMatrix(op.text, *value.matrix, error);
    }
    if (good)
      good = flushStdout(error);
    if (!good)
      report(index, error);
  }
  return good;
}

void OutputWriter::report(int32_t op, const std::string &error) const {
  // A scalar print is written from the plan: no task computes it.
  std::string task = gatherTaskName(op);
  std::string what = task.empty()
                         ? sourceLocation(plan, op) + ": error: " + error
                         : taskError(plan, op, task, error);
  std::fprintf(stderr, "cmm: rank 0: %s%s\n", what.c_str(),
               sourceExcerpt(plan, op).c_str());
}

std::string OutputWriter::gatherTaskName(int32_t op) const {
  for (int32_t t = 0; t < plan.numTasks; ++t)
    if (plan.tasks[t].kind == TaskKind::Gather && plan.tasks[t].op == op)
      return plan.tasks[t].name;
  return "";
}

bool OutputWriter::finish() {
  if (good && next < plan.numOutputs) {
    report(plan.outputs[next], "internal: no gathered result");
    good = false;
  }
  return good;
}
