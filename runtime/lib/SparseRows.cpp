//===- SparseRows.cpp - Compressed rows of a mostly-zero tile --*- C++ -*-===//

#include "cmmrt/SparseRows.h"

#include "cmmrt/RowBands.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

using namespace cmmrt;

namespace {

/// One band's part of compressRows: its rows' nonzeros and where each row's
/// end among them.
struct Band {
  int64_t first = 0, count = 0;
  std::vector<int64_t> rowEnd;
  // Room for the band's limit and a row more, left unset: only the pages
  // written are ever touched.
  std::unique_ptr<int32_t[]> column;
  std::unique_ptr<double[]> value;
};

/// Whether compressed rows keep the element whose bits these are: all but
/// +0.0 (-0.0 keeps the sign of its products).
inline bool isStored(uint64_t bits) { return bits != 0; }

inline uint64_t bitsOf(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

bool allFinite(const double *x, int64_t n) {
  bool finite = true;
  for (int64_t i = 0; i < n; ++i)
    finite &= std::isfinite(x[i]);
  return finite;
}

std::atomic<long long> tilesCompressed{0}, nonzerosCompressed{0},
    elementsCompressed{0}, productsOnCompressed{0};

} // namespace

SparseStats cmmrt::sparseStats() {
  return {tilesCompressed.load(), nonzerosCompressed.load(),
          elementsCompressed.load(), productsOnCompressed.load()};
}

double cmmrt::breakEvenDensity(int64_t products) {
  if (products <= kCompressProducts)
    return 0.0;
  const double p = double(products);
  return std::min(kSparseDensityLimit,
                  (p - kCompressProducts) /
                      (kCompressPerDensity + kSparseProductPerDensity * p));
}

double cmmrt::sampleDensity(const Matrix &a) {
  const int64_t rows = a.rows(), cols = a.cols(),
                samples = std::min<int64_t>(rows, 64);
  if (samples == 0 || cols == 0)
    return 0.0;
  int64_t nonzeros = 0;
  for (int64_t s = 0; s < samples; ++s) {
    const double *row = a.data() + (s * rows / samples) * cols;
    for (int64_t j = 0; j < cols; ++j)
      nonzeros += isStored(bitsOf(row[j]));
  }
  return double(nonzeros) / (double(samples) * double(cols));
}

bool cmmrt::compressRows(const Matrix &a, double maxDensity, SparseRows &out) {
  const int64_t rows = a.rows(), cols = a.cols();
  if (cols > std::numeric_limits<int32_t>::max())
    return false;
  std::mutex mutex;
  std::vector<Band> bands;
  std::atomic<bool> tooDense{false};
  forEachRowBand(rows, cols, [&](int64_t first, int64_t end) {
    Band band;
    band.first = first;
    band.rowEnd.reserve(end - first);
    const int64_t limit =
        int64_t(maxDensity * double(end - first) * double(cols));
    // Written without a branch per element (a random pattern mispredicts
    // every nonzero): each element is stored at the next free place, which
    // only a nonzero advances; room for one row past the limit.
    // Without memory for them, the tile stays dense (and no exception
    // leaves a helper thread).
    band.column.reset(new (std::nothrow) int32_t[limit + cols]);
    band.value.reset(new (std::nothrow) double[limit + cols]);
    if (!band.column || !band.value) {
      tooDense = true;
      return;
    }
    int32_t *column = band.column.get();
    double *value = band.value.get();
    int64_t count = 0;
    for (int64_t i = first; i < end && !tooDense.load(); ++i) {
      const double *row = a.data() + i * cols;
      int64_t j = 0;
      for (; j + 4 <= cols; j += 4) {
        // Four zeros at once (most groups of a sparse row).
        uint64_t bits[4];
        std::memcpy(bits, &row[j], sizeof bits);
        if (!isStored(bits[0] | bits[1] | bits[2] | bits[3]))
          continue;
        for (int q = 0; q < 4; ++q) {
          column[count] = int32_t(j + q);
          value[count] = row[j + q];
          count += isStored(bits[q]);
        }
      }
      for (; j < cols; ++j) {
        column[count] = int32_t(j);
        value[count] = row[j];
        count += isStored(bitsOf(row[j]));
      }
      band.rowEnd.push_back(count);
      if (count > limit)
        tooDense = true;
    }
    band.count = count;
    std::lock_guard<std::mutex> lock(mutex);
    bands.push_back(std::move(band));
  });
  if (tooDense)
    return false;
  std::sort(bands.begin(), bands.end(),
            [](const Band &x, const Band &y) { return x.first < y.first; });
  out.rows = rows;
  out.cols = cols;
  out.start.assign(1, 0);
  out.start.reserve(rows + 1);
  out.column.clear();
  out.value.clear();
  for (const Band &band : bands) {
    const int64_t base = out.nonzeros();
    for (int64_t end : band.rowEnd)
      out.start.push_back(base + end);
    out.column.insert(out.column.end(), band.column.get(),
                      band.column.get() + band.count);
    out.value.insert(out.value.end(), band.value.get(),
                     band.value.get() + band.count);
  }
  assert(int64_t(out.start.size()) == rows + 1 && "a band went missing");
  return true;
}

SparseRows cmmrt::transposeSparse(const SparseRows &a) {
  SparseRows t;
  t.rows = a.cols;
  t.cols = a.rows;
  // Counting sort by column: rows are visited in order, so each of t's rows
  // gets its columns ascending.
  t.start.assign(t.rows + 1, 0);
  for (int32_t j : a.column)
    ++t.start[j + 1];
  for (int64_t j = 0; j < t.rows; ++j)
    t.start[j + 1] += t.start[j];
  std::vector<int64_t> next(t.start.begin(), t.start.end() - 1);
  t.column.resize(a.column.size());
  t.value.resize(a.value.size());
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t e = a.start[i]; e < a.start[i + 1]; ++e) {
      int64_t to = next[a.column[e]]++;
      t.column[to] = int32_t(i);
      t.value[to] = a.value[e];
    }
  return t;
}

