//===- MLIRGen.cpp - Trace a .cmm AST into the cmm dialect ------*- C++ -*-===//
//
// A tracer: each expression evaluates either to a compile-time scalar (folded
// here) or to an SSA matrix value produced by a cmm op. Shapes are checked as
// ops are emitted, and every error points at the operator's source location.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

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
using namespace cmm::mlirgen;

/// `v` with as many digits as it takes to read back exactly: where a value
/// is refused for not being an integer, 6 digits would print 0.9999999999999999
/// as "1".
std::string mlirgen::exactNum(double v) {
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
std::string mlirgen::printLabel(llvm::StringRef text) {
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
    // Loops are unrolled and calls traced: say which iteration and which
    // call failed, innermost first; of a deep nest (a recursion at its
    // depth limit), the innermost and the outermost few.
    constexpr size_t kInnermost = 10, kOutermost = 3;
    const size_t n = frames.size();
    for (size_t d = n; d-- > 0;) {
      if (n > kInnermost + kOutermost && d == n - 1 - kInnermost) {
        printSourceMessage(sm, frames[d].loc, llvm::SourceMgr::DK_Note,
                           llvm::Twine(d + 1 - kOutermost) +
                               " more enclosing calls and iterations, from "
                               "here out, are not shown");
        d = kOutermost; // the next shown is frames[kOutermost - 1]
        continue;
      }
      const Frame &f = frames[d];
      llvm::Twine iteration(loopIterations[d]);
      if (f.kind == Frame::For)
        printSourceMessage(sm, f.loc, llvm::SourceMgr::DK_Note,
                           "in the iteration with " + f.name + " = " +
                               iteration + " of this loop");
      else if (f.kind == Frame::While)
        printSourceMessage(sm, f.loc, llvm::SourceMgr::DK_Note,
                           "in iteration " + iteration + " of this loop");
      else if (f.kind == Frame::RunTime || f.kind == Frame::RunTimeLoop)
        printSourceMessage(sm, f.loc, llvm::SourceMgr::DK_Note, "in " + f.name);
      else
        printSourceMessage(sm, f.loc, llvm::SourceMgr::DK_Note,
                           "in this call of '" + f.name + "'");
    }
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
  builder.setInsertionPointToEnd(func.addEntryBlock());

  if (!registerFunctions(program))
    return nullptr;
  if (genBlock(program.stmts) != Flow::Next)
    return nullptr; // the parser allows no 'break' or 'return' out here
  mlir::func::ReturnOp::create(builder, fileLoc);

  for (const auto &[name, value] : options.defines)
    if (!definesUsed.count(name))
      llvm::errs() << "warning: -D " << name
                   << ": the program has no top-level assignment to '" << name
                   << "'\n";
  return module;
}

Flow MLIRGenImpl::genBlock(llvm::ArrayRef<StmtPtr> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    Flow flow = genStmt(*stmts[i]);
    if (flow == Flow::Mixed && (mixedExits & ExitNext) && i + 1 < stmts.size())
      return genRest(stmts.drop_front(i + 1), mixedExits);
    if (flow != Flow::Next)
      return flow;
  }
  return Flow::Next;
}

