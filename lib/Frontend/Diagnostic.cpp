//===- Diagnostic.cpp - Front-end error messages ----------------*- C++ -*-===//

#include "cmm/Frontend/Diagnostic.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
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

static std::optional<llvm::SourceMgr::DiagKind>
kindOf(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case mlir::DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case mlir::DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case mlir::DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  return std::nullopt;
}

cmm::SourceDiagnosticHandler::SourceDiagnosticHandler(
    llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context)
    : context(context) {
  id = context->getDiagEngine().registerHandler(
      [&sourceMgr](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        unsigned buffer = sourceMgr.getMainFileID();
        llvm::StringRef file =
            sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier();
        // Where in the main file, or nothing: then MLIR's handler prints it.
        auto find = [&](mlir::Location loc) -> llvm::SMLoc {
          auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
          if (!fileLoc || fileLoc.getFilename() != file)
            return llvm::SMLoc();
          return sourceMgr.FindLocForLineAndColumn(buffer, fileLoc.getLine(),
                                                   fileLoc.getColumn());
        };
        llvm::SMLoc at = find(diag.getLocation());
        if (!at.isValid() || !kindOf(diag.getSeverity()))
          return mlir::failure();
        for (mlir::Diagnostic &note : diag.getNotes())
          if (!find(note.getLocation()).isValid())
            return mlir::failure();
        printSourceMessage(sourceMgr, at, *kindOf(diag.getSeverity()),
                           diag.str());
        for (mlir::Diagnostic &note : diag.getNotes())
          printSourceMessage(sourceMgr, find(note.getLocation()),
                             llvm::SourceMgr::DK_Note, note.str());
        return mlir::success();
      });
}

cmm::SourceDiagnosticHandler::~SourceDiagnosticHandler() {
  context->getDiagEngine().eraseHandler(id);
}
