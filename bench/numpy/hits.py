# NumPy port of examples/hits.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 4000)                              # pages
iters = size("iters", 30)
start()
A = (next_input((n, n)) < 0.01).astype(np.float64)  # links
h = np.ones((n, 1))
for i in range(1, iters + 1):
    a = A.T @ h
    a = a / np.linalg.norm(a, keepdims=True)
    h = A @ a
    h = h / np.linalg.norm(h, keepdims=True)
cmm_print("a'", a.T)                             # authority scores
cmm_print("h'", h.T)                             # hub scores
finish()
