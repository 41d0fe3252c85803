"""refsvm reproduce: the pure pieces of benchmarks/bench_wang_figure6_peer.py (Wang et al.'s Figure 6 beside
BudgetedSVM) -- the LIBSVM file the peer reads holds exactly the doubles refsvm trains on, the log-log slope per
configuration against known power laws, and the table's statement about the paper's Matlab times."""

import numpy as np
import pytest

from refsvm.io.libsvm import read_libsvm

from _helpers import benchmark_module


@pytest.fixture(scope="module")
def bench():
    return benchmark_module("bench_wang_figure6_peer")


def test_libsvm_file_round_trips_the_exact_doubles(bench, tmp_path):
    """Values that 6 or 15 significant digits would change (1/3, 0.1 + 0.2, a tiny and a huge one, random
    uniforms) are read back bit for bit, rows and labels in order."""
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(200, 2))
    X[0] = [1.0 / 3.0, 0.1 + 0.2]
    X[1] = [5e-324, 1.7976931348623157e308]
    X[2] = [np.nextafter(0.25, 1.0), np.nextafter(0.25, 0.0)]
    y = np.where(rng.uniform(size=200) < 0.5, -1, 1)
    path = tmp_path / "rows.libsvm"
    bench.write_libsvm(path, X, y)
    Xr, yr = read_libsvm(path)
    np.testing.assert_array_equal(Xr, X)
    np.testing.assert_array_equal(yr, y)
    assert path.read_text().splitlines()[0].startswith(f"{int(y[0]):d} 1:")


def test_slopes_fit_each_configuration_from_100k_on(bench):
    """time = c N^k per configuration (k = 1 and 2) after 100K, anything before it (excluded from the fit), a
    configuration with a single point from 100K on gets None, missing peer times are skipped."""
    rows = []
    for n in (10_000, 30_000, 100_000, 300_000, 1_000_000):
        rows.append(dict(maintenance="merge", budget=100, n=n, t=(7.0 if n < 100_000 else 3e-6 * n)))
        rows.append(dict(maintenance="merge", budget=500, n=n, t=(1.0 if n < 100_000 else 2e-11 * n ** 2)))
        rows.append(dict(maintenance="removal", budget=100, n=n, t=(0.5 * n if n <= 100_000 else None)))
    got = bench.slopes(rows, "t")
    assert got[("merge", 100)] == pytest.approx(1.0, abs=1e-9)
    assert got[("merge", 500)] == pytest.approx(2.0, abs=1e-9)
    assert got[("removal", 100)] is None
    assert bench.slopes(rows, "t", from_n=1)[("removal", 100)] == pytest.approx(1.0, abs=1e-9)


def test_table_says_the_paper_prints_no_figure6_times(bench):
    """Every row of the table states that the paper's text prints no Matlab time (none is invented)."""
    row = dict(maintenance="merge", budget=100, n=1000, refsvm=dict(cpu=0.01, accuracy=0.9),
               peer=dict(cpu=0.5, wall=0.6, accuracy=0.91))
    text = bench.render(dict(rows=[row, dict(row, peer=None)], slopes=dict(refsvm_cpu={("merge", 100): None},
                                                                        peer_cpu={})))
    body = [line for line in text.splitlines()[1:] if line.startswith("merge ")]
    assert len(body) == 2 and all(line.endswith("not printed in the text") for line in body)
    assert "50.0x" in body[0] and "10.00" in body[0] and "500.00" in body[0]
