//===- CmmOpSemantics.cpp - What each cmm op is to each stage -------------===//
//
// The OpSemantics methods of every cmm op, op by op: its flops (the
// rewrites' cost model), its tiling rule (the planner), its runtime op code
// and parameters (the generated program) and its value (the reference
// interpreter). Adding an op means adding its four methods here
// (docs/architecture.md, "Adding an op"); the compiler refuses an op
// without them.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/RuntimeMapping.h"

#include "cmmrt/FactorizationCosts.h"
#include "cmmrt/Factorizations.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Random.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace cmm;
using cmmrt::Matrix;

#include "cmm/Dialect/Cmm/CmmInterfaces.cpp.inc"
using cmmrt::plan::CostClass;
using cmmrt::plan::OpCode;

namespace {

double elements(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return static_cast<double>(type.getDimSize(0)) * type.getDimSize(1);
}

TilingRule rule(TileStrategy strategy, CostClass cost) {
  TilingRule r;
  r.strategy = strategy;
  r.cost = cost;
  return r;
}

/// The parameters of an op's `cmmtg.op` declaration.
struct Params {
  Params(NamedAttrList &list, MLIRContext *context) : list(list), b(context) {}
  void integer(StringRef name, int64_t value) {
    list.set(name, b.getI64IntegerAttr(value));
  }
  void real(StringRef name, const APFloat &value) {
    list.set(name, b.getF64FloatAttr(value.convertToDouble()));
  }
  void attr(StringRef name, Attribute value) { list.set(name, value); }
  /// An output op's `rows`/`cols` are those of the matrix it writes.
  void outputShape(Value written) {
    auto type = cast<RankedTensorType>(written.getType());
    integer("rows", type.getDimSize(0));
    integer("cols", type.getDimSize(1));
  }
  NamedAttrList &list;
  Builder b;
};

LogicalResult binary(ArrayRef<const Matrix *> in, Matrix &result,
                     cmmrt::BinaryFn fn) {
  result = cmmrt::broadcast(fn, *in[0], *in[1]);
  return success();
}

/// chol, eig, eigvals: `symmetric` (input symmetric by construction, no
/// run-time test) goes to the task graph's op declaration.
void knownSymmetry(NamedAttrList &params, UnitAttr symmetric) {
  if (symmetric)
    params.set("symmetric", symmetric);
}

/// A task over whole operands on the master, in the whole-matrix
/// factorization class `cost`: its polynomial counts work as m n k at an
/// inverse's rate (an n x n inverse, 2 n^3 flops, is m = n = k), so an op
/// of `flops` on an m x n matrix has k = flops / (2 m n)
/// (cmmrt/FactorizationCosts.h, docs/machine-model.md "Factorizations").
/// m is the longer side, n the shorter: a wide matrix costs as tall.
TilingRule wholeRule(CostClass cost, double flops, Value input) {
  TilingRule r = rule(TileStrategy::Whole, cost);
  auto type = cast<RankedTensorType>(input.getType());
  r.m = std::max(type.getDimSize(0), type.getDimSize(1));
  r.n = std::min(type.getDimSize(0), type.getDimSize(1));
  r.k = cmmrt::wholeTaskDepth(flops, r.m, r.n);
  return r;
}

/// A factorization's value, or its run-time error at the op.
LogicalResult factorized(Operation *op, bool ok, const std::string &error) {
  if (ok)
    return success();
  return op->emitError(error);
}

/// The flops of LAPACK's thin SVD of `input` (cmmrt/FactorizationCosts.h).
double svdFlops(Value input, bool vectors) {
  auto type = cast<RankedTensorType>(input.getType());
  return cmmrt::svdFlops(type.getDimSize(0), type.getDimSize(1), vectors);
}

LogicalResult noValue(Operation *op) {
  return op->emitError("'")
         << op->getName() << "' is an output and has no value";
}

} // namespace

double cmm::matmulFlops(int64_t m, int64_t k, int64_t n) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(k) *
         static_cast<double>(n);
}

double cmm::eigFlops(int64_t n) {
  return cmmrt::symmetricEigenFlops(static_cast<double>(n), /*vectors=*/true);
}

int64_t cmm::squaringProducts(int64_t k) {
  if (k <= 1)
    return 0;
  return llvm::Log2_64(static_cast<uint64_t>(k)) +
         llvm::popcount(static_cast<uint64_t>(k)) - 1;
}

//===----------------------------------------------------------------------===//
// Constructors: no flops, one tile-generating task per tile.
//===----------------------------------------------------------------------===//

