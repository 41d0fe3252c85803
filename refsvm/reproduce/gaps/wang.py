"""The stated reasons of Wang, Crammer & Vucetic (2012)'s rows (Tables 3-6, Figures 2-7): part of
:data:`refsvm.reproduce.gaps.EXPLAINED`, and the rows of its companion runs that are another run's
seed for seed (:data:`SAME_ROW_RUNS`, merged into :data:`refsvm.reproduce.gaps.SAME_ROW_RUNS`)."""

from ._common import _ADULT_OFFSET, _cites


#: (table, row label, data-set label) -> (reason, what supports it)
EXPLAINED = {}
#: (table, row, data set) -> (table, row, data set) whose runs these are, seed for seed
SAME_ROW_RUNS = {}
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
    "parameters", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+remove B=100", "9.43", "9.27"))
EXPLAINED[("wang2012-table3", "BPegasos+project B=100", "IJCNN")] = (
    "parameters", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+project B=100", "3.63", "3.52"))
#: wang2012-table3-all-own-cv: a row of Table 3 with gamma and C (lambda = 1/(n C)) by a 5-fold CV of its own, as
#: section 7.3 chose sigma and lambda per data set, algorithm and budget (numbers: the committed run, checked by
#: tests/reproduce/test_wang_table3_own_cv.py)
_W3_OWN_CV = "wang2012-table3-all-own-cv"


#: wang2012-table3-adult-own-cv: the same for Adult's Pegasos and projection at B = 500, which that table does not run
_W3_ADULT_OWN_CV = "wang2012-table3-adult-own-cv"


def _w3_own_cv(row, s, c, ours, paper, run=_W3_OWN_CV):
    """What ``row``'s own CV of gamma = s/d and C gives in ``run`` (wang2012-table3-all-own-cv or -adult-own-cv):
    within the gap rule."""
    return (f"with gamma and C (lambda = 1/(n C)) by a 5-fold CV of its own (gamma = {s}/d, C = {c}; section 7.3 "
            f"cross-validated sigma and lambda per data set, algorithm and budget) " + _cites(run, row, ours, paper)
            + ", within the gap rule")


EXPLAINED[("wang2012-table3", "BPegasos+remove B=500", "IJCNN")] = (
    "parameters", _W3_IJCNN + _cites("wang2012-table3-all", "BPegasos+remove B=500", "8.22", "6.7")
    + ", within the gap rule there over its 20 seeds")
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
#: wang2012-table4-own-cv's rows whose own CV chose the gamma wang2012-table4 runs them at: the same runs seed for seed
#: (tests/reproduce/test_lu_figures.py compares the committed per-seed errors of every SAME_ROW_RUNS pair)
SAME_ROW_RUNS.update({("wang2012-table4-own-cv", _row, _ds): ("wang2012-table4", _row, _ds)
                      for _row, _ds in (("BPegasos+merge B=500", "USPS"), ("BPegasos+remove B=100", "Pendigits"))})
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
#: benchmarks/bench_wang_table6_peer.py: BudgetedSVM on wang2012-table6's own 1M-example streams (the table's rows in
#: each seed's order, its lambda, gamma and test rows): the toolbox's and refsvm's test error (%) over the bench's seeds
#: as the committed run prints them (tests/reproduce/test_wang_table6_peer.py checks them)
_W6_PEER = "benchmarks/results/bench_wang_table6_peer.txt"
_W6_PEER_ROWS = {"BPegasos+merge B=100": dict(seeds="0-7", peer="2.18 ± 0.22", peer_range="1.91-2.41",
                                              ours="1.89 ± 0.26", paper="0.45 ± 0.14")}


def _w6_peer(row):
    """A Table 6 row rerun by the authors' toolbox on the table's streams (bench_wang_table6_peer)."""
    c = _W6_PEER_ROWS[row]
    return (f"BudgetedSVM (the authors' group's toolbox, cce05ffc, its own merging and golden-section tolerance 1e-4; "
            f"built outside the repository) on the table's own 1M-example streams (the same rows in the same "
            f"orders, lambda, gamma and test rows) errs {c['peer']} (range {c['peer_range']}) over seeds {c['seeds']} "
            f"where refsvm's pass (the table's run, seed for seed) errs {c['ours']}; the paper has {c['paper']} on 10M "
            f"examples ({_W6_PEER})")


EXPLAINED[("wang2012-table6", "BPegasos+merge B=100", "Checkerboard")] = (
    "authors-code-agrees", _w6_peer("BPegasos+merge B=100") + "; "
    + EXPLAINED[("wang2012-table6", "BPegasos+merge B=100", "Checkerboard")][1].replace("; still flagged", ""))
EXPLAINED[("wang2012-table6-10m", "BPegasos+merge B=100", "Checkerboard")] = (
    "unexplained", EXPLAINED[("wang2012-table6-10m", "BPegasos+merge B=100", "Checkerboard")][1].replace(
        ", still flagged", "; on the paper's 10M examples the toolbox was not run (at 1M it errs as refsvm does: "
        + _w6_peer("BPegasos+merge B=100") + "), still flagged"))
#: the 10M rerun at the authors' tolerance: its B = 100 row is the rest of that row's gap (its text, from the rerun's
#: side; tests/reproduce/test_wang_chunked.py checks the quoted numbers)
EXPLAINED[(_W6_GSS, "BPegasos+merge B=100 eps=1e-4", "Checkerboard")] = (
    "unexplained", "wang2012-table6-10m's row at the authors' golden-section tolerance (1e-4 on h): "
                   + _w6_gss("BPegasos+merge B=100") + "; at the tables' 0.01 the same 10M stream errs "
                   "2.22 (wang2012-table6-10m): the tolerance explains E-bar's growth and two thirds of the accuracy "
                   "gap, the rest is not explained; on the paper's 10M examples the toolbox was not run (at 1M it "
                   "errs as refsvm does: " + _w6_peer("BPegasos+merge B=100") + "), still flagged")
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
#: wang2012-libsvm-cv: the LIBSVM rows of Tables 3-5 with gamma = s/d and C by a 5-fold CV of LIBSVM's own, and the
#: lowest test error over the same grid (a bound: chosen on the test split).  (table, data set) -> (s, C, the CV row's
#: error, the bound, the paper's error), as the committed run prints them (tests/reproduce/test_wang_libsvm_cv.py
#: checks every number and the verdict)
_LIBSVM_CV = "wang2012-libsvm-cv"
_LIBSVM_CV_ROWS = {
    ('wang2012-table3-all', 'Banana'): (1, 10, "10.30", "10.00", "9.30"),
    ('wang2012-table4', 'DNA'): (1, 10, "4.22", "3.79", "4.68"),
    ('wang2012-table4', 'Satimage'): (4, 10, "9.05", "8.10", "8.45"),
    ('wang2012-table4', 'USPS'): (1, 100, "5.03", "5.03", "4.73"),
    ('wang2012-table4', 'Pendigits'): (4, 10, "2.09", "1.60", "1.77"),
    ('wang2012-table4', 'Letter'): (4, 10, "2.62", "2.56", "2.38"),
    ('wang2012-table5', 'Shuttle'): (1, 100, "0.14", "0.14", "0.10"),
}
#: a gap of the CV row within this many points (the gap rule's GAP_POINTS) with the bound at or below the paper's
#: number: a point of the grid gives the paper's number, so an unprinted (C, sigma) accounts for the gap
_LIBSVM_POINTS = 2.0


#: benchmarks/bench_banana_splits.py: LIBSVM on Banana over 20 random 4,300 / 1,000 splits of the shared file's 5,300
#: rows (the tables cut one, split_seed 12345).  Row of the bench -> (mean, sd, min, max) of its test error, %, as the
#: committed run prints them (tests/reproduce/test_wang_libsvm_cv.py checks them and that the paper's number lies in
#: both ranges): "table" at wang2012-table3-all's setting held fixed, "own CV" with a 5-fold CV of its own per split
_BANANA_SPLITS = "benchmarks/results/bench_banana_splits.txt"
_BANANA_SPLIT_ROWS = {"table": ("9.66", "0.76", "8.50", "11.20"), "own CV": ("9.69", "0.76", "8.40", "11.20")}
#: the (table, data set) whose LIBSVM gap the split accounts for -> the bench's row that reruns it
_SPLIT_EXPLAINED = {("wang2012-table3-all", "Banana"): "table", (_LIBSVM_CV, "Banana"): "own CV"}
#: benchmarks/bench_letter_splits.py: LIBSVM on Letter at wang2012-libsvm-cv's CV choice with the paper's 16K training
#: rows: (the 16,000 / 4,000 split in UCI's row order, and the mean, sd, min and max over 20 random 16,000 / 4,000
#: splits), test error %, as committed (tests/reproduce/test_wang_libsvm_cv.py checks them)
_LETTER_SPLITS = "benchmarks/results/bench_letter_splits.txt"
_LETTER_SPLIT_ROW = ("2.43", "2.46", "0.32", "1.93", "3.05")
#: the (table, data set) whose LIBSVM gap Letter's split accounts for
_LETTER_SPLIT_EXPLAINED = {("wang2012-table4", "Letter"), (_LIBSVM_CV, "Letter")}


def _banana_split(row):
    """The split's part of a LIBSVM Banana gap (bench_banana_splits): the tables' split is one random draw."""
    mean, sd, lo, hi = _BANANA_SPLIT_ROWS[row]
    setting = ("at the table's setting (C = 1, gamma = 16/d) held fixed" if row == "table"
               else "with a 5-fold CV of its own on each split")
    return ("the shared banana has no test file, so the tables cut one random split of its 5,300 rows into 4,300 "
            "training and 1,000 test rows, where the paper's split is not known (on 1,000 test rows one row is 0.1 "
            "point and the binomial standard error of a 10 % error about 0.95 point); over 20 other random splits of "
            f"the same rows the row errs {mean} +- {sd} (range {lo}-{hi}) {setting}, a range that holds the paper's "
            f"number and this split's ({_BANANA_SPLITS})")


#: benchmarks/bench_libsvm_wider_grid.py: the bound row of wang2012-libsvm-cv over a wider grid where that run's bound
#: stays above the paper's number at the grid's largest C.  Data set -> (the lowest test error, %, its point), as the
#: committed run prints them (tests/reproduce/test_wang_libsvm_cv.py checks them)
_WIDER_GRID = "benchmarks/results/bench_libsvm_wider_grid.txt"
_WIDER_GRID_ROWS = {"USPS": ("5.03", "C=100, gamma_scale=1"), "Letter": ("2.56", "C=100, gamma_scale=4"),
                    "Shuttle": ("0.11", "C=100, gamma_scale=0.5")}


def _wider(ds, paper):
    """The wider grid's bound on ``ds`` (bench_libsvm_wider_grid): ``(whether it reaches paper, the text)``."""
    best, point = _WIDER_GRID_ROWS[ds]
    reached = float(best) <= float(paper)
    return reached, (f"; over a wider grid, C in {{100, 1000, 10000}} x gamma = s/d with s in {{1/2, 1, 2, 4, 8}} "
                     f"({_WIDER_GRID}), the bound is {best} (at {point}), "
                     + ("at or below the paper's: a (C, gamma) beyond the first grid gives the paper's number"
                        if reached else "still above the paper's"))


def _letter_split():
    """The split's part of a LIBSVM Letter gap (bench_letter_splits): the paper trained on 16K rows."""
    uci, mean, sd, lo, hi = _LETTER_SPLIT_ROW
    return ("the paper heads Letter with 16K training rows where the shared files split UCI's 20,000 rows 15,000 / "
            "5,000, so its test rows are others; at the CV's setting the 16,000 / 4,000 split in UCI's row order (if "
            f"LIBSVM's files keep it) gives {uci}, and 20 random 16,000 / 4,000 splits give {mean} +- {sd} (range "
            f"{lo}-{hi}), a range that holds the paper's number ({_LETTER_SPLITS})")


#: wang2012-table5-shuttle-binary: Table 5's Shuttle column on two classes, as the paper's header (43K, 9, 2) gives the
#: set: (the own-CV LIBSVM row's gamma scale, C and error, the shared-setting LIBSVM row's error, the merging B = 100
#: row's mean and sd), as the committed run prints them (tests/reproduce/test_wang_libsvm_cv.py checks them)
_SHUTTLE_BINARY = "wang2012-table5-shuttle-binary"
_SHUTTLE_BINARY_ROWS = ("0.25", "100", "0.10", "0.14", "0.14 +- 0.02")


def _shuttle_binary():
    """The data's part of a LIBSVM Shuttle gap: the paper's Shuttle has two classes."""
    s, c, ours, _, _ = _SHUTTLE_BINARY_ROWS
    return ("Table 5's header gives Shuttle as (43K, 9, 2): two classes, where the shared file keeps UCI's seven; on "
            f"class 1 against the rest, with gamma and C by a 5-fold CV of its own (gamma = {s}/d, C = {c}), "
            + _cites(_SHUTTLE_BINARY, "LIBSVM", ours, "0.10", via="LIBSVM [own CV]"))


#: wang2012-table4-usps-raw (20 seeds) and wang2012-table4-usps-raw-bound: Table 4's USPS column on the shared file's
#: pixels as distributed ([-1, 1]) instead of standardised.  Row -> its mean +- sd (range) there, as committed; the
#: bound row: (the lowest test error, its point) (tests/reproduce/test_wang_table4_usps_raw.py checks them)
_W4_RAW = "wang2012-table4-usps-raw"
_W4_RAW_BOUND = "wang2012-table4-usps-raw-bound"
_W4_RAW_ROWS = {"BPegasos+remove B=100": ("25.10 ± 3.61", "19.23-35.97"), "BPegasos+project B=500": ("6.39 ± 0.37", ""),
                "BPegasos+merge B=100": ("7.16 ± 0.26", ""), "BPegasos+merge B=500": ("5.89 ± 0.41", ""),
                "BMP+merge B=500": ("5.82 ± 0.21", ""), "Pegasos": ("5.46 ± 0.25", ""), "LIBSVM": ("4.93", "")}
_W4_RAW_BEST = ("4.33", "C = 10, gamma = 2/d")
_W4_RAW_SCALING = (
    "the shared usps is ESL's zip.train / zip.test, whose [-1, 1] pixels are another rescaling than LIBSVM's usps, "
    "the paper's (data/SOURCES.md), and Table 4's USPS rows hang on the pixels' scaling by more than this gap: "
    "on the pixels as distributed instead of standardised (section 7.2: 'scaled to mean 0 and standard deviation 1'), "
    "under the table's protocol, ")
_W4_RAW_BETWEEN = ("; on those pixels the budgeted rows at B = 500 and merging at B = 100 err about a point less than "
                   "the paper's (BPegasos+merge B=500: 5.89 ± 0.41, paper 7.09 ± 0.19) where on standardised pixels "
                   "they err more: the paper's numbers lie between the two readings of the shared file, and the "
                   "paper's own file is not in the shared data (usps from LIBSVM's site would enable it)")


def _usps_raw_libsvm():
    """The data's part of a LIBSVM USPS gap: the pixels' scaling (wang2012-table4-usps-raw and its bound)."""
    best, point = _W4_RAW_BEST
    return (_W4_RAW_SCALING + _cites(_W4_RAW, "LIBSVM", _W4_RAW_ROWS["LIBSVM"][0], "4.73") + " at the table's C = 1 "
            f"and gamma = 4/d, and the lowest test error over s in {{1, 2, 4, 8}} x C in {{1, 10, 100}} (a bound) is "
            f"{best} at {point}, below the paper's ({_W4_RAW_BOUND}, benchmarks/results/reproduce_{_W4_RAW_BOUND}.txt)"
            + _W4_RAW_BETWEEN)


def _bound_on_test(best):
    """The reason of a 'LIBSVM [best on test]' row: its point is chosen on the test split (``best``: its error)."""
    return ("protocol", f"the row's grid point is chosen on the test split (the lowest test error over the grid, "
                        f"{best}): a bound below which no (C, gamma) of the grid goes, not a result")


def _libsvm_cv(s, c, ours, best, paper, split=None, ds=None, run=_LIBSVM_CV):
    """A LIBSVM row of Wang et al.'s tables set against its own CV (wang2012-libsvm-cv): ``parameters`` when the CV's
    row is within 2 points of the paper's number and some point of the grid (or of the wider grid of
    bench_libsvm_wider_grid, data set ``ds``) reaches it; ``data`` when a random split of the data accounts for it
    (``split``: that account's text, from bench_banana_splits, bench_letter_splits or wang2012-table5-shuttle-binary);
    else ``unexplained``.  ``run``: the table that ran the CV (wang2012-libsvm-cv, or Adult's own)."""
    reached = float(best) <= float(paper) and abs(float(ours) - float(paper)) <= _LIBSVM_POINTS
    text = ("LIBSVM on a fixed split is deterministic, so its gap is one of settings or of the split: the table runs "
            "it at BPegasos+merge B=500's gamma and C = 1, where section 7.3 chose LIBSVM's sigma and C by 10-fold CV "
            f"and printed neither; with gamma and C by a 5-fold CV of its own (gamma = {s}/d, C = {c}) "
            + _cites(run, "LIBSVM", ours, paper) + "; the lowest test error over that grid (chosen on the test "
            f"split: a bound, not a result) is {best}, ")
    if reached:
        return "parameters", text + "at or below the paper's: a (C, gamma) of the grid gives the paper's number"
    text += "above the paper's" if float(best) > float(paper) else "but the CV's choice stays more than 2 points off"
    if ds in _WIDER_GRID_ROWS:
        wide, more = _wider(ds, paper)
        text += more
        if wide and abs(float(ours) - float(paper)) <= _LIBSVM_POINTS:
            return "parameters", text
    if split is not None:
        return "data", text + "; " + split
    return "unexplained", text + ", still flagged"


for (_table, _ds), _nums in _LIBSVM_CV_ROWS.items():
    for _t in (_table, _LIBSVM_CV):
        _split = (_banana_split(_SPLIT_EXPLAINED[(_t, _ds)]) if (_t, _ds) in _SPLIT_EXPLAINED
                  else _letter_split() if (_t, _ds) in _LETTER_SPLIT_EXPLAINED
                  else _shuttle_binary() if _ds == "Shuttle" else _usps_raw_libsvm() if _ds == "USPS" else None)
        EXPLAINED[(_t, "LIBSVM", _ds)] = _libsvm_cv(*_nums, split=_split, ds=_ds)
    EXPLAINED[(_LIBSVM_CV, "LIBSVM [best on test]", _ds)] = _bound_on_test(_nums[3])

#: wang2012-libsvm-cv-adult: wang2012-libsvm-cv's protocol on table3-all's Adult over s in {1/4, 1, 4} x C in {1, 10}
#: (s, C, the CV row's error, the bound, the paper's error), as the committed run prints them
#: (tests/reproduce/test_wang_libsvm_cv.py checks every number and the verdict)
_ADULT_CV = "wang2012-libsvm-cv-adult"
_ADULT_CV_ROW = (0.25, 1, "15.12", "15.12", "15.71")
for _t in ("wang2012-table3-all", _ADULT_CV):
    EXPLAINED[(_t, "LIBSVM", "Adult")] = _libsvm_cv(*_ADULT_CV_ROW, ds="Adult", run=_ADULT_CV)
EXPLAINED[(_ADULT_CV, "LIBSVM [best on test]", "Adult")] = _bound_on_test(_ADULT_CV_ROW[3])

#: wang2012-libsvm-bound: table3-all's LIBSVM row on IJCNN over s in {1, 4, 16} x C in {1, 10, 100}: (the lowest test
#: error, its point, the error at the table's C = 1 with s = 1), as committed (tests/reproduce/test_wang_libsvm_cv.py
#: checks them)
_IJCNN_BOUND = "wang2012-libsvm-bound"
_IJCNN_BOUND_ROW = ("1.24", "C=10, gamma_scale=1", "1.27")
EXPLAINED[("wang2012-table3-all", "LIBSVM", "IJCNN")] = (
    "parameters", "LIBSVM on a fixed split is deterministic, so its gap is one of settings or of the split: the table "
                  "runs it at BPegasos+merge B=500's gamma = 4/d and C = 1, within 2 points of the paper's, where "
                  "section 7.3 chose LIBSVM's sigma and C by 10-fold CV and printed neither; over gamma = s/d, s in "
                  "{1, 4, 16} x C in {1, 10, 100} the lowest test error (chosen on the test split: a bound, not a "
                  f"result; a CV of its own, 75 fits, was not run) is {_IJCNN_BOUND_ROW[0]} (at {_IJCNN_BOUND_ROW[1]}), "
                  f"and at the table's C = 1 with gamma = 1/d the row gives {_IJCNN_BOUND_ROW[2]} ({_IJCNN_BOUND}, "
                  f"benchmarks/results/reproduce_{_IJCNN_BOUND}.txt): at or below the paper's, a (C, gamma) of the "
                  "grid gives the paper's number")
EXPLAINED[(_IJCNN_BOUND, "LIBSVM [best on test]", "IJCNN")] = _bound_on_test(_IJCNN_BOUND_ROW[0])

_W4_TIES = "benchmarks/results/bench_wang_removal_ties.json"


#: the same bench at 20 seeds on the B = 100 cells of DNA and USPS (the table's 20 seeds, seed for seed)
_W4_TIES_20 = "benchmarks/results/bench_wang_removal_ties_b100.json"


def _w4_ties(computed, share, newest, paper, stop, peer, seeds="over the bench's 3 seeds (the table's row: 20 "
             "seeds)", source=_W4_TIES):
    """A Table 4 removal row whose gap the tie rule of removal closes (bench_wang_removal_ties.py)."""
    return ("ties", f"in BPegasos every SV's ||alpha_j||^2 is 2/(lambda t)^2 in exact arithmetic (sec. 6.1; footnote "
                    f"11: 'arbitrary removal'), so the argmin is decided by the rounding of the repeated scaling: "
                    f"refsvm's removed the SV just added in {share} % of the events and gives {computed} {seeds}; "
                    f"ties broken towards the SV just added (the model when the budget first fills, the paper's "
                    f"MP+stop rule with Pegasos' steps; paper MP+stop {stop}) give {newest} where the paper has "
                    f"{paper}; BudgetedSVM cce05ffc on the same passes (its argmin, its rounding) {peer} ({source})")


EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "Pendigits")] = _w4_ties("13.08", "55-58", "6.40", "8.16",
                                                                                "11.73", "10.93")
