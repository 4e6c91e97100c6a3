"""Compiles one program of examples/ at its test size with cmmc and runs it
under mpirun on NP ranks against the reference interpreter.

One rank (started directly at the default level, under mpirun at --O0)
runs one tile per matrix and about a third of it (ragged edges). Several
ranks run about half and a third on two busy ranks without a master
alone (Inputs/two-busy-ranks.json, whose plans use every rank), one tile
per matrix on the built-in model (whose plans may leave ranks idle) and
with dynamic tiling forced (sub-tiles merged). Every rank
count also runs every product forced to be a COSMA distributed product;
several ranks also with the c5 model's three workers per node and with a
slow master (gangs of some nodes). Four ranks run what their partition
changes: the smallest tiles, the built-in model, dynamic tiling and the
COSMA gangs. --O0 runs the smallest tiles and, on several ranks, the last
COSMA configuration. Every printed matrix (--dump-prints) and every saved file
must equal the reference interpreter's at the same level within a relative
Frobenius error of 1e-10, the printed lines must carry the same labels and
shapes, and on several ranks some run must move tiles between ranks. A
program with a `# stats: REGEX` line needs some run's --stats to match it.
usage: run_compiled.py CMMC PROGRAM NP WORKDIR
"""

import glob
import os
import re
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Oracle"))
import cmm_examples  # noqa: E402

TOLERANCE = 1e-10
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")



def check_class_table(stderr, where):
    """--stats' table by cost class accounts for every task and transfer
    the summary line counts, each row with its predicted and measured time."""
    summary = re.search(r"(\d+) tasks, (\d+) transfers", stderr)
    rows = re.findall(r"^  (\w+) +(\d+) +([\d.e+-]+) +([\d.e+-]+) ", stderr,
                      re.M)
    assert summary and rows, "%s: no --stats table by class in\n%s" % (
        where, stderr)
    tasks = sum(int(n) for name, n, _, _ in rows if name != "transfers")
    sends = sum(int(n) for name, n, _, _ in rows if name == "transfers")
    assert tasks == int(summary.group(1)), "%s: %d tasks by class, %s in all" % (
        where, tasks, summary.group(1))
    assert sends == int(summary.group(2)), \
        "%s: %d transfers by class, %s in all" % (where, sends,
                                                  summary.group(2))
    for name, n, predicted, measured in rows:
        assert float(measured) >= 0 and float(predicted) >= 0, (where, name)

def check_communicator_priority(stderr, transfers, priority, where):
    """With transfers, --stats says how many communicator threads ran and
    how many at real-time priority: with --comm-priority=realtime all of
    them as root on Linux (which may always raise a thread to SCHED_FIFO),
    at the default normal priority none."""
    m = re.search(r"(\d+) of (\d+) communicator thread\(s\) at real-time",
                  stderr)
    if transfers == 0:
        return
    assert m, "%s: no communicator line in --stats:\n%s" % (where, stderr)
    realtime, started = int(m.group(1)), int(m.group(2))
    assert started > 0, where
    if priority == "normal":
        assert realtime == 0, "%s: %d real-time communicators at the " \
            "default normal priority" % (where, realtime)
    elif os.geteuid() == 0 and sys.platform.startswith("linux"):
        assert realtime == started, "%s: as root only %d of %d communicator " \
            "threads real-time" % (where, realtime, started)


def check_cpu_seconds(stderr, transfers, where):
    """--stats gives the CPU seconds of the worker threads, the communicator
    threads and the whole processes: threads are part of their process, and
    with no transfer no communicator thread is started."""
    m = re.search(r"CPU seconds over all ranks: worker threads ([0-9.e+-]+), "
                  r"communicator threads ([0-9.e+-]+), whole processes "
                  r"([0-9.e+-]+)", stderr)
    assert m, "%s: no CPU line in --stats:\n%s" % (where, stderr)
    workers, comms, process = (float(g) for g in m.groups())
    assert workers >= 0 and comms >= 0, (where, workers, comms)
    # Thread CPU time may be sampled at the timer tick, and a short run's
    # workers may wait on a machine busy with other tests (CI saw 0 worker
    # seconds in a 0.05 s run), so only a run of a quarter second or more
    # must show its workers' time.
    run = re.search(r"measured ([0-9.e+-]+) s", stderr)
    if run and float(run.group(1)) >= 0.25:
        assert workers > 0, "%s: no worker CPU in a %s s run" % (
            where, run.group(1))
    assert workers + comms <= process * 1.01 + 1e-3, \
        "%s: threads used more CPU than their processes: %s" % (where,
                                                                m.group(0))
    if transfers == 0:
        assert comms == 0, "%s: communicator CPU without transfers" % where


