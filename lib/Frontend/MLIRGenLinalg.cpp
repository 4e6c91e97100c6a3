//===- MLIRGenLinalg.cpp - Dense linear algebra built-ins -------*- C++ -*-===//
//
// chol, qr, svd, svdvals, eig, eigvals, det, pinv, tril, triu, and the
// assignment of several results they need (docs/language.md, "Dense linear
// algebra"). Shape rules are compile-time errors at the call; what depends
// on the values (not symmetric, not positive definite) is the run time's.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace cmm;
using namespace cmm::mlirgen;

unsigned mlirgen::linalgResultCount(llvm::StringRef name) {
  return llvm::StringSwitch<unsigned>(name)
      .Cases({"qr", "eig"}, 2)
      .Case("svd", 3)
      .Cases({"chol", "svdvals", "eigvals", "det", "pinv", "tril", "triu"}, 1)
      .Default(0);
}

std::optional<llvm::SmallVector<Value, 3>>
MLIRGenImpl::evalLinalgCall(const CallExpr &call) {
  llvm::StringRef name = call.getCallee();
  if (!checkArgCount(call, 1, 1))
    return std::nullopt;
  auto input = toMatrix(*call.getArgs()[0]);
  if (!input)
    return std::nullopt;
  Value a = *input;
  int64_t m = rows(a), n = cols(a), k = std::min(m, n);
  mlir::Location l = loc(call.getLoc());
  bool square =
      name == "chol" || name == "eig" || name == "eigvals" || name == "det";
  if (square && m != n) {
    error(call.getLoc(),
          "'" + name + "' needs a square matrix, got " + shapeOf(a));
    return std::nullopt;
  }
  auto results = [](mlir::Operation *op) {
    return llvm::SmallVector<Value, 3>(op->getResults());
  };
  if (name == "chol")
    return results(CholOp::create(builder, l, a));
  if (name == "qr") {
    if (m < n) {
      error(call.getLoc(), "'qr' is the thin QR of a matrix with at least as "
                           "many rows as columns, got " +
                               shapeOf(a));
      return std::nullopt;
    }
    return results(
        QrOp::create(builder, l, matrixType(m, n), matrixType(n, n), a));
  }
  if (name == "svd")
    return results(SvdOp::create(builder, l, matrixType(m, k), matrixType(k, 1),
                                 matrixType(n, k), a));
  if (name == "svdvals")
    return results(SvdValsOp::create(builder, l, matrixType(k, 1), a));
  if (name == "eig")
    return results(
        EigOp::create(builder, l, matrixType(n, 1), matrixType(n, n), a));
  if (name == "eigvals")
    return results(EigValsOp::create(builder, l, matrixType(n, 1), a));
  if (name == "det")
    return results(DetOp::create(builder, l, matrixType(1, 1), a));
  if (name == "pinv")
    return results(PinvOp::create(builder, l, matrixType(n, m), a));
  if (name == "tril")
    return results(TrilOp::create(builder, l, a));
  assert(name == "triu" && "linalgResultCount names no other built-in");
  return results(TriuOp::create(builder, l, a));
}

bool MLIRGenImpl::genSeveralAssign(const AssignStmt &stmt) {
  size_t names = stmt.getNames().size();
  auto *call = llvm::dyn_cast<CallExpr>(&stmt.getValue());
  unsigned count = call ? linalgResultCount(call->getCallee()) : 0;
  if (call && functions.count(call->getCallee()))
    count = 1; // a user function returns one value
  // A several-result call inside the expression is the error, at the call
  // (eval reports it there).
  if (!call && !eval(stmt.getValue()))
    return false;
  if (count <= 1) {
    error(stmt.getValue().getLoc(),
          llvm::Twine(names) + " names are assigned, but " +
              (call ? "'" + call->getCallee() + "' has one result"
                    : std::string("the right-hand side is one value")) +
              "; several names take the results of qr (2), eig (2) or svd "
              "(3)");
    return false;
  }
  if (count != names) {
    error(call->getLoc(), "'" + call->getCallee() + "' has " +
                              llvm::Twine(count) + " results, assigned to " +
                              llvm::Twine(names) + " names");
    return false;
  }
  auto results = evalLinalgCall(*call);
  if (!results)
    return false;
  for (auto [name, value] : llvm::zip_equal(stmt.getNames(), *results))
    env[name] = TraceValue::ofMatrix(value);
  return true;
}