EXPLAINED[("wang2012-table4", "BPegasos+remove B=500", "Letter")] = _w4_ties("36.67", "57-58", "28.89", "28.03",
                                                                             "32.68", "36.93")
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "DNA")] = _w4_ties(
    "27.53", "94-99", "22.74", "21.37", "26.44", "23.01 (both within the gap rule)",
    seeds="over 20 seeds (the table's row, seed for seed)", source=_W4_TIES_20)
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")] = (
    "unexplained", "the removal's choice among SVs of equal norm is rounding noise (refsvm's removed the SV just "
                   "added in 73-76 % of the events): over the table's 20 seeds, ties broken towards the SV just added "
                   "give 25.06 (range 19.48-46.29), the oldest 34.39, a random SV 34.57, BudgetedSVM cce05ffc 35.10, "
                   "the computed choice 35.32 (the table's row, seed for seed); the paper's 19.84 is within the "
                   "first's range but its mean stays 5.2 points off (" + _W4_TIES_20
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


for _row in ("BPegasos+project B=100", "BPegasos+project B=500", "BPegasos+merge B=500", "Pegasos", "LIBSVM"):
    EXPLAINED[("wang2012-table3-all", _row, "Gauss")] = ("data", _gauss_test_draw(True))
#: (row, its worst seed at the table's shared setting, %, its own CV's s and C, its error there, the paper's) of the
#: Gauss rows that stay flagged less the draw's excess (the own CV's row "BPegasos+merge B=100" is within the gap rule
#: there only less the same excess: it says so)
for _row, _worst, _s, _c, _ours, _paper in (("BPegasos+remove B=100", "37.45", 4, 0.01, "21.69", "20.87"),
                                            ("BPegasos+remove B=500", "50.20", 16, 0.01, "20.20", "19.3"),
                                            ("BPegasos+merge B=100", "29.90", 4, 0.1, "19.80", "18.78")):
    EXPLAINED[("wang2012-table3-all", _row, "Gauss")] = (
        "parameters", _gauss_test_draw(False) + f"; at the table's shared gamma and C = 1 the row's worst seed errs "
                      f"{_worst} %; " + _w3_own_cv(_row, _s, _c, _ours, _paper)
                      + (" less the same draw's excess" if _row == "BPegasos+merge B=100" else ""))
