//===- Polynomials.cpp - Paterson-Stockmeyer for polynomials ----*- C++ -*-===//
//
// Section 3.1 of the Cloud Matrix Machine paper asks for fewer products in
// expressions of one matrix. A polynomial p(A) = c0 I + c1 A + ... + cd A^d,
// written as a sum of scaled powers or traced from a Horner loop, takes up
// to d products; Paterson and Stockmeyer (SIAM J. Comput. 2(1), 1973)
// evaluate it in about (s - 1) + floor(d / s) products for s near
// sqrt(d): the powers A^2 ... A^s, then Horner's rule in A^s over the
// blocks B_j = sum_{i < s} c_{js+i} A^i, which take only scalings and
// additions. Degree 16 is 6 products (s = 4) instead of 16.
//
// The rewrite is exact in exact arithmetic; in floating point it sums the
// same terms in another order (docs/passes.md states the bound).
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/Structure.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include <cmath>

namespace cmm {
#define GEN_PASS_DEF_POLYNOMIALS
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

/// Degrees above this are not expanded (a power A^k with a large k is the
/// squaring pass's).
constexpr size_t kMaxDegree = 64;
/// Values one match may visit: a traced block can hold 10^5 ops, and every
/// candidate root is matched once.
constexpr int kMaxVisits = 4096;
/// Ops all matches of one block may visit: each root's search walks what it
/// reads, so a chain of n square products (a traced loop `X = A * X`) would
/// take n^2 / 2 visits (3000 steps took 130 s under ASan); past this the
/// block's remaining roots are not tried.
constexpr int64_t kMaxBlockVisits = 16 * kMaxVisits;

/// Coefficients by degree.
using Poly = SmallVector<double, 8>;

Poly add(const Poly &a, const Poly &b, double sign) {
  Poly r(std::max(a.size(), b.size()), 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    r[i] += a[i];
  for (size_t i = 0; i < b.size(); ++i)
    r[i] += sign * b[i];
  return r;
}

Poly multiply(const Poly &a, const Poly &b) {
  Poly r(a.size() + b.size() - 1, 0.0);
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b.size(); ++j)
      r[i + j] += a[i] * b[j];
  return r;
}

/// The products Paterson-Stockmeyer takes for degree `d` with block size
/// `s`: the powers A^2 ... A^s and the Horner steps in A^s, less one where
/// the top block is c_d I alone (s divides d: its step is a scaling).
int64_t psProducts(int64_t d, int64_t s) {
  return (s - 1) + d / s - (d % s == 0 ? 1 : 0);
}

/// The block size that minimises the products for degree `d`.
int64_t bestBlock(int64_t d) {
  int64_t best = 1;
  for (int64_t s = 2; s <= d; ++s)
    if (psProducts(d, s) < psProducts(d, best))
      best = s;
  return best;
}

/// Whether `op` of `block` is an op a polynomial is made of.
bool isPolynomialOp(Operation *op, Block *block) {
  return op && op->getBlock() == block &&
         isa<AddOp, SubOp, MatmulOp, PowOp, ScaleOp, NegOp, DivOp, MulOp>(op);
}

/// Whether `v` is made, through ops a polynomial is made of, from a product
/// or a power (Horner's accumulator is; the matrix it is in is not).
bool madeFromProducts(Value v, Block *block,
                      llvm::DenseMap<Value, bool> &memo) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  bool made = false;
  if (isPolynomialOp(def, block) && memo.size() < size_t(kMaxVisits)) {
    made = isa<MatmulOp, PowOp>(def);
    for (Value operand : def->getOperands())
      made = made || madeFromProducts(operand, block, memo);
  }
  memo[v] = made;
  return made;
}

