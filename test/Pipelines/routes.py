"""The compiler's routes give one plan: for every program of examples/ at its
test size (its `# test:` line) on 1, 2 and 4 nodes of a machine model, the
scheduled IR and the generated C++ of

  cmmc prog.cmm --emit=graph / --emit=cpp
  cmmc prog.cmm --emit=mlir | cmm-opt --pass-pipeline=
      'builtin.module(cmm-default-pipeline{...})' | cmm-translate --cmm-to-cpp

must be identical byte for byte (both carry source locations,
--mlir-print-debuginfo, so generated programs point at the .cmm file).
usage: routes.py EXAMPLES_DIR [MODEL.json] [--nodes=1,2,4]
"""

import glob
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run(cmd, stdin=None):
    # From the repository root: examples name their inputs from there.
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                       cwd=ROOT)
    if p.returncode != 0:
        raise RuntimeError("FAILED (exit %d): %s\n%s" %
                           (p.returncode, " ".join(map(shlex.quote, cmd)),
                            p.stderr))
    return p.stdout


def test_args(program):
    with open(program) as f:
        m = re.search(r"^# test:(.*)$", f.read(), re.M)
    return shlex.split(m.group(1)) if m else []


def check(program, nodes, model):
    defines = test_args(program)
    cmmc_plan = ["--nodes=%d" % nodes]
    options = ["nodes=%d" % nodes]
    if model:
        cmmc_plan.append("--machine-model=" + model)
        options.append("machine-model=" + model)
    debug = ["--mlir-print-debuginfo"]
    graph_a = run(["cmmc", program, *defines, *cmmc_plan, "--emit=graph",
                   *debug])
    cpp_a = run(["cmmc", program, *defines, *cmmc_plan, "--emit=cpp"])
    traced = run(["cmmc", program, *defines, "--emit=mlir", *debug])
    pipeline = "builtin.module(cmm-default-pipeline{%s})" % " ".join(options)
    graph_b = run(["cmm-opt", "--pass-pipeline=" + pipeline, *debug],
                  stdin=traced)
    cpp_b = run(["cmm-translate", "--cmm-to-cpp"], stdin=graph_b)
    where = "%s on %d node(s)%s" % (os.path.basename(program), nodes,
                                    " of " + model if model else "")
    problems = []
    if "cmmtg.graph @main" not in graph_a:
        problems.append(where + ": cmmc --emit=graph has no plan")
    if graph_a != graph_b:
        problems.append(where + ": the scheduled IR differs")
    if cpp_a != cpp_b:
        problems.append(where + ": the generated C++ differs")
    return problems


ROOT = "."


def main():
    global ROOT
    args = [a for a in sys.argv[1:] if not a.startswith("--nodes=")]
    node_counts = [1, 2, 4]
    for a in sys.argv[1:]:
        if a.startswith("--nodes="):
            node_counts = [int(n) for n in a[len("--nodes="):].split(",")]
    examples = os.path.abspath(args[0])
    ROOT = os.path.dirname(examples)
    model = os.path.abspath(args[1]) if len(args) > 1 else ""
    programs = sorted(glob.glob(os.path.join(examples, "*.cmm")))
    jobs = [(p, n) for p in programs for n in node_counts]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda j: check(j[0], j[1], model), jobs))
    problems = [p for r in results for p in r]
    for p in problems:
        print(p)
    print("%d configurations, %d identical" %
          (len(jobs), len(jobs) - sum(1 for r in results if r)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
