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

__all__ = ["REASONS", "EXPLAINED", "GAP_POINTS", "GAP_SDS", "RELATIVE_GAP", "SAME_RUNS", "SAME_ROW_RUNS", "is_flagged",
           "gap_reason"]

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
    "paper-worse-than-constant": "the paper's error is far above the constant classifier's (predicting the "
                                 "majority class): the paper's run failed in a way the paper does not explain",
    "degenerate": "every grid point of our run is the constant classifier on the predictions the metric counted "
                  "(refsvm.reproduce.driver.is_constant): the row is no result; the text says what was measured",
    "numerics": "the paper's run took a discrete decision on rounding noise (a test of a computed number against "
                "0 without a tolerance); refsvm decides it to an error bound (DESIGN.md, 'Discrete decisions on "
                "computed numbers'); the text says what the noisy reading gave",
    "ties": "the paper's rule chooses among candidates that are equal in exact arithmetic (Wang et al.'s removal in "
            "BPegasos: every SV's norm is 2/(lambda t)^2, footnote 11's 'arbitrary removal'), so a computed choice "
            "follows rounding noise, in the paper's run as in refsvm's; the text gives what a stated tie rule gives",
    "authors-code-agrees": "the authors' released code, run here on the same data and settings (a benchmark "
                           "names the build), gives refsvm's number, not the paper's: the paper prints something "
                           "its released code does not measure; the text gives the three numbers",
    "reference": "the paper column is not a number of the rerun artefact but the reference the paper compares it "
                 "with in words (e.g. the exact SVM's accuracy, which a figure's curves are said to reach)",
    "unexplained": "no reason found yet",
}

#: A gap larger than this many percentage points is flagged.
GAP_POINTS = 2.0
#: ... or larger than this many standard deviations of the difference of two single runs.
GAP_SDS = 2.0
#: Tables whose metric is not a percentage (a squared loss): a row is flagged when its gap is larger than
#: this fraction of the paper's number (the points and sd rules do not apply).
RELATIVE_GAP = {"lu2016-table9": 0.20, "lu2016-table9-eta": 0.20, "lu2016-figure5": 0.20,
                "lu2016-figure6": 0.20}
#: Figures that follow a table's runs along the pass (the same rows, data and parameters; the end point is the
#: table's number): their rows take that table's stated reasons (:data:`EXPLAINED`).
SAME_RUNS = {"lu2016-figure1": "lu2016-table7", "lu2016-figure2": "lu2016-table7", "lu2016-figure5": "lu2016-table9",
             "lu2016-figure6": "lu2016-table9"}
#: Single rows of a figure that are a table's runs seed for seed ((figure, row, data set) -> (table, row, data
#: set)): they take that row's stated reason.  Lu et al.'s Figure 4 sweeps B on usps; its B = 200 points are
#: Table 7's usps runs, and Figure 3's rho_f = 4 / rho_n = 0.2 points on the sets Table 7 runs at B = 200 are
#: its FOGD / NOGD runs there (same parameters, grid and seeds; tests/reproduce/test_lu_figures.py compares
#: the committed per-seed errors).
SAME_ROW_RUNS = {("lu2016-figure4", f"{_r} B=200", "usps"): ("lu2016-table7", _r, "usps")
                 for _r in ("RBP", "Forgetron", "Projectron", "Projectron++", "BPA-S", "BOGD", "FOGD", "NOGD")}
SAME_ROW_RUNS.update({("lu2016-figure3", _r, _ds): ("lu2016-table7", _r.split()[0], _ds)
                      for _r in ("FOGD rho_f=4", "NOGD rho_n=0.2") for _ds in ("dna", "satimage", "usps")})

def _cites(run, row, ours, paper, via=None):
    """What a companion run measured: ``via`` (default: the same row) gives ``ours`` where the paper has
    ``paper`` (``run``: the table's name; its text results file)."""
    quoted = f"the row {via!r}" if via else "the row"
    return f"{quoted} gives {ours} where the paper has {paper} ({run}, benchmarks/results/reproduce_{run}.txt)"


_LU5 = "lu2016-table5"
_LU5_FILE = "benchmarks/results/reproduce_lu2016-table5_budgeted_large.txt"
_PROJ = ("the authors' code fills the budget first and uses U = 1/4 sqrt((B+1)/ln(B+1)) in the margin condition "
         "where the paper has 1/eta (refsvm.online.projectron); the row 'Projectron++ [code]' runs that reading "
         "(variant='authors'): a9a 18.59, ijcnn1 9.53, w8a 2.70 +- 0.05 (paper 18.6 / 9.52 / 5.41 +- 3.30; "
         + _LU5_FILE + ")")
_BOGD = ("the authors' code bounds the whole coefficient vector by rescaling it and updates at y f <= 1 "
         "(refsvm.online.bogd); the row 'BOGD [code]' runs that reading (variant='authors'): at eta = 0.2 a9a 28.08 "
         "(paper 27.9) where the per-coefficient bound gives 31.88, ijcnn1 11.68 (paper 11.67) (" + _LU5_FILE + ")")
_GERMAN = ("the paper's german is the unscaled german.numer (features 0-184), not in the shared data; the table "
           "uses german.numer_scale")
_ADULT_OFFSET = ("the paper's cross-validated (C, sigma) are not printed; with Glasmachers & Qaadan's gamma = 2^-7 every "
                 "a9a kernel value is in [0.80, 1], each step moves the decision function like a bias and the last "
                 "iterate's offset wanders (best-offset accuracy 84.3-84.4 % on every seed; refit_bias='scaled' "
                 "recovers it, docs/refit)")


def _nogd_at_paper_step(error, minority):
    """NOGD's near-constant run at the step Lu et al. print (Table 5): its error, then what ``minority`` says."""
    return ("at the paper's step eta = 0.2 NOGD (k = 20) ends with a model that gives the majority class to >= 99 % of "
            f"the rows; its online error, {error}, is the paper's {error}{minority}; the best non-constant point is "
            "eta = 2 (benchmarks/results/reproduce_lu2016-table5_fogd_nogd_large.txt)")


def _lu5_unbudgeted(ours, lo, hi, paper, more):
    """Table 5's unbudgeted rows on the large sets (20 permutations, benchmarks/results/reproduce_lu2016-table5_large):
    ours over the permutations, their range, the paper's (mean +- sd), and ``more``."""
    return (f"over 20 permutations {ours} (range {lo}-{hi}); the paper's {paper} lies outside that range, and its sd "
            f"is below the spread the visiting order gives here{more}; still flagged")


#: OGD's step on w8a and ijcnn1: the paper's grid's largest
_LU5_OGD_ETA = "; the chosen eta = 2 is the largest of the paper's grid {2, 0.2, ..., 0.0002}"


