//===- FuzzMatrixReader.cpp - libFuzzer: the .npy, .mtx and .csv readers --===//
//
// Writes the input to a file with the extension CMM_FUZZ_FORMAT names (set
// at compile time: one target per format) and reads it back as the program's
// `load` does: its shape first, then the whole matrix. A bad file must give
// an error message; a header claiming more elements than the file holds
// must be refused before anything is allocated (-rss_limit_mb catches it;
// shapes over 256 MiB are only read as shapes).
//
//===----------------------------------------------------------------------===//

#include "cmmrt/MatrixIO.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#ifndef CMM_FUZZ_FORMAT
#error "CMM_FUZZ_FORMAT (npy, mtx or csv) is set by test/Fuzz/CMakeLists.txt"
#endif

static const std::string &path() {
  static const std::string p = [] {
    const char *dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/cmm-fuzz-" +
           std::to_string(getpid()) + "." CMM_FUZZ_FORMAT;
  }();
  return p;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = std::fopen(path().c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0)
    std::abort(); // the fuzzer's own file, not a finding in cmm
  cmmrt::MatrixShape shape;
  std::string error;
  bool shaped = cmmrt::readMatrixShape(path(), shape, error);
  // A sparse .mtx file may rightly promise a matrix of any size the
  // machine's memory holds; reading one over 256 MiB would only meet the
  // fuzzer's own -rss_limit_mb (what the readers refuse is tested below it).
  if (shaped && 8.0 * double(shape.rows) * double(shape.cols) > 256e6)
    return 0;
  cmmrt::Matrix matrix;
  bool read = cmmrt::readMatrix(path(), matrix, error);
  if (shaped && read &&
      (matrix.rows() != shape.rows || matrix.cols() != shape.cols))
    std::abort(); // the shape the compiler plans with is the one loaded
  if (!read && error.empty())
    std::abort(); // every refusal says why
  return 0;
}
