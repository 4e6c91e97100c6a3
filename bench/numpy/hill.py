# NumPy port of examples/hill.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 1000)                              # key size (letters per block)
L = size("L", 4000)                              # blocks
rounds = size("rounds", 4)
start()
K = np.floor(26 * next_input((n, n)))
M = np.floor(26 * next_input((n, L)))
for r in range(1, rounds + 1):
    M = np.mod(K @ M, 26)
cmm_print("M", M)
cmm_print("sum(M .== 0)", np.sum((M == 0).astype(np.float64), keepdims=True))  # letters enciphered as 'a'
finish()
