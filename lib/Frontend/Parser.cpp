//===- Parser.cpp - Recursive-descent parser for .cmm -----------*- C++ -*-===//
//
// Grammar (lowest precedence first), see docs/language.md:
//   expr     := or [':' or]
//   or       := and {'||' and}
//   and      := cmp {'&&' cmp}
//   cmp      := add {('<'|'>'|'<='|'>='|'=='|'!='|'.>'|'.<'|'.>='|'.<='|'.==')
//                    add}
//   add      := mul {('+'|'-'|'.+'|'.-') mul}
//   mul      := unary {('*'|'/'|'.*'|'./'|'\') unary}
//   unary    := ('-'|'+'|'!') unary | power
//   power    := postfix [('^'|'.^') powarg]        (right-associative)
//   powarg   := ('-'|'+') powarg | power
//   postfix  := primary {''' | '[' sub [',' sub] ']'}
//   sub      := ':' | expr                          (`end` is a size here)
//   primary  := number | name | name '(' args ')' | string | '(' expr ')'
//             | '[' row {';' row} ']' | 'end'
//   stmt     := name '=' expr | postfix '=' expr | expr | 'break'
//             | 'for' name 'in' expr block 'end' | 'while' expr block 'end'
//             | 'if' expr block {'elseif' expr block} ['else' block] 'end'
//             | 'return' [expr]
//   function := 'function' name '(' [name {',' name}] ')' block 'end'
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
  if (!parseBlock(program.stmts, {TokenKind::Eof, tok.loc}))
    return std::nullopt;
  program.functions = std::move(functions);
  return program;
}

/// The construct a keyword opens, as errors name it ("the 'while' loop").
static std::string openerName(TokenKind kind) {
  switch (kind) {
  case TokenKind::KwFor:
    return "the 'for' loop";
  case TokenKind::KwWhile:
    return "the 'while' loop";
  case TokenKind::KwIf:
    return "the 'if'";
  case TokenKind::KwFunction:
    return "the function";
  default:
    return "the block";
  }
}

bool Parser::parseBlock(std::vector<StmtPtr> &stmts, Opener opener) {
  const bool topLevel = opener.kind == TokenKind::Eof;
  const bool inIf = opener.kind == TokenKind::KwIf;
  auto endsBlock = [&] {
    return (!topLevel && tok.is(TokenKind::KwEnd)) ||
           (inIf && (tok.is(TokenKind::KwElseif) || tok.is(TokenKind::KwElse)));
  };
  for (;;) {
    while (tok.is(TokenKind::Newline) || tok.is(TokenKind::Semicolon))
      consume();
    if (tok.is(TokenKind::Eof)) {
      if (!topLevel)
        return error(
            tok.loc,
            "expected 'end' to close " + openerName(opener.kind) + " at line " +
                llvm::Twine(sourceMgr.getLineAndColumn(opener.loc).first) +
                ", got end of file");
      return true;
    }
    if (endsBlock())
      return true;
    if (tok.is(TokenKind::KwEnd))
      return error(tok.loc, "'end' without a matching 'for', 'while', 'if' "
                            "or 'function'");
    if (tok.is(TokenKind::KwElseif) || tok.is(TokenKind::KwElse))
      return error(tok.loc, spell(tok.kind) + " without a matching 'if'");
    if (tok.is(TokenKind::KwFunction)) {
      if (!topLevel || function)
        return error(tok.loc, "a function can only be defined at the top "
                              "level of the program");
      if (!parseFunction())
        return false;
    } else {
      StmtPtr stmt = parseStatement();
      if (!stmt)
        return false;
      stmts.push_back(std::move(stmt));
    }
    if (tok.is(TokenKind::Newline) || tok.is(TokenKind::Semicolon) ||
        tok.is(TokenKind::Eof) || endsBlock())
      continue;
    if (tok.is(TokenKind::Error))
      return error(tok.loc, tok.text);
    return error(tok.loc, "expected end of statement, got " + spell(tok.kind));
  }
}

