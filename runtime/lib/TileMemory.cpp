//===- TileMemory.cpp - Reused page-backed storage for tiles --------------===//

#include "cmmrt/TileMemory.h"
#include "cmmrt/RowBands.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace cmmrt;

namespace {
size_t pageSize() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

/// Pooled blocks are whole pages.
size_t pooledBytes(size_t bytes) {
  size_t page = pageSize();
  return (bytes + page - 1) / page * page;
}

/// The kept (freed, still mapped) pages: runs of pages by address, adjacent
/// runs merged, and by size for best fit. A request takes the smallest run
/// that holds it and leaves the rest of the run kept, so tiles of another
/// shape reuse the pages of freed ones, as the planner's first-touch model
/// assumes (only bytes above the node's peak are fresh): with runs reused
/// for their size only, the ragged tiles of an 8000 x 8000 rand at tile
/// 5600 faulted 0.5 s of pages the model had as reused.
struct Pool {
  std::mutex mutex;
  std::map<uintptr_t, size_t> byAddress;
  std::multimap<size_t, uintptr_t> bySize;
  TileMemoryStats stats;
  size_t cap = 0;

  Pool() {
    long pages = sysconf(_SC_PHYS_PAGES);
    cap = pages > 0 ? size_t(pages) * pageSize() / 4 : size_t(1) << 30;
  }
  void insert(uintptr_t at, size_t bytes) {
    byAddress[at] = bytes;
    bySize.emplace(bytes, at);
  }
  void erase(std::map<uintptr_t, size_t>::iterator it) {
    auto [first, last] = bySize.equal_range(it->second);
    for (auto s = first; s != last; ++s)
      if (s->second == it->first) {
        bySize.erase(s);
        break;
      }
    byAddress.erase(it);
  }
  /// Keeps [at, at + bytes), merged with the kept runs it touches.
  void keep(uintptr_t at, size_t bytes) {
    auto next = byAddress.lower_bound(at);
    if (next != byAddress.begin())
      if (auto prev = std::prev(next); prev->first + prev->second == at) {
        at = prev->first;
        bytes += prev->second;
        erase(prev);
      }
    if (next != byAddress.end() && at + bytes == next->first) {
      bytes += next->second;
      erase(next);
    }
    insert(at, bytes);
  }
  /// The start of `bytes` kept pages (the smallest run that holds them, its
  /// rest kept), or 0.
  uintptr_t take(size_t bytes) {
    auto fit = bySize.lower_bound(bytes);
    if (fit == bySize.end())
      return 0;
    uintptr_t at = fit->second;
    size_t run = fit->first;
    erase(byAddress.find(at));
    if (run > bytes)
      insert(at + bytes, run - bytes);
    return at;
  }
  /// Unmaps every kept run; the caller holds the mutex.
  void unmapKept() {
    for (auto [at, bytes] : byAddress)
      munmap(reinterpret_cast<void *>(at), bytes);
    byAddress.clear();
    bySize.clear();
    stats.keptBytes = 0;
  }
};

Pool &pool() {
  static Pool *instance = new Pool(); // never destroyed: tiles may outlive
  return *instance;                   // static destructors
}
} // namespace

size_t cmmrt::hugePageBytes() {
  static const size_t bytes = [] {
    auto readLine = [](const char *path) {
      std::string line;
      if (FILE *f = std::fopen(path, "r")) {
        char buffer[128];
        if (std::fgets(buffer, sizeof buffer, f))
          line = buffer;
        std::fclose(f);
      }
      return line;
    };
    if (readLine("/sys/kernel/mm/transparent_hugepage/enabled")
            .find("[never]") != std::string::npos)
      return size_t(0);
    size_t huge = size_t(std::strtoull(
        readLine("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size").c_str(),
        nullptr, 10));
    // A sane power of two above the page size, or none.
    return huge > pageSize() && (huge & (huge - 1)) == 0 ? huge : size_t(0);
  }();
  return bytes;
}

size_t cmmrt::mappedBytes(size_t bytes, size_t hugePage) {
  return hugePage ? (bytes + hugePage - 1) / hugePage * hugePage : bytes;
}

bool cmmrt::populatedInBands(size_t bytes, size_t hugePage) {
  return hugePage ? bytes >= 2 * hugePage
                  : bytes / sizeof(double) >= size_t(kMinBandedElements);
}

double cmmrt::touchedBytesPerFreshByte(double bytes, double hugePage) {
  if (!(hugePage > 0) || !(bytes > 0))
    return 1;
  if (bytes < hugePage)
    return hugePage / (std::floor(hugePage / bytes) * bytes);
  return double(mappedBytes(size_t(std::ceil(bytes)), size_t(hugePage))) /
         bytes;
}

