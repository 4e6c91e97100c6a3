//===- MatrixChain.cpp - Product chains: flatten, order, emit ---*- C++ -*-===//

#include "cmm/Transforms/MatrixChain.h"

#include "cmm/Dialect/Cmm/CmmDialect.h"
#include "cmm/Transforms/FlopCount.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace cmm;

static int64_t dim(Value v, unsigned d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

//===----------------------------------------------------------------------===//
// Flattening
//===----------------------------------------------------------------------===//

static bool expandablePower(PowOp pow, int64_t maxExpand) {
  int64_t k = static_cast<int64_t>(pow.getExponent());
  return k >= 1 && k <= maxExpand;
}

/// Is `v` computed only to be a factor of its single user's chain? This must
/// agree with what Flattener::expand absorbs.
static bool isAbsorbed(Value v, int64_t maxExpand) {
  if (!v.hasOneUse())
    return false;
  Operation *user = *v.getUsers().begin();
  if (isa<MatmulOp>(user))
    return true;
  if (auto pow = dyn_cast<PowOp>(user))
    return expandablePower(pow, maxExpand);
  // A scaling or transpose of a single-use chain is itself a chain
  // expression (a root, or absorbed further up), so it takes `v` in.
  return isa<TransposeOp, ScaleOp>(user);
}

/// Does `op` compute a product chain: a product, an expandable power, or a
/// scaling or transpose of a single-use chain (so `2 * (A*B)` is one chain
/// whose scale the ordering places, not a scale above it)?
static bool isChainExpr(Operation *op, int64_t maxExpand) {
  if (isa<MatmulOp>(op))
    return true;
  if (auto pow = dyn_cast<PowOp>(op))
    return expandablePower(pow, maxExpand);
  if (isa<ScaleOp, TransposeOp>(op)) {
    Value input = op->getOperand(0);
    Operation *def = input.getDefiningOp();
    return def && input.hasOneUse() && isChainExpr(def, maxExpand);
  }
  return false;
}

SmallVector<Operation *> cmm::findChainRoots(func::FuncOp func) {
  constexpr int64_t maxExpand = 64;
  SmallVector<Operation *> roots;
  func.walk([&](Operation *op) {
    if (isChainExpr(op, maxExpand) && !isAbsorbed(op->getResult(0), maxExpand))
      roots.push_back(op);
  });
  return roots;
}

namespace {
class Flattener {
public:
  Flattener(ProductChain &chain, int64_t maxExpand, size_t maxFactors)
      : chain(chain), maxExpand(maxExpand), maxFactors(maxFactors) {}

  /// Appends the factors of `v` to `out`; the root is expanded whatever its
  /// uses, any other value only if this chain is its single user.
  void expand(Value v, SmallVectorImpl<ChainFactor> &out, bool isRoot) {
    Operation *def = v.getDefiningOp();
    // A factor computed outside the root's region (before a cmm.while, or
    // hoisted out of it) stays a leaf: pulling it in would recompute it at
    // every iteration.
    if (def && def->getParentRegion() != chain.root->getParentRegion())
      def = nullptr;
    if (def && (isRoot || v.hasOneUse())) {
      if (auto product = dyn_cast<MatmulOp>(def)) {
        chain.ops.push_back(def);
        expand(product.getLhs(), out, false);
        expand(product.getRhs(), out, false);
        return;
      }
      if (auto pow = dyn_cast<PowOp>(def);
          pow && expandablePower(pow, maxExpand) && expandPower(pow, out))
        return;
      if (auto transpose = dyn_cast<TransposeOp>(def)) {
        chain.ops.push_back(def);
        // (f1 f2 ... fk)' = fk' ... f2' f1'
        SmallVector<ChainFactor> inner;
        expand(transpose.getInput(), inner, false);
        for (ChainFactor f : llvm::reverse(inner)) {
          f.transposed = !f.transposed;
          std::swap(f.rows, f.cols);
          out.push_back(f);
        }
        return;
      }
      if (auto scale = dyn_cast<ScaleOp>(def)) {
        chain.ops.push_back(def);
        chain.scale *= scale.getFactor().convertToDouble();
        expand(scale.getInput(), out, false);
        return;
      }
    }
    out.push_back({v, false, dim(v, 0), dim(v, 1)});
  }

private:
  /// X^k as k copies of X's factors; (s X)^k contributes s^k. Fails, leaving
  /// the chain as it was, when the expansion would be too long.
  bool expandPower(PowOp pow, SmallVectorImpl<ChainFactor> &out) {
    size_t opsBefore = chain.ops.size();
    double outerScale = chain.scale;
    chain.scale = 1.0;
    chain.ops.push_back(pow);
    SmallVector<ChainFactor> base;
    expand(pow.getInput(), base, false);
    int64_t k = pow.getExponent();
    if (out.size() + base.size() * k > maxFactors) {
      chain.ops.resize(opsBefore);
      chain.scale = outerScale;
      // The power stays a leaf; the chain under it is ordered on its own.
      if (Operation *inner = pow.getInput().getDefiningOp();
          inner && isChainExpr(inner, maxExpand))
        chain.nestedRoots.push_back(inner);
      return false;
    }
    chain.scale = outerScale * std::pow(chain.scale, static_cast<double>(k));
    for (int64_t i = 0; i < k; ++i)
      out.append(base.begin(), base.end());
    chain.hasPower = true;
    return true;
  }

  ProductChain &chain;
  int64_t maxExpand;
  size_t maxFactors;
};
} // namespace

void cmm::forEachChain(func::FuncOp func,
                       llvm::function_ref<void(ProductChain &)> process) {
  SmallVector<Operation *> worklist = findChainRoots(func);
  for (size_t next = 0; next < worklist.size(); ++next) {
    ProductChain chain = flattenChain(worklist[next]);
    worklist.append(chain.nestedRoots.begin(), chain.nestedRoots.end());
    // The chain's scalings multiplied together overflowed, underflowed or
    // were 0, Inf or NaN: one folded factor would change finite elements or
    // where NaN appears, so the chain is left as written.
    if (!std::isnormal(chain.scale))
      continue;
    process(chain);
  }
}

ProductChain cmm::flattenChain(Operation *root, int64_t maxExpand,
                               size_t maxFactors) {
  ProductChain chain;
  chain.root = root;
  Flattener(chain, maxExpand, maxFactors)
      .expand(root->getResult(0), chain.factors, /*isRoot=*/true);
  return chain;
}

double ProductChain::originalFlops() const {
  double flops = 0;
  for (Operation *op : ops)
    flops += flopsOf(op);
  return flops;
}

//===----------------------------------------------------------------------===//
// Ordering
//===----------------------------------------------------------------------===//

/// Length of the run of factors identical to factors[i] starting at i.
static SmallVector<size_t> runLengths(ArrayRef<ChainFactor> factors) {
  SmallVector<size_t> runs(factors.size(), 1);
  for (size_t i = factors.size(); i-- > 1;)
    if (factors[i - 1].sameAs(factors[i]))
      runs[i - 1] = runs[i] + 1;
  return runs;
}

static double squaringFlops(int64_t n, int64_t m) {
  return squaringProducts(m) * matmulFlops(n, n, n);
}

ChainPlan::ChainPlan(size_t n, std::vector<size_t> starts)
    : size(n), segments(starts.size()), segmentOf(n, 0),
      costs(segments * segments, 0.0), splits(segments * segments, 0) {
  for (size_t s = 0; s < segments; ++s) {
    size_t end = s + 1 < segments ? starts[s + 1] : n;
    for (size_t i = starts[s]; i < end; ++i)
      segmentOf[i] = s;
  }
}

ChainPlan ChainPlan::optimal(ArrayRef<ChainFactor> factors,
                             bool allowSquaring) {
  size_t n = factors.size();
  SmallVector<size_t> runs = runLengths(factors);
  auto rows = [&](size_t i) { return factors[i].rows; };
  auto cols = [&](size_t j) { return factors[j].cols; };
  // The leaves: every factor, or for a long chain every run of a repeated
  // square factor (squared whole) and every other factor.
  std::vector<size_t> starts;
  bool exact = n <= kMaxExactFactors;
  for (size_t i = 0; i < n;) {
    starts.push_back(i);
    bool run = !exact && allowSquaring && runs[i] >= 2 && rows(i) == cols(i);
    i += run ? runs[i] : 1;
  }
  if (starts.size() > kMaxExactFactors)
    return ChainPlan(n, {}); // not valid(): the program's order stays
  ChainPlan plan(n, starts);
  size_t segs = starts.size();
  auto last = [&](size_t s) {
    return s + 1 < segs ? starts[s + 1] - 1 : n - 1;
  };
  for (size_t s = 0; s < segs; ++s)
    if (size_t i = starts[s], j = last(s); i < j) {
      plan.cost(i, j) = squaringFlops(rows(i), static_cast<int64_t>(j - i + 1));
      plan.split(i, j) = kSquare;
    }
  for (size_t len = 2; len <= segs; ++len) {
    for (size_t a = 0; a + len <= segs; ++a) {
      size_t b = a + len - 1, i = starts[a], j = last(b);
      double best = std::numeric_limits<double>::infinity();
      int bestSplit = 0;
      for (size_t c = a; c < b; ++c) {
        size_t k = last(c);
        double cost = plan.cost(i, k) + plan.cost(k + 1, j) +
                      matmulFlops(rows(i), cols(k), cols(j));
        if (cost < best) {
          best = cost;
          bestSplit = static_cast<int>(k);
        }
      }
      if (allowSquaring && runs[i] >= j - i + 1 && rows(i) == cols(i)) {
        double c = squaringFlops(rows(i), static_cast<int64_t>(j - i + 1));
        if (c < best) {
          best = c;
          bestSplit = kSquare;
        }
      }
      plan.cost(i, j) = best;
      plan.split(i, j) = bestSplit;
    }
  }
  return plan;
}

ChainPlan ChainPlan::squaring(ArrayRef<ChainFactor> factors) {
  size_t n = factors.size();
  ChainPlan plan(n, {0});
  plan.cost(0, n - 1) = squaringFlops(factors[0].rows, n);
  plan.split(0, n - 1) = kSquare;
  return plan;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

namespace cmm {
/// Emits a plan; leaves and squares are built once and shared.
class ChainEmitter {
public:
  ChainEmitter(const ChainPlan &plan, OpBuilder &b, Location loc,
               ArrayRef<ChainFactor> factors, double scale,
               std::pair<size_t, size_t> scaleAt)
      : plan(plan), b(b), loc(loc), factors(factors), scale(scale),
        scaleAt(scaleAt) {}

  Value emit(size_t i, size_t j) {
    Value v;
    if (i == j) {
      v = leaf(factors[i]);
    } else if (int k = plan.split(i, j); k == ChainPlan::kSquare) {
      v = power(factors[i], static_cast<int64_t>(j - i + 1));
    } else {
      Value lhs = emit(i, k), rhs = emit(k + 1, j);
      v = product(lhs, rhs);
    }
    if (scale != 1.0 && std::make_pair(i, j) == scaleAt)
      v = ScaleOp::create(b, loc, v, b.getF64FloatAttr(scale));
    return v;
  }

  int64_t squarings = 0, squareProducts = 0;

private:
  Value product(Value a, Value c) {
    return MatmulOp::create(
        b, loc, getMatrixType(b.getContext(), dim(a, 0), dim(c, 1)), a, c);
  }

  Value leaf(const ChainFactor &f) {
    if (!f.transposed)
      return f.value;
    Value &t = transposes[f.value];
    if (!t)
      t = TransposeOp::create(
          b, loc, getMatrixType(b.getContext(), f.rows, f.cols), f.value);
    return t;
  }

  /// X^m by binary exponentiation, reusing X^(2^e) across the chain.
  Value power(const ChainFactor &f, int64_t m) {
    Value x = leaf(f);
    return emitPowerBySquaring(b, loc, x, m, powersOf[x], &squarings,
                               &squareProducts);
  }

  const ChainPlan &plan;
  OpBuilder &b;
  Location loc;
  ArrayRef<ChainFactor> factors;
  double scale;
  std::pair<size_t, size_t> scaleAt;
  llvm::DenseMap<Value, Value> transposes;
  llvm::DenseMap<Value, SmallVector<Value>> powersOf;
};
} // namespace cmm

Value cmm::emitPowerBySquaring(OpBuilder &b, Location loc, Value x, int64_t m,
                               SmallVectorImpl<Value> &squares,
                               int64_t *squarings, int64_t *products) {
  auto product = [&](Value l, Value r) -> Value {
    return MatmulOp::create(
        b, loc, getMatrixType(b.getContext(), dim(l, 0), dim(r, 1)), l, r);
  };
  if (squares.empty())
    squares.push_back(x);
  Value result;
  for (unsigned e = 0; m; ++e, m >>= 1) {
    if (squares.size() <= e) {
      squares.push_back(product(squares.back(), squares.back()));
      if (squarings)
        ++*squarings;
    }
    if (m & 1) {
      if (result) {
        result = product(result, squares[e]);
        if (products)
          ++*products;
      } else {
        result = squares[e];
      }
    }
  }
  return result;
}

Value ChainPlan::emit(OpBuilder &builder, Location loc,
                      ArrayRef<ChainFactor> factors, double scale,
                      std::pair<size_t, size_t> scaleAt, int64_t *squarings,
                      int64_t *squareProducts) const {
  ChainEmitter emitter(*this, builder, loc, factors, scale, scaleAt);
  Value v = emitter.emit(0, size - 1);
  if (squarings)
    *squarings += emitter.squarings;
  if (squareProducts)
    *squareProducts += emitter.squareProducts;
  return v;
}

std::pair<size_t, size_t> ChainPlan::scaleNode(ArrayRef<ChainFactor> factors,
                                               double &elements) const {
  std::pair<size_t, size_t> best{0, size - 1};
  elements = std::numeric_limits<double>::infinity();
  SmallVector<std::pair<size_t, size_t>> stack{{0, size - 1}};
  while (!stack.empty()) {
    auto [i, j] = stack.pop_back_val();
    double e = static_cast<double>(factors[i].rows) * factors[j].cols;
    if (e < elements) {
      elements = e;
      best = {i, j};
    }
    if (i == j || split(i, j) == kSquare)
      continue; // inside a squared run a scale would be raised to a power
    stack.push_back({i, size_t(split(i, j))});
    stack.push_back({size_t(split(i, j)) + 1, j});
  }
  return best;
}

double cmm::scaleFlops(const ProductChain &chain, const ChainPlan &plan) {
  if (chain.scale == 1.0)
    return 0;
  double elements;
  plan.scaleNode(chain.factors, elements);
  return elements;
}

Value cmm::rewriteChain(const ProductChain &chain, const ChainPlan &plan,
                        int64_t *squarings, int64_t *squareProducts) {
  Operation *root = chain.root;
  OpBuilder b(root);
  Location loc = root->getLoc();
  double elements;
  std::pair<size_t, size_t> scaleAt = plan.scaleNode(chain.factors, elements);
  Value result = plan.emit(b, loc, chain.factors, chain.scale, scaleAt,
                           squarings, squareProducts);
  root->getResult(0).replaceAllUsesWith(result);
  for (Operation *op : chain.ops)
    op->erase();
  return result;
}
