//===- PassUtils.cpp - Rule statistics and the rewrite log ------*- C++ -*-===//
//
// Every rewrite pass counts its rules by name; the counts go to the pass's
// Statistics (-mlir-pass-statistics) and, while a `cmm-flop-report
// stage=before` has opened it, to the function's `cmm.rewrite_log`
// attribute, which `cmm-flop-report stage=after` prints and removes.
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/Passes.h"

#include "RewriteLog.h"

#include "llvm/ADT/Statistic.h"

using namespace mlir;

void cmm::recordRewrites(Pass &pass, func::FuncOp func,
                         const RuleCounts &counts) {
  // Statistics only track in builds with LLVM_ENABLE_STATS (assertions
  // on); the rewrite log below works in every build.
#if LLVM_ENABLE_STATS
  for (Pass::Statistic *stat : pass.getStatistics())
    if (auto it = counts.find(stat->getName()); it != counts.end())
      *stat += it->second;
#endif

  auto log = func->getAttrOfType<DictionaryAttr>(kRewriteLogAttr);
  if (!log)
    return;
  MLIRContext *ctx = func.getContext();
  NamedAttrList entries(log);
  for (const auto &entry : counts) {
    if (entry.second == 0)
      continue;
    std::string name = (pass.getArgument() + ":" + entry.first()).str();
    int64_t before = 0;
    if (auto old = entries.get(name))
      before = cast<IntegerAttr>(old).getInt();
    entries.set(name, IntegerAttr::get(IntegerType::get(ctx, 64),
                                       before + entry.second));
  }
  func->setAttr(kRewriteLogAttr, entries.getDictionary(ctx));
}
