//===- MLIRGen.cpp - Trace a .cmm AST into the cmm dialect ------*- C++ -*-===//
//
// A tracer: each expression evaluates either to a compile-time scalar (folded
// here) or to an SSA matrix value produced by a cmm op. Shapes are checked as
// ops are emitted, and every error points at the operator's source location.
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/MLIRGen.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/RuntimeMapping.h"
#include "cmm/Frontend/Diagnostic.h"
#include "cmm/Frontend/Parser.h"
#include "cmmrt/Format.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/Numbers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <optional>

using namespace cmm;
using llvm::SMLoc;
using mlir::Value;

namespace {

/// What a `.cmm` expression evaluates to while tracing.
struct TraceValue {
  Value matrix;       // set for a matrix
  double scalar = 0;  // the value of a compile-time scalar otherwise

  static TraceValue ofScalar(double v) { return {Value(), v}; }
  static TraceValue ofMatrix(Value v) { return {v, 0}; }
  bool isScalar() const { return !matrix; }
};

using MaybeValue = std::optional<TraceValue>;

/// Largest trip count of one loop, and total iterations traced.
constexpr int64_t kMaxLoopIterations = 10'000'000;
/// Largest number of ops in the traced program.
constexpr size_t kMaxTracedOps = 2'000'000;
/// Largest matrix dimension and element count.
constexpr int64_t kMaxDim = int64_t(1) << 31;
constexpr int64_t kMaxElements = int64_t(1) << 40;

class MLIRGenImpl {
public:
  MLIRGenImpl(mlir::MLIRContext &ctx, llvm::SourceMgr &sm,
              const MLIRGenOptions &options)
      : builder(&ctx), sm(sm), options(options) {}

  mlir::OwningOpRef<mlir::ModuleOp> gen(const Program &program);

private:
  // Statements.
  bool genStmt(const Stmt &stmt);
  bool genAssign(const AssignStmt &stmt);
  bool genFor(const ForStmt &stmt);
  bool genExprStmt(const ExprStmt &stmt);
  bool genPrint(const CallExpr &call);
  bool genSave(const CallExpr &call);

  // Expressions.
  MaybeValue eval(const Expr &expr);
  MaybeValue evalBinary(const BinaryExpr &expr);
  MaybeValue evalCall(const CallExpr &call);
  MaybeValue evalMatrixLiteral(const MatrixExpr &expr);
  MaybeValue evalRange(const RangeExpr &expr);
  MaybeValue foldScalarBinary(TokenKind op, double a, double b);
  MaybeValue broadcastOp(TokenKind op, SMLoc loc, TraceValue lhs,
                         TraceValue rhs);

  // Helpers.
  mlir::Location loc(SMLoc l);
  std::nullopt_t error(SMLoc l, const llvm::Twine &msg);
  Value asMatrix(TraceValue v, SMLoc l);
  std::optional<int64_t> toInteger(const Expr &e, llvm::StringRef what);
  std::optional<int64_t> toDimension(const Expr &e, llvm::StringRef what);
  std::optional<double> toScalar(const Expr &e, llvm::StringRef what);
  std::optional<Value> toMatrix(const Expr &e);
  std::optional<std::string> toPath(const Expr &e, llvm::StringRef fn);
  static std::string normalizedPath(llvm::StringRef path);
  std::optional<Value> savedEarlier(llvm::StringRef path);
  bool checkArgCount(const CallExpr &call, size_t lo, size_t hi);
  bool checkSize(SMLoc l, int64_t rows, int64_t cols);
  std::optional<mlir::RankedTensorType> toShape(const CallExpr &call,
                                                size_t first);
  int64_t callId(SMLoc l);
  mlir::RankedTensorType matrixType(int64_t rows, int64_t cols) {
    return getMatrixType(builder.getContext(), rows, cols);
  }

