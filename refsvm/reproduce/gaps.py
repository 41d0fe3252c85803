"""Why a reproduced row differs from the paper: one documented list of reasons, and the rows each explains.

A row of a reproduced table is *flagged* when its gap to the paper is larger
than what two runs of the same experiment would show by chance:

* more than :data:`GAP_POINTS` (2) percentage points, or
* more than :data:`GAP_SDS` (2) standard deviations of the difference of two
  single runs, ``sqrt(s_paper^2 + s_ours^2)`` (``s_paper``: the paper's
  printed standard deviation over its permutations; ``s_ours``: ours over our
  seeds; with normal errors two independent runs differ by more than that
  about 5 % of the time).  A paper without a standard deviation (a single run)
  is compared with the 2-point rule only.

Every flagged row carries one reason from :data:`REASONS` and a short text
saying what was checked.  Two reasons are found from the numbers themselves:

* ``"paper-constant"``: the paper's error equals the minority share of the
  data it was measured on (within 0.01 points), i.e. the paper's run predicted
  one class;
* ``"paper-run"``: the paper's number is a single run (no standard deviation)
  and lies inside the range of our runs.

The others are stated per row in :data:`EXPLAINED`, each with the measurement
that supports it; a flagged row that is in neither is ``"unexplained"``.
"""

import math

__all__ = ["REASONS", "EXPLAINED", "GAP_POINTS", "GAP_SDS", "is_flagged", "gap_reason"]

#: The documented list of reasons (key -> what it means).
REASONS = {
    "convention": "a convention the paper does not state and the authors' code fixes otherwise "
                  "(e.g. what a prediction of exactly 0 does); the row says which convention it uses",
    "data": "the data differ from the paper's (another scaling, a subset, a split, a file not in the shared data)",
    "authors-code": "the authors' released code deviates from the paper's pseudo-code; refsvm implements the paper "
                    "(the code's reading is a named variant where one exists)",
    "parameters": "the paper does not print a parameter it tuned; the table note states the value refsvm uses",
    "protocol": "the run follows another protocol than the paper's (passes, tuning), stated in the table note",
    "paper-constant": "the paper's error equals the minority share of the data: the paper's run predicted one class",
    "paper-run": "the paper's number is a single run and lies within the range of our runs over seeds",
    "unexplained": "no reason found yet",
}

#: A gap larger than this many percentage points is flagged.
GAP_POINTS = 2.0
#: ... or larger than this many standard deviations of the difference of two single runs.
GAP_SDS = 2.0

_LU5 = "lu2016-table5"
_ZERO = ("a prediction of exactly 0 (y f = 0) counts as a mistake and updates (the paper's reading); the authors' "
         "code predicts sign(0) = +1.  spambase is unscaled, so Gaussian kernel values underflow to 0 about 90-170 "
         "times a pass: with the authors' convention an outside audit measured RBP 34.22 and NOGD 32.26 (paper 33.3 / "
         "29.1)")
_PROJ = ("the authors' code fills the budget first and uses U = 1/4 sqrt((B+1)/ln(B+1)) in the margin condition; "
         "refsvm uses one eta as projection threshold and 1/eta in the margin condition (Orabona et al.); with the "
         "authors' reading an outside audit measured a9a 18.46 (paper 18.6) and ijcnn1 9.53 (9.52)")
_BOGD = ("the authors' code rescales the whole coefficient vector so its largest entry is eta * gamma_BOGD; with that "
         "rule at eta = 0.2 an outside audit measured a9a 28.09 (paper 27.9), ijcnn1 11.79 (11.67), w8a 3.59 (3.43)")
_ADULT_OFFSET = ("the paper's cross-validated (C, sigma) are not printed; with Glasmachers & Qaadan's gamma = 2^-7 every "
                 "a9a kernel value is in [0.80, 1], each step moves the decision function like a bias and the last "
                 "iterate's offset wanders (best-offset accuracy 84.3-84.4 % on every seed; refit_bias='scaled' "
                 "recovers it, docs/refit)")

