# NumPy port of examples/ridge.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, chol

m = size("m", 10000)                             # samples
p = size("p", 400)                               # features
start()
X = next_input((m, p))
w = next_input((p, 1))
y = X @ w + 0.5 * next_input((m, 1))
G0 = X.T @ X
b = X.T @ y
lam = size("lambda", 1)
for k in range(1, 5):
    G = G0 + lam * np.eye(p)
    R = chol(G)
    w_hat = np.linalg.solve(R, np.linalg.solve(R.T, b))
    cmm_print("norm(w_hat - w) / norm(w)", np.linalg.norm(w_hat - w, keepdims=True) / np.linalg.norm(w, keepdims=True))
    cmm_print("norm(y - X * w_hat) / sqrt(m)", np.linalg.norm(y - X @ w_hat, keepdims=True) / np.sqrt(m))
    lam = lam * 10
G = G0 + np.eye(p)
cmm_print("det(chol(G)) .> 0", (np.linalg.det(chol(G)).reshape(1, 1) > 0).astype(np.float64))  # 1: R has a positive diagonal
cmm_print("norm(chol(G) \\ (chol(G)' \\ b) - G \\ b) / norm(G \\ b) .< 1e-10",
          (np.linalg.norm(np.linalg.solve(chol(G), np.linalg.solve(chol(G).T, b)) - np.linalg.solve(G, b), keepdims=True)
           / np.linalg.norm(np.linalg.solve(G, b), keepdims=True) < 1e-10).astype(np.float64))
finish()