for _row in ("BPegasos+project B=100", "BPegasos+merge B=100"):
    EXPLAINED[(_W3_OWN_CV, _row, "Gauss")] = ("data", _gauss_test_draw(True))
for _row, _s, _c, _ours, _paper in (("BPegasos+project B=100", 0.25, 0.1, "15.69", "16.12"),
                                    ("BPegasos+merge B=100", 1, 0.1, "15.52", "15.45")):
    EXPLAINED[("wang2012-table3-all", _row, "Adult")] = ("parameters", _w3_own_cv(_row, _s, _c, _ours, _paper))
for _row, _s, _c, _ours, _paper in (("Pegasos", 0.25, 0.1, "15.71", "15.98"),
                                    ("BPegasos+project B=500", 0.25, 0.1, "15.74", "16.16")):
    EXPLAINED[("wang2012-table3-all", _row, "Adult")] = (
        "parameters", _w3_own_cv(_row, _s, _c, _ours, _paper, run=_W3_ADULT_OWN_CV))
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

#: wang2012-table3-norma-own-cv: table3-norma's flagged BNorma+merge rows with gamma, C and eta by a 5-fold CV of their
#: own, Norma at B = 500's choice (numbers: the committed run, checked by tests/reproduce/test_wang_table3_norma_evidence.py)
_W3N_OWN_CV = "wang2012-table3-norma-own-cv"
#: (row, data set) -> (s, C, eta as printed, ours, paper)
_W3N_OWN_CV_ROWS = {("BNorma+merge B=100", "Banana"): ("4", "0.1", "1", "10.46", "8.47"),
                    ("BNorma+merge B=100", "Adult"): ("1", "1", "1", "16.07", "15.89"),
                    ("BNorma+merge B=500", "Adult"): ("1", "1", "1", "16.25", "16.2"),
                    ("Norma", "Adult"): ("1", "1", "1", "16.21", "16.35")}
