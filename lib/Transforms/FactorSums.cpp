//===- FactorSums.cpp - Common factors out of sums of chains ----*- C++ -*-===//
//
// A sum of product chains whose terms start (or end) with one factor F is
// F times the sum of the rest: T*P1*T' + T*P2*U' -> T*(P1*T' + P2*U'). The
// rule A*B + A*C -> A*(B+C) of cmm-dynamic-simplify sees only two products
// whose operands are the common factor; here a sum of any number of terms
// is flattened (through single-use + and -) and every term through its
// single-use chain (MatrixChain.h), so the factor is found however the
// chains are parenthesised. Groups are factored greedily, the largest flop
// saving first, each only when it is strictly cheaper: the terms' optimal
// chain costs against the rests' optimal costs, the sums of the rests and
// the one product with F. Montage's mosaic of four T*P*T'-style terms goes
// from 48 to 32 GFLOP per channel this way (two left factors, T and U).
// It runs before cmm-reorder-chains, which then orders the new chains.
//
// Only single-use terms and partial sums are absorbed, so nothing is
// computed twice; A*(B+C) rounds differently from A*B + A*C, the
// reassociation docs/language.md allows for products.
//
//===----------------------------------------------------------------------===//

#include "cmm/Transforms/FlopCount.h"
#include "cmm/Transforms/MatrixChain.h"
#include "cmm/Transforms/Passes.h"

#include <cmath>
#include <optional>

namespace cmm {
#define GEN_PASS_DEF_FACTORSUMS
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

int64_t dim(Value v, unsigned d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

/// One signed term of a flattened sum: its value, and its chain (factors
/// and scale) when it is a single-use chain of two or more factors.
struct Term {
  Value value;
  bool negative = false;
  SmallVector<ChainFactor> factors; // empty: not a chain, never factored
  double scale = 1.0;
  double cost = 0; // flops of its chain in the optimal order
};

bool isSumOp(Operation *op) { return isa<AddOp, SubOp>(op); }

/// Whether `v` is a partial sum that its user's sum absorbs: one use, by a
/// + or - of the same shape (no broadcast on either side).
bool isAbsorbedSum(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isSumOp(def) || !v.hasOneUse())
    return false;
  Operation *user = *v.getUsers().begin();
  return isSumOp(user) && user->getResult(0).getType() == v.getType() &&
         user->getOperand(0).getType() == user->getOperand(1).getType();
}

class SumFactorer {
public:
  SumFactorer(Operation *root, RuleCounts &counts)
      : root(root), counts(counts) {}

  void run() {
    flatten(root->getResult(0), false, /*isRoot=*/true);
    if (terms.size() < 2)
      return;
    bool changed = false;
    while (factorBestGroup())
      changed = true;
    if (!changed)
      return;
    OpBuilder b(root);
    Value sum = emitSum(b, terms);
    root->getResult(0).replaceAllUsesWith(sum);
    eraseDead();
  }

private:
  /// Splits `v` into signed terms through same-shape, single-use sums.
  void flatten(Value v, bool negative, bool isRoot) {
    Operation *def = v.getDefiningOp();
    // Terms from outside the root's block (before a cmm.while) stay leaves.
    if (def && def->getBlock() != root->getBlock())
      def = nullptr;
    if (def && isSumOp(def) &&
        def->getOperand(0).getType() == def->getOperand(1).getType() &&
        (isRoot || isAbsorbedSum(v))) {
      replaced.push_back(def);
      flatten(def->getOperand(0), negative, false);
      flatten(def->getOperand(1), negative != isa<SubOp>(def), false);
      return;
    }
    Term term{v, negative};
    if (def && v.hasOneUse() && isa<MatmulOp, ScaleOp, TransposeOp>(def)) {
      ProductChain chain = flattenChain(def);
      if (chain.factors.size() >= 2 && std::isnormal(chain.scale)) {
        if (ChainPlan plan = ChainPlan::optimal(chain.factors); plan.valid()) {
          term.factors = chain.factors;
          term.scale = chain.scale;
          term.cost = plan.flops();
          replaced.append(chain.ops.begin(), chain.ops.end());
        }
      }
    }
    terms.push_back(std::move(term));
  }

  /// The factor a term shares on `left` (its first) or right (its last).
  static const ChainFactor &end(const Term &t, bool left) {
    return left ? t.factors.front() : t.factors.back();
  }
  /// A term's factors without that end.
  static ArrayRef<ChainFactor> rest(const Term &t, bool left) {
    ArrayRef<ChainFactor> f = t.factors;
    return left ? f.drop_front() : f.drop_back();
  }

