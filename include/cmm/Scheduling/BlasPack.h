//===- BlasPack.h - The BLAS packing buffer's pages -------------*- C++ -*-===//
//
// OpenBLAS copies a BLAS-3 call's operands into a buffer it keeps for the
// process; a call that packs more than every earlier one writes fresh
// pages of it (docs/machine-model.md, "The BLAS packing buffer").
//
//===----------------------------------------------------------------------===//

#ifndef CMM_SCHEDULING_BLASPACK_H
#define CMM_SCHEDULING_BLASPACK_H

#include "cmmrt/Plan.h"

namespace cmm::scheduling {

using CostClass = cmmrt::plan::CostClass;

/// Bytes OpenBLAS packs of a row-major m x k by k x n dgemm at once: the
/// column-major problem it solves is C' = B' A', whose right operand (A',
/// k x m) it copies in panels of all m columns and a k chunk of at most
/// 256 rows, the chunks of equal size (measured page faults of a first
/// call: 20000 x 100 x 5 15.4 MB, 60000 x 100 x 5 45.9 MB, 20000 x 300 x 5
/// 23.0 MB, 8000 x 64 x 32 2.0 MB; 8 m k / ceil(k / 256) gives 15.3, 45.8,
/// 22.9, 2.0). 0 for a matrix-vector product (dgemv packs nothing).
double blasPackBytes(double m, double n, double k);

/// Bytes OpenBLAS packs of a row-major m x k by k x n dgemm on one thread,
/// as the runtime runs products that threads do not speed up
/// (cmmrt::threadsSpeedUpProduct). Measured page faults of a first call on
/// one thread (2026-12-02): 1000^3 3.1 MB, 2000^3 5.2, 1000 x 125 x 1000
/// 0.36, 125 x 1000 x 1000 1.34, 500 x 64 x 500 0.23, 64 x 500 x 500 1.11,
/// 20000 x 5 x 100 0.07 (2 threads: 16.1; the runtime runs it on one);
/// this gives 3.0, 5.0, 0.30, 1.25, 0.18, 1.05, 0.02.
double oneThreadPackBytes(double m, double n, double k);

/// The pages of OpenBLAS's packing buffer a BLAS-3 task's call writes:
/// on several BLAS threads `shared` packed once for the call and
/// `perThread` by each thread (its own block of the other operand, at most
/// 512 columns of a k chunk); on one thread `oneThread`, as a node whose
/// runtime runs every task on one BLAS thread (several workers, one core)
/// calls it.
/// Measured page faults of a process's first call, 2 and 1 threads
/// (2026-12-02, 4 KiB pages at 8-12 us each): dgemm 1000^3 4.0 and 3.0 MB,
/// dsyrk 1000 3.6 and 3.0 MB, dpotrf 1000 3.4 and 2.8 MB, dtrsm of a 1000
/// triangle against 1 column 2.0 MB, 8 columns 3.9 and 2.0 MB, 1000
/// columns 5.8 and 3.0 MB. Products as blasPackBytes (their shared part),
/// but those the runtime runs on one thread as oneThreadPackBytes;
/// syrk and potrf as the product of their depth; a trsm's threads split
/// its right-hand sides and each packs the triangle's panel.
///
/// The products (dgemm, dsyrk, dpotrf's updates) reuse one another's pages;
/// a triangular solve's panels lie mostly elsewhere (measured after a dgemm
/// of 1000: a dtrsm of a 1000 triangle against one column faulted 1.0 of
/// its 2.0 MB, and a dgemm after that dtrsm 3.0 of its 4.0 MB; after a
/// dsyrk a dgemm faulted 0.9 MB), so each family has its own high-water
/// mark (TaskGraph::addTask).
struct BlasPack {
  enum Family { Product, TriangularSolve, NumFamilies };
  Family family = Product;
  double shared = 0, perThread = 0, oneThread = 0;
  double bytes(unsigned threads) const {
    return threads <= 1 ? oneThread : shared + threads * perThread;
  }
};
BlasPack blasPack(CostClass op, double m, double n, double k);

} // namespace cmm::scheduling

#endif // CMM_SCHEDULING_BLASPACK_H
