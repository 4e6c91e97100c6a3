# NumPy port of examples/kmeans.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

m = size("m", 20000)                             # points
d = size("d", 64)                                # dimensions
k = size("k", 32)                                # clusters
iters = size("iters", 10)
start()
X = next_input((m, d))
C = next_input((k, d))                           # initial centroids
for it in range(1, iters + 1):
    D = np.sum(X ** 2, axis=1, keepdims=True) + np.sum(C ** 2, axis=1, keepdims=True).T - 2 * X @ C.T   # m x k
    A = (D == np.min(D, axis=1, keepdims=True)).astype(np.float64)  # 1 where the centroid is nearest
    C = (A.T @ X) / np.maximum(np.sum(A, axis=0, keepdims=True).T, 1)  # empty clusters keep 0
cmm_print("C", C)
cmm_print("sum(minimum(D, 2))", np.sum(np.min(D, axis=1, keepdims=True), keepdims=True))  # within-cluster sum of squares
finish()
