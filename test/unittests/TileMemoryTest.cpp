//===- TileMemoryTest.cpp - The tile pool ---------------------------------===//

#include "cmmrt/TileMemory.h"
#include "cmmrt/Matrix.h"
#include "cmmrt/RowBands.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace cmmrt;

namespace {
class TileMemoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    trimTileMemory();
    setTileMemoryCap(size_t(1) << 30);
  }
  void TearDown() override { setTileMemoryCap(size_t(1) << 30); }
};
} // namespace

TEST_F(TileMemoryTest, FreedLargeBlockIsReusedForItsSize) {
  const int64_t n = 512; // 2 MiB of doubles: pooled
  TileMemoryStats before = tileMemoryStats();
  const double *first;
  {
    Matrix a(n, n, 1.0);
    first = a.data();
  }
  TileMemoryStats afterFirst = tileMemoryStats();
  EXPECT_EQ(afterFirst.freshBlocks, before.freshBlocks + 1);
  EXPECT_EQ(afterFirst.keptBytes, uint64_t(n * n * 8));
  Matrix b(n, n, 2.0);
  TileMemoryStats afterSecond = tileMemoryStats();
  EXPECT_EQ(b.data(), first);
  EXPECT_EQ(afterSecond.freshBlocks, afterFirst.freshBlocks);
  EXPECT_EQ(afterSecond.reusedBlocks, afterFirst.reusedBlocks + 1);
  EXPECT_EQ(afterSecond.keptBytes, 0u);
  // A reused block holds the new matrix's values, not the old ones.
  for (double x : b.values())
    ASSERT_EQ(x, 2.0);
}

TEST_F(TileMemoryTest, OtherSizesGetFreshBlocks) {
  { Matrix a(512, 512); }
  TileMemoryStats kept = tileMemoryStats();
  Matrix c(512, 1024);
  TileMemoryStats after = tileMemoryStats();
  EXPECT_EQ(after.freshBlocks, kept.freshBlocks + 1);
  EXPECT_EQ(after.reusedBlocks, kept.reusedBlocks);
}

TEST_F(TileMemoryTest, SmallerTilesReuseTheFreedPagesOfLargerOnes) {
  // A ragged edge tile after a full one (the planner's first-touch model:
  // only bytes above the previous peak are fresh): a 4 MiB block freed,
  // then 2 MiB and 1 MiB tiles come from its pages, the rest kept.
  const double *first;
  {
    Matrix big(512, 1024, 1.0);
    first = big.data();
  }
  TileMemoryStats kept = tileMemoryStats();
  EXPECT_EQ(kept.keptBytes, uint64_t(4u << 20));
  Matrix half(512, 512, 2.0);
  Matrix quarter(256, 512, 3.0);
  TileMemoryStats after = tileMemoryStats();
  EXPECT_EQ(after.freshBlocks, kept.freshBlocks);
  EXPECT_EQ(after.reusedBlocks, kept.reusedBlocks + 2);
  EXPECT_EQ(after.keptBytes, uint64_t(1u << 20));
  EXPECT_EQ(half.data(), first); // the smallest run that holds it: the start
  EXPECT_EQ(quarter.data(), first + 512 * 512);
  for (double x : quarter.values())
    ASSERT_EQ(x, 3.0);
}

TEST_F(TileMemoryTest, FreedNeighboursMergeBackIntoOneRun) {
  const double *first;
  {
    Matrix big(512, 1024);
    first = big.data();
  }
  {
    // Both halves of the run, freed in either order, merge with each other
    // and with the kept rest.
    Matrix a(256, 512), b(256, 512), c(512, 512);
    EXPECT_EQ(a.data(), first);
  }
  EXPECT_EQ(tileMemoryStats().keptBytes, uint64_t(4u << 20));
  TileMemoryStats before = tileMemoryStats();
  Matrix again(1024, 512);
  EXPECT_EQ(again.data(), first);
  EXPECT_EQ(tileMemoryStats().freshBlocks, before.freshBlocks);
  EXPECT_EQ(tileMemoryStats().keptBytes, 0u);
}

TEST_F(TileMemoryTest, SmallMatricesBypassThePool) {
  TileMemoryStats before = tileMemoryStats();
  { Matrix s(10, 10, 3.0); }
  TileMemoryStats after = tileMemoryStats();
  EXPECT_EQ(after.freshBlocks, before.freshBlocks);
  EXPECT_EQ(after.keptBytes, before.keptBytes);
}

