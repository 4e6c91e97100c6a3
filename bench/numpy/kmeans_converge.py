# NumPy port of examples/kmeans-converge.cmm (line by line; see
# bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

m = size("m", 5000)                        # points
d = size("d", 16)                          # dimensions
k = size("k", 8)                           # clusters
start()
X = next_input((m, d))
C = X[0:k, :]                              # initial centroids
A = np.zeros((m, k))                       # no assignment yet
changed = np.array([[1.0]])
trips = np.array([[0.0]])
while changed[0, 0] > 0:
    D = np.sum(X ** 2, axis=1, keepdims=True) + np.sum(C ** 2, axis=1, keepdims=True).T - 2 * X @ C.T   # m x k
    A2 = (D == np.min(D, axis=1, keepdims=True)).astype(np.float64)  # 1 where the centroid is nearest
    changed = np.sum(np.abs(A2 - A), keepdims=True)
    A = A2
    C = (A.T @ X) / np.maximum(np.sum(A, axis=0, keepdims=True).T, 1)  # empty clusters keep 0
    trips = trips + 1
cmm_print("C", C)
cmm_print("trips", trips)
cmm_print("sum(A, 1)", np.sum(A, axis=0, keepdims=True))  # points per cluster
finish()