#: (table, row label, data-set label) -> (reason, what supports it).  Only rows whose gap is flagged are looked up.
EXPLAINED = {
    (_LU5, "RBP", "spambase"): ("convention", _ZERO),
    (_LU5, "NOGD", "spambase"): ("convention", _ZERO),
    (_LU5, "Forgetron", "a9a"): ("authors-code", "the authors' forgetron.m takes the larger root when a < 0 (phi > 1, "
                                                  "16 times a pass on a9a): an outside audit measured 28.26 against "
                                                  "29.97 with the paper's rule (paper 27.8)"),
    (_LU5, "Projectron++", "a9a"): ("authors-code", _PROJ),
    (_LU5, "Projectron++", "ijcnn1"): ("authors-code", _PROJ),
    (_LU5, "BOGD", "a9a"): ("authors-code", _BOGD),
    (_LU5, "BOGD", "ijcnn1"): ("authors-code", _BOGD),
    (_LU5, "BOGD", "w8a"): ("authors-code", _BOGD),
    (_LU5, "BOGD", "german"): ("data", "the paper's german is the unscaled german.numer (features 0-184), not in the "
                                       "shared data; the table uses german.numer_scale"),
    (_LU5, "RBP", "german"): ("data", "the paper's german is the unscaled german.numer (not in the shared data): "
                                      "with it an outside audit measured RBP 38.18 (paper 37.5); the table "
                                      "uses german.numer_scale"),
    (_LU5, "Forgetron", "german"): ("data", "the paper's german is the unscaled german.numer (not in the shared data): "
                                            "with it an outside audit measured the Forgetron 38.19 (paper 38.1)"),
    ("qaadan2019-table2", "BSGD", "ADULT"): ("parameters", _ADULT_OFFSET),
    ("qaadan2019-table2", "Projectron", "ADULT"): ("paper-run", "the paper's Projectron on ADULT (25.65 % accuracy) is "
                                                                "worse than predicting the majority class"),
}
for _m in ("remove", "project", "merge"):
    for _b in (100, 500):
        EXPLAINED[("wang2012-table3", f"BPegasos+{_m} B={_b}", "Adult")] = ("parameters", _ADULT_OFFSET)
for _s in ("GSS-precise", "GSS-standard", "Lookup-h", "Lookup-WD"):
    for _b in (100, 500):
        EXPLAINED[("glasmachers-lookup-table2", f"{_s} B={_b}", "ADULT")] = (
            "protocol", "one epoch where the paper reports 20 passes; " + _ADULT_OFFSET)
        EXPLAINED[("glasmachers-lookup-table2", f"{_s} B={_b}", "PHISHING")] = (
            "data", "the shared phishing file is standardised here and split 75/25 at random; the paper's gamma = 2^3 "
                    "was tuned for its own scaling of the data")


def _paper_sd(row):
    return (row.get("paper") or {}).get("std")


def is_flagged(row):
    """True when the row's gap to the paper is larger than chance allows (see the module docstring)."""
    paper = (row.get("paper") or {}).get("mean")
    if paper is None or not row.get("available", True) or row.get("error_mean") is None:
        return False
    gap = abs(row["error_mean"] - paper)
    if gap > GAP_POINTS:
        return True
    s_paper = _paper_sd(row)
    if s_paper is None:
        return False
    return gap > GAP_SDS * math.hypot(s_paper, row.get("error_std") or 0.0)


def gap_reason(table, row):
    """``(reason, text)`` for a flagged row of ``table`` (a name), ``None`` for a row that is not flagged."""
    if not is_flagged(row):
        return None
    paper = row["paper"]["mean"]
    minority = row.get("minority_share")
    if minority is not None and abs(paper - minority) <= 0.01:
        return "paper-constant", (f"the paper's {paper:g} % is the minority share of the data ({minority:.2f} %): "
                                  f"its run predicted one class")
    explained = EXPLAINED.get((table, row["algorithm"], row["dataset"]))
    if explained is not None:
        return explained
    errors = [s["error"] for s in row.get("per_seed") or () if "error" in s]
    if _paper_sd(row) is None and errors and min(errors) <= paper <= max(errors):
        return "paper-run", (f"the paper's single run ({paper:g}) lies within our range "
                             f"[{min(errors):.2f}, {max(errors):.2f}] over {len(errors)} seeds")
    return "unexplained", REASONS["unexplained"]