TEST_F(TileMemoryTest, CapBoundsTheKeptBytes) {
  setTileMemoryCap(3u << 20); // room for one 2 MiB block
  { Matrix a(512, 512), b(512, 512); }
  EXPECT_EQ(tileMemoryStats().keptBytes, uint64_t(2u << 20));
  setTileMemoryCap(0);
  EXPECT_EQ(tileMemoryStats().keptBytes, 0u);
  { Matrix c(512, 512); }
  EXPECT_EQ(tileMemoryStats().keptBytes, 0u);
}

TEST_F(TileMemoryTest, CopiesAndMovesKeepValues) {
  Matrix a(600, 600);
  for (int64_t i = 0; i < a.size(); ++i)
    a.data()[i] = double(i);
  Matrix b = a;
  Matrix c = std::move(a);
  ASSERT_EQ(b.size(), c.size());
  for (int64_t i = 0; i < b.size(); i += 997)
    EXPECT_EQ(b.data()[i], c.data()[i]);
  EXPECT_EQ(c.data()[600 * 600 - 1], double(600 * 600 - 1));
}

TEST_F(TileMemoryTest, TilesOfAFewHundredKilobytesArePooled) {
  // k-means' 2000 x 32 tiles (512 KB) come from the pool, whose fresh blocks
  // arrive populated on the task threads, not from malloc's heap, whose
  // pages fault one by one inside the kernel (a 1 MB tile of `2 * X`: 0.6 ms
  // from the heap, 0.35 ms pooled).
  const size_t bytes = 2000 * 32 * sizeof(double);
  TileMemoryStats before = tileMemoryStats();
  void *block = allocateTileMemory(bytes);
  EXPECT_EQ(tileMemoryStats().freshBlocks, before.freshBlocks + 1);
  releaseTileMemory(block, bytes);
  EXPECT_GE(tileMemoryStats().keptBytes, before.keptBytes + bytes);
}

TEST_F(TileMemoryTest, FreedHeapMemoryStaysWithTheProcess) {
  // 64 tiles of 40 KB (below the pool's threshold: malloc's) freed
  // together: with glibc's defaults the heap is trimmed on free, and the
  // next tiles fault their pages in again; after keepFreedHeapMemory they
  // come from the main heap and it stays grown.
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan replaces glibc's malloc: mallinfo2 and mallopt "
                  "describe a heap it does not use";
#endif
  keepFreedHeapMemory();
  const size_t bytes = 40 * 1000;
  ASSERT_LT(bytes, kPooledBufferBytes);
  // (Tests that ran before may have left free heap the tiles reuse, so the
  // checks are relative: not mapped on their own, not trimmed on free.)
  size_t mappedBefore = mallinfo2().hblkhd;
  std::vector<void *> tiles;
  for (int i = 0; i < 64; ++i)
    tiles.push_back(allocateTileMemory(bytes));
  struct mallinfo2 held = mallinfo2();
  EXPECT_LT(held.hblkhd, mappedBefore + 4 * bytes);
  EXPECT_GE(held.uordblks, 64 * bytes);
  for (void *t : tiles)
    releaseTileMemory(t, bytes);
  EXPECT_GE(mallinfo2().arena, held.arena);
  // A buffer that is not a tile (a kernel's scratch vector) under
  // kMallocMmapThresholdBytes stays in the heap too (glibc's default maps
  // from 128 KiB).
  const size_t scratch = 320 * 1000;
  ASSERT_LT(scratch, kMallocMmapThresholdBytes);
  size_t mappedBeforeScratch = mallinfo2().hblkhd;
  void *p = std::malloc(scratch);
  EXPECT_EQ(mallinfo2().hblkhd, mappedBeforeScratch);
  std::free(p);
}

TEST_F(TileMemoryTest, ScratchBuffersReuseTheTilesPages) {
  const size_t count = size_t(1) << 18; // 2 MiB of doubles: pooled
  const double *first;
  {
    Matrix a(512, 512);
    first = a.data();
  }
  TileMemoryStats kept = tileMemoryStats();
  ScratchBuffer scratch(count);
  EXPECT_EQ(scratch.data(), first);
  EXPECT_EQ(scratch.size(), count);
  EXPECT_EQ(tileMemoryStats().reusedBlocks, kept.reusedBlocks + 1);
  scratch.data()[count - 1] = 3.0;
  // Moving hands the block over; only its last owner gives it back.
  ScratchBuffer moved(std::move(scratch));
  EXPECT_EQ(scratch.data(), nullptr);
  EXPECT_EQ(moved.data(), first);
  EXPECT_EQ(moved.data()[count - 1], 3.0);
  moved = ScratchBuffer();
  EXPECT_EQ(moved.size(), 0u);
  EXPECT_EQ(tileMemoryStats().keptBytes, uint64_t(count * 8));
}

