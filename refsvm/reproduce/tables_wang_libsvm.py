"""Wang, Crammer & Vucetic (2012), the LIBSVM rows of Tables 3, 4 and 5 with (C, gamma) cross-validated for LIBSVM
itself (``wang2012-libsvm-cv``).

``wang2012-table3-all``, ``-table4`` and ``-table5`` run LIBSVM (scikit-learn's SVC, LIBSVM inside, one against
the rest as the paper) at the gamma BPegasos+merge B=500's CV chose and C = 1.  Section 7.3 chose "C for LIBSVM"
and sigma by 10-fold CV per data set and printed neither.  LIBSVM on a fixed split is deterministic (the paper's
sd is 0.00 on the common splits), so a gap to its number is a difference of settings, not of chance.  This table
measures how far the choice of (C, gamma) moves the row:

* ``LIBSVM``: (C, gamma) chosen by a 5-fold CV of its own on the training split (seed 0) over the grid below;
* ``LIBSVM [best on test]``: the lowest test error over the same grid (each point fitted on the whole training
  split).  It chose its point on the test split, so it is no result: it is the bound below which no choice of
  the grid goes (:data:`refsvm.reproduce.gaps` reads it).
"""

from .spec import Entry, Table
from .tables_core import TABLES, WANG2012_TABLE4, WANG2012_TABLE5

SVC = "refsvm.reproduce.runners:run_svc"
#: gamma = s / d on the standardised features, and LIBSVM's C: wang2012-table4's s grid widened to 64 (the low-
#: dimensional sets' CVs choose 16 or 64), C by decades
LIBSVM_GRID = dict(gamma_scale=(0.25, 1.0, 4.0, 16.0, 64.0), C=(1.0, 10.0, 100.0))
BEST_ON_TEST = "LIBSVM [best on test]"
#: the data sets whose LIBSVM row the tables flag and whose CV runs here in minutes (source table -> labels);
#: Adult and IJCNN (wang2012-table3-all) are left out: one SVC fit takes 211 s and 47 s there (the tables' runs),
#: 75 fits per CV
DATA = {"wang2012-table3-all": ("Banana",), "wang2012-table4": ("DNA", "Satimage", "USPS", "Pendigits", "Letter"),
        "wang2012-table5": ("Shuttle",)}
_SOURCES = {"wang2012-table3-all": TABLES["wang2012-table3-all"], "wang2012-table4": WANG2012_TABLE4,
            "wang2012-table5": WANG2012_TABLE5}
_DATASETS = [d for name, labels in DATA.items() for d in _SOURCES[name].datasets if d.label in labels]

TABLES["wang2012-libsvm-cv"] = Table(
    name="wang2012-libsvm-cv",
    title="Wang, Crammer & Vucetic (2012), JMLR 13, Tables 3-5, LIBSVM with gamma and C by a 5-fold CV of its own "
          "(scikit-learn's SVC, one against the rest), and the lowest test error over the same grid",
    metric="test error (%)",
    datasets=_DATASETS,
    entries=[Entry("LIBSVM", SVC, {}, grid=LIBSVM_GRID, select="cv5"),
             Entry(BEST_ON_TEST, SVC, {}, grid=LIBSVM_GRID, select="mean")],
    paper={(label, d.label): _SOURCES[name].paper[("LIBSVM", d.label)]
           for name, labels in DATA.items() for d in _SOURCES[name].datasets if d.label in labels
           for label in ("LIBSVM", BEST_ON_TEST)},
    seeds=1,
    quick_rows=300,
    note="The protocol of the tables' LIBSVM rows (the same data sets, splits and standardisation; scikit-learn's "
         "SVC, LIBSVM inside, one against the rest as the paper), except that gamma = s/d and C are chosen by a "
         "5-fold CV of LIBSVM's own on the training split (seed 0) from s in {1/4, 1, 4, 16, 64} x C in {1, 10, "
         "100} (the tables: BPegasos+merge B=500's gamma and C = 1; the paper: 10-fold CV, grid not printed).  "
         "'LIBSVM [best on test]' is the lowest test error over that grid, chosen on the test split: a bound, not "
         "a result.  Adult and IJCNN (wang2012-table3-all) are not run: one fit takes 211 s and 47 s there, 75 "
         "fits per CV.  Deterministic: one seed.",
)
