//===- TraceLayout.h - Where events go in a Chrome trace --------*- C++ -*-===//
//
// The one numbering and naming of processes and threads in the traces cmm
// writes, so that a plan's predicted trace (`cmm-plan plan-trace=`, `cmmc
// --plan-trace`) and a run's measured trace (`CMM_TRACE`) load side by side
// in Perfetto with the same rows: node N is process N + 1 (pid 0 is special
// in Perfetto), named "node 0 (master)", "node 1", ...; on a node with W
// workers, worker w is thread w + 1 ("worker w") and communicator c thread
// W + c + 1 ("comm c"); rows after those (the predicted trace's "links" and
// "cache") follow.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_TRACELAYOUT_H
#define CMMRT_TRACELAYOUT_H

#include <string>

namespace cmmrt::trace {

inline int processId(unsigned node) { return int(node) + 1; }

/// The thread of row `row` of a node: workers first, then communicators.
inline int threadId(unsigned row) { return int(row) + 1; }
inline int workerThread(unsigned worker) { return threadId(worker); }
inline int commThread(unsigned workers, unsigned comm) {
  return threadId(workers + comm);
}

inline std::string processName(unsigned node) {
  return "node " + std::to_string(node) + (node == 0 ? " (master)" : "");
}
inline std::string workerName(unsigned worker) {
  return "worker " + std::to_string(worker);
}
inline std::string commName(unsigned comm) {
  return "comm " + std::to_string(comm);
}

} // namespace cmmrt::trace

#endif // CMMRT_TRACELAYOUT_H