#: (table, row label, data-set label) -> (reason, what supports it).  Only rows whose gap is flagged are looked up.
EXPLAINED = {
    (_LU5, "NOGD", "spambase"): ("unexplained", "with the authors' sign(0) = +1 (every row of this table) and the "
                                                "mistake counter reading margins within their error bound as 0, NOGD "
                                                "is near the paper's 29.1; counting by the sign of every computed "
                                                "margin it gave 3.3 points more (the results file at 0851d27), not "
                                                "explained"),
    (_LU5, "Forgetron", "a9a"): ("authors-code", "the authors' forgetron.m takes the larger root when a < 0 "
                                                  "(phi > 1); the row 'Forgetron [code]' (variant='authors') gives "
                                                  "27.94 where the paper's rule gives 29.82 (paper 27.8; "
                                 + _LU5_FILE + ")"),
    (_LU5, "Projectron++", "a9a"): ("authors-code", _PROJ),
    (_LU5, "Projectron++", "ijcnn1"): ("authors-code", _PROJ),
    (_LU5, "Projectron++", "w8a"): ("authors-code", _PROJ),
    (_LU5, "BOGD", "a9a"): ("authors-code", _BOGD),
    (_LU5, "BOGD", "w8a"): ("authors-code", _BOGD),
    (_LU5, "BOGD", "ijcnn1"): ("authors-code", _BOGD),
    (_LU5, "BOGD [code]", "w8a"): ("degenerate", "at eta = 0.2, the step whose a9a and ijcnn1 rows meet the paper's, "
                                                  "the pass errs 3.44 (mean over 20 seeds), the paper's 3.43: its "
                                                  "final models give the majority class to >= 99 % of the rows and "
                                                  "its error is within a point of w8a's minority share (2.97), so it "
                                                  "counts as the constant classifier (the passes at eta <= 0.02 are "
                                                  "it exactly); the best non-constant point is eta = 2 (4.91)"),
    **{(_LU5, _alg, _ds): ("unexplained", _lu5_unbudgeted(*_nums)) for (_alg, _ds), _nums in {
        ("Perceptron", "w8a"): ("3.64 ± 0.05", "3.56", "3.72", "3.47 ± 0.01", ""),
        ("OGD", "w8a"): ("2.64 ± 0.03", "2.58", "2.69", "2.81 ± 0.01", _LU5_OGD_ETA),
        ("OGD", "ijcnn1"): ("9.94 ± 0.07", "9.83", "10.19", "9.52 ± 0.01", _LU5_OGD_ETA)}.items()},
    (_LU5, "NOGD", "ijcnn1"): ("degenerate", _nogd_at_paper_step(
        "9.55", " and next to ijcnn1's minority share 9.57: the paper's run is this near-constant one")),
    (_LU5, "NOGD", "w8a"): ("degenerate", _nogd_at_paper_step("2.92", " (w8a's minority share 2.97)")),
    (_LU5, "Projectron++ [code]", "w8a"): (
        "numerics", "w8a repeats many rows: the authors' code adds a point already in the span while fewer than B SVs "
                    "are held unless delta^2 is exactly 0, and a computed delta^2 is rounding noise there, so K^-1 grows "
                    "by ~1e16; refsvm's own K^-1 version of this reading (until 9d365ce) gave 5.69 +- 1.45, range "
                    "2.72-8.37, over the 20 permutations, like the paper's 5.41 +- 3.30; with the span test decided to "
                    "its error bound (a Cholesky factor of K) the same reading gives the value shown"),
    (_LU5, "RBP", "german"): ("data", _GERMAN),
    (_LU5, "Forgetron", "german"): ("data", _GERMAN),
    (_LU5, "BOGD", "german"): ("data", _GERMAN),
    (_LU5, "BOGD [code]", "german"): ("data", _GERMAN),
    (_LU5, "Projectron++ [code]", "german"): ("data", _GERMAN),
    ("qaadan2019-table2", "BSGD", "ADULT"): ("parameters", _ADULT_OFFSET),
    ("qaadan2019-table2", "Projectron", "ADULT"): ("paper-worse-than-constant",
                                                   "the paper's Projectron on ADULT (25.65 % accuracy, 74.35 % "
                                                   "error) is worse than predicting the majority class (23.62 % "
                                                   "error on a9a.t); ours learns"),
}
for _m in ("remove", "project", "merge"):
    for _b in (100, 500):
        EXPLAINED[("wang2012-table3", f"BPegasos+{_m} B={_b}", "Adult")] = ("parameters", _ADULT_OFFSET)
#: Table 3's IJCNN column at Glasmachers & Qaadan's (C, gamma) against Table 4's protocol (wang2012-table3-all:
#: standardised, C = 1, gamma by 5-fold CV); the numbers quoted: the committed results (tests/reproduce/
#: test_glasmachers_table2.py checks them)
_W3_IJCNN = ("the paper's cross-validated (C, sigma) are not printed; this table runs Glasmachers & Qaadan's "
             "C = 2^5, gamma = 2 on ijcnn1 as distributed; under Table 4's protocol (standardised features, C = 1, "
             "gamma by 5-fold CV of BPegasos+merge on the training split) ")
