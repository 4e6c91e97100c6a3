# NumPy port of examples/markov.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 10000)
start()
P = next_input((n, n))
P = P / np.sum(P, axis=1, keepdims=True)        # row-stochastic
u = next_input((1, n))
M = P
for i in range(1, 3 + 1):
    M = P @ M
M = u @ M
cmm_print("M", M)
finish()
