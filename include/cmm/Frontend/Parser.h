//===- Parser.h - Recursive-descent parser for .cmm -------------*- C++ -*-===//
//
// Builds the AST of a `.cmm` buffer held by an llvm::SourceMgr. The first
// syntax error is reported as `file:line:col: error: ...` with the source
// line and a caret, and parsing stops.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_FRONTEND_PARSER_H
#define CMM_FRONTEND_PARSER_H

#include "cmm/Frontend/AST.h"
#include "cmm/Frontend/Lexer.h"

#include <optional>

namespace llvm {
class SourceMgr;
class Twine;
} // namespace llvm

namespace cmm {

class Parser {
public:
  /// Deepest nesting of parentheses, brackets, signs and `for` loops, and
  /// deepest expression tree (a sum of 4096 terms), accepted before the
  /// parser reports an error rather than risk overflowing the stack in the
  /// recursive walks over the tree.
  static constexpr unsigned kMaxNesting = 256;
  static constexpr unsigned kMaxExprDepth = 4096;

  Parser(llvm::SourceMgr &sourceMgr, unsigned bufferId);

  /// Parses the whole buffer; nullopt after an error (already reported).
  std::optional<Program> parseProgram();

private:
  // Statements.
  /// Statements up to the end of the file, or, inside the 'for' loop at
  /// `loop`, up to its 'end'.
  bool parseBlock(std::vector<StmtPtr> &stmts, std::optional<llvm::SMLoc> loop);
  StmtPtr parseStatement();
  StmtPtr parseFor();

  // Expressions, lowest precedence first.
  ExprPtr parseExpr();
  ExprPtr parseComparison();
  ExprPtr parseAdditive();
  ExprPtr parseMultiplicative();
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePowerOperand();
  ExprPtr parseSigned(ExprPtr (Parser::*operand)(), ExprPtr (Parser::*next)());
  ExprPtr parsePostfix();
  ExprPtr parsePrimary();
  ExprPtr parseMatrixLiteral();
  ExprPtr parseCall(const Token &name);

  ExprPtr makeBinary(TokenKind op, llvm::SMLoc opLoc, ExprPtr lhs,
                     ExprPtr rhs);
  bool checkDepth(Expr &e);

  // Tokens.
  const Token &peek() { return tok; }
  Token consume();
  bool consumeIf(TokenKind kind);
  bool expect(TokenKind kind, llvm::StringRef context);
  void skipNewlinesInParens();
  /// In a matrix literal, is `tok` the start of a new element rather than a
  /// binary operator (`[1 -2]`)?
  bool startsNewElement() const;

  bool error(llvm::SMLoc loc, const llvm::Twine &msg);

  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  Lexer lexer;
  Token tok;
  const char *lastEnd = nullptr; // end of the last consumed token
  unsigned parenDepth = 0;       // newlines are insignificant inside (...)
  unsigned bracketDepth = 0;     // inside [...] white space separates
  unsigned nesting = 0;          // recursion guard of expressions
  unsigned loopDepth = 0;        // nesting of `for` loops
  bool failed = false;
};

/// Parses `buffer` registered in `sourceMgr` (convenience wrapper).
std::optional<Program> parseCmm(llvm::SourceMgr &sourceMgr, unsigned bufferId);

} // namespace cmm

#endif // CMM_FRONTEND_PARSER_H
