"""Wang, Crammer & Vucetic (2012), Table 4's USPS column on LIBSVM's usps, the paper's file.

The shared ``usps`` / ``usps.t`` are ESL's ``zip.train`` / ``zip.test``; LIBSVM's files hold the same digits in
the same order, each image blurred by a normalised Gaussian of sigma = 0.75 pixel (:mod:`refsvm.io.usps`; found
and checked on a copy of LIBSVM's ``usps.t``, ``benchmarks/results/bench_usps_libsvm.txt``).
``wang2012-table4-usps-libsvm`` runs every row of ``wang2012-table4`` that refsvm runs on USPS with the pixels so
reconstructed and then standardised on the training split, as the paper's section 7.2 says
(:func:`refsvm.reproduce.runners_usps.run_on_libsvm_usps` wraps each row's runner); nothing else changed.
``wang2012-libsvm-cv-usps-libsvm``: the LIBSVM row with gamma and C by a CV of its own on the same data, as
``wang2012-libsvm-cv`` does on the shared files.
"""

from dataclasses import replace

from .spec import Dataset, Entry, Table
from .tables_core import TABLES, WANG2012_TABLE4
from .tables_wang_libsvm import BEST_ON_TEST, LIBSVM_GRID, SVC

__all__ = ["WANG2012_TABLE4_USPS_LIBSVM", "WANG2012_LIBSVM_CV_USPS_LIBSVM", "WANG2012_TABLE4_MP_USPS_LIBSVM"]

ON_LIBSVM_USPS = "refsvm.reproduce.runners_usps:run_on_libsvm_usps"


def _on_libsvm_usps(entries):
    """The rows refsvm runs of ``entries``, each behind the wrapper: its runner and parameters handed on, standardised
    after the blur (the data set itself is read as is)."""
    return [replace(e, runner=ON_LIBSVM_USPS, params={**e.params, "runner": e.runner, "standardize": True})
            for e in entries if e.runner is not None]


WANG2012_TABLE4_USPS_LIBSVM = Table(
    name="wang2012-table4-usps-libsvm",
    title="Wang, Crammer & Vucetic (2012), JMLR 13, Table 4's USPS column on LIBSVM's usps (the paper's file), "
          "reconstructed from the shared ESL usps: the same digits blurred by a Gaussian of sigma = 0.75 pixel",
    metric="test error (%)",
    datasets=[Dataset("USPS", "usps", protocol="split", standardize=False, multiclass=True,
                      note="LIBSVM's usps / usps.t (7,291 / 2,007 rows, the paper's files): the shared ESL files with "
                           "each 16 x 16 image blurred by a normalised Gaussian, sigma = 0.75 pixel "
                           "(refsvm.io.usps.libsvm_usps_pixels), then standardised on the training rows by the "
                           "runner (refsvm.reproduce.runners_usps.run_on_libsvm_usps)")],
    entries=_on_libsvm_usps(WANG2012_TABLE4.entries),
    paper={k: v for k, v in WANG2012_TABLE4.paper.items() if k[1] == "USPS"},
    seeds=20,
    quick_rows=300,
    note="Protocol of wang2012-table4 (every row and its parameters: gamma = s/d by 5-fold CV of BPegasos+merge per "
         "budget from s in {1/4, 1, 4, 16}, C = 1, LIBSVM one against the rest at C = 1 and B = 500's gamma), on "
         "LIBSVM's pixels: the shared usps / usps.t (ESL's zip.train / zip.test) blurred by a normalised Gaussian "
         "of sigma = 0.75 pixel (refsvm.io.usps, checked to the printed digit on a copy of LIBSVM's usps.t: "
         "benchmarks/results/bench_usps_libsvm.txt), then every column standardised on the training rows as "
         "section 7.2 says. One difference of bookkeeping: the runner standardises the rows it is given, so in the "
         "cross-validation each fold's training rows set the statistics, where wang2012-table4 standardises the "
         "whole training split before its folds.",
)

TABLES[WANG2012_TABLE4_USPS_LIBSVM.name] = WANG2012_TABLE4_USPS_LIBSVM

# ------------------------------------------------------------------- LIBSVM's own CV on LIBSVM's pixels

_SVC_ON_LIBSVM_USPS = {"runner": SVC, "standardize": True}

WANG2012_LIBSVM_CV_USPS_LIBSVM = Table(
    name="wang2012-libsvm-cv-usps-libsvm",
    title="Wang, Crammer & Vucetic (2012), JMLR 13, Table 4's LIBSVM row on LIBSVM's usps (the paper's file, "
          "reconstructed): gamma and C by a 5-fold CV of its own, and the lowest test error over the same grid",
    metric="test error (%)",
    datasets=WANG2012_TABLE4_USPS_LIBSVM.datasets,
    entries=[Entry("LIBSVM", ON_LIBSVM_USPS, dict(_SVC_ON_LIBSVM_USPS), grid=LIBSVM_GRID, select="cv5"),
             Entry(BEST_ON_TEST, ON_LIBSVM_USPS, dict(_SVC_ON_LIBSVM_USPS), grid=LIBSVM_GRID, select="mean")],
    paper={(label, "USPS"): WANG2012_TABLE4.paper[("LIBSVM", "USPS")] for label in ("LIBSVM", BEST_ON_TEST)},
    seeds=1,
    quick_rows=300,
    note="wang2012-libsvm-cv's protocol (scikit-learn's SVC, LIBSVM inside, one against the rest; gamma = s/d and C "
         "by a 5-fold CV of LIBSVM's own on the training split, seed 0, from s in {1/4, 1, 4, 16, 64} x C in {1, 10, "
         "100}; 'LIBSVM [best on test]': the lowest test error over that grid, chosen on the test split, a bound) "
         "on wang2012-table4-usps-libsvm's data: LIBSVM's pixels reconstructed from the shared files, standardised "
         "on the training rows (in the CV, each fold's).  Deterministic: one seed.",
)

TABLES[WANG2012_LIBSVM_CV_USPS_LIBSVM.name] = WANG2012_LIBSVM_CV_USPS_LIBSVM

# ------------------------------------------------------------------- the MP baselines on LIBSVM's pixels
_MP = TABLES["wang2012-table4-mp"]

WANG2012_TABLE4_MP_USPS_LIBSVM = Table(
    name="wang2012-table4-mp-usps-libsvm",
    title="Wang, Crammer & Vucetic (2012), JMLR 13, Table 4's USPS column on LIBSVM's usps (the paper's file, "
          "reconstructed): MP, MP+stop and MP+random (B = 100 / 500), gamma by a CV of their own; test error",
    metric="test error (%)",
    datasets=WANG2012_TABLE4_USPS_LIBSVM.datasets,
    entries=_on_libsvm_usps(_MP.entries),
    paper={k: v for k, v in _MP.paper.items() if k[1] == "USPS"},
    seeds=20,
    quick_rows=300,
    note="wang2012-table4-mp's rows and protocol (gamma = s/d by each row's own 5-fold CV from s in {1/4, 1, 4, 16}) "
         "on wang2012-table4-usps-libsvm's data: LIBSVM's pixels reconstructed from the shared files, standardised "
         "on the training rows (in the CV, each fold's) as section 7.2 says.",
)

TABLES[WANG2012_TABLE4_MP_USPS_LIBSVM.name] = WANG2012_TABLE4_MP_USPS_LIBSVM
