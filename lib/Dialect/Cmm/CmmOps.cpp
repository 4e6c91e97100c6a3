//===- CmmOps.cpp - Verifiers, folders and custom syntax --------*- C++ -*-===//
//
// Every verifier names the shapes involved so that a shape error in IR reads
// like the front end's: "operand shapes 2x3 and 4x5 ...".
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"

#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace cmm;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

static std::string shapeStr(Value v) { return formatShape(shapeOf(v)); }

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // Point a diagnostic at the value, not at the token after it.
  SMLoc valueLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<DenseFPElementsAttr>(value);
  if (!elements)
    return parser.emitError(valueLoc, "expected dense f64 elements");
  result.addAttribute("value", elements);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), /*elidedAttrs=*/{"value"});
  p << " ";
  p.printAttribute(getValue());
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " does not match result type "
           << getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  int64_t count = getStop() - getStart() + 1;
  if (count < 1)
    return emitOpError("empty range ")
           << getStart() << ":" << getStop() << " (stop is below start)";
  ArrayRef<int64_t> shape = getType().getShape();
  if (shape[0] != 1 || shape[1] != count)
    return emitOpError("range ")
           << getStart() << ":" << getStop() << " has shape 1x" << count
           << " but the result is " << formatShape(shape);
  return success();
}

LogicalResult EyeOp::verify() {
  ArrayRef<int64_t> shape = getType().getShape();
  if (shape[0] != shape[1])
    return emitOpError("identity must be square, got ") << formatShape(shape);
  return success();
}

static LogicalResult verifyMatrixPath(Operation *op, StringRef path) {
  if (cmmrt::formatFromPath(path.str()) == cmmrt::MatrixFormat::Unknown)
    return op->emitOpError("unsupported matrix file format '")
           << path << "' (expected .npy, .mtx or .csv)";
  return success();
}

LogicalResult LoadOp::verify() { return verifyMatrixPath(*this, getPath()); }
LogicalResult SaveOp::verify() { return verifyMatrixPath(*this, getPath()); }

//===----------------------------------------------------------------------===//
// Products and linear algebra
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  ArrayRef<int64_t> a = shapeOf(getLhs()), b = shapeOf(getRhs());
  if (a[1] != b[0])
    return emitOpError("inner dimensions differ: ")
           << formatShape(a) << " * " << formatShape(b);
  ArrayRef<int64_t> r = getType().getShape();
  if (r[0] != a[0] || r[1] != b[1])
    return emitOpError("result shape ")
           << formatShape(r) << " does not match " << formatShape(a) << " * "
           << formatShape(b) << " = " << a[0] << "x" << b[1];
  return success();
}

std::pair<int64_t, int64_t> GemmOp::getReadShape(bool lhs) {
  ArrayRef<int64_t> s = shapeOf(lhs ? getLhs() : getRhs());
  bool transposed = lhs ? getTransposeLhs() : getTransposeRhs();
  return transposed ? std::make_pair(s[1], s[0]) : std::make_pair(s[0], s[1]);
}

LogicalResult GemmOp::verify() {
  if (!getTransposeLhs() && !getTransposeRhs())
    return emitOpError("transposes neither operand: that product is "
                       "'cmm.matmul'");
  auto [m, k] = getReadShape(/*lhs=*/true);
  auto [k2, n] = getReadShape(/*lhs=*/false);
  auto read = [](int64_t rows, int64_t cols, bool transposed) {
    return std::to_string(rows) + "x" + std::to_string(cols) +
           (transposed ? " (transposed)" : "");
  };
  if (k != k2)
    return emitOpError("inner dimensions differ: ")
           << read(m, k, getTransposeLhs()) << " * "
           << read(k2, n, getTransposeRhs());
  ArrayRef<int64_t> r = getType().getShape();
  if (r[0] != m || r[1] != n)
    return emitOpError("result shape ")
           << formatShape(r) << " does not match " << m << "x" << n;
  return success();
}

static LogicalResult verifySquare(Operation *op, Value v, StringRef what) {
  ArrayRef<int64_t> s = shapeOf(v);
  if (s[0] != s[1])
    return op->emitOpError() << what << " needs a square matrix, got "
                             << formatShape(s);
  return success();
}

