//===- Passes.td - cmm algebraic rewrite passes -----------*- tablegen -*-===//
//
// The rewrite stages of the `cmm-simplify` pipeline, in the order of Apache
// SystemDS's ProgramRewriter: CSE, constant folding, static simplification,
// CSE, matrix-chain ordering, dynamic (size-dependent) simplification, CSE.
// Every rule that fires bumps a Statistic (see -mlir-pass-statistics) and,
// under `cmm-flop-report`, is listed in the report.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_TRANSFORMS_PASSES_TD
#define CMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AlgebraicSimplify : Pass<"cmm-algebraic-simplify", "mlir::func::FuncOp"> {
  let summary = "Static algebraic simplifications (size-independent)";
  let description = [{
    Applies the canonicalization patterns of the cmm ops, with a counter for
    each rule: `(A')' -> A`, `A*I -> A`, `I*A -> A`, `A + 0 -> A`,
    `A .* 0 -> 0`, `A * 0 -> 0`, `s*(t*A) -> (s*t)*A`, `(s*A)*B -> s*(A*B)`,
    `-(-A) -> A`, `A^0 -> I`, `A^1 -> A`, `(A'*B)' -> B'*A` (only when it
    removes transposes), `A*B -> (B'*A')'` when the product `B'*A'` is
    computed earlier in the block (one product instead of two), transposes
    pushed through scalings, negations, elementwise maps and broadcasting ops
    whose other operand needs no transpose, and constant folding of `fill`
    operands.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numTransposeTranspose", "transpose-transpose", "(A')' -> A">,
    Statistic<"numMatmulIdentity", "matmul-identity", "A*I -> A and I*A -> A">,
    Statistic<"numAddZero", "add-zero", "A + 0 -> A, A - 0 -> A">,
    Statistic<"numMulZero", "mul-zero", "A .* 0 -> 0 and A * 0 -> 0">,
    Statistic<"numScaleScale", "scale-scale", "s*(t*A) -> (s*t)*A">,
    Statistic<"numScaleOne", "scale-one", "1*A -> A">,
    Statistic<"numMatmulScale", "matmul-scale", "(s*A)*B -> s*(A*B)">,
    Statistic<"numNegNeg", "neg-neg", "-(-A) -> A">,
    Statistic<"numPowZeroOne", "pow-zero-one", "A^0 -> I, A^1 -> A">,
    Statistic<"numTransposeMatmul", "transpose-matmul", "(A*B)' -> B'*A' where it removes transposes">,
    Statistic<"numTransposedProductTwin", "transposed-product-twin", "A*B -> (B'*A')' when B'*A' is computed earlier">,
    Statistic<"numTransposePush", "transpose-push", "transpose pushed through scalar and elementwise ops">,
    Statistic<"numFoldFill", "fold-fill", "constant folding of fill operands">,
  ];
}

def HoistInvariants : Pass<"cmm-hoist-invariants", "mlir::func::FuncOp"> {
  let summary = "Loop-invariant ops of a cmm.while move before the loop";
  let description = [{
    An op in a `cmm.while` (its condition or its body) whose operands are
    all defined outside the loop computes the same value at every
    iteration: it moves before the loop, innermost loops first, so a loop
    nest hoists level by level (`d * P'` in a PageRank loop, `A' * A` in a
    solver). Not moved: `rand` (each iteration draws new values), `inv`
    and `\` (they may fail, and a loop may run no iteration), ops with
    regions or effects. The rewrites after it see the hoisted ops outside
    the loop and keep them there (a chain, sum or fused kernel does not
    pull an op into a loop body).
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numHoisted", "hoisted", "ops moved out of cmm.while loops">,
  ];
}

def Polynomials : Pass<"cmm-polynomials", "mlir::func::FuncOp"> {
  let summary = "Polynomials in one matrix by Paterson-Stockmeyer";
  let description = [{
    A polynomial c0 I + c1 A + ... + cd A^d in one square matrix, written as
    a sum of scaled powers or traced from a Horner loop (sums, scalings,
    negations, products and powers of A and the identity), is evaluated in
    (s - 1) + floor(d / s) products, one fewer when s divides d (s chosen
    near sqrt(d): degree 16 in 6) when that is fewer than the ops it
    replaces take: the powers A^2 ... A^s, then Horner's rule in A^s over
    blocks that need only scalings and sums (Paterson and Stockmeyer 1973).
    Ops read outside the polynomial keep it from firing. A power `A^k` of
    a matrix symmetric by construction (X' X, A + A', sums and scalings of
    such) becomes `V diag(w .^ k) V'` with `w, V = eig(A)` where that takes
    fewer flops than squaring (eig's 9 n^3 and one product against 2 n^3
    per product: from k = 48). Runs before `cmm-power-by-squaring`, while
    the powers are still `cmm.pow`.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numPolynomials", "polynomials", "polynomials evaluated by Paterson-Stockmeyer">,
    Statistic<"numProductsSaved", "products-saved", "matrix products saved">,
    Statistic<"numEigenPowers", "powers-by-eigendecomposition", "powers of symmetric matrices through eig">,
  ];
}

def PowerBySquaring : Pass<"cmm-power-by-squaring", "mlir::func::FuncOp"> {
  let summary = "Compute A^k and repeated products A*A*...*A by squaring";
  let description = [{
    A product chain made only of one square value (an explicit `A^k`, or the
    traced loop `M = P*M` giving `P*(P*(P*P))`) is computed with
    floor(log2 k) squarings and popcount(k)-1 products, sharing the squares.
    A chain that mixes other factors is left to `cmm-reorder-chains`, which
    weighs squaring against repeated vector products by cost; with
    `lower-all`, every power still left after that (e.g. `P^16` in
    `P^16 * Q`) is also expanded into explicit squarings.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let options = [
    Option<"lowerAll", "lower-all", "bool", /*default=*/"false",
           "Also expand powers inside chains with other factors">,
  ];
  let statistics = [
    Statistic<"numPowersExpanded", "powers-expanded", "chains computed by squaring">,
    Statistic<"numSquarings", "squarings", "squarings emitted">,
    Statistic<"numProducts", "products", "products of squares emitted">,
  ];
}

def FactorSums : Pass<"cmm-factor-sums", "mlir::func::FuncOp"> {
  let summary = "Common factors out of sums of product chains";
  let description = [{
    Flattens each sum (through single-use `+` and `-` of one shape) into
    signed terms and each term through its single-use product chain, then
    factors the terms that share their first (or last) factor F:
    `F*X1 + F*X2 - F*X3 -> F*(X1 + X2 - X3)`, e.g.
    `T*P1*T' + T*P2*U' -> T*(P1*T' + P2*U')` however the chains are
    parenthesised. Groups are taken greedily by flop saving (optimal chain
    orders before and after, the sums of the rests and the product with F)
    and only where that is strictly cheaper. Runs before
    `cmm-reorder-chains`, which orders the chains it makes.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numSumsFactored", "sums-factored", "common factors taken out of sums">,
    Statistic<"numTermsFactored", "terms-factored", "terms those factors were taken from">,
  ];
}

def ReorderChains : Pass<"cmm-reorder-chains", "mlir::func::FuncOp"> {
  let summary = "Optimal parenthesisation of matrix-product chains";
  let description = [{
    Flattens each product chain through single-use products, powers,
    transposes and scalings, finds the cheapest parenthesisation by dynamic
    programming on flop count (a run of one repeated square factor may also
    be computed by squaring), and rewrites the chain when that is strictly
    cheaper. Values with other users are leaves: they are never absorbed, so
    nothing is recomputed.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numChainsReordered", "chains-reordered", "chains rewritten">,
    Statistic<"numChainFactors", "chain-factors", "factors in rewritten chains">,
  ];
}

def DynamicSimplify : Pass<"cmm-dynamic-simplify", "mlir::func::FuncOp"> {
  let summary = "Size-dependent simplifications, each only where cheaper";
  let description = [{
    SystemDS's dynamic rewrites under the flop cost model:
    `A*B + A*C -> A*(B+C)` and `B*A + C*A -> (B+C)*A`
    (simplifyDistributiveMatrixMult), `X - Y.*X -> (1-Y).*X`
    (simplifyDistributiveBinaryOperation), a product with a 1x1 operand
    becomes an elementwise scaling (simplifyScalarMatrixMult), and
    `sum(A*B) -> sum(sum(A,1)' .* sum(B,2))` (simplifySumMatrixMult).
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numDistributiveMatmul", "distributive-matmul", "A*B + A*C -> A*(B+C)">,
    Statistic<"numDistributiveBinary", "distributive-binary", "X - Y.*X -> (1-Y).*X">,
    Statistic<"numScalarMatmul", "scalar-matmul", "product with a 1x1 operand -> scaling">,
    Statistic<"numSumMatmul", "sum-matmul", "sum(A*B) -> sum(sum(A,1)' .* sum(B,2))">,
  ];
}

def FoldTransposes : Pass<"cmm-fold-transposes", "mlir::func::FuncOp"> {
  let summary = "Products read transposed operands in place (dgemm flags)";
  let description = [{
    `A' * B`, `A * B'` and `A' * B'` become `cmm.gemm` on A and B with the
    operands marked `transposed`: the kernels pass BLAS's TRANSA/TRANSB
    flags (and a tiled product reads tile (k, i) of A for tile (i, k) of
    A'), so the transpose is not materialised; a transpose with no other
    user is then dead. `A' * A` and `A * A'` become a product of one value
    with itself, which the kernels compute with `dsyrk`. Runs last among
    the rewrites: chain ordering and the simplifications see `cmm.matmul`
    and `cmm.transpose` only.
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numFoldedTransposes", "fold-transpose", "A' * B -> gemm(A transposed, B)">,
    Statistic<"numSymmetricProducts", "symmetric-product", "A' * A and A * A' (dsyrk)">,
  ];
}

def LinearSolves : Pass<"cmm-linear-solves", "mlir::func::FuncOp"> {
  let summary = "Products with inverses become solves, least squares and "
                "Cholesky routes";
  let description = [{
    `inv(A) * B -> A \ B` (LU: 2/3 n^3 + 2 n^2 k flops instead of 2 n^3 +
    2 n^2 k); `pinv(X) * B -> X \ B` for a non-square X (the minimal-norm
    least-squares solution both ways); `(X' X) \ (X' Y) -> X \ Y` for X
    with at least as many rows as columns (the normal equations, also
    reached from `inv(X' X) * (X' Y)`): least squares, which does not
    square X's condition number. Each fires only where the inverse or the
    normal matrix has no other reader. A solve whose matrix is symmetric
    positive semi-definite by construction (`X' X`, `X X'`, the identity,
    and sums and non-negative scalings of those, e.g. `X' X + c I`) is
    marked `cholesky`: Cholesky first (n^3 / 3 flops), LU when it fails;
    one whose matrix is triangular by construction (a `chol` factor, its
    transpose, `tril`, `triu`) is marked `triangular`: one substitution.
    `chol`, `eig` and `eigvals` of a matrix symmetric bit for bit by
    construction (`(U + U') / 2 + n * eye(n)`: elementwise arithmetic of
    `U + U'`, fills, the identity) are marked `symmetric`: of the run-time
    symmetry test only the check for Inf and NaN is left. Runs after `cmm-fold-transposes` (it reads `X' X` as `cmm.gemm`).
  }];
  let dependentDialects = ["cmm::CmmDialect"];
  let statistics = [
    Statistic<"numInvTimes", "inv-times", "inv(A) * B -> A \\ B">,
    Statistic<"numPinvTimes", "pinv-times", "pinv(X) * B -> X \\ B">,
    Statistic<"numNormalEquations", "normal-equations", "(X' X) \\ (X' Y) -> X \\ Y">,
    Statistic<"numCholeskySolves", "cholesky-solve", "A \\ B by Cholesky for A semi-definite by construction">,
    Statistic<"numTriangularSolves", "triangular-solve", "A \\ B by substitution for A triangular by construction">,
    Statistic<"numSymmetricInputs", "symmetric-input", "chol, eig, eigvals of a matrix symmetric by construction: no run-time test">,
  ];
}

def FuseElementwise : Pass<"cmm-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Chains of elementwise ops become one cmm.fused kernel";
  let description = [{
    Fuses each chain of elementwise, broadcast and scalar ops (`cmm.add`,
    `sub`, `mul`, `div`, `epow`, `max`, `min`, `mod`, `cmp`, `scale`, `neg`,
    `map`, and earlier `cmm.fused` ops) into one `cmm.fused` op whose body
    applies them to one element: a generated program then passes over
    memory once per chain, with no intermediate tiles. An op joins its
    consumer's kernel only when every use of its value is inside that
    kernel (a value another op needs is computed once and read as an input)
    and its result has the kernel's shape (a row or column broadcast into a
    larger result would be recomputed for every row or column); 1x1
    constants become `arith.constant` scalars in the body. Lone ops stay as
    they are. Runs after the rewrites, which see the unfused ops.
  }];
  let dependentDialects = ["cmm::CmmDialect", "mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numFusedOps", "fused-ops", "elementwise ops fused into kernels">,
    Statistic<"numKernels", "kernels", "cmm.fused kernels made">,
  ];
}

def FlopReport : Pass<"cmm-flop-report", "mlir::func::FuncOp"> {
  let summary = "Print the flop count of each function";
  let description = [{
    Prints `cmm-flop-report: @f <stage>: <total> flops (<matmul> in matrix
    products)`. At stage `after`, also lists each rewrite rule that fired
    since the `before` report in the same pipeline, with its count.
  }];
  let options = [
    Option<"stage", "stage", "std::string", /*default=*/"\"now\"",
           "Label of this report: before, after, or any other word">,
  ];
}

#endif // CMM_TRANSFORMS_PASSES_TD
