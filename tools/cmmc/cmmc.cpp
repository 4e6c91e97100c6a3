//===- cmmc.cpp - The cmm compiler driver -----------------------*- C++ -*-===//
//
// cmmc maps its flags onto the options of `cmm-default-pipeline`
// (Pipelines.h: cmm-simplify, then cmm-plan), runs it, and hands the
// planned module to the C++ translator and mpicxx. It plans nothing itself.
//
//   cmmc prog.cmm --emit=ast       the abstract syntax tree
//   cmmc prog.cmm --emit=mlir      the traced cmm IR (the default)
//   cmmc prog.cmm --emit=opt       the cmm IR after cmm-simplify
//   cmmc prog.cmm --emit=plan      the tile-size sweep and the chosen plan
//   cmmc prog.cmm --emit=graph     the IR with the plan (a scheduled
//   cmmtg.graph) cmmc prog.cmm --emit=cpp       the generated C++/MPI program
//   cmmc prog.cmm -o prog          compile it (mpicxx, runtime, OpenBLAS)
//   cmmc prog.cmm --run -np 2      compile and run it on 2 local ranks
//   cmmc prog.cmm --interpret      run it with the reference interpreter
//   cmmc prog.cmm --flop-report    flops before/after and the rules fired
//   cmmc prog.cmm -D n=200 ...     override top-level scalar assignments
//   --O0 skips the rewrites in every mode.
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/Diagnostic.h"
#include "cmm/Frontend/MLIRGen.h"
#include "cmm/Frontend/Parser.h"
#include "cmm/InitAll.h"
#include "cmm/Interpreter/Interpreter.h"
#include "cmm/Pipelines/Pipelines.h"
#include "cmm/Support/LargeStack.h"
#include "cmm/Target/Cpp.h"

#include "Build.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <unistd.h>

namespace cl = llvm::cl;
namespace planning = cmm::planning;

static cl::OptionCategory cmmcCategory("cmmc options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .cmm file>"),
                                          cl::Required, cl::cat(cmmcCategory));

enum class Emit { AST, MLIR, Opt, Plan, Graph, Cpp };
static cl::opt<Emit> emitAction(
    "emit", cl::desc("What to print"), cl::init(Emit::MLIR),
    cl::values(clEnumValN(Emit::AST, "ast", "the abstract syntax tree"),
               clEnumValN(Emit::MLIR, "mlir", "the traced cmm IR"),
               clEnumValN(Emit::Opt, "opt",
                          "the cmm IR after the cmm-simplify pipeline"),
               clEnumValN(Emit::Plan, "plan",
                          "the tile-size sweep and the chosen plan"),
               clEnumValN(Emit::Graph, "graph",
                          "the IR with the chosen plan as a scheduled "
                          "cmmtg.graph (cmm-translate --cmm-to-cpp's input)"),
               clEnumValN(Emit::Cpp, "cpp",
                          "the generated C++/MPI program (the chosen plan)")),
    cl::cat(cmmcCategory));

static cl::opt<bool>
    interpret("interpret",
              cl::desc("Run the program with the reference interpreter"),
              cl::init(false), cl::cat(cmmcCategory));

static cl::opt<bool>
    noOptimize("O0",
               cl::desc("Do not run the algebraic rewrites (cmm-simplify) "
                        "or fuse elementwise chains"),
               cl::init(false), cl::cat(cmmcCategory));

static cl::opt<bool>
    fuse("fuse",
         cl::desc("Fuse chains of elementwise ops into one kernel each "
                  "(cmm-fuse-elementwise; default on, off at --O0)"),
         cl::init(true), cl::cat(cmmcCategory));

static cl::opt<bool> flopReport(
    "flop-report",
    cl::desc("Print the flop count before and after the rewrites, and every "
             "rule that fired (to stderr)"),
    cl::init(false), cl::cat(cmmcCategory));