/// The matrix a polynomial at `root` would be in: the factor its products
/// and powers take most often that is not itself made from products (a
/// scaled `A = B * f` is A, a sum `A + A'` is itself); null when it has no
/// product.
/// Every op walked is charged to `budget`.
Value findBase(Operation *root, Block *block, int64_t &budget) {
  llvm::MapVector<Value, int> factors;
  llvm::DenseMap<Value, bool> made;
  llvm::DenseSet<Operation *> seen;
  SmallVector<Operation *> work{root};
  while (!work.empty() && seen.size() < size_t(kMaxVisits) && budget > 0) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    --budget;
    for (Value operand : op->getOperands()) {
      if (isa<MatmulOp, PowOp>(op) && !madeFromProducts(operand, block, made))
        ++factors[operand];
      // The polynomial's values all have the root's type.
      if (Operation *def = operand.getDefiningOp();
          isPolynomialOp(def, block) &&
          operand.getType() == root->getResult(0).getType() &&
          madeFromProducts(operand, block, made))
        work.push_back(def);
    }
  }
  Value best;
  int most = 0;
  for (auto [value, count] : factors)
    if (count > most) {
      best = value;
      most = count;
    }
  return best;
}

/// A polynomial in one square matrix found in the ops of one block.
class PolynomialMatcher {
public:
  /// A matcher of polynomials in `base` (findBase) among the ops of
  /// `block`.
  PolynomialMatcher(Block *block, Value base) : block(block), base(base) {}

  /// p(base) for `v`, or nullopt when `v` is not a polynomial in one base.
  std::optional<Poly> match(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    if (++visits > kMaxVisits)
      return std::nullopt;
    std::optional<Poly> p = compute(v);
    memo[v] = p;
    memoOrder.push_back(v);
    return p;
  }

  Value getBase() const { return base; }
  /// The values matched so far.
  int getVisits() const { return visits; }
  /// The ops of the polynomial (what a rewrite replaces), in no order.
  const llvm::SetVector<Operation *> &getOps() const { return ops; }
  /// The matrix products the ops take now: each product, and a power's
  /// squarings and products.
  int64_t productsNow() const {
    int64_t n = 0;
    for (Operation *op : ops) {
      if (isa<MatmulOp>(op))
        ++n;
      else if (auto pow = dyn_cast<PowOp>(op))
        n += squaringProducts(pow.getExponent());
    }
    return n;
  }

private:
  /// What a failed attempt to open an op undoes: what it memoised and the
  /// ops it collected.
  struct Checkpoint {
    size_t memoized, collected;
  };
  Checkpoint checkpoint() const { return {memoOrder.size(), ops.size()}; }
  void rollback(const Checkpoint &c) {
    while (memoOrder.size() > c.memoized)
      memo.erase(memoOrder.pop_back_val());
    while (ops.size() > c.collected)
      ops.pop_back();
  }

  std::optional<Poly> compute(Value v) {
    // The base is never opened: `A = B * f` stays A (its powers, not f^k
    // times B's, which overflow and underflow where A's do not).
    if (v == base)
      return Poly{0.0, 1.0};
    Operation *op = v.getDefiningOp();
    if (isa_and_nonnull<EyeOp>(op))
      return Poly{1.0};
    // Ops of this block only: a value from outside (or an argument) is a
    // leaf, never opened (a loop body does not pull work into itself).
    if (op && op->getBlock() == block) {
      Checkpoint before = checkpoint();
      if (auto r = interior(op)) {
        ops.insert(op);
        return r;
      }
      rollback(before);
    }
    return std::nullopt; // a leaf other than the base
  }

