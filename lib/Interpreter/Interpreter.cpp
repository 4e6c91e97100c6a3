//===- Interpreter.cpp - Reference interpreter for cmm IR -------*- C++ -*-===//

#include "cmm/Interpreter/Interpreter.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/Observed.h"
#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Random.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <memory>
#include <unistd.h>

using namespace mlir;
using namespace cmm;
using cmmrt::Matrix;

namespace {

using MatrixPtr = std::shared_ptr<const Matrix>;

class Interpreter {
public:
  /// `file`: `out` when it is a file (standard output), whose write errors
  /// are run-time errors at the print.
  Interpreter(raw_ostream &out, StringRef dumpDir,
              llvm::raw_fd_ostream *file = nullptr)
      : out(out), file(file), dumpDir(dumpDir) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    physicalBytes = pages > 0 && pageSize > 0
                        ? static_cast<double>(pages) * pageSize
                        : 1e18;
  }

  LogicalResult run(func::FuncOp main);
  /// One op on its own (an op without operands: rand, load).
  LogicalResult executeAlone(Operation *op) {
    return failed(checkFits(op)) ? failure() : execute(op);
  }
  const Matrix &valueOf(Value v) { return get(v); }

private:
  LogicalResult execute(Operation *op);
  /// Runs the observed ops of `block` with its arguments bound to `args`;
  /// the values its terminator hands on.
  FailureOr<SmallVector<MatrixPtr>> runBlock(Block &block,
                                             ArrayRef<MatrixPtr> args);
  LogicalResult runWhile(WhileOp loop);
  LogicalResult runIf(IfOp branch);
  /// A 1x1 condition's truth; a NaN is an error at `op`.
  FailureOr<bool> truth(Operation *op, const Matrix &condition);
  const Matrix &get(Value v) { return *values.lookup(v); }
  void set(Value v, Matrix m) {
    values[v] = std::make_shared<const Matrix>(std::move(m));
  }
  LogicalResult checkFits(Operation *op);
  LogicalResult flushPrint(Operation *print);

  raw_ostream &out;
  llvm::raw_fd_ostream *file;
  std::string dumpDir;
  unsigned numPrints = 0;
  double physicalBytes;
  DenseMap<Value, MatrixPtr> values;
  /// The iteration numbers of the cmm.while loops running, outermost first
  /// (rand mixes them into its call id).
  SmallVector<int64_t> iterations;
};

} // namespace

/// A matrix that cannot fit in physical memory is an error at the op that
/// makes it, not an out-of-memory kill later.
LogicalResult Interpreter::checkFits(Operation *op) {
  for (Value result : op->getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    double bytes = 8.0 * type.getDimSize(0) * type.getDimSize(1);
    if (bytes > physicalBytes)
      return op->emitError("cannot allocate a ")
             << formatShape(type.getShape()) << " matrix ("
             << cmmrt::formatNumber(bytes / (1 << 30))
             << " GiB): the machine has "
             << cmmrt::formatNumber(physicalBytes / (1 << 30))
             << " GiB of memory";
  }
  return success();
}

LogicalResult Interpreter::run(func::FuncOp main) {
  if (failed(runBlock(main.getBody().front(), {})))
    return failure();
  out.flush();
  return success();
}

FailureOr<SmallVector<MatrixPtr>>
Interpreter::runBlock(Block &block, ArrayRef<MatrixPtr> args) {
  for (auto [arg, value] : llvm::zip_equal(block.getArguments(), args))
    values[arg] = value;
  llvm::DenseSet<Operation *> live = observedOps(block);
  // Free each matrix of this block after its last use (a use in a nested
  // region is one by the op holding it), so peak memory follows the
  // program; values from enclosing blocks stay for the next iteration.
  DenseMap<Value, Operation *> lastUse;
  for (Operation &op : block)
    if (live.contains(&op))
      op.walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (operand.getParentBlock() == &block)
            lastUse[operand] = &op;
      });
  for (BlockArgument arg : block.getArguments())
    if (!lastUse.count(arg))
      values.erase(arg);

  for (Operation &op : block) {
    if (!live.contains(&op))
      continue;
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      SmallVector<MatrixPtr> handed;
      for (Value operand : op.getOperands())
        handed.push_back(values.lookup(operand));
      for (Value operand : op.getOperands())
        if (operand.getParentBlock() == &block)
          values.erase(operand);
      return handed;
    }
    if (failed(checkFits(&op)) || failed(execute(&op)))
      return failure();
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (lastUse.lookup(operand) == &op)
          values.erase(operand);
    });
    for (Value result : op.getResults())
      if (result.use_empty())
        values.erase(result);
  }
  return SmallVector<MatrixPtr>();
}

FailureOr<bool> Interpreter::truth(Operation *op, const Matrix &condition) {
  double c = condition.data()[0];
  if (std::isnan(c))
    return op->emitError("the condition is NaN");
  return c != 0;
}

LogicalResult Interpreter::runWhile(WhileOp loop) {
  SmallVector<MatrixPtr> carried;
  for (Value init : loop.getInits())
    carried.push_back(values.lookup(init));
  iterations.push_back(0);
  for (;;) {
    ++iterations.back();
    FailureOr<SmallVector<MatrixPtr>> head =
        runBlock(loop.getBefore().front(), carried);
    if (failed(head))
      return failure();
    FailureOr<bool> go = truth(loop.getConditionOp(), *head->front());
    if (failed(go))
      return failure();
    SmallVector<MatrixPtr> handed(head->begin() + 1, head->end());
    if (!*go) {
      for (auto [result, value] : llvm::zip_equal(loop.getResults(), handed))
        values[result] = value;
      break;
    }
    FailureOr<SmallVector<MatrixPtr>> next =
        runBlock(loop.getAfter().front(), handed);
    if (failed(next))
      return failure();
    carried = std::move(*next);
  }
  iterations.pop_back();
  return success();
}

