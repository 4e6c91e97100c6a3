//===- OutputsTest.cpp - A program's outputs, in order, as they complete --===//

#include "cmmrt/Outputs.h"
#include "cmmrt/Format.h"
#include "cmmrt/MatrixIO.h"
#include "cmmrt/PlanTables.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>

using namespace cmmrt;
using namespace cmmrt::plan;

namespace {

/// A program `s = 2.5; print(m); save(PATH, m); print(m)` as a plan's
/// tables, with the values its outputs get once complete.
struct Program {
  explicit Program(const std::string &savePath) : tables(1) {
    path = savePath;
    scalar = add(OpCode::PrintScalar, "s", 1, 1, 2.5);
    first = add(OpCode::Print, "m", 2, 2);
    save = add(OpCode::Save, path.c_str(), 2, 2);
    last = add(OpCode::Print, "n", 1, 3);
    int32_t rand = add(OpCode::Rand, "r", 2, 2);
    int32_t tile = tables.task(TaskKind::Generate, rand, 0, {}, 2, 2);
    for (int32_t op : {first, save, last})
      tables.task(TaskKind::Gather, op, 0, {tile});
  }
  int32_t add(OpCode code, const char *text, int64_t rows, int64_t cols,
              double value = 0) {
    Op o{};
    o.code = code;
    o.text = text;
    o.rows = rows;
    o.cols = cols;
    o.scalar = value;
    o.line = ++lines;
    o.column = 1;
    return tables.op(o);
  }
  std::function<CompleteOutput(int32_t)> find() {
    return [this](int32_t op) {
      if (auto m = matrices.find(op); m != matrices.end())
        return CompleteOutput{nullptr, &m->second};
      if (auto l = lines_.find(op); l != lines_.end())
        return CompleteOutput{&l->second, nullptr};
      return CompleteOutput{};
    };
  }

  PlanTables tables;
  std::string path;
  int32_t scalar, first, save, last;
  int lines = 0;
  std::map<int32_t, Matrix> matrices;
  std::map<int32_t, std::string> lines_;
};

Matrix values(int64_t rows, int64_t cols, double start) {
  Matrix m(rows, cols);
  for (int64_t e = 0; e < m.size(); ++e)
    m.data()[e] = start + double(e);
  return m;
}

std::string tempPath(const char *name) {
  return ::testing::TempDir() + name + std::to_string(::getpid()) + ".npy";
}

} // namespace

// Each output is written as soon as it and every one before it are
// complete, and never before an earlier one.
TEST(Outputs, WrittenInSourceOrderAsTheyComplete) {
  Program p(tempPath("outputs-order"));
  std::remove(p.path.c_str());
  const Plan &plan = p.tables.finish("order.cmm");
  OutputWriter writer(plan);

  ::testing::internal::CaptureStdout();
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  EXPECT_EQ(writer.written(), 1); // the scalar needs nothing
  p.lines_[p.last] = "n 1x3 (made from tiles)";
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  EXPECT_EQ(writer.written(), 1); // the last waits for the first and save
  p.matrices[p.first] = values(2, 2, 1);
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  EXPECT_EQ(writer.written(), 2);
  EXPECT_NE(::access(p.path.c_str(), F_OK), 0); // not saved yet
  p.matrices[p.save] = values(2, 2, 10);
  EXPECT_TRUE(writer.writeComplete(p.last, p.find())); // up to `last`
  EXPECT_EQ(writer.written(), 3);
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  EXPECT_EQ(writer.written(), 4);
  EXPECT_TRUE(writer.finish());
  std::string out = ::testing::internal::GetCapturedStdout();

  EXPECT_EQ(out, formatScalar("s", 2.5) + "\n" +
                     formatSummary("m", values(2, 2, 1)) + "\n" +
                     "n 1x3 (made from tiles)\n");
  Matrix saved;
  std::string error;
  ASSERT_TRUE(readMatrix(p.path, saved, error)) << error;
  ASSERT_EQ(saved.size(), 4);
  for (int64_t e = 0; e < 4; ++e)
    EXPECT_EQ(saved.data()[e], 10.0 + double(e));
  std::remove(p.path.c_str());
}

// A save that fails is reported in the compiled programs' format (rank,
// location, task) and nothing after it is written.
TEST(Outputs, AFailedSaveStopsTheWriting) {
  Program p("/nonexistent-dir/out.npy");
  const Plan &plan = p.tables.finish("fail.cmm");
  OutputWriter writer(plan);
  p.matrices[p.first] = values(2, 2, 1);
  p.matrices[p.save] = values(2, 2, 1);
  p.lines_[p.last] = "n line";
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(writer.writeComplete(INT32_MAX, p.find()));
  std::string err = ::testing::internal::GetCapturedStderr();
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_FALSE(writer.ok());
  EXPECT_FALSE(writer.finish());
  EXPECT_EQ(out.find("n line"), std::string::npos) << out;
  EXPECT_EQ(err.rfind("cmm: rank 0: fail.cmm:3:1: error: "
                      "'/nonexistent-dir/out.npy': ",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("(task 'task')"), std::string::npos) << err;
}

// After the run every output must have been written.
TEST(Outputs, FinishReportsAnOutputNeverGathered) {
  Program p(tempPath("outputs-missing"));
  const Plan &plan = p.tables.finish("missing.cmm");
  OutputWriter writer(plan);
  p.matrices[p.first] = values(2, 2, 1);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  EXPECT_FALSE(writer.finish());
  std::string err = ::testing::internal::GetCapturedStderr();
  ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(writer.written(), 2);
  EXPECT_NE(err.find("missing.cmm:3:1: error: internal: no gathered result"),
            std::string::npos)
      << err;
}

// With --dump-prints, each printed matrix also goes to DIR/print<N>.npy.
TEST(Outputs, PrintedMatricesAreDumpedInOrder) {
  Program p(tempPath("outputs-dump"));
  const Plan &plan = p.tables.finish("dump.cmm");
  std::string dir = ::testing::TempDir();
  OutputWriter writer(plan, dir);
  p.matrices[p.first] = values(2, 2, 5);
  p.matrices[p.save] = values(2, 2, 1);
  p.matrices[p.last] = values(1, 3, 7);
  ::testing::internal::CaptureStdout();
  EXPECT_TRUE(writer.writeComplete(INT32_MAX, p.find()));
  ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(writer.finish());
  Matrix print0, print1;
  std::string error;
  ASSERT_TRUE(readMatrix(dir + "/print0.npy", print0, error)) << error;
  ASSERT_TRUE(readMatrix(dir + "/print1.npy", print1, error)) << error;
  EXPECT_EQ(print0.data()[3], 8.0);
  EXPECT_EQ(print1.cols(), 3);
  EXPECT_EQ(print1.data()[2], 9.0);
  std::remove((dir + "/print0.npy").c_str());
  std::remove((dir + "/print1.npy").c_str());
  std::remove(p.path.c_str());
}
