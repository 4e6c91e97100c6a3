#!/usr/bin/env python3
"""The Table 9 analogue of the Julia Cloud Matrix Machine paper (docs/planner.md).

Simulated makespan of the Markov benchmark (n = 20000, tile size 5000) on the
12-node cluster of Table 9's caption (models/c5-table9.json: a c5.24xlarge
master limited to 10 Gbps, c5.9xlarge workers, each stream at EC2's 5 Gbps
single-flow limit, a node's streams sharing its 10 Gbps) over the master's
workers and communicators.
Two tables: the paper's grid (master workers x communicators, the other
cores idle), and the curve configure=auto searches (communicators 1..16,
the rest of the master's cores in workers of 2 threads), with the
configuration `cmmc --configure=auto` chooses. Planning only: nothing runs.

usage: bench/table9.py [--cmmc=PATH] [--root=DIR] [--check]
       (--check: exit 1 unless the curve has a minimum strictly inside
       1..16 and configure=auto chooses it)
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def predicted(cmmc, root, model, extra=()):
    out = subprocess.run(
        [cmmc, os.path.join(root, "examples", "markov.cmm"), "-D", "n=20000",
         "--tile-sizes=5000", "--emit=plan", "--O0", "--gemm=tiled",
         "--machine-model=" + model]
        + list(extra), check=True, capture_output=True, text=True).stdout
    m = re.search(r"chosen tile size: \d+ \(predicted makespan ([0-9.e+-]+) s",
                  out)
    return float(m.group(1)), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmmc", default="build/bin/cmmc")
    ap.add_argument("--root", default=".")
    ap.add_argument("--check", action="store_true")
    opts = ap.parse_args()
    root = os.path.abspath(opts.root)
    base = json.load(open(os.path.join(root, "models", "c5-table9.json")))
    master = base["nodes"][0]
    cores, threads = master["cores"], master["threads_per_worker"]
    tmp = tempfile.mkdtemp(prefix="cmm-table9-")

    def run(workers, comms):
        model = json.loads(json.dumps(base))
        model["nodes"][0]["workers"] = workers
        model["nodes"][0]["communicators"] = comms
        path = os.path.join(tmp, "m-%d-%d.json" % (workers, comms))
        json.dump(model, open(path, "w"))
        return predicted(opts.cmmc, root, path)[0]

    grid_workers = (2, 3, 4, 5)
    print("Simulated makespan (s), master workers x communicators "
          "(the paper's grid):\n")
    print("| communicators | " + " | ".join("%d workers" % w
                                           for w in grid_workers) + " |")
    print("|---|" + "---|" * len(grid_workers))
    for comms in (14, 12, 10, 8, 6, 4):
        print("| %d | %s |" % (comms, " | ".join(
            "%.3f" % run(w, comms) for w in grid_workers)))

    print("\nThe curve configure=auto searches (the master's %d cores: "
          "communicators + workers x %d threads):\n" % (cores, threads))
    print("| communicators | workers | simulated makespan (s) |")
    print("|---|---|---|")
    curve = []
    for comms in range(1, 17):
        workers = (cores - comms) // threads
        t = run(workers, comms)
        curve.append((t, comms, workers))
        print("| %d | %d | %.3f |" % (comms, workers, t))
    best = min(curve)
    auto, out = predicted(opts.cmmc, root,
                          os.path.join(root, "models", "c5-table9.json"),
                          ["--configure=auto"])
    chosen = re.search(r"chosen configuration: (.*)", out).group(1)
    print("\nminimum: %d communicators, %d workers: %.3f s" %
          (best[1], best[2], best[0]))
    print("configure=auto: %.3f s; chosen configuration: %s" % (auto, chosen))
    if opts.check:
        inside = 1 < best[1] < 16
        picked = ("node 0 on: %d workers" % best[2]) in chosen and \
            ("+ %d communicators" % best[1]) in chosen.split(";")[0]
        print("check: minimum inside 1..16: %s; configure=auto picks it: %s"
              % (inside, picked))
        if not (inside and picked):
            sys.exit(1)


if __name__ == "__main__":
    main()
