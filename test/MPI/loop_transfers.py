"""A loop-invariant matrix is made where the loop reads it and never crosses
the network whole (cmmrt/Program.h, docs/planner.md "Run-time control
flow"): a PageRank loop whose body multiplies by the n x n P, and conjugate
gradient whose body multiplies by the n x n A, compiled for NP ranks that
all take work (Inputs/two-busy-ranks.json), are run with --stats. The
segment before each loop keeps each tile of the matrix on the node the body
reads it on (cmm.keep_on), so the first trip sends at most a quarter of it
more than a later one, no later trip sends more than the first or 0.4 of
the matrix, and, where making the matrix moves nothing (PageRank's P is
elementwise), the whole run moves less than a quarter of it besides what
the trips send; the printed x must equal the reference interpreter's
within 1e-10 (relative Frobenius error).
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
PAGERANK = """n = %d
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
# Conjugate gradient for a fixed number of trips (the residual stays far
# from 0 in 15 of them).
CG = """n = %d
B = rand(n, n)
A = B' * B / n + eye(n)
b = rand(n, 1)
x = zeros(n, 1)
r = b
p = r
rs = r' * r
it = [0]
while it < %d  # expect %d
    Ap = A * p
    alpha = rs ./ (p' * Ap)
    x = x + alpha .* p
    r = r - alpha .* Ap
    rs2 = r' * r
    p = r + (rs2 ./ rs) .* p
    rs = rs2
    it = it + 1
end
print(x)
""" % (N, TRIPS, TRIPS)


def check(cmmc, ranks, work, name, program, matrix, made_in_place):
    """Runs `program` and checks what crossed: `matrix` is the name of its
    invariant n x n matrix; `made_in_place`: making it moves nothing of its
    own (elementwise; a product moves its operands' tiles)."""
    source = os.path.join(work, name + "-loop.cmm")
    with open(source, "w") as f:
        f.write(program)
    while_line = program.splitlines().index(
        next(l for l in program.splitlines() if l.startswith("while"))) + 1
    model = os.path.join(os.path.dirname(__file__), "Inputs",
                         "two-busy-ranks.json")
    exe = os.path.join(work, name + "-loop")
    subprocess.run([cmmc, source, "-o", exe, "--nodes=%d" % ranks,
                    "--machine-model=" + model], check=True)
    ours, reference = (os.path.join(work, name + "-" + d)
                       for d in ("ours", "reference"))
    subprocess.run([cmmc, source, "--interpret", "--dump-prints=" + reference],
                   check=True, capture_output=True)
    run = subprocess.run(["mpirun", "-np", str(ranks), "--bind-to", "none",
                          exe, "--stats", "--dump-prints=" + ours],
                         capture_output=True, text=True, env=ENV, timeout=300)
    assert run.returncode == 0, run.stderr
    line = re.search(r"loop at \S+:%d:1: (\d+) trip\(s\) of its body .*; "
                     r"sent per trip: first (\d+) transfer\(s\) ([\d.e+-]+) "
                     r"MB, later at most (\d+) transfer\(s\) ([\d.e+-]+) MB"
                     % while_line, run.stderr)
    assert line, "%s: no loop line in --stats:\n%s" % (name, run.stderr)
    trips, first, later = (int(line.group(1)), float(line.group(3)),
                           float(line.group(5)))
    total = re.search(r"transfers? \(\d+ more skipped[^)]*\), ([\d.e+-]+) MB "
                      r"moved|transfers?, ([\d.e+-]+) MB moved", run.stderr)
    assert total, "%s: no MB moved in --stats:\n%s" % (name, run.stderr)
    total = float(total.group(1) or total.group(2))
    megabytes = 8.0 * N * N / 1e6
    assert trips == TRIPS, "%s: %d trips, not %d" % (name, trips, TRIPS)
    # The loop ran as many trips as `# expect` says: the plans' predictions
    # summed over the runs made equal the compiler's at the assumed trips.
    predicted = re.search(r"predicted makespan ([\d.e+-]+) s \(at the assumed "
                          r"trip counts; ([\d.e+-]+) s at the trips run\)",
                          run.stderr)
    assert predicted, "%s: no predicted makespan in --stats:\n%s" % (
        name, run.stderr)
    assumed, made = float(predicted.group(1)), float(predicted.group(2))
    assert abs(made - assumed) <= 1e-3 * assumed, \
        "%s: predicted %.4g s at the trips run, %.4g s at the assumed" % (
            name, made, assumed)
    # Before the loop the matrix is made in pieces where the body reads
    # them: not gathered to the master, not sent out in the first trip.
    outside = total - first - (TRIPS - 1) * later
    assert not made_in_place or outside <= 0.25 * megabytes, \
        "%s: outside the trips %.4g MB moved: %s (%.4g MB) crossed whole" % (
            name, outside, matrix, megabytes)
    assert first <= later + 0.25 * megabytes, \
        "%s: the first trip sent %.4g MB, a later one %.4g MB: %s (%.4g MB) " \
        "was sent to the loop" % (name, first, later, matrix, megabytes)
    # Nor is it sent again: a later trip sends less than the part of it
    # another node reads.
    assert later <= first and later < 0.4 * megabytes, \
        "%s: a later trip sent %.4g MB, the first %.4g MB: %s (%.4g MB) was " \
        "sent again" % (name, later, first, matrix, megabytes)
    x = np.load(os.path.join(ours, "print0.npy"))
    y = np.load(os.path.join(reference, "print0.npy"))
    err = np.linalg.norm(x - y) / np.linalg.norm(y)
    assert err <= 1e-10, "%s: relative Frobenius error %.3g" % (name, err)
    print("ok %s on %d rank(s): %.4g MB moved in all, first trip %.4g MB (%s "
          "is %.4g MB), later trips at most %.4g MB, x within %.2g of the "
          "interpreter" % (name, ranks, total, first, matrix, megabytes,
                           later, err))


def main():
    cmmc, ranks, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(work, exist_ok=True)
    check(cmmc, ranks, work, "pagerank", PAGERANK, "P", made_in_place=True)
    check(cmmc, ranks, work, "cg", CG, "A", made_in_place=False)


if __name__ == "__main__":
    main()
