"""The NumPy peer of bench/chol/chol.cmm: numpy.linalg.cholesky (LAPACK's
dpotrf on OpenBLAS, every core) and the two triangular systems solved with
numpy.linalg.solve (NumPy has no triangular solver; SciPy's cho_solve would
do it in n^2 per column). Prints the time of the factorization and of the
factorization with the solves; the inputs are made outside both.
usage: chol_numpy.py N
"""
import sys
import time

import numpy as np

n = int(sys.argv[1])
rng = np.random.default_rng(1)
U = rng.random((n, n))
A = (U + U.T) / 2 + n * np.eye(n)
b = rng.random((n, 1))
t0 = time.perf_counter()
L = np.linalg.cholesky(A)
t1 = time.perf_counter()
x = np.linalg.solve(L.T, np.linalg.solve(L, b))
t2 = time.perf_counter()
assert np.linalg.norm(A @ x - b) / np.linalg.norm(b) < 1e-12
print("numpy chol %d: cholesky %.4f s, cholesky+solves %.4f s" % (
    n, t1 - t0, t2 - t0))
