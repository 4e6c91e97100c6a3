//===- Diagnostic.cpp - Front-end error messages ----------------*- C++ -*-===//

#include "cmm/Frontend/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

void cmm::printSourceMessage(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                             llvm::SourceMgr::DiagKind kind,
                             const llvm::Twine &message) {
  llvm::SMDiagnostic diag = sourceMgr.GetMessage(loc, kind, message);
  llvm::StringRef line = diag.getLineContents();
  bool ascii = llvm::all_of(
      line, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (ascii || diag.getLineNo() < 1 || diag.getColumnNo() < 0) {
    sourceMgr.PrintMessage(llvm::errs(), diag);
    return;
  }
  // SourceMgr prints no caret under a line with multi-byte characters (its
  // columns are bytes). Count characters instead: UTF-8 continuation bytes
  // take no column; tabs stay tabs so the caret lines up with the line as
  // the terminal shows it.
  llvm::raw_ostream &os = llvm::errs();
  bool colors = os.has_colors();
  llvm::ColorMode mode =
      colors ? llvm::ColorMode::Enable : llvm::ColorMode::Disable;
  {
    llvm::WithColor bold(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true,
                         /*BG=*/false, mode);
    bold << diag.getFilename() << ':' << diag.getLineNo() << ':'
         << diag.getColumnNo() + 1 << ": ";
  }
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    llvm::WithColor::error(os, "", !colors);
    break;
  case llvm::SourceMgr::DK_Warning:
    llvm::WithColor::warning(os, "", !colors);
    break;
  case llvm::SourceMgr::DK_Note:
    llvm::WithColor::note(os, "", !colors);
    break;
  case llvm::SourceMgr::DK_Remark:
    llvm::WithColor::remark(os, "", !colors);
    break;
  }
  llvm::WithColor(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true,
                  /*BG=*/false, mode)
      << diag.getMessage() << '\n';
  std::string caret;
  for (char c : line.take_front(diag.getColumnNo())) {
    unsigned char byte = static_cast<unsigned char>(c);
    if (c == '\t')
      caret += '\t';
    else if ((byte & 0xC0) != 0x80)
      caret += ' ';
  }
  os << line << '\n' << caret;
  llvm::WithColor(os, llvm::raw_ostream::GREEN, /*Bold=*/true,
                  /*BG=*/false, mode)
      << "^";
  os << '\n';
}