Flow MLIRGenImpl::genStmt(const Stmt &stmt) {
  Flow flow = Flow::Failed;
  auto done = [](bool ok) { return ok ? Flow::Next : Flow::Failed; };
  switch (stmt.getKind()) {
  case Stmt::Kind::Assign:
    flow = done(genAssign(llvm::cast<AssignStmt>(stmt)));
    break;
  case Stmt::Kind::IndexAssign:
    flow = done(genIndexAssign(llvm::cast<IndexAssignStmt>(stmt)));
    break;
  case Stmt::Kind::For:
    flow = genFor(llvm::cast<ForStmt>(stmt));
    break;
  case Stmt::Kind::While:
    flow = genWhile(llvm::cast<WhileStmt>(stmt));
    break;
  case Stmt::Kind::If:
    flow = genIf(llvm::cast<IfStmt>(stmt));
    break;
  case Stmt::Kind::Break:
    flow = genBreak(llvm::cast<BreakStmt>(stmt));
    break;
  case Stmt::Kind::Return:
    flow = genReturn(llvm::cast<ReturnStmt>(stmt));
    break;
  case Stmt::Kind::Expr:
    flow = done(genExprStmt(llvm::cast<ExprStmt>(stmt)));
    break;
  }
  if (flow != Flow::Failed && countTracedOps() > options.limits.ops) {
    error(stmt.getLoc(), "the traced program has more than " +
                             llvm::Twine(options.limits.ops) +
                             " operations (loops are unrolled at compile "
                             "time)");
    return Flow::Failed;
  }
  return failed ? Flow::Failed : flow;
}

