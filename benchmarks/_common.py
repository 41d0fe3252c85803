"""Helpers shared by the benchmark scripts (importable because a script's own
directory is first on sys.path when run as ``python benchmarks/<script>.py``)."""

import platform


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (``platform.processor()`` elsewhere)."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
