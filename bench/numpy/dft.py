# NumPy port of examples/dft.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, colon

n = size("n", 2048)
b = size("b", 256)
start()
x = next_input((n, b))
k = colon(0, n - 1)
JK = np.mod(k.T @ k, n)                          # jk mod n: exact integers
C = np.cos((2 * np.pi / n) * JK)
S = -np.sin((2 * np.pi / n) * JK)
Re = C @ x
Im = S @ x
P = Re ** 2 + Im ** 2
cmm_print("P", P)
cmm_print("sum(P) / (n * sum(x .^ 2))", np.sum(P, keepdims=True) / (n * np.sum(x ** 2, keepdims=True)))
finish()
