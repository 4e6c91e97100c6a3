"""Whether this machine's host takes freed memory back, read from sysfs as
cmm::profile::hostReclaimsFreedMemory reads it (lib/Profile/FirstTouch.cpp),
for the scripts that check or work around it (test/MPI/profile.py,
bench/model_accuracy.py)."""

import glob
import os


def host_reclaims_freed_memory():
    """A virtio balloon (device 0x0005) with free page reporting: the
    features file is one '0'/'1' per bit, bit 5 VIRTIO_BALLOON_F_REPORTING."""
    for d in glob.glob("/sys/bus/virtio/devices/virtio*"):
        try:
            device = open(os.path.join(d, "device")).read().strip()
            features = open(os.path.join(d, "features")).read().strip()
        except OSError:
            continue
        if device == "0x0005" and len(features) > 5 and features[5] == "1":
            return True
    return False
