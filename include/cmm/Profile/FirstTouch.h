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
};

/// Maps `blocks` fresh blocks of `blockBytes` one after another, all kept
/// mapped until the end (a program's footprint grows this way, into memory
/// the process never had), and times writing each one twice, the first
/// time after populating its pages as the tile pool does
/// (cmmrt::populateFreshPages).
std::vector<FirstTouchSample> measureFirstTouch(size_t blockBytes,
                                                unsigned blocks);

/// The median of the later half of the samples' extra seconds per byte of
/// the first write (never below 0). The kernel hands out the memory freed
/// last first, and on a host that takes freed memory back, what was freed
/// in the last seconds is not yet reported and faults in at a thirtieth of
/// the price (a 2-rank profile started after a 1-rank one, blocks in order:
/// 0.08, 0.07, 1.83, 1.69 ns/B); the later blocks are past it, where a
/// program's large tiles are.
double firstTouchPerByte(const std::vector<FirstTouchSample> &samples);

/// Whether this machine hands the memory its processes free back to the
/// hypervisor: a virtio balloon with free page reporting
/// (VIRTIO_BALLOON_F_REPORTING, feature bit 5, read from sysfs). Linux
/// starts reporting free blocks 2 s after they are freed and reports about
/// a sixteenth of a free list per 2 s pass; until a block is reported a new
/// process gets it without the hypervisor's faults (measured here: 0.07-0.2
/// ns per byte of first touch against 2.1 on reported memory; 2 GiB freed
/// left about 640 MiB unreported after 3 s, 128 MiB after 10 s), so a
/// program's first touch costs what it costs only on memory freed long
/// enough ago, as when a user starts a program.
bool hostReclaimsFreedMemory();

/// The seconds to wait, on such a machine, before timing first touch:
/// Linux's page-reporting delay (2 s) and one pass. Not enough after a
/// large free (above), which firstTouchPerByte's later half allows for.
constexpr double kFreedMemoryReportingSeconds = 3.0;

} // namespace cmm::profile

#endif // CMM_PROFILE_FIRSTTOUCH_H