/// `result` of `op` has the shape rows x cols.
static LogicalResult verifyResultShape(Operation *op, Value result,
                                       ArrayRef<int64_t> expected) {
  if (shapeOf(result) == expected)
    return success();
  return op->emitOpError("result #")
         << cast<OpResult>(result).getResultNumber() << " shape "
         << shapeStr(result) << " should be " << formatShape(expected);
}

LogicalResult PowOp::verify() {
  return verifySquare(*this, getInput(), "matrix power");
}

OpFoldResult PowOp::fold(FoldAdaptor) {
  // A ^ 1 = A.
  if (getExponent() == 1)
    return getInput();
  return {};
}

LogicalResult InvOp::verify() {
  return verifySquare(*this, getInput(), "inverse");
}

LogicalResult SolveOp::verify() {
  // A square A: X has B's shape; otherwise least squares, A's columns by
  // B's columns.
  ArrayRef<int64_t> a = shapeOf(getLhs()), b = shapeOf(getRhs());
  if ((getCholesky() || getTriangular()) && a[0] != a[1])
    return emitOpError("a ")
           << (getCholesky() ? "Cholesky" : "triangular")
           << " solve needs a square matrix, got " << formatShape(a);
  if (int(getCholesky()) + int(bool(getTriangular())) + int(getFullRank()) > 1)
    return emitOpError("takes one of cholesky, triangular and full_rank");
  if (getTransposeLhs() && !getTriangular())
    return emitOpError("reads its matrix transposed only in a triangular "
                       "solve");
  if (getFullRank() && a[0] < a[1])
    return emitOpError("full_rank needs at least as many rows as columns, "
                       "got ")
           << formatShape(a);
  if (a[0] != b[0])
    return emitOpError("row counts differ: ")
           << formatShape(a) << " \\ " << formatShape(b);
  return verifyResultShape(*this, getResult(), {a[1], b[1]});
}

//===----------------------------------------------------------------------===//
// Dense linear algebra
//===----------------------------------------------------------------------===//

LogicalResult CholOp::verify() {
  return verifySquare(*this, getInput(), "Cholesky factorization");
}

LogicalResult QrOp::verify() {
  ArrayRef<int64_t> a = shapeOf(getInput());
  if (a[0] < a[1])
    return emitOpError("thin QR needs at least as many rows as columns, not ")
           << formatShape(a);
  if (failed(verifyResultShape(*this, getQ(), {a[0], a[1]})))
    return failure();
  return verifyResultShape(*this, getR(), {a[1], a[1]});
}

LogicalResult SvdOp::verify() {
  ArrayRef<int64_t> a = shapeOf(getInput());
  int64_t k = std::min(a[0], a[1]);
  if (failed(verifyResultShape(*this, getU(), {a[0], k})) ||
      failed(verifyResultShape(*this, getS(), {k, 1})))
    return failure();
  return verifyResultShape(*this, getV(), {a[1], k});
}

LogicalResult SvdValsOp::verify() {
  ArrayRef<int64_t> a = shapeOf(getInput());
  return verifyResultShape(*this, getResult(), {std::min(a[0], a[1]), 1});
}

LogicalResult EigOp::verify() {
  if (failed(verifySquare(*this, getInput(), "eigendecomposition")))
    return failure();
  int64_t n = shapeOf(getInput())[0];
  if (failed(verifyResultShape(*this, getValues(), {n, 1})))
    return failure();
  return verifyResultShape(*this, getVectors(), {n, n});
}

LogicalResult EigValsOp::verify() {
  if (failed(verifySquare(*this, getInput(), "eigendecomposition")))
    return failure();
  return verifyResultShape(*this, getResult(), {shapeOf(getInput())[0], 1});
}

LogicalResult DetOp::verify() {
  if (failed(verifySquare(*this, getInput(), "determinant")))
    return failure();
  return verifyResultShape(*this, getResult(), {1, 1});
}

