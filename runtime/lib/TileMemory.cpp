//===- TileMemory.cpp - Reused page-backed storage for tiles --------------===//

#include "cmmrt/TileMemory.h"

#include <climits>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace cmmrt;

namespace {
size_t pageSize() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

/// Pooled blocks are whole pages; a request is served by a kept block of
/// the same page count (tiles of one plan come in a few shapes).
size_t pooledBytes(size_t bytes) {
  size_t page = pageSize();
  return (bytes + page - 1) / page * page;
}

struct Pool {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void *>> kept; // by block bytes
  TileMemoryStats stats;
  size_t cap = 0;

  Pool() {
    long pages = sysconf(_SC_PHYS_PAGES);
    cap = pages > 0 ? size_t(pages) * pageSize() / 4 : size_t(1) << 30;
  }
  /// Unmaps every kept block; the caller holds the mutex.
  void unmapKept() {
    for (auto &[bytes, blocks] : kept)
      for (void *block : blocks)
        munmap(block, bytes);
    kept.clear();
    stats.keptBytes = 0;
  }
};

Pool &pool() {
  static Pool *instance = new Pool(); // never destroyed: tiles may outlive
  return *instance;                   // static destructors
}
} // namespace

void cmmrt::keepFreedHeapMemory() {
#ifdef M_TRIM_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, int(kPooledBufferBytes));
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
    auto it = p.kept.find(size);
    if (it != p.kept.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      p.stats.keptBytes -= size;
      ++p.stats.reusedBlocks;
      return block;
    }
    ++p.stats.freshBlocks;
    p.stats.freshBytes += size;
  }
  void *block = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) {
    // Kept blocks of other sizes may be what is missing.
    std::lock_guard<std::mutex> lock(p.mutex);
    p.unmapKept();
    block = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED)
      throw std::bad_alloc();
  }
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
    if (p.stats.keptBytes + size <= p.cap) {
      p.kept[size].push_back(block);
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
}

void cmmrt::setTileMemoryCap(size_t bytes) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.cap = bytes;
  if (p.stats.keptBytes > bytes)
    p.unmapKept();
}