  /// Factors the group of terms with the largest flop saving out of the
  /// sum; false when no group saves anything.
  bool factorBestGroup() {
    double bestSaving = 0;
    SmallVector<size_t> bestGroup;
    bool bestLeft = true;
    for (bool left : {true, false}) {
      // Terms grouped by their end factor, in order of first appearance.
      SmallVector<SmallVector<size_t>> groups;
      for (size_t i = 0; i < terms.size(); ++i) {
        if (terms[i].factors.empty())
          continue;
        auto same = llvm::find_if(groups, [&](const SmallVector<size_t> &g) {
          return end(terms[g.front()], left).sameAs(end(terms[i], left)) &&
                 rest(terms[g.front()], left).front().rows ==
                     rest(terms[i], left).front().rows &&
                 rest(terms[g.front()], left).back().cols ==
                     rest(terms[i], left).back().cols;
        });
        if (same == groups.end())
          groups.push_back({i});
        else
          same->push_back(i);
      }
      for (const SmallVector<size_t> &group : groups) {
        if (group.size() < 2)
          continue;
        std::optional<double> saving = savingOf(group, left);
        if (saving && *saving > bestSaving) {
          bestSaving = *saving;
          bestGroup = group;
          bestLeft = left;
        }
      }
    }
    if (bestGroup.empty())
      return false;
    factor(bestGroup, bestLeft);
    ++counts["sums-factored"];
    counts["terms-factored"] += bestGroup.size();
    return true;
  }

  /// Flops saved by factoring `group` on that side, if it saves any.
  std::optional<double> savingOf(ArrayRef<size_t> group, bool left) const {
    double before = 0, after = 0;
    for (size_t i : group) {
      before += terms[i].cost;
      ChainPlan plan = ChainPlan::optimal(rest(terms[i], left));
      if (!plan.valid())
        return std::nullopt;
      after += plan.flops();
    }
    const Term &first = terms[group.front()];
    ArrayRef<ChainFactor> r = rest(first, left);
    int64_t restRows = r.front().rows, restCols = r.back().cols;
    const ChainFactor &f = end(first, left);
    double sums = double(group.size() - 1) * double(restRows) * restCols;
    double product = left ? matmulFlops(f.rows, f.cols, restCols)
                          : matmulFlops(restRows, restCols, f.cols);
    after += sums + product;
    // Strictly cheaper, beyond rounding of the float counts.
    if (!(after < before * (1.0 - 1e-9)))
      return std::nullopt;
    return before - after;
  }

  /// Replaces the terms of `group` with one: their common factor times the
  /// sum of their rests (each with its sign and scale).
  void factor(ArrayRef<size_t> group, bool left) {
    OpBuilder b(root);
    Location loc = root->getLoc();
    // -F*X - F*Y is -(F*(X + Y)): with more negative terms than positive
    // ones, the sign goes outside the product.
    size_t negatives =
        llvm::count_if(group, [&](size_t i) { return terms[i].negative; });
    bool flip = 2 * negatives > group.size();
    SmallVector<Term> rests;
    for (size_t i : group) {
      const Term &t = terms[i];
      ArrayRef<ChainFactor> r = rest(t, left);
      ChainPlan plan = ChainPlan::optimal(r);
      double elements = 0;
      Value v = plan.emit(b, loc, r, t.scale, plan.scaleNode(r, elements));
      rests.push_back(Term{v, t.negative != flip});
    }
    Value sum = emitSum(b, rests);
    ChainFactor common = end(terms[group.front()], left);
    ChainFactor sumFactor{sum, false, dim(sum, 0), dim(sum, 1)};
    SmallVector<ChainFactor> pair;
    if (left)
      pair = {common, sumFactor};
    else
      pair = {sumFactor, common};
    ChainPlan pairPlan = ChainPlan::optimal(pair);
    Value product = pairPlan.emit(b, loc, pair);
    Term merged{product, flip, pair, 1.0, pairPlan.flops()};
    // The merged term takes the first member's place.
    terms[group.front()] = merged;
    for (size_t k = group.size(); k-- > 1;)
      terms.erase(terms.begin() + group[k]);
  }

  /// The signed sum of `parts`, left to right; a negative first part with
  /// a positive one elsewhere starts from that one instead (a - b, not
  /// -b + a), else it is negated.
  Value emitSum(OpBuilder &b, SmallVector<Term> parts) {
    Location loc = root->getLoc();
    auto positive =
        llvm::find_if(parts, [](const Term &t) { return !t.negative; });
    if (positive != parts.end())
      std::rotate(parts.begin(), positive, positive + 1);
    Value sum = parts.front().value;
    if (parts.front().negative)
      sum = NegOp::create(b, loc, sum);
    Type type = sum.getType(); // every part has it
    for (const Term &t : ArrayRef<Term>(parts).drop_front())
      sum = t.negative ? SubOp::create(b, loc, type, sum, t.value).getResult()
                       : AddOp::create(b, loc, type, sum, t.value).getResult();
    return sum;
  }

  /// Erases the sums and chain ops the new sum replaced, users first.
  void eraseDead() {
    bool erased = true;
    while (erased) {
      erased = false;
      for (Operation *&op : replaced)
        if (op && op->use_empty()) {
          op->erase();
          op = nullptr;
          erased = true;
        }
    }
  }

  Operation *root;
  RuleCounts &counts;
  SmallVector<Term> terms;
  SmallVector<Operation *> replaced;
};

struct FactorSumsPass : public cmm::impl::FactorSumsBase<FactorSumsPass> {
  void runOnOperation() override {
    RuleCounts counts;
    // Roots: sums that no other sum absorbs, collected first (factoring
    // erases ops).
    SmallVector<Operation *> roots;
    getOperation().walk([&](Operation *op) {
      if (isSumOp(op) && !isAbsorbedSum(op->getResult(0)))
        roots.push_back(op);
    });
    for (Operation *root : roots)
      SumFactorer(root, counts).run();
    recordRewrites(*this, getOperation(), counts);
  }
};
} // namespace
