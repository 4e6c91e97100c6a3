# NumPy port of examples/mm.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 4000)
start()
A = next_input((n, n))
B = next_input((n, n))
C = A @ B
cmm_print("C", C)
finish()
