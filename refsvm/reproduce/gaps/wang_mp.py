"""Why rows of Wang et al.'s margin-perceptron baselines differ from the paper (``wang2012-table3-mp``,
``-table4-mp``, ``-table5-mp``, ``-table4-mp-usps-raw``: MP, MP+stop and MP+random, section 7.3).

The numbers quoted are the committed runs' (benchmarks/results/reproduce_<table>.json); tests/reproduce/
test_wang_mp_baselines.py checks each against them.
"""

from .wang import _gauss_test_draw

EXPLAINED = {}
_T3, _T4, _T5, _T4_RAW = "wang2012-table3-mp", "wang2012-table4-mp", "wang2012-table5-mp", "wang2012-table4-mp-usps-raw"


def _two_point_rule_only(gap, ours_sd, paper_sd, sds, more=""):
    """A row flagged by the 2-point rule while well within 2 sd of the difference of two runs."""
    return (f"flagged by the 2-point rule only: the gap, {gap} points, is {sds} sd of the difference of two runs "
            f"(ours {ours_sd} over 20 seeds, the paper's {paper_sd} over its 5 runs){more}")


# ----------------------------------------------------------------------------- Table 3

EXPLAINED[(_T3, "MP+random B=500", "Gauss")] = ("data", _gauss_test_draw(True))
EXPLAINED[(_T3, "MP+stop B=100", "Gauss")] = (
    "unexplained", _two_point_rule_only("-2.26", "3.12", "3.00", "0.52", "; ours lies below the paper's, where the test "
                                        "rows of the table's one Gauss draw are harder than the distribution "
                                        "(benchmarks/results/bench_bayes_floor.txt): the draw is no account"))
EXPLAINED[(_T3, "MP+random B=100", "Adult")] = (
    "unexplained", _two_point_rule_only("+2.08", "4.39", "0.88", "0.47", "; two of the 20 seeds end at 30.14 and "
                                        "36.89 % and pull the mean up: the median, 21.86, is 1.64 points above the "
                                        "paper's"))
EXPLAINED[(_T3, "MP+stop B=100", "Checkerboard")] = (
    "unexplained", _two_point_rule_only("+2.22", "1.99", "1.12", "0.97", "; the model is its first 100 SVs, so the "
                                        "paper's longer stream (10M examples, 20,000 rows here) is no account"))
#: MP on Checkerboard along the stream, as committed: rows -> mean ± sd (wang2012-table3-mp at 20K rows,
#: wang2012-table3-mp-stream at 100K and 200K, both at the gamma the former's CV chose)
_T3_STREAM = "wang2012-table3-mp-stream"
_MP_STREAM = {"20K": "2.09 ± 0.22", "100K": "1.23 ± 0.16", "200K": "0.91 ± 0.11"}
_MP_FALLS = (f"the row's error falls with the stream's length: {_MP_STREAM['20K']} on 20,000 rows ({_T3}), "
             f"{_MP_STREAM['100K']} on 100,000 and {_MP_STREAM['200K']} on 200,000 ({_T3_STREAM}, "
             f"benchmarks/results/reproduce_{_T3_STREAM}.txt), towards the paper's 0.57 ± 0.11 on 1M examples (Table "
             "3's subscript: its MP stopped after 10,000 s, at 22K SVs)")
EXPLAINED[(_T3, "MP", "Checkerboard")] = ("data", "the table trains on 20,000 generated Checkerboard rows; " + _MP_FALLS)
for _rows in ("100K", "200K"):
    EXPLAINED[(_T3_STREAM, "MP", f"Checkerboard {_rows}")] = (
        "data", f"the row trains on {_rows[:-1]},000 generated rows where the paper's MP saw 1M examples; " + _MP_FALLS)

# ----------------------------------------------------------------------------- Table 5