double ConstantOp::getFlops() { return 0; }
TilingRule ConstantOp::getTilingRule() {
  return rule(TileStrategy::Generate, CostClass::Generate);
}
std::optional<OpCode> ConstantOp::getRuntimeOp(NamedAttrList &params) {
  params.set("data", getValue());
  return OpCode::Constant;
}
LogicalResult ConstantOp::evaluate(ArrayRef<const Matrix *>,
                                   MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = Matrix(getType().getDimSize(0), getType().getDimSize(1));
  auto values = getValue().getValues<double>();
  std::copy(values.begin(), values.end(), result.data());
  return success();
}

double RangeOp::getFlops() { return 0; }
TilingRule RangeOp::getTilingRule() {
  return rule(TileStrategy::Generate, CostClass::Generate);
}
std::optional<OpCode> RangeOp::getRuntimeOp(NamedAttrList &params) {
  Params p(params, getContext());
  p.integer("first", getStart());
  p.integer("last", getStop());
  return OpCode::Range;
}
LogicalResult RangeOp::evaluate(ArrayRef<const Matrix *>,
                                MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::range(getStart(), getStop());
  return success();
}

double FillOp::getFlops() { return 0; }
TilingRule FillOp::getTilingRule() {
  return rule(TileStrategy::Generate, CostClass::Generate);
}
std::optional<OpCode> FillOp::getRuntimeOp(NamedAttrList &params) {
  Params(params, getContext()).real("value", getValue());
  return OpCode::Fill;
}
LogicalResult FillOp::evaluate(ArrayRef<const Matrix *>,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = Matrix(getType().getDimSize(0), getType().getDimSize(1),
                  getValue().convertToDouble());
  return success();
}

double EyeOp::getFlops() { return 0; }
TilingRule EyeOp::getTilingRule() {
  return rule(TileStrategy::Generate, CostClass::Generate);
}
std::optional<OpCode> EyeOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Eye;
}
LogicalResult EyeOp::evaluate(ArrayRef<const Matrix *>,
                              MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::identity(getType().getDimSize(0));
  return success();
}

double RandOp::getFlops() { return 0; }
TilingRule RandOp::getTilingRule() {
  return rule(TileStrategy::Generate, getDistribution() == Distribution::Normal
                                          ? CostClass::Randn
                                          : CostClass::Rand);
}
std::optional<OpCode> RandOp::getRuntimeOp(NamedAttrList &params) {
  Params p(params, getContext());
  p.integer("seed", getSeed());
  p.integer("id", getCallId());
  return getDistribution() == Distribution::Normal ? OpCode::Randn
                                                   : OpCode::Rand;
}
LogicalResult RandOp::evaluate(ArrayRef<const Matrix *>,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = Matrix(getType().getDimSize(0), getType().getDimSize(1));
  cmmrt::fillRandom(result, getDistribution() == Distribution::Normal,
                    static_cast<uint64_t>(getSeed()),
                    static_cast<uint64_t>(getCallId()));
  return success();
}

double LoadOp::getFlops() { return 0; }
TilingRule LoadOp::getTilingRule() {
  return rule(TileStrategy::Load, CostClass::Copy);
}
std::optional<OpCode> LoadOp::getRuntimeOp(NamedAttrList &params) {
  params.set("path", getPathAttr());
  return OpCode::Load;
}
LogicalResult LoadOp::evaluate(ArrayRef<const Matrix *>,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  std::string error;
  if (!cmmrt::readMatrix(getPath().str(), result, error))
    return emitError(error);
  auto shape = getType().getShape();
  if (result.rows() != shape[0] || result.cols() != shape[1])
    return emitError("'") << getPath() << "' now holds a " << result.rows()
                          << "x" << result.cols() << " matrix but held "
                          << formatShape(shape)
                          << " when the program was compiled";
  return success();
}

//===----------------------------------------------------------------------===//
// Products and linear algebra
//===----------------------------------------------------------------------===//

double MatmulOp::getFlops() {
  auto a = cast<RankedTensorType>(getLhs().getType());
  return matmulFlops(a.getDimSize(0), a.getDimSize(1), getType().getDimSize(1));
}
TilingRule MatmulOp::getTilingRule() {
  return rule(TileStrategy::Product, CostClass::Gemm);
}
std::optional<OpCode> MatmulOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Matmul;
}
LogicalResult MatmulOp::evaluate(ArrayRef<const Matrix *> in,
                                 MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::matmul(*in[0], *in[1]);
  return success();
}

