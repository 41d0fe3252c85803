"""Renderers of the numbers in docs/ogd.rst from ``benchmarks/bench_peers.py --parts libol``'s results
(``bench_peers_fogd``; registered in ``benchmarks/docnumbers.py``'s registry; see its docstring).

Values ``pf.<data>.<algo>.<who>`` (``<algo>`` fogd / nogd; ``<who>``: ``refsvm`` (the last iterate),
``average`` (refsvm with ``average=True``), ``kol`` (the authors' KOL)): the range of the test accuracy over
the run's visiting orders, percent, ``min-max %``.
"""

from _docgen import load, span, value

_KEYS = {"refsvm": "refsvm", "average": "refsvm_average", "kol": "peer"}


def _accuracies(dataset, algo, who):
    for e in load("bench_peers_fogd")["libol"]:
        if e["dataset"] == dataset and e["algo"] == algo:
            if who == "kol":          # KOL repeats each order: its mean accuracy per order
                return [100.0 * sum(p["accuracy"] for p in r["peer"]) / len(r["peer"]) for r in e["runs"]]
            return [100.0 * r[_KEYS[who]]["accuracy"] for r in e["runs"]]
    raise KeyError(f"no {algo} run on {dataset} in bench_peers_fogd")


def _register(dataset, algo, who):
    value(f"pf.{dataset}.{algo}.{who}")(lambda: span(_accuracies(dataset, algo, who), fmt="{:.1f}", unit=" %"))


for _ds in ("ijcnn1", "a9a", "w8a"):
    for _algo in ("fogd", "nogd"):
        for _who in _KEYS:
            _register(_ds, _algo, _who)
