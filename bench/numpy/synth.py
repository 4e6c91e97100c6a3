# NumPy port of examples/synth.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 2000)
steps = size("steps", 4)
start()
A = next_input((n, n))
B = next_input((n, n))
for s in range(1, steps + 1):
    C = A @ B + B.T @ A.T
    A = np.tanh(C / n)
    B = A * B + 0.5 * B
cmm_print("A", A)
cmm_print("B", B)
finish()
