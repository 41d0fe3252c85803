"""Renderers of the Bayes floor of the generated data sets (``benchmarks/results/bench_bayes_floor.json``,
``benchmarks/bench_bayes_floor.py``) for docs/gaps.rst (registered in ``benchmarks/docnumbers.py``'s registry;
see its docstring).

Block ``bench-bayes-floor``: per generated data set of the reproduce tables, its size, test rows and seed, the
Bayes classifier's error on those test rows and over the distribution, and the tables that use it.  Values
``bayes-<generator>-population`` (the error over the distribution, %) and ``bayes-gauss-test-rows`` /
``bayes-gauss-excess`` (Table 3's Gauss draw).
"""

from _docgen import load, renderer, table, value


def _pct(x):
    return f"{100 * x:.2f}"


@renderer("bench-bayes-floor")
def _bayes_floor(fmt):
    data = load("bench_bayes_floor")
    pop = data["population"]
    return table(["data", "n", "test rows", "seed", "Bayes error on them %", "over the distribution %", "tables"],
                 [[e["label"], f"{e['n']:,}", f"{e['n_test']:,}", str(e["random_state"]), _pct(e["test_rows_error"]),
                   f"{_pct(pop[e['generator']]['error'])} ± {_pct(pop[e['generator']]['se'])}", ", ".join(e["tables"])]
                  for e in data["sets"]], fmt)


def _gauss():
    return next(e for e in load("bench_bayes_floor")["sets"] if e["generator"] == "gauss_mixture")


@value("bayes-gauss-population")
def _gauss_population():
    return _pct(load("bench_bayes_floor")["population"]["gauss_mixture"]["error"])


@value("bayes-waveform-population")
def _waveform_population():
    return _pct(load("bench_bayes_floor")["population"]["waveform"]["error"])


@value("bayes-gauss-test-rows")
def _gauss_test_rows():
    return _pct(_gauss()["test_rows_error"])


@value("bayes-gauss-excess")
def _gauss_excess():
    return _pct(_gauss()["minus_population"])