double GemmOp::getFlops() {
  auto [m, k] = getReadShape(/*lhs=*/true);
  int64_t n = getType().getDimSize(1);
  // dsyrk computes the upper triangle: n (n + 1) k flops.
  if (isSymmetric() && n > 1)
    return double(n) * double(n + 1) * double(k);
  return matmulFlops(m, k, n);
}
TilingRule GemmOp::getTilingRule() {
  TilingRule r = rule(TileStrategy::Product, CostClass::Gemm);
  r.transposeLhs = getTransposeLhs();
  r.transposeRhs = getTransposeRhs();
  return r;
}
std::optional<OpCode> GemmOp::getRuntimeOp(NamedAttrList &params) {
  if (getTransposeLhs())
    params.set("transpose_lhs", UnitAttr::get(getContext()));
  if (getTransposeRhs())
    params.set("transpose_rhs", UnitAttr::get(getContext()));
  return OpCode::Matmul;
}
LogicalResult GemmOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::matmul(*in[0], *in[1], getTransposeLhs(), getTransposeRhs());
  return success();
}

double PowOp::getFlops() {
  int64_t n = getType().getDimSize(0);
  return squaringProducts(getExponent()) * matmulFlops(n, n, n);
}
TilingRule PowOp::getTilingRule() {
  TilingRule r = rule(TileStrategy::Power, CostClass::Gemm);
  r.exponent = getExponent();
  return r;
}
std::optional<OpCode> PowOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Pow;
}
LogicalResult PowOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::power(*in[0], getExponent());
  return success();
}

double InvOp::getFlops() {
  double n = getType().getDimSize(0);
  return 2.0 * n * n * n; // LU (2/3 n^3) and inversion (4/3 n^3)
}
TilingRule InvOp::getTilingRule() {
  TilingRule r = rule(TileStrategy::Whole, CostClass::Solve);
  r.m = r.n = r.k = getType().getDimSize(0);
  return r;
}
std::optional<OpCode> InvOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Inv;
}
LogicalResult InvOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(*this, cmmrt::invert(*in[0], results.front(), error),
                    error);
}

double SolveOp::getFlops() {
  auto a = cast<RankedTensorType>(getLhs().getType());
  double m = a.getDimSize(0), n = a.getDimSize(1),
         rhs = getType().getDimSize(1);
  if (m != n) // least squares (dgelsd): a QR of A, an SVD of its R
    return cmmrt::leastSquaresFlops(m, n, rhs);
  if (getCholesky()) // a Cholesky factor and two triangular solves
    return n * n * n / 3 + 2.0 * n * n * rhs;
  if (getTriangular()) // substitution, column by column
    return n * n * rhs;
  return cmmrt::luSolveFlops(n, rhs);
}
TilingRule SolveOp::getTilingRule() {
  // An LU factorisation and r right-hand sides are (2/3) n^3 + 2 n^2 r
  // flops, i.e. k = n / 3 + r in the solve polynomial's units.
  cmmrt::SolveMethod method = getMethod();
  if (cmmrt::isTriangular(method))
    return rule(TileStrategy::TriangularSolve, CostClass::Trsm);
  auto a = cast<RankedTensorType>(getLhs().getType());
  return wholeRule(a.getDimSize(0) == a.getDimSize(1) ? CostClass::Solve
                                                      : CostClass::Lstsq,
                   getFlops(), getLhs());
}
cmmrt::SolveMethod SolveOp::getMethod() {
  if (getCholesky())
    return cmmrt::SolveMethod::Cholesky;
  if (getFullRank())
    return cmmrt::SolveMethod::FullRank;
  if (auto t = getTriangular()) {
    if (getTransposeLhs())
      return *t == Triangle::Upper ? cmmrt::SolveMethod::UpperTransposed
                                   : cmmrt::SolveMethod::LowerTransposed;
    return *t == Triangle::Upper ? cmmrt::SolveMethod::Upper
                                 : cmmrt::SolveMethod::Lower;
  }
  return cmmrt::SolveMethod::General;
}
std::optional<OpCode> SolveOp::getRuntimeOp(NamedAttrList &params) {
  Params(params, getContext())
      .integer("method", static_cast<int64_t>(getMethod()));
  if (auto replaces = getReplaces())
    Params(params, getContext())
        .attr("replaces",
              StringAttr::get(getContext(), stringifyReplacedCall(*replaces)));
  return OpCode::Solve;
}
LogicalResult SolveOp::evaluate(ArrayRef<const Matrix *> in,
                                MutableArrayRef<Matrix> results) {
  std::string error;
  bool solved =
      cmmrt::leftDivide(*in[0], *in[1], results[0], error, getMethod());
  if (!solved && getReplaces())
    cmmrt::restateAs(stringifyReplacedCall(*getReplaces()).data(),
                     in[0]->rows(), in[0]->cols(), error);
  return factorized(*this, solved, error);
}

