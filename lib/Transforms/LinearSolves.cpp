//===- LinearSolves.cpp - Products with inverses become solves --*- C++ -*-===//
//
// Section 3.1 of the Cloud Matrix Machine paper lists, after exponentiation
// by squaring, "the Moore-Penrose pseudo-inverse for least-squares
// programs". A program that multiplies by an inverse asks for a solve:
//  - inv(A) * B -> A \ B: an LU and two triangular solves per column
//    (2/3 n^3 + 2 n^2 k flops) instead of the inverse (2 n^3) and a
//    product (2 n^2 k), and no less accurate;
//  - pinv(X) * B -> X \ B for a non-square X: the minimal-norm
//    least-squares solution either way (the language's `\`);
//  - (X' X) \ (X' Y) -> X \ Y for X with at least as many rows as columns
//    (the normal equations, also reached from inv(X' X) * (X' Y)): the
//    least-squares route, which does not square X's condition number;
//  - A \ B with A triangular by construction (a Cholesky factor, its
//    transpose, tril, triu) is marked `triangular`: one substitution,
//    reading a transposed triangle where it is stored;
//  - A \ B with A symmetric positive semi-definite by construction (X' X,
//    X X', eye, their positive combinations) is marked `cholesky`: the
//    solve tries a Cholesky factorization (n^3 / 3 flops, half an LU's)
//    and falls back to LU when it fails (docs/passes.md);
//  - chol, eig and eigvals of a matrix symmetric bit for bit by
//    construction are marked `symmetric`: no run-time symmetry test.
// Each rewrite replaces the product or solve only when the inverse or
// normal matrix has no other use, so it computes less, never more.
//
//===----------------------------------------------------------------------===//

#include "cmm/Dialect/Cmm/RulePattern.h"
#include "cmm/Dialect/Cmm/Structure.h"
#include "cmm/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace cmm {
#define GEN_PASS_DEF_LINEARSOLVES
#include "cmm/Transforms/Passes.h.inc"
} // namespace cmm

using namespace mlir;
using namespace cmm;

namespace {

/// A product op(L) * op(R) whose lhs is read as stored: cmm.matmul, or
/// cmm.gemm without `transposed` on its lhs.
struct Product {
  Value lhs, rhs;
  bool transposeRhs = false;
};

std::optional<Product> productOf(Operation *op) {
  if (auto m = dyn_cast<MatmulOp>(op))
    return Product{m.getLhs(), m.getRhs(), false};
  if (auto g = dyn_cast<GemmOp>(op); g && !g.getTransposeLhs())
    return Product{g.getLhs(), g.getRhs(), g.getTransposeRhs()};
  return std::nullopt;
}

/// The product's right operand as a value (a transpose where it is read
/// transposed).
Value rhsValue(PatternRewriter &rewriter, Location loc, const Product &p) {
  if (!p.transposeRhs)
    return p.rhs;
  auto type = cast<RankedTensorType>(p.rhs.getType());
  return TransposeOp::create(
      rewriter, loc,
      RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                            type.getElementType()),
      p.rhs);
}

/// Whether `later` runs right after `first` as far as anything can tell:
/// in its block (not in a loop that may run it many times or none), with
/// only pure ops between (no print that would now come before the error).
bool nothingObservedBetween(Operation *first, Operation *later) {
  if (first->getBlock() != later->getBlock())
    return false;
  for (Operation *op = first->getNextNode(); op && op != later;
       op = op->getNextNode())
    if (!isPure(op))
      return false;
  return true;
}

/// inv(A) * B -> A \ B, and pinv(X) * B -> X \ B for a non-square X (a
/// square X \ B would be an LU, which fails where pinv does not).
template <typename ProductOp, typename InverseOp>
struct ProductWithInverse : RulePattern<ProductOp> {
  using RulePattern<ProductOp>::RulePattern;
  LogicalResult rewrite(ProductOp op,
                        PatternRewriter &rewriter) const override {
    std::optional<Product> p = productOf(op);
    if (!p || !p->lhs.hasOneUse())
      return failure();
    auto inverse = p->lhs.template getDefiningOp<InverseOp>();
    if (!inverse || !nothingObservedBetween(inverse, op))
      return failure();
    auto a = cast<RankedTensorType>(inverse.getInput().getType());
    if (std::is_same_v<InverseOp, PinvOp> && a.getDimSize(0) == a.getDimSize(1))
      return failure();
    Value b = rhsValue(rewriter, op.getLoc(), *p);
    // At the inverse's line and in its words: a singular A is reported
    // where and as it is inverted.
    auto solve = SolveOp::create(rewriter, inverse.getLoc(), op.getType(),
                                 inverse.getInput(), b);
    solve.setReplaces(std::is_same_v<InverseOp, PinvOp> ? ReplacedCall::Pinv
                                                        : ReplacedCall::Inv);
    rewriter.replaceOp(op, solve);
    return success();
  }
};

/// X' * Y as cmm.gemm reads it: the X and Y of `gemm X transposed, Y`.
std::optional<std::pair<Value, Value>> transposedProduct(Value v) {
  auto g = v.getDefiningOp<GemmOp>();
  if (!g || !g.getTransposeLhs() || g.getTransposeRhs() || !v.hasOneUse())
    return std::nullopt;
  return std::make_pair(g.getLhs(), g.getRhs());
}

