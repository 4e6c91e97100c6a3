//===- DefaultPipeline.cpp - cmm-default-pipeline ---------------*- C++ -*-===//
//
// The pipeline is built by one function (buildDefaultPipeline) from one
// options struct. Its textual form takes the union of the options of its
// stages without declaring them again: `simplify` and `cmm-simplify`'s
// options are read here, every other option is handed to `cmm-plan`'s own
// parser (the options of Planning/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "cmm/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace cmm;

void cmm::buildDefaultPipeline(OpPassManager &pm,
                               const DefaultPipelineOptions &options) {
  if (options.simplify) {
    SimplifyPipelineOptions simplify;
    simplify.flopReport = options.flopReport;
    buildSimplifyPipeline(pm, simplify);
  }
  if (options.fuse)
    pm.nest<func::FuncOp>().addPass(createFuseElementwise());
  pm.addPass(createPlanProgram(options.plan));
}

namespace {
/// The options of the pipeline that are not `cmm-plan`'s.
struct PipelineSwitches : public SimplifyPipelineOptions {
  Option<bool> simplify{*this, "simplify",
                        llvm::cl::desc("Run the algebraic rewrites "
                                       "(cmm-simplify) before planning"),
                        llvm::cl::init(true)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Fuse elementwise chains into kernels "
                                   "(cmm-fuse-elementwise) before planning"),
                    llvm::cl::init(true)};
};

/// The `key[=value]` entries of a pass option string, split at top-level
/// spaces (a value may be quoted or in braces, as MLIR's parser reads it).
SmallVector<StringRef> splitOptions(StringRef text) {
  SmallVector<StringRef> entries;
  size_t begin = 0, depth = 0;
  char quote = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && depth) {
      --depth;
    } else if (c == ' ' && !depth) {
      if (i > begin)
        entries.push_back(text.slice(begin, i));
      begin = i + 1;
    }
  }
  return entries;
}
} // namespace

void cmm::registerPipelines() {
  registerPassPipeline(
      "cmm-default-pipeline",
      "The cmm compiler: cmm-simplify (unless simplify=false), "
      "cmm-fuse-elementwise (unless fuse=false), then cmm-plan; the options "
      "below, and every option of cmm-plan",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PipelineSwitches switches;
        std::string planText;
        std::string switchText;
        for (StringRef entry : splitOptions(text.trim())) {
          StringRef key = entry.split('=').first;
          bool isSwitch =
              key == "simplify" || key == "fuse" || key == "flop-report";
          std::string &into = isSwitch ? switchText : planText;
          into += (into.empty() ? "" : " ") + entry.str();
        }
        if (failed(switches.parseFromString(switchText)))
          return failure();
        std::unique_ptr<Pass> plan = createPlanProgram();
        if (failed(plan->initializeOptions(planText, errorHandler)))
          return failure();
        if (switches.simplify)
          buildSimplifyPipeline(pm, switches);
        if (switches.fuse)
          pm.nest<func::FuncOp>().addPass(createFuseElementwise());
        pm.addPass(std::move(plan));
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printHelp) {
        printHelp(PipelineSwitches());
      });
}
