# NumPy port of examples/spectral.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, eig

n = size("n", 2000)                              # vertices
p = size("p", 0.01)                              # edge probability
start()
B = (next_input((n, n)) < p).astype(np.float64)
A = np.maximum(B, B.T) * (1 - np.eye(n))         # symmetric, no self loops
L = np.diag(np.sum(A, axis=1)) - A
w, V = eig(L)
cmm_print("w[1:4, :]'", w[0:4, :].T)             # 0 first: one component
f = V[:, 1:2]                                    # the Fiedler vector
cmm_print("w[2, 1]", w[1:2, 0:1])                # the algebraic connectivity
cmm_print("sum(f .> 0)", np.sum((f > 0).astype(np.float64), keepdims=True))
cut = np.sum(A * ((f > 0).astype(np.float64) @ (f <= 0).astype(np.float64).T), keepdims=True)  # edges across the split
cmm_print("cut", cut)
cmm_print("norm(L * f - w[2, 1] * f) .< 1e-8 * norm(L)",
          (np.linalg.norm(L @ f - w[1, 0] * f, keepdims=True) < 1e-8 * np.linalg.norm(L, keepdims=True)).astype(np.float64))
finish()
