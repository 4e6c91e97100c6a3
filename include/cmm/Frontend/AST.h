//===- AST.h - Abstract syntax tree of .cmm programs ------------*- C++ -*-===//
//
// Every node keeps its source range so that diagnostics, the IR locations and
// the `print` labels (the expression text) point back at the program.
// Expression trees are bounded in depth by the parser (see
// Parser::kMaxExprDepth), so the recursive walks over them cannot overflow
// the stack.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_FRONTEND_AST_H
#define CMM_FRONTEND_AST_H

#include "cmm/Frontend/Lexer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
}

namespace cmm {

class Expr {
public:
  enum class Kind {
    Number,
    Name,
    String,
    Call,
    Unary,
    Binary,
    Transpose,
    Matrix,
    Range,
    Index,
    End,
    Colon
  };

  Expr(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;

  Kind getKind() const { return kind; }
  llvm::SMRange getRange() const { return range; }
  void setRange(llvm::SMRange r) { range = r; }
  /// The location diagnostics point at: the operator for operations, the
  /// start otherwise.
  llvm::SMLoc getLoc() const { return loc.isValid() ? loc : range.Start; }
  void setLoc(llvm::SMLoc l) { loc = l; }
  /// The source text of the expression.
  llvm::StringRef getText() const {
    return llvm::StringRef(range.Start.getPointer(),
                           range.End.getPointer() - range.Start.getPointer());
  }
  unsigned getDepth() const { return depth; }
  void setDepth(unsigned d) { depth = d; }

private:
  Kind kind;
  llvm::SMRange range;
  llvm::SMLoc loc;
  unsigned depth = 1;
};

using ExprPtr = std::unique_ptr<Expr>;

class NumberExpr : public Expr {
public:
  NumberExpr(llvm::SMRange r, double v) : Expr(Kind::Number, r), value(v) {}
  double getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Number; }

private:
  double value;
};

class NameExpr : public Expr {
public:
  NameExpr(llvm::SMRange r, llvm::StringRef n) : Expr(Kind::Name, r), name(n) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
};

class StringExpr : public Expr {
public:
  StringExpr(llvm::SMRange r, llvm::StringRef v)
      : Expr(Kind::String, r), value(v) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::String; }

private:
  std::string value;
};

class CallExpr : public Expr {
public:
  CallExpr(llvm::SMRange r, llvm::StringRef callee, std::vector<ExprPtr> args)
      : Expr(Kind::Call, r), callee(callee), args(std::move(args)) {}
  llvm::StringRef getCallee() const { return callee; }
  const std::vector<ExprPtr> &getArgs() const { return args; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  std::string callee;
  std::vector<ExprPtr> args;
};

/// `-e` and `+e`.
class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMRange r, TokenKind op, ExprPtr operand)
      : Expr(Kind::Unary, r), op(op), operand(std::move(operand)) {}
  TokenKind getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  TokenKind op;
  ExprPtr operand;
};

class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMRange r, TokenKind op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, r), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  TokenKind getOp() const { return op; }
  const Expr &getLhs() const { return *lhs; }
  const Expr &getRhs() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  TokenKind op;
  ExprPtr lhs, rhs;
};

/// Postfix `e'`.
class TransposeExpr : public Expr {
public:
  TransposeExpr(llvm::SMRange r, ExprPtr operand)
      : Expr(Kind::Transpose, r), operand(std::move(operand)) {}
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Transpose; }

private:
  ExprPtr operand;
};

/// `[1 2; 3 4]`: rows of element expressions.
class MatrixExpr : public Expr {
public:
  MatrixExpr(llvm::SMRange r, std::vector<std::vector<ExprPtr>> rows)
      : Expr(Kind::Matrix, r), rows(std::move(rows)) {}
  const std::vector<std::vector<ExprPtr>> &getRows() const { return rows; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Matrix; }

private:
  std::vector<std::vector<ExprPtr>> rows;
};

/// `a:b`.
class RangeExpr : public Expr {
public:
  RangeExpr(llvm::SMRange r, ExprPtr lo, ExprPtr hi)
      : Expr(Kind::Range, r), lo(std::move(lo)), hi(std::move(hi)) {}
  const Expr &getLo() const { return *lo; }
  const Expr &getHi() const { return *hi; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Range; }

private:
  ExprPtr lo, hi;
};

/// `A[i, j]`, `A[r1:r2, :]`, `x[k]`: the base and one or two subscripts
/// (each an expression, a range, or a ColonExpr for `:`).
class IndexExpr : public Expr {
public:
  IndexExpr(llvm::SMRange r, ExprPtr base, std::vector<ExprPtr> subscripts)
      : Expr(Kind::Index, r), base(std::move(base)),
        subscripts(std::move(subscripts)) {}
  const Expr &getBase() const { return *base; }
  const std::vector<ExprPtr> &getSubscripts() const { return subscripts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }

private:
  ExprPtr base;
  std::vector<ExprPtr> subscripts;
};

/// `end` inside the brackets of an index: the size of that dimension.
class EndExpr : public Expr {
public:
  explicit EndExpr(llvm::SMRange r) : Expr(Kind::End, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::End; }
};

/// A lone `:` subscript: the whole dimension.
class ColonExpr : public Expr {
public:
  explicit ColonExpr(llvm::SMRange r) : Expr(Kind::Colon, r) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::Colon; }
};

