//===- Tiling.cpp - cmm IR to a tiled task graph ----------------*- C++ -*-===//

#include "cmm/Conversion/CmmToTaskGraph/Tiling.h"

#include "cmm/Conversion/CmmToTaskGraph/Density.h"
#include "cmm/Conversion/CmmToTaskGraph/OpDecls.h"
#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Dialect/Cmm/Observed.h"

#include "cmmrt/IntegerProducts.h"
#include "cmmrt/Kernels.h"
#include "cmmrt/SparseRows.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <set>

using namespace mlir;
using namespace cmm;
using namespace cmm::scheduling;
using namespace cmm::tiling;

int64_t cmm::tiling::tileCount(int64_t extent, int64_t size) {
  return (extent + size - 1) / size; // Julia's cld, as in Listing 1
}

int64_t cmm::tiling::tileExtent(int64_t extent, int64_t size, int64_t index) {
  return std::min(size, extent - index * size);
}

namespace {

/// The tiles of one matrix value.
struct Grid {
  int64_t rows = 0, cols = 0, size = 1;
  int64_t tileRows = 0, tileCols = 0;
  std::vector<DataId> tiles; // row-major over the grid
  double density = 1.0;      // expected share of nonzeros (Density.h)
  /// Its elements are non-negative integers at most this (Density.h).
  std::optional<double> integerMax;
  DataId at(int64_t i, int64_t j) const { return tiles[i * tileCols + j]; }
  int64_t height(int64_t i) const { return tileExtent(rows, size, i); }
  int64_t width(int64_t j) const { return tileExtent(cols, size, j); }
};

class Tiler {
public:
  Tiler(TaskGraph &graph, int64_t size, int64_t startupSize,
        const GangGemmChoice *gang)
      : graph(graph), size(size), startupSize(startupSize), gang(gang) {}

  /// Tiles `func`; on error, `failed` is the op it is about (if any).
  bool run(func::FuncOp func, std::string &error, Operation *&failed);

private:
  Grid gridFor(Value v, int64_t tile = 0) {
    auto type = cast<RankedTensorType>(v.getType());
    Grid g;
    g.rows = type.getDimSize(0);
    g.cols = type.getDimSize(1);
    g.size = tile ? tile : size;
    g.tileRows = tileCount(g.rows, g.size);
    g.tileCols = tileCount(g.cols, g.size);
    return g;
  }

  /// A task of the op being tiled, without outputs yet.
  TaskId addTask(TaskKind kind, CostClass op, double m, double n, double k,
                 std::vector<DataId> inputs, std::string name,
                 int pinned = -1) {
    Task t;
    t.name = std::move(name);
    t.kind = kind;
    t.op = op;
    t.m = m;
    t.n = n;
    t.k = k;
    t.inputs = std::move(inputs);
    t.pinnedNode = pinned;
    t.opIndex = opIndex;
    return graph.addTask(std::move(t));
  }

  /// A task producing one tile of `grid` at (i, j).
  DataId task(Grid &grid, int64_t i, int64_t j, TaskKind kind, CostClass op,
              double m, double n, double k, std::vector<DataId> inputs,
              const std::string &name, int pinned = -1) {
    TaskId id = addTask(
        kind, op, m, n, k, std::move(inputs),
        name + "[" + std::to_string(i) + "," + std::to_string(j) + "]", pinned);
    DataId d = graph.addData(id, 8.0 * grid.height(i) * grid.width(j),
                             graph.task(id).name);
    graph.setRegion(d, i * grid.size, j * grid.size, grid.height(i),
                    grid.width(j));
    return d;
  }

  /// One task per tile with no inputs (generators, loads); at the start-up
  /// tile size under dynamic tiling.
  /// `free`: the tasks cost only their overhead (m = n = k = 0).
  Grid perTile(Value v, TaskKind kind, CostClass op, const std::string &name,
               int pinned = -1, bool free = false) {
    Grid g = gridFor(v, startupSize);
    for (int64_t i = 0; i < g.tileRows; ++i)
      for (int64_t j = 0; j < g.tileCols; ++j)
        g.tiles.push_back(task(g, i, j, kind, op, free ? 0 : g.height(i),
                               free ? 0 : g.width(j), free ? 0 : 1, {}, name,
                               pinned));
    return g;
  }

