"""Runs every program in examples/ at its test size (the `# test:` line holds
its cmmc flags, e.g. `-D n=200`): it must trace, round-trip through cmm-opt
(custom and generic form), run in the reference interpreter twice (--runs)
with the same output, and print well-formed lines. New examples join automatically.
usage: run_examples.py EXAMPLES_DIR WORKDIR [--runs=2]
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Oracle"))
import cmm_examples  # noqa: E402

PRINT_LINE = re.compile(
    r"^.+ \d+x\d+ sum=\S+ norm=\S+ \[[^\]]*\]$|^.+ = \S+$")


def run(cmd, cwd, stdin=None):
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("FAILED: %s\n%s" % (" ".join(cmd), p.stderr))
    return p.stdout


def main():
    examples, work = sys.argv[1], sys.argv[2]
    runs = 2
    for arg in sys.argv[3:]:
        if arg.startswith("--runs="):
            runs = int(arg[len("--runs="):])
    programs = list(cmm_examples.programs(examples, work))
    assert len(programs) >= 4, "expected at least 4 examples"
    for prog, flags in programs:
        ir = run(["cmmc", prog, "--emit=mlir"] + flags, work)
        once = run(["cmm-opt"], work, ir)
        twice = run(["cmm-opt"], work, once)
        assert once == twice, "%s: cmm-opt round trip is not stable" % prog
        generic = run(["cmm-opt", "-mlir-print-op-generic"], work, ir)
        assert run(["cmm-opt"], work, generic) == once, \
            "%s: generic form does not round-trip" % prog
        out1 = run(["cmmc", prog, "--interpret"] + flags, work)
        for _ in range(runs - 1):
            again = run(["cmmc", prog, "--interpret"] + flags, work)
            assert again == out1, "%s: two runs printed differently" % prog
        lines = out1.splitlines()
        assert lines, "%s printed nothing" % prog
        for line in lines:
            assert PRINT_LINE.match(line), "%s: bad print line %r" % (prog, line)
        print("ok %s (%d lines)" % (os.path.basename(prog), len(lines)))


if __name__ == "__main__":
    main()
