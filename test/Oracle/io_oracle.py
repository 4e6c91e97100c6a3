"""`cmmc --interpret` on a program that loads inputs and saves results, against
NumPy computing the same formulas (relative Frobenius error <= 1e-12).

Inputs cover the reader variants: C- and Fortran-order <f8 .npy, <i4 .npy,
CSV, Matrix Market coordinate symmetric. Outputs are saved as .npy, .csv and
.mtx and must read back to the same values.
usage: io_oracle.py WORKDIR
"""

import os
import subprocess
import sys

import numpy as np

PROGRAM = """\
A = load("A.npy")
B = load("B.npy")
S = load("S.csv")
v = load("v.npy")
W = load("W.mtx")
R = W * A * inv(S) .- v ./ 3 + A .* B' + (S \\ A')'
R2 = exp(-abs(A)) .* max(A, 0.5) + mod(A, 0.3) - sum(A, 1) .* mean(A, 2)
save("R.npy", R)
save("R.csv", R)
save("R2.mtx", R2)
save("R2.npy", R2)
"""


def rel(x, y):
    return np.linalg.norm(x - y) / np.linalg.norm(y)


def read_mtx_array(path):
    lines = [l for l in open(path) if not l.startswith("%")]
    m, n = map(int, lines[0].split())
    vals = np.array([float(l) for l in lines[1:]])
    return vals.reshape((n, m)).T  # column-major


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(7)
    A = rng.standard_normal((5, 4))
    B = np.asfortranarray(rng.standard_normal((4, 5)))
    S = rng.standard_normal((4, 4)) + 4 * np.eye(4)
    v = np.array([[3, -1, 7, 2]], dtype=np.int32)
    W = rng.standard_normal((5, 5))
    W = W + W.T
    np.save(os.path.join(work, "A.npy"), A)
    np.save(os.path.join(work, "B.npy"), B)
    assert np.load(os.path.join(work, "B.npy")).flags.f_contiguous
    np.save(os.path.join(work, "v.npy"), v)
    with open(os.path.join(work, "S.csv"), "w") as f:
        for row in S:
            f.write(",".join(repr(float(x)) for x in row) + "\n")
    with open(os.path.join(work, "W.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        entries = [(i, j) for j in range(5) for i in range(j, 5)]
        f.write("5 5 %d\n" % len(entries))
        for i, j in entries:
            f.write("%d %d %r\n" % (i + 1, j + 1, float(W[i, j])))
    with open(os.path.join(work, "formula.cmm"), "w") as f:
        f.write(PROGRAM)

    subprocess.run(["cmmc", "formula.cmm", "--interpret"], cwd=work,
                   check=True)

    R = W @ A @ np.linalg.inv(S) - v / 3 + A * B.T + np.linalg.solve(S, A.T).T
    R2 = (np.exp(-np.abs(A)) * np.maximum(A, 0.5) + np.mod(A, 0.3)
          - A.sum(axis=0, keepdims=True) * A.mean(axis=1, keepdims=True))

    got_r = np.load(os.path.join(work, "R.npy"))
    got_r2 = np.load(os.path.join(work, "R2.npy"))
    e1, e2 = rel(got_r, R), rel(got_r2, R2)
    assert e1 <= 1e-12, "R: relative Frobenius error %g" % e1
    assert e2 <= 1e-12, "R2: relative Frobenius error %g" % e2
    # Text formats hold the shortest representation that reads back exactly.
    csv = np.loadtxt(os.path.join(work, "R.csv"), delimiter=",", ndmin=2)
    assert np.array_equal(csv, got_r), "R.csv does not read back exactly"
    mtx = read_mtx_array(os.path.join(work, "R2.mtx"))
    assert np.array_equal(mtx, got_r2), "R2.mtx does not read back exactly"
    leftovers = [f for f in os.listdir(work) if ".tmp." in f]
    assert not leftovers, "temporary files left behind: %s" % leftovers
    print("io oracle: R err %.2e, R2 err %.2e, csv/mtx exact" % (e1, e2))


if __name__ == "__main__":
    main()
