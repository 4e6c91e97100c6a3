"""Outputs stream, and a stop signal ends a run cleanly (issue 18): a
compiled program whose first statements are a print and a save writes both
while its long loop is still running; SIGTERM (a scheduler's wall-time
kill) then ends it within seconds, non-zero, saying how many outputs were
written, with the saved file whole. Run directly (1 node) and under
mpirun on 2 ranks. The oracle is the reference interpreter running the
program's first statements alone.
usage: streaming.py CMMC WORKDIR
"""

import os
import re
import select
import signal
import subprocess
import sys
import time

import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

HEAD = """\
A = rand(600, 600)
print(A)
save("early.npy", A)
"""
# About 60 products of 1500 x 1500 (0.1-0.3 s each here): far longer than
# the test waits before it stops the run.
TAIL = """\
X = rand(1500, 1500)
W = rand(1500, 1500) / 1500
for i = 1:60
  X = tanh(X * W)
end
print(X)
"""


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAILED: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def read_line(proc, seconds):
    """The first line of proc's stdout, or None if none comes in time."""
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return proc.stdout.readline() if ready else None


def check(cmmc, work, nodes):
    what = "%d node(s)" % nodes
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    with open(os.path.join(work, "head.cmm"), "w") as f:
        f.write(HEAD.replace("early.npy", "reference.npy"))
    with open(os.path.join(work, "prog.cmm"), "w") as f:
        f.write(HEAD + TAIL)
    expected = run([cmmc, "head.cmm", "--interpret"], work)
    run([cmmc, "prog.cmm", "--nodes=%d" % nodes, "-o", "prog"], work)
    cmd = ["./prog"] if nodes == 1 else [
        "mpirun", "-np", str(nodes), "--oversubscribe", "--bind-to", "none",
        "./prog"]
    proc = subprocess.Popen(cmd, cwd=work, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        line = read_line(proc, 120)
        assert line is not None, "%s: no print within 120 s" % what
        assert proc.poll() is None, \
            "%s: the program ended before the test could stop it" % what
        assert line == expected, "%s: printed %r, the interpreter %r" % (
            what, line, expected)
        early = os.path.join(work, "early.npy")
        deadline = time.time() + 60
        while not os.path.exists(early) and time.time() < deadline:
            time.sleep(0.05)
        assert os.path.exists(early), "%s: early.npy not written" % what
        assert proc.poll() is None, "%s: ended too soon" % what
        stopped = time.time()
        os.kill(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        took = time.time() - stopped
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0, "%s: exit status 0 after SIGTERM" % what
    assert took < 30, "%s: %.1f s to stop after SIGTERM" % (what, took)
    assert out == "", "%s: printed after the stop: %r" % (what, out)
    # The signal came from this script, the program's parent, or from
    # mpirun, which passes it on to its ranks.
    assert re.search(r"stopped by SIGTERM from its parent \((python[\d.]*|"
                     r"mpirun|prterun|prted|orted), pid \d+\); 2 of the "
                     r"program's 3 output\(s\) were written", err), \
        "%s: stderr:\n%s" % (what, err)
    a = np.load(os.path.join(work, "early.npy"))
    ref = np.load(os.path.join(work, "reference.npy"))
    error = np.linalg.norm(a - ref) / np.linalg.norm(ref)
    assert error <= 1e-10, "%s: early.npy differs by %g" % (what, error)
    leftovers = [n for n in os.listdir(work) if ".tmp." in n]
    assert not leftovers, "%s: temporary files left: %s" % (what, leftovers)
    print("ok %s: first print and save while running, stopped in %.2f s "
          "(status %d)" % (what, took, proc.returncode))


def main():
    cmmc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    for nodes in (1, 2):
        check(cmmc, work, nodes)


if __name__ == "__main__":
    main()
