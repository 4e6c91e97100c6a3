# NumPy port of examples/bfs.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, colon

n = size("n", 6000)                              # vertices
levels = size("levels", 12)
start()
A = (next_input((n, n)) < 3 / n).astype(np.float64)  # about three out-edges per vertex
f = (colon(1, n) == 1).astype(np.float64)        # frontier: the source (1 x n)
visited = f
dist = 0 * f
for level in range(1, levels + 1):
    f = ((f @ A) > 0).astype(np.float64) * (1 - visited)
    visited = visited + f
    dist = dist + level * f
cmm_print("visited", visited)
cmm_print("dist", dist)
cmm_print("sum(visited)", np.sum(visited, keepdims=True))  # vertices reached
finish()