EXPLAINED[("wang2012-table3", "BPegasos+remove B=100", "IJCNN")] = (
    "parameters", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+remove B=100", "9.30", "9.27"))
EXPLAINED[("wang2012-table3", "BPegasos+project B=100", "IJCNN")] = (
    "parameters", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+project B=100", "4.16", "3.52"))
EXPLAINED[("wang2012-table3", "BPegasos+remove B=500", "IJCNN")] = (
    "unexplained", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+remove B=500", "8.04", "6.7")
    + ", closer but still flagged there")
for _m in ("remove", "project", "merge"):
    for _b in (100, 500):
        EXPLAINED[("wang2012-table5", f"BPegasos+{_m} B={_b}", "Covertype")] = (
            "data", "the shared covtype.first10000 holds 10,000 of covtype's 581,012 rows (7,500 for training "
                    "here, about 0.5M in the paper): a budgeted learner's error falls with the stream's length")
for _b in (100, 500):
    EXPLAINED[("wang2012-table5", f"BMP+merge B={_b}", "Covertype")] = EXPLAINED[
        ("wang2012-table5", f"BPegasos+merge B={_b}", "Covertype")]
for _row, _paper_rows in (("Pegasos", "136K (its run was stopped after 10,000 s)"),
                          ("LIBSVM", "a 100K subset")):
    EXPLAINED[("wang2012-table5", _row, "Covertype")] = (
        "data", f"the shared covtype.first10000 holds 10,000 of covtype's 581,012 rows: 7,500 for training here, "
                f"{_paper_rows} in the paper (Table 5's subscripts, Table 3's caption); a non-budgeted kernel "
                f"machine's error falls with the training set too, and the rows that would test it are not in the "
                f"shared data (covtype.bz2 would enable it)")
_WEB = ("the paper's WEB has 17,188 training rows (its Table 1), the size of LIBSVM's w6a (17,188 training / 32,561 "
        "test rows), which is not in the shared data (w6a and w6a.t would enable it); this table trains on 37,311 rows "
        "of w8a and tests on the other 12,438 (a fixed random 75/25 split): another training and test set of the "
        "same web pages' features")
#: ADULT at the paper's gamma = 2^-7: the seeds whose last offset drifts (benchmarks/bench_glasmachers_adult_offset.py;
#: the range quoted is its committed result's, checked by tests/reproduce/test_glasmachers_table2.py)
_G2_ADULT = ("20 seeds where the paper has 5 runs: with the paper's gamma = 2^-7 every a9a kernel value lies in "
             "[0.80, 1], each step moves the decision function nearly like a bias, and on two of the 20 visiting "
             "orders (seeds 15 and 17, in every row) the last iterate's offset ends far from the best one: test "
             "errors of 26-48 %, which pull the mean up; the models themselves are as good as the paper's, their "
             "best-offset test error is 15.04-15.67 % where the paper's rows have 15.72-16.26 % "
             "(benchmarks/results/bench_glasmachers_adult_offset.txt, a diagnostic that reads the test labels); "
             "the medians are 0.2-1.8 points above the paper's, and five runs miss such an order with "
             "probability (18/20)^5 = 0.59")
for _s in ("GSS-precise", "GSS-standard", "Lookup-h", "Lookup-WD"):
    for _b in (100, 500):
        EXPLAINED[("glasmachers-lookup-table2", f"{_s} B={_b}", "WEB")] = ("data", _WEB)
        EXPLAINED[("glasmachers-lookup-table2", f"{_s} B={_b}", "ADULT")] = ("protocol", _G2_ADULT)


#: Qaadan et al.'s Table 2 rows flagged in its 2-seed run, rerun at the table's 20 seeds
#: (benchmarks/results/reproduce_qaadan2019-table2_flagged.*; the numbers quoted are checked against it by
#: tests/reproduce/test_glasmachers_table2.py)
_Q2_FLAGGED = ("qaadan2019-table2 --algorithms Perceptron OGD RBP BOGD --seeds 20, "
               "benchmarks/results/reproduce_qaadan2019-table2_flagged.txt")
EXPLAINED[("qaadan2019-table2", "OGD", "IJCNN")] = (
    "parameters", "the paper's runs use the LSOKL toolbox's settings, which it does not print; the table picks "
                  "OGD's eta from Lu et al.'s grid by mean test error (eta = 2: 2.31 over 20 seeds), and the "
                  "paper's 5.41 lies between the grid's eta = 0.2 (3.60) and eta = 0.02 (8.73) (" + _Q2_FLAGGED
                  + "): a smaller step than the grid's best")

_LU9 = "lu2016-table9"
_LU9_EPSILON = ("the paper's Algorithms 5 and 6 (refsvm.ogd) update when the squared loss exceeds epsilon = 0.1; the "
                "authors' FouGD.m / NysGD.m when |y - f| > 0.1, i.e. a squared loss above 0.01, so the paper's rule "
                "updates far less often; the row '{0} [code]' runs the code's test (epsilon = 0.01) beside this one")
_LU9_BOGD = ("Zhao et al.'s BOGD (refsvm.online.regression_bogd) removes a uniformly drawn SV and rescales the others "
             "by B (1 - eta lambda) / (B - 1), 1.031 at B = 30, eta = 0.1, lambda = 0.03 (clipped at eta "
             "gamma_BOGD = 1); the authors' regression/BOGD.m removes the oldest SV and never rescales; on "
             "[0, 1]-scaled data, where every Gaussian kernel value at sigma = 8 is near 1, the paper's rule loses "
             "more than 1.5 times the code's reading; the row 'BOGD [code]' (variant='authors') runs the "
             "code's rule beside this one")
for _ds in ("housing", "abalone", "cpusmall", "cadata"):
    for _row in ("FOGD", "NOGD"):
        EXPLAINED[(_LU9, _row, _ds)] = ("authors-code", _LU9_EPSILON.format(_row))
    EXPLAINED[(_LU9, "BOGD", _ds)] = ("authors-code", _LU9_BOGD)


_QF = {1: ("BSGD B=500", "BSCA B=500"), 2: ("BSGD B=500", "BSCA B=500"), 3: ("BSGD B=500", "BSCA B=500"),
       4: ("SGD (no budget)", "SCA (no budget)"), 5: ("BSGD B=200", "BSCA B=200"), 6: ("BSCA B=200", "BSCA B=500"),
       7: ("BSCA B=200", "BSCA B=500")}
for _i, _labels in _QF.items():
    for _label in _labels:
        for _ds in ("ADULT", "IJCNN"):
            EXPLAINED[(f"qaadan2019-figure{_i}", _label, _ds)] = (
                "reference", "the paper column is the exact SVM's accuracy (its Table 1); the figures print no "
                             "numbers, and the text says the budgeted curves come 'nearly indistinguishable' from it "
                             "(B = 500) and that B = 200 is too small on IJCNN for BSCA (Figure 5); ours run 5 epochs"
                             + (" on 8,000 training rows" if _i == 4 else "")
                             + ("; " + _ADULT_OFFSET if _ds == "ADULT" else ""))
#: Table 3's GSS factor read as the ratio of the summed WDs (mean over the seeds of the committed result's
#: factor_sum["gss"]; tests/reproduce/test_glasmachers_table2.py checks it), and the paper's printed factor
_G3_FACTOR_SUM = {"ADULT": "1.1623", "WEB": "1.0009"}
_T3_FACTOR_GSS = {"ADULT": "1.05064", "WEB": "1.00255"}
#: GSS-standard's merging seconds over its total training seconds (%), B = 100 / 500: the mean over the seeds of
#: glasmachers-lookup-figure3's merge seconds over glasmachers-lookup-table3's totals (committed results; checked
#: by tests/reproduce/test_glasmachers_table2.py)
_G3_GSS_SHARE = {"IJCNN": ("7.0", "3.8"), "ADULT": ("62.2", "42.3"), "WEB": ("6.0", "6.5"), "PHISHING": ("22.5", "10.6")}
#: merges per step (%) at (data, B): refsvm over all passes (mean over the seeds), the authors' BSGD over all
#: passes, refsvm's first pass, the authors' first pass (benchmarks/results/bench_glasmachers_merge_frequency_peer
#: .json; checked by tests/reproduce/test_glasmachers_table2.py)
_G3_PEER_FREQ = {("IJCNN", 100): ("3.62", "3.69", "5.47", "5.45"), ("IJCNN", 500): ("2.77", "2.75", "4.27", "4.16"),
                 ("ADULT", 100): ("24.78", "25.02", "21.44", "21.54"), ("ADULT", 500): ("24.90", "24.93", "20.27", "20.29"),
                 ("WEB", 100): ("2.83", "2.82", "3.03", "3.05"), ("WEB", 500): ("2.68", "2.68", "1.91", "1.97"),
                 ("PHISHING", 100): ("13.57", "13.65", "13.40", "13.44"),
                 ("PHISHING", 500): ("7.71", "7.56", "4.08", "3.73")}
_LOOKUP_TIME = ("refsvm's implementation, not the paper's, is timed: lookup can save at most GSS's share of the "
                "training time, and here GSS merging takes {0} % of it at B = 100 and {1} % at B = 500 (Figure 3's "
                "merge seconds over this table's totals, glasmachers-lookup-figure3 / -table3 JSON): refsvm's margins "
                "are compiled and its GSS prunes partners (docs/lookup.rst, 'Partner pruning'), so that share is not "
                "the paper's; python benchmarks/bench_lookup.py --no-pruning times the paper's GSS")
for _ds in ("IJCNN", "ADULT", "WEB", "PHISHING"):
    for _b in (100, 500):
        for _label in ("Lookup-h vs GSS %", "Lookup-WD vs GSS %"):
            EXPLAINED[("glasmachers-lookup-table3", f"{_label} B={_b}", _ds)] = (
                "protocol", _LOOKUP_TIME.format(*_G3_GSS_SHARE[_ds]))
        EXPLAINED[("glasmachers-lookup-table3", f"merging freq. % B={_b}", _ds)] = (
            "authors-code-agrees",
            "merges per step over the 20 passes, as the paper defines it ('the fraction of SGD iterations in which "
            "merging occurs'); the authors' released BSGD (JUQad/BudgetedSdualSVM, whose merge routine carries this "
            "paper's algorithm-line comments and GSS / lookup switches; built outside the repository), run on the "
            "same splits with the paper's C and gamma for 20 passes, merges at {1} % of its steps where refsvm "
            "merges at {0} % (its first pass: {3} %, refsvm's: {2} %; benchmarks/results/bench_glasmachers_merge_frequency_peer"
            ".txt): the paper's count is not what its code counts".format(*_G3_PEER_FREQ[(_ds, _b)]))
    if _ds in _G3_FACTOR_SUM:
        EXPLAINED[("glasmachers-lookup-table3", "factor GSS B=100", _ds)] = (
            "convention", "the paper does not say whether its factor is the mean of the per-event factors "
                          "WD_GSS / WD_GSS-precise (the row) or the ratio of the summed WDs; the mean is dominated "
                          "by events whose least WD is nearly 0 (after many passes, merges of near-duplicate pairs), "
                          "where GSS's bracket of 0.01 costs a tiny WD but a large factor; the ratio of the summed "
                          f"WDs is {_G3_FACTOR_SUM[_ds]} over the seeds (factor_sum in the results JSON), where the "
                          f"paper has {_T3_FACTOR_GSS[_ds]}")
    EXPLAINED[("glasmachers-lookup-table3", "equal decisions % B=100", _ds)] = (
        "protocol", "comparison mode compares Lookup-WD's partner with GSS-precise's (the paper: with GSS's)")
_W6_10M = "wang2012-table6-10m, benchmarks/results/reproduce_wang2012-table6-10m.json"
_W6_FACTOR = "wang2012-table6-10m-factor"
EXPLAINED[("wang2012-table6", "BPegasos+project B=500", "Checkerboard")] = (
    "data", "the stream has 10,000 examples here, 10M in the paper: on this board the row recomputes its kept inverse "
            "(O(B^3)) at nearly every step, about 1 ms per example, so it is not run on longer streams with it (about "
            "3 hours per 10M-example pass; wang2012-table6-10m lists it as not run); with the compiled path's kept "
            "Cholesky factor (kept='factor', the same algorithm solved another way) on the paper's 10M examples "
            + _cites(_W6_FACTOR, "BPegasos+project B=500", "99.77 ± 0.04 % accuracy", "99.66 ± 0.10",
                     via="BPegasos+project B=500 (kept factor)") + ", within the gap rule")
#: the kept factor's B = 100 row at 10M repeats the kept inverse's row seed for seed (the same errors, E-bar to rounding;
#: tests/reproduce/test_wang_chunked.py): it takes that row's reason
SAME_ROW_RUNS[(_W6_FACTOR, "BPegasos+project B=100 (kept factor)", "Checkerboard")] = (
    "wang2012-table6-10m", "BPegasos+project B=100", "Checkerboard")
#: Table 6 on 1M examples, rows whose 10M rerun (wang2012-table6-10m) stays flagged: the stream's length is not the
#: reason (numbers: the committed results, checked by tests/reproduce/test_wang_chunked.py)
#: merging's golden-section tolerance: the authors' group's BudgetedSVM searches h to 1e-4 (src/bsgd.cpp), the tables
#: to 0.01; wang2012-table6-10m-gss reruns the 10M merging rows at 1e-4 (numbers checked by
#: tests/reproduce/test_wang_chunked.py)
_W6_GSS = "wang2012-table6-10m-gss"
_W6_GSS_TEXT = ("the authors' group's toolbox, BudgetedSVM (released after the paper), searches merging's h to a "
                "tolerance of 1e-4 (src/bsgd.cpp: goldenSectionSearch(..., 0.0001); the paper prints none), the "
                "tables to 0.01 (Glasmachers & Qaadan's 'GSS'); when a fresh SV "
                "(coefficient eta_t) merges into one carrying many merged examples, an error in h costs the heavy "
                "SV's weight, so E_t = ||Delta_t|| / eta_t grows along the stream at 0.01")
_W6_GSS_ROWS = {"BPegasos+merge B=100": ("0.036", "0.037", "1.10", "0.45"),
                "BPegasos+merge B=500": ("0.0026", "0.002", "0.23", "0.26")}


def _w6_gss(row):
    """What the authors' tolerance gives for a Table 6 merging row: E-bar and the error at 10M (wang2012-table6-10m-gss)."""
    ebar, ebar_paper, ours, paper = _W6_GSS_ROWS[row]
    return (f"{_W6_GSS_TEXT}; at 1e-4 over the paper's 10M examples E-bar stays at {ebar} (the paper {ebar_paper}) and "
            + _cites(_W6_GSS, row, ours, paper, via=f"{row} eps=1e-4"))


for _row, _t10, _what in (
        ("BPegasos+project B=100", "98.72 ± 0.24", "closes part of the gap (1M: 98.62 ± 0.15)"),
        ("BPegasos+merge B=100", "97.78 ± 0.47", "does not close it (1M: 98.11 ± 0.23)"),
        ("BPegasos+merge B=500", "99.56 ± 0.04", "closes most of it (1M: 99.34 ± 0.08)")):
    EXPLAINED[("wang2012-table6", _row, "Checkerboard")] = (
        "authors-code" if _row == "BPegasos+merge B=500" else "unexplained",
        f"the stream has 1M examples here, 10M in the paper; on the paper's 10M examples the row gives "
        f"{_t10} % accuracy over 5 seeds ({_W6_10M}): the stream's length {_what}, and the 10M row "
        f"is flagged too" + (f"; {_w6_gss(_row)}" if _row in _W6_GSS_ROWS else "")
        + ("; still flagged" if _row == "BPegasos+merge B=100" else ""))


def _w6_removal_ties(sd, seeds, in_sd, more):
    """Table 6's removal at B = 100 (1M or 10M examples): its spread, ``sd`` over our ``seeds`` seeds, and the gap in
    sd of the difference of two runs (``in_sd``), then ``more``."""
    return ("ties", "in BPegasos every SV's ||alpha_j||^2 is 2/(lambda t)^2 in exact arithmetic (sec. 6.1; footnote "
                    "11: 'arbitrary removal'), so which SV is removed follows rounding, in the paper's runs as here: "
                    f"both spread widely (sd {sd} over our {seeds} seeds, 3.05 over the paper's 5 runs) and the gap, "
                    f"ours ahead, is {in_sd} sd of the difference of two runs, flagged by the 2-point rule only{more}")


EXPLAINED[("wang2012-table6-10m", "BPegasos+remove B=100", "Checkerboard")] = _w6_removal_ties(
    "2.17", 5, "0.7", "; no tie rule was rerun at 10M (Table 4's removal rows: bench_wang_removal_ties)")
EXPLAINED[("wang2012-table6", "BPegasos+remove B=100", "Checkerboard")] = _w6_removal_ties(
    "2.01", 20, "0.7", "; the paper's 79.19 % lies within our 20 seeds' range (78.00-85.49 %), and the paper's "
                       "10M examples give the same (81.84 ± 2.17 over 5 seeds, " + _W6_10M + "; 1M: 81.88 ± 2.01); no tie rule was "
                       "rerun on this stream (Table 4's removal rows: bench_wang_removal_ties)")
EXPLAINED[("wang2012-table6-10m", "BPegasos+project B=100", "Checkerboard")] = (
    "unexplained", "the stream's length closes part of wang2012-table6's gap (1M: 98.62 ± 0.15; 10M: 98.72 ± 0.24; "
                   "the paper 99.25 ± 0.06), E-bar 0.073 against the paper's 0.052 ± 0.007; the rest is not explained")
EXPLAINED[("wang2012-table6-10m", "BPegasos+merge B=100", "Checkerboard")] = (
    "unexplained", "the accuracy does not grow along the stream (seed 0: 97.75 % at 100K, 97.80 at 1M, 97.45 at 10M) "
                   "while E-bar grows from 0.039 at 100K (the paper's 10M value: 0.037) to 1.72 at 10M; "
                   + _w6_gss("BPegasos+merge B=100") + ": the tolerance explains E-bar's growth and two thirds of the "
                   "accuracy gap, still flagged")
EXPLAINED[("wang2012-table6-10m", "BPegasos+merge B=500", "Checkerboard")] = (
    "authors-code", "99.56 ± 0.04 % over 5 seeds (range 99.50-99.62), 0.18 points below the paper's 99.74 ± 0.08, "
                    "just over 2 sd of the difference of two runs; E-bar grows along the stream as at B = 100 "
                    "(seed 0: 0.003 at 100K, 0.089 at 10M; the paper 0.002); " + _w6_gss("BPegasos+merge B=500"))
EXPLAINED[("wang2012-figure7", "BPegasos+project B=10", "USPS")] = (
    "parameters", "the paper chose sigma and lambda by 10-fold CV per algorithm and budget and printed neither; "
                  "here gamma = 1/d, the CV choice of wang2012-table4 for BPegasos+merge at B = 100, for both rows")
EXPLAINED[("wang2012-table6", "BPegasos+merge B=100 [footnote 8]", "Checkerboard")] = (
    "parameters", "footnote 8's kernel exp(-sigma ||x - x'||^2) with sigma = 0.0625 is ~4 cells wide on the 4 x 4 "
                  "board and predicts about one class; the table's rows read sigma as exp(-||x - x'||^2 / "
                  "(2 sigma^2)), gamma = 128 (refsvm.reproduce.tables_wang)")


_W4_OWN_CV = "benchmarks/results/reproduce_wang2012-table4-own-cv.json"


def _w4_own_cv(s, ours, paper):
    """A Table 4 row whose gap a cross-validation of its own closes (wang2012-table4 runs every row of a budget at
    the gamma BPegasos+merge's CV chose; the paper cross-validated every data set, algorithm and budget)."""
    return ("parameters", f"wang2012-table4 runs this row at the gamma BPegasos+merge's CV chose; with a 5-fold CV of "
                          f"its own (gamma = {s}/d) the row gives {ours} where the paper has {paper} "
                          f"(wang2012-table4-own-cv, {_W4_OWN_CV})")


for _row, _ds, _s, _ours, _paper in (("BPegasos+project B=500", "USPS", 1, "8.35", "7.39"),
                                     ("BPegasos+remove B=100", "Letter", 64, "59.94", "58.50"),
                                     ("BPegasos+project B=100", "Satimage", 4, "12.92", "12.31")):
    EXPLAINED[("wang2012-table4", _row, _ds)] = _w4_own_cv(_s, _ours, _paper)
#: at 3 seeds the own CV closed DNA's gap (23.30); at 20 it does not
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "DNA")] = (
    "unexplained", _w4_own_cv(4, "26.73", "21.37")[1] + ", still flagged; the removal's choice among SVs of equal "
                   "norm is rounding noise (refsvm's removed the SV just added in 94-96 % of the events at gamma = "
                   "1/d): ties broken towards the SV just added give 19.06 and BudgetedSVM cce05ffc on the same passes "
                   "20.07 where the computed choice gives 27.71 over 3 seeds (benchmarks/results/"
                   "bench_wang_removal_ties.json); the first is just over 2 points below the paper's")

