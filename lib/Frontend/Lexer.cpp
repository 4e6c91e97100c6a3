//===- Lexer.cpp - Tokenizer for .cmm programs ------------------*- C++ -*-===//

#include "cmm/Frontend/Lexer.h"

#include "llvm/ADT/StringSwitch.h"

#include <cctype>
#include <charconv>

using namespace cmm;

Lexer::Lexer(llvm::StringRef buffer)
    : cur(buffer.begin()), bufferEnd(buffer.end()) {
  // A UTF-8 byte order mark (what some editors write first) is not part of
  // the program.
  if (buffer.starts_with("\xEF\xBB\xBF"))
    cur += 3;
}

Token Lexer::make(TokenKind kind, const char *start, bool space) {
  Token tok;
  tok.kind = kind;
  tok.text = llvm::StringRef(start, cur - start);
  tok.loc = llvm::SMLoc::getFromPointer(start);
  tok.end = cur;
  tok.spaceBefore = space;
  return tok;
}

static bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
static bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Whether an out-of-range decimal literal is too small rather than too
/// large: the decimal exponent of its first significant digit is negative.
/// (Only the sign matters: a too-large literal has an exponent above 308.)
static bool isUnderflow(llvm::StringRef literal) {
  size_t e = literal.find_first_of("eE");
  llvm::StringRef mantissa = literal.substr(0, e);
  int64_t exponent = 0;
  if (e != llvm::StringRef::npos) {
    llvm::StringRef digits = literal.substr(e + 1);
    bool negative = digits.consume_front("-");
    digits.consume_front("+");
    for (char c : digits) // saturates: 1e-99999999999999999999 is tiny too
      exponent = std::min<int64_t>(exponent * 10 + (c - '0'), INT64_MAX / 20);
    if (negative)
      exponent = -exponent;
  }
  size_t point = mantissa.find('.');
  llvm::StringRef whole = mantissa.substr(0, point).ltrim('0');
  if (!whole.empty())
    return exponent + int64_t(whole.size()) - 1 < 0;
  llvm::StringRef fraction =
      point == llvm::StringRef::npos ? "" : mantissa.substr(point + 1);
  size_t firstDigit = fraction.find_first_not_of('0');
  if (firstDigit == llvm::StringRef::npos)
    return true; // all zeros: cannot be out of range anyway
  return exponent - int64_t(firstDigit) - 1 < 0;
}

Token Lexer::lexNumber(const char *start, bool space) {
  while (cur < bufferEnd && isDigit(*cur))
    ++cur;
  // A '.' belongs to the number unless it starts a dot operator (`2.*A`).
  if (cur < bufferEnd && *cur == '.' &&
      !(cur + 1 < bufferEnd && llvm::StringRef("*/^+-<>=").contains(cur[1]))) {
    ++cur;
    while (cur < bufferEnd && isDigit(*cur))
      ++cur;
  }
  if (cur < bufferEnd && (*cur == 'e' || *cur == 'E')) {
    const char *save = cur;
    ++cur;
    if (cur < bufferEnd && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur < bufferEnd && isDigit(*cur)) {
      while (cur < bufferEnd && isDigit(*cur))
        ++cur;
    } else {
      cur = save; // `2e` is the number 2 followed by the name e
    }
  }
  Token tok = make(TokenKind::Number, start, space);
  double value = 0;
  auto result = std::from_chars(start, cur, value);
  if (result.ec == std::errc::result_out_of_range) {
    // Julia reads an underflowing literal (1e-400) as 0 and rejects overflow.
    if (!isUnderflow(llvm::StringRef(start, cur - start))) {
      tok.kind = TokenKind::Error;
      tok.text = "number out of range (overflows a double)";
      return tok;
    }
    value = 0.0;
    result.ec = std::errc();
  }
  // from_chars does not accept a trailing '.', which "1." may have.
  if (result.ec != std::errc() && result.ptr == start) {
    tok.kind = TokenKind::Error;
    tok.text = "malformed number";
    return tok;
  }
  tok.number = value;
  return tok;
}