// A fresh pooled block comes with its pages already in the process (one
// MADV_POPULATE_WRITE per band), so the kernel that writes it takes no page
// faults. mincore is the oracle: resident pages before any write.
TEST_F(TileMemoryTest, FreshBlocksArriveWithTheirPages) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  void *probe = mmap(nullptr, page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(probe, MAP_FAILED);
  bool canPopulate = madvise(probe, page, MADV_POPULATE_WRITE) == 0;
  munmap(probe, page);
  if (!canPopulate)
    GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)";
  // Small pages, and a block of huge pages (populated in huge-page bands)
  // that ends part way into its last one.
  for (size_t bytes : {300 * page + 24, (size_t(5) << 20) + 24})
    for (int threads : {1, 2}) {
      setTaskThreads(threads);
      ASSERT_GE(bytes, kPooledBufferBytes);
      uint64_t fresh = tileMemoryStats().freshBlocks;
      void *block = allocateTileMemory(bytes);
      ASSERT_EQ(tileMemoryStats().freshBlocks, fresh + 1);
      size_t pages = (bytes + page - 1) / page;
      std::vector<unsigned char> resident(pages);
      ASSERT_EQ(mincore(block, pages * page, resident.data()), 0);
      for (size_t i = 0; i < pages; ++i)
        ASSERT_TRUE(resident[i] & 1)
            << "page " << i << " of " << pages << " on " << threads;
      releaseTileMemory(block, bytes);
      trimTileMemory();
    }
  setTaskThreads(1);
}

namespace {
/// A field of /proc/self/smaps for the mapping that holds `at` (e.g.
/// THPeligible: 1 when it may have transparent huge pages), or -1.
long smapsFieldAt(const void *at, const char *field) {
  std::FILE *f = std::fopen("/proc/self/smaps", "r");
  if (!f)
    return -1;
  char line[512];
  bool inside = false;
  long result = -1;
  const unsigned long where = reinterpret_cast<uintptr_t>(at);
  const size_t length = std::strlen(field);
  while (result < 0 && std::fgets(line, sizeof line, f)) {
    unsigned long begin, end;
    if (std::sscanf(line, "%lx-%lx ", &begin, &end) == 2) // a mapping's head
      inside = where >= begin && where < end;
    else if (inside && std::strncmp(line, field, length) == 0 &&
             line[length] == ':')
      result = std::strtol(line + length + 1, nullptr, 10);
  }
  std::fclose(f);
  return result;
}

bool kernelGivesHugePagesWhenAsked() {
  std::FILE *f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return false;
  char mode[128] = {};
  bool asked =
      std::fgets(mode, sizeof mode, f) && !std::strstr(mode, "[never]");
  std::fclose(f);
  return asked;
}
} // namespace

// Fresh pooled blocks come in transparent huge pages (one fault per 2 MiB:
// a 4 MiB tile's first write took 6.3 ms in 4 KiB pages on the development
// VM, 0.35 ms in huge ones). The kernel's own account of the mapping
// (smaps' THPeligible: aligned and advised) is the oracle.
TEST_F(TileMemoryTest, FreshBlocksComeInHugePages) {
  if (!kernelGivesHugePagesWhenAsked())
    GTEST_SKIP() << "transparent huge pages are off here (enabled = never)";
  const size_t huge = size_t(2) << 20, bytes = 2 * huge;
  void *block = allocateTileMemory(bytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % huge, 0u);
  std::memset(block, 1, bytes);
  EXPECT_EQ(smapsFieldAt(block, "THPeligible"), 1);
  // Whether the kernel found free huge pages is up to it; say what it did.
  std::printf("AnonHugePages of the block's mapping: %ld kB\n",
              smapsFieldAt(block, "AnonHugePages"));
  releaseTileMemory(block, bytes);
}

// A fresh block maps whole huge pages; what the request does not use stays
// kept (never unmapped: that would split the huge page), and the next
// requests take it.
TEST_F(TileMemoryTest, TheRestOfAFreshHugePageServesTheNextTiles) {
  if (!kernelGivesHugePagesWhenAsked())
    GTEST_SKIP() << "transparent huge pages are off here (enabled = never)";
  const size_t tile = 2000 * 32 * sizeof(double); // 500 KiB: k-means' D
  TileMemoryStats before = tileMemoryStats();
  char *first = static_cast<char *>(allocateTileMemory(tile));
  TileMemoryStats afterFirst = tileMemoryStats();
  EXPECT_EQ(afterFirst.freshBlocks, before.freshBlocks + 1);
  EXPECT_EQ(afterFirst.keptBytes, before.keptBytes + (2u << 20) - tile);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % (2u << 20), 0u);
  char *second = static_cast<char *>(allocateTileMemory(tile));
  EXPECT_EQ(tileMemoryStats().freshBlocks, afterFirst.freshBlocks);
  EXPECT_EQ(second, first + tile);
  std::memset(second, 2, tile); // its pages are there to be written
  // Past the cap too: with a cap of 0 (which unmaps what was kept) nothing
  // freed is kept, but the rest of a fresh huge page stays.
  setTileMemoryCap(0);
  char *third = static_cast<char *>(allocateTileMemory(3u << 20));
  EXPECT_EQ(tileMemoryStats().keptBytes, (4u << 20) - (3u << 20));
  releaseTileMemory(third, 3u << 20);
  releaseTileMemory(first, tile);
  releaseTileMemory(second, tile);
}