  mlir::OpBuilder builder;
  llvm::SourceMgr &sm;
  const MLIRGenOptions &options;
  std::string filename;
  llvm::StringMap<TraceValue> env;
  std::set<std::string> definesUsed;
  std::vector<int64_t> loopIterations; // of the enclosing loops
  /// The enclosing loops being traced, outermost first: the 'for' and its
  /// variable (an error inside names the iteration it happened in).
  std::vector<std::pair<SMLoc, llvm::StringRef>> activeLoops;
  int64_t totalIterations = 0;
  size_t saveCount = 0;
  /// The matrices saved so far, in program order, with the saved path
  /// (lexically normalised): a later `load` of the same file reads back
  /// what the save wrote, and every format round-trips exactly, so the
  /// load is the saved value itself (docs/language.md §9).
  /// Keyed by path; the number orders the saves (the latest wins).
  llvm::StringMap<std::pair<size_t, Value>> savedFiles;
  mlir::Block *body = nullptr;
  // Ops counted so far and the last one counted: ops are only appended to
  // `body`, and Block::getOperations().size() walks the whole list, so the
  // count is kept incrementally (the check after each statement stays O(1)
  // amortized instead of quadratic in the traced program).
  size_t tracedOps = 0;
  mlir::Operation *lastCountedOp = nullptr;
  bool failed = false;

  size_t countTracedOps() {
    auto it = lastCountedOp ? std::next(lastCountedOp->getIterator())
                            : body->begin();
    for (; it != body->end(); ++it) {
      ++tracedOps;
      lastCountedOp = &*it;
    }
    return tracedOps;
  }
};

} // namespace

static int64_t rows(Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getDimSize(0);
}
static int64_t cols(Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getDimSize(1);
}
static std::string shapeOf(Value v) {
  return std::to_string(rows(v)) + "x" + std::to_string(cols(v));
}
static std::string num(double v) { return cmmrt::formatNumber(v); }

/// `v` with as many digits as it takes to read back exactly: where a value
/// is refused for not being an integer, 6 digits would print 0.9999999999999999
/// as "1".
static std::string exactNum(double v) {
  if (!std::isfinite(v))
    return num(v); // NaN, Inf, -Inf as print writes them
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

/// The label of `print(expr)`: the expression's source text on one line, with
/// comments and `...` continuations dropped and white space runs collapsed.
static std::string printLabel(llvm::StringRef text) {
  std::string label;
  bool inString = false, pendingSpace = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!inString && (c == '#' || text.substr(i).starts_with("..."))) {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
      pendingSpace = true;
      continue;
    }
    if (c == '"')
      inString = !inString;
    if (!inString && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace && !label.empty())
      label += ' ';
    pendingSpace = false;
    label += c;
  }
  return label;
}

mlir::Location MLIRGenImpl::loc(SMLoc l) {
  auto [line, col] = sm.getLineAndColumn(l);
  return mlir::FileLineColLoc::get(builder.getStringAttr(filename), line, col);
}

std::nullopt_t MLIRGenImpl::error(SMLoc l, const llvm::Twine &msg) {
  if (!failed) {
    printSourceMessage(sm, l, llvm::SourceMgr::DK_Error, msg);
    // Loops are unrolled: say which iteration failed, innermost loop first.
    for (size_t d = activeLoops.size(); d-- > 0;)
      printSourceMessage(sm, activeLoops[d].first, llvm::SourceMgr::DK_Note,
                         "in the iteration with " + activeLoops[d].second +
                             " = " + llvm::Twine(loopIterations[d]) +
                             " of this loop");
  }
  failed = true;
  return std::nullopt;
}

/// A compile-time scalar used as a matrix operand becomes a 1x1 constant.
Value MLIRGenImpl::asMatrix(TraceValue v, SMLoc l) {
  if (!v.isScalar())
    return v.matrix;
  auto type = matrixType(1, 1);
  auto attr = mlir::DenseElementsAttr::get(type, llvm::ArrayRef<double>(v.scalar));
  return ConstantOp::create(builder, loc(l), attr);
}