  /// The tiles of `v` at the tile size. Dynamic tiling (paper section 3.2)
  /// starts some matrices in smaller sub-tiles; their first consumer that
  /// needs whole tiles gets them merged back, once per matrix.
  const Grid &in(Value v) {
    const Grid &g = grids.at(v);
    if (g.size == size)
      return g;
    auto it = merged.find(v);
    if (it != merged.end())
      return *it->second;
    Grid m = gridFor(v);
    int savedOp = opIndex;
    opIndex = -1; // a merge belongs to no op
    for (int64_t i = 0; i < m.tileRows; ++i)
      for (int64_t j = 0; j < m.tileCols; ++j) {
        std::vector<DataId> parts;
        int64_t r0 = i * size, c0 = j * size;
        for (int64_t a = r0 / g.size; a * g.size < r0 + m.height(i); ++a)
          for (int64_t b = c0 / g.size; b * g.size < c0 + m.width(j); ++b)
            parts.push_back(g.at(a, b));
        m.tiles.push_back(task(m, i, j, TaskKind::Merge, CostClass::Copy,
                               m.height(i), m.width(j), 1, parts,
                               graph.item(g.tiles[0]).name + " merge"));
      }
    opIndex = savedOp;
    m.density = g.density;
    m.integerMax = g.integerMax;
    return *(merged[v] = std::make_unique<Grid>(std::move(m)));
  }

  /// Tile (i, j) of an operand broadcast to a result grid.
  static DataId broadcastTile(const Grid &g, int64_t i, int64_t j) {
    return g.at(g.tileRows == 1 ? 0 : i, g.tileCols == 1 ? 0 : j);
  }

  /// A task per result tile; `work` scales its cost (a fused op's steps
  /// of its costliest class), charged as that many times the tile's width;
  /// `depth` is its k (class fused: the kernel's steps).
  Grid elementwise(Value result, ArrayRef<Value> operands, CostClass op,
                   double work, double depth, const std::string &name) {
    // Sub-tiles stay sub-tiles through elementwise ops on operands of the
    // result's shape; anything else works on whole tiles.
    bool startup = startupSize != size;
    for (Value operand : operands)
      startup &= operand.getType() == result.getType() &&
                 grids.at(operand).size == startupSize;
    Grid g = gridFor(result, startup ? startupSize : size);
    std::vector<const Grid *> ins;
    for (Value operand : operands)
      ins.push_back(startup ? &grids.at(operand) : &in(operand));
    for (int64_t i = 0; i < g.tileRows; ++i)
      for (int64_t j = 0; j < g.tileCols; ++j) {
        std::vector<DataId> inputs;
        for (const Grid *operand : ins)
          inputs.push_back(broadcastTile(*operand, i, j));
        g.tiles.push_back(task(g, i, j, TaskKind::Elementwise, op, g.height(i),
                               g.width(j) * work, depth, inputs, name));
      }
    return g;
  }

  /// op(A) * op(B), op transposing A and/or B as it reads them (cmm.gemm):
  /// tile (i, k) of A' is tile (k, i) of A read transposed, so no transpose
  /// task is made, except for a gang product (COSMA takes its operands as
  /// stored: the transposed operand is materialised first).
  Grid matmul(const Grid &a, const Grid &b, Grid c, const std::string &name,
              bool transposeA = false, bool transposeB = false) {
    const int64_t inner = transposeA ? a.rows : a.cols;
    std::vector<unsigned> nodes;
    if (gang && gangError.empty() &&
        gang->use(c.rows, c.cols, inner, nodes, gangError))
      return distributed(transposeA ? transposed(a, name + " A'") : a,
                         transposeB ? transposed(b, name + " B'") : b,
                         std::move(c), std::move(nodes), name);
    const int64_t innerTiles = transposeA ? a.tileRows : a.tileCols;
    for (int64_t i = 0; i < c.tileRows; ++i)
      for (int64_t j = 0; j < c.tileCols; ++j) {
        DataId acc = 0;
        for (int64_t k = 0; k < innerTiles; ++k) {
          DataId left = transposeA ? a.at(k, i) : a.at(i, k),
                 right = transposeB ? b.at(j, k) : b.at(k, j);
          std::vector<DataId> inputs{left, right};
          if (k)
            inputs.push_back(acc);
          int64_t depth = transposeA ? a.height(k) : a.width(k);
          CostClass cost = productClass(a, b, c.height(i), c.width(j), depth);
          // One tile against its own transpose (a diagonal tile of A' * A)
          // runs on dsyrk, half the flops (cmmrt::multiplyAdd, unless it is
          // a matrix-vector product; docs/passes.md, cmm-fold-transposes):
          // class syrk, whose k counts half the depth.
          int64_t costDepth = depth;
          if (cost == CostClass::Gemm &&
              cmmrt::runsOnSyrk(left == right, transposeA, transposeB,
                                c.height(i), c.width(j))) {
            cost = CostClass::Syrk;
            costDepth = cmmrt::syrkCostDepth(depth);
          }
          acc = task(c, i, j, k ? TaskKind::GemmAcc : TaskKind::Gemm, cost,
                     c.height(i), c.width(j), costDepth, inputs,
                     name + " k=" + std::to_string(k));
          // A matrix times a vector, as the runtime tells them apart
          // (cmmrt::vectorProductMatrixInput): a candidate for the
          // matrix's compressed rows.
          if (c.width(j) == 1 && c.height(i) > 1 && a.density < 1)
            vectorProducts.push_back(
                {graph.item(acc).producer, left, transposeA, a.density, depth});
          else if (c.height(i) == 1 && c.width(j) > 1 && b.density < 1)
            vectorProducts.push_back({graph.item(acc).producer, right,
                                      !transposeB, b.density, depth});
        }
        c.tiles.push_back(acc);
      }
    return c;
  }