def run(cmd, cwd, timeout=600):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV,
                       timeout=timeout)
    if p.returncode != 0:
        sys.exit("FAILED (exit %d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                                  p.stdout, p.stderr))
    return p.stdout


def dumps(directory):
    return [np.load(f) for f in
            sorted(glob.glob(os.path.join(directory, "print*.npy")),
                   key=lambda f: int(re.search(r"print(\d+)", f).group(1)))]


def shape_of(line):
    """The label and shape of a print line (numbers may differ in the last
    digit: tiles sum in another order)."""
    m = re.match(r"^(.*) (\d+x\d+) sum=", line)
    return (m.group(1), m.group(2)) if m else (line.split(" = ")[0], "scalar")


def compare(x, y, where):
    assert x.shape == y.shape, "%s: shape %s vs %s" % (where, x.shape, y.shape)
    assert np.array_equal(np.isnan(x), np.isnan(y)), "%s: NaNs differ" % where
    finite = np.isfinite(x) & np.isfinite(y)
    assert np.array_equal(np.where(finite, 0, np.nan_to_num(x)),
                          np.where(finite, 0, np.nan_to_num(y))), \
        "%s: infinities differ" % where
    xf, yf = np.where(finite, x, 0), np.where(finite, y, 0)
    denom = np.linalg.norm(yf)
    err = np.linalg.norm(xf - yf) / (denom if denom else 1.0)
    assert err <= TOLERANCE, "%s: relative Frobenius error %.3g > %g" % (
        where, err, TOLERANCE)


def take_saved(work):
    """The files the program saved in its working directory (then removed)."""
    saved = {}
    for f in glob.glob(os.path.join(work, "*.npy")):
        saved[os.path.basename(f)] = np.load(f)
        os.remove(f)
    return saved


def largest_dimension(cmmc, prog, flags, work):
    ir = run([cmmc, prog, "--emit=mlir"] + flags, work)
    dims = [int(d) for d in re.findall(r"tensor<(\d+)x", ir)]
    dims += [int(d) for d in re.findall(r"tensor<\d+x(\d+)x", ir)]
    return max(dims + [1])


def main():
    cmmc, prog, ranks, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        sys.argv[4]
    examples = os.path.dirname(prog)
    name = os.path.splitext(os.path.basename(prog))[0]
    work = os.path.join(work, "%s-np%d" % (name, ranks))
    shutil.rmtree(work, ignore_errors=True)
    flags = dict((os.path.abspath(p), f) for p, f in
                 cmm_examples.programs(examples, work))[os.path.abspath(prog)]
    largest = largest_dimension(cmmc, prog, flags, work)
    tiles = sorted({largest, max(1, (largest + 1) // 2),
                    max(1, (largest + 2) // 3)}, reverse=True)
    # One rank: one tile per matrix and the ragged third (CI time: the half
    # adds no code path the two cover; several ranks run it).
    configs = [(t, []) for t in tiles if ranks > 1 or t != tiles[1]
               or len(tiles) < 3]
    if ranks > 1:
        # The built-in model's ranks share this machine, and a plan that
        # leaves all but the master idle is often the fastest there
        # (MachineModel::masterAlone); on two busy ranks of about this
        # machine's speed without a master alone, plans spread the tiles.
        shared = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "Inputs", "two-busy-ranks.json")
        # One tile per matrix runs on the built-in model (next); the shared
        # model runs the smaller tiles, whose plans spread over both ranks.
        configs = [(t, ["--machine-model=" + shared]) for t in tiles
                   if t != largest or len(tiles) == 1]
        configs.append((largest, []))
        configs.append((largest, ["--dynamic-tiling=always",
                                  "--machine-model=" + shared]))
    # Every product as a COSMA gang task on all ranks (docs/cosma.md); on several
    # ranks also with the c5 model's three workers per node, so other
    # workers run beside the gang.
    configs.append((tiles[-1], ["--gemm=cosma"]))
    if ranks > 1:
        root = os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        c5 = os.path.join(root, "models", "c5.9xlarge.json")
        configs.append((tiles[-1], ["--gemm=cosma", "--machine-model=" + c5]))
        # A master 10x slower at products on fast links: gangs of some
        # nodes (the workers, or one of them; mm and regression at 4 ranks
        # run {1, 2, 3} and {1} in one program), each its own communicator.
        slow = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "Inputs", "slow-master.json")
        configs.append((tiles[-1], ["--gemm=cosma", "--machine-model=" + slow]))
    if ranks > 2:
        # Four ranks run what their partition changes (CI time: the tile
        # sweep's ragged edges and c5's workers are the same on two): the
        # smallest tiles, the built-in model, dynamic tiling, a COSMA gang
        # of all ranks and gangs of some (the slow master, last).
        configs = [c for c in configs if "c5" not in "".join(c[1]) and
                   (c[0] == tiles[-1] or c[1] != ["--machine-model=" + shared])]
    with open(prog) as f:
        expected_stats = re.findall(r"^# stats: (.*)$", f.read(), re.M)
    stats_seen = set()
    checked, moved = 0, 0
    # --O0 (no rewrites: more ops, no fusion) runs the configurations that
    # differ most: the smallest tiles (the most tasks and transfers) and
    # COSMA gangs (of some nodes on several ranks); the tile sweep, the
    # built-in model and dynamic tiling run at the default level (CI time:
    # every run is a compile of its own).
    if ranks > 1:
        o0_configs = [(tiles[-1], ["--machine-model=" + shared]), configs[-1]]
    else:
        o0_configs = [(tiles[-1], [])]
    for level in ([], ["--O0"]):
        ref_dir = os.path.join(work, "ref" + "".join(level))
        os.makedirs(ref_dir)
        ref_out = run([cmmc, prog, "--interpret", "--dump-prints=" + ref_dir]
                      + flags + level, work)
        reference = dumps(ref_dir)
        ref_saved = take_saved(work)
        for tile, extra in (o0_configs if level else configs):
            tag = "t%d%s%s" % (tile, "".join(level), "".join(
                re.sub(r"[^a-z0-9]+", "-", os.path.basename(e)).strip("-")
                for e in extra))
            exe = os.path.join(work, name + "-" + tag)
            run([cmmc, prog, "-o", exe, "--nodes=%d" % ranks,
                 "--tile-sizes=%d" % tile] + flags + level + extra, work)
            out_dir = os.path.join(work, "out-" + tag)
            os.makedirs(out_dir)
            # Communicator threads at real-time priority on the default
            # level's runs (--comm-priority=realtime), at the default normal
            # priority on the --O0 runs (cmmrt/ThreadPriority.h), so both
            # and the default are tested.
            priority = "normal" if level else "realtime"
            asked = [] if level else ["--comm-priority=realtime"]
            # One rank starts as the program's --help says, directly (an
            # MPI singleton); at --O0 under mpirun, so both starts run.
            direct = ranks == 1 and not level
            launch = [] if direct else ["mpirun", "-np", str(ranks),
                                        "--bind-to", "none"]
            p = subprocess.run(launch + [exe, "--stats"] + asked +
                               ["--dump-prints=" + out_dir], cwd=work,
                               capture_output=True, text=True, env=ENV,
                               timeout=600)
            where = "%s, %d rank(s), tile %d%s%s" % (
                name, ranks, tile, " --O0" if level else "", " " + " ".join(extra))
            assert p.returncode == 0, "%s: exit %d\n%s" % (where, p.returncode,
                                                         p.stderr)
            out = p.stdout
            stats = re.search(r"(\d+) transfers", p.stderr)
            assert stats, "%s: no --stats line in\n%s" % (where, p.stderr)
            moved += int(stats.group(1))
            stats_seen.update(r for r in expected_stats
                              if re.search(r, p.stderr))
            check_class_table(p.stderr, where)
            check_communicator_priority(p.stderr, int(stats.group(1)),
                                        priority, where)
            check_cpu_seconds(p.stderr, int(stats.group(1)), where)
            got = dumps(out_dir)
            assert [shape_of(l) for l in out.splitlines()] == \
                [shape_of(l) for l in ref_out.splitlines()], \
                "%s: printed lines differ:\n%s\nvs interpreter:\n%s" % (
                    where, out, ref_out)
            assert len(got) == len(reference), "%s: %d prints, expected %d" % (
                where, len(got), len(reference))
            for i, (x, y) in enumerate(zip(got, reference)):
                compare(x, y, "%s: print %d" % (where, i))
                checked += 1
            saved = take_saved(work)
            assert sorted(saved) == sorted(ref_saved), \
                "%s: saved %s, the interpreter %s" % (where, sorted(saved),
                                                     sorted(ref_saved))
            for f in saved:
                compare(saved[f], ref_saved[f], "%s: saved %s" % (where, f))
                checked += 1
    for r in expected_stats:
        assert r in stats_seen, "%s on %d ranks: no run's --stats matched " \
            "'%s'" % (name, ranks, r)
    assert ranks == 1 or moved > 0, "%s on %d ranks never moved a tile" % (
        name, ranks)
    print("ok %s on %d rank(s): tiles %s, both levels, %d matrices checked, "
          "%d transfers" % (name, ranks, sorted({t for t, _ in configs},
                                               reverse=True), checked, moved))


if __name__ == "__main__":
    main()