_COVTYPE = ("the shared covtype.first10000 is the first 10,000 rows of UCI's covtype.data, inside the file's "
            "class-balanced first block (1,262-1,620 rows per class, where the whole file's proportions differ: "
            "data/SOURCES.md): another, balanced seven-class problem, with 7,500 rows for training here where the "
            "paper trains on about 0.5M of the whole file")
for _row in ("MP", "MP+stop B=100", "MP+random B=100"):
    EXPLAINED[(_T5, _row, "Covertype")] = ("data", _COVTYPE)
EXPLAINED[(_T5, "MP", "Waveform")] = (
    "data", "ours errs less than the paper's by more than 2 sd: the paper drew a fresh test set per run (section 7.3), "
            "this table scores every seed on one draw of 5,000 generated test rows, on which the Bayes classifier "
            "errs 12.44 % where it errs 13.29 % over the distribution (benchmarks/results/bench_bayes_floor.txt): "
            "the draw is 0.85 points easier, and with that added the row (15.65) is within the gap rule of the "
            "paper's 15.64 ± 0.36")

# ----------------------------------------------------------------------------- Table 4: USPS, standardised or not

from ._common import _cites  # noqa: E402
from .wang import _W4_RAW_SCALING  # noqa: E402

#: wang2012-table4-mp-usps-raw's rows as committed: row -> (ours, the paper's)
_T4_RAW_ROWS = {"MP": ("5.31 ± 0.25", "5.63 ± 0.04"), "MP+stop B=100": ("23.72 ± 2.68", "20.89 ± 2.15"),
                "MP+stop B=500": ("8.74 ± 0.36", "9.22 ± 0.58"), "MP+random B=100": ("23.08 ± 1.65", "21.94 ± 2.01"),
                "MP+random B=500": ("9.67 ± 0.67", "9.90 ± 0.97")}
for _row, (_ours, _paper) in _T4_RAW_ROWS.items():
    if _row != "MP+stop B=100":
        EXPLAINED[(_T4, _row, "USPS")] = (
            "data", _W4_RAW_SCALING + _cites(_T4_RAW, _row, _ours, _paper) + ", within the gap rule")
_STOP_RAW = _two_point_rule_only("+2.83", "2.68", "2.15", "0.83", "; the model is its first 100 SVs")
EXPLAINED[(_T4_RAW, "MP+stop B=100", "USPS")] = ("unexplained", _STOP_RAW)
EXPLAINED[(_T4, "MP+stop B=100", "USPS")] = (
    "unexplained", _W4_RAW_SCALING + _cites(_T4_RAW, "MP+stop B=100", *_T4_RAW_ROWS["MP+stop B=100"])
    + ", on those pixels " + _STOP_RAW + "; still flagged")

#: wang2012-table4-mp-usps-libsvm: the same rows on LIBSVM's pixels (the paper's files, rebuilt by refsvm.io.usps),
#: standardised as section 7.2 says; every row within the gap rule there (tests/reproduce/test_wang_mp_baselines.py)
_T4_LIBSVM = "wang2012-table4-mp-usps-libsvm"
_T4_LIBSVM_ROWS = {"MP": "5.50 ± 0.28", "MP+stop B=100": "22.09 ± 2.04", "MP+stop B=500": "9.27 ± 0.56",
                   "MP+random B=100": "22.29 ± 1.42", "MP+random B=500": "10.23 ± 0.77"}
_LIBSVM_PIXELS = ("the shared usps is ESL's zip.train / zip.test; LIBSVM's usps / usps.t, the paper's files, hold the "
                  "same digits with each image blurred by a normalised Gaussian of sigma = 0.75 pixel (refsvm.io.usps; "
                  "benchmarks/results/bench_usps_libsvm.txt); on those pixels, standardised as section 7.2 says, ")
for _row, (_raw, _paper) in _T4_RAW_ROWS.items():
    _on_libsvm = _LIBSVM_PIXELS + _cites(_T4_LIBSVM, _row, _T4_LIBSVM_ROWS[_row], _paper) + ", within the gap rule"
    EXPLAINED[(_T4, _row, "USPS")] = (
        "data", _on_libsvm + "; on the shared file's pixels as distributed, " + _cites(_T4_RAW, _row, _raw, _paper))
