# NumPy port of examples/leontief.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 3000)                              # industries
terms = size("terms", 40)
start()
A = next_input((n, n)) / n                       # column sums about 1/2
d = next_input((n, 1))                           # final demand
x = np.linalg.solve(np.eye(n) - A, d)
cmm_print("x'", x.T)
y = d
for i in range(1, terms + 1):
    y = A @ y + d
cmm_print("y'", y.T)
cmm_print("norm(x - y) / norm(x) .< 1e-9",
          (np.linalg.norm(x - y, keepdims=True) / np.linalg.norm(x, keepdims=True) < 1e-9).astype(np.float64))  # 1: the series converged to x
finish()
