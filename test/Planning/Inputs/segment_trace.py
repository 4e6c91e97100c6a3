"""Checks a --plan-trace of a segmented program against --emit=plan's
report: as many complete events as the chosen plans' tasks plus two per
transfer, every task named by its segment, and each segment's events after
the previous segment's (the segments drawn once, in program order).
usage: segment_trace.py TRACE REPORT"""
import json
import re
import sys

trace = json.load(open(sys.argv[1]))
report = open(sys.argv[2]).read()
chosen = re.findall(r"(\d+) tasks, predicted .* (\d+) transfers, .*<- chosen",
                    report)
print("segments", len(chosen))
events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
expected = sum(int(t) + 2 * int(x) for t, x in chosen)
print("events", len(events), "expected", expected)
tasks = [e for e in events if e["cat"] not in ("send", "recv")]
segment = [int(re.match(r"seg(\d+) ", e["name"]).group(1)) for e in tasks]
ends = {}
for s, e in zip(segment, tasks):
    ends[s] = max(ends.get(s, 0), e["ts"] + e["dur"])
ordered = all(e["ts"] >= ends.get(s - 1, 0) - 1e-6
              for s, e in zip(segment, tasks))
print("in program order" if ordered and sorted(set(segment)) == list(
    range(len(chosen))) else "out of order")