  std::optional<Poly> interior(Operation *op) {
    auto sameType = [&](Value x) {
      return x.getType() == op->getResult(0).getType();
    };
    auto degreeOk = [](const Poly &p) -> std::optional<Poly> {
      if (p.size() > kMaxDegree + 1)
        return std::nullopt;
      return p;
    };
    if (auto s = dyn_cast<ScaleOp>(op)) {
      auto p = match(s.getInput());
      if (!p)
        return std::nullopt;
      for (double &c : *p)
        c *= s.getFactor().convertToDouble();
      return p;
    }
    // x ./ c and x .* c for a constant 1x1 (or splat) c: scalings.
    if (isa<DivOp, MulOp>(op)) {
      Value x = op->getOperand(0), c = op->getOperand(1);
      if (isa<MulOp>(op) && !getSplatValue(c))
        std::swap(x, c);
      std::optional<double> factor = getSplatValue(c);
      if (!factor || !sameType(x))
        return std::nullopt;
      auto p = match(x);
      if (!p)
        return std::nullopt;
      for (double &coefficient : *p)
        coefficient =
            isa<DivOp>(op) ? coefficient / *factor : coefficient * *factor;
      return p;
    }
    if (auto n = dyn_cast<NegOp>(op)) {
      auto p = match(n.getInput());
      if (!p)
        return std::nullopt;
      return add(Poly{}, *p, -1.0);
    }
    if (isa<AddOp, SubOp>(op)) {
      if (!sameType(op->getOperand(0)) || !sameType(op->getOperand(1)))
        return std::nullopt;
      auto a = match(op->getOperand(0));
      auto b = a ? match(op->getOperand(1)) : std::nullopt;
      if (!b)
        return std::nullopt;
      return add(*a, *b, isa<SubOp>(op) ? -1.0 : 1.0);
    }
    if (auto m = dyn_cast<MatmulOp>(op)) {
      if (!sameType(m.getLhs()) || !sameType(m.getRhs()))
        return std::nullopt;
      auto a = match(m.getLhs());
      auto b = a ? match(m.getRhs()) : std::nullopt;
      if (!b)
        return std::nullopt;
      return degreeOk(multiply(*a, *b));
    }
    if (auto pow = dyn_cast<PowOp>(op)) {
      if (uint64_t(pow.getExponent()) > kMaxDegree)
        return std::nullopt;
      auto a = match(pow.getInput());
      if (!a)
        return std::nullopt;
      Poly r{1.0};
      for (uint64_t i = 0; i < pow.getExponent(); ++i) {
        r = multiply(r, *a);
        if (r.size() > kMaxDegree + 1)
          return std::nullopt;
      }
      return r;
    }
    return std::nullopt;
  }

  Block *block;
  int visits = 0;
  Value base;
  llvm::DenseMap<Value, std::optional<Poly>> memo;
  SmallVector<Value> memoOrder;
  llvm::SetVector<Operation *> ops;
};

/// c * x, or x for c = 1.
Value scaled(OpBuilder &b, Location loc, Value x, double c) {
  return c == 1 ? x : Value(ScaleOp::create(b, loc, x, b.getF64FloatAttr(c)));
}

/// x + y, or x where y is null (a block without terms).
Value plus(OpBuilder &b, Location loc, Value x, Value y) {
  return y ? Value(AddOp::create(b, loc, x.getType(), x, y)) : x;
}

/// sum_i c_i P_i over the powers `powers` (P_0 = I), skipping zeros; null
/// when every coefficient is zero.
Value linearCombination(OpBuilder &b, Location loc, RankedTensorType type,
                        ArrayRef<double> coefficients, ArrayRef<Value> powers) {
  Value sum;
  for (auto [i, c] : llvm::enumerate(coefficients)) {
    if (c == 0)
      continue;
    Value term = i == 0 ? Value(EyeOp::create(b, loc, type)) : powers[i];
    term = scaled(b, loc, term, c);
    sum = sum ? plus(b, loc, sum, term) : term;
  }
  return sum;
}

/// p(A) by Paterson-Stockmeyer with block size s.
Value emitPatersonStockmeyer(OpBuilder &b, Location loc, Value base,
                             const Poly &p, int64_t s) {
  auto type = cast<RankedTensorType>(base.getType());
  int64_t d = int64_t(p.size()) - 1;
  SmallVector<Value> powers{Value(), base}; // powers[i] = A^i, i <= s
  for (int64_t i = 2; i <= s; ++i)
    powers.push_back(MatmulOp::create(b, loc, type, powers.back(), base));
  auto block = [&](int64_t j) {
    int64_t first = j * s, last = std::min(d, first + s - 1);
    return linearCombination(b, loc, type,
                             ArrayRef<double>(p).slice(first, last - first + 1),
                             powers);
  };
  // Horner in A^s: B_r, then (... * A^s + B_j) down to j = 0. A top block
  // c_d I (s divides d) starts as c_d A^s, a scaling.
  int64_t r = d / s, j = r - 1;
  Value result;
  if (d % s == 0) {
    Value top = scaled(b, loc, powers[s], p[d]);
    result = plus(b, loc, top, block(j--));
  } else {
    result = block(r); // c_d != 0: not null
  }
  for (; j >= 0; --j) {
    result = MatmulOp::create(b, loc, type, result, powers[s]);
    result = plus(b, loc, result, block(j));
  }
  return result;
}

