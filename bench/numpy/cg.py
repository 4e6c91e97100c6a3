# NumPy port of examples/cg.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

n = size("n", 2000)
start()
B = next_input((n, n))
A = B.T @ B / n + np.eye(n)                # symmetric positive definite
b = next_input((n, 1))
x = np.zeros((n, 1))
r = b - A @ x
p = r
rs = r.T @ r
tol = 1e-10 * np.linalg.norm(b, keepdims=True)
trips = np.array([[0.0]])
while np.sqrt(rs)[0, 0] > tol[0, 0]:
    Ap = A @ p
    alpha = rs / (p.T @ Ap)
    x = x + alpha * p
    r = r - alpha * Ap
    rs2 = r.T @ r
    p = r + (rs2 / rs) * p
    rs = rs2
    trips = trips + 1
cmm_print("x", x)
cmm_print("trips", trips)
finish()
