"""Where the ranks landed (issue 16, cmmrt/Placement.h): a compiled program
reports every rank's host with --stats; ranks the plan runs as separate
nodes that share a host too small for them are named in a warning, and
--strict-placement stops the run before any task. The host name and core
count come from this machine (socket.gethostname, the cores this process
may run on), not from the program.
usage: placement.py CMMC WORKDIR
"""

import os
import shutil
import socket
import subprocess
import sys

cmmc, work = sys.argv[1:]
# A fresh directory: the programs are compiled once per run (run() reuses
# them within it), never taken from a run against an older runtime.
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
HOST = socket.gethostname()
CORES = len(os.sched_getaffinity(0))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


source = os.path.join(work, "p.cmm")
# Large enough that the planner spreads it over 4 nodes of the built-in
# model (at 300 it keeps every task on the master since the model was
# regenerated on 2026-11-30, and such a plan needs no more cores).
with open(source, "w") as f:
    f.write("A = ones(1000, 1000)\nprint(sum(A * A))\n")


def run(nodes, *args):
    exe = os.path.join(work, "p%d" % nodes)
    if not os.path.exists(exe):
        subprocess.run([cmmc, source, "-o", exe, "--nodes=%d" % nodes],
                       check=True, env=ENV, timeout=300)
    return subprocess.run(["mpirun", "-np", str(nodes), "--oversubscribe",
                           "--bind-to", "none", exe] + list(args),
                          capture_output=True, text=True, env=ENV,
                          timeout=300)


# The sum of the entries of ones(1000,1000)^2 is 1000^3.
ANSWER = "[1e+09]"

# Each node of the built-in model has one core: as many ranks as cores fit.
fits = min(2, CORES)
r = run(fits, "--stats")
check(r.returncode == 0, "%d ranks failed: %s" % (fits, r.stderr))
check(ANSWER in r.stdout, "%d ranks printed %r" % (fits, r.stdout))
want = ", ".join("rank %d on %s" % (i, HOST) for i in range(fits))
check("cmm stats: placement: " + want + "\n" in r.stderr,
      "no placement report %r in %r" % (want, r.stderr))
check("warning" not in r.stderr,
      "%d ranks on %d cores warned: %s" % (fits, CORES, r.stderr))

# Twice as many ranks as cores: every rank is named, the run goes on.
crowd = 2 * CORES
names = ", ".join(str(i) for i in range(crowd - 1)) + " and %d" % (crowd - 1)
message = ("ranks %s share host %s (%d cores), but the plan runs them as "
           "separate nodes needing %d cores" % (names, HOST, CORES, crowd))
r = run(crowd)
check(r.returncode == 0, "%d ranks failed: %s" % (crowd, r.stderr))
check(ANSWER in r.stdout, "%d ranks printed %r" % (crowd, r.stdout))
check("cmm: rank 0: warning: " + message in r.stderr,
      "no warning %r in %r" % (message, r.stderr))

# ... and with --strict-placement the program stops before printing.
r = run(crowd, "--strict-placement")
check(r.returncode != 0, "--strict-placement exited 0")
check("cmm: rank 0: error: " + message in r.stderr,
      "no error %r in %r" % (message, r.stderr))
check(ANSWER not in r.stdout, "--strict-placement still ran: %r" % r.stdout)

# Bound to one core, a rank that runs 2 BLAS threads is warned once per
# process, not at every plan run: a run-time loop of 30 trips, each a run
# of the body's plan (cmmrt/Program.h), on the master with both cores.
if CORES >= 2:
    loop = os.path.join(work, "loop.cmm")
    with open(loop, "w") as f:
        f.write("A = ones(300, 300) / 300\nx = ones(300, 1)\nk = [0]\n"
                "while k < 30\n    x = A * x\n    k = k + 1\nend\n"
                "print(sum(x))\n")
    exe = os.path.join(work, "loop")
    subprocess.run([cmmc, loop, "-o", exe, "--nodes=1"], check=True, env=ENV,
                   timeout=300)
    r = subprocess.run(["mpirun", "-np", "1", "--bind-to", "core", exe],
                       capture_output=True, text=True, env=ENV, timeout=300)
    check(r.returncode == 0 and "[300]" in r.stdout,
          "the bound loop failed or printed %r: %s" % (r.stdout, r.stderr))
    warned = r.stderr.count("--bind-to none")
    check(warned == 1, "bound to one core, warned %d times: %s" % (
        warned, r.stderr))

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