void cmmrt::multiplyAddSparse(const SparseRows &a, const double *x, double beta,
                              double *y) {
  const int64_t perRow =
      std::max<int64_t>(1, a.nonzeros() / std::max<int64_t>(1, a.rows));
  forEachRowBand(a.rows, perRow, [&](int64_t first, int64_t end) {
    for (int64_t i = first; i < end; ++i) {
      double sum = 0.0;
      for (int64_t e = a.start[i]; e < a.start[i + 1]; ++e)
        sum += a.value[e] * x[a.column[e]];
      y[i] = beta == 0.0 ? sum : sum + beta * y[i];
    }
  });
}

const SparseRows *SparseOperand::rows() {
  std::call_once(rowsOnce, [&] {
    const double limit = breakEvenDensity(products);
    if (limit == 0.0 || sampleDensity(tile) > limit)
      return;
    auto compressed = std::make_unique<SparseRows>();
    if (!compressRows(tile, limit, *compressed))
      return;
    ++tilesCompressed;
    nonzerosCompressed += compressed->nonzeros();
    elementsCompressed += tile.size();
    rows_ = std::move(compressed);
  });
  return rows_.get();
}

const SparseRows *SparseOperand::transposedRows() {
  std::call_once(transposedOnce, [&] {
    if (const SparseRows *r = rows())
      transposed_ = std::make_unique<SparseRows>(transposeSparse(*r));
  });
  return transposed_.get();
}

bool cmmrt::multiplyAddVectorSparse(SparseOperand *sparseA,
                                    SparseOperand *sparseB, const Matrix &a,
                                    const Matrix &b, double beta, Matrix &c,
                                    bool transposeA, bool transposeB) {
  const int64_t m = c.rows(), n = c.cols();
  const SparseRows *matrix = nullptr;
  const Matrix *vector = nullptr;
  if (n == 1 && m > 1 && sparseA) { // c = op(A) b
    matrix = transposeA ? sparseA->transposedRows() : sparseA->rows();
    vector = &b;
  } else if (m == 1 && n > 1 && sparseB) { // c' = op(B)' a'
    matrix = transposeB ? sparseB->rows() : sparseB->transposedRows();
    vector = &a;
  }
  // A zero element times an Inf or a NaN is a NaN, which skipping it loses.
  if (!matrix || !allFinite(vector->data(), vector->size()))
    return false;
  assert(matrix->rows == c.size() && matrix->cols == vector->size() &&
         "sparse product shape mismatch");
  multiplyAddSparse(*matrix, vector->data(), beta, c.data());
  ++productsOnCompressed;
  return true;
}
