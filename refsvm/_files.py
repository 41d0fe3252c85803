"""Temporary files for atomic writes, with the mode an ordinary ``open(path, "w")`` would give.

Every file refsvm writes (models, ``--output`` files, fetched data sets, the lookup-table
cache) is written to a temporary file in the target's folder and renamed over the target,
so that an interruption never leaves a partial file.  :func:`tempfile.mkstemp` creates its
file with mode 0600 whatever the umask, which made every written file private (others could
not read a shared ``REFSVM_DATA``); :func:`atomic_temp` gives it ``0666 & ~umask`` instead,
as ``open`` does.
"""

import os
import tempfile
import threading

_UMASK_LOCK = threading.Lock()


def current_umask():
    """The process's umask (read from /proc where available, which changes nothing; else set and
    restored under a lock)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def atomic_temp(folder, prefix, suffix):
    """``(fd, path)`` of a new temporary file in ``folder`` (:func:`tempfile.mkstemp`), its mode set
    to ``0666 & ~umask``; the caller writes it and renames it over the target (``os.replace``)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
    except OSError:
        pass                                    # a file system without modes: keep mkstemp's
    return fd, tmp
