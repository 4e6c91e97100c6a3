# NumPy port of examples/block-lu.cmm (line by line; see
# bench/README-ports.md; indices from 0).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 400)
h = n // 2
start()
A = next_input((n, n)) + n * np.eye(n)


def lu_packed(M):
    """L and U of M packed in one matrix: U on and above the diagonal."""
    M = M.copy()
    m = M.shape[0]
    for j in range(m - 1):
        M[j + 1:m, j:j + 1] = M[j + 1:m, j:j + 1] / M[j, j]
        M[j + 1:m, j + 1:m] = M[j + 1:m, j + 1:m] - M[j + 1:m, j:j + 1] @ M[j:j + 1, j + 1:m]
    return M


def lower(P):
    m = P.shape[0]
    i = np.arange(1, m + 1, dtype=np.float64).reshape(1, m)
    return P * (i.T > i).astype(np.float64) + np.eye(m)


def upper(P):
    m = P.shape[0]
    i = np.arange(1, m + 1, dtype=np.float64).reshape(1, m)
    return P * (i.T <= i).astype(np.float64)


P11 = lu_packed(A[0:h, 0:h])
L11 = lower(P11)
U11 = upper(P11)
U12 = np.linalg.solve(L11, A[0:h, h:n])
L21 = np.linalg.solve(U11.T, A[h:n, 0:h].T).T
S = A[h:n, h:n] - L21 @ U12                # the Schur complement
P22 = lu_packed(S)
L = np.block([[L11, np.zeros((h, h))], [L21, lower(P22)]])
U = np.block([[U11, U12], [np.zeros((h, h)), upper(P22)]])
cmm_print("L", L)
cmm_print("U", U)
cmm_print("L * U", L @ U)
finish()