struct PolynomialsPass : public cmm::impl::PolynomialsBase<PolynomialsPass> {
  void runOnOperation() override {
    RuleCounts counts;
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      rewriteBlock(block, counts);
    SmallVector<PowOp> powers;
    getOperation().walk([&](PowOp pow) { powers.push_back(pow); });
    for (PowOp pow : powers)
      powerByEigendecomposition(pow, counts);
    recordRewrites(*this, getOperation(), counts);
  }

  /// A^k = V diag(w^k) V' for A symmetric by construction (w, V = eig(A)),
  /// where it takes fewer flops than squaring: eig's 9 n^3 (eigFlops) and
  /// one product against 2 n^3 per product of squaring, so from k = 48 (6
  /// products) on; docs/passes.md gives the error bound.
  void powerByEigendecomposition(PowOp pow, RuleCounts &counts) {
    auto type = cast<RankedTensorType>(pow.getType());
    const int64_t n = type.getDimSize(0);
    const uint64_t k = pow.getExponent();
    if (k < 2 || !isSymmetricByConstruction(pow.getInput()))
      return;
    const double squaring =
        matmulFlops(n, n, n) * double(squaringProducts(int64_t(k)));
    if (eigFlops(n) + matmulFlops(n, n, n) + 2.0 * n * n >= squaring)
      return;
    OpBuilder b(pow);
    Location loc = pow.getLoc();
    MLIRContext *ctx = pow.getContext();
    auto column =
        RankedTensorType::get({type.getDimSize(0), 1}, type.getElementType());
    auto row =
        RankedTensorType::get({1, type.getDimSize(0)}, type.getElementType());
    auto eig = EigOp::create(b, loc, column, type, pow.getInput());
    // w .^ k as a row, each column j of V scaled by w_j^k, times V'.
    Value exponent =
        FillOp::create(b, loc, RankedTensorType::get({1, 1}, b.getF64Type()),
                       b.getF64FloatAttr(double(k)));
    Value powers = EPowOp::create(b, loc, column, eig.getValues(), exponent);
    Value scales = TransposeOp::create(b, loc, row, powers);
    Value scaled = MulOp::create(b, loc, type, eig.getVectors(), scales);
    Value result = GemmOp::create(b, loc, type, scaled, UnitAttr(),
                                  eig.getVectors(), UnitAttr::get(ctx));
    pow.getResult().replaceAllUsesWith(result);
    pow.erase();
    ++counts["powers-by-eigendecomposition"];
  }

  /// Coefficients that scalings of the base's powers cannot overflow or
  /// underflow: a finite magnitude within 1e-100 .. 1e100 (or 0).
  static bool representable(const Poly &p) {
    return llvm::all_of(p, [](double c) {
      return c == 0 || (std::isfinite(c) && std::abs(c) <= 1e100 &&
                        std::abs(c) >= 1e-100);
    });
  }

  /// c A^k: a power, the squaring and chain passes' (u * P^4 is four
  /// vector products there, not two squarings here).
  static bool isMonomial(const Poly &p) {
    return llvm::count_if(p, [](double c) { return c != 0; }) <= 1;
  }

  /// Whether the polynomial's value is multiplied by a matrix with fewer
  /// columns or rows than it has (u * p(A) for a row u): Horner's rule on
  /// that operand takes d thin products, cheaper than any n x n product,
  /// so the ops are left as they are.
  static bool appliedToThinner(Operation *root) {
    int64_t n =
        cast<RankedTensorType>(root->getResult(0).getType()).getDimSize(0);
    return llvm::any_of(root->getUsers(), [&](Operation *user) {
      if (!isa<MatmulOp, GemmOp>(user))
        return false;
      auto t = cast<RankedTensorType>(user->getResult(0).getType());
      return t.getDimSize(0) < n || t.getDimSize(1) < n;
    });
  }

  static bool isCandidate(Operation *op) {
    return isa<AddOp, SubOp, MatmulOp, PowOp, ScaleOp, NegOp, DivOp, MulOp>(op);
  }

