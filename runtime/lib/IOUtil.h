//===- IOUtil.h - Private helpers of the matrix file readers ----*- C++ -*-===//
//
// Shared plumbing of NpyIO.cpp, MatrixMarketIO.cpp and CsvIO.cpp: error
// messages that start with the quoted path, a read-only file with positioned
// reads, a buffered line reader, strict number parsing and integer
// formatting (doubles: cmmrt/Numbers.h). Also declares the per-format entry points
// that MatrixIO.cpp dispatches to. Not installed; internal to the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_LIB_IOUTIL_H
#define CMMRT_LIB_IOUTIL_H

#include "cmmrt/Matrix.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cmmrt {
namespace io {

//===----------------------------------------------------------------------===//
// Error messages
//===----------------------------------------------------------------------===//

/// `'path'`, the prefix of every error message.
std::string quote(const std::string &path);

/// Sets `error` to `'path': message` and returns false.
bool fail(std::string &error, const std::string &path,
          const std::string &message);

/// Sets `error` to `'path': message: strerror(errnum)` and returns false.
bool failErrno(std::string &error, const std::string &path,
               const std::string &message, int errnum);

/// The error for a matrix with a zero dimension.
bool failEmpty(std::string &error, const std::string &path, int64_t rows,
               int64_t cols);

/// Makes `matrix` a fresh RxC matrix (filled with `fill`), or sets `error`
/// and returns false when it cannot be had: larger than the machine's
/// physical memory (refused before trying: a header may claim any size, and
/// a sparse .mtx file is legitimately far smaller than its matrix), or an
/// allocation that failed.
bool allocateMatrix(std::string &error, const std::string &path, int64_t rows,
                    int64_t cols, Matrix &matrix, double fill = 0.0);

/// Renders `text` for an error message: quoted, truncated if long, with
/// control characters escaped.
std::string describeToken(std::string_view text);

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// A read-only file descriptor, closed on destruction.
class InputFile {
public:
  InputFile() = default;
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;
  ~InputFile();

  /// Opens `path`; directories are refused. On failure sets `error`.
  bool open(const std::string &path, std::string &error);

  const std::string &path() const { return path_; }
  bool isRegular() const { return isRegular_; }
  /// Size from fstat; meaningful only for regular files.
  int64_t size() const { return size_; }

  /// Reads exactly `length` bytes at `offset`; a short file is an error.
  bool readAt(int64_t offset, void *buffer, size_t length, std::string &error);

  /// Reads up to `length` bytes at the current position; 0 means the end.
  /// Returns -1 and sets `error` on failure.
  int64_t readSome(void *buffer, size_t length, std::string &error);

private:
  int fd_ = -1;
  std::string path_;
  bool isRegular_ = false;
  int64_t size_ = 0;
};

/// Splits a file into lines. Lines end in '\n'; a '\r' right before it is
/// dropped, and the last line may lack the '\n'. A view returned by next()
/// stays valid until the following call.
class LineReader {
public:
  explicit LineReader(InputFile &file) : file_(file) {}

  /// Returns false at the end of the file or on a read error (see failed()).
  bool next(std::string_view &line);
  /// 1-based number of the line last returned by next().
  int64_t lineNumber() const { return lineNumber_; }
  bool failed() const { return !error_.empty(); }
  const std::string &error() const { return error_; }

private:
  InputFile &file_;
  std::string buffer_;
  size_t begin_ = 0; // start of the unconsumed part of buffer_
  bool eof_ = false;
  int64_t lineNumber_ = 0;
  std::string error_;
};

/// Writes `contents` to `<path>.tmp.<pid>` and renames it over `path`; on
/// failure removes the temporary file and leaves `path` untouched.
bool writeFileAtomically(const std::string &path, const std::string &contents,
                         std::string &error);

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

/// Drops leading and trailing spaces and tabs.
std::string_view trim(std::string_view text);

/// True for an empty or all-whitespace line.
bool isBlank(std::string_view text);

/// Splits off the next whitespace-separated token of `text` (advancing it);
/// returns an empty view when none is left.
std::string_view nextToken(std::string_view &text);

enum class NumberError { None, Invalid, OutOfRange };

/// Parses all of `text` as a double with std::from_chars (locale
/// independent). Accepts an optional leading '+' and the spellings of nan and
/// inf that from_chars accepts (case-insensitive `nan`, `inf`, `infinity`).
NumberError parseDouble(std::string_view text, double &value);

/// Parses all of `text` as a decimal int64 with an optional sign.
NumberError parseInt64(std::string_view text, int64_t &value);

/// Appends the decimal representation of `value`.
void appendInt(std::string &out, int64_t value);

/// `a * b` unless it overflows int64 (or either is negative).
bool checkedMul(int64_t a, int64_t b, int64_t &result);

//===----------------------------------------------------------------------===//
// Format entry points (NpyIO.cpp, MatrixMarketIO.cpp, CsvIO.cpp)
//===----------------------------------------------------------------------===//

bool readNpyShape(const std::string &path, MatrixShape &shape,
                  std::string &error);
bool readNpy(const std::string &path, Matrix &matrix, std::string &error);
/// Serialises a non-empty matrix as numpy 1.24 would: version 1.0, `<f8`.
void formatNpy(const Matrix &matrix, std::string &out);

bool readMatrixMarketShape(const std::string &path, MatrixShape &shape,
                           std::string &error);
bool readMatrixMarket(const std::string &path, Matrix &matrix,
                      std::string &error);
void formatMatrixMarket(const Matrix &matrix, std::string &out);

bool readCsvShape(const std::string &path, MatrixShape &shape,
                  std::string &error);
bool readCsv(const std::string &path, Matrix &matrix, std::string &error);
void formatCsv(const Matrix &matrix, std::string &out);

} // namespace io
} // namespace cmmrt

#endif // CMMRT_LIB_IOUTIL_H