_W4_FINE = "wang2012-table4-fine-grid"
_W4_COARSE = ("wang2012-table4's CV grid steps gamma by a factor 4 (s in {1/4, 1, 4, 16}) and its 5-fold CV of "
              "BPegasos+merge B=500 chooses s = 4; with a grid twice as fine the same CV chooses gamma = ")


def _w4_fine(s, ours, paper, still=False):
    """A Table 4 row at B = 500's gamma run again at the gamma a CV over a grid twice as fine chooses
    (wang2012-table4-fine-grid): "parameters" when that closes the gap, else "unexplained" with what it gives."""
    return ("unexplained" if still else "parameters",
            _W4_COARSE + f"{s}/d and the row gives {ours} where the paper has {paper} ({_W4_FINE}, "
            f"benchmarks/results/reproduce_{_W4_FINE}.txt)" + (", still flagged" if still else ""))


EXPLAINED[("wang2012-table4", "BPegasos+merge B=500", "USPS")] = _w4_fine(2, "7.62", "7.09")
EXPLAINED[("wang2012-table4", "BMP+merge B=500", "USPS")] = _w4_fine(2, "7.27", "6.90")
_W4_PEGASOS = "wang2012-table4-pegasos-cv"
EXPLAINED[("wang2012-table4", "Pegasos", "USPS")] = (
    "unexplained", _w4_fine(2, "6.57", "5.59", still=True)[1] + "; a 5-fold CV of Pegasos' own chooses the table's "
                   "gamma = 4/d (" + _W4_PEGASOS + ", benchmarks/results/reproduce_" + _W4_PEGASOS + ".txt)")