/// The X and Y of (X' X) \ (X' Y), X m x n with m >= n (for m < n, X' X
/// is singular: the program's own error stays), in one block with only
/// pure ops between.
std::optional<std::pair<Value, Value>> normalEquationsOf(SolveOp op) {
  auto gram = transposedProduct(op.getLhs());
  auto moment = transposedProduct(op.getRhs());
  if (!gram || !moment || gram->first != gram->second ||
      moment->first != gram->first)
    return std::nullopt;
  auto x = cast<RankedTensorType>(gram->first.getType());
  if (x.getDimSize(0) < x.getDimSize(1))
    return std::nullopt;
  for (Value v : {op.getLhs(), op.getRhs()})
    if (!nothingObservedBetween(v.getDefiningOp(), op))
      return std::nullopt;
  return moment;
}

/// (X' X) \ (X' Y) -> X \ Y.
struct NormalEquations : RulePattern<SolveOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(SolveOp op, PatternRewriter &rewriter) const override {
    auto xy = normalEquationsOf(op);
    if (!xy)
      return failure();
    // full_rank: a rank-deficient X stays the singular error of X' X (or
    // of the inv(X' X) the program wrote: `replaces` is kept).
    ReplacedCallAttr replaces = op.getReplacesAttr();
    auto solve = rewriter.replaceOpWithNewOp<SolveOp>(op, op.getType(),
                                                      xy->first, xy->second);
    solve.setFullRank(true);
    solve.setReplacesAttr(replaces);
    return success();
  }
};

/// A \ B -> A \ B by Cholesky (with LU when it fails) for A symmetric
/// positive semi-definite by construction.
struct CholeskySolve : RulePattern<SolveOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(SolveOp op, PatternRewriter &rewriter) const override {
    if (op.getMethod() != cmmrt::SolveMethod::General ||
        !isSemiDefinite(op.getLhs()) || normalEquationsOf(op))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.setCholesky(true); });
    return success();
  }
};

/// A \ B -> one substitution for A triangular by construction (R \ (R' \
/// b) after chol: n^2 flops per column instead of an LU's 2/3 n^3). A
/// transposed triangle, T' \ B, is solved reading T where it is stored
/// (`transposed`): the transpose is not made.
struct TriangularSolve : RulePattern<SolveOp> {
  using RulePattern::RulePattern;
  LogicalResult rewrite(SolveOp op, PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getLhs().getType());
    if (op.getMethod() != cmmrt::SolveMethod::General ||
        type.getDimSize(0) != type.getDimSize(1))
      return failure();
    Value stored = op.getLhs();
    bool transposed = false;
    std::optional<Triangle> triangle;
    if (auto t = stored.getDefiningOp<TransposeOp>())
      if ((triangle = triangleOf(t.getInput()))) {
        stored = t.getInput();
        transposed = true;
      }
    if (!triangle && !(triangle = triangleOf(stored)))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(stored);
      op.setTransposeLhs(transposed);
      op.setTriangularAttr(TriangleAttr::get(op.getContext(), *triangle));
    });
    return success();
  }
};

/// chol, eig and eigvals of a matrix symmetric bit for bit by construction
/// ((U + U') / 2 + n * eye(n)) are marked `symmetric`: of their run-time
/// symmetry test, a pass over the whole matrix before the factorization
/// starts, only what can still fail is left (an Inf or a NaN, checked as
/// the diagonal tiles are factored).
template <typename FactorOp>
struct KnownSymmetricInput : RulePattern<FactorOp> {
  using RulePattern<FactorOp>::RulePattern;
  LogicalResult rewrite(FactorOp op, PatternRewriter &rewriter) const override {
    if (op.getSymmetric() || !isExactlySymmetric(op.getInput()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.setSymmetric(true); });
    return success();
  }
};

struct LinearSolvesPass : public cmm::impl::LinearSolvesBase<LinearSolvesPass> {
  void runOnOperation() override {
    RuleCounts counts;
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ProductWithInverse<MatmulOp, InvOp>,
                 ProductWithInverse<GemmOp, InvOp>>(ctx, "inv-times", &counts);
    patterns.add<ProductWithInverse<MatmulOp, PinvOp>,
                 ProductWithInverse<GemmOp, PinvOp>>(ctx, "pinv-times",
                                                     &counts);
    patterns.add<NormalEquations>(ctx, "normal-equations", &counts);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    // Then the solves that are left: a solve the rules above replace (its
    // dead inverse still reading X' X) is not marked first.
    RewritePatternSet cholesky(ctx);
    cholesky.add<TriangularSolve>(ctx, "triangular-solve", &counts);
    cholesky.add<CholeskySolve>(ctx, "cholesky-solve", &counts);
    cholesky.add<KnownSymmetricInput<CholOp>, KnownSymmetricInput<EigOp>,
                 KnownSymmetricInput<EigValsOp>>(ctx, "symmetric-input",
                                                 &counts);
    (void)applyPatternsGreedily(getOperation(), std::move(cholesky), config);
    recordRewrites(*this, getOperation(), counts);
  }
};

} // namespace
