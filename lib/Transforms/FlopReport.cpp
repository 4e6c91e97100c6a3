//===- FlopReport.cpp - Print the flop count of each function ---*- C++ -*-===//

#include "cmm/Transforms/FlopCount.h"
#include "cmm/Transforms/Passes.h"

#include "RewriteLog.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace cmm {
#define GEN_PASS_DEF_FLOPREPORT
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {
struct FlopReportPass : public cmm::impl::FlopReportBase<FlopReportPass> {
  using FlopReportBase::FlopReportBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FlopCount flops = countFlops(func);
    llvm::raw_ostream &os = llvm::errs();
    os << "cmm-flop-report: @" << func.getSymName() << " " << stage << ": "
       << llvm::format("%.6g", flops.total) << " flops ("
       << llvm::format("%.6g", flops.matmul) << " in matrix products)\n";
    if (stage == "before") {
      func->setAttr(kRewriteLogAttr, DictionaryAttr::get(&getContext()));
    } else if (stage == "after") {
      if (auto log = func->getAttrOfType<DictionaryAttr>(kRewriteLogAttr)) {
        if (log.empty())
          os << "cmm-flop-report:   no rule fired\n";
        for (NamedAttribute entry : log)
          os << "cmm-flop-report:   " << entry.getName().getValue() << " x"
             << cast<IntegerAttr>(entry.getValue()).getInt() << "\n";
        func->removeAttr(kRewriteLogAttr);
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
