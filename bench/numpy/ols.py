# NumPy port of examples/ols.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, qr, pinv, left_divide

m = size("m", 20000)                             # samples
p = size("p", 200)                               # features
start()
A = np.hstack([np.ones((m, 1)), next_input((m, p - 1))])  # an intercept column and features
w = next_input((p, 1))                           # the true weights
y = A @ w + 0.1 * next_input((m, 1))
w_ls = left_divide(A, y)                         # least squares
Q, R = qr(A)
w_qr = np.linalg.solve(R, Q.T @ y)
w_pinv = pinv(A) @ y
cmm_print("w_ls'", w_ls.T)
cmm_print("norm(w_ls - w) / norm(w)", np.linalg.norm(w_ls - w, keepdims=True) / np.linalg.norm(w, keepdims=True))
cmm_print("norm(w_qr - w_ls) / norm(w_ls) .< 1e-10",
          (np.linalg.norm(w_qr - w_ls, keepdims=True) / np.linalg.norm(w_ls, keepdims=True) < 1e-10).astype(np.float64))
cmm_print("norm(w_pinv - w_ls) / norm(w_ls) .< 1e-10",
          (np.linalg.norm(w_pinv - w_ls, keepdims=True) / np.linalg.norm(w_ls, keepdims=True) < 1e-10).astype(np.float64))
r = y - A @ w_ls
cmm_print("norm(A' * r) / (norm(A) * norm(r)) .< 1e-10",
          (np.linalg.norm(A.T @ r, keepdims=True) / (np.linalg.norm(A, keepdims=True) * np.linalg.norm(r, keepdims=True)) < 1e-10).astype(np.float64))
cmm_print("norm(r) / sqrt(m)", np.linalg.norm(r, keepdims=True) / np.sqrt(m))
finish()
