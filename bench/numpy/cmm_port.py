"""Helpers shared by the NumPy peer ports of the cmm benchmark programs.

Conventions (see bench/README-ports.md):
  * sizes:   size(name, default) -> the scalar from the .cmm source, overridden
             by the environment variable of the same name;
  * inputs:  next_input((rows, cols)) -> the next CMM_INPUTS/input<N>.npy (the
             value of the N-th rand/randn/load call of the cmm program, in trace
             order); the shape must match or the port fails;
  * output:  cmm_print(label, X) -> the cmm print line on stdout, and the full
             matrix saved as CMM_OUT/print<N>.npy (when CMM_OUT is set);
  * timing:  start() after the sizes, finish() at the end prints
             `bench-time <seconds>` to stderr: the wall time since start()
             minus the time spent writing print<N>.npy (reading the inputs,
             the port's equivalent of cmm's rand, is timed).
"""

import math
import os
import sys
import time

import numpy as np

_t0 = None
_io_time = 0.0          # seconds spent reading inputs / saving prints
_next_input = 0
_next_print = 0


def _fail(msg):
    sys.stderr.write("cmm_port: error: " + msg + "\n")
    sys.exit(2)


def size(name, default):
    """A size scalar: the environment variable `name` if set, else default.
    Integral values come back as Python ints (usable as shapes)."""
    text = os.environ.get(name)
    if text is None or text.strip() == "":
        v = default
    else:
        try:
            v = float(text)
        except ValueError:
            _fail("%s=%r is not a number" % (name, text))
    if isinstance(v, float) and math.isfinite(v) and v == int(v):
        v = int(v)
    return v


def start():
    """Start the timed region (call after the sizes are read)."""
    global _t0, _io_time
    _t0 = time.perf_counter()
    _io_time = 0.0


def next_input(*shape):
    """The next input matrix, checked against shape (rows, cols)."""
    global _next_input, _io_time
    if len(shape) == 1:
        shape = tuple(shape[0])
    want = tuple(int(s) for s in shape)
    d = os.environ.get("CMM_INPUTS")
    if not d:
        _fail("CMM_INPUTS is not set (the directory of input<N>.npy files)")
    path = os.path.join(d, "input%d.npy" % _next_input)
    if not os.path.exists(path):
        _fail("missing %s (the program needs more inputs than were dumped)"
              % path)
    x = np.load(path)
    if x.dtype != np.float64 or x.ndim != 2:
        _fail("%s: expected a 2-D float64 array, got %s %s"
              % (path, x.dtype, x.shape))
    if x.shape != want:
        _fail("%s: shape %s, the program expects %s"
              % (path, x.shape, want))
    x = np.ascontiguousarray(x)
    _next_input += 1
    # Reading an input is this port's `rand`: it stays in the timed region,
    # as cmm's generation of the same values does.
    return x


def _fmt(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Inf" if v > 0 else "-Inf"
    return "%.6g" % v


def cmm_print(label, X):
    """cmm's print: `label RxC sum=S norm=F [first-row elements]`."""
    global _next_print, _io_time
    X = np.asarray(X)
    if X.ndim != 2:
        _fail("print %r: a %d-D value (every cmm value is a matrix)"
              % (label, X.ndim))
    X = X.astype(np.float64, copy=False)
    r, c = X.shape
    shown = min(4, c)
    first = " ".join(_fmt(X[0, j]) for j in range(shown)) if r > 0 else ""
    more = " ..." if c > shown else ""
    line = "%s %dx%d sum=%s norm=%s [%s%s]" % (
        label, r, c, _fmt(np.sum(X)), _fmt(np.linalg.norm(X)), first, more)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    t = time.perf_counter()
    out = os.environ.get("CMM_OUT")
    if out:
        os.makedirs(out, exist_ok=True)
        np.save(os.path.join(out, "print%d.npy" % _next_print),
                np.ascontiguousarray(X))
    _next_print += 1
    _io_time += time.perf_counter() - t


def colon(a, b):
    """cmm's range a:b: a 1 x (b-a+1) row of float64."""
    return np.arange(a, b + 1, dtype=np.float64).reshape(1, -1)


def cmm_round(X):
    """cmm's round: ties to even (as numpy.rint)."""
    return np.rint(X)


def finish():
    """Print `bench-time <seconds>` to stderr; fail if inputs were left over."""
    if _t0 is None:
        _fail("finish() without start()")
    elapsed = time.perf_counter() - _t0 - _io_time
    d = os.environ.get("CMM_INPUTS")
    if d and os.path.exists(os.path.join(d, "input%d.npy" % _next_input)):
        _fail("%s holds more inputs than the program read (%d): the port "
              "does not follow the program's rand order" % (d, _next_input))
    sys.stderr.write("bench-time %.6f\n" % elapsed)
    sys.stderr.flush()


# The dense linear algebra built-ins with the language's conventions
# (docs/language.md §15): NumPy leaves signs open where cmm fixes them.

def _largest_positive(u, *others):
    """Each column of u flipped so that its entry of largest magnitude is
    positive (the first within a relative 1e-12 of the largest on ties),
    the same columns of `others` with it."""
    out = [np.array(m, dtype=np.float64) for m in (u,) + others]
    for j in range(u.shape[1]):
        col = np.abs(out[0][:, j])
        at = int(np.argmax(col >= col.max() * (1 - 1e-12)))
        if out[0][at, j] < 0:
            for m in out:
                m[:, j] = -m[:, j]
    return out


def chol(A):
    """cmm's chol: upper R with R' R = A."""
    return np.linalg.cholesky(A).T


def qr(A):
    """cmm's thin QR: R's diagonal non-negative."""
    q, r = np.linalg.qr(A, mode="reduced")
    s = np.where(np.diag(r) < 0, -1.0, 1.0)
    return q * s, r * s[:, None]


def svd(A):
    """cmm's thin SVD: U, S (k x 1), V."""
    u, s, vt = np.linalg.svd(A, full_matrices=False)
    u, v = _largest_positive(u, vt.T)
    return u, s[:, None], v


def eig(A):
    """cmm's symmetric eig: values (n x 1, ascending), vectors."""
    w, v = np.linalg.eigh(A)
    return w[:, None], _largest_positive(v)[0]


def eigvals(A):
    return np.linalg.eigvalsh(A)[:, None]


def pinv(A):
    """cmm's pinv: Julia's tolerance min(m, n) eps max(S)."""
    return np.linalg.pinv(A, rcond=min(A.shape) * np.finfo(np.float64).eps)


def left_divide(A, B):
    """cmm's A \\ B: LU for a square A, else least squares (dgelsd with
    pinv's tolerance)."""
    if A.shape[0] == A.shape[1]:
        return np.linalg.solve(A, B)
    return np.linalg.lstsq(A, B, rcond=min(A.shape) *
                           np.finfo(np.float64).eps)[0]