bool MLIRGenImpl::genAssign(const AssignStmt &stmt) {
  if (stmt.getNames().size() > 1)
    return genSeveralAssign(stmt);
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

bool MLIRGenImpl::genExprStmt(const ExprStmt &stmt) {
  if (auto *call = llvm::dyn_cast<CallExpr>(&stmt.getExpr())) {
    if (call->getCallee() == "print" || call->getCallee() == "display")
      return genPrint(*call, /*rows=*/call->getCallee() == "display");
    if (call->getCallee() == "save")
      return genSave(*call);
    if (auto it = functions.find(call->getCallee()); it != functions.end())
      return callFunction(*call, *it->second, /*asStatement=*/true).has_value();
  }
  // Any other expression is traced for its errors; its value is unused.
  return eval(stmt.getExpr()).has_value();
}

bool MLIRGenImpl::genPrint(const CallExpr &call, bool rows) {
  if (!checkArgCount(call, 1, 1))
    return false;
  const Expr &arg = *call.getArgs()[0];
  MaybeValue value = eval(arg);
  if (!value)
    return false;
  std::string label = printLabel(arg.getText());
  // A compile-time scalar's line is all display shows of it too.
  if (value->isScalar()) {
    PrintScalarOp::create(builder, loc(call.getLoc()),
                          builder.getStringAttr(label),
                          builder.getF64FloatAttr(value->scalar));
    return true;
  }
  int64_t elements = mlirgen::rows(value->matrix) * cols(value->matrix);
  if (rows && elements > cmmrt::kMaxDisplayElements) {
    error(call.getLoc(), "display shows at most " +
                             llvm::Twine(cmmrt::kMaxDisplayElements) +
                             " elements, the " + shapeOf(value->matrix) +
                             " matrix has " + llvm::Twine(elements) +
                             "; use print for a summary or save to write "
                             "it to a file");
    return false;
  }
  PrintOp::create(builder, loc(call.getLoc()), value->matrix, label, rows);
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

void MLIRGenImpl::forgetRunTimeSaves(size_t savesBefore, SMLoc construct) {
  llvm::SmallVector<std::string> inside;
  for (auto &entry : savedFiles)
    if (entry.second.first >= savesBefore)
      inside.push_back(entry.first().str());
  for (const std::string &path : inside) {
    savedFiles.erase(path);
    runTimeSavedFiles[path] = construct;
  }
}

bool MLIRGenImpl::checkLoadOrder(llvm::StringRef path, SMLoc l) {
  std::string normal = normalizedPath(path);
  if (auto it = runTimeSavedFiles.find(normal); it != runTimeSavedFiles.end()) {
    error(l, "'" + path + "' is saved inside the construct at line " +
                 llvm::Twine(sm.getLineAndColumn(it->second).first) +
                 ", whose condition is decided at run time; loading it "
                 "after that construct is not supported yet");
    return false;
  }
  for (const auto &[paths, savesBefore] : loopSavedFiles) {
    auto latest = savedFiles.find(normal);
    if (paths.count(normal) &&
        (latest == savedFiles.end() || latest->second.first < savesBefore)) {
      error(l, "'" + path +
                   "' is loaded in a loop decided at run time "
                   "before the loop saves it: from the second "
                   "iteration on it would read the previous one's "
                   "file; this is not supported yet");
      return false;
    }
  }
  return true;
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
    if (auto local = regionLocalNames.find(name);
        local != regionLocalNames.end()) {
      const unsigned line = sm.getLineAndColumn(local->second.construct).first;
      if (!local->second.shapes.empty())
        return error(expr.getLoc(), "'" + name + "' " + local->second.shapes +
                                        ": give it one shape on every path "
                                        "to use it after");
      return error(expr.getLoc(),
                   "'" + name +
                       "' is assigned only inside the construct at "
                       "line " +
                       llvm::Twine(line) +
                       ", whose condition is decided at run time; assign it "
                       "before (or in every branch) to use it after");
    }
    return error(expr.getLoc(), "unknown name '" + name + "'");
  }
  case Expr::Kind::String:
    return error(expr.getLoc(),
                 "a string can only be a file name in load and save");
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(expr));
  case Expr::Kind::Unary: {
    auto &unary = llvm::cast<UnaryExpr>(expr);
    if (unary.getOp() == TokenKind::Bang)
      return evalNot(unary);
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
  case Expr::Kind::Index:
    return evalIndex(llvm::cast<IndexExpr>(expr));
  case Expr::Kind::End:
    if (endSizes.empty()) // the parser makes `end` only inside brackets
      return error(expr.getLoc(), "'end' outside the brackets of an index");
    return TraceValue::ofScalar(static_cast<double>(endSizes.back()));
  case Expr::Kind::Colon:
    return error(expr.getLoc(), "':' alone is only a subscript (A[:, j])");
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
  switch (expr.getOp()) {
  case TokenKind::AndAnd:
  case TokenKind::OrOr:
    return evalLogic(expr);
  case TokenKind::Lt:
  case TokenKind::Gt:
  case TokenKind::Le:
  case TokenKind::Ge:
  case TokenKind::EqEq:
  case TokenKind::NotEq:
    return evalScalarComparison(expr);
  default:
    break;
  }
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
    if (rows(a) != rows(b))
      return error(l, "row counts differ in '\\': " + shapeOf(a) + " \\ " +
                          shapeOf(b));
    // A non-square A: the least-squares solution, A's columns by B's.
    return TraceValue::ofMatrix(
        SolveOp::create(builder, loc(l), matrixType(cols(a), cols(b)), a, b));
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
  std::vector<std::vector<TraceValue>> elements;
  bool blocks = false;
  for (size_t r = 0; r < rowsAst.size(); ++r) {
    if (rowsAst[r].empty())
      return error(expr.getLoc(), rowsAst.size() == 1
                                      ? llvm::Twine("empty matrix literal")
                                      : "row " + llvm::Twine(r + 1) +
                                            " of the matrix literal is empty");
    elements.emplace_back();
    for (const ExprPtr &e : rowsAst[r]) {
      MaybeValue v = eval(*e);
      if (!v)
        return std::nullopt;
      blocks |= !v->isScalar();
      elements.back().push_back(*v);
    }
  }
  // Matrices among the elements make it a block matrix `[A B; C D]`.
  if (blocks)
    return evalBlockLiteral(expr, std::move(elements));
  size_t width = rowsAst.front().size();
  std::vector<double> values;
  for (size_t r = 0; r < rowsAst.size(); ++r) {
    if (rowsAst[r].size() != width)
      return error(rowsAst[r].front()->getRange().Start, // the row's start
                   "row " + llvm::Twine(r + 1) + " of the matrix literal has " +
                       llvm::Twine(rowsAst[r].size()) +
                       (rowsAst[r].size() == 1 ? " element" : " elements") +
                       ", row 1 has " +
                       llvm::Twine(width));
    for (const TraceValue &v : elements[r])
      values.push_back(v.scalar);
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