//===----------------------------------------------------------------------===//
// Program and statements
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> MLIRGenImpl::gen(const Program &program) {
  filename = program.filename;
  auto fileLoc = mlir::FileLineColLoc::get(builder.getStringAttr(filename), 1, 1);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = mlir::func::FuncOp::create(builder, fileLoc, "main",
                                         builder.getFunctionType({}, {}));
  body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);

  for (const StmtPtr &stmt : program.stmts)
    if (!genStmt(*stmt))
      return nullptr;
  mlir::func::ReturnOp::create(builder, fileLoc);

  for (const auto &[name, value] : options.defines)
    if (!definesUsed.count(name))
      llvm::errs() << "warning: -D " << name
                   << ": the program has no top-level assignment to '" << name
                   << "'\n";
  return module;
}

bool MLIRGenImpl::genStmt(const Stmt &stmt) {
  bool ok = false;
  if (auto *assign = llvm::dyn_cast<AssignStmt>(&stmt))
    ok = genAssign(*assign);
  else if (auto *loop = llvm::dyn_cast<ForStmt>(&stmt))
    ok = genFor(*loop);
  else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(&stmt))
    ok = genExprStmt(*exprStmt);
  if (ok && countTracedOps() > kMaxTracedOps) {
    error(stmt.getLoc(), "the traced program has more than " +
                             llvm::Twine(kMaxTracedOps) +
                             " operations (loops are unrolled at compile "
                             "time)");
    return false;
  }
  return ok && !failed;
}

bool MLIRGenImpl::genAssign(const AssignStmt &stmt) {
  MaybeValue value = eval(stmt.getValue());
  if (!value)
    return false;
  std::string name = stmt.getName().str();
  auto define = options.defines.find(name);
  if (loopIterations.empty() && define != options.defines.end() &&
      !definesUsed.count(name)) {
    definesUsed.insert(name);
    if (!value->isScalar()) {
      error(stmt.getLoc(), "-D " + name + ": '" + name +
                               "' is assigned a " + shapeOf(value->matrix) +
                               " matrix here, not a compile-time scalar");
      return false;
    }
    value = TraceValue::ofScalar(define->second);
  }
  env[name] = *value;
  return true;
}

bool MLIRGenImpl::genFor(const ForStmt &stmt) {
  auto *range = llvm::dyn_cast<RangeExpr>(&stmt.getRange());
  if (!range) {
    error(stmt.getRange().getLoc(),
          "a 'for' loop needs a range 'a:b' with compile-time bounds");
    return false;
  }
  std::optional<int64_t> lo = toInteger(range->getLo(), "loop start");
  if (!lo)
    return false;
  std::optional<int64_t> hi = toInteger(range->getHi(), "loop end");
  if (!hi)
    return false;
  int64_t trips = *hi >= *lo ? *hi - *lo + 1 : 0;
  totalIterations += trips;
  if (trips > kMaxLoopIterations || totalIterations > kMaxLoopIterations) {
    error(range->getLoc(), "the loops trace more than " +
                               llvm::Twine(kMaxLoopIterations) +
                               " iterations (loops are unrolled at compile "
                               "time)");
    return false;
  }

  std::string var = stmt.getVar().str();
  std::optional<TraceValue> shadowed;
  if (auto it = env.find(var); it != env.end())
    shadowed = it->second;
  for (int64_t i = *lo; i <= *hi; ++i) {
    env[var] = TraceValue::ofScalar(static_cast<double>(i));
    loopIterations.push_back(i);
    activeLoops.push_back({stmt.getLoc(), stmt.getVar()});
    for (const StmtPtr &s : stmt.getBody())
      if (!genStmt(*s))
        return false; // tracing stops at the first error
    activeLoops.pop_back();
    loopIterations.pop_back();
  }
  // The loop variable is local to the loop.
  if (shadowed)
    env[var] = *shadowed;
  else
    env.erase(var);
  return true;
}