class Stmt {
public:
  enum class Kind { Assign, For, Expr, IndexAssign, If, While, Break, Return };
  Stmt(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

private:
  Kind kind;
  llvm::SMLoc loc;
};

using StmtPtr = std::unique_ptr<Stmt>;

/// `name = expr`, or `a, b = f(...)` binding the results of a built-in with
/// several results (docs/language.md, "Several results").
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMLoc loc, std::vector<std::string> names, ExprPtr value)
      : Stmt(Kind::Assign, loc), names(std::move(names)),
        value(std::move(value)) {}
  /// The name of a one-name assignment (the first of several).
  llvm::StringRef getName() const { return names.front(); }
  llvm::ArrayRef<std::string> getNames() const { return names; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  std::vector<std::string> names;
  ExprPtr value;
};

/// `for var in range ... end`; the range is any expression (normally a
/// RangeExpr) that must evaluate to compile-time bounds.
class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMLoc loc, llvm::StringRef var, ExprPtr range,
          std::vector<StmtPtr> body)
      : Stmt(Kind::For, loc), var(var), range(std::move(range)),
        body(std::move(body)) {}
  llvm::StringRef getVar() const { return var; }
  const Expr &getRange() const { return *range; }
  const std::vector<StmtPtr> &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  std::string var;
  ExprPtr range;
  std::vector<StmtPtr> body;
};

/// An expression evaluated for its effect: `print(e)`, `save("f", e)`.
class ExprStmt : public Stmt {
public:
  ExprStmt(llvm::SMLoc loc, ExprPtr expr)
      : Stmt(Kind::Expr, loc), expr(std::move(expr)) {}
  const Expr &getExpr() const { return *expr; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr expr;
};

/// `A[rows, cols] = value`: a new value of A with that block replaced.
class IndexAssignStmt : public Stmt {
public:
  IndexAssignStmt(llvm::SMLoc loc, std::unique_ptr<IndexExpr> target,
                  ExprPtr value)
      : Stmt(Kind::IndexAssign, loc), target(std::move(target)),
        value(std::move(value)) {}
  /// The indexed name (the parser only builds this for `name[...] = e`).
  llvm::StringRef getName() const {
    return llvm::cast<NameExpr>(target->getBase()).getName();
  }
  const IndexExpr &getTarget() const { return *target; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::IndexAssign;
  }

private:
  std::unique_ptr<IndexExpr> target;
  ExprPtr value;
};

/// `if c1 ... elseif c2 ... else ... end`: the conditions with their
/// bodies in order, then the `else` body (empty without one).
class IfStmt : public Stmt {
public:
  struct Clause {
    ExprPtr condition;
    std::vector<StmtPtr> body;
  };
  IfStmt(llvm::SMLoc loc, std::vector<Clause> clauses,
         std::vector<StmtPtr> elseBody, llvm::SMLoc elseLoc)
      : Stmt(Kind::If, loc), clauses(std::move(clauses)),
        elseBody(std::move(elseBody)), elseLoc(elseLoc) {}
  const std::vector<Clause> &getClauses() const { return clauses; }
  const std::vector<StmtPtr> &getElse() const { return elseBody; }
  /// The `else` keyword (invalid without one).
  llvm::SMLoc getElseLoc() const { return elseLoc; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  std::vector<Clause> clauses;
  std::vector<StmtPtr> elseBody;
  llvm::SMLoc elseLoc;
};

/// `while cond ... end`, with the trip count of an `# expect N` comment on
/// its line (0 without one), which the planner's simulation assumes.
class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMLoc loc, ExprPtr condition, std::vector<StmtPtr> body,
            int64_t expectedTrips)
      : Stmt(Kind::While, loc), condition(std::move(condition)),
        body(std::move(body)), expectedTrips(expectedTrips) {}
  const Expr &getCondition() const { return *condition; }
  const std::vector<StmtPtr> &getBody() const { return body; }
  int64_t getExpectedTrips() const { return expectedTrips; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr condition;
  std::vector<StmtPtr> body;
  int64_t expectedTrips;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(llvm::SMLoc loc) : Stmt(Kind::Break, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

/// `return` or `return e`.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMLoc loc, ExprPtr value)
      : Stmt(Kind::Return, loc), value(std::move(value)) {}
  /// Null for a bare `return`.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `function name(params) ... end`, defined at the top level.
struct FunctionDef {
  llvm::SMLoc loc;     // the 'function' keyword
  llvm::SMLoc nameLoc; // the name
  std::string name;
  std::vector<std::pair<std::string, llvm::SMLoc>> params;
  std::vector<StmtPtr> body;
  /// Whether some `return` in the body carries a value.
  bool returnsValue = false;
};

struct Program {
  std::string filename;
  std::vector<StmtPtr> stmts;
  /// The user functions, in definition order (callable before their
  /// definition).
  std::vector<std::unique_ptr<FunctionDef>> functions;
};

/// Prints the tree, one node a line with its line:col (`cmmc --emit=ast`).
void dumpAST(const Program &program, const llvm::SourceMgr &sourceMgr,
             llvm::raw_ostream &os);

} // namespace cmm

#endif // CMM_FRONTEND_AST_H
