"""Files in program order in compiled programs: a `load` of a path saved
earlier in the program reads back what the save wrote (the latest save, any
spelling of the path, even when the file did not exist at compile time);
a `load` before any save reads the file on disk; saves are on disk after
the run. Run on 1 and 2 ranks; the oracle is the program text (values by
hand), and the reference interpreter must print the same.
usage: files.py CMMC WORKDIR
"""

import os
import subprocess
import sys

import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

PROGRAM = """\
A = [1 2 3; 4 5 6]
save("a.csv", A)
B = load("./a.csv") * 2
save("a.csv", B')
print(load("a.csv"))
C = load("old.npy")
print(C)
save("old.npy", C + 1)
"""

# load("a.csv") is B' = 2 A': 3x2 [2 8; 4 10; 6 12]; C = [1 2; 3 4].
EXPECTED = ('load("a.csv") 3x2 sum=42 norm=19.0788 [2 8]\n'
            "C 2x2 sum=10 norm=5.47723 [1 2]\n")


def check_files(work, what):
    a = np.loadtxt(os.path.join(work, "a.csv"), delimiter=",", ndmin=2)
    assert (a == [[2, 8], [4, 10], [6, 12]]).all(), "%s: a.csv %s" % (what, a)
    old = np.load(os.path.join(work, "old.npy"))
    assert (old == [[2, 3], [4, 5]]).all(), "%s: old.npy %s" % (what, old)


def fresh(work):
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    np.save(os.path.join(work, "old.npy"), np.array([[1.0, 2], [3, 4]]))
    with open(os.path.join(work, "prog.cmm"), "w") as f:
        f.write(PROGRAM)


def run(cmd, work):
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True,
                       env=ENV, timeout=300)
    assert p.returncode == 0, "%s failed:\n%s" % (cmd, p.stderr)
    return p.stdout


def main():
    cmmc, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)

    fresh(work)
    out = run([cmmc, "prog.cmm", "--interpret"], work)
    assert out == EXPECTED, "interpreter printed:\n" + out
    check_files(work, "interpreter")
    print("ok interpreter")

    for ranks in (1, 2):
        fresh(work)
        exe = os.path.join(work, "prog")
        run([cmmc, "prog.cmm", "--nodes=%d" % ranks, "-o", exe], work)
        # Compiled before the run: a.csv must not exist yet, old.npy is the
        # original.
        assert not os.path.exists(os.path.join(work, "a.csv"))
        out = run(["mpirun", "-np", str(ranks), "--bind-to", "none", exe],
                  work)
        assert out == EXPECTED, "%d rank(s) printed:\n%s" % (ranks, out)
        check_files(work, "%d rank(s)" % ranks)
        print("ok %d rank(s)" % ranks)


if __name__ == "__main__":
    main()