bool MLIRGenImpl::genExprStmt(const ExprStmt &stmt) {
  if (auto *call = llvm::dyn_cast<CallExpr>(&stmt.getExpr())) {
    if (call->getCallee() == "print")
      return genPrint(*call);
    if (call->getCallee() == "save")
      return genSave(*call);
  }
  // Any other expression is traced for its errors; its value is unused.
  return eval(stmt.getExpr()).has_value();
}

bool MLIRGenImpl::genPrint(const CallExpr &call) {
  if (!checkArgCount(call, 1, 1))
    return false;
  const Expr &arg = *call.getArgs()[0];
  MaybeValue value = eval(arg);
  if (!value)
    return false;
  std::string label = printLabel(arg.getText());
  if (value->isScalar())
    PrintScalarOp::create(builder, loc(call.getLoc()),
                          builder.getStringAttr(label),
                          builder.getF64FloatAttr(value->scalar));
  else
    PrintOp::create(builder, loc(call.getLoc()), value->matrix, label);
  return true;
}

bool MLIRGenImpl::genSave(const CallExpr &call) {
  if (!checkArgCount(call, 2, 2))
    return false;
  std::optional<std::string> path = toPath(*call.getArgs()[0], "save");
  if (!path)
    return false;
  MaybeValue value = eval(*call.getArgs()[1]);
  if (!value)
    return false;
  Value matrix = asMatrix(*value, call.getArgs()[1]->getLoc());
  SaveOp::create(builder, loc(call.getLoc()), matrix, *path);
  savedFiles[normalizedPath(*path)] = {saveCount++, matrix};
  return true;
}

std::string MLIRGenImpl::normalizedPath(llvm::StringRef path) {
  llvm::SmallString<128> normal(path);
  llvm::sys::path::remove_dots(normal, /*remove_dot_dot=*/false);
  return std::string(normal);
}

std::optional<Value> MLIRGenImpl::savedEarlier(llvm::StringRef path) {
  std::string normal = normalizedPath(path);
  std::optional<std::pair<size_t, Value>> latest;
  if (auto it = savedFiles.find(normal); it != savedFiles.end())
    latest = it->second;
  // Two spellings of one existing file (a relative and an absolute path, a
  // link) are the same file: the latest save under any of them wins.
  if (llvm::sys::fs::exists(normal))
    for (auto &entry : savedFiles)
      if ((!latest || entry.second.first > latest->first) &&
          llvm::sys::fs::equivalent(entry.first(), normal))
        latest = entry.second;
  if (!latest)
    return std::nullopt;
  return latest->second;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

MaybeValue MLIRGenImpl::eval(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Number:
    return TraceValue::ofScalar(llvm::cast<NumberExpr>(expr).getValue());
  case Expr::Kind::Name: {
    llvm::StringRef name = llvm::cast<NameExpr>(expr).getName();
    auto it = env.find(name);
    if (it != env.end())
      return it->second;
    // Built-in constants (NaN and Inf as in Julia); a binding shadows them.
    if (name == "pi")
      return TraceValue::ofScalar(M_PI);
    if (name == "Inf")
      return TraceValue::ofScalar(INFINITY);
    if (name == "NaN")
      return TraceValue::ofScalar(NAN);
    return error(expr.getLoc(), "unknown name '" + name + "'");
  }
  case Expr::Kind::String:
    return error(expr.getLoc(),
                 "a string can only be a file name in load and save");
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(expr));
  case Expr::Kind::Unary: {
    auto &unary = llvm::cast<UnaryExpr>(expr);
    MaybeValue operand = eval(unary.getOperand());
    if (!operand || unary.getOp() == TokenKind::Plus)
      return operand;
    if (operand->isScalar())
      return TraceValue::ofScalar(-operand->scalar);
    return TraceValue::ofMatrix(
        NegOp::create(builder, loc(expr.getLoc()), operand->matrix));
  }
  case Expr::Kind::Binary:
    return evalBinary(llvm::cast<BinaryExpr>(expr));
  case Expr::Kind::Transpose: {
    MaybeValue operand = eval(llvm::cast<TransposeExpr>(expr).getOperand());
    if (!operand || operand->isScalar())
      return operand;
    Value m = operand->matrix;
    return TraceValue::ofMatrix(TransposeOp::create(
        builder, loc(expr.getLoc()), matrixType(cols(m), rows(m)), m));
  }
  case Expr::Kind::Matrix:
    return evalMatrixLiteral(llvm::cast<MatrixExpr>(expr));
  case Expr::Kind::Range:
    return evalRange(llvm::cast<RangeExpr>(expr));
  }
  return std::nullopt;
}

