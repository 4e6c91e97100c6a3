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
  /// Deepest nesting of parentheses, brackets, signs and blocks, and
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
  /// The construct a block belongs to: the keyword that opened it and where
  /// (Eof for the program itself).
  struct Opener {
    TokenKind kind;
    llvm::SMLoc loc;
  };
  /// Statements up to the end of the file (the program) or up to the 'end'
  /// of `opener` (for an 'if', also up to its 'elseif' or 'else').
  bool parseBlock(std::vector<StmtPtr> &stmts, Opener opener);
  StmtPtr parseStatement();
  /// False (with an error) when one more block would nest too deeply.
  bool enterBlock(llvm::SMLoc loc);
  /// `a, b, ... = expr`, at the first name.
  StmtPtr parseSeveralAssign();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  StmtPtr parseIf();
  StmtPtr parseReturn();
  bool parseFunction();
  /// The trip count of an `# expect N` comment after the current token on
  /// its line, else 0.
  int64_t expectedTripsOnLine();

  // Expressions, lowest precedence first.
  ExprPtr parseExpr();
  ExprPtr parseOr();
  ExprPtr parseAnd();
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
  ExprPtr parseIndex(ExprPtr base);
  ExprPtr parseSubscript();

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
  unsigned loopDepth = 0;        // nesting of loops (in this function)
  unsigned blockDepth = 0;       // nesting of for/while/if blocks
  unsigned indexDepth = 0;       // inside A[...], where `end` is a size
  FunctionDef *function = nullptr; // the function being parsed
  std::vector<std::unique_ptr<FunctionDef>> functions;
  bool failed = false;
};

/// Parses `buffer` registered in `sourceMgr` (convenience wrapper).
std::optional<Program> parseCmm(llvm::SourceMgr &sourceMgr, unsigned bufferId);

} // namespace cmm

#endif // CMM_FRONTEND_PARSER_H
