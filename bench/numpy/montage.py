# NumPy port of examples/montage.cmm (line by line; see bench/README-ports.md).
import numpy as np
from cmm_port import size, start, next_input, cmm_print, finish, colon

m = size("m", 1000)
start()
i = colon(1, 2 * m).T                            # 2m x 1 row indices
T = (i == colon(1, m)).astype(np.float64)        # 2m x m: rows 1..m (top/left)
U = (i == (colon(1, m) + m)).astype(np.float64)  # rows m+1..2m (bottom/right)
S = (np.abs(colon(1, m).T - colon(1, m)) <= 1).astype(np.float64) / 3  # tridiagonal averaging
for c in range(1, 3 + 1):                        # colour channels
    P1 = S @ next_input((m, m)) @ S.T
    P2 = S @ next_input((m, m)) @ S.T
    P3 = S @ next_input((m, m)) @ S.T
    P4 = S @ next_input((m, m)) @ S.T
    P1 = P1 - np.mean(P1, keepdims=True)
    P2 = P2 - np.mean(P2, keepdims=True)
    P3 = P3 - np.mean(P3, keepdims=True)
    P4 = P4 - np.mean(P4, keepdims=True)
    mosaic = T @ P1 @ T.T + T @ P2 @ U.T + U @ P3 @ T.T + U @ P4 @ U.T
    cmm_print("mosaic", mosaic)
finish()