LogicalResult Interpreter::runIf(IfOp branch) {
  FailureOr<bool> taken = truth(branch, get(branch.getCondition()));
  if (failed(taken))
    return failure();
  Region &region = *taken ? branch.getThenRegion() : branch.getElseRegion();
  FailureOr<SmallVector<MatrixPtr>> results = runBlock(region.front(), {});
  if (failed(results))
    return failure();
  for (auto [result, value] : llvm::zip_equal(branch.getResults(), *results))
    values[result] = value;
  return success();
}

// Flushes a print; standard output on a full disk or a closed descriptor
// loses it, an error at the print (as a failed save is at the save), not
// LLVM's fatal "IO failure on output stream" at exit.
LogicalResult Interpreter::flushPrint(Operation *print) {
  out.flush();
  if (!file || !file->has_error())
    return success();
  std::error_code ec = file->error();
  file->clear_error();
  return print->emitError("cannot write to standard output: ") << ec.message();
}

LogicalResult Interpreter::execute(Operation *op) {
  // Outputs are the interpreter's own; every other op says its value
  // (OpSemantics::evaluate, lib/Dialect/Cmm/CmmOpSemantics.cpp).
  if (auto p = dyn_cast<PrintOp>(op)) {
    const std::string label = p.getLabel().str();
    out << (p.getRows() ? cmmrt::formatDisplay(label, get(p.getInput()))
                        : cmmrt::formatSummary(label, get(p.getInput())))
        << "\n";
    // Flushed: program output stays ordered with diagnostics.
    if (failed(flushPrint(p)))
      return failure();
    if (dumpDir.empty())
      return success();
    std::string error,
        path = dumpDir + "/print" + std::to_string(numPrints++) + ".npy";
    if (!cmmrt::writeMatrix(path, get(p.getInput()), error))
      return p.emitError(error);
    return success();
  }
  if (auto p = dyn_cast<PrintScalarOp>(op)) {
    out << cmmrt::formatScalar(p.getLabel().str(),
                               p.getValue().convertToDouble())
        << "\n";
    return flushPrint(p);
  }
  if (auto s = dyn_cast<SaveOp>(op)) {
    std::string error;
    if (!cmmrt::writeMatrix(s.getPath().str(), get(s.getInput()), error))
      return s.emitError(error);
    return success();
  }
  if (auto loop = dyn_cast<WhileOp>(op))
    return runWhile(loop);
  if (auto branch = dyn_cast<IfOp>(op))
    return runIf(branch);
  if (auto rand = dyn_cast<RandOp>(op); rand && !iterations.empty()) {
    // Each iteration of a run-time loop draws new values.
    auto type = rand.getType();
    Matrix result(type.getDimSize(0), type.getDimSize(1));
    cmmrt::fillRandom(
        result, rand.getDistribution() == Distribution::Normal,
        static_cast<uint64_t>(rand.getSeed()),
        cmmrt::iterationCallId(static_cast<uint64_t>(rand.getCallId()),
                               iterations.data(), iterations.size()));
    set(rand.getResult(), std::move(result));
    return success();
  }
  if (isa<func::ReturnOp>(op))
    return success();
  auto semantics = dyn_cast<OpSemantics>(op);
  if (!semantics || op->getNumResults() == 0)
    return op->emitError("the reference interpreter cannot execute '")
           << op->getName() << "'";
  SmallVector<const Matrix *> operands;
  for (Value operand : op->getOperands())
    operands.push_back(&get(operand));
  SmallVector<Matrix> results(op->getNumResults());
  if (failed(semantics.evaluate(operands, results)))
    return failure();
  for (auto [value, matrix] : llvm::zip_equal(op->getResults(), results))
    set(value, std::move(matrix));
  return success();
}

static LogicalResult interpretMain(ModuleOp module, raw_ostream &out,
                                   StringRef dumpDir,
                                   llvm::raw_fd_ostream *file) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.getBody().empty())
    return module.emitError("no 'func.func @main' to interpret");
  if (!main.getBody().hasOneBlock())
    return main.emitError("@main must have a single block");
  return Interpreter(out, dumpDir, file).run(main);
}

LogicalResult cmm::interpret(ModuleOp module, raw_ostream &out,
                             StringRef dumpDir) {
  return interpretMain(module, out, dumpDir, nullptr);
}

LogicalResult cmm::interpret(ModuleOp module, llvm::raw_fd_ostream &out,
                             StringRef dumpDir) {
  return interpretMain(module, out, dumpDir, &out);
}

LogicalResult cmm::dumpInputs(ModuleOp module, StringRef dir) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.getBody().empty())
    return module.emitError("no 'func.func @main' to take inputs from");
  unsigned count = 0;
  for (Operation &op : main.getBody().front()) {
    if (!isa<RandOp, LoadOp>(op))
      continue;
    Interpreter one(llvm::nulls(), "");
    if (failed(one.executeAlone(&op)))
      return failure();
    std::string error, path = (dir + "/input" + Twine(count++) + ".npy").str();
    if (!cmmrt::writeMatrix(path, one.valueOf(op.getResult(0)), error))
      return op.emitError(error);
  }
  return success();
}