LogicalResult PinvOp::verify() {
  ArrayRef<int64_t> a = shapeOf(getInput());
  return verifyResultShape(*this, getResult(), {a[1], a[0]});
}

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
  if (out[0] != in[1] || out[1] != in[0])
    return emitOpError("result shape ")
           << formatShape(out) << " is not the transpose of "
           << formatShape(in);
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  // (A')' = A.
  if (auto inner = getInput().getDefiningOp<TransposeOp>())
    return inner.getInput();
  // The transpose of a 1x1 matrix is itself.
  if (getInput().getType() == getType() && shapeOf(getInput())[0] == 1)
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
  int64_t row = getRow(), col = getCol();
  if (row + out[0] > in[0] || col + out[1] > in[1])
    return emitOpError("the ")
           << formatShape(out) << " block at [" << getRow() << ", " << getCol()
           << "] does not fit in the " << formatShape(in) << " input";
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  // The whole input.
  if (getInput().getType() == getType())
    return getInput();
  // A block of a constant is a constant.
  if (auto dense =
          llvm::dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput())) {
    ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
    if (dense.isSplat())
      return DenseElementsAttr::get(getType(), dense.getSplatValue<double>());
    auto values = llvm::to_vector(dense.getValues<double>());
    std::vector<double> block;
    block.reserve(out[0] * out[1]);
    for (int64_t i = 0; i < out[0]; ++i)
      for (int64_t j = 0; j < out[1]; ++j)
        block.push_back(values[(getRow() + i) * in[1] + getCol() + j]);
    return DenseElementsAttr::get(getType(), ArrayRef<double>(block));
  }
  // A block of a block is one block of the first input.
  if (auto inner = getInput().getDefiningOp<SliceOp>()) {
    getInputMutable().assign(inner.getInput());
    setRow(getRow() + inner.getRow());
    setCol(getCol() + inner.getCol());
    return getResult();
  }
  return {};
}

LogicalResult InsertOp::verify() {
  ArrayRef<int64_t> dest = shapeOf(getDest()), block = shapeOf(getBlock());
  int64_t row = getRow(), col = getCol();
  if (row + block[0] > dest[0] || col + block[1] > dest[1])
    return emitOpError("the ")
           << formatShape(block) << " block at [" << getRow() << ", "
           << getCol() << "] does not fit in the " << formatShape(dest)
           << " destination";
  return success();
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  const bool side = getDim() == 2; // hcat: equal rows, columns add up
  int64_t total = 0;
  ArrayRef<int64_t> first = shapeOf(getInputs().front());
  for (Value v : getInputs()) {
    ArrayRef<int64_t> s = shapeOf(v);
    if (s[side ? 0 : 1] != first[side ? 0 : 1])
      return emitOpError("inputs ")
             << formatShape(first) << " and " << formatShape(s)
             << " differ in their " << (side ? "row" : "column")
             << " count along " << getDim();
    total += s[side ? 1 : 0];
  }
  ArrayRef<int64_t> out = getType().getShape();
  int64_t rows = side ? first[0] : total, cols = side ? total : first[1];
  if (out[0] != rows || out[1] != cols)
    return emitOpError("result shape ")
           << formatShape(out) << " is not the concatenation's " << rows << "x"
           << cols;
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

LogicalResult DiagOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
  bool vector = in[0] == 1 || in[1] == 1;
  int64_t n = vector ? in[0] * in[1] : in[0];
  if (!vector && in[0] != in[1])
    return emitOpError("input ")
           << formatShape(in) << " is neither square nor a vector";
  int64_t rows = n, cols = vector ? n : 1;
  if (out[0] != rows || out[1] != cols)
    return emitOpError("result shape ")
           << formatShape(out) << " should be " << rows << "x" << cols
           << " for a " << formatShape(in) << " input";
  return success();
}

LogicalResult ReshapeOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
  if (in[0] * in[1] != out[0] * out[1])
    return emitOpError("cannot reshape ")
           << formatShape(in) << " to " << formatShape(out)
           << ": the element counts differ";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Column-major order is kept by each reshape, so two are one.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