EXPLAINED[("wang2012-table4", "Pegasos", "Letter")] = EXPLAINED[(_W4_FINE, "Pegasos", "Letter")] = (
    "parameters", "the table runs Pegasos at BPegasos+merge B=500's gamma = 4/d; with a 5-fold CV of its own (gamma = "
                  "16/d: without a budget the model takes a narrower kernel) the row gives 4.07 where the paper has "
                  "3.72 (" + _W4_PEGASOS + ", benchmarks/results/reproduce_" + _W4_PEGASOS + ".txt)")
_W4_RADIUS = "wang2012-table4-bmp-radius"
EXPLAINED[("wang2012-table4", "BMP+merge B=500", "Letter")] = (
    "parameters", "ours errs less than the paper's row, at the level of the paper's BPegasos+merge B=500 (10.32) and "
                  "of ours (10.07), as the paper says the two compare on most sets; a CV grid of gamma twice as fine "
                  "chooses the same gamma = 4/d (" + _W4_FINE + ": the row gives 10.36 there too); BMP's radius U = "
                  "sqrt(n C), which the paper cross-validated and does not print, moves the row onto the paper's "
                  "value: the row 'BMP+merge B=500 C=0.25' (U = sqrt(n/4)) gives 11.51 where the paper has 11.78, "
                  "while at the table's U = sqrt(n) the ball never binds (C = 4 gives the table's run seed for seed, "
                  "10.36; " + _W4_RADIUS + ", benchmarks/results/reproduce_" + _W4_RADIUS + ".txt); which U the "
                  "paper's CV chose is not known")

EXPLAINED[(_W4_FINE, "BMP+merge B=500", "Letter")] = EXPLAINED[("wang2012-table4", "BMP+merge B=500", "Letter")]
EXPLAINED[(_W4_RADIUS, "BMP+merge B=500 C=4", "Letter")] = (
    "parameters", "the ball of radius U = sqrt(4n) never binds on Letter, nor does table 4's U = sqrt(n): the row is "
                  "wang2012-table4's run seed for seed; the smaller radius of the row 'BMP+merge B=500 C=0.25' gives "
                  "the paper's number (wang2012-table4, BMP+merge B=500, Letter)")
_W4_SVC = "wang2012-table4-libsvm-cv"
EXPLAINED[("wang2012-table4", "LIBSVM", "USPS")] = (
    "unexplained", "the table runs LIBSVM at BPegasos+merge B=500's gamma = 4/d and C = 1, where the paper chose "
                   "LIBSVM's sigma and C by CV: with gamma and C by a 5-fold CV of its own (gamma = 1/d, C = 10) the row "
                   "gives 5.23 where the paper has 4.73 (" + _W4_SVC + ", benchmarks/results/reproduce_" + _W4_SVC
                   + ".txt), a gap like the other data sets' LIBSVM rows, still flagged (a deterministic row: any gap)")

_W4_TIES = "benchmarks/results/bench_wang_removal_ties.json"


def _w4_ties(computed, share, newest, paper, stop, peer):
    """A Table 4 removal row whose gap the tie rule of removal closes (bench_wang_removal_ties.py)."""
    return ("ties", f"in BPegasos every SV's ||alpha_j||^2 is 2/(lambda t)^2 in exact arithmetic (sec. 6.1; footnote "
                    f"11: 'arbitrary removal'), so the argmin is decided by the rounding of the repeated scaling: "
                    f"refsvm's removed the SV just added in {share} % of the events and gives {computed} over its "
                    f"3 seeds (the table row: 5 seeds); ties broken towards the SV just added (the model when the "
                    f"budget first fills, the paper's MP+stop rule with Pegasos' steps; paper MP+stop {stop}) give "
                    f"{newest} where the paper has {paper}; BudgetedSVM cce05ffc on the same passes (its argmin, its "
                    f"rounding) {peer} ({_W4_TIES})")


EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "Pendigits")] = _w4_ties("13.08", "55-58", "6.40", "8.16",
                                                                                "11.73", "10.93")
EXPLAINED[("wang2012-table4", "BPegasos+remove B=500", "Letter")] = _w4_ties("36.67", "57-58", "28.89", "28.03",
                                                                             "32.68", "36.93")
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")] = (
    "unexplained", "the removal's choice among SVs of equal norm is rounding noise (refsvm's removed the SV just "
                   "added in 75 % of the events): ties broken towards the SV just added give 22.95 (range 19.48-24.71 "
                   "over 3 seeds), the oldest 35.51, a random SV 31.97, BudgetedSVM cce05ffc 38.58, the computed "
                   "choice 35.69 (the table's row: 35.32 over 20 seeds); the paper's 19.84 is within the first's "
                   "range but the mean stays 3.1 points off (" + _W4_TIES
                   + "); at gamma = 16/d, the choice of a cross-validation of this row alone, the computed choice "
                     "gives 25.27 (wang2012-table4-own-cv, 20 seeds), still flagged")