//===----------------------------------------------------------------------===//
// Dense linear algebra: one task over whole operands on the master, LAPACK
// (cmmrt/Factorizations.h), each in its cost class; flops from Golub and
// Van Loan, "Matrix Computations" (4th ed.): Cholesky n^3 / 3, the others
// in cmmrt/FactorizationCosts.h.
//===----------------------------------------------------------------------===//

double CholOp::getFlops() {
  double n = getType().getDimSize(0);
  return n * n * n / 3;
}
TilingRule CholOp::getTilingRule() {
  return rule(TileStrategy::Cholesky, CostClass::Potrf);
}
std::optional<OpCode> CholOp::getRuntimeOp(NamedAttrList &params) {
  knownSymmetry(params, getSymmetricAttr());
  return OpCode::Chol;
}
LogicalResult CholOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(
      *this, cmmrt::cholesky(*in[0], results[0], error, getSymmetric()), error);
}

double QrOp::getFlops() {
  auto a = cast<RankedTensorType>(getInput().getType());
  return cmmrt::qrFlops(a.getDimSize(0), a.getDimSize(1));
}
TilingRule QrOp::getTilingRule() {
  return wholeRule(CostClass::Qr, getFlops(), getInput());
}
std::optional<OpCode> QrOp::getRuntimeOp(NamedAttrList &) { return OpCode::Qr; }
LogicalResult QrOp::evaluate(ArrayRef<const Matrix *> in,
                             MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(*this, cmmrt::qr(*in[0], results[0], results[1], error),
                    error);
}

double SvdOp::getFlops() { return svdFlops(getInput(), /*vectors=*/true); }
TilingRule SvdOp::getTilingRule() {
  return wholeRule(CostClass::Svd, getFlops(), getInput());
}
std::optional<OpCode> SvdOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Svd;
}
LogicalResult SvdOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(
      *this, cmmrt::svd(*in[0], &results[0], results[1], &results[2], error),
      error);
}

double SvdValsOp::getFlops() { return svdFlops(getInput(), /*vectors=*/false); }
TilingRule SvdValsOp::getTilingRule() {
  return wholeRule(CostClass::SvdVals, getFlops(), getInput());
}
std::optional<OpCode> SvdValsOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::SvdVals;
}
LogicalResult SvdValsOp::evaluate(ArrayRef<const Matrix *> in,
                                  MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(
      *this, cmmrt::svd(*in[0], nullptr, results[0], nullptr, error), error);
}

double EigOp::getFlops() {
  return eigFlops(getValues().getType().getDimSize(0));
}
TilingRule EigOp::getTilingRule() {
  return wholeRule(CostClass::Eig, getFlops(), getInput());
}
std::optional<OpCode> EigOp::getRuntimeOp(NamedAttrList &params) {
  knownSymmetry(params, getSymmetricAttr());
  return OpCode::Eig;
}
LogicalResult EigOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(*this,
                    cmmrt::symmetricEigen(*in[0], results[0], &results[1],
                                          error, getSymmetric()),
                    error);
}

double EigValsOp::getFlops() {
  return cmmrt::symmetricEigenFlops(getType().getDimSize(0),
                                    /*vectors=*/false);
}
TilingRule EigValsOp::getTilingRule() {
  return wholeRule(CostClass::EigVals, getFlops(), getInput());
}
std::optional<OpCode> EigValsOp::getRuntimeOp(NamedAttrList &params) {
  knownSymmetry(params, getSymmetricAttr());
  return OpCode::EigVals;
}
LogicalResult EigValsOp::evaluate(ArrayRef<const Matrix *> in,
                                  MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(
      *this,
      cmmrt::symmetricEigen(*in[0], results[0], nullptr, error, getSymmetric()),
      error);
}

double DetOp::getFlops() {
  double n = cast<RankedTensorType>(getInput().getType()).getDimSize(0);
  return cmmrt::luSolveFlops(n, 0);
}
TilingRule DetOp::getTilingRule() {
  return wholeRule(CostClass::Solve, getFlops(), getInput());
}
std::optional<OpCode> DetOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Det;
}
LogicalResult DetOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  results[0] = cmmrt::determinant(*in[0]);
  return success();
}