  void rewriteBlock(Block *block, RuleCounts &counts) {
    // Roots: the last op of an expression first (an op no candidate of the
    // block reads); where one is not a polynomial, the ops it reads are
    // tried in turn. Each op is tried once.
    SmallVector<Operation *> work;
    for (Operation &op : llvm::reverse(*block))
      if (isCandidate(&op) && llvm::none_of(op.getUsers(), [&](Operation *u) {
            return u->getBlock() == block && isCandidate(u);
          }))
        work.push_back(&op);
    std::reverse(work.begin(), work.end());
    // `done`: tried, or erased by a rewrite (never dereferenced again).
    llvm::DenseSet<Operation *> done;
    int64_t budget = kMaxBlockVisits;
    while (!work.empty() && budget > 0) {
      Operation *root = work.pop_back_val();
      if (!done.insert(root).second)
        continue;
      switch (rewriteAt(root, block, counts, done, budget)) {
      case Outcome::Rewritten:
        continue;
      case Outcome::Declined:
        // A polynomial left as it is: none of its parts is rewritten
        // either; what it is a polynomial of may hold another.
        if (Operation *def = declinedBase.getDefiningOp();
            def && def->getBlock() == block && isCandidate(def))
          work.push_back(def);
        continue;
      case Outcome::NotPolynomial:
        break;
      }
      for (Value operand : root->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == block && isCandidate(def))
          work.push_back(def);
    }
  }

  enum class Outcome { Rewritten, Declined, NotPolynomial };
  /// The base of the last declined polynomial.
  Value declinedBase;

  /// p(A) at `root` by Paterson-Stockmeyer, when it takes fewer products.
  Outcome rewriteAt(Operation *root, Block *block, RuleCounts &counts,
                    llvm::DenseSet<Operation *> &done, int64_t &budget) {
    // p(A) is square, of A's type: a thinner root (x = A * x, traced from
    // a loop) is no polynomial, and its search would walk the whole chain.
    auto type = cast<RankedTensorType>(root->getResult(0).getType());
    if (type.getDimSize(0) != type.getDimSize(1))
      return Outcome::NotPolynomial;
    Value base = findBase(root, block, budget);
    if (!base || base.getType() != type)
      return Outcome::NotPolynomial;
    PolynomialMatcher matcher(block, base);
    std::optional<Poly> p = matcher.match(root->getResult(0));
    budget -= matcher.getVisits();
    if (!p || !matcher.getOps().contains(root))
      return Outcome::NotPolynomial;
    // The degree is that of the last nonzero coefficient (c A^5 - c A^5
    // has none of degree 5).
    while (p->size() > 1 && p->back() == 0)
      p->pop_back();
    auto decline = [&] {
      for (Operation *op : matcher.getOps())
        done.insert(op);
      declinedBase = matcher.getBase();
      return Outcome::Declined;
    };
    if (p->size() < 3 || isMonomial(*p) || appliedToThinner(root) ||
        !representable(*p))
      return decline();
    // Only ops whose every reader is in the polynomial are replaced: one
    // read elsewhere keeps its products.
    bool closed = llvm::all_of(matcher.getOps(), [&](Operation *op) {
      return op == root || llvm::all_of(op->getUsers(), [&](Operation *user) {
               return matcher.getOps().contains(user);
             });
    });
    int64_t d = int64_t(p->size()) - 1, s = bestBlock(d),
            now = matcher.productsNow();
    if (!closed)
      return Outcome::NotPolynomial; // a part of it may still be one
    if (psProducts(d, s) >= now)
      return decline();
    OpBuilder b(root);
    Value result =
        emitPatersonStockmeyer(b, root->getLoc(), matcher.getBase(), *p, s);
    root->getResult(0).replaceAllUsesWith(result);
    // Readers before what they read: the block's order reversed.
    SmallVector<Operation *> dead(matcher.getOps().begin(),
                                  matcher.getOps().end());
    llvm::sort(
        dead, [](Operation *x, Operation *y) { return y->isBeforeInBlock(x); });
    for (Operation *op : dead) {
      done.insert(op);
      op->erase();
    }
    ++counts["polynomials"];
    counts["products-saved"] += now - psProducts(d, s);
    return Outcome::Rewritten;
  }
};

} // namespace