for (_row, _ds), (_s, _c, _eta, _ours, _paper) in _W3N_OWN_CV_ROWS.items():
    EXPLAINED[("wang2012-table3-norma", _row, _ds)] = (
        "parameters", "the table takes table3-all's gamma and C = 1 and cross-validates eta only, where section 7.3 "
                      "cross-validated sigma, lambda and eta per data set, algorithm and budget; with gamma, C and eta "
                      + ("by a 5-fold CV of its own" if _row != "Norma" else "as BNorma+merge B=500's own 5-fold CV "
                         "chose them (as table3-all's Pegasos takes BPegasos+merge B=500's)")
                      + f" (gamma = {_s}/d, C = {_c}, eta = {_eta}) " + _cites(_W3N_OWN_CV, _row, _ours, _paper)
                      + ", within the gap rule")

#: wang2012-table3-norma-stream: Table 3's BNorma+merge rows on Table 6's 1M-example Checkerboard stream; per row and
#: eta, the mean test error at 20K, 300K and 1M examples (numbers: the committed run, checked by
#: tests/reproduce/test_wang_table3_norma_evidence.py)
_W3N_STREAM = "wang2012-table3-norma-stream"
_W3N_STREAM_AT = {("BNorma+merge B=100", "1"): ("6.40", "3.49", "2.93"), ("BNorma+merge B=100", "0.71"): ("6.63", "3.64", "3.16"),
                  ("BNorma+merge B=500", "1"): ("2.49", "0.85", "0.84"), ("BNorma+merge B=500", "0.71"): ("2.70", "0.90", "0.94")}
