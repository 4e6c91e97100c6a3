"""The words each rank sends in cmm's COSMA, counted by the PMPI library of
bench/pmpi (the counter bench/gemm uses for ScaLAPACK too), equal the
strategy's prediction, for the paper's four shapes (small) and a
transposed, odd-sized product with several rounds.
usage: cosma_pmpi.py COSMA_GEMM COUNT_LIBRARY RANKS WORKDIR
"""

import os
import subprocess
import sys

CASES = [
    ["96", "96", "96"],                      # square
    ["16", "16", "4096"],                    # largeK
    ["4096", "16", "16"],                    # largeM
    ["128", "128", "8"],                     # flat
    ["37", "41", "300", "--trans-a", "--trans-b", "--memory=2500"],
]


def main():
    gemm, library, ranks, work = sys.argv[1], sys.argv[2], sys.argv[3], \
        sys.argv[4]
    os.makedirs(work, exist_ok=True)
    for case in CASES:
        counts = os.path.join(work, "counts.txt")
        predicted = os.path.join(work, "predicted.txt")
        for f in (counts, predicted):
            if os.path.exists(f):
                os.remove(f)
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", CMM_PMPI_OUT=counts)
        p = subprocess.run(["mpirun", "-np", ranks, "--oversubscribe", "-x",
                            "LD_PRELOAD=" + library, "-x", "CMM_PMPI_OUT",
                            gemm] + case + ["--quiet", "--predict=" + predicted],
                           capture_output=True, text=True, env=env,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        sent = {}
        for line in open(counts):
            words = line.split()
            sent[int(words[1])] = int(words[3])
        want = [float(x) for x in open(predicted)]
        assert sorted(sent) == list(range(len(want))), sent
        for rank, words in enumerate(want):
            assert sent[rank] == 8 * words, \
                "%s: rank %d sent %d bytes, predicted %d words" % (
                    " ".join(case), rank, sent[rank], words)
        print("ok %s on %s ranks: bytes sent per rank %s = 8 x predicted" % (
            " ".join(case), ranks, [sent[r] for r in sorted(sent)]))


if __name__ == "__main__":
    main()