  /// `gemm`, or `sgemm` for an m x depth by depth x n tile product the
  /// runtime runs exactly in single precision (cmmrt/IntegerProducts.h):
  /// both operands non-negative integers whose bounds times the depth are
  /// at most 2^24, and every dimension at least kMinIntegerProductDim.
  static CostClass productClass(const Grid &a, const Grid &b, int64_t m,
                                int64_t n, int64_t depth) {
    if (a.integerMax && b.integerMax &&
        cmmrt::singlePrecisionIsExact(m, n, depth, *a.integerMax,
                                      *b.integerMax))
      return CostClass::SingleGemm;
    return CostClass::Gemm;
  }

  /// The transpose of `g`, a task per tile.
  Grid transposed(const Grid &g, const std::string &name) {
    Grid t = g;
    std::swap(t.rows, t.cols);
    std::swap(t.tileRows, t.tileCols);
    t.tiles.clear();
    for (int64_t i = 0; i < t.tileRows; ++i)
      for (int64_t j = 0; j < t.tileCols; ++j)
        t.tiles.push_back(task(t, i, j, TaskKind::Transpose,
                               CostClass::Transpose, t.height(i), t.width(j), 1,
                               {g.at(j, i)}, name));
    return t;
  }

  /// The product as one gang task (COSMA): A's tiles, then B's, in; C's
  /// tiles out; on the gang's first node.
  Grid distributed(const Grid &a, const Grid &b, Grid c,
                   std::vector<unsigned> nodes, const std::string &name) {
    std::vector<DataId> inputs(a.tiles);
    inputs.insert(inputs.end(), b.tiles.begin(), b.tiles.end());
    TaskId id = addTask(TaskKind::DistributedGemm, CostClass::Gemm, c.rows,
                        c.cols, a.cols, std::move(inputs), name + " cosma");
    graph.setGang(id, std::move(nodes));
    addAllTiles(id, c, name);
    return c;
  }

  /// Every tile of `g` as an output of task `id`.
  void addAllTiles(TaskId id, Grid &g, const std::string &name) {
    for (int64_t i = 0; i < g.tileRows; ++i)
      for (int64_t j = 0; j < g.tileCols; ++j) {
        g.tiles.push_back(
            graph.addData(id, 8.0 * g.height(i) * g.width(j), name));
        graph.setRegion(g.tiles.back(), i * g.size, j * g.size, g.height(i),
                        g.width(j));
      }
  }

  /// Partial reductions of each tile, combined along the reduced direction.
  Grid reduce(const Grid &in, Value result, int dim, double work,
              CostClass cost, const std::string &name) {
    Grid g = gridFor(result);
    // Output tile (i, j) gathers input tiles of row block i (dim 2), column
    // block j (dim 1) or all (dim 0).
    for (int64_t i = 0; i < g.tileRows; ++i)
      for (int64_t j = 0; j < g.tileCols; ++j) {
        std::vector<DataId> partials;
        for (int64_t a = 0; a < in.tileRows; ++a)
          for (int64_t b = 0; b < in.tileCols; ++b) {
            if ((dim == 2 && a != i) || (dim == 1 && b != j))
              continue;
            Grid partial = g;
            partials.push_back(task(partial, i, j, TaskKind::Reduce, cost,
                                    in.height(a), in.width(b) * work, 1,
                                    {in.at(a, b)},
                                    name + " part(" + std::to_string(a) + "," +
                                        std::to_string(b) + ")"));
          }
        DataId acc = partials.front();
        for (size_t p = 1; p < partials.size(); ++p)
          acc = task(g, i, j, TaskKind::Reduce, CostClass::Elementwise,
                     g.height(i), g.width(j), 1, {acc, partials[p]},
                     name + " combine");
        g.tiles.push_back(acc);
      }
    return g;
  }

