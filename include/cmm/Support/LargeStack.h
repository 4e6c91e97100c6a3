//===- LargeStack.h - Run a tool's work on a thread with a big stack -*- C++ -*-===//
//
// The front end walks expression trees recursively (up to
// Parser::kMaxExprDepth levels). The main thread's 8 MiB stack holds that in
// release builds but not in sanitizer builds, so the tools run their work on a
// thread with a 256 MiB stack (reserved, committed only as it is touched).
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SUPPORT_LARGESTACK_H
#define CMM_SUPPORT_LARGESTACK_H

#include "llvm/Support/thread.h"

namespace cmm {

constexpr unsigned kToolStackBytes = 256u << 20;

/// Runs `body(argc, argv)` on a thread with a large stack; returns its result.
inline int runWithLargeStack(int (*body)(int, char **), int argc,
                             char **argv) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kToolStackBytes),
                      [&] { result = body(argc, argv); });
  worker.join();
  return result;
}

} // namespace cmm

#endif // CMM_SUPPORT_LARGESTACK_H
