//===- Matrix.h - Dense row-major f64 matrix --------------------*- C++ -*-===//
//
// The value type shared by the reference interpreter and the generated
// programs: a dense, row-major matrix of doubles with its shape. The runtime
// has no dependency on MLIR or LLVM so that generated C++/MPI programs can
// link it on their own.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_MATRIX_H
#define CMMRT_MATRIX_H

#include "cmmrt/TileMemory.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cmmrt {

struct MatrixShape {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t numElements() const { return rows * cols; }
  bool operator==(const MatrixShape &o) const {
    return rows == o.rows && cols == o.cols;
  }
  bool operator!=(const MatrixShape &o) const { return !(*this == o); }
};

/// A matrix's elements; large ones live in the tile pool (TileMemory.h).
using Elements = std::vector<double, TileAllocator<double>>;

class Matrix {
public:
  Matrix() = default;
  Matrix(int64_t rows, int64_t cols, double init = 0.0)
      : shape_{rows, cols}, data_(static_cast<size_t>(rows * cols), init) {}
  /// A matrix whose elements are left unset, for a result that is written
  /// whole before it is read (no pass that only zeroes the pages).
  static Matrix uninitialized(int64_t rows, int64_t cols) {
    return Matrix(MatrixShape{rows, cols});
  }

  int64_t rows() const { return shape_.rows; }
  int64_t cols() const { return shape_.cols; }
  MatrixShape shape() const { return shape_; }
  int64_t size() const { return shape_.numElements(); }

  double &operator()(int64_t i, int64_t j) {
    return data_[i * shape_.cols + j];
  }
  double operator()(int64_t i, int64_t j) const {
    return data_[i * shape_.cols + j];
  }
  double *data() { return data_.data(); }
  const double *data() const { return data_.data(); }
  Elements &values() { return data_; }
  const Elements &values() const { return data_; }

private:
  explicit Matrix(MatrixShape shape)
      : shape_(shape), data_(static_cast<size_t>(shape.numElements())) {}

  MatrixShape shape_;
  Elements data_; // row-major
};

} // namespace cmmrt

#endif // CMMRT_MATRIX_H
