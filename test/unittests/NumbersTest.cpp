//===- NumbersTest.cpp - Shortest number text, splitmix64, traces ---------===//

#include "cmmrt/Numbers.h"
#include "cmmrt/ChromeTrace.h"
#include "cmmrt/Plan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

using namespace cmmrt;

TEST(Numbers, ShortestReadsBackExactly) {
  std::mt19937_64 gen(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = gen();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x))
      continue;
    std::string text = shortest(x);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
    // Shortest: no longer than the %.*g form with the fewest digits that
    // reads back (to_chars may print an integer in full when that is
    // shorter than its exponent form).
    char buffer[40];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
      if (std::strtod(buffer, nullptr) == x)
        break;
    }
    EXPECT_LE(text.size(), std::strlen(buffer)) << text << " " << buffer;
  }
}

TEST(Numbers, ShortestHandExamples) {
  EXPECT_EQ(shortest(0.1), "0.1");
  EXPECT_EQ(shortest(1.0), "1");
  EXPECT_EQ(shortest(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(shortest(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(shortest(std::nan(""), "NaN", "Inf"), "NaN");
  EXPECT_EQ(shortest(-std::numeric_limits<double>::infinity(), "NaN", "Inf"),
            "-Inf");
}

// splitmix64's reference outputs for the seed 0 (Vigna's splitmix64.c: the
// state advances by the golden gamma before each mix, as mix64 does).
TEST(Numbers, Mix64IsSplitmix64) {
  EXPECT_EQ(mix64(0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(mix64(0x9e3779b97f4a7c15ULL), 0x6e789e6aa1b965f4ULL);
  static_assert(mix64(1) != mix64(0), "usable in constant expressions");
}

TEST(CostClasses, NamesRoundTrip) {
  for (unsigned c = 0; c < plan::kNumCostClasses; ++c) {
    plan::CostClass parsed;
    const char *name = plan::costClassName(plan::CostClass(c));
    ASSERT_TRUE(plan::costClassFromName(name, parsed)) << name;
    EXPECT_EQ(unsigned(parsed), c);
  }
  EXPECT_EQ(plan::kNumCostClasses, 31u);
  EXPECT_STREQ(plan::costClassName(plan::CostClass::Map), "map");
  EXPECT_STREQ(plan::costClassName(plan::CostClass::Tanh), "tanh");
  EXPECT_STREQ(plan::costClassName(plan::CostClass::Potrf), "potrf");
  plan::CostClass unused;
  EXPECT_FALSE(plan::costClassFromName("cosh", unused));
  // Fallbacks are base classes, and base classes are their own.
  for (unsigned c = 0; c < plan::kNumCostClasses; ++c) {
    plan::CostClass f = plan::costClassFallback(plan::CostClass(c));
    EXPECT_EQ(plan::costClassFallback(f), f);
  }
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Tanh),
            plan::CostClass::Map);
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Randn),
            plan::CostClass::Generate);
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Gemm),
            plan::CostClass::Gemm);
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Sparse),
            plan::CostClass::Gemm);
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Compress),
            plan::CostClass::Reduce);
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Fused),
            plan::CostClass::Elementwise);
  EXPECT_STREQ(plan::costClassName(plan::CostClass::SvdVals), "svdvals");
  EXPECT_EQ(plan::costClassFallback(plan::CostClass::Lstsq),
            plan::CostClass::Solve);
}

TEST(ChromeTrace, JsonStringsAreEscapedAndUtf8) {
  std::string out;
  trace::appendJsonString(out, "a\"b\\c\nd\x01");
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\u000ad\\u0001\"");
  out.clear();
  // Valid 2- and 4-byte sequences pass; a lone continuation byte, an
  // overlong '/' and a truncated sequence become U+FFFD.
  trace::appendJsonString(out,
                          "\xc3\xa9\xf0\x9f\x98\x80|\x80|\xc0\xaf|\xe2\x82");
  EXPECT_EQ(out, "\"\xc3\xa9\xf0\x9f\x98\x80|\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf"
                 "\xbd|\xef\xbf\xbd\xef\xbf\xbd\"");
}

TEST(ChromeTrace, EventsAndDocument) {
  trace::EventList events;
  events.metadata("process_name", 1, 1,
                  trace::JsonObject().string("name", "node 0 (master)"));
  events.complete("gemm 1", "gemm", 1, 2, 0.5, 0.25,
                  trace::JsonObject().number("m", 64));
  events.instant("put A", "cache", 2, 3, 1e-3);
  trace::JsonObject other;
  other.number("makespan_s", 0.75).number("bad", std::nan(""));
  EXPECT_EQ(trace::traceDocument(events, other),
            "{\"traceEvents\":[\n"
            "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
            "\"args\":{\"name\":\"node 0 (master)\"}},\n"
            "{\"name\":\"gemm 1\",\"cat\":\"gemm\",\"ph\":\"X\",\"pid\":1,"
            "\"tid\":2,\"ts\":5e+05,\"dur\":250000,\"args\":{\"m\":64}},\n"
            "{\"name\":\"put A\",\"cat\":\"cache\",\"ph\":\"i\",\"s\":\"t\","
            "\"pid\":2,\"tid\":3,\"ts\":1000}\n"
            "],\"displayTimeUnit\":\"ms\",\"otherData\":{\"makespan_s\":0.75,"
            "\"bad\":null}}\n");
}
