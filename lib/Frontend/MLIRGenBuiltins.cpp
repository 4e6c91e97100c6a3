//===- MLIRGenBuiltins.cpp - The built-in functions -------------*- C++ -*-===//
//
// Each call of a built-in checks its arguments and emits its cmm op (or
// folds it while tracing); docs/language.md §6 and §14.6.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "cmm/Dialect/Cmm/RuntimeMapping.h"
#include "cmm/Frontend/Diagnostic.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Numbers.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace cmm;
using namespace cmm::mlirgen;

//===----------------------------------------------------------------------===//
// Built-in functions
//===----------------------------------------------------------------------===//

bool MLIRGenImpl::checkArgCount(const CallExpr &call, size_t lo, size_t hi) {
  size_t n = call.getArgs().size();
  if (n >= lo && n <= hi)
    return true;
  std::string expected = lo == hi ? std::to_string(lo)
                         : hi == lo + 1
                             ? std::to_string(lo) + " or " + std::to_string(hi)
                             : std::to_string(lo) + " to " + std::to_string(hi);
  error(call.getLoc(), "'" + call.getCallee() + "' takes " + expected +
                           " argument" + (hi == 1 ? "" : "s") + ", got " +
                           llvm::Twine(n));
  return false;
}

/// The matrix type of a constructor's (rows, cols) arguments at `first`.
std::optional<mlir::RankedTensorType> MLIRGenImpl::toShape(const CallExpr &call,
                                                           size_t first) {
  const auto &args = call.getArgs();
  auto m = toDimension(*args[first], "the row count");
  if (!m)
    return std::nullopt;
  auto n = toDimension(*args[first + 1], "the column count");
  if (!n || !checkSize(call.getLoc(), *m, *n))
    return std::nullopt;
  return matrixType(*m, *n);
}

bool MLIRGenImpl::checkSize(SMLoc l, int64_t r, int64_t c) {
  if (r < 1 || c < 1) {
    error(l, "matrix dimensions must be at least 1, got " + llvm::Twine(r) +
                 "x" + llvm::Twine(c));
    return false;
  }
  if (r >= kMaxDim || c >= kMaxDim || r * c > kMaxElements) {
    error(l,
          "matrix " + llvm::Twine(r) + "x" + llvm::Twine(c) + " is too large");
    return false;
  }
  return true;
}

std::optional<double> MLIRGenImpl::toScalar(const Expr &e,
                                            llvm::StringRef what) {
  MaybeValue v = eval(e);
  if (!v)
    return std::nullopt;
  if (!v->isScalar())
    return error(e.getLoc(), llvm::Twine(what) +
                                 " must be a compile-time number, got a " +
                                 shapeOf(v->matrix) + " matrix");
  return v->scalar;
}

std::optional<int64_t> MLIRGenImpl::toInteger(const Expr &e,
                                              llvm::StringRef what) {
  MaybeValue v = eval(e);
  if (!v)
    return std::nullopt;
  return asInteger(*v, e.getLoc(), what);
}

std::optional<int64_t> MLIRGenImpl::asInteger(TraceValue v, SMLoc l,
                                              llvm::StringRef what) {
  if (!v.isScalar())
    return error(l, llvm::Twine(what) +
                        " must be a compile-time integer, got a " +
                        shapeOf(v.matrix) +
                        " matrix (a 1x1 matrix is not a compile-time "
                        "scalar)");
  double d = v.scalar;
  if (!std::isfinite(d) || d != std::floor(d))
    return error(l,
                 llvm::Twine(what) + " must be an integer, got " + exactNum(d));
  if (std::fabs(d) > 9.0e15)
    return error(l, llvm::Twine(what) + " " + num(d) + " is out of range");
  return static_cast<int64_t>(d);
}

std::optional<int64_t> MLIRGenImpl::toDimension(const Expr &e,
                                                llvm::StringRef what) {
  std::optional<int64_t> d = toInteger(e, what);
  if (d && *d < 1)
    return error(e.getLoc(), llvm::Twine(what) + " must be at least 1, got " +
                                 llvm::Twine(*d));
  return d;
}

std::optional<Value> MLIRGenImpl::toMatrix(const Expr &e) {
  MaybeValue v = eval(e);
  if (!v)
    return std::nullopt;
  return asMatrix(*v, e.getLoc());
}

std::optional<std::string> MLIRGenImpl::toPath(const Expr &e,
                                               llvm::StringRef fn) {
  auto *str = llvm::dyn_cast<StringExpr>(&e);
  if (!str)
    return error(e.getLoc(),
                 "the file name of '" + fn + "' must be a string literal");
  std::string path = str->getValue().str();
  if (cmmrt::formatFromPath(path) == cmmrt::MatrixFormat::Unknown)
    return error(e.getLoc(), "unsupported matrix file format '" + path +
                                 "' (expected .npy, .mtx or .csv)");
  return path;
}

