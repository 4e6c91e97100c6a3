//===- Parser.cpp - Recursive-descent parser for .cmm -----------*- C++ -*-===//
//
// Grammar (lowest precedence first), see docs/language.md:
//   expr     := cmp [':' cmp]
//   cmp      := add {('.>'|'.<'|'.>='|'.<='|'.==') add}
//   add      := mul {('+'|'-'|'.+'|'.-') mul}
//   mul      := unary {('*'|'/'|'.*'|'./'|'\') unary}
//   unary    := ('-'|'+') unary | power
//   power    := postfix [('^'|'.^') powarg]        (right-associative)
//   powarg   := ('-'|'+') powarg | power
//   postfix  := primary {'''}
//   primary  := number | name | name '(' args ')' | string | '(' expr ')'
//             | '[' row {';' row} ']'
//
//===----------------------------------------------------------------------===//

#include "cmm/Frontend/Parser.h"
#include "cmm/Frontend/Diagnostic.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

using namespace cmm;
using llvm::SMLoc;
using llvm::SMRange;

namespace {
/// Counts recursion depth for the lifetime of a parse function.
struct NestingGuard {
  unsigned &n;
  explicit NestingGuard(unsigned &n) : n(n) { ++n; }
  ~NestingGuard() { --n; }
};
} // namespace

Parser::Parser(llvm::SourceMgr &sourceMgr, unsigned bufferId)
    : sourceMgr(sourceMgr), bufferId(bufferId),
      lexer(sourceMgr.getMemoryBuffer(bufferId)->getBuffer()) {
  tok = lexer.next();
}

std::optional<Program> cmm::parseCmm(llvm::SourceMgr &sourceMgr,
                                     unsigned bufferId) {
  return Parser(sourceMgr, bufferId).parseProgram();
}

bool Parser::error(SMLoc loc, const llvm::Twine &msg) {
  // An error at the end of the file (a missing ')' or 'end') points just
  // after the last character of the program, not at an empty line below it.
  llvm::StringRef buffer = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  if (loc.getPointer() == buffer.end()) {
    llvm::StringRef text = buffer.rtrim(" \t\r\n");
    if (!text.empty())
      loc = SMLoc::getFromPointer(text.end());
  }
  if (!failed)
    printSourceMessage(sourceMgr, loc, llvm::SourceMgr::DK_Error, msg);
  failed = true;
  return false;
}

Token Parser::consume() {
  Token t = tok;
  lastEnd = t.end;
  tok = lexer.next();
  skipNewlinesInParens();
  return t;
}

void Parser::skipNewlinesInParens() {
  if (parenDepth > 0 && bracketDepth == 0)
    while (tok.is(TokenKind::Newline))
      tok = lexer.next();
}

bool Parser::consumeIf(TokenKind kind) {
  if (!tok.is(kind))
    return false;
  consume();
  return true;
}