  /// One task on one node over whole matrices, producing every tile of
  /// each result in turn (the runtime splits its outputs where a result's
  /// (0, 0) tile starts): inv, solve, the factorizations. They run on the
  /// master: they are what can fail at run time (a singular matrix), and
  /// the master writes the program's outputs before a failure
  /// (docs/runtime.md), which it can only do when the failure is its own.
  void whole(ArrayRef<Value> operands, ValueRange results, TaskKind kind,
             CostClass op, double m, double n, double k,
             const std::string &name) {
    std::vector<DataId> inputs;
    for (Value operand : operands)
      for (DataId d : in(operand).tiles)
        inputs.push_back(d);
    TaskId id = addTask(kind, op, m, n, k, std::move(inputs), name,
                        /*pinned=*/0);
    for (Value result : results) {
      Grid g = gridFor(result);
      addAllTiles(id, g, name);
      grids[result] = g;
    }
  }

  /// chol(A) by the right-looking tile algorithm (Buttari, Langou, Kurzak
  /// and Dongarra 2009, Algorithm 2, in the upper form R' R = A): for each
  /// k, POTRF of the diagonal tile, TRSM of the tiles right of it (R_kj =
  /// R_kk'^-1 A_kj), SYRK of the trailing diagonal tiles and GEMM of the
  /// others (A_ij -= R_ki' R_kj); only the upper triangle is read. The
  /// first POTRF also reads each tile pair's share of the symmetry test,
  /// unless A is symmetric by construction (`testSymmetry` false).
  /// The POTRFs can fail (not symmetric, not positive definite): they run
  /// on the master, as `whole` tasks do; the rest goes where the plan puts
  /// it. The factor's tiles below the diagonal are generated zeros.
  Grid cholesky(const Grid &a, Value result, bool testSymmetry,
                const std::string &name) {
    Grid r = gridFor(result);
    const int64_t t = r.tileRows;
    // cur: tile (i, j >= i) of A as updated so far; factor: R's.
    std::vector<std::vector<DataId>> cur(t, std::vector<DataId>(t, 0)),
        factor = cur;
    std::vector<DataId> shares;
    for (int64_t i = 0; i < t; ++i)
      for (int64_t j = i; j < t; ++j) {
        cur[i][j] = a.at(i, j);
        if (!testSymmetry)
          continue;
        std::vector<DataId> inputs{a.at(i, j)};
        if (j != i)
          inputs.push_back(a.at(j, i));
        const double read = double(r.width(j)) * double(inputs.size());
        TaskId id = addTask(TaskKind::Symmetry, CostClass::Elementwise,
                            r.height(i), read, 1, std::move(inputs),
                            name + " symmetry[" + std::to_string(i) + "," +
                                std::to_string(j) + "]");
        shares.push_back(graph.addData(id, 16.0, graph.task(id).name));
        graph.setRegion(shares.back(), 0, 0, 1, 2);
      }
    auto at = [](const std::string &what, int64_t k) {
      return what + " k=" + std::to_string(k);
    };
    for (int64_t k = 0; k < t; ++k) {
      const double b = double(r.height(k));
      std::vector<DataId> inputs{cur[k][k]};
      if (k == 0)
        inputs.insert(inputs.end(), shares.begin(), shares.end());
      // m, n, k of the product of as many flops (CostClasses.def).
      factor[k][k] = task(r, k, k, TaskKind::Potrf, CostClass::Potrf, b, b,
                          std::max(1.0, std::round(b / 6)), inputs,
                          name + " potrf", /*pinned=*/0);
      for (int64_t j = k + 1; j < t; ++j)
        factor[k][j] = task(r, k, j, TaskKind::Trsm, CostClass::Trsm, b,
                            r.width(j), std::max(1.0, std::round(b / 2)),
                            {factor[k][k], cur[k][j]}, name + " trsm");
      for (int64_t i = k + 1; i < t; ++i) {
        cur[i][i] = task(r, i, i, TaskKind::Syrk, CostClass::Syrk, r.width(i),
                         r.width(i), std::max(1.0, std::round(b / 2)),
                         {factor[k][i], cur[i][i]}, at(name + " syrk", k));
        for (int64_t j = i + 1; j < t; ++j)
          cur[i][j] =
              task(r, i, j, TaskKind::GemmSub, CostClass::Gemm, r.height(i),
                   r.width(j), b, {factor[k][i], factor[k][j], cur[i][j]},
                   at(name + " gemm", k));
      }
    }
    for (int64_t i = 0; i < t; ++i)
      for (int64_t j = 0; j < t; ++j)
        r.tiles.push_back(i <= j ? factor[i][j]
                                 : task(r, i, j, TaskKind::Generate,
                                        CostClass::Generate, r.height(i),
                                        r.width(j), 1, {}, name + " zeros"));
    return r;
  }

