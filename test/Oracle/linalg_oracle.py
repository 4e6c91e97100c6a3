"""The dense linear algebra built-ins (docs/language.md, "Dense linear
algebra") against NumPy: chol, qr, svd, svdvals, eig, eigvals, det, pinv,
tril, triu and A \\ B for tall, wide and rank-deficient A, and the
least-squares forms pinv(X) * y, inv(X' X) * (X' y) and (X' X) \\ (X' y)
against numpy.linalg.lstsq (1e-8, the issue's bound), on inputs written
as .npy files, each result saved by the program and compared by relative
Frobenius error (1e-10; 1e-8 for the rank-deficient solve, the issue's
bound). NumPy leaves signs open where the language fixes them: the oracle
applies the language's rules (R's diagonal non-negative; the entry of
largest magnitude of each column of U, and of each eigenvector, positive).

With --run NP the program is compiled and run on NP ranks (cmmc --run)
with tiles small enough that the factorizations' results span several
tiles, instead of the reference interpreter.
usage: linalg_oracle.py WORKDIR [--run NP] [--cmmc PATH]
"""

import argparse
import json
import os
import subprocess

import numpy as np

PROGRAM = """\
A = load("A.npy")
X = load("X.npy")
W = load("W.npy")
D = load("D.npy")
S = load("S.npy")
y = load("y.npy")
save("chol.npy", chol(A))
R = chol(A)
save("chol_solve.npy", R \\ (R' \\ X[1:40, :]))
save("upper_solve.npy", triu(A) \\ X[1:40, :])
Q, R = qr(X)
save("q.npy", Q)
save("r.npy", R)
U, s, V = svd(X)
save("u.npy", U)
save("s.npy", s)
save("v.npy", V)
U2, s2, V2 = svd(W)
save("u2.npy", U2)
save("s2.npy", s2)
save("v2.npy", V2)
save("svdvals.npy", svdvals(W))
w, E = eig(S)
save("w.npy", w)
save("e.npy", E)
save("eigvals.npy", eigvals(S))
save("det.npy", det(S))
save("pinv.npy", pinv(X))
save("pinvw.npy", pinv(D))
save("tall.npy", X \\ y)
save("wide.npy", W \\ y[1:29, :])
save("deficient.npy", D \\ y)
save("ls_pinv.npy", pinv(X) * y)
save("ls_normal.npy", inv(X' * X) * (X' * y))
save("ls_solve.npy", (X' * X) \\ (X' * y))
save("ridge.npy", (X' * X + 0.5 * eye(30)) \\ (X' * y))
save("tril.npy", tril(X))
save("triu.npy", triu(W))
"""


def rel(x, y):
    d = np.linalg.norm(y)
    return np.linalg.norm(x - y) / (d if d else 1.0)


def largest_positive(u, *others):
    """Flip each column of u (and of others) so that its entry of largest
    magnitude is positive."""
    signs = np.sign(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])])
    return [m * signs for m in (u,) + others]