void *cmmrt::mapFreshMemory(size_t bytes) {
  size_t huge = hugePageBytes();
  if (!huge || bytes < huge) {
    void *block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return block == MAP_FAILED ? nullptr : block;
  }
  // Over-map by one huge page and unmap the unaligned ends.
  size_t span = bytes + huge;
  void *mapped = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return nullptr;
  char *raw = static_cast<char *>(mapped);
  char *start = reinterpret_cast<char *>(
      (reinterpret_cast<uintptr_t>(raw) + huge - 1) / huge * huge);
  if (start > raw)
    munmap(raw, size_t(start - raw));
  if (char *end = start + bytes; end < raw + span)
    munmap(end, size_t(raw + span - end));
  // Failure (a kernel without THP) leaves ordinary pages.
  (void)madvise(start, bytes, MADV_HUGEPAGE);
  return start;
}

void cmmrt::populateFreshPages(void *block, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  // Bands of whole pages (whole huge pages in a block of them: a huge page
  // is faulted in at once); each page counts as its doubles toward the
  // banding threshold.
  size_t page = pageSize();
  if (size_t huge = hugePageBytes();
      huge && populatedInBands(bytes, huge) &&
      reinterpret_cast<uintptr_t>(block) % huge == 0)
    page = huge;
  char *first = static_cast<char *>(block);
  // The last band ends with the block, part way into its last (huge) page.
  int64_t pages = int64_t((bytes + page - 1) / page);
  forEachRowBandIfFree(
      pages, int64_t(page / sizeof(double)), [&](int64_t begin, int64_t end) {
        size_t from = size_t(begin) * page;
        size_t to = std::min(size_t(end) * page, bytes);
        // Failure (an old kernel, or no memory yet) leaves the pages to
        // fault when written, which reports a lack of memory as it did.
        (void)madvise(first + from, to - from, MADV_POPULATE_WRITE);
      });
#else
  (void)block;
  (void)bytes;
#endif
}

void cmmrt::keepFreedHeapMemory() {
#ifdef M_TRIM_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, int(kMallocMmapThresholdBytes));
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

void *cmmrt::allocateTileMemory(size_t bytes) {
  if (bytes < kPooledBufferBytes) {
    if (void *p = std::malloc(bytes ? bytes : 1))
      return p;
    throw std::bad_alloc();
  }
  size_t size = pooledBytes(bytes);
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.stats.liveBytes += size;
    p.stats.peakLiveBytes = std::max(p.stats.peakLiveBytes, p.stats.liveBytes);
    if (uintptr_t at = p.take(size)) {
      p.stats.keptBytes -= size;
      ++p.stats.reusedBlocks;
      return reinterpret_cast<void *>(at);
    }
    ++p.stats.freshBlocks;
    p.stats.freshBytes += size;
  }
  size_t mapped = mappedBytes(size, hugePageBytes());
  void *block = mapFreshMemory(mapped);
  if (!block) {
    // Kept blocks of other sizes may be what is missing.
    std::lock_guard<std::mutex> lock(p.mutex);
    p.unmapKept();
    block = mapFreshMemory(mapped);
    if (!block) {
      p.stats.liveBytes -= size;
      throw std::bad_alloc();
    }
  }
  if (mapped > size) {
    // Kept even past the cap (by less than a huge page): unmapped, it would
    // split the huge page the new block lives in.
    std::lock_guard<std::mutex> lock(p.mutex);
    p.keep(reinterpret_cast<uintptr_t>(block) + size, mapped - size);
    p.stats.keptBytes += mapped - size;
  }
  populateFreshPages(block, size);
  return block;
}

void cmmrt::releaseTileMemory(void *block, size_t bytes) {
  if (!block)
    return;
  if (bytes < kPooledBufferBytes) {
    std::free(block);
    return;
  }
  size_t size = pooledBytes(bytes);
  Pool &p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.stats.liveBytes -= size;
    if (p.stats.keptBytes + size <= p.cap) {
      p.keep(reinterpret_cast<uintptr_t>(block), size);
      p.stats.keptBytes += size;
      return;
    }
  }
  munmap(block, size);
}

TileMemoryStats cmmrt::tileMemoryStats() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.stats;
}

void cmmrt::trimTileMemory() {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.unmapKept();
  p.stats.peakLiveBytes = p.stats.liveBytes;
}

void cmmrt::setTileMemoryCap(size_t bytes) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.cap = bytes;
  if (p.stats.keptBytes > bytes)
    p.unmapKept();
}