double PinvOp::getFlops() {
  auto a = cast<RankedTensorType>(getInput().getType());
  return svdFlops(getInput(), /*vectors=*/true) +
         matmulFlops(a.getDimSize(1),
                     std::min(a.getDimSize(0), a.getDimSize(1)),
                     a.getDimSize(0));
}
TilingRule PinvOp::getTilingRule() {
  // Costed as its SVD: the product after it adds 7-10 % (CostClasses.def).
  return wholeRule(CostClass::Svd, svdFlops(getInput(), /*vectors=*/true),
                   getInput());
}
std::optional<OpCode> PinvOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Pinv;
}
LogicalResult PinvOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  std::string error;
  return factorized(*this, cmmrt::pseudoInverse(*in[0], results[0], error),
                    error);
}

// The triangles: a task per tile, which knows its place in the matrix.
double TrilOp::getFlops() { return 0; }
TilingRule TrilOp::getTilingRule() {
  return rule(TileStrategy::Elementwise, CostClass::Elementwise);
}
std::optional<OpCode> TrilOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Tril;
}
LogicalResult TrilOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  results[0] = *in[0];
  cmmrt::keepTriangle(results[0], /*lower=*/true);
  return success();
}

double TriuOp::getFlops() { return 0; }
TilingRule TriuOp::getTilingRule() {
  return rule(TileStrategy::Elementwise, CostClass::Elementwise);
}
std::optional<OpCode> TriuOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Triu;
}
LogicalResult TriuOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  results[0] = *in[0];
  cmmrt::keepTriangle(results[0], /*lower=*/false);
  return success();
}

double TransposeOp::getFlops() { return 0; }
TilingRule TransposeOp::getTilingRule() {
  return rule(TileStrategy::Transpose, CostClass::Transpose);
}
std::optional<OpCode> TransposeOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Transpose;
}
LogicalResult TransposeOp::evaluate(ArrayRef<const Matrix *> in,
                                    MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::transpose(*in[0]);
  return success();
}

//===----------------------------------------------------------------------===//
// Blocks: one task over the whole operands on the master (TileStrategy::
// Whole), a copy's cost per result element.
//===----------------------------------------------------------------------===//

namespace {
TilingRule copyWhole(Value result) {
  TilingRule r = rule(TileStrategy::Whole, CostClass::Copy);
  auto type = cast<RankedTensorType>(result.getType());
  r.m = type.getDimSize(0);
  r.n = type.getDimSize(1);
  r.k = 1;
  return r;
}
} // namespace

double SliceOp::getFlops() { return 0; }
TilingRule SliceOp::getTilingRule() { return copyWhole(getResult()); }
std::optional<OpCode> SliceOp::getRuntimeOp(NamedAttrList &params) {
  Params p(params, getContext());
  p.integer("row", getRow());
  p.integer("col", getCol());
  return OpCode::Slice;
}
LogicalResult SliceOp::evaluate(ArrayRef<const Matrix *> in,
                                MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  ArrayRef<int64_t> out = getType().getShape();
  result = cmmrt::sliceOf(*in[0], getRow(), getCol(), out[0], out[1]);
  return success();
}

double InsertOp::getFlops() { return 0; }
TilingRule InsertOp::getTilingRule() { return copyWhole(getResult()); }
std::optional<OpCode> InsertOp::getRuntimeOp(NamedAttrList &params) {
  Params p(params, getContext());
  p.integer("row", getRow());
  p.integer("col", getCol());
  return OpCode::Insert;
}
LogicalResult InsertOp::evaluate(ArrayRef<const Matrix *> in,
                                 MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::insertBlock(*in[0], *in[1], getRow(), getCol());
  return success();
}

double ConcatOp::getFlops() { return 0; }
TilingRule ConcatOp::getTilingRule() { return copyWhole(getResult()); }
std::optional<OpCode> ConcatOp::getRuntimeOp(NamedAttrList &params) {
  Params(params, getContext()).integer("dim", getDim());
  return OpCode::Concat;
}
LogicalResult ConcatOp::evaluate(ArrayRef<const Matrix *> in,
                                 MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::concatenate(std::vector<const Matrix *>(in.begin(), in.end()),
                              static_cast<int>(getDim()));
  return success();
}

double DiagOp::getFlops() { return 0; }
TilingRule DiagOp::getTilingRule() { return copyWhole(getResult()); }
std::optional<OpCode> DiagOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Diag;
}
LogicalResult DiagOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::diagonal(*in[0]);
  return success();
}