MaybeValue MLIRGenImpl::foldScalarBinary(TokenKind op, double a, double b) {
  switch (op) {
  case TokenKind::Plus:
  case TokenKind::DotPlus:
    return TraceValue::ofScalar(a + b);
  case TokenKind::Minus:
  case TokenKind::DotMinus:
    return TraceValue::ofScalar(a - b);
  case TokenKind::Star:
  case TokenKind::DotStar:
    return TraceValue::ofScalar(a * b);
  case TokenKind::Slash:
  case TokenKind::DotSlash:
    return TraceValue::ofScalar(a / b);
  case TokenKind::Backslash:
    return TraceValue::ofScalar(b / a);
  case TokenKind::Caret:
  case TokenKind::DotCaret:
    return TraceValue::ofScalar(std::pow(a, b));
  case TokenKind::DotGt:
    return TraceValue::ofScalar(a > b);
  case TokenKind::DotLt:
    return TraceValue::ofScalar(a < b);
  case TokenKind::DotGe:
    return TraceValue::ofScalar(a >= b);
  case TokenKind::DotLe:
    return TraceValue::ofScalar(a <= b);
  case TokenKind::DotEq:
    return TraceValue::ofScalar(a == b);
  default:
    return std::nullopt;
  }
}

/// Emits a broadcasting elementwise op (`.+`, `.*`, comparisons, ...).
MaybeValue MLIRGenImpl::broadcastOp(TokenKind op, SMLoc l, TraceValue lhs,
                                    TraceValue rhs) {
  Value a = asMatrix(lhs, l), b = asMatrix(rhs, l);
  auto shape = broadcastShape(
      mlir::cast<mlir::RankedTensorType>(a.getType()).getShape(),
      mlir::cast<mlir::RankedTensorType>(b.getType()).getShape());
  if (mlir::failed(shape))
    return error(l, "shapes " + shapeOf(a) + " and " + shapeOf(b) +
                        " do not broadcast in " + spell(op) +
                        " (each dimension must match or be 1)");
  auto type = matrixType(shape->first, shape->second);
  mlir::Location location = loc(l);
  Value result;
  switch (op) {
  case TokenKind::Plus:
  case TokenKind::DotPlus:
    result = AddOp::create(builder, location, type, a, b);
    break;
  case TokenKind::Minus:
  case TokenKind::DotMinus:
    result = SubOp::create(builder, location, type, a, b);
    break;
  case TokenKind::Star:
  case TokenKind::DotStar:
    result = MulOp::create(builder, location, type, a, b);
    break;
  case TokenKind::Slash:
  case TokenKind::DotSlash:
    result = DivOp::create(builder, location, type, a, b);
    break;
  case TokenKind::DotCaret:
    result = EPowOp::create(builder, location, type, a, b);
    break;
  case TokenKind::DotGt:
    result = CmpOp::create(builder, location, type, CmpPredicate::GT, a, b);
    break;
  case TokenKind::DotLt:
    result = CmpOp::create(builder, location, type, CmpPredicate::LT, a, b);
    break;
  case TokenKind::DotGe:
    result = CmpOp::create(builder, location, type, CmpPredicate::GE, a, b);
    break;
  case TokenKind::DotLe:
    result = CmpOp::create(builder, location, type, CmpPredicate::LE, a, b);
    break;
  case TokenKind::DotEq:
    result = CmpOp::create(builder, location, type, CmpPredicate::EQ, a, b);
    break;
  default:
    return error(l, "internal error: no broadcasting form of " + spell(op));
  }
  return TraceValue::ofMatrix(result);
}

