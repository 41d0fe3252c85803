"""Renderers of the set-up times in README.md from ``benchmarks/bench_setup.py``'s results (registered in
``benchmarks/docnumbers.py``'s registry; see its docstring).

Values ``setup.install`` (wall time of ``pip install .`` in a fresh virtual environment, minutes),
``setup.install-cpu`` (its CPU time, minutes), ``setup.test-extra`` (wall time of the
second command's ``pip install "refsvm[test]"``, seconds: nothing is compiled) and ``setup.machine`` (where, under which load and at which
commit it ran: the wall time depends on the load of the machine, the CPU time much less).
"""

from _docgen import load, machine, provenance_of, value

STEM = "bench_setup"
INSTALL = "pip install ."
TEST_EXTRA = 'pip install "refsvm[test]"'


def _row(command):
    return next(r for r in load(STEM)["rows"] if r["command"] == command)


@value("setup.install")
def _install():
    return f"{_row(INSTALL)['wall_seconds'] / 60:.1f} min"


@value("setup.install-cpu")
def _install_cpu():
    return f"{_row(INSTALL)['cpu_seconds'] / 60:.1f} min"


@value("setup.machine")
def _machine():
    prov = provenance_of(STEM)
    return (f"{machine(prov)}, {prov['machine']['logical_cores']} logical cores, shared: load average "
            f"{_row(INSTALL)['loadavg_before']:.0f}; at {prov['commit']}")


@value("setup.test-extra")
def _test_extra():
    return f"{_row(TEST_EXTRA)['wall_seconds']:.0f} s"
