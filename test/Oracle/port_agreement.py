"""An example of examples/ against its NumPy port (bench/numpy, an
independent line-by-line evaluation) at the example's test size: the port
reads the same inputs (cmmc --dump-inputs) and every printed matrix of the
reference interpreter (at the default level and at -O0: the rewrites) must
equal the port's within a relative Frobenius error of 1e-8 (bench/run's
tolerance); the printed labels and shapes must be the same.
usage: port_agreement.py CMMC EXAMPLES_DIR PORTS_DIR NAME WORKDIR
"""

import glob
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmm_examples  # noqa: E402

TOLERANCE = 1e-8


def main():
    cmmc, examples, ports, name, work = sys.argv[1:6]
    cmmc = shutil.which(cmmc) or cmmc
    flags = dict((os.path.basename(p), f)
                 for p, f in cmm_examples.programs(examples, work))[name + ".cmm"]
    program = os.path.join(work, "examples", name + ".cmm")
    inputs = os.path.join(work, name + "-inputs")
    sizes = dict(f.split("=", 1) for f in flags if "=" in f)
    env = dict(os.environ, CMM_INPUTS=inputs, **sizes)
    port = os.path.join(ports, name.replace("-", "_") + ".py")
    theirs = os.path.join(work, name + "-numpy")
    subprocess.run([cmmc, program, *flags, "--interpret",
                    "--dump-inputs=" + inputs], cwd=work, check=True,
                   capture_output=True)
    p = subprocess.run([sys.executable, port], cwd=work, capture_output=True,
                       text=True, env=dict(env, CMM_OUT=theirs))
    assert p.returncode == 0, p.stderr
    their_lines = p.stdout.splitlines()
    for level in ([], ["-O0"]):
        ours = os.path.join(work, name + "-cmm" + "".join(level))
        q = subprocess.run([cmmc, program, *flags, *level, "--interpret",
                            "--dump-prints=" + ours], cwd=work,
                           capture_output=True, text=True, check=True)
        our_lines = q.stdout.splitlines()
        assert len(our_lines) == len(their_lines), (q.stdout, p.stdout)
        for i, (a, b) in enumerate(zip(our_lines, their_lines)):
            assert a.split(" ")[:2] == b.split(" ")[:2], \
                "print %d: %r against NumPy's %r" % (i, a, b)
            x = np.load(os.path.join(ours, "print%d.npy" % i))
            y = np.load(os.path.join(theirs, "print%d.npy" % i))
            err = np.linalg.norm(x - y) / max(np.linalg.norm(y), 1e-300)
            assert err <= TOLERANCE, "%s%s print %d (%s): relative " \
                "Frobenius error %.3g" % (name, " " + " ".join(level), i,
                                          a.split(" ")[0], err)
    print("%s agrees with its NumPy port: %d prints, both levels" % (
        name, len(their_lines)))


if __name__ == "__main__":
    main()
