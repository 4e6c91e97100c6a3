//===- CosmaStrategyTest.cpp - COSMA's decomposition ------------*- C++ -*-===//
//
// The checks of the COSMA paper (Kwasniewski et al., SC'19): equation (4)'s
// local domain on divisible problems, the grid fitting of section 7.1 with
// at most the tolerated idle ranks, Figure 5's 65-rank case, the rounds of
// Algorithm 1, and the message when a product cannot fit.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/CosmaStrategy.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cmmrt;

TEST(CosmaStrategy, DivisibleCubeHasTheLocalDomainOfEquation4) {
  // m = n = k = 1024 on 8 ranks with ample memory: a = b = 512,
  // a^2 b = mnk / p, grid [2, 2, 2].
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(computeCosmaStrategy(1024, 1024, 1024, 8, 1e9, {}, s, error))
      << error;
  EXPECT_DOUBLE_EQ(s.a * s.a * s.b, 1024.0 * 1024 * 1024 / 8);
  EXPECT_NEAR(s.a, 512, 1e-9);
  EXPECT_EQ(s.gm * s.gn * s.gk, 8);
  EXPECT_EQ(s.gm, 2);
  EXPECT_EQ(s.gn, 2);
  EXPECT_EQ(s.gk, 2);
  EXPECT_EQ(s.tileM * s.tileN * s.tileK, 1024LL * 1024 * 1024 / 8);
  EXPECT_EQ(s.rounds, 1);
  EXPECT_DOUBLE_EQ(s.ioWords(), 3 * 512.0 * 512.0); // 3 (mnk/p)^(2/3)
}

TEST(CosmaStrategy, MemoryBindsTheFaceAndGrowsK) {
  // Limited memory: a^2 <= S / 2, the domain grows along k (b > a) and the
  // panels come in several rounds.
  CosmaStrategy s;
  std::string error;
  double S = 2.0 * 256 * 256 + 64 * 512; // C face 256^2 and some panels
  ASSERT_TRUE(computeCosmaStrategy(1024, 1024, 4096, 16, S, {}, s, error))
      << error;
  EXPECT_LE(double(s.tileM) * s.tileN, S / 2);
  EXPECT_NEAR(s.a, std::sqrt(S / 2), 1e-9);
  EXPECT_GT(s.b, s.a);
  EXPECT_DOUBLE_EQ(s.a * s.a * s.b, 1024.0 * 1024 * 4096 / 16);
  EXPECT_GT(s.rounds, 1);
  EXPECT_LE(s.memoryNeeded(), S);
  EXPECT_EQ(s.rounds, int(std::ceil((s.tileM + s.tileN) * double(s.tileK) /
                                    (S - double(s.tileM) * s.tileN))));
}

TEST(CosmaStrategy, IdleRanksStayWithinTheTolerance) {
  for (int p : {7, 13, 31, 65, 97, 127, 1000, 2198}) {
    for (double delta : {0.0, 0.03, 0.1}) {
      CosmaOptions options;
      options.maxIdleFraction = delta;
      CosmaStrategy s;
      std::string error;
      ASSERT_TRUE(
          computeCosmaStrategy(16384, 16384, 16384, p, 1e12, options, s, error))
          << error;
      EXPECT_LE(s.usedRanks(), p);
      EXPECT_GE(s.usedRanks(), (1 - delta) * p - 1e-9)
          << "p " << p << " delta " << delta;
    }
  }
}

TEST(CosmaStrategy, Figure5DropsOneOf65RanksForAFourCubedGrid) {
  // A square problem on 65 ranks: the best 65-rank grid (65 = 5 x 13)
  // stretches the domain; dropping one rank gives 4 x 4 x 4 with about
  // 36 % less communication (Figure 5).
  const int64_t N = 4096;
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(computeCosmaStrategy(N, N, N, 65, 1e12, {}, s, error)) << error;
  EXPECT_EQ(s.usedRanks(), 64);
  EXPECT_EQ(s.gm, 4);
  EXPECT_EQ(s.gn, 4);
  EXPECT_EQ(s.gk, 4);
  int gm, gn, gk;
  ASSERT_TRUE(bestGridWithRanks(N, N, N, 65, gm, gn, gk));
  double stretched = cosmaGridIO(N, N, N, gm, gn, gk);
  double saving = 1 - s.ioWords() / stretched;
  EXPECT_NEAR(saving, 0.36, 0.01) << gm << "x" << gn << "x" << gk;
  // Without tolerance for idle ranks, all 65 are used.
  CosmaOptions strict;
  strict.maxIdleFraction = 0;
  ASSERT_TRUE(computeCosmaStrategy(N, N, N, 65, 1e12, strict, s, error));
  EXPECT_EQ(s.usedRanks(), 65);
}

TEST(CosmaStrategy, ShapesOfThePaperPickMatchingGrids) {
  CosmaStrategy s;
  std::string error;
  // largeK: all ranks along k; largeM: all along m; flat: a 2D grid.
  ASSERT_TRUE(computeCosmaStrategy(512, 512, 131072, 4, 1e9, {}, s, error));
  EXPECT_EQ(s.gk, 4);
  ASSERT_TRUE(computeCosmaStrategy(131072, 512, 512, 4, 1e9, {}, s, error));
  EXPECT_EQ(s.gm, 4);
  ASSERT_TRUE(computeCosmaStrategy(8192, 8192, 256, 4, 1e9, {}, s, error));
  EXPECT_EQ(s.gk, 1);
  EXPECT_EQ(s.gm * s.gn, 4);
}

TEST(CosmaStrategy, AProductThatCannotFitSaysWhatItNeeds) {
  CosmaStrategy s;
  std::string error;
  EXPECT_FALSE(
      computeCosmaStrategy(100000, 100000, 100000, 2, 1e6, {}, s, error));
  EXPECT_NE(error.find("needs at least"), std::string::npos) << error;
  EXPECT_NE(error.find("GiB per rank"), std::string::npos) << error;
  EXPECT_NE(error.find("a rank has"), std::string::npos) << error;
  EXPECT_FALSE(computeCosmaStrategy(0, 1, 1, 1, 1e6, {}, s, error));
}

TEST(CosmaStrategy, TiesGoToTheGridWithoutAReduction) {
  // A square product on 4 ranks: [2, 2, 1], [2, 1, 2] and [1, 2, 2] have
  // the same I/O of equation (3) and send the same words per rank
  // (2 x 256 x 512 / 2; [1, 2, 2] sends half its A share and half its C
  // block); [2, 2, 1] needs no reduction step.
  CosmaStrategy s;
  std::string error;
  ASSERT_TRUE(computeCosmaStrategy(512, 512, 512, 4, 1e9, {}, s, error));
  EXPECT_EQ(s.gm, 2);
  EXPECT_EQ(s.gn, 2);
  EXPECT_EQ(s.gk, 1);
  EXPECT_DOUBLE_EQ(cosmaGridIO(512, 512, 512, 2, 2, 1),
                   cosmaGridIO(512, 512, 512, 1, 2, 2));
  EXPECT_DOUBLE_EQ(cosmaGridTraffic(512, 512, 512, 2, 2, 1), 131072);
  EXPECT_DOUBLE_EQ(cosmaGridTraffic(512, 512, 512, 1, 2, 2), 131072);
  EXPECT_DOUBLE_EQ(cosmaGridTraffic(512, 512, 512, 4, 1, 1),
                   512.0 * 512 * 3 / 4); // B shares only
}
