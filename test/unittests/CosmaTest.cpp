//===- CosmaTest.cpp - COSMA's product on MPI ranks --------------*- C++
//-*-===//
//
// Run under mpirun on 1 to 5 ranks (ctest). Every shape of the paper's
// comparison at a small size, odd dimensions, transposed operands and
// limited memory (several rounds): the blocks of C, gathered on rank 0,
// equal one OpenBLAS DGEMM of the whole operands (relative Frobenius error
// <= 1e-12), and each rank's words sent and received equal the strategy's
// prediction. Also from operands held elsewhere (block-cyclic, on rank 0,
// tiles spread over the ranks), moved into the layout by cosmaRedistribute.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/Cosma.h"
#include "cmmrt/Random.h"

#include <cblas.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace cmmrt;

namespace {

int worldRank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int worldSize() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

struct Case {
  int64_t m, n, k;
  bool transA, transB;
  double memoryWords;
};

/// op(A) is m x k, op(B) k x n; their elements from the counter-based
/// generator (A stored k x m when transposed, B n x k).
double elementA(const Case &c, int64_t i, int64_t j) {
  return c.transA ? uniformAt(3, 1, uint64_t(j), uint64_t(i)) - 0.5
                  : uniformAt(3, 1, uint64_t(i), uint64_t(j)) - 0.5;
}
double elementB(const Case &c, int64_t i, int64_t j) {
  return c.transB ? uniformAt(3, 2, uint64_t(j), uint64_t(i)) - 0.5
                  : uniformAt(3, 2, uint64_t(i), uint64_t(j)) - 0.5;
}

/// Where the operands start: generated in COSMA's layout, or held as
/// blocks somewhere and moved there by cosmaRedistribute.
/// (MirroredPlaces: each working rank r holds exactly the pieces of place
/// used - 1 - r, so only a placement by the data avoids moving them all.)
enum class Start {
  InPlace,
  BlockCyclic,
  OnRankZero,
  RoundRobinTiles,
  MirroredPlaces
};

/// The blocks of place `place`'s pieces, as cosmaInputRegions lists them.
void blocksOfPlace(const CosmaStrategy &s, int place,
                   const std::function<double(int64_t, int64_t)> &opA,
                   const std::function<double(int64_t, int64_t)> &opB,
                   std::vector<std::vector<double>> &storage,
                   std::vector<CosmaBlock> &blocksA,
                   std::vector<CosmaBlock> &blocksB) {
  std::vector<CosmaRegion> ra, rb;
  cosmaInputRegions(s, place, ra, rb);
  for (int operand = 0; operand < 2; ++operand)
    for (const CosmaRegion &g : operand ? rb : ra) {
      storage.emplace_back(size_t(g.rows * g.cols));
      for (int64_t x = 0; x < g.rows; ++x)
        for (int64_t y = 0; y < g.cols; ++y)
          storage.back()[size_t(x * g.cols + y)] =
              (operand ? opB : opA)(g.row0 + x, g.col0 + y);
      (operand ? blocksB : blocksA)
          .push_back(
              {storage.back().data(), g.row0, g.col0, g.rows, g.cols, g.cols});
    }
}

/// The blocks of op(A) (or op(B)), `rows x cols`, this rank holds under
/// `start`: nb x nb blocks cyclic on a 1 x p grid, every block of size nb
/// on rank 0, or blocks of size nb dealt to the ranks in turn.
void blocksFor(Start start, int64_t rows, int64_t cols, int64_t nb,
               const std::function<double(int64_t, int64_t)> &element,
               std::vector<std::vector<double>> &storage,
               std::vector<CosmaBlock> &blocks) {
  int p = worldSize(), rank = worldRank(), turn = 0;
  for (int64_t bi = 0; bi * nb < rows; ++bi)
    for (int64_t bj = 0; bj * nb < cols; ++bj, ++turn) {
      int owner = start == Start::OnRankZero    ? 0
                  : start == Start::BlockCyclic ? int(bj % p)
                                                : turn % p;
      if (owner != rank)
        continue;
      int64_t r = std::min(nb, rows - bi * nb),
              c = std::min(nb, cols - bj * nb);
      storage.emplace_back(size_t(r * c));
      for (int64_t x = 0; x < r; ++x)
        for (int64_t y = 0; y < c; ++y)
          storage.back()[size_t(x * c + y)] = element(bi * nb + x, bj * nb + y);
      blocks.push_back({storage.back().data(), bi * nb, bj * nb, r, c, c});
    }
}

void check(const Case &c, Start start = Start::InPlace) {
  int p = worldSize(), rank = worldRank();
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(
      computeCosmaStrategy(c.m, c.n, c.k, p, c.memoryWords, {}, s, error))
      << error;
  CosmaResult r;
  auto opA = [&](int64_t i, int64_t j) { return elementA(c, i, j); };
  auto opB = [&](int64_t i, int64_t j) { return elementB(c, i, j); };
  if (start == Start::InPlace) {
    cosmaMultiply(s, opA, opB, c.transA, c.transB, MPI_COMM_WORLD, r);
  } else {
    std::vector<std::vector<double>> storage;
    storage.reserve(size_t(c.m * c.k + c.k * c.n)); // pointers stay put
    std::vector<CosmaBlock> blocksA, blocksB;
    if (start == Start::MirroredPlaces) {
      if (rank < s.usedRanks())
        blocksOfPlace(s, s.usedRanks() - 1 - rank, opA, opB, storage, blocksA,
                      blocksB);
    } else {
      blocksFor(start, c.m, c.k, 7, opA, storage, blocksA);
      blocksFor(start, c.k, c.n, 7, opB, storage, blocksB);
    }
    cosmaPlaceRanks(s, blocksA, blocksB, MPI_COMM_WORLD);
    CosmaPieces pieces;
    ASSERT_TRUE(
        cosmaRedistribute(s, blocksA, blocksB, MPI_COMM_WORLD, pieces, error))
        << error;
    if (start == Start::OnRankZero) {
      // Rank 0 sends every other rank its whole pieces.
      double others = 0;
      for (int q = 1; q < p; ++q) {
        std::vector<CosmaRegion> ra, rb;
        cosmaInputRegions(s, q, ra, rb);
        double words = 0;
        for (const CosmaRegion &x : ra)
          words += double(x.rows * x.cols);
        for (const CosmaRegion &x : rb)
          words += double(x.rows * x.cols);
        others += words;
        if (q == rank) {
          EXPECT_EQ(pieces.wordsReceived, words);
        }
      }
      if (rank == 0) {
        EXPECT_EQ(pieces.wordsSent, others);
      }
    }
    if (start == Start::MirroredPlaces) {
      // Every rank is placed where its pieces are: nothing moves.
      EXPECT_EQ(pieces.wordsSent, 0) << "rank " << rank;
      EXPECT_EQ(pieces.wordsReceived, 0) << "rank " << rank;
      if (rank < s.usedRanks()) {
        EXPECT_EQ(s.placeOf(rank), s.usedRanks() - 1 - rank);
      }
    }
    cosmaMultiplyPieces(s, pieces.a, pieces.b, MPI_COMM_WORLD, r);
  }

  // Words: as predicted, on every rank.
  std::vector<double> sent, received;
  cosmaPredictedWords(s, sent, received);
  EXPECT_EQ(r.wordsSent, sent[rank]) << "rank " << rank;
  EXPECT_EQ(r.wordsReceived, received[rank]) << "rank " << rank;

  // C: every block to rank 0, against one DGEMM.
  long long header[4] = {r.holdsBlock, r.row0, r.col0, 0};
  header[3] = r.holdsBlock ? r.block.rows() * 1000000000LL + r.block.cols() : 0;
  std::vector<long long> headers(4 * p);
  MPI_Gather(header, 4, MPI_LONG_LONG, headers.data(), 4, MPI_LONG_LONG, 0,
             MPI_COMM_WORLD);
  int count = r.holdsBlock ? int(r.block.size()) : 0;
  std::vector<int> counts(p), displs(p);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int q = 0; q < p; ++q) {
    displs[q] = total;
    total += counts[q];
  }
  std::vector<double> all(rank == 0 ? total : 0);
  MPI_Gatherv(r.holdsBlock ? r.block.data() : nullptr, count, MPI_DOUBLE,
              all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  if (rank != 0)
    return;
  Matrix got(c.m, c.n, std::nan(""));
  for (int q = 0; q < p; ++q) {
    if (!headers[4 * q])
      continue;
    int64_t rows = headers[4 * q + 3] / 1000000000LL,
            cols = headers[4 * q + 3] % 1000000000LL;
    for (int64_t x = 0; x < rows; ++x)
      for (int64_t y = 0; y < cols; ++y)
        got(headers[4 * q + 1] + x, headers[4 * q + 2] + y) =
            all[size_t(displs[q] + x * cols + y)];
  }
  Matrix a(c.m, c.k), b(c.k, c.n), want(c.m, c.n);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.k; ++j)
      a(i, j) = elementA(c, i, j);
  for (int64_t i = 0; i < c.k; ++i)
    for (int64_t j = 0; j < c.n; ++j)
      b(i, j) = elementB(c, i, j);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(c.m), int(c.n),
              int(c.k), 1.0, a.data(), int(c.k), b.data(), int(c.n), 0.0,
              want.data(), int(c.n));
  double num = 0, den = 0;
  for (int64_t e = 0; e < want.size(); ++e) {
    double d = got.data()[e] - want.data()[e];
    num += d * d;
    den += want.data()[e] * want.data()[e];
  }
  EXPECT_LE(std::sqrt(num / den), 1e-12)
      << c.m << "x" << c.n << "x" << c.k << " grid " << s.gm << "x" << s.gn
      << "x" << s.gk << " rounds " << s.rounds;
}

} // namespace

