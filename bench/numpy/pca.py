# NumPy port of examples/pca.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, svd, eigvals

m = size("m", 20000)                             # samples
d = size("d", 100)                               # dimensions
k = size("k", 5)                                 # components kept
start()
Z = next_input((m, k)) @ (10 * next_input((k, d))) + next_input((m, d))
Xc = Z - np.mean(Z, axis=0, keepdims=True)       # centred
U, S, V = svd(Xc)
explained = S ** 2 / (m - 1)
cmm_print("explained'", explained.T)
cmm_print("sum(explained[1:k, :]) / sum(explained)", np.sum(explained[0:k, :], keepdims=True) / np.sum(explained, keepdims=True))
scores = Xc @ V[:, 0:k]
cmm_print("scores[1:3, :]", scores[0:3, :])
rebuilt = scores @ V[:, 0:k].T
cmm_print("norm(Xc - rebuilt) / norm(Xc)", np.linalg.norm(Xc - rebuilt, keepdims=True) / np.linalg.norm(Xc, keepdims=True))
C = Xc.T @ Xc / (m - 1)
w = eigvals(C)                                   # ascending: the k largest come last
cmm_print("abs(sum(w[d - k + 1:d, :]) - sum(explained[1:k, :])) ./ sum(w) .< 1e-10",
          (np.abs(np.sum(w[d - k:d, :], keepdims=True) - np.sum(explained[0:k, :], keepdims=True))
           / np.sum(w, keepdims=True) < 1e-10).astype(np.float64))
finish()
