"""The stdout of every program of examples/, at its default size, is byte
for byte the same from the reference interpreter (`cmmc --interpret`) and
from the compiled program on two ranks (`cmmc --run -np 2`): the same
lines, labels, shapes and printed digits, in the same order (issue 18:
prints stream in program order; docs/runtime.md).

One exception, for a printed sum that is rounding noise: a matrix whose
entries cancel (montage's mean-subtracted mosaics: sum about 1e-11 at a
norm of 193) prints a sum made of the last bits of its entries, and a
plan that splits a product's inner dimension into tiles rounds those bits
differently from the interpreter's one dgemm. Two lines that differ only
in `sum=` pass when the two sums are within 1e-14 sqrt(count) norm of each
other (|sum| <= sqrt(count) norm, so this is 1e-14 of the largest sum the
printed norm allows; the mosaics differ by 2e-13 against a bound of 4e-9).
usage: identical_stdout.py CMMC EXAMPLES WORKDIR
"""

import difflib
import glob
import math
import os
import re
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


SUMMARY = re.compile(
    rb"^(?P<head>.* (?P<rows>\d+)x(?P<cols>\d+) )sum=(?P<sum>\S+)"
    rb"(?P<tail> norm=(?P<norm>\S+) .*)$")


def same_but_for_noise(a, b):
    """Lines equal but for `sum=` fields within rounding noise (above)."""
    la, lb = a.splitlines(), b.splitlines()
    if len(la) != len(lb):
        return False
    for x, y in zip(la, lb):
        if x == y:
            continue
        mx, my = SUMMARY.match(x), SUMMARY.match(y)
        if not (mx and my and mx["head"] == my["head"] and
                mx["tail"] == my["tail"]):
            return False
        count = int(mx["rows"]) * int(mx["cols"])
        bound = 1e-14 * math.sqrt(count) * float(mx["norm"])
        if abs(float(mx["sum"]) - float(my["sum"])) > bound:
            return False
    return True


def check_noise_rule():
    """The exception above passes noise and nothing else."""
    line = (b"mosaic 2000x2000 sum=%s norm=%s [-0.267185 -0.135184 ...]\n")
    interpreted = line % (b"1.4083e-11", b"193.438")
    assert same_but_for_noise(interpreted, line % (b"1.41824e-11", b"193.438"))
    assert not same_but_for_noise(interpreted,
                                  line % (b"1.41824e-05", b"193.438"))
    assert not same_but_for_noise(interpreted,
                                  line % (b"1.41824e-11", b"193.439"))
    assert not same_but_for_noise(interpreted, interpreted + b"x\n")


def main():
    check_noise_rule()
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
        if interpreted and same_but_for_noise(interpreted, compiled):
            print("ok %s: %d line(s), sums within rounding noise" % (
                name, interpreted.count(b"\n")))
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