MaybeValue MLIRGenImpl::evalBinary(const BinaryExpr &expr) {
  MaybeValue lhs = eval(expr.getLhs());
  if (!lhs)
    return std::nullopt;
  MaybeValue rhs = eval(expr.getRhs());
  if (!rhs)
    return std::nullopt;
  TokenKind op = expr.getOp();
  SMLoc l = expr.getLoc();
  if (lhs->isScalar() && rhs->isScalar())
    return foldScalarBinary(op, lhs->scalar, rhs->scalar);

  switch (op) {
  case TokenKind::Plus:
  case TokenKind::Minus:
    // Same-shape add/sub; a compile-time scalar operand is stretched.
    if (!lhs->isScalar() && !rhs->isScalar() &&
        (rows(lhs->matrix) != rows(rhs->matrix) ||
         cols(lhs->matrix) != cols(rhs->matrix)))
      return error(l, "shape mismatch in " + spell(op) + ": " +
                          shapeOf(lhs->matrix) + " and " +
                          shapeOf(rhs->matrix) + " (use " +
                          (op == TokenKind::Plus ? "'.+'" : "'.-'") +
                          " to broadcast)");
    return broadcastOp(op, l, *lhs, *rhs);

  case TokenKind::Star: {
    if (lhs->isScalar() || rhs->isScalar()) {
      double s = lhs->isScalar() ? lhs->scalar : rhs->scalar;
      Value m = lhs->isScalar() ? rhs->matrix : lhs->matrix;
      return TraceValue::ofMatrix(
          ScaleOp::create(builder, loc(l), m, builder.getF64FloatAttr(s)));
    }
    Value a = lhs->matrix, b = rhs->matrix;
    if (cols(a) == rows(b))
      return TraceValue::ofMatrix(MatmulOp::create(
          builder, loc(l), matrixType(rows(a), cols(b)), a, b));
    // A 1x1 matrix scales the other operand.
    if ((rows(a) == 1 && cols(a) == 1) || (rows(b) == 1 && cols(b) == 1))
      return broadcastOp(TokenKind::DotStar, l, *lhs, *rhs);
    return error(l, "inner dimensions differ in '*': " + shapeOf(a) + " * " +
                        shapeOf(b));
  }

  case TokenKind::Slash: {
    if (lhs->isScalar())
      return error(l, "'s / A' divides a scalar by a " + shapeOf(rhs->matrix) +
                          " matrix; use './' for elementwise division");
    if (!rhs->isScalar() && (rows(rhs->matrix) != 1 || cols(rhs->matrix) != 1))
      return error(l, "'/' divides by a scalar or a 1x1 matrix, got " +
                          shapeOf(lhs->matrix) + " / " + shapeOf(rhs->matrix) +
                          "; use './' for elementwise division or '\\' to "
                          "solve");
    return broadcastOp(TokenKind::DotSlash, l, *lhs, *rhs);
  }

  case TokenKind::Backslash: {
    if (lhs->isScalar()) // s \ A = A / s
      return broadcastOp(TokenKind::DotSlash, l, *rhs, *lhs);
    Value a = lhs->matrix;
    if (rhs->isScalar())
      return error(l, "'A \\ B' needs a matrix B, got a scalar");
    Value b = rhs->matrix;
    if (rows(a) != cols(a))
      return error(l, "'A \\ B' needs a square A, got " + shapeOf(a));
    if (rows(a) != rows(b))
      return error(l, "row counts differ in '\\': " + shapeOf(a) + " \\ " +
                          shapeOf(b));
    return TraceValue::ofMatrix(
        SolveOp::create(builder, loc(l), b.getType(), a, b));
  }

  case TokenKind::Caret: {
    if (lhs->isScalar())
      return error(l, "a scalar raised to a matrix power is not supported");
    if (!rhs->isScalar())
      return error(expr.getRhs().getLoc(),
                   "the exponent of '^' must be a compile-time integer, got a " +
                       shapeOf(rhs->matrix) +
                       " matrix (a 1x1 matrix is not a compile-time scalar)");
    double k = rhs->scalar;
    if (k != std::floor(k) || !std::isfinite(k))
      return error(expr.getRhs().getLoc(),
                   "the exponent of '^' must be an integer, got " +
                       exactNum(k) + " (use '.^' for elementwise powers)");
    if (k < 0)
      return error(expr.getRhs().getLoc(),
                   "negative matrix power " + num(k) +
                       " (use inv(A) ^ " + num(-k) + ")");
    if (k > 1e9)
      return error(expr.getRhs().getLoc(),
                   "matrix power " + num(k) + " is too large");
    Value a = lhs->matrix;
    if (rows(a) != cols(a))
      return error(l, "matrix power needs a square matrix, got " + shapeOf(a));
    return TraceValue::ofMatrix(PowOp::create(
        builder, loc(l), a, builder.getI64IntegerAttr(static_cast<int64_t>(k))));
  }

  default:
    return broadcastOp(op, l, *lhs, *rhs);
  }
}

