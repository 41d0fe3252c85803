"""Lu, Hoi, Wang, Zhao & Liu (2016), Table 7's usps column on LIBSVM's usps, the paper's file.

The shared ``usps`` is ESL's ``zip.train``; LIBSVM's ``usps`` holds the same 7,291 digits in the same order,
each image blurred by a normalised Gaussian of sigma = 0.75 pixel (:mod:`refsvm.io.usps`, found and checked on
a copy of LIBSVM's file: ``benchmarks/results/bench_usps_libsvm.txt``).  ``lu2016-table7-usps-libsvm`` runs
every row of ``lu2016-table7`` on usps with the pixels so reconstructed
(:func:`refsvm.reproduce.runners_usps.run_estimator_libsvm_usps`), nothing else changed; beside them, as
``lu2016-table7-usps-width`` does at its width, the step sizes of the authors' released scripts (rows
``"... eta=..."``).
"""

from dataclasses import replace

from .spec import Dataset, Entry, Table
from .tables_core import TABLES
from .tables_lu import _GAMMA, _LU7_B, _LU7_FOGD_STEPS, LU2016_TABLE7, SCALED, _lu7_code_options_entries

__all__ = ["LU2016_TABLE7_USPS_LIBSVM"]

LIBSVM_USPS = "refsvm.reproduce.runners_usps:run_estimator_libsvm_usps"


def _on_libsvm_usps(e, label=None):
    """Row ``e`` of a Table 7 on usps only, through the runner that blurs the shared pixels into LIBSVM's."""
    assert e.runner == SCALED, e.label
    return replace(e, label=label or e.label, runner=LIBSVM_USPS, per_dataset={"usps": e.per_dataset.get("usps", {})})


_B = _LU7_B["usps"]
_CODE_ROWS = [_on_libsvm_usps(e, e.label + f" eta={e.params['eta']:g}") for e in _lu7_code_options_entries(_LU7_B)
              if e.label != "BOGD"]
_FOGD_ROWS = [_on_libsvm_usps(Entry(f"FOGD eta={eta:g}", SCALED, dict(estimator="refsvm.FOGDClassifier",
                                                                      gamma=_GAMMA, eta=eta),
                                    per_dataset={"usps": dict(n_components=4 * _B)}))
              for eta in _LU7_FOGD_STEPS]
_PAPER7 = {k[0]: v for k, v in LU2016_TABLE7.paper.items() if k[1] == "usps"}

LU2016_TABLE7_USPS_LIBSVM = Table(
    name="lu2016-table7-usps-libsvm",
    title="Lu, Hoi, Wang, Zhao & Liu (2016), JMLR 17, Table 7's usps column on LIBSVM's usps (the paper's file), "
          "reconstructed from the shared ESL usps: the same digits blurred by a Gaussian of sigma = 0.75 pixel",
    metric=LU2016_TABLE7.metric,
    datasets=[Dataset("usps", "usps", protocol="train-stream", multiclass=True,
                      note="LIBSVM's usps (7,291 rows, the paper's file): the shared usps (ESL's zip.train) with each "
                           "16 x 16 image blurred by a normalised Gaussian, sigma = 0.75 pixel, 7 x 7, -1 beyond "
                           "the border, six decimals (refsvm.io.usps.libsvm_usps_pixels; checked on a copy of "
                           "LIBSVM's file, benchmarks/results/bench_usps_libsvm.txt)")],
    entries=[_on_libsvm_usps(e) for e in LU2016_TABLE7.entries] + _CODE_ROWS + _FOGD_ROWS,
    paper={**{(row, "usps"): v for row, v in _PAPER7.items()},
           **{(e.label, "usps"): _PAPER7[e.label.split(" eta=")[0]] for e in _CODE_ROWS + _FOGD_ROWS}},
    seeds=20, quick_rows=300,
    note="lu2016-table7's rows on usps with LIBSVM's pixels in place of ESL's: the shared usps is ESL's zip.train, "
         "LIBSVM's usps (the paper's file) the same digits in the same order, each image blurred by a normalised "
         "Gaussian of sigma = 0.75 pixel (refsvm.io.usps, found by fitting a free 7 x 7 filter to a copy of LIBSVM's "
         "usps.t and checked to the printed digit: benchmarks/results/bench_usps_libsvm.txt). gamma = 1/128 as "
         "lu2016-table7, every other setting as there (its note). Rows 'eta=...': the step sizes of the authors' "
         "released multiclass scripts, as lu2016-table7-code-options (OGD, BOGD [code], NOGD eta = 0.5, FOGD "
         "eta = 0.005) and lu2016-table7-fogd-step (FOGD eta = 0.5 and 0.001).",
)

TABLES[LU2016_TABLE7_USPS_LIBSVM.name] = LU2016_TABLE7_USPS_LIBSVM
