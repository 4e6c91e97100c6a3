//===- Outputs.cpp - A program's prints and saves, in order ---------------===//

#include "cmmrt/Outputs.h"

#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/TaskKernels.h"

#include <cstdio>
#include <utility>

using namespace cmmrt;
using namespace cmmrt::plan;

OutputWriter::OutputWriter(const Plan &plan, std::string dumpPrints)
    : plan(plan), dumpPrints(std::move(dumpPrints)) {}

bool OutputWriter::writeComplete(
    int32_t before, const std::function<CompleteOutput(int32_t)> &find) {
  for (; good && next < plan.numOutputs; ++next) {
    int32_t index = plan.outputs[next];
    if (index >= before)
      break;
    const Op &op = plan.ops[index];
    if (op.code == OpCode::PrintScalar) {
      std::printf("%s\n", formatScalar(op.text, op.scalar).c_str());
      std::fflush(stdout);
      continue;
    }
    CompleteOutput value = find(index);
    if (!value.complete())
      break;
    std::string error;
    if (value.line) {
      std::printf("%s\n", value.line->c_str());
    } else if (op.code == OpCode::Print) {
      std::printf("%s\n", formatSummary(op.text, *value.matrix).c_str());
      if (!dumpPrints.empty())
        good = writeMatrix(dumpPrints + "/print" + std::to_string(dumped++) +
                               ".npy",
                           *value.matrix, error);
    } else {
      good = writeMatrix(op.text, *value.matrix, error);
    }
    std::fflush(stdout);
    if (!good)
      std::fprintf(stderr, "cmm: rank 0: %s: error: %s (task '%s')%s\n",
                   sourceLocation(plan, index).c_str(), error.c_str(),
                   gatherTaskName(index).c_str(),
                   sourceExcerpt(plan, index).c_str());
  }
  return good;
}

std::string OutputWriter::gatherTaskName(int32_t op) const {
  for (int32_t t = 0; t < plan.numTasks; ++t)
    if (plan.tasks[t].kind == TaskKind::Gather && plan.tasks[t].op == op)
      return plan.tasks[t].name;
  return "";
}

bool OutputWriter::finish() {
  if (good && next < plan.numOutputs) {
    std::fprintf(stderr,
                 "cmm: rank 0: %s: error: internal: no gathered result\n",
                 sourceLocation(plan, plan.outputs[next]).c_str());
    good = false;
  }
  return good;
}
