//===- Cosma.h - COSMA's distributed matrix product on MPI ------*- C++ -*-===//
//
// C = op(A) op(B) (op: identity or transpose) on the ranks of a
// communicator, in the decomposition of cmmrt/CosmaStrategy.h (Algorithm 1
// of Kwasniewski et al., SC'19):
//
// * data layout (section 7.6): rank (i, j, l) of the grid [gm, gn, gk]
//   starts with its share of the panels it will exchange: of A's block
//   (rows of block i, k of block l) the columns of each round split among
//   the gn ranks (i, *, l) that need them, of B's block (k of block l,
//   columns of block j) the rows of each round split among the gm ranks
//   (*, j, l); so no element is reshuffled locally and every element of A
//   and B lives on exactly one rank;
// * rounds: per round, the A panel is gathered along j (MPI_Iallgatherv
//   among the ranks (i, *, l)) and the B panel along i, then multiplied
//   into the partial C with one local DGEMM; the next round's gathers are
//   issued before this round's DGEMM (double buffering, section 7.3), and
//   all buffers are allocated once (section 7.5);
// * the partial C blocks are summed along k and scattered
//   (MPI_Reduce_scatter): rank (i, j, l) keeps rows piece l of the block;
//   ranks outside the grid stay idle.
//
// Inputs are produced in place, in the layout above, by a callback giving
// any element of op(A) or op(B) (as COSMA's own benchmark does), so the
// layout costs no communication. Words moved are counted per rank the way
// a PMPI interposition counts them (payload each rank sends to the other
// ranks of a collective).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_COSMA_H
#define CMMRT_COSMA_H

#include "cmmrt/CosmaStrategy.h"
#include "cmmrt/Matrix.h"

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cmmrt {

/// Element (i, j) of an operand, as the product sees it (after op).
using ElementFn = std::function<double(int64_t i, int64_t j)>;

struct CosmaResult {
  /// Its part of C (rows piece l of block (i, j)), at (row0, col0).
  Matrix block;
  int64_t row0 = 0, col0 = 0;
  bool holdsBlock = false;
  /// Words this rank sent to and received from other ranks.
  double wordsSent = 0, wordsReceived = 0;
  double seconds = 0; // the product, after the inputs exist
};

/// Runs the product on `comm` (its size must be the strategy's p). Panels
/// of A are stored as op(A) sees them when `transA` is false, else as
/// A itself (k x m) and multiplied with CblasTrans; likewise B.
void cosmaMultiply(const CosmaStrategy &strategy, const ElementFn &a,
                   const ElementFn &b, bool transA, bool transB, MPI_Comm comm,
                   CosmaResult &result);

/// The same product (no transposes) on pieces already in the layout: for
/// each round, this rank's piece of A and of B, row-major, as
/// cosmaInputRegions lists them (a rank with the whole operands packs
/// them; the others receive them). The pieces are read, not kept.
void cosmaMultiplyPieces(const CosmaStrategy &strategy,
                         const std::vector<const double *> &aPieces,
                         const std::vector<const double *> &bPieces,
                         MPI_Comm comm, CosmaResult &result);

/// A rectangle of op(A) or op(B).
struct CosmaRegion {
  int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
};

/// The regions of op(A) and of op(B) that `rank` holds in the layout above
/// (every element on exactly one rank; none on an idle rank): what a rank
/// that has the whole operands sends each rank before cosmaMultiply.
void cosmaInputRegions(const CosmaStrategy &strategy, int rank,
                       std::vector<CosmaRegion> &a,
                       std::vector<CosmaRegion> &b);

/// A block of op(A) or op(B) that a rank holds: `rows x cols` at
/// (row0, col0) of the operand, row-major with `stride` between rows.
struct CosmaBlock {
  const double *data = nullptr;
  int64_t row0 = 0, col0 = 0, rows = 0, cols = 0, stride = 0;
};

/// A rank's pieces in the layout above, ready for cosmaMultiplyPieces.
struct CosmaPieces {
  // A's pieces then B's, in region order (pooled; not zeroed first: every
  // word is written once).
  ScratchBuffer buffer;
  std::vector<const double *> a, b;        // into buffer, one per round
  double wordsSent = 0, wordsReceived = 0; // to and from other ranks
};

/// Places the ranks of `comm` in the grid where their blocks of op(A) and
/// op(B) already cover most of a place's pieces, so that cosmaRedistribute
/// moves least: the blocks' rectangles (not their values) are exchanged,
/// and the grid's places go, largest overlap first, each to a rank without
/// a place (ties: a rank keeps its own number). Sets `strategy.places`,
/// the same on every rank. A plan's tiles seldom sit where COSMA's layout
/// wants them: in the neural network's X' G on 2 ranks, one rank held both
/// operands' tiles of the other's k range, and the product moved 3 of its
/// 4 tiles instead of 1.
void cosmaPlaceRanks(CosmaStrategy &strategy, const std::vector<CosmaBlock> &a,
                     const std::vector<CosmaBlock> &b, MPI_Comm comm);

/// Moves op(A) and op(B), held as blocks by the ranks of `comm` in any
/// distribution (every element on exactly one rank: one rank with all the
/// tiles, tiles spread by a plan, a 2D block-cyclic layout), into the
/// layout above: one MPI_Alltoallv of the intersections of each rank's
/// blocks with every rank's pieces (a rank's own parts are copied). False,
/// on every rank, with a message when the blocks do not cover the operands
/// exactly or a message would pass 2^31 words.
bool cosmaRedistribute(const CosmaStrategy &strategy,
                       const std::vector<CosmaBlock> &a,
                       const std::vector<CosmaBlock> &b, MPI_Comm comm,
                       CosmaPieces &pieces, std::string &error);

/// The words each rank of the grid sends and receives in cosmaMultiply,
/// predicted from the strategy alone (one entry per rank of `p`).
void cosmaPredictedWords(const CosmaStrategy &strategy,
                         std::vector<double> &sent,
                         std::vector<double> &received);

} // namespace cmmrt

#endif // CMMRT_COSMA_H
