"""The processes of a running MPI job, found from /proc (the fault tests
stop or kill one rank: stall.py, faults.py)."""

import os


def rank_pid(exe, rank):
    """The pid of `exe` running as MPI rank `rank`, or None."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink("/proc/%s/exe" % pid) != exe:
                continue
            env = open("/proc/%s/environ" % pid, "rb").read().split(b"\0")
        except OSError:
            continue
        if ("OMPI_COMM_WORLD_RANK=%d" % rank).encode() in env:
            return int(pid)
    return None
