"""Run-time errors of compiled programs end the job with a message naming
the source line, never a crash or a hang: a singular matrix, a file that
changed shape since compilation, a tile larger than the node's memory, a
distributed product larger than the memory allowed per rank, the wrong
number of ranks, an unknown option, standard output on a full disk; --help.
Every message has the one format of docs/reliability.md: `cmm: rank R:
file:line:col: error: message (task 'NAME')` and the source line, or
`cmm: rank R: error: message` for what belongs to no statement.
usage: errors.py CMMC WORKDIR
"""

import os
import re
import subprocess
import sys

import numpy as np

# Every job here ends in MPI_Abort, after which mpirun waits
# odls_base_sigkill_timeout (1 s) after its SIGCONT and again after its
# SIGTERM to the ranks, though they are gone: 2.3 s of each job's 2.5. The
# messages checked here are written before MPI_Abort, so the wait is
# skipped (faults.py and stall.py keep it: they check what the other ranks
# write when SIGTERM stops them).
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_odls_base_sigkill_timeout="0")


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
                   r"cmm: rank 0: \S*singular\.cmm:3:7: error: inv: the 3x3 "
                   r"matrix is singular \(task '[^']+'\)"
                   r"\nprint\(inv\(A\) \* B\)\n      \^\n",
                   "singular matrix (with the source line and a caret)")

    # What came before the error is written first, as the interpreter does,
    # whatever the plan runs first: solves run on rank 0, and a failed task
    # is reported once the outputs before it (which never depend on it) are
    # complete. Each case on 1, 2 and 3 ranks; the oracle is the program
    # text (values computed by hand), the interpreter agrees.
    cases = [
        ("prefix",
         "A = [1 2; 2 4]\nprint(A)\nsave(\"o.npy\", A)\nprint(A \\ [1; 1])\n",
         "A 2x2 sum=9 norm=5 [1 2]\n",
         r"prefix\.cmm:4:9: error: A \\ B: the 2x2 matrix A is singular"),
        # An independent print before a singular inv that the plan may run
        # first (its inputs are ready at once).
        ("independent",
         "print([1 2])\nprint(inv([1 2; 2 4]))\n",
         "[1 2] 1x2 sum=3 norm=2.23607 [1 2]\n",
         r"independent\.cmm:2:7: error: inv: the 2x2 matrix is singular"),
        # The first inv succeeds ([1 -1; -1 2], norm sqrt(7)), the second
        # fails: the first is printed.
        ("two",
         "print(inv([2 1; 1 1]))\nprint(inv([1 2 3; 4 5 6; 7 8 9]))\n",
         "inv([2 1; 1 1]) 2x2 sum=1 norm=2.64575 [1 -1]\n",
         r"two\.cmm:2:7: error: inv: the 3x3 matrix is singular"),
        # The factorizations' own errors: a matrix that is not positive
        # definite, one that is not symmetric; the QR before is printed
        # (R = [5 4; 0 3], by hand).
        ("chol",
         "print([1 2])\nQ, R = qr([3 0; 4 5])\nprint(R)\n"
         "C = chol([1 2; 2 1])\nprint(C)\n",
         "[1 2] 1x2 sum=3 norm=2.23607 [1 2]\nR 2x2 sum=12 norm=7.07107 [5 4]\n",
         r"chol\.cmm:4:5: error: chol: the 2x2 matrix is not positive "
         r"definite \(its leading minor of order 2 is not positive\)"),
        # The same on tiles of 2 (chol's tile algorithm, Tiling.cpp): the
        # failing minor is found by the last diagonal tile's potrf ([1 3; 3
        # 1], determinant -8: order 6 of the matrix); an asymmetry between
        # tiles (0, 1) and (1, 0) by the first potrf, from the shares.
        ("chol_tiles",
         "print([1 2])\nA = [4 2 0 0 0 0; 2 5 0 0 0 0; 0 0 4 0 0 0; "
         "0 0 0 4 0 0; 0 0 0 0 1 3; 0 0 0 0 3 1]\nC = chol(A)\nprint(C)\n",
         "[1 2] 1x2 sum=3 norm=2.23607 [1 2]\n",
         r"chol_tiles\.cmm:3:5: error: chol: the 6x6 matrix is not positive "
         r"definite \(its leading minor of order 6 is not positive\)",
         ["--tile-sizes=2"]),
        ("chol_asymmetric_tiles",
         "A = [4 0 1 0; 0 4 0 0; 0 0 4 0; 0 0 0 4]\nprint(chol(A))\n", "",
         r"chol_asymmetric_tiles\.cmm:2:7: error: chol: the 4x4 matrix is not "
         r"symmetric", ["--tile-sizes=2"]),
        # A triangular solve on tiles: the trsm of the diagonal tile with
        # the zero (rows 3-4) fails.
        ("triangular_tiles",
         "U = triu([1 2 3 4; 0 1 2 3; 0 0 0 1; 0 0 0 1])\n"
         "print(U \\ [1; 1; 1; 1])\n", "",
         r"triangular_tiles\.cmm:2:9: error: A \\ B: the 4x4 matrix A is "
         r"singular", ["--tile-sizes=2"]),
        # ... and read transposed where U is stored (U' \ b: no transpose
        # is made), from the first block row: the zero is met in the second.
        ("transposed_triangular_tiles",
         "U = triu([1 2 3 4; 0 1 2 3; 0 0 0 1; 0 0 0 1])\n"
         "print(U' \\ [1; 1; 1; 1])\n", "",
         r"transposed_triangular_tiles\.cmm:2:10: error: A \\ B: the 4x4 "
         r"matrix A is singular", ["--tile-sizes=2"]),
        # inv(T) * b of a triangle T: the rewrites' triangular solve on
        # tiles states the error as the inv the program wrote.
        ("inverse_triangular_tiles",
         "U = triu([1 2 3 4; 0 1 2 3; 0 0 0 1; 0 0 0 1])\n"
         "print(inv(U) * [1; 1; 1; 1])\n", "",
         r"inverse_triangular_tiles\.cmm:2:7: error: inv: the 4x4 matrix is "
         r"singular", ["--tile-sizes=2"]),
        ("eig",
         "w, V = eig([1 2; 0 1])\nprint(w)\n", "",
         r"eig\.cmm:1:8: error: eig: the 2x2 matrix is not symmetric"),
        # A run-time condition that is NaN (0/0), after two trips of a loop
        # whose condition was 1 (cmmrt/Program.h): the prints of the trips
        # before it are kept.
        ("nan",
         "x = [1.0]\nk = [0]\nwhile (k < 2) + (k - 2) ./ (k - 2)\n"
         "    x = x + 1\n    print(x)\n    k = k + 1\nend\n",
         "x 1x1 sum=2 norm=2 [2]\nx 1x1 sum=3 norm=3 [3]\n",
         r"cmm: rank 0: \S*nan\.cmm:3:15: error: the condition is NaN"),
    ]
    for name, source, stdout, stderr, *flags in cases:
        for ranks in (1, 2, 3):
            exe = compile_program(cmmc, work, name, source,
                                  ["--nodes=%d" % ranks] + sum(flags, []))
            saved = os.path.join(work, "o.npy")
            if os.path.exists(saved):
                os.remove(saved)
            p = subprocess.run(["mpirun", "-np", str(ranks), "--oversubscribe",
                                "--bind-to", "none", exe],
                               cwd=work, capture_output=True, text=True,
                               env=ENV, timeout=120)
            what = "%s on %d rank(s)" % (name, ranks)
            assert p.returncode != 0, "%s: exited 0" % what
            assert p.stdout == stdout, "%s: stdout %r" % (what, p.stdout)
            assert re.search(stderr, p.stderr), "%s: %s" % (what, p.stderr)
            if "save" in source:
                assert np.array_equal(np.load(saved),
                                      np.array([[1.0, 2], [2, 4]])), what
            print("ok outputs before a run-time error are kept: " + what)

    # Downstream of the failure, on several ranks. "sent": a tile that was
    # never computed is still sent (as an empty message) so the receiver's
    # later transfers, which the first print needs, are not held up behind
    # it (B = 600 ones(600, 600): sum 600^3, norm 600^2). "gang": the
    # distributed products after a failed inv are skipped on every rank
    # together, so a later product (Z) is not paired with another one's
    # collectives; its line is the reference interpreter's. Both products
    # with an inverse are solves at the default level (cmm-linear-solves:
    # inv(S) * A -> S \ A), which report a singular S at the inv's line
    # and in its words.
    gang = ("P = rand(200, 200) + 200 * eye(200)\nB = rand(200, 200)\n"
            "Z = inv(P) * B\nprint(Z)\nS = ones(200, 200)\n"
            "C = inv(S) * rand(200, 200)\nC2 = C * C\nC3 = C2 * C2\n"
            "C4 = C3 * C3\nprint(C4)\n")
    path = os.path.join(work, "gang.cmm")
    with open(path, "w") as f:
        f.write(gang)
    reference = subprocess.run([cmmc, path, "--interpret"], cwd=work,
                               capture_output=True, text=True)
    assert reference.returncode != 0 and reference.stdout.startswith("Z "), \
        reference.stdout + reference.stderr
    later = [
        ("sent",
         "A = ones(600, 600)\nB = A * A\nprint(B)\nS = ones(600, 600)\n"
         "X = inv(S)\nC = X * A\nprint(C)\n", [],
         "B 600x600 sum=2.16e+08 norm=360000 [600 600 600 600 ...]\n",
         r"sent\.cmm:5:5: error: inv: the 600x600 matrix is singular"),
        ("gang", gang, ["--gemm=cosma"], reference.stdout,
         r"gang\.cmm:6:5: error: inv: the 200x200 matrix is singular"),
    ]
    for name, source, flags, stdout, stderr in later:
        for ranks in (2, 3):
            exe = compile_program(cmmc, work, name, source,
                                  ["--nodes=%d" % ranks] + flags)
            p = subprocess.run(["mpirun", "-np", str(ranks), "--oversubscribe",
                                "--bind-to", "none", exe, "--recv-timeout=20"],
                               cwd=work, capture_output=True, text=True,
                               env=ENV, timeout=120)
            what = "%s on %d rank(s)" % (name, ranks)
            assert p.returncode != 0, "%s: exited 0" % what
            assert p.stdout == stdout, "%s: stdout %r, expected %r" % (
                what, p.stdout, stdout)
            assert re.search(stderr, p.stderr), "%s: %s" % (what, p.stderr)
            print("ok outputs before a run-time error are kept: " + what)

    np.save(os.path.join(work, "data.npy"), np.ones((4, 4)))
    exe = compile_program(cmmc, work, "changed",
                          "D = load(\"data.npy\")\nprint(D * D)\n",
                          ["--nodes=2"])
    np.save(os.path.join(work, "data.npy"), np.ones((5, 4)))
    expect_failure(["mpirun", "-np", "2", "--bind-to", "none", exe], work,
                   r"cmm: rank \d: \S*changed\.cmm:1:5: error: 'data\.npy' now "
                   r"holds a 5x4 matrix but held 4x4 when the program was "
                   r"compiled \(task '[^']+'\)",
                   "file changed since compilation")

    # A tile larger than the node's memory: the planner refuses it with the
    # memory it needs; with a model that claims more memory than the
    # machine has, the run stops at the task's source line instead.
    huge = "A = rand(300000, 300000)\nprint(A)\n"
    with open(os.path.join(work, "huge.cmm"), "w") as f:
        f.write(huge)
    p = subprocess.run([cmmc, "huge.cmm", "-o", "huge", "--nodes=1",
                        "--tile-sizes=300000"], cwd=work,
                       capture_output=True, text=True)
    pattern = (r"cmmc: error: no plan fits in memory: the least demanding "
               r"\(tile size 300000\) needs 670\.55 GiB of tiles at once")
    assert p.returncode != 0 and re.search(pattern, p.stderr), p.stderr
    print("ok plan larger than memory refused: " +
          re.search(pattern, p.stderr).group(0))
    with open(os.path.join(work, "roomy.json"), "w") as f:
        f.write('{"nodes": [{"cores": 2, "memory_bytes": 1e15}]}')
    exe = compile_program(cmmc, work, "huge", huge,
                          ["--nodes=1", "--tile-sizes=300000",
                           "--machine-model=roomy.json"])
    expect_failure(["mpirun", "-np", "1", exe], work,
                   r"cmm: rank 0: \S*huge\.cmm:1:5: error: cannot allocate \S+ "
                   r"GiB: the node has \S+ GiB of memory \(task "
                   r"'rand@1:5\[0,0\]'\)",
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
                   r"cmm: rank 0: error: this program was planned for 1 "
                   r"node\(s\), one MPI rank "
                   r"each; run it directly \(\S+\) or with mpirun -np 1",
                   "wrong rank count")
    expect_failure(["mpirun", "-np", "1", exe, "--bogus"], work,
                   r"cmm: rank 0: error: unknown option '--bogus'",
                   "unknown option")
    # Bad values of the run options, on the command line or in their
    # environment variables, are refused before the run.
    expect_failure(["mpirun", "-np", "1", exe, "--bind-threads=sideways"], work,
                   r"cmm: rank 0: error: unknown thread binding 'sideways' "
                   r"\(--bind-threads or CMM_BIND_THREADS: cores or none\)",
                   "unknown thread binding")
    expect_failure(["mpirun", "-np", "1", exe, "--comm-priority=high"], work,
                   r"cmm: rank 0: error: unknown communicator priority 'high' "
                   r"\(--comm-priority or CMM_COMM_PRIORITY: normal or "
                   r"realtime\)",
                   "unknown communicator priority")
    ENV["CMM_BIND_THREADS"] = "all"
    try:
        expect_failure(["mpirun", "-np", "1", exe], work,
                       r"cmm: rank 0: error: unknown thread binding 'all'",
                       "unknown thread binding in CMM_BIND_THREADS")
    finally:
        del ENV["CMM_BIND_THREADS"]
    # Either binding runs the program to the interpreter's output, from the
    # command line and from the environment (one rank: a lone worker whose
    # threads --bind-threads=cores binds).
    source = "A = [1 2; 3 4]\nB = A * A'\nprint(B)\nprint(sum(B, 1))\n"
    exe_bind = compile_program(cmmc, work, "bind", source, ["--nodes=1"])
    expected = subprocess.run([cmmc, "bind.cmm", "--interpret"], cwd=work,
                              capture_output=True, text=True, env=ENV,
                              timeout=120).stdout
    assert expected.count("\n") == 2, expected
    for name, args, env in [("--bind-threads=none", ["--bind-threads=none"], {}),
                            ("--bind-threads=cores", ["--bind-threads=cores"],
                             {}),
                            ("CMM_BIND_THREADS=none", [],
                             {"CMM_BIND_THREADS": "none"})]:
        p = subprocess.run([exe_bind] + args, cwd=work, capture_output=True,
                           text=True, env=dict(ENV, **env), timeout=120)
        assert p.returncode == 0 and p.stdout == expected, \
            "%s: exit %d, printed %r, the interpreter %r\n%s" % (
                name, p.returncode, p.stdout, expected, p.stderr)
        print("ok %s runs" % name)

    # Standard output on a full disk: the print is an error at its line
    # (not a run that exits 0 having printed nothing), from a program
    # started directly and from the interpreter.
    full = "A = ones(2, 2)\nprint(A)\nprint(2)\n"
    exe_full = compile_program(cmmc, work, "full", full, ["--nodes=1"])
    for name, cmd, pattern in [
        ("compiled", [exe_full],
         r"cmm: rank 0: \S*full\.cmm:2:1: error: cannot write to standard "
         r"output: No space left on device \(task '[^']+'\)\nprint\(A\)\n"
         r"\^\n"),
        ("interpreter", [cmmc, "full.cmm", "--interpret"],
         r"full\.cmm:2:1: error: cannot write to standard output: No space "
         r"left on device\nprint\(A\)\n\^\n")]:
        with open("/dev/full", "w") as devfull:
            p = subprocess.run(cmd, cwd=work, stdout=devfull,
                               stderr=subprocess.PIPE, text=True, env=ENV,
                               timeout=120)
        assert p.returncode != 0, "stdout on /dev/full (%s): exited 0" % name
        assert re.search(pattern, p.stderr), \
            "stdout on /dev/full (%s): no match for %r in:\n%s" % (
                name, pattern, p.stderr)
        print("ok stdout on a full disk (%s): %s" % (
            name, p.stderr.splitlines()[0]))

    # --help works without mpirun (a singleton rank) whatever the planned
    # rank count, and names it.
    exe2 = compile_program(cmmc, work, "two", "print(ones(2, 2))\n",
                           ["--nodes=2"])
    p = subprocess.run([exe2, "--help"], cwd=work, capture_output=True,
                       text=True, env=ENV, timeout=120)
    assert p.returncode == 0, p.stderr
    assert re.search(r"planned for 2 node\(s\).*\n  mpirun -np 2 ", p.stdout)
    assert "--recv-timeout=S" in p.stdout and "two 2x2" not in p.stdout, \
        p.stdout
    # A program for one node says to run it directly.
    p = subprocess.run([exe, "--help"], cwd=work, capture_output=True,
                       text=True, env=ENV, timeout=120)
    assert p.returncode == 0, p.stderr
    assert re.search(r"planned for 1 node: run it with\n  \S+ \[options\]",
                     p.stdout), p.stdout
    print("ok --help")


if __name__ == "__main__":
    main()