bool Parser::expect(TokenKind kind, llvm::StringRef context) {
  if (tok.is(TokenKind::Error))
    return error(tok.loc, tok.text);
  if (consumeIf(kind))
    return true;
  return error(tok.loc, "expected " + spell(kind) + " " + context + ", got " +
                            spell(tok.kind));
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

std::optional<Program> Parser::parseProgram() {
  Program program;
  program.filename =
      sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier().str();
  if (!parseBlock(program.stmts, /*loop=*/std::nullopt))
    return std::nullopt;
  return program;
}

bool Parser::parseBlock(std::vector<StmtPtr> &stmts,
                        std::optional<SMLoc> loop) {
  const bool inLoop = loop.has_value();
  for (;;) {
    while (tok.is(TokenKind::Newline) || tok.is(TokenKind::Semicolon))
      consume();
    if (tok.is(TokenKind::Eof)) {
      if (inLoop)
        return error(tok.loc,
                     "expected 'end' to close the 'for' loop at line " +
                         llvm::Twine(sourceMgr.getLineAndColumn(*loop).first) +
                         ", got end of file");
      return true;
    }
    if (tok.is(TokenKind::KwEnd)) {
      if (inLoop)
        return true;
      return error(tok.loc, "'end' without a matching 'for'");
    }
    StmtPtr stmt = parseStatement();
    if (!stmt)
      return false;
    stmts.push_back(std::move(stmt));
    if (tok.is(TokenKind::Newline) || tok.is(TokenKind::Semicolon) ||
        tok.is(TokenKind::Eof) || (inLoop && tok.is(TokenKind::KwEnd)))
      continue;
    if (tok.is(TokenKind::Error))
      return error(tok.loc, tok.text);
    return error(tok.loc, "expected end of statement, got " + spell(tok.kind));
  }
}

StmtPtr Parser::parseStatement() {
  if (tok.is(TokenKind::KwFor))
    return parseFor();
  SMLoc loc = tok.loc;
  if (tok.is(TokenKind::Identifier)) {
    // Look ahead for `name =` without consuming: the lexer state is cheap to
    // copy.
    Lexer saved = lexer;
    Token nameTok = tok;
    Token after = lexer.next();
    lexer = saved;
    if (after.is(TokenKind::Assign)) {
      consume(); // name
      consume(); // =
      ExprPtr value = parseExpr();
      if (!value)
        return nullptr;
      return std::make_unique<AssignStmt>(loc, nameTok.text, std::move(value));
    }
  }
  ExprPtr expr = parseExpr();
  if (!expr)
    return nullptr;
  return std::make_unique<ExprStmt>(loc, std::move(expr));
}

StmtPtr Parser::parseFor() {
  NestingGuard guard(loopDepth);
  SMLoc loc = tok.loc;
  if (loopDepth > kMaxNesting) {
    error(loc, "'for' loops are nested too deeply (more than " +
                   llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  consume(); // for
  if (!tok.is(TokenKind::Identifier)) {
    error(tok.loc, "expected a loop variable name after 'for'");
    return nullptr;
  }
  Token var = consume();
  if (!consumeIf(TokenKind::KwIn) && !consumeIf(TokenKind::Assign)) {
    error(tok.loc, "expected 'in' after the loop variable");
    return nullptr;
  }
  ExprPtr range = parseExpr();
  if (!range)
    return nullptr;
  std::vector<StmtPtr> body;
  if (!parseBlock(body, /*loop=*/loc))
    return nullptr;
  consume(); // end
  return std::make_unique<ForStmt>(loc, var.text, std::move(range),
                                   std::move(body));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool Parser::checkDepth(Expr &e) {
  if (e.getDepth() <= kMaxExprDepth)
    return true;
  return error(e.getLoc(), "expression is nested too deeply (more than " +
                               llvm::Twine(kMaxExprDepth) + " levels)");
}

ExprPtr Parser::makeBinary(TokenKind op, SMLoc opLoc, ExprPtr lhs,
                           ExprPtr rhs) {
  SMRange range(lhs->getRange().Start, rhs->getRange().End);
  unsigned depth = 1 + std::max(lhs->getDepth(), rhs->getDepth());
  ExprPtr e =
      std::make_unique<BinaryExpr>(range, op, std::move(lhs), std::move(rhs));
  e->setLoc(opLoc);
  e->setDepth(depth);
  if (!checkDepth(*e))
    return nullptr;
  return e;
}

ExprPtr Parser::parseExpr() {
  ExprPtr lo = parseComparison();
  if (!lo || !tok.is(TokenKind::Colon))
    return lo;
  SMLoc colon = consume().loc;
  ExprPtr hi = parseComparison();
  if (!hi)
    return nullptr;
  SMRange range(lo->getRange().Start, hi->getRange().End);
  unsigned depth = 1 + std::max(lo->getDepth(), hi->getDepth());
  ExprPtr e = std::make_unique<RangeExpr>(range, std::move(lo), std::move(hi));
  e->setLoc(colon);
  e->setDepth(depth);
  if (tok.is(TokenKind::Colon)) {
    error(tok.loc, "ranges with a step (a:s:b) are not supported");
    return nullptr;
  }
  return checkDepth(*e) ? std::move(e) : nullptr;
}

static bool isComparison(TokenKind k) {
  return k == TokenKind::DotGt || k == TokenKind::DotLt ||
         k == TokenKind::DotGe || k == TokenKind::DotLe ||
         k == TokenKind::DotEq;
}
static bool isAdditive(TokenKind k) {
  return k == TokenKind::Plus || k == TokenKind::Minus ||
         k == TokenKind::DotPlus || k == TokenKind::DotMinus;
}
static bool isMultiplicative(TokenKind k) {
  return k == TokenKind::Star || k == TokenKind::Slash ||
         k == TokenKind::DotStar || k == TokenKind::DotSlash ||
         k == TokenKind::Backslash;
}

bool Parser::startsNewElement() const {
  // Inside [...], `1 -2` is two elements but `1 - 2` and `1-2` are one.
  return bracketDepth > 0 && parenDepth == 0 && tok.spaceBefore &&
         !tok.spaceAfter() &&
         (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus));
}

ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseAdditive();
  while (lhs && isComparison(tok.kind)) {
    Token op = consume();
    ExprPtr rhs = parseAdditive();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.kind, op.loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseAdditive() {
  ExprPtr lhs = parseMultiplicative();
  while (lhs && isAdditive(tok.kind) && !startsNewElement()) {
    Token op = consume();
    ExprPtr rhs = parseMultiplicative();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.kind, op.loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseMultiplicative() {
  ExprPtr lhs = parseUnary();
  while (lhs && isMultiplicative(tok.kind)) {
    Token op = consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.kind, op.loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

/// `('-'|'+') operand` with the sign applied, else `next`; shared by unary
/// expressions and power exponents (`A .^ -1`).
ExprPtr Parser::parseSigned(ExprPtr (Parser::*operand)(),
                            ExprPtr (Parser::*next)()) {
  NestingGuard guard(nesting);
  if (nesting > kMaxNesting) {
    error(tok.loc, "expression is nested too deeply (more than " +
                       llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  if (!tok.is(TokenKind::Minus) && !tok.is(TokenKind::Plus))
    return (this->*next)();
  Token op = consume();
  ExprPtr inner = (this->*operand)();
  if (!inner)
    return nullptr;
  SMRange range(op.loc, inner->getRange().End);
  unsigned depth = inner->getDepth() + 1;
  ExprPtr e = std::make_unique<UnaryExpr>(range, op.kind, std::move(inner));
  e->setLoc(op.loc);
  e->setDepth(depth);
  return checkDepth(*e) ? std::move(e) : nullptr;
}

ExprPtr Parser::parseUnary() {
  return parseSigned(&Parser::parseUnary, &Parser::parsePower);
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePostfix();
  if (!base || !(tok.is(TokenKind::Caret) || tok.is(TokenKind::DotCaret)))
    return base;
  Token op = consume();
  ExprPtr exponent = parsePowerOperand();
  if (!exponent)
    return nullptr;
  return makeBinary(op.kind, op.loc, std::move(base), std::move(exponent));
}

ExprPtr Parser::parsePowerOperand() {
  return parseSigned(&Parser::parsePowerOperand, &Parser::parsePower);
}

ExprPtr Parser::parsePostfix() {
  ExprPtr e = parsePrimary();
  while (e && tok.is(TokenKind::Quote) && !tok.spaceBefore) {
    Token quote = consume();
    SMRange range(e->getRange().Start, SMLoc::getFromPointer(quote.end));
    unsigned depth = e->getDepth() + 1;
    e = std::make_unique<TransposeExpr>(range, std::move(e));
    e->setLoc(quote.loc);
    e->setDepth(depth);
    if (!checkDepth(*e))
      return nullptr;
  }
  return e;
}

ExprPtr Parser::parsePrimary() {
  switch (tok.kind) {
  case TokenKind::Number: {
    Token t = consume();
    return std::make_unique<NumberExpr>(
        SMRange(t.loc, SMLoc::getFromPointer(t.end)), t.number);
  }
  case TokenKind::String: {
    Token t = consume();
    return std::make_unique<StringExpr>(
        SMRange(t.loc, SMLoc::getFromPointer(t.end)), t.text);
  }
  case TokenKind::Identifier: {
    Token t = consume();
    // Inside [...], `f (x)` is two elements; a call needs `f(`.
    if (tok.is(TokenKind::LParen) && !(bracketDepth > 0 && tok.spaceBefore))
      return parseCall(t);
    return std::make_unique<NameExpr>(
        SMRange(t.loc, SMLoc::getFromPointer(t.end)), t.text);
  }
  case TokenKind::LParen: {
    SMLoc open = tok.loc;
    ++parenDepth;
    consume();
    ExprPtr inner = parseExpr();
    if (!inner) {
      --parenDepth;
      return nullptr;
    }
    --parenDepth;
    if (!tok.is(TokenKind::RParen)) {
      if (tok.is(TokenKind::Error))
        error(tok.loc, tok.text);
      else
        error(tok.loc, "expected ')' to close the '(' at line " +
                           llvm::Twine(sourceMgr.getLineAndColumn(open).first) +
                           ", got " + spell(tok.kind));
      return nullptr;
    }
    Token close = consume();
    // The parentheses belong to the expression's text (print labels).
    inner->setRange(SMRange(open, SMLoc::getFromPointer(close.end)));
    return inner;
  }
  case TokenKind::LBracket:
    return parseMatrixLiteral();
  case TokenKind::Error:
    error(tok.loc, tok.text);
    return nullptr;
  case TokenKind::KwEnd:
  case TokenKind::KwFor:
  case TokenKind::KwIn:
    error(tok.loc, "unexpected keyword " + spell(tok.kind) +
                       " in an expression");
    return nullptr;
  default:
    error(tok.loc, "expected an expression, got " + spell(tok.kind));
    return nullptr;
  }
}

ExprPtr Parser::parseCall(const Token &name) {
  NestingGuard guard(nesting);
  ++parenDepth;
  consume(); // (
  std::vector<ExprPtr> args;
  unsigned depth = 0;
  if (!tok.is(TokenKind::RParen)) {
    for (;;) {
      ExprPtr arg = parseExpr();
      if (!arg) {
        --parenDepth;
        return nullptr;
      }
      depth = std::max(depth, arg->getDepth());
      args.push_back(std::move(arg));
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  --parenDepth;
  if (!tok.is(TokenKind::RParen)) {
    if (tok.is(TokenKind::Error))
      error(tok.loc, tok.text);
    else
      error(tok.loc, "expected ',' or ')' in the arguments of '" + name.text +
                         "', got " + spell(tok.kind));
    return nullptr;
  }
  Token close = consume();
  ExprPtr e = std::make_unique<CallExpr>(
      SMRange(name.loc, SMLoc::getFromPointer(close.end)), name.text,
      std::move(args));
  e->setDepth(depth + 1);
  return checkDepth(*e) ? std::move(e) : nullptr;
}

ExprPtr Parser::parseMatrixLiteral() {
  NestingGuard guard(nesting);
  Token open = consume(); // [
  ++bracketDepth;
  unsigned savedParen = parenDepth;
  parenDepth = 0; // white space is significant again inside [...]
  auto restore = [&] {
    --bracketDepth;
    parenDepth = savedParen;
  };
  std::vector<std::vector<ExprPtr>> rows(1);
  unsigned depth = 0;
  while (!tok.is(TokenKind::RBracket)) {
    if (tok.is(TokenKind::Newline) || tok.is(TokenKind::Eof)) {
      error(tok.loc, "expected ']': a matrix literal must be on one line");
      restore();
      return nullptr;
    }
    if (tok.is(TokenKind::Semicolon)) {
      consume();
      rows.emplace_back();
      continue;
    }
    if (tok.is(TokenKind::Comma) && !rows.back().empty()) {
      consume();
      continue;
    }
    ExprPtr element = parseComparison();
    if (!element) {
      restore();
      return nullptr;
    }
    depth = std::max(depth, element->getDepth());
    rows.back().push_back(std::move(element));
  }
  restore();
  Token close = consume(); // ]
  ExprPtr e = std::make_unique<MatrixExpr>(
      SMRange(open.loc, SMLoc::getFromPointer(close.end)), std::move(rows));
  e->setDepth(depth + 1);
  return checkDepth(*e) ? std::move(e) : nullptr;
}