_W3N_PAPER = {"BNorma+merge B=100": "0.84", "BNorma+merge B=500": "0.28"}


def _w3n_stream(row):
    """What Table 6's stream gives ``row`` (BNorma+merge B=100 / 500) at both eta: its error at 20K and at 1M."""
    (a1, _, e1), (a2, _, e2) = _W3N_STREAM_AT[(row, "1")], _W3N_STREAM_AT[(row, "0.71")]
    return (f"on Table 6's stream (lambda = 1e-4, gamma = 128 on the unit square, 20 seeds) its error falls from "
            f"{a1} at 20K examples to {e1} at 1M with eta = 1 ({a2} to {e2} with eta = 1/sqrt(2)), where the paper "
            f"has {_W3N_PAPER[row]} after 10M ({_W3N_STREAM}, benchmarks/results/reproduce_{_W3N_STREAM}.txt)")


_W3N_DATA = ("the table trains on 20,000 generated Checkerboard rows where the paper's online learners see Table 6's "
             "10M examples (its Norma stopped after 730K); ")
for _row in ("BNorma+merge B=100", "BNorma+merge B=500"):
    EXPLAINED[("wang2012-table3-norma", _row, "Checkerboard")] = (
        "data", _W3N_DATA + _w3n_stream(_row) + ": the stream's length closes most of the gap; the rest stays flagged "
                                                "there")
EXPLAINED[("wang2012-table3-norma", "Norma", "Checkerboard")] = (
    "data", _W3N_DATA + "the non-budgeted Norma is not run on a longer stream (its SVs grow with it); its budgeted "
                        "row at B = 500, " + _w3n_stream("BNorma+merge B=500"))
#: wang2012-table6's BPegasos+merge rows on the same stream at 1M (committed run; the paper's 10M numbers)
_W6_MERGE_1M = {"BNorma+merge B=100": ("BPegasos+merge B=100", "1.89", "0.45"),
                "BNorma+merge B=500": ("BPegasos+merge B=500", "0.66", "0.26")}
for (_row, _eta), (_a, _b, _c) in _W3N_STREAM_AT.items():
    EXPLAINED[(_W3N_STREAM, f"{_row} eta={_eta}", "Checkerboard")] = (
        "unexplained", f"the stream has 1M examples here, 10M in the paper; the error is {_a} at 20K examples, "
                       f"{_b} at 300K and {_c} at 1M, where the paper has {_W3N_PAPER[_row]}; BPegasos with the same "
                       "merging on the same stream is off alike: "
                       + _cites("wang2012-table6", _W6_MERGE_1M[_row][0], *_W6_MERGE_1M[_row][1:]))

_PEER_CELLS = "benchmarks/results/bench_wang_peer_cells.json"


