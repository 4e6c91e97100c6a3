//===- MatrixIO.cpp - Matrix file I/O dispatched on the file suffix -------===//
//
// Picks the .npy, Matrix Market or CSV reader/writer by the path's suffix and
// makes writes atomic. The formats themselves live in NpyIO.cpp,
// MatrixMarketIO.cpp and CsvIO.cpp.
//
//===----------------------------------------------------------------------===//

#include "cmmrt/MatrixIO.h"

#include "IOUtil.h"

#include <cctype>

namespace cmmrt {

namespace {

bool hasSuffix(const std::string &path, const char *suffix) {
  std::string_view tail(suffix);
  if (path.size() < tail.size())
    return false;
  size_t offset = path.size() - tail.size();
  for (size_t i = 0; i < tail.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(path[offset + i])) != tail[i])
      return false;
  return true;
}

bool failUnknownFormat(const std::string &path, std::string &error) {
  return io::fail(error, path,
                  "unsupported matrix file format (expected .npy, .mtx or "
                  ".csv)");
}

} // namespace

MatrixFormat formatFromPath(const std::string &path) {
  if (hasSuffix(path, ".npy"))
    return MatrixFormat::Npy;
  if (hasSuffix(path, ".mtx"))
    return MatrixFormat::MatrixMarket;
  if (hasSuffix(path, ".csv"))
    return MatrixFormat::Csv;
  return MatrixFormat::Unknown;
}

bool readMatrixShape(const std::string &path, MatrixShape &shape,
                     std::string &error) {
  switch (formatFromPath(path)) {
  case MatrixFormat::Npy:
    return io::readNpyShape(path, shape, error);
  case MatrixFormat::MatrixMarket:
    return io::readMatrixMarketShape(path, shape, error);
  case MatrixFormat::Csv:
    return io::readCsvShape(path, shape, error);
  case MatrixFormat::Unknown:
    break;
  }
  return failUnknownFormat(path, error);
}

bool readMatrix(const std::string &path, Matrix &matrix, std::string &error) {
  switch (formatFromPath(path)) {
  case MatrixFormat::Npy:
    return io::readNpy(path, matrix, error);
  case MatrixFormat::MatrixMarket:
    return io::readMatrixMarket(path, matrix, error);
  case MatrixFormat::Csv:
    return io::readCsv(path, matrix, error);
  case MatrixFormat::Unknown:
    break;
  }
  return failUnknownFormat(path, error);
}

bool writeMatrix(const std::string &path, const Matrix &matrix,
                 std::string &error) {
  MatrixFormat format = formatFromPath(path);
  if (format == MatrixFormat::Unknown)
    return failUnknownFormat(path, error);
  if (matrix.rows() < 0 || matrix.cols() < 0 ||
      matrix.values().size() != static_cast<size_t>(matrix.rows()) *
                                    static_cast<size_t>(matrix.cols()))
    return io::fail(error, path,
                    "cannot write an inconsistent matrix (shape " +
                        std::to_string(matrix.rows()) + "x" +
                        std::to_string(matrix.cols()) + " but " +
                        std::to_string(matrix.values().size()) + " values)");
  if (matrix.size() == 0)
    return io::failEmpty(error, path, matrix.rows(), matrix.cols());

  std::string contents;
  switch (format) {
  case MatrixFormat::Npy:
    io::formatNpy(matrix, contents);
    break;
  case MatrixFormat::MatrixMarket:
    io::formatMatrixMarket(matrix, contents);
    break;
  case MatrixFormat::Csv:
    io::formatCsv(matrix, contents);
    break;
  case MatrixFormat::Unknown:
    break;
  }
  return io::writeFileAtomically(path, contents, error);
}

} // namespace cmmrt
