//===- Interpreter.cpp - Reference interpreter for cmm IR -------*- C++ -*-===//

#include "cmm/Interpreter/Interpreter.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/Observed.h"
#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

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
  Block &body = main.getBody().front();
  llvm::DenseSet<Operation *> live = observedOps(body);
  // Free each matrix after its last use, so peak memory follows the program.
  DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    if (live.contains(&op))
      for (Value operand : op.getOperands())
        lastUse[operand] = &op;

  for (Operation &op : body) {
    if (!live.contains(&op))
      continue;
    if (failed(checkFits(&op)) || failed(execute(&op)))
      return failure();
    for (Value operand : op.getOperands())
      if (lastUse.lookup(operand) == &op)
        values.erase(operand);
    for (Value result : op.getResults())
      if (result.use_empty())
        values.erase(result);
  }
  out.flush();
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
  if (isa<func::ReturnOp>(op))
    return success();
  auto semantics = dyn_cast<OpSemantics>(op);
  if (!semantics || op->getNumResults() != 1)
    return op->emitError("the reference interpreter cannot execute '")
           << op->getName() << "'";
  SmallVector<const Matrix *> operands;
  for (Value operand : op->getOperands())
    operands.push_back(&get(operand));
  Matrix result;
  if (failed(semantics.evaluate(operands, result)))
    return failure();
  set(op->getResult(0), std::move(result));
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