StmtPtr Parser::parseStatement() {
  switch (tok.kind) {
  case TokenKind::KwFor:
    return parseFor();
  case TokenKind::KwWhile:
    return parseWhile();
  case TokenKind::KwIf:
    return parseIf();
  case TokenKind::KwReturn:
    return parseReturn();
  case TokenKind::KwBreak: {
    Token t = consume();
    if (loopDepth == 0) {
      error(t.loc, "'break' outside a 'for' or 'while' loop");
      return nullptr;
    }
    return std::make_unique<BreakStmt>(t.loc);
  }
  default:
    break;
  }
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
      return std::make_unique<AssignStmt>(
          loc, std::vector<std::string>{nameTok.text.str()}, std::move(value));
    }
    // `a, b = f(...)`: no expression statement starts with `name,`.
    if (after.is(TokenKind::Comma))
      return parseSeveralAssign();
  }
  ExprPtr expr = parseExpr();
  if (!expr)
    return nullptr;
  if (tok.is(TokenKind::Assign)) {
    // `A[rows, cols] = B`: only a name or a block of a name is assigned.
    auto *index = llvm::dyn_cast<IndexExpr>(expr.get());
    if (!index || !llvm::isa<NameExpr>(index->getBase())) {
      error(tok.loc, "only a name or a block of a name (A[i, j] = ...) can "
                     "be assigned");
      return nullptr;
    }
    consume(); // =
    ExprPtr value = parseExpr();
    if (!value)
      return nullptr;
    std::unique_ptr<IndexExpr> target(static_cast<IndexExpr *>(expr.release()));
    return std::make_unique<IndexAssignStmt>(loc, std::move(target),
                                             std::move(value));
  }
  return std::make_unique<ExprStmt>(loc, std::move(expr));
}

StmtPtr Parser::parseSeveralAssign() {
  SMLoc loc = tok.loc;
  std::vector<std::string> names;
  do {
    if (!tok.is(TokenKind::Identifier)) {
      error(tok.loc, "expected a name to assign, got " + spell(tok.kind));
      return nullptr;
    }
    names.push_back(consume().text.str());
  } while (consumeIf(TokenKind::Comma));
  if (!consumeIf(TokenKind::Assign)) {
    error(tok.loc, "expected '=' after the names 'a, b' of an assignment of "
                   "several results, got " +
                       spell(tok.kind));
    return nullptr;
  }
  ExprPtr value = parseExpr();
  if (!value)
    return nullptr;
  return std::make_unique<AssignStmt>(loc, std::move(names), std::move(value));
}

bool Parser::enterBlock(SMLoc loc) {
  if (blockDepth < kMaxNesting)
    return true;
  return error(loc, "blocks are nested too deeply (more than " +
                        llvm::Twine(kMaxNesting) + " levels)");
}

StmtPtr Parser::parseFor() {
  SMLoc loc = tok.loc;
  if (!enterBlock(loc))
    return nullptr;
  NestingGuard block(blockDepth);
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
  NestingGuard loop(loopDepth);
  if (!parseBlock(body, {TokenKind::KwFor, loc}))
    return nullptr;
  consume(); // end
  return std::make_unique<ForStmt>(loc, var.text, std::move(range),
                                   std::move(body));
}

