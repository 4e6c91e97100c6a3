"""Run-time errors of compiled programs end the job with a message naming
the source line, never a crash or a hang: a singular matrix, a file that
changed shape since compilation, a tile larger than the node's memory, a
distributed product larger than the memory allowed per rank, the wrong
number of ranks, an unknown option.
usage: errors.py CMMC WORKDIR
"""

import os
import re
import subprocess
import sys

import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def compile_program(cmmc, work, name, source, flags):
    path = os.path.join(work, name + ".cmm")
    with open(path, "w") as f:
        f.write(source)
    exe = os.path.join(work, name)
    p = subprocess.run([cmmc, path, "-o", exe] + flags, cwd=work,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return exe


def expect_failure(cmd, work, pattern, what):
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=ENV,
                       timeout=120)
    assert p.returncode != 0, "%s: exited 0" % what
    assert re.search(pattern, p.stderr), "%s: no match for %r in:\n%s" % (
        what, pattern, p.stderr)
    print("ok %s: %s" % (what, re.search(pattern, p.stderr).group(0)))


def main():
    cmmc, work = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)

    exe = compile_program(cmmc, work, "singular",
                          "A = ones(3, 3)\nB = rand(3, 3)\nprint(inv(A) * B)\n",
                          ["--nodes=2", "--O0"])
    expect_failure(["mpirun", "-np", "2", "--bind-to", "none", exe], work,
                   r"singular\.cmm:3:7: error: inv: the 3x3 matrix is singular",
                   "singular matrix")

    # What came before the error is written first, as the interpreter does
    # (here both outputs are gathered on rank 0 before the solve fails).
    exe = compile_program(cmmc, work, "prefix",
                          "A = [1 2; 2 4]\nprint(A)\nsave(\"o.npy\", A)\n"
                          "print(A \\ [1; 1])\n", ["--nodes=2"])
    saved = os.path.join(work, "o.npy")
    if os.path.exists(saved):
        os.remove(saved)
    p = subprocess.run(["mpirun", "-np", "2", "--bind-to", "none", exe],
                       cwd=work, capture_output=True, text=True, env=ENV,
                       timeout=120)
    assert p.returncode != 0, "prefix: exited 0"
    assert p.stdout == "A 2x2 sum=9 norm=5 [1 2]\n", p.stdout
    assert re.search(r"prefix\.cmm:4:9: error: A \\ B: the 2x2 matrix A is "
                     r"singular", p.stderr), p.stderr
    assert np.array_equal(np.load(saved), np.array([[1.0, 2], [2, 4]]))
    print("ok outputs before a run-time error are kept")

    np.save(os.path.join(work, "data.npy"), np.ones((4, 4)))
    exe = compile_program(cmmc, work, "changed",
                          "D = load(\"data.npy\")\nprint(D * D)\n",
                          ["--nodes=2"])
    np.save(os.path.join(work, "data.npy"), np.ones((5, 4)))
    expect_failure(["mpirun", "-np", "2", "--bind-to", "none", exe], work,
                   r"changed\.cmm:1:5: error: 'data\.npy' now holds a 5x4 "
                   r"matrix but held 4x4 when the program was compiled",
                   "file changed since compilation")

    exe = compile_program(cmmc, work, "huge",
                          "A = rand(300000, 300000)\nprint(A)\n",
                          ["--nodes=1", "--tile-sizes=300000"])
    expect_failure(["mpirun", "-np", "1", exe], work,
                   r"huge\.cmm:1:5: error: cannot allocate \S+ GiB for task "
                   r"'rand@1:5\[0,0\]': the node has \S+ GiB of memory",
                   "tile larger than memory")

    # A distributed (COSMA) product that does not fit in the memory a rank
    # is allowed at run time (CMM_MAX_MEMORY, bytes) says what it needs.
    exe_cosma = compile_program(
        cmmc, work, "cosma", "A = rand(64, 4096)\nB = rand(4096, 64)\n"
        "print(A * B)\n", ["--nodes=2", "--gemm=cosma"])
    ENV["CMM_MAX_MEMORY"] = "8000"
    try:
        expect_failure(["mpirun", "-np", "2", "--bind-to", "none",
                        "-x", "CMM_MAX_MEMORY", exe_cosma], work,
                       r"cosma\.cmm:3:9: error: a 64x64x4096 product on 2 "
                       r"rank\(s\) needs at least \S+ GiB per rank .*and a "
                       r"rank has 7\.45e-06 GiB \(task 'matmul@3:9 cosma'\)",
                       "distributed product larger than memory")
    finally:
        del ENV["CMM_MAX_MEMORY"]

    expect_failure(["mpirun", "-np", "2", exe], work,
                   r"this program was planned for 1 node\(s\), one MPI rank "
                   r"each; run it with mpirun -np 1",
                   "wrong rank count")
    expect_failure(["mpirun", "-np", "1", exe, "--bogus"], work,
                   r"unknown option '--bogus'", "unknown option")


if __name__ == "__main__":
    main()