// The paper's shapes (section 9), scaled down.
TEST(Cosma, Square) { check({96, 96, 96, false, false, 1e9}); }
TEST(Cosma, LargeK) { check({16, 16, 2048, false, false, 1e9}); }
TEST(Cosma, LargeM) { check({2048, 16, 16, false, false, 1e9}); }
TEST(Cosma, Flat) { check({128, 128, 8, false, false, 1e9}); }
TEST(Cosma, OddDimensions) { check({37, 53, 29, false, false, 1e9}); }
TEST(Cosma, TransposedA) { check({37, 41, 23, true, false, 1e9}); }
TEST(Cosma, TransposedB) { check({31, 43, 19, false, true, 1e9}); }
TEST(Cosma, BothTransposed) { check({33, 27, 45, true, true, 1e9}); }
// Little memory: several rounds of panels, double buffered.
TEST(Cosma, ManyRounds) { check({40, 40, 600, false, false, 3000}); }
TEST(Cosma, ManyRoundsTransposed) { check({40, 36, 500, true, true, 2600}); }
// The operands start elsewhere and are moved into the layout first
// (cosmaRedistribute): from a block-cyclic layout, all on rank 0 (the
// runtime's distributed_gemm), tiles dealt to the ranks in turn.
TEST(Cosma, FromBlockCyclic) {
  check({37, 53, 29, false, false, 1e9}, Start::BlockCyclic);
  check({16, 16, 2048, false, false, 1e9}, Start::BlockCyclic);
}
TEST(Cosma, FromRankZero) {
  check({96, 96, 96, false, false, 1e9}, Start::OnRankZero);
  check({33, 27, 45, true, true, 1e9}, Start::OnRankZero);
  check({40, 40, 600, false, false, 3000}, Start::OnRankZero);
}
TEST(Cosma, FromTilesEverywhere) {
  check({2048, 16, 16, false, false, 1e9}, Start::RoundRobinTiles);
  check({40, 36, 500, true, true, 2600}, Start::RoundRobinTiles);
}
// Operands whose pieces sit on other ranks than COSMA's numbering puts
// them (cosmaPlaceRanks): the ranks move into the places instead.
TEST(Cosma, RanksArePlacedWhereTheirPiecesAre) {
  check({16, 16, 2048, false, false, 1e9}, Start::MirroredPlaces);
  check({96, 96, 96, false, false, 1e9}, Start::MirroredPlaces);
  check({40, 36, 500, true, true, 2600}, Start::MirroredPlaces);
}
// A block held twice is refused on every rank, not multiplied.
TEST(Cosma, RedistributeRefusesOverlap) {
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(computeCosmaStrategy(8, 8, 8, worldSize(), 1e9, {}, s, error));
  std::vector<double> ones(64, 1.0);
  std::vector<CosmaBlock> a{{ones.data(), 0, 0, 8, 8, 8}}, b = a;
  if (worldRank() == 0)
    a.push_back({ones.data(), 0, 0, 1, 1, 8}); // element (0, 0) again
  else
    a.clear(), b.clear();
  CosmaPieces pieces;
  EXPECT_FALSE(cosmaRedistribute(s, a, b, MPI_COMM_WORLD, pieces, error));
  EXPECT_NE(error.find("do not cover"), std::string::npos) << error;
}
// A's element (0, 0) missing and B's held twice: the total count is right,
// but each operand is checked on its own.
TEST(Cosma, RedistributeChecksEachOperand) {
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(computeCosmaStrategy(8, 8, 8, worldSize(), 1e9, {}, s, error));
  std::vector<double> ones(64, 1.0);
  std::vector<CosmaBlock> a, b;
  if (worldRank() == 0) {
    a = {{ones.data(), 1, 0, 7, 8, 8}, {ones.data(), 0, 1, 1, 7, 8}};
    b = {{ones.data(), 0, 0, 8, 8, 8}, {ones.data(), 0, 0, 1, 1, 8}};
  }
  CosmaPieces pieces;
  EXPECT_FALSE(cosmaRedistribute(s, a, b, MPI_COMM_WORLD, pieces, error));
  EXPECT_NE(error.find("do not cover"), std::string::npos) << error;
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  if (worldRank() != 0)
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()
            ->listeners()
            .default_result_printer());
  int failed = RUN_ALL_TESTS();
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return anyFailed;
}
