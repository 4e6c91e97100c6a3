//===- FirstTouch.h - The cost of writing fresh pages -----------*- C++ -*-===//
//
// A program's first write to memory it has not used before takes a page
// fault per page (and, on a virtual machine, often a fault in the
// hypervisor too): measured on the development VM 0.5-2.6 ns per byte,
// 10-80x a second write over the same buffer. The runtime reuses freed tile
// buffers (cmmrt/TileMemory.h), so a node pays this only as its tile memory
// grows past its previous peak; the model's `first_touch_s_per_byte` is the
// price of that growth.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_PROFILE_FIRSTTOUCH_H
#define CMM_PROFILE_FIRSTTOUCH_H

#include <cstddef>
#include <vector>

namespace cmm::profile {

struct FirstTouchSample {
  double firstSeconds = 0;  // writing the block the first time
  double secondSeconds = 0; // writing it again
  double bytes = 0;
  double perByte() const { return (firstSeconds - secondSeconds) / bytes; }
  /// Whether the first write paid for memory the host had to hand back:
  /// its extra time is kFreshToHostRatio times the second write's or more.
  /// Memory the guest freed a moment ago and the host has not taken yet
  /// costs 1.3-3.5 second writes here (0.06-0.13 ns/B), memory the host
  /// took back 50-80 (1.4-2.1 ns/B).
  bool freshToHost() const;
};

constexpr double kFreshToHostRatio = 10;

/// Which of `samples` price memory fresh to the host: those freshToHost()
/// whose extra time per byte is also kFreshShareOfSlowest of the largest
/// sample's or more. Reported and unreported blocks lie interleaved in the
/// guest's free lists, so a block can be partly of each: on 2026-12-01 a
/// profile's last three 64 MiB blocks took 47, 60 and 21 ms on two
/// threads (a second write 1.8 ms), all over ten second writes, where a
/// block wholly fresh takes 74-80 ms; the 21 ms block priced first touch
/// at 1.34 thread-ns per byte against 2.3 measured on fresh memory.
std::vector<bool>
freshToHostSamples(const std::vector<FirstTouchSample> &samples);

/// A fresh block's extra time per byte varies by a quarter between blocks
/// here; one partly of memory freed a moment ago costs a third to a half.
constexpr double kFreshShareOfSlowest = 0.6;

/// Whether this machine hands the memory its processes free back to the
/// hypervisor: a virtio balloon with free page reporting
/// (VIRTIO_BALLOON_F_REPORTING, feature bit 5, read from sysfs). Linux
/// starts reporting free blocks 2 s after they are freed and reports about
/// a sixteenth of a free list per 2 s pass, and it hands out the memory
/// freed last first; until a block is reported a new process gets it
/// without the hypervisor's faults (measured here: 0.07-0.2 ns per byte of
/// first touch against 2.1 on reported memory; 2 GiB freed left about 640
/// MiB unreported after 3 s, 128 MiB after 10 s). A program a user starts
/// writes into reported memory.
bool hostReclaimsFreedMemory();

/// Takes fresh blocks of `blockBytes` from the tile pool one after another
/// (cmmrt::allocateTileMemory: mapped new, since the pool starts empty, and
/// populated on the task threads), all kept until the end (a program's
/// footprint grows this way, into memory the process never had), and times
/// taking and writing each, then writing it again. Takes `minBlocks`
/// blocks; where `probeReclaimed` (the host reclaims freed memory), goes on
/// until the last kReclaimedBlocks of them were fresh to the host
/// (freshToHostSamples, judged against all the blocks so far), through
/// whatever other processes freed recently, up to `maxBlocks` in all. The
/// pool is emptied afterwards.
std::vector<FirstTouchSample> measureFirstTouch(size_t blockBytes,
                                                unsigned minBlocks,
                                                unsigned maxBlocks,
                                                bool probeReclaimed);

/// Blocks past the recently freed memory that price a reclaiming host's
/// first touch.
constexpr unsigned kReclaimedBlocks = 3;

/// The node's first-touch price in thread-seconds per byte, as the model
/// divides it over a node's task threads (Simulator.cpp): the median of the
/// samples' extra seconds per byte of the first write (never below 0) times
/// the `taskThreads` the pool populated them on; over the blocks fresh to
/// the host (freshToHostSamples) where `hostReclaims` and any was, else
/// over all of them. The
/// pool's banded populate does not scale with the threads (on this VM, two
/// threads: 754 KB tiles no faster, 67 MB blocks 1.5x), so pricing one
/// thread's write and dividing by the threads put a one-rank plan's first
/// touch at a third to two thirds of its time.
double firstTouchPerByte(const std::vector<FirstTouchSample> &samples,
                         bool hostReclaims, unsigned taskThreads);

} // namespace cmm::profile

#endif // CMM_PROFILE_FIRSTTOUCH_H
