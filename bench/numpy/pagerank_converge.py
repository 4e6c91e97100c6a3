# NumPy port of examples/pagerank-converge.cmm (line by line; see
# bench/README-ports.md).
import numpy as np
from cmm_port import start, next_input, cmm_print, finish

start()
A = next_input((400, 400))                 # A[i, j] = 1: page i links to j
n = A.shape[0]
alpha = 0.85
A = np.maximum(A, np.eye(n))               # self-loops: no dangling pages
T = (A / np.sum(A, axis=1, keepdims=True)).T  # column-stochastic transitions
r = np.ones((n, 1)) / n
change = np.array([[1.0]])
trips = np.array([[0.0]])
while change[0, 0] > 1e-10:
    r2 = alpha * (T @ r) + (1 - alpha) / n
    change = np.sum(np.abs(r2 - r), keepdims=True)
    r = r2
    trips = trips + 1
cmm_print("r", r)
cmm_print("trips", trips)
cmm_print("maximum(r)", np.max(r, keepdims=True))
finish()
