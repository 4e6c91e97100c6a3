"""CMM_TRACE writes the measured schedule as Chrome trace events: valid
JSON, one process per rank, one complete event per task run (as many as
--stats counts), sends and receives on communicator threads, events within
the measured makespan; processes and threads numbered and named as in the
plan's predicted trace (--plan-trace), so both load side by side. A
program with a run-time loop writes one trace over all its plan runs:
every task of every run, each event with its segment (and trip in the
loop), a rank's later trips after its earlier ones.
usage: trace.py CMMC EXAMPLES_DIR WORKDIR
"""

import json
import os
import re
import subprocess
import sys

# Two busy ranks of about this machine's speed without the built-in model's
# master alone: plans use both ranks (on the built-in model this one may
# run on the master alone).
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs",
                      "two-busy-ranks.json")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def main():
    cmmc, examples, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "markov")
    subprocess.run([cmmc, os.path.join(examples, "markov.cmm"), "-D", "n=300",
                    "--O0", "--nodes=2", "--machine-model=" + SHARED,
                    "--tile-sizes=100", "-o", exe],
                   check=True)
    trace = os.path.join(work, "run.json")
    env = dict(ENV, CMM_TRACE=trace)
    p = subprocess.run(["mpirun", "-np", "2", "--bind-to", "none", exe,
                        "--stats"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    stats = re.search(r"measured (\S+) s; (\d+) tasks, (\d+) transfers",
                      p.stderr)
    assert stats, p.stderr
    seconds, tasks, transfers = float(stats.group(1)), int(stats.group(2)), \
        int(stats.group(3))
    measured = json.load(open(trace))["traceEvents"]
    events = [e for e in measured if e["ph"] != "M"]
    by = lambda cat: [e for e in events if e["cat"] == cat]
    assert {e["pid"] for e in events} == {1, 2}, "one process per rank"
    # The predicted trace of the same plan names the same rows alike.
    predicted_path = os.path.join(work, "plan.json")
    subprocess.run([cmmc, os.path.join(examples, "markov.cmm"), "-D", "n=300",
                    "--O0", "--nodes=2", "--machine-model=" + SHARED,
                    "--tile-sizes=100", "--emit=plan",
                    "--plan-trace=" + predicted_path], check=True,
                   capture_output=True)
    predicted = json.load(open(predicted_path))["traceEvents"]
    names = lambda evs: {(e["pid"], e["tid"], e["name"], e["args"]["name"])
                         for e in evs if e["ph"] == "M" and
                         e["name"] in ("process_name", "thread_name")}
    rows = names(measured)
    assert rows and rows <= names(predicted), rows - names(predicted)
    thread = {(pid, tid): name for pid, tid, what, name in rows
              if what == "thread_name"}
    assert all(thread[e["pid"], e["tid"]].startswith("worker ")
               for e in by("task")), "tasks on worker threads"
    assert all(thread[e["pid"], e["tid"]].startswith("comm ")
               for e in by("send") + by("recv")), \
        "transfers on communicator threads"
    assert len(by("task")) == tasks, (len(by("task")), tasks)
    assert len(by("send")) == transfers and len(by("recv")) == transfers, \
        (len(by("send")), len(by("recv")), transfers)
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in events)
    end = max(e["ts"] + e["dur"] for e in events) / 1e6
    assert end <= seconds * 1.05 + 0.01, (end, seconds)
    print("ok: %d task events, %d sends, %d receives, last ends at %.4f s "
          "(measured %.4f s)" % (len(by("task")), len(by("send")),
                                 len(by("recv")), end, seconds))
    segmented(cmmc, work)


def segmented(cmmc, work):
    src = os.path.join(work, "loop.cmm")
    with open(src, "w") as f:
        f.write("A = rand(300, 300)\nx = ones(300, 1)\nk = [0]\n"
                "while k < 3\n    x = A * x / 300\n    k = k + 1\nend\n"
                "print(x)\n")
    exe = os.path.join(work, "loop")
    subprocess.run([cmmc, src, "--nodes=2", "--machine-model=" + SHARED,
                    "--tile-sizes=100", "-o", exe], check=True)
    trace = os.path.join(work, "loop.json")
    p = subprocess.run(["mpirun", "-np", "2", "--bind-to", "none", exe,
                        "--stats"], capture_output=True, text=True,
                       env=dict(ENV, CMM_TRACE=trace), timeout=120)
    assert p.returncode == 0, p.stderr
    stats = re.search(r"(\d+) plan\(s\) run (\d+) time\(s\).*?; (\d+) tasks",
                      p.stderr)
    assert stats, p.stderr
    plans, runs, tasks = (int(g) for g in stats.groups())
    assert (plans, runs) == (3, 5), (plans, runs)
    events = [e for e in json.load(open(trace))["traceEvents"]
              if e["ph"] != "M"]
    assert len([e for e in events if e["cat"] == "task"]) == tasks
    assert {e["args"]["segment"] for e in events} == set(range(plans))
    trips = sorted({e["args"]["trip"] for e in events if "trip" in e["args"]})
    assert trips == ["1", "2", "3"], trips
    for pid in {e["pid"] for e in events}:
        mine = [e for e in events if e["pid"] == pid]
        span = {t: (min(e["ts"] for e in mine if e["args"].get("trip") == t),
                    max(e["ts"] + e["dur"] for e in mine
                        if e["args"].get("trip") == t)) for t in trips}
        assert span["1"][1] <= span["2"][0] and \
            span["2"][1] <= span["3"][0], (pid, span)
    print("ok: one trace of %d plan runs, %d task events, trips %s" %
          (runs, tasks, ", ".join(trips)))


if __name__ == "__main__":
    main()
