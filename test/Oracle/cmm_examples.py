"""The programs of examples/ as the tests run them: each at the flags of its
`# test:` line (e.g. `-D n=200`), from a work directory where `examples/`
links to the repository's folder (programs name their data relative to the
repository root)."""

import glob
import os
import re
import shlex


def programs(examples, work):
    """Yields (absolute path, test flags) for every examples/*.cmm, after
    preparing `work`."""
    os.makedirs(work, exist_ok=True)
    link = os.path.join(work, "examples")
    if not os.path.exists(link):
        os.symlink(os.path.abspath(examples), link)
    for prog in sorted(glob.glob(os.path.join(examples, "*.cmm"))):
        m = re.search(r"^# test:(.*)$", open(prog).read(), re.M)
        assert m, "%s has no '# test:' line with its test flags" % prog
        yield os.path.abspath(prog), shlex.split(m.group(1))
