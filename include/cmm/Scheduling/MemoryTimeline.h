//===- MemoryTimeline.h - Tile memory of each node over a plan --*- C++ -*-===//
//
// What the runtime holds while it runs a plan: a tile copy occupies its
// bytes on a node from the start of the task that makes it (or of the
// transfer that brings it) to the finish of its last use there (the
// executor releases a copy after its last local reader), except that an
// elementwise task or a gemm-accumulate writes over an input it is the last
// reader of (the executor's in-place reuse). Swept in time order this gives
// each node's peak of live tile bytes (the memory check of the planner) and,
// because the runtime reuses freed buffers (cmmrt/TileMemory.h), the bytes
// each task or transfer writes into pages the node never touched before: the
// part of a live total above the node's previous peak (first-touch faults).
// A task over whole operands also holds, while it runs, a copy of each
// operand and each result of several tiles (the operand assembled, the
// result whole; one of one tile is read or moved in place) and the op's own
// copies and workspaces (cmmrt::factorizationScratchBytes). The pool's buffers (at least
// kPooledBufferBytes) and the smaller ones from malloc's heap (which the
// runtime never gives back to the system) are two reservoirs, each with its own
// peak: neither reuses the other's memory. The pool maps fresh blocks in
// whole huge pages, so a fresh byte of a pooled tile faults
// cmmrt::touchedBytesPerFreshByte bytes, on the task's threads in parallel
// only where cmmrt::populatedInBands; the heap's small tiles fault their
// pages one by one inside the (unbanded) kernel.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_MEMORYTIMELINE_H
#define CMM_SCHEDULING_MEMORYTIMELINE_H

#include "cmm/Scheduling/Schedule.h"

#include <vector>

namespace cmm::scheduling {

struct MemoryTimeline {
  std::vector<double> peakBytes; // by node
  /// Bytes of pages faulted in (first touch), by task and by transfer
  /// index; of a task's, those its threads fault in parallel.
  std::vector<double> freshTaskBytes;
  std::vector<double> bandedTaskBytes;
  std::vector<double> freshTransferBytes;
};

/// The memory of `plan` (its times as they are: pass a replayed plan for
/// simulated times) on `numNodes` nodes, whose huge pages are
/// `hugePageBytes` (by node; absent or 0: none).
MemoryTimeline memoryTimeline(const TaskGraph &graph, const Schedule &plan,
                              unsigned numNodes,
                              const std::vector<double> &hugePageBytes = {});

/// The share of a node's memory a plan's live tiles may fill; the rest is
/// headroom for the process itself, MPI's buffers and the tile pool's
/// rounding to pages.
constexpr double kUsableMemoryShare = 0.9;

/// The node whose peak of live tiles is the largest share of its usable
/// memory (kUsableMemoryShare of `memoryBytes`), and that share: above 1
/// the plan does not fit in that node.
struct MemoryPressure {
  unsigned node = 0;
  double share = 0;
  bool fits() const { return share <= 1; }
};
MemoryPressure memoryPressure(const std::vector<double> &peakBytes,
                              const std::vector<double> &memoryBytes);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_MEMORYTIMELINE_H
