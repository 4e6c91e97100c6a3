//===- ToolOptions.h - Command-line options of the cmm tools ----*- C++ -*-===//
//
// libLLVM registers hundreds of code-generation options (`--amdgpu-...`,
// `--x86-...`) when it is loaded; the cmm tools have no use for them, so
// they are hidden from `--help` (still listed by `--help-hidden`). Call
// before the tool registers its own options and parses the command line.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SUPPORT_TOOLOPTIONS_H
#define CMM_SUPPORT_TOOLOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

namespace cmm {

/// Hides every option registered so far (the libraries'), except the
/// command line's own (`--help`, `--version`, ...).
inline void hideLibraryOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::StringRef name = entry.first;
    if (name.starts_with("help") || name == "version" ||
        name.starts_with("print-all-options") ||
        name.starts_with("print-options"))
      continue;
    if (entry.second->getOptionHiddenFlag() == llvm::cl::NotHidden)
      entry.second->setHiddenFlag(llvm::cl::Hidden);
  }
}

} // namespace cmm

#endif // CMM_SUPPORT_TOOLOPTIONS_H
