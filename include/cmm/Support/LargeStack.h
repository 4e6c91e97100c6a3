//===- LargeStack.h - Tool work on a thread with a big stack ----*- C++ -*-===//
//
// The front end walks expression trees recursively (up to
// Parser::kMaxExprDepth levels). The main thread's 8 MiB stack holds that in
// release builds but not in sanitizer builds, so the tools run their work on a
// thread with a 256 MiB stack (reserved, committed only as it is touched).
//
// LLVM's crash handlers are registered on the main thread before that thread
// starts. Registering them gives the registering thread an alternate signal
// stack (malloc'd, when the thread's own is smaller than LLVM wants); on a
// thread AddressSanitizer started, that replaced ASan's own alternate stack,
// which ASan then failed to unmap when the thread ended (`AddressSanitizer
// failed to deallocate ... (UnsetAlternateSignalStack)`, an abort at every
// tool's exit in sanitizer builds). The main thread's is never unmapped.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SUPPORT_LARGESTACK_H
#define CMM_SUPPORT_LARGESTACK_H

#include "llvm/Support/Signals.h"
#include "llvm/Support/thread.h"

namespace cmm {

constexpr unsigned kToolStackBytes = 256u << 20;

/// Runs `body(argc, argv)` on a thread with a large stack; returns its result.
inline int runWithLargeStack(int (*body)(int, char **), int argc,
                             char **argv) {
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kToolStackBytes),
                      [&] { result = body(argc, argv); });
  worker.join();
  return result;
}

} // namespace cmm

#endif // CMM_SUPPORT_LARGESTACK_H