def _peer_cell(peer, ours, source=_PEER_CELLS):
    """A cell of wang2012-table5 rerun by BudgetedSVM (benchmarks/bench_wang_peer_cells.py): its error and ours
    over the same 20 visiting orders, data, gamma and lambda (``source``: the committed results file)."""
    return (f"BudgetedSVM (the authors' toolbox, cce05ffc, its merging and tolerance; built outside the repository) "
            f"on the table's rows, visiting orders, gamma and lambda errs {peer} over 20 seeds where refsvm's pass "
            f"(the table's run, seed for seed) errs {ours} ({source})")


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
#: wang2012-table5-bmp-own-cv: Table 5's BMP+merge rows on Waveform with gamma and U by a 5-fold CV of their own:
#: row -> (s, C, U = sqrt(n C) at n = 20,000, ours, paper), as the committed run prints them
#: (tests/reproduce/test_wang_table5_waveform.py checks every number and that the row is within the gap rule)
_W5_BMP_OWN_CV = "wang2012-table5-bmp-own-cv"
_W5_BMP_OWN_CV_ROWS = {"BMP+merge B=100": ("8", "0.1", "45", "14.43 ± 0.28", "13.98 ± 0.22"),
                       "BMP+merge B=500": ("8", "1", "141", "14.34 ± 0.27", "13.97 ± 0.17")}


def _w5_bmp_own_cv(row):
    """A Table 5 BMP+merge row on Waveform whose gap a CV of its own (gamma and the radius U) closes."""
    s, c, u, ours, paper = _W5_BMP_OWN_CV_ROWS[row]
    return ("wang2012-table5 runs BMP+merge at BPegasos+merge's gamma = 4/d and C = 1 (U = sqrt(n C) = 141 on its "
            "20,000 rows), where section 7.3 chose sigma and U per data set, algorithm and budget by 10-fold CV and "
            f"printed neither; with gamma and U by a 5-fold CV of its own (gamma = {s}/d, C = {c}, U = {u}) "
            + _cites(_W5_BMP_OWN_CV, row, ours, paper) + ", within the gap rule")


EXPLAINED[("wang2012-table5", "BMP+merge B=100", "Waveform")] = (
    "parameters", _w5_bmp_own_cv("BMP+merge B=100") + "; the stream's length alone does not close it: "
    + _W5_LONG_TEXT + "and U = sqrt(n C) = 100 (lambda = 1e-4) "
    + _cites(_W5_LONG, "BMP+merge B=100", "15.80", "13.98", via="BMP+merge B=100 C=0.01")
    + ", with the authors' golden-section tolerance (1e-4) "
    + _cites(_W5_LONG, "BMP+merge B=100", "15.43", "13.98", via="BMP+merge B=100 C=0.01 eps=1e-4")
    + ", at U = 1000 (lambda = 1/n) 25.16")
EXPLAINED[("wang2012-table5", "BMP+merge B=500", "Waveform")] = ("parameters", _w5_bmp_own_cv("BMP+merge B=500"))

#: wang2012-table5-waveform-long's own rows: the companion runs Table 5's Waveform rows on 1M rows at two lambdas
#: (and two merging tolerances), so its flagged rows are the settings that the main rows' reasons set against each
#: other: a row at lambda = 1/n (1e-6 here) or at the tables' tolerance takes the reason of the setting that closes
#: its gap, quoting it (as committed; tests/reproduce/test_wang_table5_waveform.py checks every quote)
_W5_LONG_LAMBDA = ("lambda = 1/n is 1e-6 on this 1M-row stream (the table's C = 1 carried over); section 7.3 chose "
                   "lambda by 10-fold CV and printed none for Waveform, and Table 6 prints 1e-4 for its other long "
                   "stream; at lambda = 1e-4 ")
_W5_LONG_TOLERANCE = ("the tables search merging's h to 0.01 (Glasmachers & Qaadan's 'GSS'), the authors' group's "
                      "BudgetedSVM to 1e-4 (src/bsgd.cpp; see wang2012-table6-10m-gss); at 1e-4 ")
EXPLAINED[(_W5_LONG, "BPegasos+merge B=500 C=1", "Waveform")] = (
    "parameters", _W5_LONG_LAMBDA + _cites(_W5_LONG, "BPegasos+merge B=500", "13.44", "13.37",
                                           via="BPegasos+merge B=500 C=0.01") + ", within the gap rule")
EXPLAINED[(_W5_LONG, "BPegasos+merge B=100 C=1", "Waveform")] = (
    "parameters", _W5_LONG_LAMBDA + _cites(_W5_LONG, "BPegasos+merge B=100", "15.06", "13.29",
                                           via="BPegasos+merge B=100 C=0.01")
    + ", and with the authors' golden-section tolerance (1e-4, BudgetedSVM src/bsgd.cpp) "
    + _cites(_W5_LONG, "BPegasos+merge B=100", "13.64", "13.29", via="BPegasos+merge B=100 C=0.01 eps=1e-4")
    + ", within the gap rule")
EXPLAINED[(_W5_LONG, "BPegasos+merge B=100 C=0.01", "Waveform")] = (
    "authors-code", _W5_LONG_TOLERANCE + _cites(_W5_LONG, "BPegasos+merge B=100", "13.64", "13.29",
                                                via="BPegasos+merge B=100 C=0.01 eps=1e-4") + ", within the gap rule")
for _row in ("BMP+merge B=100 C=1", "BMP+merge B=100 C=0.01 eps=1e-4"):
    EXPLAINED[(_W5_LONG, _row, "Waveform")] = (
        "parameters", ("at lambda = 1e-4 (U = 100) with the authors' tolerance "
                       + _cites(_W5_LONG, "BMP+merge B=100", "15.43", "13.98", via="BMP+merge B=100 C=0.01 eps=1e-4")
                       + ", and at lambda = 1/n (U = 1000) 25.16: the stream's length does not close BMP's gap; "
                       if _row.endswith("C=1") else "")
        + "the row keeps the table's gamma = 4/d and sets U by lambda; as for the table's own BMP row, "
        + _w5_bmp_own_cv("BMP+merge B=100"))

EXPLAINED[(_SHUTTLE_BINARY, "LIBSVM", "Shuttle")] = (
    "parameters", f"the row runs at the table's shared setting (BPegasos+merge B=500's gamma = 16/d, C = 1): "
                  f"{_SHUTTLE_BINARY_ROWS[3]}; with gamma and C by a 5-fold CV of LIBSVM's own (gamma = "
                  f"{_SHUTTLE_BINARY_ROWS[0]}/d, C = {_SHUTTLE_BINARY_ROWS[1]}) "
                  + _cites(_SHUTTLE_BINARY, "LIBSVM", _SHUTTLE_BINARY_ROWS[2], "0.10", via="LIBSVM [own CV]"))
