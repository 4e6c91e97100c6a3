#!/usr/bin/env python3
"""The paper's network experiments on the emulated cluster (issue 16, item 4).

Run on a cluster brought up by bench/cluster/cmm-cluster (2 hosts), with a
machine model cmm-profile measured on it at the current link rate. For each
program (Markov at --O0, MM, Montage, K-Means, at sizes where a run takes
seconds):

  a  the planner's chosen plan: predicted against measured makespan
     (the paper's Table 4);
  b  every candidate tile size of the sweep, compiled alone
     (--tile-sizes=T): its prediction and its measured makespan, and
     whether the chosen tile is within 10 % of the best measured (Table 5);
  c  dynamic tiling off against always (Table 6), at the chosen tile and
     at the largest (one tile per matrix, fewer than the workers: where
     the paper's start-up sub-tiles apply);
  d  the tile cache on against off (--tile-cache=false), at the chosen tile
     and at the candidate whose spread plan reuses the most tiles;
  e  (--items=e) COSMA against tiled products (--gemm=cosma / --gemm=tiled)
     on the square and the largeK shapes, with the bytes each rank sends
     counted by the PMPI library (bench/pmpi/count_bytes.c).

Each run is `mpirun -np 2 --hostfile $CMM_CLUSTER_HOSTFILE --map-by
ppr:1:node --bind-to none PROGRAM --stats` from the per-host launch
directory; the makespan is the one `--stats` measures (the plan's compute,
start-up excluded), the whole process is timed around mpirun. Results are
the median of --repeat runs (items a and b; --repeat-others for c, d, e),
printed as Markdown tables.

usage: eval "$(bench/cluster/cmm-cluster env)"
       bench/cluster/experiments.py --model=cluster.json --label=1gbit
           [--build=build] [--items=a,b,c,d,e] [--only=markov,mm,...]
           [--repeat=3] [--repeat-others=1]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

# name: (program, cmmc arguments); sizes chosen so that one run takes
# 2-20 s on two hosts of one core.
PROGRAMS = {
    "markov": ("examples/markov.cmm", ["--O0", "-D", "n=4000"]),
    "mm": ("examples/mm.cmm", ["-D", "n=4000"]),
    "montage": ("examples/montage.cmm", ["-D", "m=1000"]),
    "kmeans": ("examples/kmeans.cmm", ["-D", "m=400000"]),
}

# Item e: one product C = A * B of each shape (COSMA paper, section 8).
SHAPES = {
    "square": (4000, 4000, 4000),
    "largeK": (1000, 1000, 32000),
}

STATS = re.compile(r"tile size (\d+), predicted makespan ([\d.e+-]+) s, "
                   r"measured ([\d.e+-]+) s; (\d+) tasks, (\d+) transfers, "
                   r"([\d.e+-]+) MB moved")
CANDIDATE = re.compile(r"^  tile +(\d+):", re.M)
CHOSEN = re.compile(r"chosen tile size: (\d+)")
HITS = re.compile(r"^  tile +(\d+): .* (\d+) cache hits", re.M)
SENT = re.compile(r"rank (\d+) sent (\d+) bytes")


class Runner:
    def __init__(self, opts):
        self.opts = opts
        self.cmmc = os.path.abspath(os.path.join(opts.build, "bin", "cmmc"))
        self.root = os.path.abspath(opts.root)
        self.bindir = os.path.abspath(opts.bindir)
        os.makedirs(self.bindir, exist_ok=True)
        self.hostfile = os.environ.get("CMM_CLUSTER_HOSTFILE")
        self.work = os.environ.get("CMM_CLUSTER_WORK")
        if not self.hostfile or not self.work:
            sys.exit("experiments.py: run eval \"$(bench/cluster/cmm-cluster "
                     "env)\" first (CMM_CLUSTER_HOSTFILE is not set)")
        # load() paths are relative to the repository root.
        examples = os.path.join(self.work, "examples")
        if not os.path.exists(examples):
            os.symlink(os.path.join(self.root, "examples"), examples)

    def cmmc_run(self, prog, extra):
        """cmmc on `prog` for the cluster's 2 nodes and model."""
        args = [self.cmmc, os.path.join(self.root, prog), "--nodes=2",
                "--machine-model=" + os.path.abspath(self.opts.model)] + extra
        return subprocess.run(args, check=True, capture_output=True,
                              text=True, cwd=self.root).stdout

    def compile(self, prog, extra, name):
        exe = os.path.join(self.bindir, name)
        self.cmmc_run(prog, ["-o", exe] + extra)
        return exe

    def plan(self, prog, extra):
        return self.cmmc_run(prog, ["--emit=plan"] + extra)

    def run(self, exe, count_bytes=False, repeat=None):
        """Median over `repeat` runs (default --repeat): (tile, predicted,
        measured, wall, transfers, MB moved, bytes sent per rank or None)."""
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        launch = ["mpirun", "-np", "2", "--hostfile", self.hostfile,
                  "--map-by", "ppr:1:node", "--bind-to", "none"]
        counts = os.path.join(self.bindir, "pmpi-counts.txt")
        if count_bytes:
            env["LD_PRELOAD"] = os.path.abspath(
                os.path.join(self.opts.build, "lib", "libcmm_count_bytes.so"))
            env["CMM_PMPI_OUT"] = counts
            launch += ["-x", "LD_PRELOAD", "-x", "CMM_PMPI_OUT"]
        samples = []
        for _ in range(repeat or self.opts.repeat):
            if os.path.exists(counts):
                os.remove(counts)
            start = time.monotonic()
            r = subprocess.run(launch + [exe, "--stats"], capture_output=True,
                               text=True, env=env, cwd=self.work)
            wall = time.monotonic() - start
            m = STATS.search(r.stderr + r.stdout)
            if r.returncode != 0 or not m:
                raise RuntimeError("%s failed (%d):\n%s" %
                                   (exe, r.returncode, r.stderr[-2000:]))
            sent = None
            if count_bytes:
                sent = sorted((int(a), int(b)) for a, b in
                              SENT.findall(open(counts).read()))
            samples.append((int(m.group(1)), float(m.group(2)),
                            float(m.group(3)), wall, int(m.group(5)),
                            float(m.group(6)), sent))
        measured = statistics.median(s[2] for s in samples)
        pick = min(samples, key=lambda s: abs(s[2] - measured))
        return pick[:2] + (measured, statistics.median(s[3] for s in samples)
                           ) + pick[4:]