  /// op(A) \ B for a triangular A (a solve cmm-linear-solves marked
  /// `triangular`, op transposing A when it is also `transposed`): block
  /// substitution on tiles, bottom-up where op(A) is upper and top-down
  /// where it is lower, X_i = op(A)_ii^-1 (B_i - sum_j op(A)_ij X_j) over
  /// the blocks j solved before, op(A)_ij being A_ji read transposed. The
  /// TRSMs fail on a zero on A's diagonal (a singular A): they run on the
  /// master.
  Grid triangularSolve(const Grid &a, const Grid &b, Value result,
                       cmmrt::SolveMethod method, const std::string &name) {
    Grid x = gridFor(result);
    const int64_t t = a.tileRows;
    const bool transposed = cmmrt::readsTransposed(method);
    const bool upper = cmmrt::readsUpper(method) != transposed;
    auto tileOfOp = [&](int64_t i, int64_t j) {
      return transposed ? a.at(j, i) : a.at(i, j);
    };
    std::vector<DataId> solved(size_t(t * x.tileCols), 0);
    for (int64_t step = 0; step < t; ++step) {
      const int64_t i = upper ? t - 1 - step : step;
      for (int64_t c = 0; c < x.tileCols; ++c) {
        DataId acc = b.at(i, c);
        for (int64_t before = 0; before < step; ++before) {
          const int64_t j = upper ? t - 1 - before : before;
          acc = task(x, i, c, TaskKind::GemmSub, CostClass::Gemm, x.height(i),
                     x.width(c), a.width(j),
                     {tileOfOp(i, j), solved[j * x.tileCols + c], acc},
                     name + " gemm j=" + std::to_string(j));
        }
        solved[i * x.tileCols + c] =
            task(x, i, c, TaskKind::Trsm, CostClass::Trsm, x.height(i),
                 x.width(c), std::max(1.0, std::round(x.height(i) / 2.0)),
                 {a.at(i, i), acc}, name + " trsm", /*pinned=*/0);
      }
    }
    x.tiles = std::move(solved);
    return x;
  }

  /// The tiles of `v` (sub-tiles too) copied to the master.
  void gather(Value v, const std::string &name) {
    const Grid &g = grids.at(v);
    addTask(TaskKind::Gather, CostClass::Copy, g.rows, g.cols, 1, g.tiles, name,
            /*pinned=*/0); // results go to the master
  }

  /// An export whose tiles are each kept on the node `keepOn` names for
  /// that tile (kKeepOnAttr), one task per tile; false (nothing added) if
  /// some tile of `v` is not among them.
  bool keep(Value v, ArrayRef<int64_t> keepOn, const std::string &name) {
    std::map<std::array<int64_t, 4>, int64_t> nodeOf;
    for (size_t i = 0; i + 5 <= keepOn.size(); i += 5)
      nodeOf[{keepOn[i], keepOn[i + 1], keepOn[i + 2], keepOn[i + 3]}] =
          keepOn[i + 4];
    const Grid &g = grids.at(v);
    SmallVector<int> nodes;
    for (DataId d : g.tiles) {
      const DataItem &tile = graph.item(d);
      auto it = nodeOf.find({tile.row0, tile.col0, tile.rows, tile.cols});
      if (it == nodeOf.end())
        return false;
      nodes.push_back(int(it->second));
    }
    for (auto [d, node] : llvm::zip_equal(g.tiles, nodes)) {
      TaskId id = addTask(TaskKind::Gather, CostClass::Copy, graph.item(d).rows,
                          graph.item(d).cols, 1, {d}, name, node);
      graph.drawInputs(id);
    }
    return true;
  }

  /// A matrix-vector product task and the matrix tile it reads.
  struct VectorProduct {
    TaskId task;
    DataId matrix;
    bool transposed; // reads the matrix's compressed columns
    double density;  // of the matrix (Density.h)
    int64_t depth;   // the product's k
  };

