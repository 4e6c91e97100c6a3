#!/usr/bin/env python3
"""A run-time `while` against the same loop as a `for` of the trip count it
measured (issue 19: within 1.25x). For each program (a PageRank step on a
dense n x n matrix, and conjugate gradient), the `while` version is run
once to learn its trips (--stats' loop line); the `for` version unrolls
exactly that many trips at compile time. Both are compiled for NP nodes of
the built-in model and run in interleaved rounds; printed per program: the
median `--stats` makespan ("compute", summed over the segment runs for the
`while` program) and the median wall time of the whole command (start-up
included), each with the while/for ratio. The printed values of both
versions must agree within 1e-10 (relative Frobenius error).

usage: bench/while_vs_for.py [--cmmc=PATH] [--np=1] [--rounds=5] [--n=2000]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")

PAGERANK = """n = {n}
P = rand(n, n)
P = P ./ sum(P, 1)
b = ones(n, 1) / n
x = b
{loop}
    x = 0.85 * (P * x) + 0.15 * b
{step}end
print(x)
"""
PAGERANK_WHILE = ("it = [0]\nwhile it < 40  # expect 40", "    it = it + 1\n")

CG = """n = {n}
B = rand(n, n)
A = B' * B / n + eye(n)
b = rand(n, 1)
x = zeros(n, 1)
r = b
p = r
rs = r' * r
tol = 1e-10 * norm(b)
{loop}
    Ap = A * p
    alpha = rs ./ (p' * Ap)
    x = x + alpha .* p
    r = r - alpha .* Ap
    rs2 = r' * r
    p = r + (rs2 ./ rs) .* p
    rs = rs2
{step}end
print(x)
"""
CG_WHILE = ("trips = [0]\nwhile sqrt(rs) > tol  # expect 30",
            "    trips = trips + 1\n")


def run(cmd, cwd):
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
    compute = float(re.search(r"measured ([\d.e+-]+) s", p.stderr).group(1))
    return p, compute, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmmc", default=os.path.join(ROOT, "build", "bin",
                                                   "cmmc"))
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=2000)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cmm-while-")
    launcher = ([] if args.np == 1 else
                ["mpirun", "-np", str(args.np), "--bind-to", "none"])
    import numpy as np

    for name, text, (head, step) in (("pagerank", PAGERANK, PAGERANK_WHILE),
                                     ("cg", CG, CG_WHILE)):
        exes = {}
        source = text.format(n=args.n, loop=head, step=step)
        path = os.path.join(work, name + "-while.cmm")
        open(path, "w").write(source)
        exes["while"] = os.path.join(work, name + "-while")
        subprocess.run([args.cmmc, path, "-o", exes["while"],
                        "--nodes=%d" % args.np], check=True, env=ENV)
        p, _, _ = run(launcher + [exes["while"], "--stats"], work)
        trips = int(re.search(r"(\d+) trip\(s\) of its body", p.stderr)
                    .group(1))
        source = text.format(n=args.n, loop="for k in 1:%d" % trips, step="")
        path = os.path.join(work, name + "-for.cmm")
        open(path, "w").write(source)
        exes["for"] = os.path.join(work, name + "-for")
        subprocess.run([args.cmmc, path, "-o", exes["for"],
                        "--nodes=%d" % args.np], check=True, env=ENV)
        times = {k: ([], []) for k in exes}
        values = {}
        for _ in range(args.rounds):
            for kind, exe in exes.items():
                dump = os.path.join(work, name + "-" + kind + "-prints")
                _, compute, wall = run(launcher + [exe, "--stats",
                                                   "--dump-prints=" + dump],
                                       work)
                times[kind][0].append(compute)
                times[kind][1].append(wall)
                values[kind] = np.load(os.path.join(dump, "print0.npy"))
        err = (np.linalg.norm(values["while"] - values["for"]) /
               np.linalg.norm(values["for"]))
        assert err <= 1e-10, "%s: while and for differ by %.3g" % (name, err)
        c = {k: statistics.median(v[0]) for k, v in times.items()}
        w = {k: statistics.median(v[1]) for k, v in times.items()}
        print("%-8s n=%d np=%d trips=%d: compute while %.4f s, for %.4f s "
              "(x%.2f); whole while %.4f s, for %.4f s (x%.2f)" % (
                  name, args.n, args.np, trips, c["while"], c["for"],
                  c["while"] / c["for"], w["while"], w["for"],
                  w["while"] / w["for"]))


if __name__ == "__main__":
    main()