// The planner's first-touch bytes per fresh byte (MemoryTimeline.cpp), by
// hand: 2 MiB huge pages hold two 754 KB tiles (2097152 / 1508000), an
// 8.4 MB tile takes five (10485760 / 8.4e6), whole huge pages one each.
TEST(TouchedBytes, FollowTheHugePagesTheBlocksAreMappedIn) {
  const double huge = 2097152;
  EXPECT_NEAR(touchedBytesPerFreshByte(754000, huge), 1.390684, 1e-6);
  EXPECT_NEAR(touchedBytesPerFreshByte(8.4e6, huge), 1.248305, 1e-6);
  EXPECT_DOUBLE_EQ(touchedBytesPerFreshByte(4 * huge, huge), 1.0);
  EXPECT_DOUBLE_EQ(touchedBytesPerFreshByte(huge / 4, huge), 1.0);
  EXPECT_DOUBLE_EQ(touchedBytesPerFreshByte(754000, 0), 1.0);
  EXPECT_EQ(mappedBytes(3 << 20, size_t(huge)), size_t(4) << 20);
  EXPECT_EQ(mappedBytes(3 << 20, 0), size_t(3) << 20);
  // Bands from two huge pages on; without them, from RowBands' threshold.
  EXPECT_FALSE(populatedInBands(size_t(huge) * 2 - 4096, size_t(huge)));
  EXPECT_TRUE(populatedInBands(size_t(huge) * 2, size_t(huge)));
  EXPECT_TRUE(populatedInBands(size_t(huge), 0));
  EXPECT_FALSE(populatedInBands(4096, 0));
}

// The rule against the pool itself: the huge pages its fresh blocks map
// for a run of tiles of one size (fresh blocks x mapped bytes, each fresh
// block's rest kept for the next) are what the rule charges the tiles.
TEST_F(TileMemoryTest, FreshHugePagesAreWhatThePlannerCharges) {
  const size_t huge = hugePageBytes();
  if (!huge)
    GTEST_SKIP() << "transparent huge pages are off here (enabled = never)";
  for (size_t tile : {size_t(184) * 4096, size_t(2051) * 4096}) {
    trimTileMemory();
    const int count = 12;
    TileMemoryStats before = tileMemoryStats();
    std::vector<void *> tiles;
    for (int i = 0; i < count; ++i)
      tiles.push_back(allocateTileMemory(tile));
    TileMemoryStats after = tileMemoryStats();
    double mapped = double(after.freshBlocks - before.freshBlocks) *
                    double(mappedBytes(tile, huge));
    EXPECT_DOUBLE_EQ(mapped,
                     count * double(tile) *
                         touchedBytesPerFreshByte(double(tile), double(huge)))
        << tile;
    for (void *t : tiles)
      releaseTileMemory(t, tile);
  }
}

// The pool's live bytes and their peak: what a call needs at most (the
// planner's scratch counts are checked against it, FactorizationsTest).
TEST_F(TileMemoryTest, PeakLiveBytesFollowTheBlocksInUse) {
  const size_t a = 300 << 10, b = 700 << 10;
  TileMemoryStats before = tileMemoryStats();
  EXPECT_EQ(before.peakLiveBytes, before.liveBytes); // trimmed in SetUp
  void *x = allocateTileMemory(a);
  void *y = allocateTileMemory(b);
  releaseTileMemory(x, a);
  void *z = allocateTileMemory(a);
  TileMemoryStats during = tileMemoryStats();
  EXPECT_EQ(during.liveBytes, before.liveBytes + a + b);
  EXPECT_EQ(during.peakLiveBytes, before.liveBytes + a + b);
  releaseTileMemory(y, b);
  releaseTileMemory(z, a);
  EXPECT_EQ(tileMemoryStats().liveBytes, before.liveBytes);
  EXPECT_EQ(tileMemoryStats().peakLiveBytes, before.liveBytes + a + b);
  trimTileMemory();
  EXPECT_EQ(tileMemoryStats().peakLiveBytes, before.liveBytes);
}