def ratio_row(label, r):
    tile, predicted, measured, wall, transfers, mb, _ = r
    return "| %s | %d | %.3f | %.3f | %.2f | %.2f | %d | %.1f |" % (
        label, tile, predicted, measured, measured / predicted, wall,
        transfers, mb)


RATIO_HEAD = ("| run | tile | predicted s | measured s | measured / predicted "
              "| whole process s | transfers | MB moved |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- |")


def programs_items(runner, opts, items):
    for name in opts.only:
        prog, args = PROGRAMS[name]
        sweep = runner.plan(prog, args)
        chosen = int(CHOSEN.search(sweep).group(1))
        tiles = sorted(set(int(t) for t in CANDIDATE.findall(sweep)))
        print("\n### %s (%s %s), %s\n" % (name, prog, " ".join(args),
                                          opts.label), flush=True)
        if "a" in items:
            print("(a) the chosen plan\n\n" + RATIO_HEAD)
            r = runner.run(runner.compile(prog, args, name))
            print(ratio_row("chosen", r), flush=True)
        if "b" in items:
            print("\n(b) every candidate tile size (chosen: %d)\n" % chosen)
            print(RATIO_HEAD)
            measured = {}
            for t in tiles:
                r = runner.run(runner.compile(
                    prog, args + ["--tile-sizes=%d" % t], "%s-%d" % (name, t)))
                measured[t] = r[2]
                print(ratio_row("tile %d%s" % (t, " (chosen)" if t == chosen
                                               else ""), r), flush=True)
            best = min(measured, key=measured.get)
            print("\nbest measured: tile %d (%.3f s); chosen %d measured "
                  "%.3f s: %.1f %% above the best" % (
                      best, measured[best], chosen, measured[chosen],
                      100.0 * (measured[chosen] / measured[best] - 1)),
                  flush=True)
        others = opts.repeat_others
        if "c" in items:
            print("\n(c) dynamic tiling\n\n" + RATIO_HEAD)
            for t in sorted({chosen, tiles[-1]}):
                for mode in ("off", "always"):
                    r = runner.run(runner.compile(
                        prog, args + ["--tile-sizes=%d" % t,
                                      "--dynamic-tiling=" + mode],
                        "%s-dyn-%s" % (name, mode)), repeat=others)
                    print(ratio_row("dynamic tiling %s" % mode, r), flush=True)
        if "d" in items:
            # The candidate whose plan reuses the most tiles (spread plans
            # only: the master alone has nothing to reuse).
            hits = {}
            for t, h in HITS.findall(sweep):
                hits[int(t)] = max(hits.get(int(t), 0), int(h))
            most = max(hits, key=hits.get) if hits else chosen
            print("\n(d) tile cache (most reuse in the sweep: tile %d, %d "
                  "cache hits)\n\n%s" % (most, hits.get(most, 0), RATIO_HEAD))
            for t in sorted({chosen, most}):
                for on in ("true", "false"):
                    r = runner.run(runner.compile(
                        prog, args + ["--tile-sizes=%d" % t,
                                      "--tile-cache=" + on],
                        "%s-cache-%s" % (name, on)), repeat=others)
                    print(ratio_row("tile cache " + ("on" if on == "true"
                                                     else "off"), r),
                          flush=True)