  /// Products of a vector by a tile the runtime will compress are costed as
  /// it runs them (cmmrt/SparseRows.h): its compressed rows are made when a
  /// tile of more than kMinSparseElements is read by enough products for
  /// its density (breakEvenDensity; counted over the whole graph, as if on
  /// one node), once, by its first reader; its transpose (compressed
  /// columns) from those rows by the first reader of the other orientation.
  /// The first reader is class `compress` on the tile (rows x cols, k its
  /// nonzeros a row; a transposing one's k also counts the transposition,
  /// at kTransposeShareOfCompression of a nonzero's compression). Each
  /// later product costs kSparseProductPerDensity * d of the dense one,
  /// and a later first reader of the other orientation also the
  /// transposition: class `sparse` with the depth of the dense product
  /// that costs as much.
  void costSparseProducts() {
    std::map<DataId, int64_t> reads;
    for (const VectorProduct &p : vectorProducts)
      ++reads[p.matrix];
    std::set<DataId> compressed, transposed;
    for (const VectorProduct &p : vectorProducts) {
      const DataItem &tile = graph.item(p.matrix);
      if (double(tile.rows) * double(tile.cols) <
              double(cmmrt::kMinSparseElements) ||
          p.density > cmmrt::breakEvenDensity(reads[p.matrix]))
        continue;
      bool compresses = compressed.insert(p.matrix).second;
      bool transposes = p.transposed && transposed.insert(p.matrix).second;
      if (compresses) {
        double nonzerosPerRow = p.density * double(tile.cols);
        if (transposes)
          nonzerosPerRow *= 1 + cmmrt::kTransposeShareOfCompression;
        graph.setCost(p.task, CostClass::Compress, double(tile.rows),
                      double(tile.cols), nonzerosPerRow);
        continue;
      }
      double share = cmmrt::kSparseProductPerDensity * p.density;
      if (transposes)
        share += cmmrt::kTransposeSparsePerDensity * p.density;
      graph.setCost(p.task, CostClass::Sparse, double(p.depth) * share);
    }
  }

