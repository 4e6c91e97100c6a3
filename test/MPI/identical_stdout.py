"""The stdout of every program of examples/, at its default size, is byte
for byte the same from the reference interpreter (`cmmc --interpret`) and
from the compiled program on two ranks (`cmmc --run -np 2`): the same
lines, labels, shapes and printed digits, in the same order (issue 18:
prints stream in program order; docs/runtime.md).
usage: identical_stdout.py CMMC EXAMPLES WORKDIR
"""

import difflib
import glob
import os
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def stdout_of(cmd, work, what):
    p = subprocess.run(cmd, cwd=work, capture_output=True, env=ENV,
                       timeout=300)
    if p.returncode != 0:
        sys.exit("FAILED (exit %d): %s: %s\n%s" % (
            p.returncode, what, " ".join(cmd), p.stderr.decode(errors="replace")))
    return p.stdout


def main():
    cmmc, examples, work = sys.argv[1], os.path.abspath(sys.argv[2]), \
        os.path.abspath(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    # Programs name their data relative to the repository root.
    link = os.path.join(work, "examples")
    if not os.path.exists(link):
        os.symlink(examples, link)
    programs = sorted(glob.glob(os.path.join(examples, "*.cmm")))
    assert programs, "no programs in " + examples
    failed = []
    for prog in programs:
        name = os.path.basename(prog)
        interpreted = stdout_of([cmmc, prog, "--interpret"], work,
                                name + " interpreted")
        compiled = stdout_of([cmmc, prog, "--run", "-np", "2"], work,
                             name + " on 2 ranks")
        if interpreted == compiled and interpreted:
            print("ok %s: %d line(s), %d bytes" % (
                name, interpreted.count(b"\n"), len(interpreted)))
            continue
        failed.append(name)
        print("FAILED %s: stdout differs (--- interpreter, +++ 2 ranks)" % name)
        sys.stdout.writelines(difflib.unified_diff(
            interpreted.decode(errors="replace").splitlines(True),
            compiled.decode(errors="replace").splitlines(True),
            "interpreter", "2 ranks"))
    if failed:
        sys.exit("FAILED: %d of %d programs: %s" % (len(failed), len(programs),
                                                    ", ".join(failed)))


if __name__ == "__main__":
    main()
