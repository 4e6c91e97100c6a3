# NumPy port of examples/spmv.cmm (line by line; see bench/README-ports.md).
# The sparse matrix is stored densely, as in the cmm program.
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 8000)
density = size("density", 0.001)
iters = size("iters", 20)
start()
A = next_input((n, n)) * (next_input((n, n)) < density).astype(np.float64)
x = next_input((n, 1))
for i in range(1, iters + 1):
    x = A @ x
    x = x / np.linalg.norm(x, keepdims=True)
cmm_print("x'", x.T)
finish()