EXPLAINED[(_T4_RAW, "MP+stop B=100", "USPS")] = (
    "data", "a reading of the shared file's pixels as distributed, not standardised; " + _LIBSVM_PIXELS
    + _cites(_T4_LIBSVM, "MP+stop B=100", _T4_LIBSVM_ROWS["MP+stop B=100"], "20.89 ± 2.15") + ", within the gap rule")

# ----------------------------------------------------------------------------- Table 3's Projectron++

_T3_PP = "wang2012-table3-projectron"
for _row in ("Projectron++ B=100", "Projectron++ B=500"):
    EXPLAINED[(_T3_PP, _row, "Checkerboard")] = (
        "data", "the table trains on 20,000 generated Checkerboard rows where the paper's online learners see 10M: "
                "once Projectron++ holds its SVs it goes on learning by projection, and on this board accuracy grows "
                "with the stream (wang2012-table6 at 1M rows, benchmarks/bench_checkerboard_stream.py at 10M)")
EXPLAINED[(_T3_PP, "Projectron++ B=100", "Adult")] = (
    "unexplained", "the threshold that leaves 100 SVs on Adult lies within 1e-7 of 1 (0.99999998: at the table's gamma "
                   "nearly every row is almost orthogonal to the others in feature space), and at it three of the 20 "
                   "orders end far off (48.63, 57.47 and 61.83 %); the median, 24.08, is 1.94 points above the "
                   "paper's 22.14 ± 3.45; " + _two_point_rule_only("+6.75", "12.00", "3.45", "0.54"))
EXPLAINED[(_T3_PP, "Projectron++ B=500", "IJCNN")] = (
    "unexplained", _two_point_rule_only("+3.22", "2.44", "1.95", "1.03", "; four of the 20 orders end at 10.43-15.36 %, "
                                        "the median, 7.44, is 2.17 points above the paper's"))

# ----------------------------------------------------------------------------- Tables 4 and 5's Projectron++

_T4_PP = "wang2012-table4-projectron"
_LETTER_PP = {"Projectron++ B=100": ("32.61 ± 2.09", "52.77 ± 0.99", "92-104", "58.11 and 59.07", "24.09"),
              "Projectron++ B=500": ("17.78 ± 1.06", "24.10 ± 0.76", "474-511", "32.68 and 31.77", "12.76")}
for _row, (_ours, _paper, _svs, _mp, _project) in _LETTER_PP.items():
    EXPLAINED[(_T4_PP, _row, "Letter")] = (
        "unexplained", f"ours errs {_ours} where the paper has {_paper}, less by more than the spread of either: the "
                       f"runs end with {_svs} SVs (the threshold does what section 7.3 asks), and the multi-prototype "
                       f"learner is refsvm's multi-class Projectron++ (Lu et al.'s rule; the paper prints no "
                       f"multi-class rule for Projectron++); the paper's row lies near its MP+stop and MP+random rows "
                       f"({_mp}) where ours lies above BPegasos+project's ({_project} in wang2012-table4)")

_T5_PP = "wang2012-table5-projectron"
for _row in ("Projectron++ B=100", "Projectron++ B=500"):
    EXPLAINED[(_T5_PP, _row, "Covertype")] = ("data", _COVTYPE)
EXPLAINED[(_T5_PP, "Projectron++ B=500", "Waveform")] = (
    "unexplained", "ours errs 18.40 ± 0.71 where the paper has 16.44 ± 0.54, more by over 2 sd of the difference; the "
                   "table's test draw is easier than the distribution (benchmarks/results/bench_bayes_floor.txt), so "
                   "it is no account; the table trains on 20,000 generated rows where the paper's stream has 2M, and "
                   "Projectron++ goes on learning by projection once it holds its SVs: not rerun on a longer stream")
