# NumPy port of examples/reachability.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 2000)                              # vertices
squarings = size("squarings", 11)                # 2^11 >= n: the full closure
start()
A = (next_input((n, n)) < 1 / n).astype(np.float64)  # about one out-edge per vertex
R = A + np.eye(n)
for s in range(1, squarings + 1):
    R = ((R @ R) > 0).astype(np.float64)
cmm_print("sum(R, 2)'", np.sum(R, axis=1, keepdims=True).T)  # vertices reachable from each
cmm_print("sum(R)", np.sum(R, keepdims=True))
finish()