/// Identifies one traced occurrence of a random constructor: its source
/// position and the iteration numbers of the enclosing loops.
int64_t MLIRGenImpl::callId(SMLoc l) {
  auto [line, col] = sm.getLineAndColumn(l);
  uint64_t h = cmmrt::mix64((uint64_t(line) << 32) | col);
  for (int64_t it : loopIterations)
    h = cmmrt::mix64(h ^ static_cast<uint64_t>(it));
  // Keep it positive so it prints as written.
  return static_cast<int64_t>(h >> 1);
}

static std::optional<UnaryFn> unaryFnFor(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<UnaryFn>>(name)
      .Case("sqrt", UnaryFn::Sqrt)
      .Case("exp", UnaryFn::Exp)
      .Case("log", UnaryFn::Log)
      .Case("abs", UnaryFn::Abs)
      .Case("sin", UnaryFn::Sin)
      .Case("cos", UnaryFn::Cos)
      .Case("tanh", UnaryFn::Tanh)
      .Case("floor", UnaryFn::Floor)
      .Case("round", UnaryFn::Round)
      .Default(std::nullopt);
}

static std::optional<ReduceKind> reduceKindFor(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ReduceKind>>(name)
      .Case("sum", ReduceKind::Sum)
      .Case("maximum", ReduceKind::Max)
      .Case("minimum", ReduceKind::Min)
      .Case("mean", ReduceKind::Mean)
      .Default(std::nullopt);
}

