# NumPy port of examples/gaussian-process.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, chol

n = size("n", 2000)                              # training points
t = size("t", 500)                               # test points
l = size("l", 0.3)                               # length scale
s2 = size("s2", 0.01)                            # noise variance
start()
x = 4 * next_input((n, 1))                       # inputs in [0, 4)
y = np.sin(3 * x) + 0.1 * next_input((n, 1))
xs = 4 * next_input((t, 1))
K = np.exp(-((x - x.T) ** 2) / (2 * l ** 2)) + s2 * np.eye(n)
Ks = np.exp(-((xs - x.T) ** 2) / (2 * l ** 2))
R = chol(K)                                      # K = R' R
alpha = np.linalg.solve(R, np.linalg.solve(R.T, y))
mean_s = Ks @ alpha
cmm_print("mean_s'", mean_s.T)
cmm_print("norm(mean_s - sin(3 * xs)) / sqrt(t)", np.linalg.norm(mean_s - np.sin(3 * xs), keepdims=True) / np.sqrt(t))
fit = -0.5 * (y.T @ alpha)
complexity = -np.sum(np.log(np.abs(np.diag(R)[:, None])), keepdims=True)
cmm_print("fit", fit)
cmm_print("complexity", complexity)
cmm_print("fit + complexity - n / 2 * log(2 * pi)", fit + complexity - n / 2 * np.log(2 * np.pi))
finish()