def expected(inputs):
    A, X, W, D, S, y = (inputs[k] for k in "A X W D S y".split())
    out = {}
    out["chol"] = np.linalg.cholesky(A).T
    # Two triangular solves with the factor (tiled substitutions), and one
    # with an upper triangle by construction.
    out["chol_solve"] = np.linalg.solve(A, X[:40])
    out["upper_solve"] = np.linalg.solve(np.triu(A), X[:40])
    q, r = np.linalg.qr(X, mode="reduced")
    flip = np.where(np.diag(r) < 0, -1.0, 1.0)
    out["q"], out["r"] = q * flip, r * flip[:, None]
    for suffix, M in (("", X), ("2", W)):
        u, s, vt = np.linalg.svd(M, full_matrices=False)
        u, v = largest_positive(u, vt.T)
        out["u" + suffix], out["s" + suffix], out["v" + suffix] = (
            u, s[:, None], v)
    out["svdvals"] = out["s2"]
    w, e = np.linalg.eigh(S)
    out["w"], (out["e"],) = w[:, None], largest_positive(e)
    out["eigvals"] = out["w"]
    out["det"] = np.array([[np.linalg.det(S)]])
    eps = np.finfo(float).eps
    for name, M in (("pinv", X), ("pinvw", D)):
        out[name] = np.linalg.pinv(M, rcond=min(M.shape) * eps)
    for name, M, b in (("tall", X, y), ("wide", W, y[:29]),
                       ("deficient", D, y)):
        out[name] = np.linalg.lstsq(M, b, rcond=min(M.shape) * eps)[0]
    # The least-squares forms the rewrites turn into X \ y (docs/passes.md,
    # cmm-linear-solves) and ridge regression on the Cholesky route.
    lstsq = np.linalg.lstsq(X, y, rcond=None)[0]
    out["ls_pinv"] = out["ls_normal"] = out["ls_solve"] = lstsq
    out["ridge"] = np.linalg.solve(X.T @ X + 0.5 * np.eye(30), X.T @ y)
    out["tril"], out["triu"] = np.tril(X), np.triu(W)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("work")
    parser.add_argument("--run", type=int, default=0, metavar="NP")
    parser.add_argument("--cmmc", default="cmmc")
    args = parser.parse_args()
    work, ranks = args.work, args.run
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(21)
    F = rng.standard_normal((60, 40))
    inputs = {
        "A": F.T @ F + 0.1 * np.eye(40),  # symmetric positive definite
        "X": rng.standard_normal((120, 30)),  # tall
        "W": rng.standard_normal((29, 45)),  # wide
        # Rank 5 of 12 columns, singular values well apart from zero.
        "D": rng.standard_normal((50, 5)) @ rng.standard_normal((5, 12)),
        "y": rng.standard_normal((120, 1)),
    }
    G = rng.standard_normal((35, 35))
    inputs["S"] = G + G.T  # symmetric, indefinite
    inputs["D"] = np.vstack([inputs["D"], np.zeros((70, 12))])
    for name, value in inputs.items():
        np.save(os.path.join(work, name + ".npy"), value)
    with open(os.path.join(work, "linalg.cmm"), "w") as f:
        f.write(PROGRAM)
    if ranks:
        # Tiles of 16: Q, U, V and the solutions span several; on NP busy
        # ranks (test/MPI/Inputs/two-busy-ranks.json) with links so fast
        # that the plan spreads these small matrices over every rank, as
        # chol's and the solves' tile kernels of large ones would be.
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "..", "MPI", "Inputs",
                               "two-busy-ranks.json")) as f:
            model = json.load(f)
        model["nodes"] = [{"name": "rank%d" % r} for r in range(ranks)]
        model["default_link"] = {"latency_s": 1e-9, "bandwidth_Bps": 1e13}
        with open(os.path.join(work, "busy-ranks.json"), "w") as f:
            json.dump(model, f)
        command = [args.cmmc, "linalg.cmm", "--run", "--np=%d" % ranks,
                   "--nodes=%d" % ranks, "--tile-sizes=16",
                   "--machine-model=busy-ranks.json"]
    else:
        command = [args.cmmc, "linalg.cmm", "--interpret"]
    subprocess.run(command, cwd=work, check=True)

    worst = 0.0
    for name, want in expected(inputs).items():
        got = np.load(os.path.join(work, name + ".npy"))
        assert got.shape == want.shape, "%s: shape %s, NumPy's %s" % (
            name, got.shape, want.shape)
        err = rel(got, want)
        bound = 1e-8 if name in ("deficient", "pinvw") or \
            name.startswith("ls_") else 1e-10
        assert err <= bound, "%s: relative Frobenius error %g > %g" % (
            name, err, bound)
        worst = max(worst, err)
    print("linalg oracle: %d results agree with NumPy (worst %.1e)" % (
        len(expected(inputs)), worst))


if __name__ == "__main__":
    main()