static cl::opt<std::string> dumpPrints(
    "dump-prints",
    cl::desc("With --interpret or --run, also save each printed matrix in "
             "full precision as DIR/print<N>.npy (DIR is made if missing)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(cmmcCategory));

static cl::opt<std::string> dumpInputsDir(
    "dump-inputs",
    cl::desc("Save every rand/randn/load value, in program order, as "
             "DIR/input<N>.npy, and stop (inputs for benchmark ports)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(cmmcCategory));

static cl::OptionCategory planCategory("cmmc planning options");
static cl::OptionCategory runCategory("cmmc run options");

static cl::opt<bool>
    runProgramFlag("run",
                   cl::desc("Compile the program and run it with mpirun"),
                   cl::init(false), cl::cat(runCategory));

static cl::opt<unsigned>
    rankCount("np",
              cl::desc("With --run: MPI ranks, one per node (default: --nodes, "
                       "else 1)"),
              cl::init(0), cl::cat(runCategory));

static cl::opt<std::string>
    hostfile("hostfile",
             cl::desc("With --run: Open MPI hostfile, passed to mpirun"),
             cl::value_desc("file"), cl::init(""), cl::cat(runCategory));

static cl::opt<std::string> launcher(
    "launcher",
    cl::desc("With --run: mpirun (default; one rank per host of --hostfile) "
             "or srun (Slurm: one task per node of the allocation)"),
    cl::init("mpirun"), cl::cat(runCategory));

static cl::list<std::string> launcherArgs(
    "launcher-arg",
    cl::desc("With --run: an argument for the launcher (repeatable), e.g. "
             "--launcher-arg=--mca --launcher-arg=btl=tcp,self; a --map-by "
             "replaces cmmc's one rank per host"),
    cl::cat(runCategory));

static cl::opt<bool> preloadBinary(
    "preload-binary",
    cl::desc("With --run: pass Open MPI's --preload-binary, which is meant "
             "to copy the program to every host (Open MPI 4.1 then starts "
             "./prog from the working directory, where it may be missing: "
             "prefer --out-dir on a shared path; docs/runtime.md)"),
    cl::init(false), cl::cat(runCategory));

static cl::opt<std::string> outDir(
    "out-dir",
    cl::desc("With --run and no -o: where the program is built (default: "
             "the working directory when it runs on other hosts, a "
             "temporary directory otherwise); every host must see it"),
    cl::value_desc("dir"), cl::init(""), cl::cat(runCategory));

static cl::opt<bool> strictPlacement(
    "strict-placement",
    cl::desc("With --run: stop when ranks the plan runs as separate nodes "
             "share a host too small for them (default: a warning)"),
    cl::init(false), cl::cat(runCategory));

static cl::opt<bool> dryRun(
    "dry-run",
    cl::desc("With --run: print the launch command instead of building and "
             "running the program"),
    cl::init(false), cl::cat(runCategory));

static cl::list<std::string> programArgs(
    "run-arg",
    cl::desc("With --run: an argument for the program (repeatable), e.g. "
             "--run-arg=--stats"),
    cl::cat(runCategory));

static cl::opt<std::string> machineModelPath(
    "machine-model",
    cl::desc("Machine model JSON (docs/machine-model.md); default: the "
             "built-in model of this machine"),
    cl::value_desc("file"), cl::init(""), cl::cat(planCategory));

static cl::opt<unsigned>
    nodeCount("nodes",
              cl::desc("Number of nodes to plan for (default: the model's)"),
              cl::init(0), cl::cat(planCategory));

static cl::list<int64_t> tileSizes(
    "tile-sizes", cl::CommaSeparated,
    cl::desc("Candidate tile sizes (default: 10-70 % and 100 % of the largest "
             "dimension)"),
    cl::cat(planCategory));

static cl::opt<planning::SchedulerKind>
    schedulerChoice("scheduler", cl::desc("Scheduling algorithm"),
                    cl::init(planning::SchedulerKind::HEFT),
                    planning::schedulerKindValues(), cl::cat(planCategory));

static cl::opt<bool> tileCache(
    "tile-cache",
    cl::desc("Reuse tiles already on a node (the node-level tile cache, paper "
             "section 3.2); --tile-cache=false sends a tile for every use on "
             "another node"),
    cl::init(true), cl::cat(planCategory));

static cl::opt<planning::DynamicTiling> dynamicTiling(
    "dynamic-tiling",
    cl::desc("Start matrices with fewer tiles than workers in sub-tiles "
             "(paper section 3.2)"),
    cl::init(planning::DynamicTiling::Auto), planning::dynamicTilingValues(),
    cl::cat(planCategory));

static cl::opt<planning::GemmChoice> gemmChoice(
    "gemm",
    cl::desc("How matrix products run: chosen per product by the cost model, "
             "as tiles, or as COSMA distributed products (docs/cosma.md)"),
    cl::init(planning::GemmChoice::Auto), planning::gemmChoiceValues(),
    cl::cat(planCategory));

static cl::opt<planning::Configure> configure(
    "configure",
    cl::desc("Workers and communicators of each node: as the machine model "
             "gives them, or chosen by simulating each split of the node's "
             "cores (paper section 3.6)"),
    cl::init(planning::Configure::File), planning::configureValues(),
    cl::cat(planCategory));

static cl::opt<std::string> planTrace(
    "plan-trace",
    cl::desc("Write the chosen plan's predicted schedule as Chrome trace "
             "events (open in Perfetto)"),
    cl::value_desc("file.json"), cl::init(""), cl::cat(planCategory));

static cl::opt<std::string> planSvg(
    "plan-svg",
    cl::desc("Draw the chosen plan as a Gantt chart (one row per worker "
             "and communicator)"),
    cl::value_desc("file.svg"), cl::init(""), cl::cat(planCategory));

static cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("name=value: override the first top-level assignment of "
                     "a scalar (repeatable)"),
            cl::cat(cmmcCategory));

static cl::opt<std::string> outputFilename(
    "o",
    cl::desc("Output file: of --emit or --interpret (default: standard "
             "output), or without them the compiled program"),
    cl::value_desc("filename"), cl::init("-"), cl::cat(cmmcCategory));

/// The pipeline's options for `nodes` nodes (0: the model's): the
/// planning flags as they are (cmm-plan's options, Planning/Passes.td).
static cmm::DefaultPipelineOptions pipelineOptions(unsigned nodes,
                                                   llvm::StringRef report) {
  cmm::DefaultPipelineOptions options;
  options.simplify = !noOptimize;
  options.fuse = fuse && !noOptimize;
  options.flopReport = flopReport;
  cmm::PlanProgramOptions &plan = options.plan;
  plan.tileSizes.assign(tileSizes.begin(), tileSizes.end());
  plan.machineModel = machineModelPath;
  plan.nodes = nodes;
  plan.scheduler = schedulerChoice;
  plan.tileCache = tileCache;
  plan.gemm = gemmChoice;
  plan.configure = configure;
  plan.dynamicTiling = dynamicTiling;
  plan.report = report.str();
  plan.planTrace = planTrace;
  plan.planSvg = planSvg;
  return options;
}

/// The launch options of --run for `nodes` ranks.
static cmmc::RunOptions runOptions(unsigned nodes) {
  cmmc::RunOptions run;
  run.ranks = nodes;
  run.launcher = launcher;
  run.hostfile = hostfile;
  run.preloadBinary = preloadBinary;
  run.launcherArgs.assign(launcherArgs.begin(), launcherArgs.end());
  run.programArgs.assign(programArgs.begin(), programArgs.end());
  if (strictPlacement)
    run.programArgs.push_back("--strict-placement");
  if (!dumpPrints.empty())
    run.programArgs.push_back("--dump-prints=" + dumpPrints);
  return run;
}

/// Where --run without -o builds the program: --out-dir, else the working
/// directory when other hosts run it (a hostfile, or srun) and it is not
/// copied to them, else the temporary directory.
static std::string programDirectory() {
  if (!outDir.empty())
    return outDir;
  bool otherHosts = !hostfile.empty() || launcher == "srun";
  if (otherHosts && !preloadBinary)
    return ".";
  llvm::SmallString<128> tmp;
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, tmp);
  return tmp.str().str();
}

/// --dry-run: the launch command, one shell-quoted word per argument.
static int printLaunch(unsigned nodes) {
  std::string program = outputFilename;
  if (program == "-") {
    llvm::SmallString<128> path(programDirectory());
    llvm::sys::path::append(path, "cmm-program-XXXXXX");
    program = path.str().str();
  }
  std::string error;
  std::vector<std::string> args =
      cmmc::launchCommand(program, runOptions(nodes), error);
  if (args.empty()) {
    llvm::errs() << "cmmc: error: " << error << "\n";
    return 1;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef a = args[i];
    bool plain = !a.empty() &&
                 a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                                     "OPQRSTUVWXYZ0123456789-_=.,:/+@%") ==
                     llvm::StringRef::npos;
    llvm::outs() << (i ? " " : "");
    if (plain)
      llvm::outs() << a;
    else // a ' inside closes the quotes, escapes itself, reopens them
      llvm::outs() << "'" << llvm::join(llvm::split(a, '\''), "'\\''") << "'";
  }
  llvm::outs() << "\n";
  return 0;
}

/// `-o prog` and `--run`: translate the planned module, compile it with
/// mpicxx, maybe run it on `nodes` ranks.
static int buildAndRun(mlir::ModuleOp module, unsigned nodes) {
  llvm::SmallString<128> cppPath;
  if (auto ec =
          llvm::sys::fs::createTemporaryFile("cmm-program", "cpp", cppPath)) {
    llvm::errs() << "cmmc: error: cannot create a temporary file: "
                 << ec.message() << "\n";
    return 1;
  }
  llvm::FileRemover removeCpp(cppPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream cpp(cppPath, ec);
    if (ec) {
      llvm::errs() << "cmmc: error: cannot write " << cppPath << ": "
                   << ec.message() << "\n";
      return 1;
    }
    if (mlir::failed(cmm::translateToCpp(module, cpp)))
      return 1;
  }
  std::string program = outputFilename;
  llvm::SmallString<128> tempProgram;
  if (program == "-") {
    llvm::SmallString<128> model(programDirectory());
    llvm::sys::path::append(model, "cmm-program-%%%%%%");
    int fd = -1;
    if (auto ec = llvm::sys::fs::createUniqueFile(model, fd, tempProgram)) {
      llvm::errs() << "cmmc: error: cannot create the program in "
                   << programDirectory() << ": " << ec.message() << "\n";
      return 1;
    }
    ::close(fd);
    // Absolute: other hosts start it from their own working directory.
    llvm::sys::fs::make_absolute(tempProgram);
    llvm::sys::path::remove_dots(tempProgram, /*remove_dot_dot=*/true);
    program = tempProgram.str().str();
  }
  llvm::FileRemover removeProgram(tempProgram);
  std::string error;
  if (!cmmc::compileProgram(cppPath, program, error)) {
    llvm::errs() << "cmmc: error: " << error << "\n";
    return 1;
  }
  if (!runProgramFlag)
    return 0;
  llvm::outs().flush();
  int rc = cmmc::runProgram(program, runOptions(nodes), error);
  if (rc < 0) {
    llvm::errs() << "cmmc: error: " << error << "\n";
    return 1;
  }
  return rc;
}

static bool parseDefines(cmm::MLIRGenOptions &options) {
  std::string error;
  for (const std::string &d : defines)
    if (!cmm::addDefine(d, options, error)) {
      llvm::errs() << "cmmc: error: " << error << "\n";
      return false;
    }
  return true;
}

static int cmmcMain(int argc, char **argv) {
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&cmmcCategory, &planCategory, &runCategory});
  cl::ParseCommandLineOptions(argc, argv, "cmm compiler driver\n");
  if ((nodeCount.getNumOccurrences() && nodeCount == 0) ||
      (rankCount.getNumOccurrences() && rankCount == 0)) {
    llvm::errs() << "cmmc: error: "
                 << (nodeCount.getNumOccurrences() && nodeCount == 0 ? "--nodes"
                                                                     : "-np")
                 << " must be at least 1\n";
    return 1;
  }

  cmm::MLIRGenOptions options;
  if (!parseDefines(options))
    return 1;
  // Output directories are made before anything is compiled, or the command
  // fails about the directory (not later, against a line of the program).
  for (const cl::opt<std::string> *dir : {&dumpPrints, &dumpInputsDir}) {
    if (dir->empty())
      continue;
    std::error_code made = llvm::sys::fs::create_directories(*dir);
    if (!made && !llvm::sys::fs::is_directory(*dir))
      made = std::make_error_code(std::errc::not_a_directory);
    if (made) {
      llvm::errs() << "cmmc: error: --" << dir->ArgStr
                   << ": cannot create directory '" << *dir
                   << "': " << made.message() << "\n";
      return 1;
    }
  }

  std::string errorMessage;
  auto input = mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "cmmc: error: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());

  // `-o prog` without --emit compiles a program; --run also runs it. The
  // program file is written by the compiler, not through `output`, and the
  // plan report (--emit=plan) by the planner.
  bool build =
      runProgramFlag ||
      (!interpret && !emitAction.getNumOccurrences() && outputFilename != "-");
  bool emitPlan = emitAction == Emit::Plan && !interpret && !build;
  bool plan = dumpInputsDir.empty() && !interpret &&
              (build || emitPlan || emitAction == Emit::Graph ||
               emitAction == Emit::Cpp);
  // A plan runs on one MPI rank per node.
  unsigned nodes = nodeCount;
  if (runProgramFlag) {
    if (nodeCount && rankCount && nodeCount != rankCount) {
      llvm::errs() << "cmmc: error: --nodes=" << nodeCount << " and -np "
                   << rankCount
                   << " differ: a plan runs on one MPI rank per node\n";
      return 1;
    }
    nodes = rankCount ? rankCount : (nodeCount ? nodeCount : 1);
    if (dryRun)
      return printLaunch(nodes);
  }
  auto output = mlir::openOutputFile(
      build || emitPlan ? "-" : outputFilename.getValue(), &errorMessage);
  if (!output) {
    llvm::errs() << "cmmc: error: " << errorMessage << "\n";
    return 1;
  }

  if (emitAction == Emit::AST && !interpret) {
    auto program = cmm::parseCmm(sourceMgr, sourceMgr.getMainFileID());
    if (!program)
      return 1;
    cmm::dumpAST(*program, sourceMgr, output->os());
    output->keep();
    return 0;
  }

  mlir::DialectRegistry registry;
  cmm::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false); // users see their source line instead
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  cmm::SourceDiagnosticHandler sourceDiagnostics(sourceMgr, &context);
  // Errors about the options or the program as a whole (no location).
  mlir::ScopedDiagnosticHandler unlocated(
      &context, [](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        if (!llvm::isa<mlir::UnknownLoc>(diag.getLocation()) ||
            diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::failure();
        llvm::errs() << "cmmc: error: " << diag.str() << "\n";
        return mlir::success();
      });

  mlir::OwningOpRef<mlir::ModuleOp> module =
      cmm::importCmm(context, sourceMgr, options);
  if (!module)
    return 1;
  if (mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "cmmc: internal error: the traced IR does not verify\n";
    return 1;
  }

  // The passes: cmm-default-pipeline to plan, else the rewrites alone.
  bool simplify = !noOptimize &&
                  (interpret || emitAction == Emit::Opt || flopReport || plan);
  if (plan || simplify) {
    mlir::PassManager pm(&context);
    if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
      return 1;
    mlir::applyDefaultTimingPassManagerCLOptions(pm); // -mlir-timing
    if (plan) {
      cmm::buildDefaultPipeline(
          pm,
          pipelineOptions(nodes, emitPlan ? outputFilename.getValue() : ""));
    } else {
      cmm::SimplifyPipelineOptions simplifyOptions;
      simplifyOptions.flopReport = flopReport;
      cmm::buildSimplifyPipeline(pm, simplifyOptions);
      // --emit=opt shows the IR the planner gets; the interpreter runs the
      // unfused ops (an oracle independent of the fused kernels).
      if (emitAction == Emit::Opt && !interpret && fuse)
        pm.nest<mlir::func::FuncOp>().addPass(cmm::createFuseElementwise());
    }
    if (mlir::failed(pm.run(*module)))
      return 1;
  }

  if (!dumpInputsDir.empty())
    return mlir::failed(cmm::dumpInputs(*module, dumpInputsDir)) ? 1 : 0;
  if (build && !interpret)
    return buildAndRun(*module, nodes);
  if (emitPlan)
    return 0; // the planner wrote the report
  if (emitAction == Emit::Cpp && !interpret) {
    if (mlir::failed(cmm::translateToCpp(*module, output->os())))
      return 1;
    output->keep();
    return 0;
  }

  if (interpret) {
    // What the program printed before a run-time error is kept.
    output->keep();
    return mlir::failed(cmm::interpret(*module, output->os(), dumpPrints)) ? 1
                                                                           : 0;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  return cmm::runWithLargeStack(cmmcMain, argc, argv);
}