MaybeValue MLIRGenImpl::evalCall(const CallExpr &call) {
  llvm::StringRef name = call.getCallee();
  const auto &args = call.getArgs();
  mlir::Location l = loc(call.getLoc());

  if (auto it = functions.find(name); it != functions.end())
    return callFunction(call, *it->second, /*asStatement=*/false);

  if (name == "rand" || name == "randn") {
    if (!checkArgCount(call, 2, 3))
      return std::nullopt;
    auto type = toShape(call, 0);
    if (!type)
      return std::nullopt;
    int64_t seed = kDefaultSeed;
    if (args.size() == 3) {
      auto s = toInteger(*args[2], "the seed");
      if (!s)
        return std::nullopt;
      seed = *s;
    }
    Distribution dist =
        name == "rand" ? Distribution::Uniform : Distribution::Normal;
    return TraceValue::ofMatrix(
        RandOp::create(builder, l, *type, dist, seed, callId(call.getLoc())));
  }
  if (name == "zeros" || name == "ones") {
    if (!checkArgCount(call, 2, 2))
      return std::nullopt;
    auto type = toShape(call, 0);
    if (!type)
      return std::nullopt;
    return TraceValue::ofMatrix(
        FillOp::create(builder, l, *type,
                       builder.getF64FloatAttr(name == "ones" ? 1.0 : 0.0)));
  }
  if (name == "fill") {
    if (!checkArgCount(call, 3, 3))
      return std::nullopt;
    auto v = toScalar(*args[0], "the fill value");
    if (!v)
      return std::nullopt;
    auto type = toShape(call, 1);
    if (!type)
      return std::nullopt;
    return TraceValue::ofMatrix(
        FillOp::create(builder, l, *type, builder.getF64FloatAttr(*v)));
  }
  if (name == "eye") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    auto n = toDimension(*args[0], "the size");
    if (!n || !checkSize(call.getLoc(), *n, *n))
      return std::nullopt;
    return TraceValue::ofMatrix(EyeOp::create(builder, l, matrixType(*n, *n)));
  }
  if (name == "load") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    auto path = toPath(*args[0], "load");
    if (!path)
      return std::nullopt;
    if (!checkLoadOrder(*path, args[0]->getLoc()))
      return std::nullopt;
    if (std::optional<Value> saved = savedEarlier(*path))
      return TraceValue::ofMatrix(*saved);
    cmmrt::MatrixShape shape;
    std::string message;
    if (!cmmrt::readMatrixShape(*path, shape, message))
      return error(args[0]->getLoc(), message);
    if (!checkSize(call.getLoc(), shape.rows, shape.cols))
      return std::nullopt;
    return TraceValue::ofMatrix(
        LoadOp::create(builder, l, matrixType(shape.rows, shape.cols), *path));
  }
  if (name == "transpose") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v || v->isScalar())
      return v;
    Value m = v->matrix;
    return TraceValue::ofMatrix(
        TransposeOp::create(builder, l, matrixType(cols(m), rows(m)), m));
  }
  if (auto kind = reduceKindFor(name)) {
    if (!checkArgCount(call, 1, 2))
      return std::nullopt;
    auto m = toMatrix(*args[0]);
    if (!m)
      return std::nullopt;
    mlir::IntegerAttr dim;
    int64_t r = 1, c = 1;
    if (args.size() == 2) {
      auto d = toInteger(*args[1], "the dimension");
      if (!d)
        return std::nullopt;
      if (*d != 1 && *d != 2)
        return error(args[1]->getLoc(),
                     "the dimension must be 1 or 2, got " + llvm::Twine(*d));
      dim = builder.getI64IntegerAttr(*d);
      if (*d == 1)
        c = cols(*m);
      else
        r = rows(*m);
    }
    return TraceValue::ofMatrix(
        ReduceOp::create(builder, l, matrixType(r, c), *kind, *m, dim));
  }
  if (name == "norm") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    auto m = toMatrix(*args[0]);
    if (!m)
      return std::nullopt;
    return TraceValue::ofMatrix(
        NormOp::create(builder, l, matrixType(1, 1), *m));
  }
  if (auto fn = unaryFnFor(name)) {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return std::nullopt;
    if (v->isScalar())
      return TraceValue::ofScalar(cmmrt::applyMap(toRuntime(*fn), v->scalar));
    return TraceValue::ofMatrix(MapOp::create(builder, l, *fn, v->matrix));
  }
  if (name == "max" || name == "min" || name == "mod") {
    if (!checkArgCount(call, 2, 2))
      return std::nullopt;
    MaybeValue a = eval(*args[0]);
    if (!a)
      return std::nullopt;
    MaybeValue b = eval(*args[1]);
    if (!b)
      return std::nullopt;
    if (a->isScalar() && b->isScalar()) {
      cmmrt::BinaryFn fn = name == "mod"   ? cmmrt::BinaryFn::Mod
                           : name == "max" ? cmmrt::BinaryFn::Max
                                           : cmmrt::BinaryFn::Min;
      return TraceValue::ofScalar(cmmrt::applyBinary(fn, a->scalar, b->scalar));
    }
    Value x = asMatrix(*a, args[0]->getLoc());
    Value y = asMatrix(*b, args[1]->getLoc());
    auto shape = broadcastShape(
        mlir::cast<mlir::RankedTensorType>(x.getType()).getShape(),
        mlir::cast<mlir::RankedTensorType>(y.getType()).getShape());
    if (mlir::failed(shape))
      return error(call.getLoc(), "shapes " + shapeOf(x) + " and " +
                                      shapeOf(y) + " do not broadcast in '" +
                                      name + "'");
    auto type = matrixType(shape->first, shape->second);
    Value result;
    if (name == "max")
      result = MaxOp::create(builder, l, type, x, y);
    else if (name == "min")
      result = MinOp::create(builder, l, type, x, y);
    else
      result = ModOp::create(builder, l, type, x, y);
    return TraceValue::ofMatrix(result);
  }
  if (name == "size") {
    if (!checkArgCount(call, 2, 2))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return std::nullopt;
    auto d = toInteger(*args[1], "the dimension");
    if (!d)
      return std::nullopt;
    if (*d != 1 && *d != 2)
      return error(args[1]->getLoc(),
                   "the dimension must be 1 or 2, got " + llvm::Twine(*d));
    if (v->isScalar())
      return TraceValue::ofScalar(1);
    return TraceValue::ofScalar(*d == 1 ? rows(v->matrix) : cols(v->matrix));
  }
  if (name == "inv") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return std::nullopt;
    if (v->isScalar())
      return TraceValue::ofScalar(1.0 / v->scalar);
    if (rows(v->matrix) != cols(v->matrix))
      return error(call.getLoc(),
                   "inv needs a square matrix, got " + shapeOf(v->matrix));
    return TraceValue::ofMatrix(InvOp::create(builder, l, v->matrix));
  }
  if (name == "hcat" || name == "vcat") {
    if (args.empty())
      return error(call.getLoc(), "'" + name + "' takes at least 1 argument");
    std::vector<Value> parts;
    std::vector<SMLoc> locs;
    for (const ExprPtr &arg : args) {
      auto m = toMatrix(*arg);
      if (!m)
        return std::nullopt;
      parts.push_back(*m);
      locs.push_back(arg->getLoc());
    }
    return concat(parts, name == "hcat" ? 2 : 1, call.getLoc(), locs);
  }
  if (name == "dot") {
    if (!checkArgCount(call, 2, 2))
      return std::nullopt;
    MaybeValue a = eval(*args[0]);
    if (!a)
      return std::nullopt;
    MaybeValue b = eval(*args[1]);
    if (!b)
      return std::nullopt;
    if (a->isScalar() && b->isScalar()) // 1x1, as for matrices
      return TraceValue::ofMatrix(
          asMatrix(TraceValue::ofScalar(a->scalar * b->scalar), call.getLoc()));
    Value x = asMatrix(*a, args[0]->getLoc());
    Value y = asMatrix(*b, args[1]->getLoc());
    if (x.getType() != y.getType())
      return error(call.getLoc(), "'dot' needs operands of the same shape, "
                                  "got " +
                                      shapeOf(x) + " and " + shapeOf(y));
    Value product = MulOp::create(builder, l, x.getType(), x, y);
    return TraceValue::ofMatrix(ReduceOp::create(
        builder, l, matrixType(1, 1), ReduceKind::Sum, product, nullptr));
  }
  if (name == "length") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return std::nullopt;
    return TraceValue::ofScalar(
        v->isScalar() ? 1.0 : double(rows(v->matrix)) * cols(v->matrix));
  }
  if (name == "diag") {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return v;
    Value m = asMatrix(*v, args[0]->getLoc()); // a scalar is 1x1
    int64_t r = rows(m), c = cols(m);
    if (r == 1 && c == 1)
      return TraceValue::ofMatrix(m);
    if ((r == 1 || c == 1) && !checkSize(call.getLoc(), r * c, r * c))
      return std::nullopt;
    if (r == 1 || c == 1) // a vector to its diagonal matrix
      return TraceValue::ofMatrix(
          DiagOp::create(builder, l, matrixType(r * c, r * c), m));
    if (r != c)
      return error(call.getLoc(), "'diag' takes a square matrix (to its "
                                  "diagonal) or a vector (to a diagonal "
                                  "matrix), got " +
                                      shapeOf(m));
    return TraceValue::ofMatrix(
        DiagOp::create(builder, l, matrixType(r, 1), m));
  }
  if (name == "reshape") {
    if (!checkArgCount(call, 3, 3))
      return std::nullopt;
    auto m = toMatrix(*args[0]);
    if (!m)
      return std::nullopt;
    auto type = toShape(call, 1);
    if (!type)
      return std::nullopt;
    int64_t count = rows(*m) * cols(*m);
    if (type->getDimSize(0) * type->getDimSize(1) != count)
      return error(call.getLoc(),
                   "'reshape' keeps the element count: the " + shapeOf(*m) +
                       " matrix has " + llvm::Twine(count) + ", " +
                       llvm::Twine(type->getDimSize(0)) + "x" +
                       llvm::Twine(type->getDimSize(1)) + " would have " +
                       llvm::Twine(type->getDimSize(0) * type->getDimSize(1)));
    if (*type == m->getType())
      return TraceValue::ofMatrix(*m);
    return TraceValue::ofMatrix(ReshapeOp::create(builder, l, *type, *m));
  }
  if (name == "display")
    return error(call.getLoc(), "'display' is a statement and has no value");
  if (name == "print" || name == "save")
    return error(call.getLoc(),
                 "'" + name + "' is a statement and has no value");
  if (unsigned count = linalgResultCount(name)) {
    if (count > 1)
      return error(call.getLoc(),
                   "'" + name + "' has " + llvm::Twine(count) +
                       " results: it must be the whole right-hand side of an "
                       "assignment to " +
                       llvm::Twine(count) + " names (" +
                       (count == 2 ? "a, b" : "a, b, c") + " = " + name +
                       "(...))");
    auto results = evalLinalgCall(call);
    if (!results)
      return std::nullopt;
    return TraceValue::ofMatrix(results->front());
  }
  if (env.count(name))
    return error(call.getLoc(), "'" + name + "' is a variable, not a function");
  return error(call.getLoc(), "unknown function '" + name + "'");
}

/// Names a user function may not take: the built-in functions and the
/// statements that look like calls.
bool mlirgen::isBuiltin(llvm::StringRef name) {
  static const char *const kBuiltins[] = {
      "rand",    "randn",   "zeros", "ones",    "eye",       "fill",
      "load",    "save",    "print", "display", "transpose", "sum",
      "maximum", "minimum", "mean",  "norm",    "sqrt",      "exp",
      "log",     "abs",     "sin",   "cos",     "tanh",      "floor",
      "round",   "max",     "min",   "mod",     "size",      "inv",
      "dot",     "length",  "diag",  "reshape", "hcat",      "vcat"};
  for (const char *builtin : kBuiltins)
    if (name == builtin)
      return true;
  return linalgResultCount(name) > 0;
}
