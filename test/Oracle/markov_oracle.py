"""Checks `cmmc --interpret examples/markov.cmm -D n=N` against NumPy.

NumPy regenerates P and u from the generator's definition (cmm_rand.py),
checks them against the values cmm saved to .npy, evaluates the program on
its own, and compares the result and the printed sum.
usage: markov_oracle.py MARKOV.cmm N WORKDIR
"""

import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import cmm_rand  # noqa: E402


def main():
    src_path, n, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(work, exist_ok=True)
    source = open(src_path).read()
    # Appending statements keeps the call sites, hence the random values.
    probe = os.path.join(work, "markov_probe.cmm")
    with open(probe, "w") as f:
        f.write(source.rstrip("\n") + "\n")
        f.write('save("u.npy", u)\nsave("P.npy", P)\nsave("M.npy", M)\n')

    run = lambda prog: subprocess.run(
        ["cmmc", prog, "-D", "n=%d" % n, "--interpret"], cwd=work,
        check=True, capture_output=True, text=True).stdout
    printed = run(os.path.abspath(src_path))
    run(probe)

    (p_line, p_col), (u_line, u_col) = cmm_rand.find_calls(source)
    P = cmm_rand.rand(n, n, cmm_rand.call_id(p_line, p_col))
    u = cmm_rand.rand(1, n, cmm_rand.call_id(u_line, u_col))
    # The random values cmm used are exactly the generator's definition.
    assert np.array_equal(np.load(os.path.join(work, "u.npy")), u), "u differs"
    P = P / P.sum(axis=1, keepdims=True)
    err_p = cmm_rand.rel_frobenius(np.load(os.path.join(work, "P.npy")), P)
    assert err_p <= 1e-15, "P differs: %g" % err_p

    M = P
    for _ in range(3):
        M = P @ M
    M = u @ M
    err = cmm_rand.rel_frobenius(np.load(os.path.join(work, "M.npy")), M)
    assert err <= 1e-12, "M differs: relative Frobenius error %g" % err

    m = re.match(r"M 1x(\d+) sum=(\S+) norm=(\S+) \[", printed)
    assert m, "unexpected print line: %r" % printed
    assert int(m.group(1)) == n
    for got, want in ((m.group(2), M.sum()), (m.group(3), np.linalg.norm(M))):
        assert got == "%.6g" % want, "printed %s, NumPy says %.6g" % (got, want)
    print("markov n=%d: sum=%s matches NumPy (M rel. error %.2e)"
          % (n, m.group(2), err))


if __name__ == "__main__":
    main()