LogicalResult PrintOp::verify() {
  // display prints every element (docs/language.md).
  ArrayRef<int64_t> in = shapeOf(getInput());
  if (getRows() && in[0] * in[1] > cmmrt::kMaxDisplayElements)
    return emitOpError("with 'rows' prints at most ")
           << cmmrt::kMaxDisplayElements << " elements, got "
           << formatShape(in);
  return success();
}

//===----------------------------------------------------------------------===//
// Run-time control flow
//===----------------------------------------------------------------------===//

/// `what`'s types against `expected`'s, one by one.
static LogicalResult sameTypes(Operation *op, TypeRange got, TypeRange expected,
                               StringRef what, StringRef against) {
  if (got.size() != expected.size())
    return op->emitOpError() << what << " has " << got.size() << " value(s), "
                             << against << " " << expected.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i])
      return op->emitOpError() << what << " #" << i << " is " << got[i] << ", "
                               << against << " " << expected[i];
  return success();
}

static LogicalResult isCondition(Operation *op, Value condition) {
  ArrayRef<int64_t> s = shapeOf(condition);
  if (s[0] != 1 || s[1] != 1)
    return op->emitOpError("condition must be 1x1, got ") << formatShape(s);
  return success();
}

ConditionOp WhileOp::getConditionOp() {
  return cast<ConditionOp>(getBefore().front().getTerminator());
}

LogicalResult WhileOp::verifyRegions() {
  Block &before = getBefore().front(), &after = getAfter().front();
  if (failed(sameTypes(*this, before.getArgumentTypes(), getInits().getTypes(),
                       "'before' argument", "the inits have")))
    return failure();
  auto condition = dyn_cast<ConditionOp>(before.getTerminator());
  if (!condition)
    return emitOpError("'before' must end in cmm.condition");
  if (failed(isCondition(*this, condition.getCondition())) ||
      failed(sameTypes(*this, condition.getArgs().getTypes(), getResultTypes(),
                       "cmm.condition's value", "the results have")) ||
      failed(sameTypes(*this, after.getArgumentTypes(), getResultTypes(),
                       "'after' argument", "the results have")))
    return failure();
  auto end = dyn_cast<EndOp>(after.getTerminator());
  if (!end)
    return emitOpError("'after' must end in cmm.end");
  return sameTypes(*this, end.getValues().getTypes(), getInits().getTypes(),
                   "the body's cmm.end value", "the inits have");
}

