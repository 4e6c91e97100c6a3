"""Faults end a run cleanly and quickly (docs/reliability.md, the fault
matrix):
- a worker rank killed with SIGKILL mid-run, on 2 and 3 ranks: every other
  rank exits non-zero within 30 s, the launcher's message names the lost
  rank, each surviving rank says who stopped it, and the print completed
  before the kill is on stdout;
- a save into a full file system (a 64 KiB tmpfs; skipped with the reason
  where it cannot be mounted), from the interpreter, a directly started
  program and 2 and 3 ranks: the job fails naming the source line, the task
  and the path, the old file is intact, and no temporary file is left.
usage: faults.py CMMC WORKDIR
"""

import os
import re
import signal
import subprocess
import sys
import time

from rank_processes import rank_pid

BOUND = 30.0  # seconds the issue allows for the others to end
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
HERE = os.path.dirname(os.path.abspath(__file__))
BUSY = os.path.join(HERE, "Inputs", "two-busy-ranks.json")

# Tiles move between the ranks all the time; the first print is complete at
# once (a product of a small literal), long before the loop ends.
LONG = """B = [1 2; 3 4] * [1 0; 0 2]
print(B)
n = 1000
A = rand(n, n)
for i in 1:300
    A = (A * A) ./ n
end
print(A)
"""

FULL = """A = rand(100, 100)
save("full/out.npy", A)
print(sum(A))
"""


def compile_program(cmmc, work, name, source, flags):
    path = os.path.join(work, name + ".cmm")
    with open(path, "w") as f:
        f.write(source)
    exe = os.path.realpath(os.path.join(work, name))
    subprocess.run([cmmc, path, "-o", exe] + flags, check=True, cwd=work)
    return path, exe


def killed_worker(cmmc, work, ranks):
    """SIGKILL the last rank a second into the run; the others must end."""
    _, exe = compile_program(cmmc, work, "long%d" % ranks, LONG,
                             ["--nodes=%d" % ranks, "--machine-model=" + BUSY,
                              "--tile-sizes=250"])
    job = subprocess.Popen(["mpirun", "-np", str(ranks), exe],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=ENV, cwd=work)
    victim = ranks - 1
    pid = None
    for _ in range(100):
        pid = rank_pid(exe, victim)
        if pid:
            break
        time.sleep(0.1)
    assert pid, "rank %d not found" % victim
    time.sleep(1.0)
    assert job.poll() is None, "the job ended before the kill:\n" + \
        job.communicate()[1]
    os.kill(pid, signal.SIGKILL)
    killed = time.time()
    try:
        out, err = job.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        job.kill()
        for r in range(ranks):
            if rank_pid(exe, r):
                os.kill(rank_pid(exe, r), signal.SIGKILL)
        sys.exit("FAILED: %d ranks: the job still ran %g s after rank %d was "
                 "killed" % (ranks, BOUND, victim))
    elapsed = time.time() - killed
    leftover = [r for r in range(ranks) if rank_pid(exe, r)]
    assert not leftover, "ranks %s still run after the job" % leftover
    assert job.returncode != 0, "the job exited 0 after losing a rank"
    lost = re.search(r"rank %d .*(signal 9|Killed)" % victim, err)
    assert lost, "no message naming the lost rank %d in:\n%s" % (victim, err)
    stopped = re.search(r"cmm: rank 0: stopped by SIGTERM from [^;\n]*", err)
    assert stopped, "rank 0 did not say it was stopped:\n" + err
    # [1 2; 3 4] * [1 0; 0 2] = [1 4; 3 8]: sum 16, norm sqrt(90).
    assert out.startswith("B 2x2 sum=16 norm=9.48683 [1 4]\n"), \
        "the print complete before the kill is missing:\n" + out
    print("ok %d ranks, rank %d killed: exit %d after %.1f s; %s; %s" % (
        ranks, victim, job.returncode, elapsed, lost.group(0),
        stopped.group(0)))


def mount_small_tmpfs(directory):
    """Mounts a 64 KiB tmpfs at `directory`; the reason if it cannot."""
    os.makedirs(directory, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs",
                        directory], capture_output=True, text=True)
    if p.returncode != 0:
        return "cannot mount a tmpfs here (%s)" % (
            p.stderr.strip() or "exit %d" % p.returncode)
    return None


def full_file_system(cmmc, work):
    full = os.path.join(work, "full")
    subprocess.run(["umount", full], capture_output=True)
    reason = mount_small_tmpfs(full)
    if reason:
        print("skipped the full file system cases: " + reason)
        return
    try:
        source, exe = compile_program(cmmc, work, "fullfs", FULL, [])
        _, exe2 = compile_program(cmmc, work, "fullfs2", FULL, ["--nodes=2"])
        _, exe3 = compile_program(cmmc, work, "fullfs3", FULL, ["--nodes=3"])
        old = b"the old contents\n"
        target = os.path.join(full, "out.npy")
        runs = [("interpreter", [cmmc, source, "--interpret"], ""),
                ("1 rank", [exe], r"cmm: rank 0: "),
                ("2 ranks", ["mpirun", "-np", "2", exe2], r"cmm: rank 0: "),
                ("3 ranks", ["mpirun", "-np", "3", exe3], r"cmm: rank 0: ")]
        for what, cmd, prefix in runs:
            with open(target, "wb") as f:
                f.write(old)
            p = subprocess.run(cmd, cwd=work, capture_output=True, text=True,
                               env=ENV, timeout=120)
            assert p.returncode != 0, "%s: exited 0 on a full disk" % what
            pattern = (prefix + r"\S*fullfs[23]?\.cmm:2:1: error: 'full/out\.npy': "
                       r"cannot write temporary file 'full/out\.npy\.tmp\.\d+'"
                       r": No space left on device")
            if prefix:
                pattern += r" \(task 'save@2:1'\)"
            m = re.search(pattern, p.stderr)
            assert m, "%s: no message matching %r in:\n%s" % (what, pattern,
                                                               p.stderr)
            with open(target, "rb") as f:
                assert f.read() == old, "%s: the old file changed" % what
            assert os.listdir(full) == ["out.npy"], \
                "%s: left behind %s" % (what, os.listdir(full))
            print("ok full file system, %s: old file intact; %s" % (
                what, m.group(0)))
    finally:
        subprocess.run(["umount", full], capture_output=True)


def main():
    cmmc, work = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    for ranks in (2, 3):
        killed_worker(cmmc, work, ranks)
    full_file_system(cmmc, work)


if __name__ == "__main__":
    main()