MaybeValue MLIRGenImpl::evalMatrixLiteral(const MatrixExpr &expr) {
  const auto &rowsAst = expr.getRows();
  size_t width = rowsAst.front().size();
  std::vector<double> values;
  for (size_t r = 0; r < rowsAst.size(); ++r) {
    if (rowsAst[r].empty())
      return error(expr.getLoc(), rowsAst.size() == 1
                                      ? llvm::Twine("empty matrix literal")
                                      : "row " + llvm::Twine(r + 1) +
                                            " of the matrix literal is empty");
    if (rowsAst[r].size() != width)
      return error(rowsAst[r].front()->getRange().Start, // the row's start
                   "row " + llvm::Twine(r + 1) + " of the matrix literal has " +
                       llvm::Twine(rowsAst[r].size()) +
                       (rowsAst[r].size() == 1 ? " element" : " elements") +
                       ", row 1 has " +
                       llvm::Twine(width));
    for (const ExprPtr &e : rowsAst[r]) {
      std::optional<double> v = toScalar(*e, "a matrix literal element");
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
  }
  auto type = matrixType(rowsAst.size(), width);
  return TraceValue::ofMatrix(ConstantOp::create(
      builder, loc(expr.getLoc()),
      mlir::DenseElementsAttr::get(type, llvm::ArrayRef<double>(values))));
}

MaybeValue MLIRGenImpl::evalRange(const RangeExpr &expr) {
  std::optional<int64_t> lo = toInteger(expr.getLo(), "range start");
  if (!lo)
    return std::nullopt;
  std::optional<int64_t> hi = toInteger(expr.getHi(), "range end");
  if (!hi)
    return std::nullopt;
  if (*hi < *lo)
    return error(expr.getLoc(), "empty range " + llvm::Twine(*lo) + ":" +
                                    llvm::Twine(*hi) +
                                    " (a 1x0 matrix is not supported)");
  if (!checkSize(expr.getLoc(), 1, *hi - *lo + 1))
    return std::nullopt;
  return TraceValue::ofMatrix(
      RangeOp::create(builder, loc(expr.getLoc()), matrixType(1, *hi - *lo + 1),
                      builder.getI64IntegerAttr(*lo),
                      builder.getI64IntegerAttr(*hi)));
}

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
std::optional<mlir::RankedTensorType>
MLIRGenImpl::toShape(const CallExpr &call, size_t first) {
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
    error(l, "matrix " + llvm::Twine(r) + "x" + llvm::Twine(c) +
                 " is too large");
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
  if (!v->isScalar())
    return error(e.getLoc(), llvm::Twine(what) +
                                 " must be a compile-time integer, got a " +
                                 shapeOf(v->matrix) +
                                 " matrix (a 1x1 matrix is not a compile-time "
                                 "scalar)");
  double d = v->scalar;
  if (!std::isfinite(d) || d != std::floor(d))
    return error(e.getLoc(), llvm::Twine(what) + " must be an integer, got " +
                                 exactNum(d));
  if (std::fabs(d) > 9.0e15)
    return error(e.getLoc(), llvm::Twine(what) + " " + num(d) +
                                 " is out of range");
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
    return error(e.getLoc(), "the file name of '" + fn +
                                 "' must be a string literal");
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
    Distribution dist = name == "rand" ? Distribution::Uniform
                                       : Distribution::Normal;
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
    if (std::optional<Value> saved = savedEarlier(*path))
      return TraceValue::ofMatrix(*saved);
    cmmrt::MatrixShape shape;
    std::string message;
    if (!cmmrt::readMatrixShape(*path, shape, message))
      return error(args[0]->getLoc(), message);
    if (!checkSize(call.getLoc(), shape.rows, shape.cols))
      return std::nullopt;
    return TraceValue::ofMatrix(LoadOp::create(
        builder, l, matrixType(shape.rows, shape.cols), *path));
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
    return TraceValue::ofMatrix(NormOp::create(builder, l, matrixType(1, 1), *m));
  }
  if (auto fn = unaryFnFor(name)) {
    if (!checkArgCount(call, 1, 1))
      return std::nullopt;
    MaybeValue v = eval(*args[0]);
    if (!v)
      return std::nullopt;
    if (v->isScalar())
      return TraceValue::ofScalar(
          cmmrt::applyMap(toRuntime(*fn), v->scalar));
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
      return error(call.getLoc(), "inv needs a square matrix, got " +
                                      shapeOf(v->matrix));
    return TraceValue::ofMatrix(InvOp::create(builder, l, v->matrix));
  }
  if (name == "print" || name == "save")
    return error(call.getLoc(), "'" + name +
                                    "' is a statement and has no value");
  if (env.count(name))
    return error(call.getLoc(), "'" + name + "' is a variable, not a function");
  return error(call.getLoc(), "unknown function '" + name + "'");
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> cmm::mlirGen(mlir::MLIRContext &context,
                                               llvm::SourceMgr &sourceMgr,
                                               const Program &program,
                                               const MLIRGenOptions &options) {
  context.loadDialect<CmmDialect, mlir::func::FuncDialect>();
  return MLIRGenImpl(context, sourceMgr, options).gen(program);
}

mlir::OwningOpRef<mlir::ModuleOp>
cmm::importCmm(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
               const MLIRGenOptions &options) {
  std::optional<Program> program =
      parseCmm(sourceMgr, sourceMgr.getMainFileID());
  if (!program)
    return nullptr;
  return mlirGen(context, sourceMgr, *program, options);
}

bool cmm::addDefine(llvm::StringRef text, MLIRGenOptions &options,
                    std::string &error) {
  auto [name, number] = text.split('=');
  double value = 0;
  bool ok = text.contains('=') && !name.empty();
  if (ok) {
    const char *begin = number.begin(), *end = number.end();
    if (begin != end && *begin == '+')
      ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    ok = ec == std::errc() && ptr == end && begin != end;
  }
  if (!ok) {
    error = "-D expects name=number, got '" + text.str() + "'";
    return false;
  }
  options.defines[name.str()] = value;
  return true;
}
