"""Every program in examples/ (at its `# test:` size) prints the same matrices
with and without the cmm-simplify rewrites, within a relative Frobenius error
of 1e-10 (the reference is the unoptimized --O0 run).
usage: rewrite_equivalence.py EXAMPLES_DIR WORKDIR
"""

import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import cmm_examples  # noqa: E402

TOLERANCE = 1e-10


def run(args, cwd, dump):
    os.makedirs(dump, exist_ok=True)
    subprocess.run(["cmmc"] + args + ["--interpret", "--dump-prints=" + dump],
                   cwd=cwd, check=True, capture_output=True)
    return sorted(os.listdir(dump), key=lambda f: int(re.findall(r"\d+", f)[0]))


def main():
    examples, work = sys.argv[1], sys.argv[2]
    for prog, flags in cmm_examples.programs(examples, work):
        name = os.path.basename(prog)
        args = [prog] + flags
        ref_dir = os.path.join(work, name + ".O0")
        opt_dir = os.path.join(work, name + ".opt")
        ref = run(args + ["--O0"], work, ref_dir)
        opt = run(args, work, opt_dir)
        assert ref == opt, "%s: different prints %s vs %s" % (name, ref, opt)
        worst = 0.0
        for f in ref:
            x = np.load(os.path.join(opt_dir, f))
            y = np.load(os.path.join(ref_dir, f))
            assert x.shape == y.shape, "%s %s: shape %s vs %s" % (
                name, f, x.shape, y.shape)
            same_nonfinite = np.array_equal(np.isfinite(x), np.isfinite(y))
            assert same_nonfinite, "%s %s: NaN/Inf pattern differs" % (name, f)
            fx, fy = x[np.isfinite(y)], y[np.isfinite(y)]
            denom = np.linalg.norm(fy)
            err = np.linalg.norm(fx - fy) / denom if denom else \
                np.linalg.norm(fx - fy)
            assert err <= TOLERANCE, "%s %s: relative error %g" % (name, f, err)
            worst = max(worst, err)
        print("ok %s: %d prints, worst relative error %.1e" %
              (name, len(ref), worst))


if __name__ == "__main__":
    main()
