"""A rank that stops mid-run ends the job: compiles a program whose ranks
exchange tiles for several seconds, runs it on 2 ranks with a 3 s receive
timeout, stops rank 1 (SIGSTOP) after a second, and checks that mpirun
exits non-zero within the timeout plus 10 s, with a message naming the
waiting rank, the task and its source line.
usage: stall.py CMMC WORKDIR
"""

import os
import re
import signal
import subprocess
import sys
import time

from rank_processes import rank_pid

TIMEOUT = 3.0
PROGRAM = """# Repeated products: the ranks exchange tiles all the time.
n = 1000
A = rand(n, n)
for i in 1:200
    A = (A * A) ./ n
end
print(A)
"""
# Two busy ranks of about this machine's speed without the built-in model's
# master alone: plans use both ranks (on the built-in model this one may
# run on the master alone).
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs",
                      "two-busy-ranks.json")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def main():
    cmmc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "stall.cmm")
    with open(source, "w") as f:
        f.write(PROGRAM)
    exe = os.path.realpath(os.path.join(work, "stall"))
    subprocess.run([cmmc, source, "-o", exe, "--nodes=2",
                    "--machine-model=" + SHARED, "--tile-sizes=250"],
                   check=True)
    job = subprocess.Popen(["mpirun", "-np", "2", exe,
                            "--recv-timeout=%g" % TIMEOUT],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=ENV)
    time.sleep(1.0)
    pid = None
    for _ in range(50):
        pid = rank_pid(exe, 1)
        if pid:
            break
        time.sleep(0.1)
    assert pid, "rank 1 not found"
    assert job.poll() is None, "the job ended before rank 1 was stopped:\n" + \
        job.communicate()[1]
    os.kill(pid, signal.SIGSTOP)
    stopped = time.time()
    try:
        out, err = job.communicate(timeout=TIMEOUT + 10)
    except subprocess.TimeoutExpired:
        os.kill(pid, signal.SIGKILL)
        job.kill()
        sys.exit("FAILED: the job still ran %g s after rank 1 stopped"
                 % (TIMEOUT + 10))
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    elapsed = time.time() - stopped
    assert job.returncode != 0, "the job exited 0 with a stopped rank"
    # Every run-time error's format: rank, location, message, task, and
    # the source line with a caret (docs/reliability.md).
    m = re.search(r"cmm: rank 0: \S*stall\.cmm:\d+:\d+: error: timed out "
                  r"after 3 s (waiting for a \d+x\d+ tile from rank 1|sending "
                  r"a \d+x\d+ tile to rank 1, which needs it) \(task "
                  r"'[^']+'\)\n.+\n *\^", err)
    assert m, "no message naming rank 0, the task and its line in:\n" + err
    print("ok: exit %d %.1f s after the stop: %s" % (job.returncode, elapsed,
                                                    m.group(0)))


if __name__ == "__main__":
    main()