EXPLAINED[(_SHUTTLE_BINARY, "BPegasos+merge B=100", "Shuttle")] = (
    "authors-code-agrees",
    _peer_cell("0.13 +- 0.03", _SHUTTLE_BINARY_ROWS[4], "benchmarks/results/bench_wang_peer_cells_shuttle_binary.json")
    + ", on two classes as on seven (wang2012-table5): at the table's gamma and lambda the paper's 0.37 +- 0.02 is "
      "not what the released code measures")


def _usps_raw(row, paper, verdict):
    """A Table 4 USPS row on the pixels as distributed (wang2012-table4-usps-raw): its mean +- sd there, then
    ``verdict``."""
    ours, spread = _W4_RAW_ROWS[row]
    return (_W4_RAW_SCALING + _cites(_W4_RAW, row, ours + (f" (range {spread})" if spread else ""), paper)
            + f", {verdict}" + _W4_RAW_BETWEEN)


#: Pegasos on USPS: within the gap rule on the pixels as distributed (the table's, the finer grid's and its own CV's
#: rows on standardised pixels all miss the paper's)
for _t in ("wang2012-table4", _W4_FINE, _W4_PEGASOS):
    EXPLAINED[(_t, "Pegasos", "USPS")] = (
        "data", (EXPLAINED[("wang2012-table4", "Pegasos", "USPS")][1] + "; "
                 if _t == "wang2012-table4" else "") + _usps_raw("Pegasos", "5.59 ± 0.11", "within the gap rule"))
#: bench_wang_removal_ties --source wang2012-table4-usps-raw: the tie readings of USPS's B = 100 cell on the pixels as
#: distributed, the raw table's 20 seeds (rule -> mean ± sd, and the newest reading's range), as committed
_W4_TIES_RAW = "benchmarks/results/bench_wang_removal_ties_usps_raw.json"
_W4_TIES_RAW_ROWS = {"newest": "17.75 ± 2.01", "oldest": "24.86", "random": "25.67", "peer": "25.06",
                     "computed": "25.10"}
_W4_TIES_RAW_RANGE = "14.50-22.12"
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")] = (
    "unexplained", EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")][1].replace(", still flagged", "")
    + "; " + _usps_raw("BPegasos+remove B=100", "19.84 ± 1.15", "a range that holds the paper's number")
    + f"; on those pixels, over the same 20 seeds, ties broken towards the SV just added give "
      f"{_W4_TIES_RAW_ROWS['newest']} (range {_W4_TIES_RAW_RANGE}), the oldest {_W4_TIES_RAW_ROWS['oldest']}, a "
      f"random SV {_W4_TIES_RAW_ROWS['random']}, BudgetedSVM cce05ffc {_W4_TIES_RAW_ROWS['peer']}, the computed choice "
      f"{_W4_TIES_RAW_ROWS['computed']} ({_W4_TIES_RAW}): the paper's 19.84 lies between the two scalings' readings "
      "with ties to the SV just added (17.75 and 25.06), and no reading on either meets the gap rule, still flagged")
#: the raw-pixel run's own flagged rows
EXPLAINED[(_W4_RAW, "BPegasos+remove B=100", "USPS")] = EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")]
for _row, _paper in (("BPegasos+project B=500", "7.39 ± 0.32"), ("BPegasos+merge B=100", "8.24 ± 0.24"),
                     ("BPegasos+merge B=500", "7.09 ± 0.19"), ("BMP+merge B=500", "6.90 ± 0.36")):
    EXPLAINED[(_W4_RAW, _row, "USPS")] = (
        "unexplained", _usps_raw(_row, _paper, "below the paper's by more than the gap rule, where wang2012-table4's "
                                               "row on standardised pixels errs more than the paper's; still flagged"))
EXPLAINED[(_W4_RAW, "LIBSVM", "USPS")] = (
    "parameters", f"the row runs the table's LIBSVM setting (C = 1, gamma = 4/d), within 2 points of the paper's "
                  f"number; the lowest test error over s in {{1, 2, 4, 8}} x C in {{1, 10, 100}} on the same pixels is "
                  f"{_W4_RAW_BEST[0]} at {_W4_RAW_BEST[1]} ({_W4_RAW_BOUND}, benchmarks/results/reproduce_"
                  f"{_W4_RAW_BOUND}.txt), at or below the paper's: a (C, gamma) of the grid gives the paper's number")
EXPLAINED[(_W4_RAW_BOUND, "LIBSVM [best on test]", "USPS")] = _bound_on_test(_W4_RAW_BEST[0])

#: wang2012-table4-usps-libsvm: Table 4's USPS column on LIBSVM's pixels, the paper's files rebuilt from the shared ones
#: (refsvm.io.usps), standardised as section 7.2 says; row -> its mean ± sd there, as committed
#: (tests/reproduce/test_wang_usps_libsvm.py checks every quote against the committed run and the gap rule)
_W4_LIBSVM = "wang2012-table4-usps-libsvm"
_W4_LIBSVM_ROWS = {"BPegasos+remove B=100": "31.84 ± 4.10", "BPegasos+project B=500": "7.98 ± 0.29",
                   "BPegasos+merge B=100": "7.96 ± 0.39", "BPegasos+merge B=500": "6.84 ± 0.32",
                   "BMP+merge B=500": "6.56 ± 0.40", "Pegasos": "5.48 ± 0.23"}
_W4_LIBSVM_DATA = ("the shared usps is ESL's zip.train / zip.test; LIBSVM's usps / usps.t, the paper's files, hold the "
                   "same digits with each image blurred by a normalised Gaussian of sigma = 0.75 pixel (refsvm.io.usps: "
                   "found on a copy of LIBSVM's usps.t and reproduced to its printed digit, benchmarks/results/"
                   "bench_usps_libsvm.txt); on those pixels, standardised as section 7.2 says, under the table's "
                   "protocol, ")


def _usps_libsvm(row, paper):
    """A Table 4 USPS row on LIBSVM's pixels (wang2012-table4-usps-libsvm): its mean ± sd there, within the rule."""
    return _W4_LIBSVM_DATA + _cites(_W4_LIBSVM, row, _W4_LIBSVM_ROWS[row], paper) + ", within the gap rule"