Token Lexer::next() {
  bool space = false;
  for (;;) {
    if (cur >= bufferEnd)
      return make(TokenKind::Eof, cur, space);
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++cur;
      space = true;
    } else if (c == '#') {
      while (cur < bufferEnd && *cur != '\n')
        ++cur;
    } else if (c == '.' && cur + 1 < bufferEnd && cur[1] == '.' &&
               cur + 2 < bufferEnd && cur[2] == '.') {
      // `...` continues a statement on the next line (as in MATLAB).
      cur += 3;
      while (cur < bufferEnd && *cur != '\n')
        ++cur;
      if (cur < bufferEnd)
        ++cur;
      space = true;
    } else {
      break;
    }
  }

  const char *start = cur;
  char c = *cur++;
  auto single = [&](TokenKind k) { return make(k, start, space); };
  auto peekIs = [&](char want) {
    if (cur < bufferEnd && *cur == want) {
      ++cur;
      return true;
    }
    return false;
  };

  if (isIdentStart(c)) {
    while (cur < bufferEnd && isIdentChar(*cur))
      ++cur;
    Token tok = make(TokenKind::Identifier, start, space);
    tok.kind = llvm::StringSwitch<TokenKind>(tok.text)
                   .Case("for", TokenKind::KwFor)
                   .Case("in", TokenKind::KwIn)
                   .Case("end", TokenKind::KwEnd)
                   .Case("while", TokenKind::KwWhile)
                   .Case("if", TokenKind::KwIf)
                   .Case("elseif", TokenKind::KwElseif)
                   .Case("else", TokenKind::KwElse)
                   .Case("break", TokenKind::KwBreak)
                   .Case("function", TokenKind::KwFunction)
                   .Case("return", TokenKind::KwReturn)
                   .Default(TokenKind::Identifier);
    return tok;
  }
  if (isDigit(c) || (c == '.' && cur < bufferEnd && isDigit(*cur))) {
    cur = start;
    return lexNumber(start, space);
  }

  switch (c) {
  case '\n':
    return single(TokenKind::Newline);
  case ';':
    return single(TokenKind::Semicolon);
  case '(':
    return single(TokenKind::LParen);
  case ')':
    return single(TokenKind::RParen);
  case '[':
    return single(TokenKind::LBracket);
  case ']':
    return single(TokenKind::RBracket);
  case ',':
    return single(TokenKind::Comma);
  case '\'':
    return single(TokenKind::Quote);
  case '+':
    return single(TokenKind::Plus);
  case '-':
    return single(TokenKind::Minus);
  case '*':
    return single(TokenKind::Star);
  case '/':
    return single(TokenKind::Slash);
  case '\\':
    return single(TokenKind::Backslash);
  case '^':
    return single(TokenKind::Caret);
  case ':':
    return single(TokenKind::Colon);
  case '=':
    return single(peekIs('=') ? TokenKind::EqEq : TokenKind::Assign);
  case '<':
    return single(peekIs('=') ? TokenKind::Le : TokenKind::Lt);
  case '>':
    return single(peekIs('=') ? TokenKind::Ge : TokenKind::Gt);
  case '!':
    return single(peekIs('=') ? TokenKind::NotEq : TokenKind::Bang);
  case '&':
  case '|': {
    if (peekIs(c))
      return single(c == '&' ? TokenKind::AndAnd : TokenKind::OrOr);
    Token tok = single(TokenKind::Error);
    tok.text = c == '&' ? "unknown operator '&': use '&&' (logical and of "
                          "conditions) or '.*' (elementwise)"
                        : "unknown operator '|': use '||' (logical or of "
                          "conditions) or max(A, B) (elementwise)";
    return tok;
  }
  case '"': {
    while (cur < bufferEnd && *cur != '"' && *cur != '\n')
      ++cur;
    if (cur >= bufferEnd || *cur != '"') {
      Token tok = make(TokenKind::Error, start, space);
      tok.text = "unterminated string";
      return tok;
    }
    ++cur;
    Token tok = make(TokenKind::String, start, space);
    tok.text = llvm::StringRef(start + 1, cur - start - 2);
    return tok;
  }
  case '.': {
    if (peekIs('+'))
      return single(TokenKind::DotPlus);
    if (peekIs('-'))
      return single(TokenKind::DotMinus);
    if (peekIs('*'))
      return single(TokenKind::DotStar);
    if (peekIs('/'))
      return single(TokenKind::DotSlash);
    if (peekIs('^'))
      return single(TokenKind::DotCaret);
    if (peekIs('>'))
      return single(peekIs('=') ? TokenKind::DotGe : TokenKind::DotGt);
    if (peekIs('<'))
      return single(peekIs('=') ? TokenKind::DotLe : TokenKind::DotLt);
    if (peekIs('=')) {
      if (peekIs('='))
        return single(TokenKind::DotEq);
      Token tok = single(TokenKind::Error);
      tok.text = "unknown operator '.=' (did you mean '.=='?)";
      return tok;
    }
    break;
  }
  default:
    break;
  }
  Token tok = make(TokenKind::Error, start, space);
  tok.text = "unexpected character";
  return tok;
}

llvm::StringRef cmm::spell(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid token";
  case TokenKind::Newline:
    return "end of line";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Identifier:
    return "a name";
  case TokenKind::Number:
    return "a number";
  case TokenKind::String:
    return "a string";
  case TokenKind::KwFor:
    return "'for'";
  case TokenKind::KwIn:
    return "'in'";
  case TokenKind::KwEnd:
    return "'end'";
  case TokenKind::KwWhile:
    return "'while'";
  case TokenKind::KwIf:
    return "'if'";
  case TokenKind::KwElseif:
    return "'elseif'";
  case TokenKind::KwElse:
    return "'else'";
  case TokenKind::KwBreak:
    return "'break'";
  case TokenKind::KwFunction:
    return "'function'";
  case TokenKind::KwReturn:
    return "'return'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Assign:
    return "'='";
  case TokenKind::Quote:
    return "'''";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Backslash:
    return "'\\'";
  case TokenKind::Caret:
    return "'^'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::DotPlus:
    return "'.+'";
  case TokenKind::DotMinus:
    return "'.-'";
  case TokenKind::DotStar:
    return "'.*'";
  case TokenKind::DotSlash:
    return "'./'";
  case TokenKind::DotCaret:
    return "'.^'";
  case TokenKind::DotGt:
    return "'.>'";
  case TokenKind::DotLt:
    return "'.<'";
  case TokenKind::DotGe:
    return "'.>='";
  case TokenKind::DotLe:
    return "'.<='";
  case TokenKind::DotEq:
    return "'.=='";
  case TokenKind::Lt:
    return "'<'";
  case TokenKind::Gt:
    return "'>'";
  case TokenKind::Le:
    return "'<='";
  case TokenKind::Ge:
    return "'>='";
  case TokenKind::EqEq:
    return "'=='";
  case TokenKind::NotEq:
    return "'!='";
  case TokenKind::Bang:
    return "'!'";
  case TokenKind::AndAnd:
    return "'&&'";
  case TokenKind::OrOr:
    return "'||'";
  }
  return "token";
}
