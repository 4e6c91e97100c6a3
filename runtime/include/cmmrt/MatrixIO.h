//===- MatrixIO.h - .npy, Matrix Market and CSV readers/writers -*- C++ -*-===//
//
// Matrix files are picked by suffix: `.npy`, `.mtx`, `.csv`. Readers validate
// strictly: a truncated, oversized or lying header is an error that names the
// file, never a crash or an out-of-bounds read. Functions return false and set
// `error` (a full sentence that starts with the quoted path) on failure; the
// runtime does not use exceptions so that -fno-exceptions code can call it.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_MATRIXIO_H
#define CMMRT_MATRIXIO_H

#include "cmmrt/Matrix.h"

#include <string>

namespace cmmrt {

enum class MatrixFormat { Npy, MatrixMarket, Csv, Unknown };

/// The format named by the path's suffix (case-insensitive).
MatrixFormat formatFromPath(const std::string &path);

/// Reads only what is needed to know the shape: the header of `.npy` and
/// `.mtx` files; a scan of the rows of a `.csv` file.
bool readMatrixShape(const std::string &path, MatrixShape &shape,
                     std::string &error);

/// Reads the whole matrix, converting `<f4`, `<i8`, `<i4` .npy data to f64.
bool readMatrix(const std::string &path, Matrix &matrix, std::string &error);

/// Writes the whole matrix atomically: to a temporary name in the same
/// directory, then renamed over `path`.
bool writeMatrix(const std::string &path, const Matrix &matrix,
                 std::string &error);

} // namespace cmmrt

#endif // CMMRT_MATRIXIO_H