_W4_USPS_PAPER = {"BPegasos+project B=500": "7.39 ± 0.32", "BPegasos+merge B=100": "8.24 ± 0.24",
                  "BPegasos+merge B=500": "7.09 ± 0.19", "BMP+merge B=500": "6.90 ± 0.36", "Pegasos": "5.59 ± 0.11"}
#: Table 4's USPS rows that LIBSVM's pixels bring within the rule: 'data', the readings tried before kept after it
for _row in ("BPegasos+project B=500", "BPegasos+merge B=500", "BMP+merge B=500", "Pegasos"):
    for _t in ("wang2012-table4", _W4_FINE, _W4_PEGASOS, "wang2012-table4-own-cv"):
        if (_t, _row, "USPS") in EXPLAINED:
            EXPLAINED[(_t, _row, "USPS")] = (
                "data", _usps_libsvm(_row, _W4_USPS_PAPER[_row]) + "; the readings of the shared file tried before: "
                + EXPLAINED[(_t, _row, "USPS")][1])
#: bench_wang_removal_ties --source wang2012-table4-usps-libsvm: USPS's B = 100 removal cell on LIBSVM's pixels, the
#: table's 20 seeds (rule -> mean ± sd, as committed; BudgetedSVM not run on these pixels: its build is not on this
#: machine); with ties broken towards the SV just added the cell is within the gap rule
_W4_TIES_LIBSVM = "benchmarks/results/bench_wang_removal_ties_usps_libsvm.json"
_W4_TIES_LIBSVM_ROWS = {"newest": "21.68 ± 4.10", "computed": "31.84 ± 4.10", "oldest": "30.27", "random": "30.87"}
_W4_TIES_LIBSVM_SHARE = "71-76"
_W4_REMOVE_USPS = EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")][1]
EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")] = (
    "ties", "in BPegasos every SV's ||alpha_j||^2 is 2/(lambda t)^2 in exact arithmetic (sec. 6.1; footnote 11: "
            "'arbitrary removal'), so which SV is removed follows rounding; on LIBSVM's pixels (the paper's files, "
            "rebuilt from the shared ones by refsvm.io.usps) standardised as section 7.2 says, over "
            f"{_W4_LIBSVM}'s 20 seeds, refsvm's computed choice removed the SV just added in {_W4_TIES_LIBSVM_SHARE} % "
            f"of the events and gives {_W4_TIES_LIBSVM_ROWS['computed']} (that table's row, seed for seed), the oldest "
            f"{_W4_TIES_LIBSVM_ROWS['oldest']}, a random SV {_W4_TIES_LIBSVM_ROWS['random']}, and ties broken towards "
            f"the SV just added give {_W4_TIES_LIBSVM_ROWS['newest']} where the paper has 19.84 ± 1.15, within the "
            f"gap rule ({_W4_TIES_LIBSVM}; BudgetedSVM not run on these pixels); on the shared file's pixels no tie "
            "rule met the gap rule: " + _W4_REMOVE_USPS.replace(", still flagged", ""))
for _t in (_W4_RAW, _W4_LIBSVM, "wang2012-table4-own-cv"):
    EXPLAINED[(_t, "BPegasos+remove B=100", "USPS")] = EXPLAINED[("wang2012-table4", "BPegasos+remove B=100", "USPS")]
#: wang2012-table4-own-cv's removal rows on DNA (B = 100) and Letter (B = 500): the cell is explained at table 4's gamma
#: ('ties', by the tie rule of removal); no tie rule was run at the gamma of this row's own CV
for _ds, _b in (("DNA", 100), ("Letter", 500)):
    EXPLAINED[("wang2012-table4-own-cv", f"BPegasos+remove B={_b}", _ds)] = (
        "unexplained", "at table 4's gamma this cell takes 'ties' (wang2012-table4's row: ties broken towards the SV "
                       "just added meet the paper's number, benchmarks/bench_wang_removal_ties.py); this row runs at "
                       "the gamma of a cross-validation of its own, where no tie rule was run: still flagged")
#: wang2012-libsvm-cv-usps-libsvm: LIBSVM with gamma and C by a CV of its own on LIBSVM's pixels, standardised
#: (s, C, the CV row's error, the bound, the paper's), as committed (tests/reproduce/test_wang_usps_libsvm.py)
_LIBSVM_CV_USPS_LIBSVM = "wang2012-libsvm-cv-usps-libsvm"
_LIBSVM_CV_USPS_LIBSVM_ROW = (1, 10, "4.48", "4.48", "4.73")
for _t in (_LIBSVM_CV_USPS_LIBSVM, _W4_LIBSVM):
    EXPLAINED[(_t, "LIBSVM", "USPS")] = _libsvm_cv(*_LIBSVM_CV_USPS_LIBSVM_ROW, ds="USPS", run=_LIBSVM_CV_USPS_LIBSVM)
EXPLAINED[(_LIBSVM_CV_USPS_LIBSVM, "LIBSVM [best on test]", "USPS")] = _bound_on_test(_LIBSVM_CV_USPS_LIBSVM_ROW[3])
for _t in ("wang2012-table4", _LIBSVM_CV):
    EXPLAINED[(_t, "LIBSVM", "USPS")] = (
        "data", _W4_LIBSVM_DATA.replace("under the table's protocol, ", "")
        + f"with gamma and C by a 5-fold CV of LIBSVM's own (gamma = {_LIBSVM_CV_USPS_LIBSVM_ROW[0]}/d, C = "
          f"{_LIBSVM_CV_USPS_LIBSVM_ROW[1]}) " + _cites(_LIBSVM_CV_USPS_LIBSVM, "LIBSVM", *_LIBSVM_CV_USPS_LIBSVM_ROW[2::2])
        + ", within 2 points (a deterministic row: sd 0); on the shared file's pixels: " + EXPLAINED[(_t, "LIBSVM", "USPS")][1])
#: the raw-pixel run's rows below the paper's: the paper standardised LIBSVM's pixels
for _row in ("BPegasos+project B=500", "BPegasos+merge B=100", "BPegasos+merge B=500", "BMP+merge B=500"):
    EXPLAINED[(_W4_RAW, _row, "USPS")] = (
        "data", "a reading of the shared file's pixels as distributed, not standardised (section 7.2 says they "
                "were), where the row errs less than the paper's; " + _usps_libsvm(_row, _W4_USPS_PAPER[_row]))