double ReshapeOp::getFlops() { return 0; }
TilingRule ReshapeOp::getTilingRule() { return copyWhole(getResult()); }
std::optional<OpCode> ReshapeOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Reshape;
}
LogicalResult ReshapeOp::evaluate(ArrayRef<const Matrix *> in,
                                  MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  ArrayRef<int64_t> out = getType().getShape();
  result = cmmrt::reshapeColumnMajor(*in[0], out[0], out[1]);
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic: a flop per result element, a task per result tile.
//===----------------------------------------------------------------------===//

double ScaleOp::getFlops() { return elements(getResult()); }
TilingRule ScaleOp::getTilingRule() {
  return rule(TileStrategy::Elementwise, CostClass::Scale);
}
std::optional<OpCode> ScaleOp::getRuntimeOp(NamedAttrList &params) {
  Params(params, getContext()).real("value", getFactor());
  return OpCode::Scale;
}
LogicalResult ScaleOp::evaluate(ArrayRef<const Matrix *> in,
                                MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::scale(*in[0], getFactor().convertToDouble());
  return success();
}

double NegOp::getFlops() { return elements(getResult()); }
TilingRule NegOp::getTilingRule() {
  return rule(TileStrategy::Elementwise, CostClass::Scale);
}
std::optional<OpCode> NegOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Neg;
}
LogicalResult NegOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::negate(*in[0]);
  return success();
}

double MapOp::getFlops() { return elements(getResult()); }
/// The functions with a time polynomial of their own (CostClasses.def).
static CostClass costClassOf(UnaryFn fn) {
  switch (fn) {
  case UnaryFn::Exp:
    return CostClass::Exp;
  case UnaryFn::Log:
    return CostClass::Log;
  case UnaryFn::Tanh:
    return CostClass::Tanh;
  case UnaryFn::Sin:
  case UnaryFn::Cos:
    return CostClass::Sin;
  default:
    return CostClass::Map;
  }
}
TilingRule MapOp::getTilingRule() {
  return rule(TileStrategy::Elementwise, costClassOf(getFn()));
}
std::optional<OpCode> MapOp::getRuntimeOp(NamedAttrList &params) {
  params.set("fn", StringAttr::get(getContext(), stringifyUnaryFn(getFn())));
  return OpCode::Map;
}
LogicalResult MapOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = cmmrt::map(toRuntime(getFn()), *in[0]);
  return success();
}

/// A binary elementwise op's class: `scale` when exactly one operand has
/// the result's shape (the other a scalar or a vector broadcast from cache:
/// one tile streamed), else `cost`.
static CostClass binaryCostClass(Operation *op, CostClass cost) {
  if (cost != CostClass::Elementwise)
    return cost;
  auto shape = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  ArrayRef<int64_t> out = shape(op->getResult(0));
  bool lhsWhole = shape(op->getOperand(0)) == out;
  bool rhsWhole = shape(op->getOperand(1)) == out;
  return lhsWhole != rhsWhole ? CostClass::Scale : cost;
}

// The broadcasting binary ops differ only in their function.
#define CMM_BROADCAST_OP(Op, Code, Fn, Cost)                                   \
  double Op::getFlops() { return elements(getResult()); }                      \
  TilingRule Op::getTilingRule() {                                             \
    return rule(TileStrategy::Elementwise,                                     \
                binaryCostClass(getOperation(), CostClass::Cost));             \
  }                                                                            \
  std::optional<OpCode> Op::getRuntimeOp(NamedAttrList &) {                    \
    return OpCode::Code;                                                       \
  }                                                                            \
  LogicalResult Op::evaluate(ArrayRef<const Matrix *> in,                      \
                             MutableArrayRef<Matrix> results) {                \
    return binary(in, results.front(), cmmrt::BinaryFn::Fn);                   \
  }
CMM_BROADCAST_OP(AddOp, Add, Add, Elementwise)
CMM_BROADCAST_OP(SubOp, Sub, Sub, Elementwise)
CMM_BROADCAST_OP(MulOp, Mul, Mul, Elementwise)
CMM_BROADCAST_OP(DivOp, Div, Div, Elementwise)
CMM_BROADCAST_OP(MaxOp, Max, Max, Elementwise)
CMM_BROADCAST_OP(MinOp, Min, Min, Elementwise)
CMM_BROADCAST_OP(ModOp, Mod, Mod, Mod)
#undef CMM_BROADCAST_OP

