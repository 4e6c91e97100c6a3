#!/usr/bin/env python3
"""Profiling time against prediction accuracy (Critter's trade-off).

For each sampling tolerance, profile this machine with cmm-profile (every
kernel signature repeated until the confidence interval of its mean is
within the tolerance, or a cap), then run bench/model_accuracy.py with that
model: the time spent measuring against what it buys, the share of runs
predicted within [0.8, 1.25] and the geometric mean of |log(measured /
predicted)| (Critter, papers/critter-approximate-autotuning.txt, section 6:
execution time against prediction error as the tolerance tightens). The
table is in docs/machine-model.md, "Profiling time and accuracy".

usage: bench/profile_tradeoff.py [--build=DIR] [--tolerances=0.2,0.05,0.01]
           [--ranks=1] [--repeat=3] [--only=markov,...] [--keep=DIR]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

SUMMARY = re.compile(r"counted runs: (\d+); within \[0.8, 1.25\]: (\d+) "
                     r"\((\d+) %\); geometric mean of \|log\(measured / "
                     r"predicted\)\|: log\(([\d.]+)\)")


def profile(build, ranks, tolerance, path):
    """Runs cmm-profile; returns its wall seconds and its provenance."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    begin = time.monotonic()
    subprocess.run(["mpirun", "-np", str(ranks), "--oversubscribe",
                    "--bind-to", "none",
                    os.path.join(build, "bin", "cmm-profile"),
                    "--tolerance=%g" % tolerance, "-o", path],
                   check=True, capture_output=True, env=env)
    wall = time.monotonic() - begin
    return wall, json.load(open(path))["provenance"]


def sampling(provenance):
    """Samples taken and signatures stopped by a cap, over ranks and
    classes."""
    samples = capped = signatures = 0
    for rank in provenance["fits"]:
        for fit in rank["classes"].values():
            samples += fit["samples"]
            capped += fit["capped"]
            signatures += fit["signatures"]
    return samples, capped, signatures


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--tolerances", default="0.2,0.05,0.01")
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", default="",
                    help="directory to keep the models in")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    keep = a.keep or tempfile.mkdtemp(prefix="cmm-tradeoff-")
    os.makedirs(keep, exist_ok=True)
    rows = []
    for tolerance in (float(t) for t in a.tolerances.split(",")):
        path = os.path.join(keep, "model-%g.json" % tolerance)
        wall, prov = profile(a.build, a.ranks, tolerance, path)
        samples, capped, signatures = sampling(prov)
        accuracy = subprocess.run(
            [sys.executable, os.path.join(here, "model_accuracy.py"),
             "--build=" + a.build, "--root=" + os.path.dirname(here),
             "--ranks=%d" % a.ranks, "--repeat=%d" % a.repeat,
             "--model=%d:%s" % (a.ranks, path)]
            + (["--only=" + a.only] if a.only else []),
            check=True, capture_output=True, text=True).stdout
        m = SUMMARY.search(accuracy)
        if not m:
            sys.exit("no summary from model_accuracy.py:\n" + accuracy)
        rows.append((tolerance, wall, prov["seconds"]["compute"], samples,
                     capped, signatures, int(m.group(2)), int(m.group(1)),
                     float(m.group(4))))
        print("tolerance %g: profiled in %.1f s; %s" % (tolerance, wall,
                                                        m.group(0)),
              file=sys.stderr, flush=True)
    print("| tolerance | profile wall s | compute s | samples | capped "
          "signatures | runs within [0.8, 1.25] | geometric mean of "
          "\\|log(measured / predicted)\\| |")
    print("|---|---|---|---|---|---|---|")
    for (tol, wall, compute, samples, capped, signatures, within, counted,
         geo) in rows:
        print("| %g | %.1f | %.1f | %d | %d of %d | %d of %d | log(%.3f) |" %
              (tol, wall, compute, samples, capped, signatures, within,
               counted, geo))
    print("\n(models kept in %s)" % keep)


if __name__ == "__main__":
    sys.exit(main())