int64_t Parser::expectedTripsOnLine() {
  // The rest of the line after the condition: `while c  # expect 50`.
  llvm::StringRef buffer = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  llvm::StringRef rest(lastEnd, buffer.end() - lastEnd);
  rest = rest.take_until([](char c) { return c == '\n'; });
  size_t hash = rest.find('#');
  if (hash == llvm::StringRef::npos)
    return 0;
  llvm::StringRef comment = rest.substr(hash + 1).trim();
  if (!comment.consume_front("expect"))
    return 0;
  comment = comment.ltrim();
  unsigned long long trips = 0;
  if (llvm::consumeUnsignedInteger(comment, 10, trips) || trips < 1 ||
      trips > 1'000'000'000)
    return 0;
  return static_cast<int64_t>(trips);
}

StmtPtr Parser::parseWhile() {
  SMLoc loc = tok.loc;
  if (!enterBlock(loc))
    return nullptr;
  NestingGuard block(blockDepth);
  consume(); // while
  ExprPtr condition = parseExpr();
  if (!condition)
    return nullptr;
  int64_t expected = expectedTripsOnLine();
  std::vector<StmtPtr> body;
  NestingGuard loop(loopDepth);
  if (!parseBlock(body, {TokenKind::KwWhile, loc}))
    return nullptr;
  consume(); // end
  return std::make_unique<WhileStmt>(loc, std::move(condition), std::move(body),
                                     expected);
}

StmtPtr Parser::parseIf() {
  SMLoc loc = tok.loc;
  if (!enterBlock(loc))
    return nullptr;
  NestingGuard block(blockDepth);
  std::vector<IfStmt::Clause> clauses;
  std::vector<StmtPtr> elseBody;
  SMLoc elseLoc;
  consume(); // if
  for (;;) {
    IfStmt::Clause clause;
    clause.condition = parseExpr();
    if (!clause.condition)
      return nullptr;
    if (!parseBlock(clause.body, {TokenKind::KwIf, loc}))
      return nullptr;
    clauses.push_back(std::move(clause));
    if (tok.is(TokenKind::KwElseif)) {
      consume();
      continue;
    }
    if (tok.is(TokenKind::KwElse)) {
      elseLoc = consume().loc;
      if (!parseBlock(elseBody, {TokenKind::KwIf, loc}))
        return nullptr;
      if (!tok.is(TokenKind::KwEnd)) {
        error(tok.loc, spell(tok.kind) +
                           " after the 'else' of the 'if' at line " +
                           llvm::Twine(sourceMgr.getLineAndColumn(loc).first) +
                           "; expected 'end'");
        return nullptr;
      }
    }
    break;
  }
  consume(); // end
  return std::make_unique<IfStmt>(loc, std::move(clauses), std::move(elseBody),
                                  elseLoc);
}

StmtPtr Parser::parseReturn() {
  Token t = consume(); // return
  if (!function) {
    error(t.loc, "'return' outside a function");
    return nullptr;
  }
  ExprPtr value;
  if (!tok.is(TokenKind::Newline) && !tok.is(TokenKind::Semicolon) &&
      !tok.is(TokenKind::Eof) && !tok.is(TokenKind::KwEnd) &&
      !tok.is(TokenKind::KwElse) && !tok.is(TokenKind::KwElseif)) {
    value = parseExpr();
    if (!value)
      return nullptr;
    function->returnsValue = true;
  }
  return std::make_unique<ReturnStmt>(t.loc, std::move(value));
}

bool Parser::parseFunction() {
  auto def = std::make_unique<FunctionDef>();
  def->loc = consume().loc; // function
  if (!tok.is(TokenKind::Identifier))
    return error(tok.loc,
                 "expected the function's name after 'function', got " +
                     spell(tok.kind));
  Token name = consume();
  def->name = name.text.str();
  def->nameLoc = name.loc;
  if (!tok.is(TokenKind::LParen))
    return error(tok.loc, "expected '(' after the function name '" + name.text +
                              "', got " + spell(tok.kind));
  ++parenDepth;
  consume(); // (
  auto fail = [&](SMLoc loc, const llvm::Twine &msg) {
    --parenDepth;
    return error(loc, msg);
  };
  if (!tok.is(TokenKind::RParen)) {
    for (;;) {
      if (!tok.is(TokenKind::Identifier))
        return fail(tok.loc, "expected a parameter name in the definition "
                             "of '" +
                                 name.text + "', got " + spell(tok.kind));
      Token param = consume();
      for (const auto &other : def->params)
        if (other.first == param.text)
          return fail(param.loc, "parameter '" + param.text +
                                     "' appears twice in the definition of '" +
                                     name.text + "'");
      def->params.push_back({param.text.str(), param.loc});
      if (!consumeIf(TokenKind::Comma))
        break;
    }
  }
  if (!tok.is(TokenKind::RParen))
    return fail(tok.loc, "expected ',' or ')' in the parameters of '" +
                             name.text + "', got " + spell(tok.kind));
  --parenDepth;
  consume(); // )
  function = def.get();
  unsigned outerLoops = loopDepth;
  loopDepth = 0; // a 'break' must be in a loop of the body itself
  bool ok = parseBlock(def->body, {TokenKind::KwFunction, def->loc});
  loopDepth = outerLoops;
  function = nullptr;
  if (!ok)
    return false;
  consume(); // end
  functions.push_back(std::move(def));
  return true;
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
  ExprPtr lo = parseOr();
  if (!lo || !tok.is(TokenKind::Colon))
    return lo;
  SMLoc colon = consume().loc;
  ExprPtr hi = parseOr();
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
         k == TokenKind::DotEq || k == TokenKind::Lt || k == TokenKind::Gt ||
         k == TokenKind::Le || k == TokenKind::Ge || k == TokenKind::EqEq ||
         k == TokenKind::NotEq;
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

ExprPtr Parser::parseOr() {
  ExprPtr lhs = parseAnd();
  while (lhs && tok.is(TokenKind::OrOr)) {
    Token op = consume();
    ExprPtr rhs = parseAnd();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.kind, op.loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseAnd() {
  ExprPtr lhs = parseComparison();
  while (lhs && tok.is(TokenKind::AndAnd)) {
    Token op = consume();
    ExprPtr rhs = parseComparison();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op.kind, op.loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
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

/// `('-'|'+'|'!') operand` with the sign (or negation) applied, else `next`;
/// shared by unary expressions and power exponents (`A .^ -1`).
ExprPtr Parser::parseSigned(ExprPtr (Parser::*operand)(),
                            ExprPtr (Parser::*next)()) {
  NestingGuard guard(nesting);
  if (nesting > kMaxNesting) {
    error(tok.loc, "expression is nested too deeply (more than " +
                       llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  if (!tok.is(TokenKind::Minus) && !tok.is(TokenKind::Plus) &&
      !tok.is(TokenKind::Bang))
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
  for (;;) {
    if (!e)
      return nullptr;
    // `A[i, j]`; inside a matrix literal `[A [1]]` is two elements.
    if (tok.is(TokenKind::LBracket) &&
        !(tok.spaceBefore && bracketDepth > 0 && parenDepth == 0)) {
      e = parseIndex(std::move(e));
      continue;
    }
    if (!tok.is(TokenKind::Quote) || tok.spaceBefore)
      break;
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
    if (indexDepth > 0) {
      Token t = consume();
      return std::make_unique<EndExpr>(
          SMRange(t.loc, SMLoc::getFromPointer(t.end)));
    }
    [[fallthrough]];
  case TokenKind::KwFor:
  case TokenKind::KwIn:
  case TokenKind::KwWhile:
  case TokenKind::KwIf:
  case TokenKind::KwElseif:
  case TokenKind::KwElse:
  case TokenKind::KwBreak:
  case TokenKind::KwFunction:
  case TokenKind::KwReturn:
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

ExprPtr Parser::parseSubscript() {
  // A lone ':' is the whole dimension.
  if (tok.is(TokenKind::Colon)) {
    Lexer saved = lexer;
    Token after = lexer.next();
    lexer = saved;
    if (after.is(TokenKind::Comma) || after.is(TokenKind::RBracket)) {
      Token colon = consume();
      return std::make_unique<ColonExpr>(
          SMRange(colon.loc, SMLoc::getFromPointer(colon.end)));
    }
  }
  return parseExpr();
}

ExprPtr Parser::parseIndex(ExprPtr base) {
  NestingGuard guard(nesting);
  if (nesting > kMaxNesting) {
    error(tok.loc, "expression is nested too deeply (more than " +
                       llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  SMLoc open = consume().loc; // [
  // Inside the brackets white space separates nothing and newlines are
  // insignificant, as inside parentheses; `end` is a dimension's size.
  unsigned savedBracket = bracketDepth;
  bracketDepth = 0;
  ++parenDepth;
  ++indexDepth;
  skipNewlinesInParens();
  auto restore = [&] {
    bracketDepth = savedBracket;
    --parenDepth;
    --indexDepth;
  };
  std::vector<ExprPtr> subscripts;
  unsigned depth = base->getDepth();
  for (;;) {
    ExprPtr sub = parseSubscript();
    if (!sub) {
      restore();
      return nullptr;
    }
    depth = std::max(depth, sub->getDepth());
    subscripts.push_back(std::move(sub));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  restore();
  if (!tok.is(TokenKind::RBracket)) {
    if (tok.is(TokenKind::Error))
      error(tok.loc, tok.text);
    else
      error(tok.loc, "expected ',' or ']' to close the index at line " +
                         llvm::Twine(sourceMgr.getLineAndColumn(open).first) +
                         ", got " + spell(tok.kind));
    return nullptr;
  }
  if (subscripts.size() > 2) {
    error(subscripts[2]->getLoc(),
          "a matrix takes one or two subscripts (A[i, j]), not " +
              llvm::Twine(subscripts.size()));
    return nullptr;
  }
  Token close = consume();
  SMRange range(base->getRange().Start, SMLoc::getFromPointer(close.end));
  ExprPtr e = std::make_unique<IndexExpr>(range, std::move(base),
                                          std::move(subscripts));
  e->setLoc(open);
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
    ExprPtr element = parseOr();
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
