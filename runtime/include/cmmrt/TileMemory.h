//===- TileMemory.h - Reused page-backed storage for tiles ------*- C++ -*-===//
//
// Where the runtime's matrices keep their elements. A fresh buffer costs its
// page faults when it is first written (about 0.5-2.6 ns per byte measured
// on the development VM, 10-80x a second write), and glibc maps every
// buffer above its mmap threshold (at most 32 MiB) afresh and unmaps it on
// free, so a program that makes and drops tiles of one size paid those
// faults for every tile. Large buffers come from a pool instead: a freed
// block is kept (within a cap), adjacent kept pages merged, and the next
// request is served from the smallest kept run that holds it (the rest
// stays kept), so a node's pages are faulted once, up to the high-water
// mark of its live tiles, whatever their shapes, and a fresh block's pages
// are faulted in when it is mapped, in one system call per task thread
// (populateFreshPages). That is what the planner's time model charges
// (first touch of the bytes above the node's previous peak, in whole huge
// pages, over the task's threads from two huge pages on:
// touchedBytesPerFreshByte, populatedInBands; docs/machine-model.md).
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_TILEMEMORY_H
#define CMMRT_TILEMEMORY_H

#include <cstddef>
#include <cstdint>
#include <utility>

namespace cmmrt {

/// Buffers of at least this many bytes are pooled; smaller ones come from
/// malloc, whose heap reuses them already. The pool populates a fresh
/// block on every task thread before the kernel writes it, where the heap's
/// fresh pages fault one by one inside the kernel: with a threshold of 1 MiB,
/// k-means' 1 MB tiles of `2 * X` took 0.6 ms each against 0.26 ms for the
/// same work in populated pages, and the program went 67 -> 60 ms (paired
/// runs, 2026-11-30) at 64 KiB.
constexpr size_t kPooledBufferBytes = size_t(1) << 16;

/// Allocations other than tiles (kernels' scratch vectors) come from malloc;
/// from this size it maps each afresh (and unmaps it on free), below it they
/// stay in its heap. glibc's default threshold moves with the program's
/// frees; a fixed one keeps the behaviour the planner was measured with (at
/// 64 KiB, k-means' products took 20-30 % longer).
constexpr size_t kMallocMmapThresholdBytes = size_t(1) << 20;

/// Makes malloc keep the memory freed tiles give back (no trimming of its
/// heap, nothing below kMallocMmapThresholdBytes served by a fresh mapping),
/// so small tiles, like pooled ones, fault their pages in once, up to the
/// peak (glibc otherwise trims and remaps: a plan of 320 KB tiles, heap tiles
/// until 2026-11-30, paid page faults on most of them, 3-8x their time).
/// Generated programs and cmm-profile call it first.
void keepFreedHeapMemory();

/// A block of at least `bytes` bytes (page aligned when pooled). Like
/// operator new, throws std::bad_alloc when the system has no memory left
/// (after unmapping the kept blocks), so it never returns nullptr.
void *allocateTileMemory(size_t bytes);
/// Fresh anonymous memory of `bytes` (whole pages), or nullptr. From one
/// transparent huge page up it is aligned to them and advised to use them
/// (MADV_HUGEPAGE; on a kernel that gives them only when asked, as
/// Debian's): one fault per 2 MiB instead of 512. On the development VM
/// (2026-11-30, a Firecracker guest) a 4 KiB fault took 5-14 us: a 4 MiB
/// tile's first write 6.3 ms in small pages, 0.35 ms in huge ones, and a
/// second write of 64 MiB 3.1 against 2.0 ms (fewer TLB misses). The pool
/// maps its fresh blocks in whole huge pages and keeps the rest of the last
/// one for the next requests (never unmapping part of a huge page in use,
/// which splits it into small pages: with the rest unmapped instead,
/// k-means ran 0.12 s against 0.076). Unmapped with munmap(block, bytes).
void *mapFreshMemory(size_t bytes);
/// Faults in the pages of [block, block + bytes) for writing, one system
/// call per band of the task's threads (MADV_POPULATE_WRITE, Linux 5.14;
/// without it the pages fault when first written, as before). The pool
/// does this for every fresh block: mapping 128 MiB so took 0.048 s on one
/// thread against 0.070 s for faulting it page by page as it is written,
/// 0.036 against 0.045 s on two (development VM, written after either way).
void populateFreshPages(void *block, size_t bytes);
/// Returns a block from allocateTileMemory(bytes) (the same `bytes`).
void releaseTileMemory(void *block, size_t bytes);

/// The size of this node's transparent huge pages (hpage_pmd_size), or 0
/// when the kernel has none or will not give them (enabled = never).
/// cmm-profile records it in the machine model ("huge_page_bytes").
size_t hugePageBytes();
/// The bytes the pool maps for a fresh block of `bytes` on a node with huge
/// pages of `hugePage` bytes (0: none): whole huge pages.
size_t mappedBytes(size_t bytes, size_t hugePage);
/// Whether populateFreshPages faults a fresh block of `bytes` in on the
/// task's threads in parallel: in bands of whole huge pages from two of them
/// (a smaller block lies in one or two huge pages, whose first touch faults
/// each at once, whichever thread makes it), without huge pages in bands of
/// small pages from RowBands' threshold.
bool populatedInBands(size_t bytes, size_t hugePage);
/// Bytes of pages a fresh block of `bytes` faults in per byte of it, over the
/// blocks of its size: the pool maps whole huge pages and serves the next
/// requests from the rest of the last one, so a block of b < H faults H for
/// every floor(H / b) blocks (754 KB tiles: 1.39) and one of b >= H faults
/// ceil(b / H) H (8.4 MB: 1.25). The planner charges first touch by it
/// (MemoryTimeline.cpp): dft n = 1024 on one rank, on memory the host had
/// reclaimed, faulted 31-32 ms where the bytes alone gave 11 and this 31
/// (2026-11-30, docs/planner.md).
double touchedBytesPerFreshByte(double bytes, double hugePage);

struct TileMemoryStats {
  uint64_t freshBlocks = 0;  // pooled-size requests served by new pages
  uint64_t reusedBlocks = 0; // ... served by kept pages
  uint64_t freshBytes = 0;   // bytes of the fresh blocks
  uint64_t keptBytes = 0;    // bytes kept in the pool now
  uint64_t liveBytes = 0;    // bytes of pooled-size blocks in use now
  uint64_t peakLiveBytes = 0; // the most liveBytes since the last trim
};
TileMemoryStats tileMemoryStats();
/// Unmaps every kept block (the pool starts empty again) and starts the
/// peak of live bytes again from the live bytes.
void trimTileMemory();
/// The most bytes the pool keeps unused (default: a quarter of physical
/// memory); blocks freed beyond it are unmapped.
void setTileMemoryCap(size_t bytes);

/// An uninitialised array of doubles in tile memory: scratch buffers that
/// are made per call (a distributed product's messages, pieces and partial
/// results) reuse kept pages as tiles do. From malloc's fresh mappings they
/// paid their page faults on every call: 56 ms of a 2-rank product's 100 ms
/// (512 x 512 x 4096, 24 MB of buffers at about 0.6 ns per byte).
class ScratchBuffer {
public:
  ScratchBuffer() = default;
  explicit ScratchBuffer(size_t count)
      : data_(count ? static_cast<double *>(
                          allocateTileMemory(count * sizeof(double)))
                    : nullptr),
        count_(count) {}
  ScratchBuffer(ScratchBuffer &&o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        count_(std::exchange(o.count_, 0)) {}
  ScratchBuffer &operator=(ScratchBuffer &&o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  ScratchBuffer(const ScratchBuffer &) = delete;
  ScratchBuffer &operator=(const ScratchBuffer &) = delete;
  ~ScratchBuffer() { release(); }

  double *data() { return data_; }
  const double *data() const { return data_; }
  size_t size() const { return count_; }

private:
  void release() {
    if (data_)
      releaseTileMemory(data_, count_ * sizeof(double));
    data_ = nullptr;
    count_ = 0;
  }
  double *data_ = nullptr;
  size_t count_ = 0;
};

/// std::allocator's interface over the pool, for Matrix's element vector.
template <typename T> struct TileAllocator {
  using value_type = T;
  TileAllocator() = default;
  template <typename U> TileAllocator(const TileAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(allocateTileMemory(n * sizeof(T)));
  }
  void deallocate(T *p, size_t n) { releaseTileMemory(p, n * sizeof(T)); }
  /// Elements made without a value are left as they are (a vector of n
  /// doubles is not zeroed; Matrix's constructor gives its value), so a
  /// task that writes every element of its result writes each element
  /// once, with no pass that only zeroes the pages.
  template <typename U> void construct(U *p) noexcept {
    ::new (static_cast<void *>(p)) U;
  }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U> bool operator==(const TileAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const TileAllocator<U> &) const {
    return false;
  }
};

} // namespace cmmrt

#endif // CMMRT_TILEMEMORY_H
