# NumPy port of examples/neural-network.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish

m = size("m", 8192)                              # samples
d = size("d", 512)                               # features
h = size("h", 512)                               # hidden units
epochs = size("epochs", 10)
rate = size("rate", 0.5)
start()
X = next_input((m, d))
y = np.tanh(X @ next_input((d, 1)) / np.sqrt(d))  # targets
W1 = next_input((d, h)) / np.sqrt(d)
W2 = next_input((h, 1)) / np.sqrt(h)
for e in range(1, epochs + 1):
    H = np.tanh(X @ W1)                          # m x h
    E = H @ W2 - y                               # m x 1 residual
    G = (E @ W2.T) * (1 - H ** 2)                # back through tanh
    W2 = W2 - rate * (H.T @ E) / m
    W1 = W1 - rate * (X.T @ G) / m
cmm_print("mean(E .^ 2)", np.mean(E ** 2, keepdims=True))  # loss of the last epoch
cmm_print("W2'", W2.T)
finish()