// A power is costed as pow, except a square by a constant 2 (x .^ 2, the
// common case): the runtime computes it as x * x (cmmrt::broadcastTo),
// streaming x alone, measured 30x below pow's (DFT's squares were
// predicted 0.017 s and ran 0.0005 s).
static bool isTwoEverywhere(Value v) {
  if (auto fill = v.getDefiningOp<FillOp>())
    return fill.getValue().convertToDouble() == 2.0;
  DenseElementsAttr values;
  return matchPattern(v, m_Constant(&values)) && values.isSplat() &&
         values.getSplatValue<APFloat>().convertToDouble() == 2.0;
}
double EPowOp::getFlops() { return elements(getResult()); }
TilingRule EPowOp::getTilingRule() {
  return rule(TileStrategy::Elementwise,
              isTwoEverywhere(getRhs()) ? CostClass::Scale : CostClass::Pow);
}
std::optional<OpCode> EPowOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::EPow;
}
LogicalResult EPowOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  return binary(in, result, cmmrt::BinaryFn::Pow);
}

double CmpOp::getFlops() { return elements(getResult()); }
TilingRule CmpOp::getTilingRule() {
  return rule(TileStrategy::Elementwise,
              binaryCostClass(getOperation(), CostClass::Elementwise));
}
std::optional<OpCode> CmpOp::getRuntimeOp(NamedAttrList &) {
  switch (getPredicate()) {
  case CmpPredicate::GT:
    return OpCode::Gt;
  case CmpPredicate::LT:
    return OpCode::Lt;
  case CmpPredicate::GE:
    return OpCode::Ge;
  case CmpPredicate::LE:
    return OpCode::Le;
  case CmpPredicate::EQ:
    return OpCode::Eq;
  }
  llvm_unreachable("unknown CmpPredicate");
}
LogicalResult CmpOp::evaluate(ArrayRef<const Matrix *> in,
                              MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  return binary(in, result, toRuntime(getPredicate()));
}

//===----------------------------------------------------------------------===//
// Fused elementwise kernels: one pass over the result for all their steps.
//===----------------------------------------------------------------------===//

double FusedOp::getFlops() { return getNumSteps() * elements(getResult()); }

namespace {
/// The class of a fused step's function, ranked by cost per element on the
/// development machine (docs/machine-model.md: tanh > pow > exp, log, sin >
/// mod > the other maps > arithmetic, rank 0).
std::pair<CostClass, int> stepCost(ScalarOp step) {
  switch (step.getFn()) {
  case ElementFn::Tanh:
    return {CostClass::Tanh, 6};
  case ElementFn::Pow: {
    // A square by a constant 2 is x * x (cmmrt::scalar::pow).
    auto two = step.getArgs()[1].getDefiningOp<arith::ConstantOp>();
    if (two && cast<FloatAttr>(two.getValue()).getValueAsDouble() == 2.0)
      return {CostClass::Elementwise, 0};
    return {CostClass::Pow, 5};
  }
  case ElementFn::Exp:
    return {CostClass::Exp, 4};
  case ElementFn::Log:
    return {CostClass::Log, 4};
  case ElementFn::Sin:
  case ElementFn::Cos:
    return {CostClass::Sin, 4};
  case ElementFn::Mod:
    return {CostClass::Mod, 3};
  case ElementFn::Sqrt:
  case ElementFn::Abs:
  case ElementFn::Floor:
  case ElementFn::Round:
    return {CostClass::Map, 2};
  default:
    return {CostClass::Elementwise, 0};
  }
}
} // namespace

