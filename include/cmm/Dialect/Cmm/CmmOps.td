//===- CmmOps.td - Operations of the cmm dialect ----------*- tablegen -*-===//
//
// One op per construct of the `.cmm` language (see docs/language.md). Shapes
// are checked by the verifiers, whose messages name both shapes involved.
//
//===----------------------------------------------------------------------===//

#ifndef CMM_OPS_TD
#define CMM_OPS_TD

include "cmm/Dialect/Cmm/CmmDialect.td"
include "cmm/Dialect/Cmm/CmmEnums.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

def Cmm_ConstantOp : Cmm_Op<"constant", [ConstantLike, Pure]> {
  let summary = "matrix literal";
  let description = [{
    A matrix whose elements are known at compile time, e.g. the literal
    `[1 2; 3 4]` or a compile-time scalar used as a 1x1 operand.

    ```mlir
    %0 = cmm.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
    ```
  }];
  let arguments = (ins F64ElementsAttr:$value);
  let results = (outs Cmm_Matrix:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::DenseElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

def Cmm_RangeOp : Cmm_Op<"range", [Pure]> {
  let summary = "row vector start, start+1, ..., stop";
  let description = [{
    The value of the range expression `a:b`: a 1x(b-a+1) row.

    ```mlir
    %0 = cmm.range 1 to 5 : tensor<1x5xf64>
    ```
  }];
  let arguments = (ins I64Attr:$start, I64Attr:$stop);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$start `to` $stop attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cmm_FillOp : Cmm_Op<"fill", [Pure]> {
  let summary = "matrix with every element equal to a constant";
  let description = [{
    `zeros(m, n)`, `ones(m, n)` and `fill(v, m, n)`.

    ```mlir
    %0 = cmm.fill 0.0 : tensor<3x4xf64>
    ```
  }];
  let arguments = (ins F64Attr:$value);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
}

def Cmm_EyeOp : Cmm_Op<"eye", [Pure]> {
  let summary = "identity matrix";
  let description = [{
    ```mlir
    %0 = cmm.eye : tensor<4x4xf64>
    ```
  }];
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cmm_RandOp : Cmm_Op<"rand", [Pure]> {
  let summary = "counter-based random matrix";
  let description = [{
    `rand(m, n[, seed])` (uniform in [0, 1)) and `randn(m, n[, seed])`
    (standard normal). Element (i, j) is a pure function of
    (seed, call_id, i, j), so values do not depend on tiling, scheduling or
    the process count. `call_id` distinguishes every traced occurrence of a
    call: it hashes the call's source location and the iteration numbers of
    the enclosing loops.

    ```mlir
    %0 = cmm.rand uniform seed 42 id 7316 : tensor<100x100xf64>
    ```
  }];
  let arguments = (ins Cmm_Distribution:$distribution, I64Attr:$seed,
                   I64Attr:$call_id);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $distribution `seed` $seed `id` $call_id attr-dict `:` type($result)
  }];
}

def Cmm_LoadOp : Cmm_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "matrix read from a file at run time";
  let description = [{
    `load("file")`: `.npy`, `.mtx` or `.csv` by suffix. The result shape was
    read from the file at compile time; the run-time read checks it again.

    ```mlir
    %0 = cmm.load "data/a.npy" : tensor<200x200xf64>
    ```
  }];
  let arguments = (ins StrAttr:$path);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$path attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Products and linear algebra
//===----------------------------------------------------------------------===//

def Cmm_MatmulOp : Cmm_Op<"matmul", [Pure]> {
  let summary = "matrix product A * B";
  let description = [{
    ```mlir
    %2 = cmm.matmul %0, %1 : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$lhs, Cmm_Matrix:$rhs);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Cmm_GemmOp : Cmm_Op<"gemm", [Pure]> {
  let summary = "matrix product with operands read transposed (BLAS dgemm)";
  let description = [{
    `op(A) * op(B)`, where `op` transposes the operands marked
    `transpose_lhs` / `transpose_rhs` as it reads them, as BLAS `dgemm`'s
    TRANSA and TRANSB do: what `A' * B`, `A * B'` and `A' * B'` become once
    `cmm-fold-transposes` has removed their `cmm.transpose`, so the
    transpose is never materialised. At least one operand is transposed (a
    product of both as stored is `cmm.matmul`). `A' * A` and `A * A'` (one
    value on both sides) are symmetric: the kernels compute them with
    `dsyrk`, half the flops.

    ```mlir
    %2 = cmm.gemm %0 transposed, %1 : (tensor<3x2xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$lhs, UnitAttr:$transpose_lhs,
                   Cmm_Matrix:$rhs, UnitAttr:$transpose_rhs);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $lhs (`transposed` $transpose_lhs^)? `,` $rhs (`transposed` $transpose_rhs^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of op(lhs) and op(rhs): rows x cols as the product reads them.
    std::pair<int64_t, int64_t> getReadShape(bool lhs);
    /// One value against its own transpose (A' * A, A * A'): symmetric,
    /// computed with dsyrk (cmmrt::multiplyAdd).
    bool isSymmetric() {
      return getLhs() == getRhs() && getTransposeLhs() != getTransposeRhs();
    }
  }];
}

def Cmm_PowOp : Cmm_Op<"pow", [Pure, SameOperandsAndResultType]> {
  let summary = "matrix power A ^ k of a square matrix, k >= 0";
  let description = [{
    ```mlir
    %1 = cmm.pow %0, 3 : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input,
                   ConfinedAttr<I64Attr, [IntNonNegative]>:$exponent);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input `,` $exponent attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cmm_InvOp : Cmm_Op<"inv", [Pure, Cmm_MayFail, SameOperandsAndResultType]> {
  let summary = "inverse of a square matrix";
  let description = [{
    A singular input is a run-time error that names the source location.

    ```mlir
    %1 = cmm.inv %0 : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cmm_SolveOp : Cmm_Op<"solve", [Pure, Cmm_MayFail]> {
  let summary = "solution X of A X = B (A \\ B)";
  let description = [{
    A square A is solved by LU (a singular A is a run-time error); for an
    m x n A with m != n, X is the least-squares solution of minimal norm,
    n x r (the rank decided with the tolerance of `cmm.pinv`). `cholesky`
    (set by `cmm-linear-solves` for an A symmetric positive semi-definite
    by construction): Cholesky first, LU when A is not positive definite.
    `triangular upper` / `lower` (set by `cmm-linear-solves` where A is a
    Cholesky factor, its transpose, or a triangle of `tril`/`triu`): one
    triangular solve, n^2 flops per column (a zero on the diagonal is the
    singular error). `transposed` (triangular only) solves A' X = B,
    reading A where it is stored: `R' \\ B` after `R = chol(A)` is
    `cmm.solve %r transposed, %b triangular upper`, with no transpose made. `full_rank` (the least squares `cmm-linear-solves`
    makes of the normal equations (X' X) \\ (X' Y)): an X of lower rank
    than its column count is the error the singular X' X would have been.
    `replaces inv` / `replaces pinv` (set by `cmm-linear-solves` on the
    solve it makes of `inv(A) * B` or `pinv(X) * B`): its run-time errors
    are stated as the program's `inv` or `pinv` would have stated them (a
    singular A is `inv: the NxN matrix is singular`).

    ```mlir
    %2 = cmm.solve %a, %b : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    %3 = cmm.solve %a, %b replaces inv : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$lhs, Cmm_Matrix:$rhs, UnitAttr:$cholesky,
                   OptionalAttr<Cmm_Triangle>:$triangular,
                   UnitAttr:$full_rank, UnitAttr:$transpose_lhs,
                   OptionalAttr<Cmm_ReplacedCall>:$replaces);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $lhs (`transposed` $transpose_lhs^)? `,` $rhs (`cholesky` $cholesky^)?
    (`triangular` $triangular^)?
    (`full_rank` $full_rank^)? (`replaces` $replaces^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs,
                   "::mlir::Value":$rhs), [{
      build($_builder, $_state, result, lhs, rhs, ::mlir::UnitAttr(),
            ::cmm::TriangleAttr(), ::mlir::UnitAttr(), ::mlir::UnitAttr(),
            ::cmm::ReplacedCallAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    /// How the runtime solves it (cmmrt::SolveMethod).
    ::cmmrt::SolveMethod getMethod();
  }];
  let hasVerifier = 1;
}

def Cmm_TransposeOp : Cmm_Op<"transpose", [Pure]> {
  let summary = "transpose A'";
  let description = [{
    ```mlir
    %1 = cmm.transpose %0 : tensor<2x3xf64> -> tensor<3x2xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Dense linear algebra (docs/language.md, "Dense linear algebra"): LAPACK on
// one node, results unique by the language's sign and order conventions
// (cmmrt/Factorizations.h).
//===----------------------------------------------------------------------===//

def Cmm_CholOp : Cmm_Op<"chol", [Pure, Cmm_MayFail,
                                  SameOperandsAndResultType]> {
  let summary = "upper Cholesky factor R (R' * R = A, positive diagonal)";
  let description = [{
    Julia's `cholesky(A).U`. A matrix that is not symmetric
    (`norm(A - A') > 1e-12 * norm(A)`) or not positive definite is a
    run-time error at the op. `symmetric` (set by `cmm-linear-solves`)
    says the input is symmetric bit for bit by construction: of the
    run-time symmetry test only what can still fail it is made, a check
    for Inf and NaN (A - A' is NaN there).

    ```mlir
    %1 = cmm.chol %0 : tensor<4x4xf64>
    %2 = cmm.chol %0 symmetric : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, UnitAttr:$symmetric);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $input (`symmetric` $symmetric^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Cmm_QrOp : Cmm_Op<"qr", [Pure]> {
  let summary = "thin QR: Q (m x n, orthonormal columns), R (n x n, upper)";
  let description = [{
    For an m x n input with m >= n; R's diagonal is non-negative.

    ```mlir
    %q, %r = cmm.qr %0 : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x3xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$q, Cmm_Matrix:$r);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($q) `,` type($r)
  }];
  let hasVerifier = 1;
}

def Cmm_SvdOp : Cmm_Op<"svd", [Pure, Cmm_MayFail]> {
  let summary = "thin SVD: U (m x k), S (k x 1, descending), V (n x k)";
  let description = [{
    k = min(m, n) and A = U * diag(S) * V'. The entry of largest magnitude
    of each column of U is positive (the first such on ties), V's column
    flipped with it. LAPACK's iteration not converging is a run-time error.

    ```mlir
    %u, %s, %v = cmm.svd %0 : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x1xf64>, tensor<3x3xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$u, Cmm_Matrix:$s, Cmm_Matrix:$v);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($u) `,` type($s) `,` type($v)
  }];
  let hasVerifier = 1;
}

def Cmm_SvdValsOp : Cmm_Op<"svdvals", [Pure, Cmm_MayFail]> {
  let summary = "singular values, k x 1 descending (k = min(m, n))";
  let description = [{
    ```mlir
    %s = cmm.svdvals %0 : tensor<5x3xf64> -> tensor<3x1xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Cmm_EigOp : Cmm_Op<"eig", [Pure, Cmm_MayFail]> {
  let summary = "eigenvalues (n x 1 ascending) and eigenvectors of a "
                "symmetric matrix";
  let description = [{
    The eigenvectors are the orthonormal columns of an n x n matrix, the
    entry of largest magnitude of each positive (the first such on ties).
    An input that is not symmetric (`norm(A - A') > 1e-12 * norm(A)`) is a
    run-time error at the op; `symmetric` as for `cmm.chol`.

    ```mlir
    %w, %v = cmm.eig %0 : tensor<4x4xf64> -> tensor<4x1xf64>, tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, UnitAttr:$symmetric);
  let results = (outs Cmm_Matrix:$values, Cmm_Matrix:$vectors);
  let assemblyFormat = [{
    $input (`symmetric` $symmetric^)? attr-dict `:` type($input) `->`
    type($values) `,` type($vectors)
  }];
  let hasVerifier = 1;
}

def Cmm_EigValsOp : Cmm_Op<"eigvals", [Pure, Cmm_MayFail]> {
  let summary = "eigenvalues of a symmetric matrix, n x 1 ascending";
  let description = [{
    The input's symmetry is tested, or known, as for `cmm.eig`.

    ```mlir
    %w = cmm.eigvals %0 : tensor<4x4xf64> -> tensor<4x1xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, UnitAttr:$symmetric);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $input (`symmetric` $symmetric^)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Cmm_DetOp : Cmm_Op<"det", [Pure]> {
  let summary = "determinant of a square matrix, 1x1";
  let description = [{
    ```mlir
    %d = cmm.det %0 : tensor<4x4xf64> -> tensor<1x1xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Cmm_PinvOp : Cmm_Op<"pinv", [Pure, Cmm_MayFail]> {
  let summary = "Moore-Penrose pseudo-inverse, n x m";
  let description = [{
    Singular values at or below `min(m, n) * eps * max(S)` count as zero
    (Julia's default tolerance).

    ```mlir
    %p = cmm.pinv %0 : tensor<5x3xf64> -> tensor<3x5xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Cmm_TrilOp : Cmm_Op<"tril", [Pure, SameOperandsAndResultType]> {
  let summary = "lower triangle: element (i, j) kept where i >= j, else 0";
  let description = [{
    ```mlir
    %1 = cmm.tril %0 : tensor<3x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Cmm_TriuOp : Cmm_Op<"triu", [Pure, SameOperandsAndResultType]> {
  let summary = "upper triangle: element (i, j) kept where i <= j, else 0";
  let description = [{
    ```mlir
    %1 = cmm.triu %0 : tensor<3x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Blocks: indexing, concatenation, reshaping
//===----------------------------------------------------------------------===//

def Cmm_SliceOp : Cmm_Op<"slice", [Pure]> {
  let summary = "a block of a matrix: A[r1:r2, c1:c2]";
  let description = [{
    The block of the result's shape whose first element is at (`row`,
    `col`) of the input, counted from 0. `A[i, j]`, `A[:, j]`,
    `A[r1:r2, :]` and the elements of a vector `x[k1:k2]` are slices.

    ```mlir
    %1 = cmm.slice %0 at [1, 0] : tensor<4x4xf64> -> tensor<2x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input,
                   ConfinedAttr<I64Attr, [IntNonNegative]>:$row,
                   ConfinedAttr<I64Attr, [IntNonNegative]>:$col);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $input `at` ` ` `[` $row `,` $col `]` attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cmm_InsertOp : Cmm_Op<"insert", [Pure, AllTypesMatch<["dest", "result"]>]> {
  let summary = "a matrix with one block replaced: A[r1:r2, c1:c2] = B";
  let description = [{
    `dest` with the block of `block`'s shape at (`row`, `col`) (from 0)
    replaced by `block`.

    ```mlir
    %2 = cmm.insert %1 into %0 at [0, 2] : tensor<2x2xf64> into tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$dest, Cmm_Matrix:$block,
                   ConfinedAttr<I64Attr, [IntNonNegative]>:$row,
                   ConfinedAttr<I64Attr, [IntNonNegative]>:$col);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $block `into` $dest `at` ` ` `[` $row `,` $col `]` attr-dict `:` type($block)
    `into` type($dest)
  }];
  let hasVerifier = 1;
}

def Cmm_ConcatOp : Cmm_Op<"concat", [Pure]> {
  let summary = "matrices side by side (dim 2) or stacked (dim 1)";
  let description = [{
    `hcat(A, B, ...)` and each block row of `[A B; C D]` are `dim 2`;
    `vcat(A, B, ...)` and the block rows stacked are `dim 1`.

    ```mlir
    %2 = cmm.concat %0, %1 along 2 : (tensor<2x2xf64>, tensor<2x3xf64>) -> tensor<2x5xf64>
    ```
  }];
  let arguments = (ins Variadic<Cmm_Matrix>:$inputs,
                   ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<2>]>:$dim);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $inputs `along` $dim attr-dict `:` functional-type($inputs, $result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cmm_DiagOp : Cmm_Op<"diag", [Pure]> {
  let summary = "the diagonal of a square matrix, or a diagonal matrix";
  let description = [{
    `diag(A)`: an n x n input gives its diagonal as an n x 1 column; an
    n x 1 or 1 x n vector gives the n x n matrix with it on the diagonal.

    ```mlir
    %1 = cmm.diag %0 : tensor<3x3xf64> -> tensor<3x1xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Cmm_ReshapeOp : Cmm_Op<"reshape", [Pure]> {
  let summary = "the same elements in another shape, column-major";
  let description = [{
    `reshape(A, m, n)`: the elements of A in column-major order (as Julia)
    filled into m x n, column by column.

    ```mlir
    %1 = cmm.reshape %0 : tensor<2x6xf64> -> tensor<3x4xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic
//===----------------------------------------------------------------------===//

def Cmm_ScaleOp : Cmm_Op<"scale", [Pure, SameOperandsAndResultType]> {
  let summary = "product of a matrix and a compile-time scalar s * A";
  let description = [{
    ```mlir
    %1 = cmm.scale %0 by 2.5 : tensor<3x3xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, F64Attr:$factor);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input `by` $factor attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Cmm_NegOp : Cmm_Op<"neg", [Pure, SameOperandsAndResultType]> {
  let summary = "negation -A";
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Cmm_MapOp : Cmm_Op<"map", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise function (sqrt, exp, log, abs, sin, cos, tanh, "
                "floor, round)";
  let description = [{
    `round` rounds half to even, as NumPy does.

    ```mlir
    %1 = cmm.map sqrt %0 : tensor<3x3xf64>
    ```
  }];
  let arguments = (ins Cmm_UnaryFn:$fn, Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$fn $input attr-dict `:` type($result)";
}

/// Broadcasting binary elementwise op: each operand dimension equals the
/// result's or is 1 (a scalar, 1x1, 1xn row or mx1 column is stretched, and a
/// row against a column gives the full outer shape, as in Julia).
class Cmm_BroadcastOp<string mnemonic, string what, list<Trait> traits = []>
    : Cmm_Op<mnemonic, !listconcat([Pure], traits)> {
  let summary = "broadcasting elementwise " # what;
  let arguments = (ins Cmm_Matrix:$lhs, Cmm_Matrix:$rhs);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let description = [{
    Operands of equal shape, or broadcast: every operand dimension equals
    the result's or is 1.

    ```mlir
    %2 = cmm.}] # mnemonic # [{ %0, %1 : (tensor<3x4xf64>, tensor<3x1xf64>) -> tensor<3x4xf64>
    ```
  }];
}

def Cmm_AddOp : Cmm_BroadcastOp<"add", "sum (A + B, A .+ B)", [Commutative]>;
def Cmm_SubOp : Cmm_BroadcastOp<"sub", "difference (A - B, A .- B)">;
def Cmm_MulOp : Cmm_BroadcastOp<"mul", "product (A .* B)", [Commutative]>;
def Cmm_DivOp : Cmm_BroadcastOp<"div", "quotient (A ./ B, A / s)">;
def Cmm_EPowOp : Cmm_BroadcastOp<"epow", "power (A .^ B)">;
def Cmm_MaxOp : Cmm_BroadcastOp<"max", "maximum (max(A, B))", [Commutative]>;
def Cmm_MinOp : Cmm_BroadcastOp<"min", "minimum (min(A, B))", [Commutative]>;
def Cmm_ModOp : Cmm_BroadcastOp<"mod",
    "modulus with the sign of the divisor (mod(A, B))">;

def Cmm_CmpOp : Cmm_Op<"cmp", [Pure]> {
  let summary = "broadcasting elementwise comparison, 1.0 where true";
  let description = [{
    `A .> B`, `.<`, `.>=`, `.<=`, `.==`.

    ```mlir
    %2 = cmm.cmp gt, %0, %1 : (tensor<3x4xf64>, tensor<1x1xf64>) -> tensor<3x4xf64>
    ```
  }];
  let arguments = (ins Cmm_CmpPredicate:$predicate, Cmm_Matrix:$lhs,
                   Cmm_Matrix:$rhs);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fused elementwise kernels
//===----------------------------------------------------------------------===//

def Cmm_FusedOp : Cmm_Op<"fused", [Pure, IsolatedFromAbove]> {
  let summary = "a chain of elementwise functions applied in one pass";
  let description = [{
    What `cmm-fuse-elementwise` makes of a chain of elementwise, broadcast
    and scalar ops: the body computes one element of the result from one
    element of each input (a block argument per input), with `cmm.scalar`
    steps and `arith.constant` scalars, and yields it. Inputs broadcast to
    the result as the binary elementwise ops' do (each dimension the
    result's or 1). Each step computes exactly what the op it replaces
    computes on that element, so a fused program's results are bit for bit
    the unfused one's. Tiled like an elementwise op; a generated program
    runs it as one loop nest per tile (docs/passes.md).

    ```mlir
    %r = cmm.fused (%x, %w) : (tensor<100x50xf64>, tensor<1x50xf64>) -> tensor<100x50xf64> {
    ^bb0(%a: f64, %b: f64):
      %0 = cmm.scalar add %a, %b : f64
      %1 = cmm.scalar tanh %0 : f64
      cmm.yield %1 : f64
    }
    ```
  }];
  let arguments = (ins Variadic<Cmm_Matrix>:$inputs);
  let results = (outs Cmm_Matrix:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::ValueRange":$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The body as the runtime's kernel (cmmrt/Fused.h), or an error at
    /// the offending body op.
    ::mlir::FailureOr<::cmmrt::fused::Kernel> getKernel();
    /// The number of cmm.scalar steps in the body.
    int64_t getNumSteps();
  }];
}

def Cmm_ScalarOp : Op<Cmm_Dialect, "scalar", [Pure, HasParent<"FusedOp">]> {
  let summary = "an elementwise function of one element (a fused op's step)";
  let description = [{
    ```mlir
    %2 = cmm.scalar mul %0, %1 : f64
    ```
  }];
  let arguments = (ins Cmm_ElementFn:$fn, Variadic<F64>:$args);
  let results = (outs F64:$result);
  let assemblyFormat = "$fn $args attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// 2 for the binary functions, else 1.
    static unsigned arity(ElementFn fn) {
      return fn <= ElementFn::Eq ? 2 : 1;
    }
  }];
}

def Cmm_YieldOp : Op<Cmm_Dialect, "yield", [Pure, Terminator,
    HasParent<"FusedOp">]> {
  let summary = "the element a fused op's body computes";
  let arguments = (ins F64:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Cmm_ReduceOp : Cmm_Op<"reduce", [Pure]> {
  let summary = "sum, maximum, minimum or mean of all elements or along a dim";
  let description = [{
    Without `along`, reduces every element to a 1x1 matrix; `along 1`
    reduces each column (result 1xn), `along 2` each row (result mx1).

    ```mlir
    %1 = cmm.reduce sum %0 along 2 : tensor<3x4xf64> -> tensor<3x1xf64>
    %2 = cmm.reduce max %0 : tensor<3x4xf64> -> tensor<1x1xf64>
    ```
  }];
  let arguments = (ins Cmm_ReduceKind:$kind, Cmm_Matrix:$input,
                   OptionalAttr<ConfinedAttr<I64Attr,
                       [IntMinValue<1>, IntMaxValue<2>]>>:$dim);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = [{
    $kind $input (`along` $dim^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Cmm_NormOp : Cmm_Op<"norm", [Pure]> {
  let summary = "Frobenius norm as a 1x1 matrix";
  let description = [{
    ```mlir
    %1 = cmm.norm %0 : tensor<3x4xf64> -> tensor<1x1xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input);
  let results = (outs Cmm_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Run-time control flow: conditions that depend on matrix values
//===----------------------------------------------------------------------===//

def Cmm_WhileOp : Op<Cmm_Dialect, "while", [RecursiveMemoryEffects]> {
  let summary = "a loop whose condition is decided at run time";
  let description = [{
    A `.cmm` `while` whose condition is a 1x1 matrix (docs/language.md
    §14.2), in the manner of `scf.while`. The loop-carried values start as
    `inits`; `before` computes the condition from them and ends in
    `cmm.condition`, which hands them to `after` while the condition is
    nonzero and makes them the results otherwise; `after` is the body and
    ends in `cmm.end` with the next iteration's values. Every carried value
    keeps its type. `expected_trips` is the trip count the planner's
    simulation assumes (the source's `# expect N`).

    ```mlir
    %r = cmm.while (%x0) : (tensor<3x1xf64>) -> tensor<3x1xf64> {
    ^bb0(%x: tensor<3x1xf64>):
      %n = cmm.norm %x : tensor<3x1xf64> -> tensor<1x1xf64>
      %c = cmm.cmp gt, %n, %tol : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
      cmm.condition(%c : tensor<1x1xf64>) %x : tensor<3x1xf64>
    } do {
    ^bb0(%x: tensor<3x1xf64>):
      %y = cmm.scale %x by 5.0e-01 : tensor<3x1xf64>
      cmm.end %y : tensor<3x1xf64>
    }
    ```
  }];
  let arguments = (ins Variadic<Cmm_Matrix>:$inits,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$expected_trips);
  let results = (outs Variadic<Cmm_Matrix>:$results);
  let regions = (region SizedRegion<1>:$before, SizedRegion<1>:$after);
  let assemblyFormat = [{
    ` ` `(` $inits `)` attr-dict `:` functional-type($inits, $results) $before
    `do` $after
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::cmm::ConditionOp getConditionOp();
    /// The trips the planner assumes when the source gives none
    /// (docs/language.md §14.2).
    static constexpr int64_t kDefaultTrips = 10;
    /// The trips the planner's simulation assumes: expected_trips, else
    /// kDefaultTrips.
    int64_t getAssumedTrips() {
      return getExpectedTrips().value_or(kDefaultTrips);
    }
  }];
}

def Cmm_ConditionOp : Op<Cmm_Dialect, "condition", [Pure, Terminator,
    HasParent<"WhileOp">]> {
  let summary = "the condition of a cmm.while and the values it hands on";
  let arguments = (ins Cmm_Matrix:$condition, Variadic<Cmm_Matrix>:$args);
  let assemblyFormat = [{
    `(` $condition `:` type($condition) `)` attr-dict ($args^ `:` type($args))?
  }];
}

def Cmm_IfOp : Op<Cmm_Dialect, "if", [RecursiveMemoryEffects,
    NoRegionArguments]> {
  let summary = "a branch decided at run time";
  let description = [{
    A `.cmm` `if` whose condition is a 1x1 matrix: `then` runs when it is
    nonzero, `else` otherwise; each ends in `cmm.end` with the values of the
    variables the branches assign (the results, one type on both paths).

    ```mlir
    %r = cmm.if %c : tensor<1x1xf64> -> tensor<2x2xf64> {
      cmm.end %a : tensor<2x2xf64>
    } else {
      cmm.end %b : tensor<2x2xf64>
    }
    ```
  }];
  let arguments = (ins Cmm_Matrix:$condition);
  let results = (outs Variadic<Cmm_Matrix>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` type($results)^)? $thenRegion `else`
    $elseRegion attr-dict
  }];
  let hasRegionVerifier = 1;
}

def Cmm_EndOp : Op<Cmm_Dialect, "end", [Pure, Terminator,
    ParentOneOf<["WhileOp", "IfOp"]>]> {
  let summary = "the values a cmm.while body or cmm.if branch hands on";
  let arguments = (ins Variadic<Cmm_Matrix>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Effects
//===----------------------------------------------------------------------===//

def Cmm_PrintOp : Cmm_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print a one-line summary of a matrix";
  let description = [{
    `print(expr)`: writes the label (the source name or expression text), the
    shape, sum, Frobenius norm and the first elements of the first row.
    With `rows` (`display(expr)`), every row follows on a line of its own.

    ```mlir
    cmm.print %0 "M" : tensor<1x100xf64>
    cmm.print %1 "B" rows : tensor<2x2xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, StrAttr:$label, UnitAttr:$rows);
  let assemblyFormat = "$input $label (`rows` $rows^)? attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Cmm_PrintScalarOp : Cmm_Op<"print_scalar", [MemoryEffects<[MemWrite]>]> {
  let summary = "print a compile-time scalar";
  let description = [{
    `print(n)` where `n` is a compile-time scalar.

    ```mlir
    cmm.print_scalar "n" 1.0e+03
    ```
  }];
  let arguments = (ins StrAttr:$label, F64Attr:$value);
  let assemblyFormat = "$label $value attr-dict";
}

def Cmm_SaveOp : Cmm_Op<"save", [MemoryEffects<[MemWrite]>]> {
  let summary = "write a matrix to a file atomically";
  let description = [{
    `save("out.npy", expr)`: `.npy`, `.mtx` or `.csv` by suffix, written to a
    temporary name and renamed.

    ```mlir
    cmm.save %0 to "out.npy" : tensor<3x3xf64>
    ```
  }];
  let arguments = (ins Cmm_Matrix:$input, StrAttr:$path);
  let assemblyFormat = "$input `to` $path attr-dict `:` type($input)";
  let hasVerifier = 1;
}

#endif // CMM_OPS_TD