LogicalResult IfOp::verifyRegions() {
  if (failed(isCondition(*this, getCondition())))
    return failure();
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    auto end = dyn_cast<EndOp>(region->front().getTerminator());
    if (!end)
      return emitOpError("each branch must end in cmm.end");
    if (failed(sameTypes(*this, end.getValues().getTypes(), getResultTypes(),
                         "a branch's cmm.end value", "the results have")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult ScaleOp::fold(FoldAdaptor) {
  // 1 * A = A.
  if (getFactor().convertToDouble() == 1.0)
    return getInput();
  return {};
}

static LogicalResult verifyBroadcast(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto shape = broadcastShape(shapeOf(lhs), shapeOf(rhs));
  if (failed(shape))
    return op->emitOpError("operand shapes ")
           << shapeStr(lhs) << " and " << shapeStr(rhs)
           << " do not broadcast";
  auto result = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  if (result[0] != shape->first || result[1] != shape->second)
    return op->emitOpError("result shape ")
           << formatShape(result) << " does not match the broadcast of "
           << shapeStr(lhs) << " and " << shapeStr(rhs) << " ("
           << shape->first << "x" << shape->second << ")";
  return success();
}

LogicalResult AddOp::verify() { return verifyBroadcast(*this); }
LogicalResult SubOp::verify() { return verifyBroadcast(*this); }
LogicalResult MulOp::verify() { return verifyBroadcast(*this); }
LogicalResult DivOp::verify() { return verifyBroadcast(*this); }
LogicalResult EPowOp::verify() { return verifyBroadcast(*this); }
LogicalResult MaxOp::verify() { return verifyBroadcast(*this); }
LogicalResult MinOp::verify() { return verifyBroadcast(*this); }
LogicalResult ModOp::verify() { return verifyBroadcast(*this); }
LogicalResult CmpOp::verify() { return verifyBroadcast(*this); }

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = getType().getShape();
  int64_t rows = 1, cols = 1;
  if (auto dim = getDim()) {
    if (*dim == 1)
      cols = in[1];
    else
      rows = in[0];
  }
  if (out[0] != rows || out[1] != cols)
    return emitOpError("result shape ")
           << formatShape(out) << " does not match the reduction of "
           << formatShape(in) << " (expected " << rows << "x" << cols << ")";
  return success();
}

LogicalResult NormOp::verify() {
  ArrayRef<int64_t> out = getType().getShape();
  if (out[0] != 1 || out[1] != 1)
    return emitOpError("result shape ")
           << formatShape(out) << " must be 1x1";
  return success();
}

#define GET_OP_CLASSES
#include "cmm/Dialect/Cmm/CmmOps.cpp.inc"

#include "cmm/Dialect/Cmm/CmmEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// FusedOp, ScalarOp
//===----------------------------------------------------------------------===//

void FusedOp::build(OpBuilder &builder, OperationState &state, Type result,
                    ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(result);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(builder.getF64Type(), input.getLoc());
}

LogicalResult FusedOp::verify() {
  ArrayRef<int64_t> out = shapeOf(getResult());
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    ArrayRef<int64_t> in = shapeOf(input);
    auto shape = broadcastShape(in, out);
    if (failed(shape) || shape->first != out[0] || shape->second != out[1])
      return emitOpError("input ")
             << i << " of shape " << formatShape(in)
             << " does not broadcast to the result shape " << formatShape(out);
  }
  return success();
}

LogicalResult FusedOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " input(s) but its body takes "
           << block.getNumArguments() << " element(s)";
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isF64())
      return emitOpError("body arguments must be f64 elements, not ")
             << arg.getType();
  if (!isa<YieldOp>(block.back()))
    return emitOpError("body must end in cmm.yield");
  for (Operation &op : block) {
    if (isa<ScalarOp, YieldOp>(op))
      continue;
    auto constant = dyn_cast<arith::ConstantOp>(op);
    if (!constant || !constant.getType().isF64())
      return op.emitOpError("cannot appear in a cmm.fused body (only "
                            "cmm.scalar, f64 arith.constant and cmm.yield)");
  }
  return success();
}

int64_t FusedOp::getNumSteps() {
  return llvm::range_size(getBody().front().getOps<ScalarOp>());
}

FailureOr<cmmrt::fused::Kernel> FusedOp::getKernel() {
  using cmmrt::fused::Arg;
  cmmrt::fused::Kernel kernel;
  Block &block = getBody().front();
  kernel.numInputs = block.getNumArguments();
  llvm::DenseMap<Value, Arg> args;
  for (BlockArgument a : block.getArguments())
    args[a] = Arg{Arg::Input, int32_t(a.getArgNumber()), 0};
  for (Operation &op : block) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = cast<FloatAttr>(constant.getValue()).getValueAsDouble();
      args[constant.getResult()] = Arg{Arg::Constant, 0, value};
    } else if (auto step = dyn_cast<ScalarOp>(op)) {
      cmmrt::fused::Step s;
      if (!cmmrt::fused::stepFunction(stringifyElementFn(step.getFn()).str(),
                                      s))
        return step.emitOpError("has a function the runtime lacks");
      for (auto [i, arg] : llvm::enumerate(step.getArgs()))
        s.args[i] = args.at(arg);
      args[step.getResult()] = Arg{Arg::Step, int32_t(kernel.steps.size()), 0};
      kernel.steps.push_back(s);
    } else if (auto yield = dyn_cast<YieldOp>(op)) {
      kernel.result = args.at(yield.getValue());
    }
  }
  return kernel;
}

LogicalResult ScalarOp::verify() {
  unsigned expected = arity(getFn());
  if (getArgs().size() != expected)
    return emitOpError("'")
           << stringifyElementFn(getFn()) << "' takes " << expected
           << " argument(s), got " << getArgs().size();
  return success();
}