/// A fused task streams its inputs and its result once, so with a function
/// among its steps it costs what its costliest step costs alone: that
/// step's class, charged once per step of the class (the `work`, which
/// scales the task's n). A kernel of arithmetic only is class `fused`, its
/// steps the k: the longer of one pass and its steps' arithmetic
/// (CostClasses.def).
TilingRule FusedOp::getTilingRule() {
  CostClass worst = CostClass::Elementwise;
  int rank = 0, count = 0, steps = 0;
  for (ScalarOp step : getBody().front().getOps<ScalarOp>()) {
    auto [cost, r] = stepCost(step);
    ++steps;
    if (r > rank) {
      worst = cost;
      rank = r;
      count = 0;
    }
    count += r == rank && cost == worst;
  }
  if (rank == 0) {
    TilingRule r = rule(TileStrategy::Elementwise, CostClass::Fused);
    r.k = std::max(steps, 1);
    return r;
  }
  TilingRule r = rule(TileStrategy::Elementwise, worst);
  r.work = std::max(count, 1);
  return r;
}
std::optional<OpCode> FusedOp::getRuntimeOp(NamedAttrList &params) {
  FailureOr<cmmrt::fused::Kernel> kernel = getKernel();
  if (failed(kernel))
    return std::nullopt;
  Params p(params, getContext());
  p.integer("inputs", getInputs().size());
  p.attr("kernel",
         StringAttr::get(getContext(), cmmrt::fused::format(*kernel)));
  return OpCode::Fused;
}
LogicalResult FusedOp::evaluate(ArrayRef<const Matrix *> in,
                                MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  FailureOr<cmmrt::fused::Kernel> kernel = getKernel();
  if (failed(kernel))
    return failure();
  std::vector<cmmrt::fused::Operand> operands;
  for (const Matrix *m : in)
    operands.push_back({m->data(), m->rows(), m->cols()});
  auto type = cast<RankedTensorType>(getType());
  result = Matrix(type.getDimSize(0), type.getDimSize(1));
  cmmrt::fused::run(*kernel, result.rows(), result.cols(), operands.data(),
                    result.data());
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions: partials per tile, combined.
//===----------------------------------------------------------------------===//

double ReduceOp::getFlops() { return elements(getInput()); }
TilingRule ReduceOp::getTilingRule() {
  TilingRule r = rule(TileStrategy::Reduce, CostClass::Reduce);
  r.dim = getDim() ? static_cast<int>(*getDim()) : 0;
  return r;
}
std::optional<OpCode> ReduceOp::getRuntimeOp(NamedAttrList &params) {
  Params(params, getContext())
      .integer("dim", getDim() ? int64_t(*getDim()) : 0);
  switch (getKind()) {
  case ReduceKind::Sum:
    return OpCode::ReduceSum;
  case ReduceKind::Max:
    return OpCode::ReduceMax;
  case ReduceKind::Min:
    return OpCode::ReduceMin;
  case ReduceKind::Mean:
    return OpCode::ReduceMean;
  }
  llvm_unreachable("unknown ReduceKind");
}
LogicalResult ReduceOp::evaluate(ArrayRef<const Matrix *> in,
                                 MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  int dim = getDim() ? static_cast<int>(*getDim()) : 0;
  result = cmmrt::reduce(toRuntime(getKind()), *in[0], dim);
  return success();
}

double NormOp::getFlops() { return 2.0 * elements(getInput()); }
TilingRule NormOp::getTilingRule() {
  // The norm of each tile (two flops an element), combined by hypot (no
  // overflow).
  TilingRule r = rule(TileStrategy::Reduce, CostClass::Reduce);
  r.work = 2.0;
  return r;
}
std::optional<OpCode> NormOp::getRuntimeOp(NamedAttrList &) {
  return OpCode::Norm;
}
LogicalResult NormOp::evaluate(ArrayRef<const Matrix *> in,
                               MutableArrayRef<Matrix> results) {
  Matrix &result = results.front();
  result = Matrix(1, 1);
  result(0, 0) = cmmrt::frobeniusNorm(*in[0]);
  return success();
}

//===----------------------------------------------------------------------===//
// Outputs: gathered to the master; the interpreter writes them itself.
//===----------------------------------------------------------------------===//

double PrintOp::getFlops() { return 0; }
TilingRule PrintOp::getTilingRule() {
  return rule(TileStrategy::Gather, CostClass::Copy);
}
std::optional<OpCode> PrintOp::getRuntimeOp(NamedAttrList &params) {
  params.set("label", getLabelAttr());
  Params p(params, getContext());
  p.outputShape(getInput());
  if (getRows())
    p.attr("display", UnitAttr::get(getContext()));
  return OpCode::Print;
}
LogicalResult PrintOp::evaluate(ArrayRef<const Matrix *>,
                                MutableArrayRef<Matrix>) {
  return noValue(*this);
}

double PrintScalarOp::getFlops() { return 0; }
TilingRule PrintScalarOp::getTilingRule() {
  return rule(TileStrategy::None, CostClass::Copy);
}
std::optional<OpCode> PrintScalarOp::getRuntimeOp(NamedAttrList &params) {
  params.set("label", getLabelAttr());
  Params p(params, getContext());
  p.real("value", getValue());
  p.integer("rows", 1);
  p.integer("cols", 1);
  return OpCode::PrintScalar;
}
LogicalResult PrintScalarOp::evaluate(ArrayRef<const Matrix *>,
                                      MutableArrayRef<Matrix>) {
  return noValue(*this);
}

double SaveOp::getFlops() { return 0; }
TilingRule SaveOp::getTilingRule() {
  return rule(TileStrategy::Gather, CostClass::Copy);
}
std::optional<OpCode> SaveOp::getRuntimeOp(NamedAttrList &params) {
  params.set("path", getPathAttr());
  Params(params, getContext()).outputShape(getInput());
  return OpCode::Save;
}
LogicalResult SaveOp::evaluate(ArrayRef<const Matrix *>,
                               MutableArrayRef<Matrix>) {
  return noValue(*this);
}
