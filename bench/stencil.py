#!/usr/bin/env python3
"""The 64 x 64 stencil on 1 and 2 nodes (issue 15, done-when 2;
docs/planner.md): compiles bench/stencil.cmm with the built-in model for 1
node and for 2 nodes (the plan cmmc chooses), and for 2 nodes on the
two-rank profile alone (models/builtin/two-ranks.json: no master alone, so
the plan uses both ranks), then runs them in interleaved rounds and prints,
per program, the median and range of the makespan `--stats` measures and of
the whole process (mpirun included).

usage: bench/stencil.py [--cmmc=PATH] [--rounds=N] [--steps=N]
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
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmmc", default=os.path.join(ROOT, "build", "bin",
                                                   "cmmc"))
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    source = os.path.join(ROOT, "bench", "stencil.cmm")
    shared = os.path.join(ROOT, "models", "builtin", "two-ranks.json")
    work = tempfile.mkdtemp(prefix="cmm-stencil-")
    programs = [("1 node", 1, []), ("2 nodes, chosen", 2, []),
                ("2 nodes, both used (two-rank profile)", 2,
                 ["--machine-model=" + shared])]
    exes = []
    for i, (name, nodes, extra) in enumerate(programs):
        exe = os.path.join(work, "stencil%d" % i)
        subprocess.run([args.cmmc, source, "--nodes=%d" % nodes, "-o", exe]
                       + extra, check=True)
        plan = subprocess.run([args.cmmc, source, "--nodes=%d" % nodes,
                               "--emit=plan"] + extra, check=True,
                              capture_output=True, text=True).stdout
        chosen = re.search(r"^chosen tile size: .*?\)", plan, re.M).group(0)
        print("%-40s %s" % (name, chosen))
        exes.append(exe)
    makespan = [[] for _ in programs]
    whole = [[] for _ in programs]
    for _ in range(args.rounds):
        for i, (name, nodes, _) in enumerate(programs):
            start = time.perf_counter()
            p = subprocess.run(["mpirun", "-np", str(nodes), "--bind-to",
                                "none", exes[i], "--stats"], env=ENV,
                               capture_output=True, text=True, check=True)
            whole[i].append(time.perf_counter() - start)
            m = re.search(r"measured ([0-9.e+-]+) s", p.stderr)
            makespan[i].append(float(m.group(1)))
    print("\n%-40s %22s %22s" % ("program", "makespan ms (range)",
                                 "whole process s"))
    for i, (name, _, _) in enumerate(programs):
        print("%-40s %7.3f (%.3f-%.3f) %9.3f (%.3f-%.3f)" % (
            name, 1e3 * statistics.median(makespan[i]),
            1e3 * min(makespan[i]), 1e3 * max(makespan[i]),
            statistics.median(whole[i]), min(whole[i]), max(whole[i])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
