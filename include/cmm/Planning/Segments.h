//===- Segments.h - Straight-line segments of run-time control --*- C++ -*-===//
//
// A program whose `while` or `if` is decided at run time (cmm.while,
// cmm.if) is planned as straight-line segments: every maximal run of
// observed ops between control ops becomes a private function @main_segN
// (its arguments the values it reads from elsewhere, its results those read
// elsewhere), and @main keeps only the control flow and a func.call per
// segment. Each segment is planned on its own (its arguments imported from
// the master, its results exported there: cmmrt/Program.h), and
// `--cmm-to-cpp` turns @main's control flow into the program's loops and
// branches around the segments' plans (docs/planner.md, "Run-time control
// flow").
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PLANNING_SEGMENTS_H
#define CMM_PLANNING_SEGMENTS_H

#include "cmm/Conversion/CmmToTaskGraph/Tiling.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/SmallVector.h"

namespace cmm::planning {

/// Whether `main` has a cmm.while or cmm.if.
bool hasRunTimeControl(mlir::func::FuncOp main);

/// Rewrites each cmm.while of `main` whose condition is computed by ops
/// that write nothing and draw no random numbers so that its condition is a
/// carried value: computed once before the loop and again at the end of the
/// body. The condition and the body are then one segment, and each trip runs
/// one plan instead of two.
void rotateLoops(mlir::func::FuncOp main);

/// Outlines the segments of `main` (unobserved ops are dropped and loops
/// rotated first) into functions after it in the module, in program order;
/// the arguments the innermost loop around a segment does not change are
/// marked tiling::kInvariantAttr.
llvm::SmallVector<mlir::func::FuncOp> outlineSegments(mlir::func::FuncOp main);

/// How many times the plans assume segment `call` runs: the product of the
/// assumed trips of the loops around it (cmm.while's expected_trips, else
/// the default); a branch counts as running.
int64_t assumedRuns(mlir::Operation *call);

} // namespace cmm::planning

#endif // CMM_PLANNING_SEGMENTS_H
