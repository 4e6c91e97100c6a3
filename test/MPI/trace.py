"""CMM_TRACE writes the measured schedule as Chrome trace events: valid
JSON, one process per rank, one complete event per task run (as many as
--stats counts), sends and receives on communicator threads, events within
the measured makespan.
usage: trace.py CMMC EXAMPLES_DIR WORKDIR
"""

import json
import os
import re
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def main():
    cmmc, examples, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "markov")
    subprocess.run([cmmc, os.path.join(examples, "markov.cmm"), "-D", "n=300",
                    "--O0", "--nodes=2", "--tile-sizes=100", "-o", exe],
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
    events = json.load(open(trace))["traceEvents"]
    by = lambda cat: [e for e in events if e["cat"] == cat]
    assert {e["pid"] for e in events} == {0, 1}, "one process per rank"
    assert len(by("task")) == tasks, (len(by("task")), tasks)
    assert len(by("send")) == transfers and len(by("recv")) == transfers, \
        (len(by("send")), len(by("recv")), transfers)
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in events)
    assert all(e["tid"] >= 1000 for e in by("send") + by("recv")), \
        "transfers on communicator threads"
    end = max(e["ts"] + e["dur"] for e in events) / 1e6
    assert end <= seconds * 1.05 + 0.01, (end, seconds)
    print("ok: %d task events, %d sends, %d receives, last ends at %.4f s "
          "(measured %.4f s)" % (len(by("task")), len(by("send")),
                                 len(by("recv")), end, seconds))


if __name__ == "__main__":
    main()
