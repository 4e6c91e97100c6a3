#!/usr/bin/env python3
"""Planner figures for docs/planner.md.

For every program in examples/ at its default size and node counts 1, 2, 4,
8, plans with the built-in model and with models/c5.9xlarge.json, and reports
per candidate tile size: tasks per worker, the predicted makespan, the
zero-communication makespan, the bound the issue names, max(critical path,
work / workers) ("path/work"), and the planner's lower bound (at least
path/work: it also counts pinned work, node speeds and the work that must
precede each task, Simulator.h), with the ratios the issue asks for. Candidates whose products run
as COSMA gang tasks (docs/cosma.md) are marked and left out of the 1.15x check,
which is about tiles on HEFT: a gang holds every worker, so nothing else
overlaps it.
usage: bench/planner_figures.py [BUILD_DIR] [--summary] [--cmmc=PATH]
           [--root=DIR] [--models=built-in,c5.9xlarge] [--check=RATIO]
           [--min-seconds=S]
       (--summary: one row per example, model and node count, as in
       docs/planner.md; --root: the repository (default: the current
       directory); --check: exit 1 when a configuration's zero-comm /
       lower-bound ratio, over its candidates with >= 8 tasks per worker
       and without COSMA gangs, exceeds RATIO; --min-seconds: candidates
       whose zero-comm makespan is below S are not checked (plans of a few
       microseconds, where a scheduler's greedy choices cost nanoseconds
       and a process starts in milliseconds); the lit test
       test/Planning/bound-ratio.test runs it on the built-in model)
"""

import argparse
import glob
import os
import re
import subprocess
import sys

LINE = re.compile(r"tile +(\d+): +(\d+) tasks, predicted +([\d.e+-]+) s, "
                  r"lower bound +([\d.e+-]+) s .*path/work ([\d.e+-]+) s\), "
                  r"zero-comm +([\d.e+-]+) s(.*)")
HEAD = re.compile(r"(\d+) node\(s\), (\d+) worker\(s\)")


def plan(cmmc, prog, model, nodes, root):
    args = [cmmc, prog, "--emit=plan", "--nodes=%d" % nodes]
    if model:
        args.append("--machine-model=" + model)
    # load() paths in the examples are relative to the repository root.
    out = subprocess.run(args, check=True, capture_output=True, text=True,
                         cwd=root).stdout
    workers = int(HEAD.search(out).group(2))
    ms = re.search(r"planning took ([\d.]+) ms", out)
    # The last field: whether the candidate runs products as COSMA gang
    # tasks (their own column; the 1.15x target is about tiles on HEFT).
    rows = [tuple(float(x) for x in m.groups()[:6]) + ("COSMA" in m.group(7),)
            for m in LINE.finditer(out)]
    return workers, rows, float(ms.group(1)), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--cmmc")
    ap.add_argument("--root", default=".")
    ap.add_argument("--models", default="built-in,c5.9xlarge")
    ap.add_argument("--check", type=float)
    ap.add_argument("--min-seconds", type=float, default=0.0)
    ap.add_argument("--exclude", default="",
                    help="examples to leave out, comma-separated")
    opts = ap.parse_args()
    summary = opts.summary
    cmmc = opts.cmmc or os.path.abspath(os.path.join(opts.build, "bin", "cmmc"))
    opts.root = os.path.abspath(opts.root)
    models = [(None if m == "built-in" else
               os.path.join(opts.root, "models", m + ".json"), m)
              for m in opts.models.split(",")]
    # Per configuration (example, model, nodes) with a candidate of >= 8
    # tasks per worker: the worst zero-comm ratio to each bound.
    checked = []
    if summary:
        print("| example | model | nodes | best tile | predicted s | lower bound s | predicted / bound | worst zero-comm / bound (>= 8 tasks/worker) | same, / path/work | planning ms |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    else:
        print("| example | model | nodes | tile | tasks/worker | predicted s | zero-comm s | lower bound s | path/work s | zero-comm / bound | zero-comm / path/work | predicted / bound | planning ms |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for prog in sorted(glob.glob(os.path.join(opts.root, "examples", "*.cmm"))):
        name = os.path.basename(prog)
        if name in opts.exclude.split(","):
            continue
        for model, label in models:
            for nodes in (1, 2, 4, 8):
                workers, rows, ms, out = plan(cmmc, prog, model, nodes,
                                              opts.root)
                # A program with run-time control flow is planned segment by
                # segment (docs/planner.md): no one sweep to report.
                if re.search(r"^segment 0 \(@", out, re.M):
                    continue
                worst = None  # (zero-comm / bound, zero-comm / path/work)
                for tile, tasks, pred, bound, plain, free, cosma in rows:
                    per = tasks / workers
                    rf, rplain, rp = free / bound, free / plain, pred / bound
                    if per >= 8 and not cosma and free >= opts.min_seconds:
                        worst = (max(worst[0], rf), max(worst[1], rplain)) \
                            if worst else (rf, rplain)
                    if not summary:
                        print("| %s | %s | %d | %d%s | %.1f | %.4g | %.4g | %.4g | %.4g | %.3f%s | %.3f | %.3f | %.1f |" % (
                            name, label, nodes, tile, " COSMA" if cosma else "",
                            per, pred, free, bound, plain, rf,
                            " (n/a: COSMA gang tasks)" if cosma else
                            "" if per >= 8 else " (n/a: < 8 tasks/worker)",
                            rplain, rp, ms))
                if worst:
                    checked.append((worst, "%s %s %d nodes" % (name, label, nodes)))
                if summary:
                    tile, tasks, pred, bound, plain, free, cosma = min(
                        rows, key=lambda r: r[2])
                    print("| %s | %s | %d | %d%s | %.4g | %.4g | %.3f | %s | %s | %.1f |" % (
                        name, label, nodes, tile, " COSMA" if cosma else "",
                        pred, bound, pred / bound,
                        "%.3f" % worst[0] if worst else "n/a",
                        "%.3f" % worst[1] if worst else "n/a", ms))
    print()
    for i, what in ((0, "lower bound"), (1, "path/work bound")):
        over = sorted(((w[i], c) for w, c in checked if w[i] > 1.15),
                      reverse=True)
        print("zero-comm within 1.15x of the %s (>= 8 tasks per worker): "
              "%d of %d configurations" % (what, len(checked) - len(over),
                                           len(checked)))
        for ratio, config in over:
            print("  %.3f %s" % (ratio, config))
    if opts.check is not None:
        bad = [(w[0], c) for w, c in checked if w[0] > opts.check]
        print("check: %d of %d configurations over %.3fx of the lower bound"
              % (len(bad), len(checked), opts.check))
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main()
