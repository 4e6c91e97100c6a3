"""A loop-invariant matrix is made where the loop reads it and never crosses
the network whole (cmmrt/Program.h, docs/planner.md "Run-time control
flow"): a PageRank loop whose body multiplies by the n x n P, compiled for
NP ranks that all take work (Inputs/two-busy-ranks.json), is run with
--stats. The segment before the loop keeps each tile of P on the node the
body reads it on (cmm.keep_on), so the whole run moves less than a quarter
of P besides what the trips send, the first trip sends at most a quarter
of P more than a later one, and no later trip sends more than the first;
x must equal the reference interpreter's within 1e-10 (relative Frobenius
error).
usage: loop_transfers.py CMMC NP WORKDIR
"""

import os
import re
import subprocess
import sys

import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
N = 1200
TRIPS = 15
# PageRank of 64 personalisations at once: the product is large enough for
# the plan to share it among the ranks.
PROGRAM = """n = %d
P = rand(n, n)
P = P ./ sum(P, 1)
b = rand(n, 64)
b = b ./ sum(b, 1)
x = b
it = [0]
while it < %d  # expect %d
    x = 0.85 * (P * x) + 0.15 * b
    it = it + 1
end
print(x)
""" % (N, TRIPS, TRIPS)


def main():
    cmmc, ranks, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "pagerank-loop.cmm")
    with open(source, "w") as f:
        f.write(PROGRAM)
    model = os.path.join(os.path.dirname(__file__), "Inputs",
                         "two-busy-ranks.json")
    exe = os.path.join(work, "pagerank-loop")
    subprocess.run([cmmc, source, "-o", exe, "--nodes=%d" % ranks,
                    "--machine-model=" + model], check=True)
    ours, reference = (os.path.join(work, d) for d in ("ours", "reference"))
    subprocess.run([cmmc, source, "--interpret", "--dump-prints=" + reference],
                   check=True, capture_output=True)
    run = subprocess.run(["mpirun", "-np", str(ranks), "--bind-to", "none",
                          exe, "--stats", "--dump-prints=" + ours],
                         capture_output=True, text=True, env=ENV, timeout=300)
    assert run.returncode == 0, run.stderr
    line = re.search(r"loop at \S+:8:1: (\d+) trip\(s\) of its body .*; sent "
                     r"per trip: first (\d+) transfer\(s\) ([\d.e+-]+) MB, "
                     r"later at most (\d+) transfer\(s\) ([\d.e+-]+) MB",
                     run.stderr)
    assert line, "no loop line in --stats:\n" + run.stderr
    trips, first, later = (int(line.group(1)), float(line.group(3)),
                           float(line.group(5)))
    total = re.search(r"transfers? \(\d+ more skipped[^)]*\), ([\d.e+-]+) MB "
                      r"moved|transfers?, ([\d.e+-]+) MB moved", run.stderr)
    assert total, "no MB moved in --stats:\n" + run.stderr
    total = float(total.group(1) or total.group(2))
    p_megabytes = 8.0 * N * N / 1e6
    assert trips == TRIPS, "%d trips, not %d" % (trips, TRIPS)
    # Before the loop P is made in pieces where the body reads them: not
    # gathered to the master, not sent out in the first trip.
    outside = total - first - (TRIPS - 1) * later
    assert outside <= 0.25 * p_megabytes, \
        "outside the trips %.4g MB moved: P (%.4g MB) crossed whole" % (
            outside, p_megabytes)
    assert first <= later + 0.25 * p_megabytes, \
        "the first trip sent %.4g MB, a later one %.4g MB: P (%.4g MB) was " \
        "sent to the loop" % (first, later, p_megabytes)
    # Nor is it sent again.
    assert later <= first, \
        "a later trip sent %.4g MB, the first %.4g MB: P was sent again" % (
            later, first)
    x = np.load(os.path.join(ours, "print0.npy"))
    y = np.load(os.path.join(reference, "print0.npy"))
    err = np.linalg.norm(x - y) / np.linalg.norm(y)
    assert err <= 1e-10, "relative Frobenius error %.3g" % err
    print("ok %d rank(s): %.4g MB moved in all, first trip %.4g MB (P is "
          "%.4g MB), later trips at most %.4g MB, x within %.2g of the "
          "interpreter" % (ranks, total, first, p_megabytes, later, err))


if __name__ == "__main__":
    main()
