//===- Lexer.h - Tokenizer for .cmm programs --------------------*- C++ -*-===//
//
// Splits a `.cmm` buffer into tokens. Newlines are tokens (they end
// statements); every token remembers whether white space preceded it, which
// the parser needs inside matrix literals (`[1 -2]` has two elements,
// `[1 - 2]` one).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_FRONTEND_LEXER_H
#define CMM_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace cmm {

enum class TokenKind {
  Eof,
  Error,
  Newline,
  Semicolon,
  Identifier,
  Number,
  String,
  KwFor,
  KwIn,
  KwEnd,
  KwWhile,
  KwIf,
  KwElseif,
  KwElse,
  KwBreak,
  KwFunction,
  KwReturn,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Assign,    // =
  Quote,     // ' (postfix transpose)
  Plus,      // +
  Minus,     // -
  Star,      // *
  Slash,     // /
  Backslash, // '\'
  Caret,     // ^
  Colon,     // :
  DotPlus,   // .+
  DotMinus,  // .-
  DotStar,   // .*
  DotSlash,  // ./
  DotCaret,  // .^
  DotGt,     // .>
  DotLt,     // .<
  DotGe,     // .>=
  DotLe,     // .<=
  DotEq,     // .==
  Lt,        // <  (scalar comparisons and logic: conditions)
  Gt,        // >
  Le,        // <=
  Ge,        // >=
  EqEq,      // ==
  NotEq,     // !=
  Bang,      // !
  AndAnd,    // &&
  OrOr,      // ||
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text;    // the spelling (string contents without quotes)
  llvm::SMLoc loc;         // first character
  const char *end = nullptr; // one past the last character in the buffer
  bool spaceBefore = false;  // white space (not a newline) directly before
  double number = 0.0;       // value of a Number token

  bool is(TokenKind k) const { return kind == k; }
  /// True if the character right after the token is white space.
  bool spaceAfter() const { return *end == ' ' || *end == '\t'; }
};

/// A printable name for a token kind, for diagnostics ("expected ')'").
llvm::StringRef spell(TokenKind kind);

class Lexer {
public:
  /// `buffer` must be NUL-terminated (as llvm::MemoryBuffer guarantees).
  explicit Lexer(llvm::StringRef buffer);

  Token next();

private:
  Token make(TokenKind kind, const char *start, bool space);
  Token lexNumber(const char *start, bool space);

  const char *cur;
  const char *bufferEnd;
};

} // namespace cmm

#endif // CMM_FRONTEND_LEXER_H
