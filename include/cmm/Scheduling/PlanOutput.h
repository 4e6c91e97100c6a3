//===- PlanOutput.h - Plans as traces and Gantt charts ----------*- C++ -*-===//
//
// Two views of a Schedule, in the layout of Figure 2 of the Julia Cloud Matrix
// Machine paper: one row per worker and per communicator process of each node,
// time flowing left to right, tasks coloured by kind, each transfer shown as
// a send on the sender's communicator and a receive on the receiver's.
//
//  - writeChromeTrace: Chrome trace-event JSON (the "JSON Object Format"),
//    for ui.perfetto.dev or chrome://tracing. Node N is process N + 1 (pid 0
//    is special in Perfetto), named "node 0 (master)", "node 1", ...; its
//    threads are "worker W" (tid W + 1), then "comm C", then, when needed,
//    "links" (transfers of a plan made without communicators, on the
//    receiving node) and "cache" (instant events for tile-cache puts and
//    evictions). Tasks and transfers are complete ("X") events with ts/dur
//    in microseconds.
//  - writeGanttSVG: a standalone SVG Gantt chart with a time axis in seconds,
//    a legend and a tooltip (<title>) on every bar.
//
// Both are deterministic: the same plan gives the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_PLANOUTPUT_H
#define CMM_SCHEDULING_PLANOUTPUT_H

#include "cmm/Scheduling/CostModel.h"
#include "cmm/Scheduling/Schedule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace cmm::scheduling {

/// Writes `schedule` as a Chrome trace. Events, in order: process and thread
/// metadata ("M") node by node; one "X" event per task in TaskId order
/// (cat: taskKindName; args: id, m, n, k, inputs, outputs), a gang task
/// (Task::gangNodes) once per worker of each of its nodes; per transfer in
/// plan order a "send <data> -> node N" event on the sender's communicator
/// and a "recv <data> <- node M" event on the receiver's (cat "send"/"recv";
/// args: bytes, data) -- or, when the transfer has no communicators
/// (sendComm == -1), one "<data> node M -> node N" event (cat "transfer") on
/// the receiving node's "links" thread; then one instant event ("ph": "i",
/// "s": "t") per cache event, "put <data>" or "evict <data>" (cat "cache").
/// `otherData` carries `label` (when not empty), the makespan in seconds and
/// the plan's counts.
void writeChromeTrace(const TaskGraph &graph, const Schedule &schedule,
                      const CostModel &cost, llvm::raw_ostream &os,
                      llvm::StringRef label = "");

/// Writes `schedule` as an SVG Gantt chart: nodes top to bottom (node 0, the
/// master, first), in each one row per worker, then per communicator (and a
/// "links" row for transfers without communicators). Every task and every
/// side of a transfer is one <rect> (at least 1 px wide, so zero-duration
/// tasks show as a line) with a <title> tooltip; the only other <rect>s are
/// the legend's swatches, one per colour used (in the fixed order gemm,
/// distributed gemm, elementwise, transpose, reduce, generate, load, gather,
/// solve, other, send, recv, transfer). A gang task (Task::gangNodes) is
/// drawn on every worker row of each of its nodes. `title` defaults to
/// "Schedule".
void writeGanttSVG(const TaskGraph &graph, const Schedule &schedule,
                   const CostModel &cost, llvm::raw_ostream &os,
                   llvm::StringRef title = "");

/// The axis step for a span of `span` seconds: the smallest of 1, 2, 5 x 10^k
/// with at most `maxTicks` steps in the span. A span <= 0 is taken as 1.
double niceTickStep(double span, unsigned maxTicks = 8);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_PLANOUTPUT_H