for _row in ([f"BPegasos+{_m} B={_b}" for _m in ("remove", "project", "merge") for _b in (100, 500)]
             + ["BMP+merge B=100", "BMP+merge B=500", "Pegasos", "LIBSVM"]):
    EXPLAINED[("wang2012-table3-all", _row, "Checkerboard")] = (
        "data", "the table trains on 20,000 generated Checkerboard rows where the paper's online learners see 10M "
                "(LIBSVM a 100K subset); on this board accuracy grows with the stream (wang2012-table6 at 1M rows, "
                "benchmarks/bench_checkerboard_stream.py at 10M)")

#: The Gauss column's one draw of test rows (wang2012-table3-all, -table3-norma): the Bayes classifier's error on it
#: and over the distribution, % (benchmarks/bench_bayes_floor.py)
_GAUSS_DRAW = ("19.95", "18.49", "1.46")


def _gauss_test_draw(within):
    """A Gauss row of Table 3 set against the Bayes floor of its test rows; ``within``: whether the row, less the
    draw's excess, meets the gap rule (tests/reproduce/test_bayes_floor.py checks both)."""
    rows, population, excess = _GAUSS_DRAW
    return ("the paper drew the test rows anew in each repetition (section 7.3); this table scores every seed on one "
            f"draw of 2,000 generated rows, on which the Bayes classifier of the mixture errs {rows} % where it errs "
            f"{population} % over the distribution (benchmarks/results/bench_bayes_floor.txt): less that draw's "
            f"excess of {excess} points the row is " + ("within the gap rule" if within else "still flagged"))


for _row in ("BPegasos+project B=100", "BPegasos+project B=500", "BPegasos+merge B=100", "BPegasos+merge B=500",
             "Pegasos", "LIBSVM"):
    EXPLAINED[("wang2012-table3-all", _row, "Gauss")] = ("data", _gauss_test_draw(True))
for _row in ("BPegasos+remove B=100", "BPegasos+remove B=500"):
    EXPLAINED[("wang2012-table3-all", _row, "Gauss")] = ("unexplained", _gauss_test_draw(False))
for _row in ("BNorma+merge B=100", "BNorma+merge B=500", "Norma"):
    EXPLAINED[("wang2012-table3-norma", _row, "Gauss")] = ("data", _gauss_test_draw(True))

#: wang2012-table3-norma's IJCNN rows: (row, the committed run's range of the final models' majority share, %)
_W3N_IJCNN = (("BNorma+merge B=100", "99.06-99.52"), ("BNorma+merge B=500", "99.41-99.80"), ("Norma", "99.15-99.39"))
for _row, _share in _W3N_IJCNN:
    EXPLAINED[("wang2012-table3-norma", _row, "IJCNN")] = (
        "degenerate", f"every grid point ends with a model predicting one class: the table's runs (eta = 1, the CV's "
                      f"choice) give the majority class to {_share} % of the test rows over the seeds, and a pass at "
                      "eta = 1/sqrt(2) (seed 0) too; with lambda = 1/n (C = 1) and eta <= 1, Norma shrinks w by "
                      "2 eta lambda sqrt(n) < 0.01 over the pass and adds almost every example with a coefficient "
                      "eta / sqrt(t) (BudgetedSVC's eta note: the majority vote on ijcnn1); the paper cross-validated "
                      "lambda and printed none")

_LU7 = "lu2016-table7"
_LU7_CODE = "benchmarks/results/reproduce_lu2016-table7_code.txt"


def _lu7_code(row, what, ours, paper):
    """A Table 7 row whose gap the authors' reading closes: the code's rule and what its '[code]' row gives."""
    return ("authors-code", f"{what}; the row '{row} [code]' runs that reading (variant='authors'): {ours} where the "
                            f"paper has {paper} ({_LU7_CODE})")


_LU7_BOGD = ("the authors' code bounds the whole coefficient vector by rescaling it and updates at y f <= 1 "
             "(refsvm.online.bogd, as in Table 5)")
EXPLAINED[(_LU7, "BOGD", "satimage")] = _lu7_code("BOGD", _LU7_BOGD, "47.62", "48.2")
EXPLAINED[(_LU7, "BOGD", "letter")] = _lu7_code("BOGD", _LU7_BOGD, "92.59", "92.7")
EXPLAINED[(_LU7, "Projectron++", "satimage")] = _lu7_code(
    "Projectron++", "the authors' code fills the budget first and uses U = 1/4 sqrt((B+1)/ln(B+1)) in the margin "
    "condition where the paper has 1/eta (as in Table 5)", "26.21", "25.9")

_LU7_MNIST = "benchmarks/results/reproduce_lu2016-table7-mnist200.txt"


def _lu7_mnist_budget(ours, paper, via=None):
    """A Table 7 mnist row whose gap B = 200 closes: section 7.3.1's "B = 200 for the first 3 datasets" read in
    Table 7's column order (dna, mnist, satimage); ``via``: the row of that run quoted (default: the same)."""
    return ("parameters", "section 7.3.1's B = 200 for 'the first 3 datasets' read in Table 7's column order (dna, "
                          f"mnist, satimage) gives mnist B = 200, not 100: at B = 200 {f'the row {via!r}' if via else 'the row'} "
                          f"gives {ours} where the paper has {paper} (lu2016-table7-mnist200, {_LU7_MNIST})")


for _row, _ours, _paper, _via in (("RBP", "43.20", "43.4", None), ("Projectron", "17.87", "17.7", None),
                                  ("Projectron++", "17.87", "17.7", None), ("BPA-S", "32.64", "32.4", None),
                                  ("NOGD", "16.21", "15.6", None), ("Forgetron [code]", "43.97", "43.9", None),
                                  ("Forgetron", "43.97", "43.9", "Forgetron [code]"),
                                  ("Projectron [code]", "17.88", "17.7", None),
                                  ("Projectron++ [code]", "17.70", "17.7", None)):
    EXPLAINED[(_LU7, _row, "mnist")] = _lu7_mnist_budget(_ours, _paper, _via)


_PEER_CELLS = "benchmarks/results/bench_wang_peer_cells.json"


def _peer_cell(peer, ours):
    """A cell of wang2012-table5 rerun by BudgetedSVM (benchmarks/bench_wang_peer_cells.py): its error and ours
    over the same 20 visiting orders, data, gamma and lambda."""
    return (f"BudgetedSVM (the authors' toolbox, cce05ffc, its merging and tolerance; built outside the repository) "
            f"on the table's rows, visiting orders, gamma and lambda errs {peer} over 20 seeds where refsvm's pass "
            f"(the table's run, seed for seed) errs {ours} ({_PEER_CELLS})")


_W5_LONG = "wang2012-table5-waveform-long"
_W5_LONG_TEXT = ("the table trains on 20,000 generated Waveform rows at lambda = 1/n (the paper: 2M rows, lambda by "
                 "CV, not printed); on 1M rows at the same gamma ")
EXPLAINED[("wang2012-table5", "BPegasos+merge B=500", "Waveform")] = (
    "data", _W5_LONG_TEXT + "and lambda = 1e-4 (the paper's value for its other long stream, Table 6) "
    + _cites(_W5_LONG, "BPegasos+merge B=500", "13.44", "13.37", via="BPegasos+merge B=500 C=0.01")
    + "; at lambda = 1/n the long stream gives 17.28: the stream's length and lambda together close the gap")