  TaskGraph &graph;
  int64_t size, startupSize;
  const GangGemmChoice *gang;
  std::string gangError; // set by gang->use: the tiling stops
  int opIndex = -1;      // declaration of the op being tiled (OpDecls.h)
  llvm::DenseMap<Value, Grid> grids;
  std::vector<VectorProduct> vectorProducts;
  llvm::DenseMap<Value, ElementEstimate> estimates; // Density.h
  // Merged grids are referred to while more are made: keep them put.
  llvm::DenseMap<Value, std::unique_ptr<Grid>> merged;
};

std::string opName(Operation *op) {
  std::string name = op->getName().stripDialect().str();
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    name += "@" + std::to_string(loc.getLine()) + ":" +
            std::to_string(loc.getColumn());
  return name;
}

bool Tiler::run(func::FuncOp func, std::string &error, Operation *&failed) {
  // Only what reaches a print or save runs (as in the interpreter); each
  // task names the declaration of its op.
  llvm::DenseSet<Operation *> observed = observedOps(func.getBody().front());
  llvm::DenseMap<Operation *, int> declared;
  std::vector<OpDecl> decls = declareOps(func, &declared);
  // A segment of a program with run-time control flow (Segments.h): its
  // arguments are imported whole from the master, its results exported
  // there (cmmrt/Program.h). Declarations: the imports first, the exports
  // last.
  for (BlockArgument arg : func.getArguments()) {
    opIndex = int(arg.getArgNumber());
    // A loop-invariant import is kept on the nodes that read it from its
    // first trip on: placed freely, as in the loop's steady state.
    bool invariant = bool(func.getArgAttr(arg.getArgNumber(), kInvariantAttr));
    // In the steady state an invariant tile is already there (the master
    // keeps its slices, the other nodes what prefetch sent): no copy.
    grids[arg] = perTile(arg, TaskKind::Load, CostClass::Copy,
                         "import" + std::to_string(arg.getArgNumber()),
                         /*pinned=*/invariant ? -1 : 0, /*free=*/invariant);
  }
  auto exportAt = [&](unsigned result) {
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    return int(decls.size() - ret.getNumOperands() + result);
  };
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        opIndex = exportAt(i);
        std::string name = "export" + std::to_string(i);
        auto keepOn = func.getResultAttrOfType<DenseI64ArrayAttr>(unsigned(i),
                                                                  kKeepOnAttr);
        if (!keepOn || !keep(v, keepOn.asArrayRef(), name))
          gather(v, name);
      }
      continue;
    }
    if (!observed.contains(&op))
      continue;
    auto it = declared.find(&op);
    opIndex = it == declared.end() ? -1 : it->second;
    std::string name = opName(&op);
    auto semantics = dyn_cast<OpSemantics>(&op);
    if (!semantics) {
      if (isa<func::ReturnOp>(op))
        continue;
      if (isa<WhileOp, IfOp>(op)) {
        // cmm-plan outlines the straight-line segments around them
        // (Planning/Segments.h) and tiles each.
        error = std::string(isa<WhileOp>(op) ? "a 'while'" : "an 'if'") +
                " decided at run time is planned by cmm-plan, segment by "
                "segment; cmm-tile tiles straight-line code";
        failed = &op;
        return false;
      }
      error =
          "the planner cannot tile '" + op.getName().getStringRef().str() + "'";
      failed = &op;
      return false;
    }
    // The op's rule (lib/Dialect/Cmm/CmmOpSemantics.cpp) picks the strategy.
    TilingRule rule = semantics.getTilingRule();
    Value result = op.getNumResults() ? op.getResult(0) : Value();
    switch (rule.strategy) {
    case TileStrategy::Generate:
      grids[result] = perTile(result, TaskKind::Generate, rule.cost, name);
      break;
    case TileStrategy::Load:
      grids[result] =
          perTile(result, TaskKind::Load, rule.cost, name, /*pinned=*/0);
      break;
    case TileStrategy::Product: {
      Grid a = in(op.getOperand(0));
      grids[result] = matmul(a, in(op.getOperand(1)), gridFor(result), name,
                             rule.transposeLhs, rule.transposeRhs);
      break;
    }
    case TileStrategy::Power: {
      // Square-and-multiply over tiled products (as the interpreter).
      Grid power, square = in(op.getOperand(0));
      bool have = false;
      for (uint64_t k = rule.exponent; k; k >>= 1) {
        if (k & 1) {
          power = have ? matmul(power, square, gridFor(result), name) : square;
          have = true;
        }
        if (k > 1)
          square = matmul(square, square, gridFor(result), name + " square");
      }
      if (!have) { // A^0 = I
        Grid g = gridFor(result);
        for (int64_t i = 0; i < g.tileRows; ++i)
          for (int64_t j = 0; j < g.tileCols; ++j)
            g.tiles.push_back(task(g, i, j, TaskKind::Generate,
                                   CostClass::Generate, g.height(i), g.width(j),
                                   1, {}, name));
        power = g;
      }
      grids[result] = power;
      break;
    }
    case TileStrategy::Elementwise:
      grids[result] =
          elementwise(result, SmallVector<Value>(op.getOperands()), rule.cost,
                      rule.work, rule.k > 0 ? rule.k : 1, name);
      break;
    case TileStrategy::Transpose:
      grids[result] = transposed(in(op.getOperand(0)), name);
      break;
    case TileStrategy::Reduce:
      grids[result] = reduce(in(op.getOperand(0)), result, rule.dim, rule.work,
                             rule.cost, name);
      break;
    case TileStrategy::Cholesky: {
      Grid a = in(op.getOperand(0));
      grids[result] =
          cholesky(a, result, !cast<CholOp>(op).getSymmetric(), name);
      break;
    }
    case TileStrategy::TriangularSolve: {
      Grid a = in(op.getOperand(0));
      Grid b = in(op.getOperand(1));
      grids[result] =
          triangularSolve(a, b, result, cast<SolveOp>(op).getMethod(), name);
      break;
    }
    case TileStrategy::Whole:
      whole(SmallVector<Value>(op.getOperands()), op.getResults(),
            TaskKind::Solve, rule.cost, rule.m, rule.n, rule.k, name);
      break;
    case TileStrategy::Gather:
      gather(op.getOperand(0), name);
      break;
    case TileStrategy::None:
      break;
    }
    bool ok = true;
    if (!gangError.empty()) {
      error = gangError;
      ok = false;
    }
    if (!ok) {
      failed = &op;
      return false;
    }
    if (result) {
      ElementEstimate e = estimateResult(&op, [&](Value v) {
        auto it = estimates.find(v);
        return it == estimates.end() ? ElementEstimate() : it->second;
      });
      estimates[result] = e;
      if (auto it = grids.find(result); it != grids.end()) {
        it->second.density = e.density;
        it->second.integerMax = e.integerMax();
      }
    }
  }
  costSparseProducts();
  return true;
}

} // namespace

