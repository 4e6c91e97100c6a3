"""An independent NumPy implementation of cmm's counter-based `rand`/`randn`
(docs/language.md, "Random numbers"), used as an oracle by the tests.

element(i, j) = f(seed, call_id, i, j) with
  h = mix(mix(mix(mix(seed ^ K) ^ call_id) ^ i) ^ (2j + stream))
where mix is the splitmix64 finalizer and K = 0x636d6d5f72616e64; a uniform
is (h >> 11) * 2^-53. call_id = mix((line << 32) | col), then
h = mix(h ^ iteration) for each enclosing loop, shifted right by one.
"""

import numpy as np

M64 = (1 << 64) - 1
K = 0x636D6D5F72616E64
DEFAULT_SEED = 20260101


def mix64(x):
    """splitmix64 finalizer on a Python int."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def mix64_np(x):
    """splitmix64 finalizer on a uint64 array (arithmetic wraps mod 2^64)."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def call_id(line, col, iterations=()):
    h = mix64((line << 32) | col)
    for it in iterations:
        h = mix64(h ^ (it & M64))
    return h >> 1


def _hash(m, n, seed, cid, stream):
    h = mix64(mix64((seed & M64) ^ K) ^ cid)
    i = np.arange(m, dtype=np.uint64)[:, None]
    j = np.arange(n, dtype=np.uint64)[None, :]
    with np.errstate(over="ignore"):
        hi = mix64_np(np.uint64(h) ^ i)
        return mix64_np(hi ^ (j * np.uint64(2) + np.uint64(stream)))


def _unit(bits):
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53


def rand(m, n, cid, seed=DEFAULT_SEED):
    return _unit(_hash(m, n, seed, cid, 0))


def randn(m, n, cid, seed=DEFAULT_SEED):
    u1 = 1.0 - _unit(_hash(m, n, seed, cid, 0))
    u2 = _unit(_hash(m, n, seed, cid, 1))
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)


def find_calls(source, name="rand"):
    """(line, col) of every `name(` in the source, 1-based, skipping comments."""
    out = []
    for ln, text in enumerate(source.splitlines(), start=1):
        code = text.split("#", 1)[0]
        start = 0
        while True:
            k = code.find(name + "(", start)
            if k < 0:
                break
            if k == 0 or not (code[k - 1].isalnum() or code[k - 1] == "_"):
                out.append((ln, k + 1))
            start = k + 1
    return out


def rel_frobenius(x, y):
    return np.linalg.norm(x - y) / np.linalg.norm(y)