EXPLAINED[("wang2012-table5", "BPegasos+merge B=100", "Waveform")] = (
    "authors-code", _W5_LONG_TEXT + "and lambda = 1e-4 "
    + _cites(_W5_LONG, "BPegasos+merge B=100", "15.06", "13.29", via="BPegasos+merge B=100 C=0.01")
    + " with the tables' golden-section tolerance (0.01 on h), and with the authors' code's (1e-4, BudgetedSVM "
      "src/bsgd.cpp, see wang2012-table6-10m-gss) "
    + _cites(_W5_LONG, "BPegasos+merge B=100", "13.64", "13.29", via="BPegasos+merge B=100 C=0.01 eps=1e-4")
    + "; at lambda = 1/n 23.01: the stream's length, lambda and the tolerance together close the gap; "
    + _peer_cell("15.22 +- 0.34", "15.50") + ": on the short stream the tolerance alone does not")

_W5_PEGASOS = "wang2012-table5-waveform-pegasos"
EXPLAINED[("wang2012-table5", "Pegasos", "Waveform")] = (
    "data", "the table trains on 20,000 generated Waveform rows at lambda = 1/n (the paper: 2M rows, its non-budgeted "
            "runs stopped after 10,000 s, lambda by CV, not printed); on wang2012-figure4's 1M-row stream at lambda = "
            "1e-4 the same unbudgeted learner errs 15.61 after 10,000 examples, 14.04 after 50,000 and 13.75 +- 0.11 "
            "after 100,000 where the paper has 13.50 (" + _W5_PEGASOS + ", benchmarks/results/reproduce_"
            + _W5_PEGASOS + ".txt), within the gap rule; the Bayes classifier errs 13.36 on those test rows "
            "(benchmarks/results/bench_bayes_floor.txt)")

EXPLAINED[("wang2012-table5", "BPegasos+merge B=100", "Shuttle")] = (
    "authors-code-agrees",
    _peer_cell("0.24 +- 0.13, median 0.19", "0.19 +- 0.04, median 0.18")
    + ", and in none of the 20 seeds within the paper's 0.37 +- 2 sd (two seeds at 0.58 and 0.61, the rest at "
      "0.14-0.26; per seed in the JSON): at the table's gamma and lambda the paper's number is not what the "
      "released code measures (the paper's cross-validated sigma and lambda are not printed)")
EXPLAINED[("wang2012-table5", "BMP+merge B=100", "Waveform")] = (
    "unexplained", _W5_LONG_TEXT + "and U = sqrt(n C) = 100 (lambda = 1e-4) "
    + _cites(_W5_LONG, "BMP+merge B=100", "15.80", "13.98", via="BMP+merge B=100 C=0.01")
    + ", with the authors' golden-section tolerance (1e-4) "
    + _cites(_W5_LONG, "BMP+merge B=100", "15.43", "13.98", via="BMP+merge B=100 C=0.01 eps=1e-4")
    + ", at U = 1000 (lambda = 1/n) 25.16: the stream's length does not close it, still flagged")


_LU7_OPTIONS = ("the authors' multiclass/Experiment.m runs one setting, not the paper's grid: eta = 0.5 (OGD, "
                "NOGD, BOGD; BOGD lambda = 1e-5, gamma = inf; FOGD eta = 0.005); at those options ")
_LU7_OPTIONS_RUN = "lu2016-table7-code-options"
_LU7_BOGD_OPTIONS = "and BOGD.m's rule (as in Table 5) "
for _row, _ds, _ours, _paper, _via in (("OGD", "mnist", "11.08", "10.7", None),
                                       ("OGD", "shuttle", "12.30", "12.3", None),
                                       ("NOGD", "shuttle", "12.30", "12.3", None),
                                       ("FOGD", "dna", "19.78", "20.8", None),
                                       ("BOGD [code]", "dna", "36.48", "36.3", None),
                                       ("BOGD", "dna", "36.48", "36.3", "BOGD [code]"),
                                       ("BOGD [code]", "mnist", "42.48", "42.5", None),
                                       ("BOGD", "mnist", "42.48", "42.5", "BOGD [code]")):
    EXPLAINED[(_LU7, _row, _ds)] = ("parameters", _LU7_OPTIONS + (_LU7_BOGD_OPTIONS if _via else "")
                                    + ("(mnist at B = 200, lu2016-table7-mnist200's reading) " if _ds == "mnist"
                                       and _row != "OGD" else "") + _cites(_LU7_OPTIONS_RUN, _row, _ours, _paper, _via))
for _row in ("BOGD", "BOGD [code]"):
    EXPLAINED[(_LU7, _row, "shuttle")] = (
        "degenerate", "every grid point ends with a model predicting one class (the online error of the "
                      "majority class, 21.59); " + _LU7_OPTIONS + (_LU7_BOGD_OPTIONS if _row == "BOGD" else "")
        + _cites(_LU7_OPTIONS_RUN, _row, "27.99", "27.9", "BOGD [code]" if _row == "BOGD" else None)
        + ", a run whose final model predicts one class too: the paper's number is no result either")
_FOGD_STEP_RUN = "lu2016-table7-fogd-step"
_FOGD_STEPS = ("the paper does not print FOGD's step; the authors' released multiclass scripts run FOGD off the "
               "paper's grid: Experiment.m at eta_fou = 0.005 (lu2016-table7-code-options) with options.eta = 0.5 "
               "for the kernel learners, Experiment_B.m at eta_fou = 0.001, Experiment_large.m with no eta_fou, only "
               "options.eta = 0.5; ")
_FOGD_LARGE = ("at a step as large as 0.5 the hinge's margin of 1 is small beside the scores and FOGD is about a "
               "Perceptron on the Fourier features, as the paper's FOGD row is about its Perceptron row (satimage "
               "29.5 / 29.6, usps 10.1 / 10.0, letter 71.5 / 71.5, shuttle 15.6 / 15.2) where the grid's best step "
               "makes fewer mistakes; at eta = 0.5 ")
for _ds, _ours, _paper in (("satimage", "29.44", "29.5"), ("usps", "10.58", "10.1"), ("shuttle", "15.58", "15.6")):
    EXPLAINED[(_LU7, "FOGD", _ds)] = (
        "parameters", _FOGD_STEPS + _FOGD_LARGE + ("(usps at lu2016-table7-usps-width's gamma = 0.65/128, the width "
                                                   "matched to the paper's data) " if _ds == "usps" else "")
        + _cites(_FOGD_STEP_RUN, "FOGD", _ours, _paper, "FOGD eta=0.5"))
EXPLAINED[(_LU7, "FOGD", "mnist")] = (
    "parameters", _FOGD_STEPS + "at Experiment_B.m's eta_fou = 0.001 " + _cites(_FOGD_STEP_RUN, "FOGD", "12.26",
                                                                                "11.8", "FOGD eta=0.001")
    + "; the grid's best point, 0.002, gives 12.57 and the authors' eta_fou = 0.005 at B = 200 gives 14.20 "
      "(lu2016-table7-code-options), eta = 0.5 gives 17.09: on mnist the paper's FOGD is not the Perceptron-like "
      "run")

_PROJ_NUMERICS = "benchmarks/results/bench_lu_projectron_numerics.txt"
_PROJ_KINV = ("the authors' multiclass/proplus.m grows K^-1 by the rank-one formula on every mistake while fewer than B "
              "SVs are held, dividing by delta^2 whatever it is (no test); ")
EXPLAINED[(_LU7, "Projectron++ [code]", "dna")] = (
    "numerics", _PROJ_KINV + "dna.scale repeats 86 of its 2,000 rows, a repeated row's computed delta^2 is rounding "
                "noise and K^-1 gains entries of ~1e13-1e16: a numpy run of that reading gives 28.09 +- 11.83, range "
                "19.65-53.55, over 20 permutations (13 add such a row), a spread like the paper's 23.1 +- 6.1 (its "
                "Projectron 22.7 +- 4.4); with additions at delta^2 <= 1e-8 skipped the same reading gives 20.89 +- "
                "0.71, as refsvm's row, which decides the span test to its error bound (" + _PROJ_NUMERICS + ")")