/// Tasks the tiling of `func` would create, counted without building them
/// (a product of I x K by K x J tiles makes I * J * K tasks).
double cmm::tiling::countTasks(func::FuncOp func, int64_t size) {
  auto tiles = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return double(tileCount(t.getDimSize(0), size)) *
           double(tileCount(t.getDimSize(1), size));
  };
  double total = 0;
  func.walk([&](Operation *op) {
    TilingRule rule;
    if (auto semantics = dyn_cast<OpSemantics>(op))
      rule = semantics.getTilingRule();
    if (rule.strategy == TileStrategy::Product) {
      auto a = cast<RankedTensorType>(op->getOperand(0).getType());
      int64_t inner = a.getDimSize(rule.transposeLhs ? 0 : 1);
      total += tiles(op->getResult(0)) * double(tileCount(inner, size));
    } else if (rule.strategy == TileStrategy::Cholesky) {
      // t^3 / 6 updates, t (t + 1) / 2 symmetry shares, t^2 factor tiles.
      double t = double(tileCount(
          cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(0),
          size));
      total += t * t * t / 6 + 2 * t * t;
    } else if (rule.strategy == TileStrategy::TriangularSolve) {
      Value x = op->getResult(0);
      double t = double(tileCount(
                 cast<RankedTensorType>(x.getType()).getDimSize(0), size)),
             c = double(tileCount(
                 cast<RankedTensorType>(x.getType()).getDimSize(1), size));
      total += c * t * (t + 1) / 2;
    } else if (rule.strategy == TileStrategy::Power) {
      Value p = op->getResult(0);
      double k = double(
          tileCount(cast<RankedTensorType>(p.getType()).getDimSize(0), size));
      total += tiles(p) * k * 2.0 *
               std::max<double>(1, std::log2(double(rule.exponent) + 1));
    } else {
      for (Value operand : op->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          total += tiles(operand);
      for (Value result : op->getResults())
        if (isa<RankedTensorType>(result.getType()))
          total += tiles(result);
    }
  });
  return total;
}

/// The sub-tile size of dynamic tiling: the tile size halved (at most
/// twice) until the largest start-up matrix has a (sub-)tile per worker.
int64_t cmm::tiling::startupTileSize(func::FuncOp func, int64_t size,
                                     unsigned workers) {
  double most = 0;
  func.walk([&](Operation *op) {
    if (isa<RandOp, FillOp, EyeOp, RangeOp, ConstantOp, LoadOp>(op)) {
      auto t = cast<RankedTensorType>(op->getResult(0).getType());
      most = std::max(most, double(tileCount(t.getDimSize(0), size)) *
                                double(tileCount(t.getDimSize(1), size)));
    }
  });
  int64_t sub = size;
  for (int halvings = 0; halvings < 2 && sub > 1 && most < workers;
       ++halvings) {
    sub = (sub + 1) / 2;
    most *= 4;
  }
  return sub;
}

bool cmm::tiling::buildTaskGraph(func::FuncOp func, int64_t tileSize,
                                 TaskGraph &graph, std::string &error,
                                 int64_t startupSize,
                                 const GangGemmChoice *gang,
                                 Operation **errorOp) {
  if (tileSize < 1) {
    error = "tile size must be at least 1";
    return false;
  }
  double tasks = countTasks(func, tileSize);
  if (tasks > kMaxTasks) {
    error = "tile size " + std::to_string(tileSize) + " would make about " +
            std::to_string(static_cast<long long>(tasks)) +
            " tasks (more than " + std::to_string(kMaxTasks) +
            "); choose a larger tile size";
    return false;
  }
  if (!func.getBody().hasOneBlock()) {
    error = "@" + func.getSymName().str() + " must have one block";
    return false;
  }
  if (startupSize < 1 || startupSize > tileSize)
    startupSize = tileSize;
  Operation *failed = nullptr;
  bool ok = Tiler(graph, tileSize, startupSize, gang).run(func, error, failed);
  if (errorOp)
    *errorOp = failed;
  return ok;
}

std::vector<int64_t> cmm::tiling::defaultTileSizes(func::FuncOp func) {
  int64_t largest = 1;
  // A segment's arguments too (its imports: Segments.h).
  for (Type t : func.getArgumentTypes())
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      for (int64_t d : tensor.getShape())
        largest = std::max(largest, d);
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        for (int64_t d : t.getShape())
          largest = std::max(largest, d);
  });
  std::set<int64_t> sizes;
  for (int percent = 10; percent <= 70; percent += 10)
    sizes.insert(std::max<int64_t>(1, largest * percent / 100));
  // And the untiled plan: one tile per matrix, whole-matrix kernels (best
  // when the machine has one node, or the program is small).
  sizes.insert(largest);
  return {sizes.begin(), sizes.end()};
}
