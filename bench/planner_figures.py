#!/usr/bin/env python3
"""Planner figures for docs/planner.md.

For every program in examples/ at its default size and node counts 1, 2, 4,
8, plans with the built-in model and with models/c5.9xlarge.json, and reports
per candidate tile size: tasks per worker, the predicted makespan, the
zero-communication makespan and the lower bound max(critical path, work /
workers), with the ratios the issue asks for.
usage: bench/planner_figures.py [BUILD_DIR]   (run from the repository root)
"""

import glob
import os
import re
import subprocess
import sys

LINE = re.compile(r"tile +(\d+): +(\d+) tasks, predicted +([\d.e+-]+) s, "
                  r"lower bound +([\d.e+-]+) s .*zero-comm +([\d.e+-]+) s")
HEAD = re.compile(r"(\d+) node\(s\), (\d+) worker\(s\)")


def plan(cmmc, prog, model, nodes):
    args = [cmmc, prog, "--emit=plan", "--nodes=%d" % nodes]
    if model:
        args.append("--machine-model=" + model)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    workers = int(HEAD.search(out).group(2))
    ms = re.search(r"planning took ([\d.]+) ms", out)
    rows = [tuple(float(x) for x in m.groups()) for m in LINE.finditer(out)]
    return workers, rows, float(ms.group(1)), out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    cmmc = os.path.join(build, "bin", "cmmc")
    worst_free = 0.0
    print("| example | model | nodes | tile | tasks/worker | predicted s | zero-comm s | lower bound s | zero-comm / bound | predicted / bound | planning ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for prog in sorted(glob.glob("examples/*.cmm")):
        for model, label in ((None, "built-in"), ("models/c5.9xlarge.json", "c5.9xlarge")):
            for nodes in (1, 2, 4, 8):
                workers, rows, ms, _ = plan(cmmc, prog, model, nodes)
                for tile, tasks, pred, bound, free in rows:
                    per = tasks / workers
                    rf, rp = free / bound, pred / bound
                    if per >= 8:
                        worst_free = max(worst_free, rf)
                    print("| %s | %s | %d | %d | %.1f | %.4g | %.4g | %.4g | %.3f%s | %.3f | %.1f |" % (
                        os.path.basename(prog), label, nodes, tile, per, pred, free,
                        bound, rf, "" if per >= 8 else " (n/a: < 8 tasks/worker)",
                        rp, ms))
    print()
    print("worst zero-comm / lower bound with >= 8 tasks per worker: %.3f" % worst_free)


if __name__ == "__main__":
    main()
