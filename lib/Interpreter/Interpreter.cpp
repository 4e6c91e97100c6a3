//===- Interpreter.cpp - Reference interpreter for cmm IR -------*- C++ -*-===//

#include "cmm/Interpreter/Interpreter.h"

#include "cmm/Dialect/CmmDialect.h"
#include "cmm/Dialect/Observed.h"
#include "cmm/Dialect/RuntimeMapping.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Random.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <memory>
#include <unistd.h>

using namespace mlir;
using namespace cmm;
using cmmrt::Matrix;

namespace {

using MatrixPtr = std::shared_ptr<const Matrix>;

class Interpreter {
public:
  Interpreter(raw_ostream &out, StringRef dumpDir)
      : out(out), dumpDir(dumpDir) {
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
  LogicalResult binary(Operation *op, cmmrt::BinaryFn fn) {
    set(op->getResult(0), cmmrt::broadcast(fn, get(op->getOperand(0)),
                                           get(op->getOperand(1))));
    return success();
  }

  raw_ostream &out;
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

LogicalResult Interpreter::execute(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<ConstantOp>([&](ConstantOp c) {
        auto type = c.getType();
        Matrix m(type.getDimSize(0), type.getDimSize(1));
        auto elements = c.getValue().getValues<double>();
        std::copy(elements.begin(), elements.end(), m.data());
        set(c, std::move(m));
        return success();
      })
      .Case<RangeOp>([&](RangeOp r) {
        set(r, cmmrt::range(r.getStart(), r.getStop()));
        return success();
      })
      .Case<FillOp>([&](FillOp f) {
        set(f, Matrix(f.getType().getDimSize(0), f.getType().getDimSize(1),
                      f.getValue().convertToDouble()));
        return success();
      })
      .Case<EyeOp>([&](EyeOp e) {
        set(e, cmmrt::identity(e.getType().getDimSize(0)));
        return success();
      })
      .Case<RandOp>([&](RandOp r) {
        Matrix m(r.getType().getDimSize(0), r.getType().getDimSize(1));
        cmmrt::fillRandom(m, r.getDistribution() == Distribution::Normal,
                          static_cast<uint64_t>(r.getSeed()),
                          static_cast<uint64_t>(r.getCallId()));
        set(r, std::move(m));
        return success();
      })
      .Case<LoadOp>([&](LoadOp l) -> LogicalResult {
        Matrix m;
        std::string error;
        if (!cmmrt::readMatrix(l.getPath().str(), m, error))
          return l.emitError(error);
        auto shape = l.getType().getShape();
        if (m.rows() != shape[0] || m.cols() != shape[1])
          return l.emitError("'")
                 << l.getPath() << "' now holds a " << m.rows() << "x"
                 << m.cols() << " matrix but held " << formatShape(shape)
                 << " when the program was compiled";
        set(l, std::move(m));
        return success();
      })
      .Case<MatmulOp>([&](MatmulOp m) {
        set(m, cmmrt::matmul(get(m.getLhs()), get(m.getRhs())));
        return success();
      })
      .Case<PowOp>([&](PowOp p) {
        set(p, cmmrt::power(get(p.getInput()), p.getExponent()));
        return success();
      })
      .Case<InvOp>([&](InvOp i) -> LogicalResult {
        Matrix r;
        if (!cmmrt::inverse(get(i.getInput()), r))
          return i.emitError("inv: the ")
                 << formatShape(i.getType().getShape())
                 << " matrix is singular";
        set(i, std::move(r));
        return success();
      })
      .Case<SolveOp>([&](SolveOp s) -> LogicalResult {
        Matrix r;
        if (!cmmrt::solve(get(s.getLhs()), get(s.getRhs()), r))
          return s.emitError("A \\ B: the ")
                 << formatShape(
                        cast<RankedTensorType>(s.getLhs().getType()).getShape())
                 << " matrix A is singular";
        set(s, std::move(r));
        return success();
      })
      .Case<TransposeOp>([&](TransposeOp t) {
        set(t, cmmrt::transpose(get(t.getInput())));
        return success();
      })
      .Case<ScaleOp>([&](ScaleOp s) {
        set(s, cmmrt::scale(get(s.getInput()),
                            s.getFactor().convertToDouble()));
        return success();
      })
      .Case<NegOp>([&](NegOp n) {
        set(n, cmmrt::negate(get(n.getInput())));
        return success();
      })
      .Case<MapOp>([&](MapOp m) {
        set(m, cmmrt::map(toRuntime(m.getFn()), get(m.getInput())));
        return success();
      })
      .Case<AddOp>([&](AddOp o) { return binary(o, cmmrt::BinaryFn::Add); })
      .Case<SubOp>([&](SubOp o) { return binary(o, cmmrt::BinaryFn::Sub); })
      .Case<MulOp>([&](MulOp o) { return binary(o, cmmrt::BinaryFn::Mul); })
      .Case<DivOp>([&](DivOp o) { return binary(o, cmmrt::BinaryFn::Div); })
      .Case<EPowOp>([&](EPowOp o) { return binary(o, cmmrt::BinaryFn::Pow); })
      .Case<MaxOp>([&](MaxOp o) { return binary(o, cmmrt::BinaryFn::Max); })
      .Case<MinOp>([&](MinOp o) { return binary(o, cmmrt::BinaryFn::Min); })
      .Case<ModOp>([&](ModOp o) { return binary(o, cmmrt::BinaryFn::Mod); })
      .Case<CmpOp>([&](CmpOp o) {
        return binary(o, toRuntime(o.getPredicate()));
      })
      .Case<ReduceOp>([&](ReduceOp r) {
        int dim = r.getDim() ? static_cast<int>(*r.getDim()) : 0;
        set(r, cmmrt::reduce(toRuntime(r.getKind()), get(r.getInput()), dim));
        return success();
      })
      .Case<NormOp>([&](NormOp n) {
        Matrix r(1, 1);
        r(0, 0) = cmmrt::frobeniusNorm(get(n.getInput()));
        set(n, std::move(r));
        return success();
      })
      .Case<PrintOp>([&](PrintOp p) -> LogicalResult {
        out << cmmrt::formatSummary(p.getLabel().str(), get(p.getInput()))
            << "\n";
        out.flush(); // keep program output ordered with diagnostics
        if (dumpDir.empty())
          return success();
        std::string error,
            path = dumpDir + "/print" + std::to_string(numPrints++) + ".npy";
        if (!cmmrt::writeMatrix(path, get(p.getInput()), error))
          return p.emitError(error);
        return success();
      })
      .Case<PrintScalarOp>([&](PrintScalarOp p) {
        out << cmmrt::formatScalar(p.getLabel().str(),
                                   p.getValue().convertToDouble())
            << "\n";
        out.flush();
        return success();
      })
      .Case<SaveOp>([&](SaveOp s) -> LogicalResult {
        std::string error;
        if (!cmmrt::writeMatrix(s.getPath().str(), get(s.getInput()), error))
          return s.emitError(error);
        return success();
      })
      .Case<func::ReturnOp>([&](auto) { return success(); })
      .Default([&](Operation *other) {
        return other->emitError("the reference interpreter cannot execute '")
               << other->getName() << "'";
      });
}

LogicalResult cmm::interpret(ModuleOp module, raw_ostream &out,
                             StringRef dumpDir) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.getBody().empty())
    return module.emitError("no 'func.func @main' to interpret");
  if (!main.getBody().hasOneBlock())
    return main.emitError("@main must have a single block");
  return Interpreter(out, dumpDir).run(main);
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
    std::string error,
        path = (dir + "/input" + Twine(count++) + ".npy").str();
    if (!cmmrt::writeMatrix(path, one.valueOf(op.getResult(0)), error))
      return op.emitError(error);
  }
  return success();
}
