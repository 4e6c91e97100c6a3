//===- TimelineTest.cpp - Busy intervals of one resource ------------------===//
//
// Insertion-based slots (HEFT) and the busy time the worker tie-break reads,
// against hand-computed values.
//
//===----------------------------------------------------------------------===//

#include "Timeline.h"

#include <gtest/gtest.h>

using cmm::scheduling::Timeline;

TEST(Timeline, EarliestUsesGapsBetweenReservations) {
  Timeline t;
  t.reserve(10, 20);
  t.reserve(0, 4); // out of order: kept sorted
  t.reserve(25, 30);
  EXPECT_EQ(t.earliest(0, 4), 4);   // after [0,4): gap [4,10) fits 4
  EXPECT_EQ(t.earliest(0, 7), 30);  // no gap of 7 before the end
  EXPECT_EQ(t.earliest(5, 5), 5);   // [5,10) fits 5 exactly
  EXPECT_EQ(t.earliest(6, 5), 20);  // [6,10) is short; [20,25) fits 5
  EXPECT_EQ(t.earliest(12, 1), 20); // ready inside a busy interval
  EXPECT_EQ(t.earliest(31, 3), 31); // after everything
  ASSERT_EQ(t.intervals().size(), 3u);
  EXPECT_EQ(t.intervals().front().first, 0);
}

TEST(Timeline, BusyTimeIsTheSumOfReservedIntervals) {
  Timeline t;
  EXPECT_EQ(t.busyTime(), 0);
  t.reserve(10, 20);
  t.reserve(0, 4);
  t.reserve(5, 5); // zero length: occupies nothing
  t.reserve(25, 30);
  EXPECT_EQ(t.busyTime(), 10 + 4 + 5);
  EXPECT_EQ(t.intervals().size(), 3u);
}