EXPLAINED[(_LU7, "Projectron++", "dna")] = (
    "numerics", "the paper's row is the authors' code's run (" + EXPLAINED[(_LU7, "Projectron++ [code]", "dna")][1]
    + "); refsvm's paper reading decides the span test to its error bound too")
EXPLAINED[(_LU7, "Projectron++ [code]", "shuttle")] = (
    "unexplained", _PROJ_KINV + "on shuttle at sigma = 8 every permutation adds rows at delta^2 <= 1e-8 (near "
                   "each other, not repeated): a numpy run of that reading gives 13.76 +- 2.04, range 13.18-22.44, "
                   "over 20 permutations, and 18.46 +- 7.31 with those additions skipped, where the paper has 16.8 "
                   "+- 0.5 (" + _PROJ_NUMERICS + "), still flagged")
_READINGS_RUN = "lu2016-table7-readings"
EXPLAINED[(_LU7, "Projectron++ [code]", "shuttle")] = (
    "unexplained", EXPLAINED[(_LU7, "Projectron++ [code]", "shuttle")][1] + "; ruled out as well: MATLAB's tie rule "
    "(the lowest class index wins, as the code's max): " + _cites(_READINGS_RUN, "Projectron++ [code]", "13.31", "16.8",
                                                                  "Projectron++ [code] tie=lowest")
    + "; features min-max onto [0, 1] in place of [-1, 1]: " + _cites(_READINGS_RUN, "Projectron++ [code]", "20.77",
                                                                      "16.8", "Projectron++ [code] rescaled")
    + ", but that scaling moves the rows that match at [-1, 1] off: "
    + _cites(_READINGS_RUN, "BPA-S", "22.40", "14.1", "BPA-S rescaled"))
EXPLAINED[(_LU7, "Projectron++", "shuttle")] = EXPLAINED[(_LU7, "Projectron++ [code]", "shuttle")]

_USPS_RUN = "lu2016-table7-usps-width"
_USPS = ("the shared usps is ESL's zip.train (ESL's [-1, 1] scaling); LIBSVM's usps, the paper's, is another [-1, 1] "
         "rescaling of the same digits (data/SOURCES.md); at gamma = 0.65/128, i.e. squared pixel distances 0.65 "
         "times the shared file's, the width at which the Perceptron (no parameter to tune) gives the paper's "
         "10.0, ")
for _row, _ours, _paper, _via in (("Perceptron", "10.02", "10", None), ("OGD", "6.72", "6.7", "OGD eta=0.5"),
                                  ("RBP", "24.18", "24", None), ("Forgetron", "22.52", "22.7", None),
                                  ("Projectron", "11.01", "10.6", None), ("Projectron [code]", "11.01", "10.6", None),
                                  ("BOGD [code]", "23.84", "23.2", "BOGD [code] eta=0.5"),
                                  ("BOGD", "23.84", "23.2", "BOGD [code] eta=0.5")):
    EXPLAINED[(_LU7, _row, "usps")] = ("data", _USPS + ("with the authors' Experiment.m step size (as "
                                                        "lu2016-table7-code-options) " if _via else "")
                                       + _cites(_USPS_RUN, _row, _ours, _paper, _via))
_USPS_ROWS_RUN = "lu2016-table7-usps-row-widths"
for _row, _ours, _paper, _f, _at, _perceptron in (("BPA-S", "19.43", "15.4", "1.5", "15.25", "7.68"),
                                                  ("Forgetron [code]", "24.90", "22.7", "0.8", "22.35", "9.30")):
    EXPLAINED[(_LU7, _row, "usps")] = (
        "unexplained", _USPS + f"the row gives {_ours} where the paper has {_paper} (lu2016-table7-usps-width); it "
                       f"gives the paper's number at gamma = {_f}/128 instead ({_row} gamma x{_f}: {_at}), where "
                       + _cites(_USPS_ROWS_RUN, "Perceptron", _perceptron, "10", f"Perceptron gamma x{_f}")
                       + ": no one width of the shared file gives both, so the data's difference is more than a "
                         "width, still flagged")
#: lu2016-table7-readings on usps: (row, tie=lowest, rescaled, the B = 100 row quoted, its number)
for _row, _tie, _scaled, _b100, _at in (("BPA-S", "17.67", "17.52", "BPA-S B=100", "26.33"),
                                        ("Forgetron [code]", "20.24", "20.27", "Forgetron B=100", "27.94")):
    _paper = "15.4" if _row == "BPA-S" else "22.7"
    EXPLAINED[(_LU7, _row, "usps")] = (
        "unexplained", EXPLAINED[(_LU7, _row, "usps")][1] + "; nor do other readings at gamma = 1/128: MATLAB's tie "
        "rule (the lowest class index wins, as the code's max): " + _cites(_READINGS_RUN, _row, _tie, _paper,
                                                                           f"{_row} tie=lowest")
        + "; each pixel column min-max onto [-1, 1] (svm-scale, a rescaling LIBSVM's usps might carry): "
        + _cites(_READINGS_RUN, _row, _scaled, _paper, f"{_row} rescaled") + "; B = 100 (section 7.3.1 read in "
        "Table 7's column order, the reading that gives mnist B = 200): " + _cites(_READINGS_RUN, _row, _at, _paper,
                                                                                    _b100))
EXPLAINED[(_LU9, "BOGD [code]", "cpusmall")] = (
    "parameters", "the authors' regression/Experiment.m gives OGD.m and BOGD.m their own step size (options.eta, "
                  "marked as tuned per data set beside lambda, Fou_eta and Epsilon_eta; the other learners take "
                  "eta_perceptron = 0.1); with it tuned over (0.1, 0.2, 0.3, 0.5, 1) the best, eta = 0.3, "
    + _cites("lu2016-table9-eta", "BOGD [code]", "0.04872", "0.04972"))


def _paper_sd(row):
    return (row.get("paper") or {}).get("std")


def is_flagged(row, table=None):
    """True when the row's gap to the paper is larger than chance allows (see the module docstring); in a
    table of :data:`RELATIVE_GAP` (``table``: its name), when it exceeds that fraction of the paper's number."""
    paper = (row.get("paper") or {}).get("mean")
    if paper is None or not row.get("available", True) or row.get("error_mean") is None:
        return False
    gap = abs(row["error_mean"] - paper)
    if table in RELATIVE_GAP:
        return gap > RELATIVE_GAP[table] * abs(paper)
    if gap > GAP_POINTS:
        return True
    s_paper = _paper_sd(row)
    if s_paper is None:
        return False
    return gap > GAP_SDS * math.hypot(s_paper, row.get("error_std") or 0.0)


def gap_reason(table, row):
    """``(reason, text)`` for a flagged row of ``table`` (a name), ``None`` for a row that is not flagged."""
    if not is_flagged(row, table):
        return None
    paper = row["paper"]["mean"]
    minority = row.get("minority_share")
    if minority is not None and abs(paper - minority) <= 0.01:
        return "paper-constant", (f"the paper's {paper:g} % is the minority share of the data ({minority:.2f} %): "
                                  f"its run predicted one class")
    key = (table, row["algorithm"], row["dataset"])
    explained = EXPLAINED.get(SAME_ROW_RUNS.get(key, (SAME_RUNS.get(table, table),) + key[1:]))
    if explained is not None:
        return explained
    errors = [s["error"] for s in row.get("per_seed") or () if "error" in s]
    if _paper_sd(row) is None and errors and min(errors) <= paper <= max(errors):
        return "paper-run", (f"the paper's single run ({paper:g}) lies within our range "
                             f"[{min(errors):.2f}, {max(errors):.2f}] over {len(errors)} seeds")
    return "unexplained", REASONS["unexplained"]
