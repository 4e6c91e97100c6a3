"""Random matrix-product chains through the rewrite passes.

Each chain has 2-8 terms: leaves (some transposed, some scaled) with row,
column and square shapes, and at most one power X^k (k <= 17, X or X'
possibly transposed), written with a random parenthesisation. For each chain:
  1. the optimized program prints the same matrix as the --O0 program
     (relative Frobenius error <= 1e-10);
  2. the flops of the matrix products that the chain passes leave equal a
     brute-force minimum over all parenthesisations, where a run of one
     repeated square factor may also be computed by squaring
     (floor(log2 m) + popcount(m) - 1 products), computed here
     independently of the compiler.
About a third of the chains with 3+ terms also print an inner product and
reuse it (a shared intermediate): only check 1 applies to them.
usage: random_chains.py WORKDIR [COUNT] [SEED]
"""

import functools
import os
import random
import re
import subprocess
import sys

import numpy as np

CHAIN_PASSES = ["--cmm-power-by-squaring", "--cmm-reorder-chains",
                "--cmm-power-by-squaring=lower-all=true"]
DIMS = [1, 3, 8, 16, 40]


def make_chain(rng):
    """Returns (program text, expanded factor list [(key, rows, cols)])."""
    n_terms = rng.randint(2, 8)
    d = [rng.choice(DIMS)]
    lines, terms, factors = [], [], []
    has_power = False
    for i in range(n_terms):
        name = "X%d" % i
        seed = 100 + i
        rows = d[-1]
        want_power = not has_power and rows > 1 and rng.random() < 0.35
        if want_power:
            has_power = True
            k = rng.randint(2, 17)
            lines.append("%s = rand(%d, %d, %d) / %d" % (name, rows, rows, seed, rows))
            form = rng.choice(["%s ^ %d", "%s' ^ %d", "(%s ^ %d)'"])
            transposed = "'" in form
            terms.append(form % (name, k))
            factors += [((name, transposed), rows, rows)] * k
            d.append(rows)
            continue
        cols = rng.choice([c for c in DIMS if not (c == 1 and rows == 1)])
        transposed = rng.random() < 0.3
        r, c = (cols, rows) if transposed else (rows, cols)
        lines.append("%s = rand(%d, %d, %d) / %d" % (name, r, c, seed, c))
        text = name + ("'" if transposed else "")
        if rng.random() < 0.2:
            text = "(2.5 * %s)" % text
        terms.append(text)
        factors.append(((name, transposed), rows, cols))
        d.append(cols)

    # Sometimes one inner product is also printed: a shared intermediate,
    # which the rewrites must keep (and must not recompute).
    shared = n_terms >= 3 and rng.random() < 0.3

    def paren(lo, hi, top=False):
        nonlocal shared
        if lo == hi:
            return terms[lo]
        k = rng.randint(lo, hi - 1)
        text = "(%s * %s)" % (paren(lo, k), paren(k + 1, hi))
        if shared and not top:
            shared = False
            lines.append("S = " + text)
            lines.append("print(S)")
            return "S"
        return text

    lines.append("R = " + paren(0, n_terms - 1, top=True))
    lines.append("print(R)")
    has_shared = any(l.startswith("S = ") for l in lines)
    return "\n".join(lines) + "\n", (None if has_shared else factors)


def squaring_products(m):
    return (m.bit_length() - 1) + bin(m).count("1") - 1


def brute_force_min(factors):
    n = len(factors)

    @functools.lru_cache(maxsize=None)
    def best(i, j):
        if i == j:
            return 0
        rows, cols = factors[i][1], factors[j][2]
        options = [best(i, k) + best(k + 1, j) + 2 * rows * factors[k][2] * cols
                   for k in range(i, j)]
        run = factors[i:j + 1]
        if all(f[0] == run[0][0] for f in run) and run[0][1] == run[0][2]:
            size = run[0][1]
            options.append(squaring_products(j - i + 1) * 2 * size ** 3)
        return min(options)

    return best(0, n - 1)


MATMUL = re.compile(r"cmm\.matmul .*: \(tensor<(\d+)x(\d+)xf64>, "
                    r"tensor<(\d+)x(\d+)xf64>\)")


def ir_product_flops(ir):
    total = 0
    for m in MATMUL.finditer(ir):
        a, b, b2, c = map(int, m.groups())
        assert b == b2
        total += 2 * a * b * c
    assert "cmm.pow" not in ir, "a power was left unexpanded"
    return total


def tool(args, cwd, stdin=None):
    p = subprocess.run(args, cwd=cwd, input=stdin, capture_output=True,
                       text=True)
    if p.returncode:
        sys.exit("FAILED: %s\n%s" % (" ".join(args), p.stderr))
    return p.stdout


def main():
    work = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    os.makedirs(work, exist_ok=True)
    worst, shared = 0.0, 0
    for t in range(count):
        text, factors = make_chain(rng)
        prog = os.path.join(work, "chain%d.cmm" % t)
        open(prog, "w").write(text)
        for mode in ("O0", "opt"):
            d = os.path.join(work, "chain%d.%s" % (t, mode))
            os.makedirs(d, exist_ok=True)
            tool(["cmmc", prog, "--interpret", "--dump-prints=" + d] +
                 (["--O0"] if mode == "O0" else []), work)
        for f in sorted(os.listdir(d)):
            opt = np.load(os.path.join(work, "chain%d.opt" % t, f))
            ref = np.load(os.path.join(work, "chain%d.O0" % t, f))
            err = np.linalg.norm(opt - ref) / np.linalg.norm(ref)
            assert err <= 1e-10, "chain %d %s: relative error %g\n%s" % (
                t, f, err, text)
            worst = max(worst, err)
        if factors is None:
            shared += 1
            continue

        traced = tool(["cmmc", prog, "--emit=mlir"], work)
        chained = tool(["cmm-opt"] + CHAIN_PASSES, work, traced)
        got, want = ir_product_flops(chained), brute_force_min(factors)
        assert got == want, ("chain %d: %d flops after the chain passes, "
                             "brute-force minimum %d\n%s" % (t, got, want, text))
    print("random chains: %d checked (%d with a shared intermediate), worst "
          "relative error %.1e, unshared ones at the brute-force minimum"
          % (count, shared, worst))


if __name__ == "__main__":
    main()