def cosma_item(runner, opts):
    print("\n### (e) COSMA against tiled products, %s\n" % opts.label)
    print("| shape | m x n x k | products | tile | predicted s | measured s "
          "| measured / predicted | whole process s | bytes sent rank 0, 1 "
          "(PMPI) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for shape, (m, n, k) in SHAPES.items():
        src = os.path.join(runner.bindir, "%s.cmm" % shape)
        with open(src, "w") as f:
            f.write("A = rand(%d, %d)\nB = rand(%d, %d)\nC = A * B\n"
                    "print(sum(C))\n" % (m, k, k, n))
        for gemm in ("tiled", "cosma"):
            # --O0: the rewrites would turn sum(A * B) into products with
            # a vector of ones.
            r = runner.run(runner.compile(src, ["--O0", "--gemm=" + gemm],
                                          "%s-%s" % (shape, gemm)),
                           count_bytes=True, repeat=opts.repeat_others)
            tile, predicted, measured, wall, _, _, sent = r
            print("| %s | %d x %d x %d | %s | %d | %.3f | %.3f | %.2f | %.2f "
                  "| %s |" % (shape, m, n, k, gemm, tile, predicted, measured,
                              measured / predicted, wall,
                              ", ".join("%.1f MB" % (b / 1e6)
                                        for _, b in sent)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--build", default="build")
    ap.add_argument("--root", default=".")
    ap.add_argument("--bindir", default="/tmp/cmm-experiments")
    ap.add_argument("--items", default="a,b,c,d,e")
    ap.add_argument("--only", default=",".join(PROGRAMS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--repeat-others", type=int, default=1)
    opts = ap.parse_args()
    opts.only = [p for p in opts.only.split(",") if p]
    for p in opts.only:
        if p not in PROGRAMS:
            sys.exit("experiments.py: unknown program '%s' (%s)" %
                     (p, ", ".join(PROGRAMS)))
    items = set(opts.items.split(","))
    runner = Runner(opts)
    if items & set("abcd"):
        programs_items(runner, opts, items)
    if "e" in items:
        cosma_item(runner, opts)


if __name__ == "__main__":
    main()
