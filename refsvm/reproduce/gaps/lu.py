"""The stated reasons of Lu, Hoi et al. (2016)'s rows (Tables 5, 7 and 9, Figures 1-6): part of
:data:`refsvm.reproduce.gaps.EXPLAINED`, and the rows of companion runs that repeat a table's run seed for seed
(:data:`SAME_ROW_RUNS`, merged into :data:`refsvm.reproduce.gaps.SAME_ROW_RUNS`)."""

from ._common import _cites


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


#: lu2016-table5-unbudgeted: the unbudgeted rows against the stream's length on w8a, and OGD at the step of the
#: authors' released binary/experiment.m (the numbers are the committed run's, checked by
#: tests/reproduce/test_lu_table5_unbudgeted.py)
_LU5_U = "lu2016-table5-unbudgeted"
_LU5_W8A_LENGTH = (
    "the shared w8a is the LIBSVM training file only, 49,749 of the paper's 64,700 rows (w8a.t, which would enable the "
    "measurement, is not in the shared data), and the online rate falls with the stream's length: over random "
    "24,875, 38,253 and 49,749 of its rows the Perceptron errs 4.11, 3.78 and 3.64 (" + _LU5_U + ", benchmarks/results/"
    "reproduce_" + _LU5_U + ".txt; 38,253 / 49,749 = 49,749 / 64,700); the last fall repeated over the paper's 30 % "
    "more rows (the rate times the same ratio, rate(49,749) / rate(38,253), on the unrounded means) gives 3.49 where the "
    "paper has 3.47 ± 0.01, within the gap rule")


def _lu5_code_eta(ours, paper, minority):
    """OGD at the one step the authors' released binary/experiment.m runs (lu2016-table5-unbudgeted's 'OGD eta=0.2')."""
    return ("the authors' released binary/experiment.m (jingcoco/Online-Kernel-Learning) runs OGD at one step, "
            "options.eta = 0.2, where section 7.2.1 says eta was searched over {2, 0.2, ..., 0.0002} and prints none; "
            f"at eta = 0.2 the row 'OGD eta=0.2' gives {ours} where the paper has {paper} ({_LU5_U}, benchmarks/results/"
            f"reproduce_{_LU5_U}.txt), and its online predictions are the constant classifier's (refsvm.reproduce."
            f"driver.is_constant; the data's minority share {minority})")


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
    (_LU5, "Perceptron", "w8a"): ("data", _lu5_unbudgeted("3.64 ± 0.05", "3.56", "3.72", "3.47 ± 0.01", "")
                                  .replace("; still flagged", "; " + _LU5_W8A_LENGTH)),
    (_LU5, "OGD", "w8a"): ("unexplained", _lu5_unbudgeted("2.64 ± 0.03", "2.58", "2.69", "2.81 ± 0.01", _LU5_OGD_ETA)
                           .replace("; still flagged", "; " + _lu5_code_eta("2.86 ± 0.01", "2.81 ± 0.01", "2.97")
                                    + ": closer, still flagged")),
    (_LU5, "OGD", "ijcnn1"): ("parameters", _lu5_unbudgeted("9.94 ± 0.07", "9.83", "10.19", "9.52 ± 0.01",
                                                            _LU5_OGD_ETA).replace(
        "; still flagged", "; " + _lu5_code_eta("9.53 ± 0.01", "9.52 ± 0.01", "9.57") + ", within the gap rule: the "
                           "paper's row is the constant classifier of that step")),
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
}


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
_USPS_LIBSVM_RUN = "lu2016-table7-usps-libsvm"
for _ds, _ours, _paper in (("satimage", "29.44", "29.5"), ("shuttle", "15.58", "15.6")):
    EXPLAINED[(_LU7, "FOGD", _ds)] = (
        "parameters", _FOGD_STEPS + _FOGD_LARGE + _cites(_FOGD_STEP_RUN, "FOGD", _ours, _paper, "FOGD eta=0.5"))
EXPLAINED[(_LU7, "FOGD", "usps")] = (
    "parameters", _FOGD_STEPS + _FOGD_LARGE + "(usps on LIBSVM's pixels, the paper's file, lu2016-table7-usps-libsvm) "
    + _cites(_USPS_LIBSVM_RUN, "FOGD", "10.21", "10.1", "FOGD eta=0.5"))
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
#: benchmarks/bench_lu_authors_octave.py: the authors' multiclass .m files run under GNU Octave on lu2016-table7's data
#: and permutations (seeds 0-19), refsvm's authors reading beside them seed for seed: the committed run's numbers
#: (tests/reproduce/test_lu_authors_octave.py checks them against the results file)
_OCTAVE = "benchmarks/results/bench_lu_authors_octave.txt"
_OCTAVE_CELLS = {
    ("shuttle", "Projectron++ [code]"): ("proplus.m", "13.32 ± 0.10", "13.16-13.53", "13.31 ± 0.11", "0.19"),
    ("shuttle", "Projectron [code]"): ("projectron.m", "15.32 ± 0.32", "14.49-15.88", "15.62 ± 0.46", "0.93"),
    ("dna", "Projectron++ [code]"): ("proplus.m", "30.93 ± 11.64", "20.20-58.95", "20.75 ± 0.75", "39.15"),
}


def _octave(dataset, row):
    """What the authors' own code gave on ``row``'s data and orders under Octave (bench_lu_authors_octave)."""
    m, peer, peer_range, ours, diff = _OCTAVE_CELLS[(dataset, row)]
    return (f"the authors' multiclass/{m} (jingcoco/Online-Kernel-Learning at fd3d4065, read outside the repository) "
            f"run under GNU Octave 7.3.0 on the table's data and permutations errs {peer} (range {peer_range}) over "
            f"seeds 0-19 where refsvm's row (the table's run, seed for seed) errs {ours}, at most {diff} points apart "
            f"on one permutation ({_OCTAVE})")


EXPLAINED[(_LU7, "Projectron++ [code]", "dna")] = (
    "numerics", EXPLAINED[(_LU7, "Projectron++ [code]", "dna")][1] + "; the authors' code itself: "
    + _octave("dna", "Projectron++ [code]") + ", the paper's 23.1 inside that range")
EXPLAINED[(_LU7, "Projectron++", "dna")] = (
    "numerics", "the paper's row is the authors' code's run (" + EXPLAINED[(_LU7, "Projectron++ [code]", "dna")][1]
    + "); refsvm's paper reading decides the span test to its error bound too")
_PROJ_SHUTTLE_TRIED = (
    _PROJ_KINV + "on shuttle at sigma = 8 every permutation adds rows at delta^2 <= 1e-8 (near each other, not "
    "repeated): a numpy run of that reading gives 13.76 +- 2.04, range 13.18-22.44, over 20 permutations, and 18.46 "
    "+- 7.31 with those additions skipped, where the paper has 16.8 +- 0.5 (" + _PROJ_NUMERICS + ")")
_READINGS_RUN = "lu2016-table7-readings"
_PROJ_SHUTTLE_TRIED += (
    "; MATLAB's tie rule (the lowest class index wins, as the code's max): "
    + _cites(_READINGS_RUN, "Projectron++ [code]", "13.31", "16.8", "Projectron++ [code] tie=lowest")
    + "; features min-max onto [0, 1] in place of [-1, 1]: " + _cites(_READINGS_RUN, "Projectron++ [code]", "20.77",
                                                                      "16.8", "Projectron++ [code] rescaled")
    + ", but that scaling moves the rows that match at [-1, 1] off: "
    + _cites(_READINGS_RUN, "BPA-S", "22.40", "14.1", "BPA-S rescaled"))
_PROJ_SHUTTLE_CODE = (
    _octave("shuttle", "Projectron++ [code]") + "; the paper has 16.8 ± 0.5, above every permutation's; the same run "
    "of the authors' projectron.m gives the paper's Projectron row (15.3 ± 0.3): " + _octave("shuttle",
                                                                                           "Projectron [code]")
    + ": the data, kernel and budget are the paper's, and its Projectron++ number is not what the released code "
      "measures on them")
EXPLAINED[(_LU7, "Projectron++ [code]", "shuttle")] = (
    "authors-code-agrees", _PROJ_SHUTTLE_CODE + "; readings tried before the code was run: " + _PROJ_SHUTTLE_TRIED)
EXPLAINED[(_LU7, "Projectron++", "shuttle")] = _lu7_code(
    "Projectron++", "the paper's Projectron++ is the authors' code's (it fills the budget first and uses U = 1/4 "
    "sqrt((B+1)/ln(B+1)) in the margin condition where the paper has 1/eta, as in Table 5)", "13.31", "16.8")
EXPLAINED[(_LU7, "Projectron++", "shuttle")] = (
    "authors-code", EXPLAINED[(_LU7, "Projectron++", "shuttle")][1] + ", and that reading is the released code's "
    "number, not the paper's (row 'Projectron++ [code]', authors-code-agrees): " + _PROJ_SHUTTLE_CODE)

#: Table 7's usps rows: the paper ran LIBSVM's usps, the shared file is ESL's; lu2016-table7-usps-libsvm runs every row
#: on LIBSVM's pixels reconstructed from the shared ones (refsvm.io.usps), where each row quoted lies within the gap
#: rule (tests/reproduce/test_lu_readings.py).  (row, its number there, the paper's, the row quoted if another)
_USPS = ("the shared usps is ESL's zip.train; LIBSVM's usps, the paper's file, holds the same digits in the same order, "
         "each image blurred by a normalised Gaussian of sigma = 0.75 pixel (refsvm.io.usps: found on a copy of "
         "LIBSVM's usps.t and reproduced to its printed digit, benchmarks/results/bench_usps_libsvm.txt); on those "
         "pixels ")
for _row, _ours, _paper, _via in (("Perceptron", "9.94", "10", None), ("OGD", "7.06", "6.7", None),
                                  ("RBP", "23.98", "24", None), ("Forgetron", "22.13", "22.7", None),
                                  ("Projectron", "10.54", "10.6", None), ("Projectron [code]", "10.64", "10.6", None),
                                  ("BPA-S", "15.71", "15.4", None), ("Forgetron [code]", "22.80", "22.7", None),
                                  ("BOGD [code]", "22.20", "23.2", None), ("BOGD", "22.20", "23.2", "BOGD [code]")):
    EXPLAINED[(_LU7, _row, "usps")] = (
        "data", _USPS + ("and with the authors' BOGD.m rule (variant='authors', as on satimage and letter) "
                         if _via else "") + _cites(_USPS_LIBSVM_RUN, _row, _ours, _paper, _via))
#: lu2016-table7-usps-libsvm's own flagged rows: the reasons of Table 7's rows on the other data sets
EXPLAINED[(_USPS_LIBSVM_RUN, "Projectron++", "usps")] = (
    "authors-code", "the authors' code fills the budget first and uses U = 1/4 sqrt((B+1)/ln(B+1)) in the margin "
                    "condition where the paper has 1/eta (as in Tables 5 and 7); "
    + _cites(_USPS_LIBSVM_RUN, "Projectron++", "9.84", "9.9", "Projectron++ [code]"))
EXPLAINED[(_USPS_LIBSVM_RUN, "BOGD", "usps")] = (
    "authors-code", "the authors' code bounds the whole coefficient vector by rescaling it and updates at y f <= 1 "
                    "(refsvm.online.bogd, as in Tables 5 and 7); "
    + _cites(_USPS_LIBSVM_RUN, "BOGD", "22.20", "23.2", "BOGD [code]"))
EXPLAINED[(_USPS_LIBSVM_RUN, "FOGD", "usps")] = EXPLAINED[(_LU7, "FOGD", "usps")]
for _eta, _script in ((0.005, "Experiment.m's eta_fou"), (0.001, "Experiment_B.m's eta_fou")):
    EXPLAINED[(_USPS_LIBSVM_RUN, f"FOGD eta={_eta:g}", "usps")] = (
        "protocol", f"a reading, not a reproduction: FOGD at the fixed step eta = {_eta:g} of the authors' released "
                    f"scripts ({_script}) in place of the best point of the paper's grid, run to test which step the "
                    "paper's FOGD row took; its gap to the paper is the step's by construction (the paper's row is "
                    "the Perceptron-like step: " + _cites(_USPS_LIBSVM_RUN, "FOGD", "10.21", "10.1", "FOGD eta=0.5")
                    + ")")
EXPLAINED[(_LU9, "BOGD [code]", "cpusmall")] = (
    "parameters", "the authors' regression/Experiment.m gives OGD.m and BOGD.m their own step size (options.eta, "
                  "marked as tuned per data set beside lambda, Fou_eta and Epsilon_eta; the other learners take "
                  "eta_perceptron = 0.1); with it tuned over (0.1, 0.2, 0.3, 0.5, 1) the best, eta = 0.3, "
    + _cites("lu2016-table9-eta", "BOGD [code]", "0.04872", "0.04972"))

#: Lu et al.'s Table 3 (lu2016-table3): the BSGD cells over the whole C grid, the tie rule "remove the SV just added"
#: and BudgetedSVM, the toolbox the paper ran (benchmarks/bench_lu_table3_bsgd.py); FOGD and NOGD at sigma = 8
#: (lu2016-table3-sigma8).  The numbers quoted are the committed results', checked by tests/reproduce/test_lu_table3.py
_LU3 = "lu2016-table3"
_LU3_BENCH = "benchmarks/results/bench_lu_table3_bsgd.txt"
_LU3_PEER = "BudgetedSVM cce05ffc (the toolbox the paper ran, section 7.1.1) on the same rows and orders"
EXPLAINED[(_LU3, "BSGD-M", "w8a")] = (
    "parameters", "the paper prints neither lambda nor sigma (both by 5-fold CV); at the table's gamma = 2^-5 refsvm's "
                  "CV chooses C = 32, where the row errs 1.57 ± 0.24 and " + _LU3_PEER + " 2.06 ± 1.44 over 5 "
                  "orders, both below the paper's 2.48 ± 0.02; at C = 0.125 (lambda = 8/n, the grid's smallest) "
                  "refsvm gives 2.47 ± 0.05 over 20 seeds and the toolbox 2.45 ± 0.04 over 5: the paper's number "
                  "(" + _LU3_BENCH + ")")
#: lu2016-table3-random: the BSGD-R row with the random removal section 7.1.1 names (the committed run's numbers,
#: checked by tests/reproduce/test_lu_table3_random.py)
_LU3_R = "lu2016-table3-random"
_LU3_R_A9A = ("at the CV's C = 0.5 it errs 19.78 ± 2.88 over 20 seeds (range 16.10-23.67; seeds 0, 8 and 15 end at the "
              "constant classifier), within the gap rule of the paper's 18.04 ± 0.27, whose sd is a tenth of ours")
_LU3_TOOLBOX = ("BudgetedSVM's removal (src/bsgd.cpp at cce05ffc, commented 'removal of random support vector') removes "
                "the SV of least ||alpha|| k(x, x), the first in its list on exact ties")
EXPLAINED[(_LU3, "BSGD-R", "a9a")] = (
    "protocol", "the row runs refsvm's smallest-norm removal (the table note), where section 7.1.1 defines BSGD-R by "
                "'the SV Random Removal strategy'; with that strategy (" + _LU3_R + ", benchmarks/results/reproduce_"
                + _LU3_R + ".txt) " + _LU3_R_A9A + ".  The smallest-norm rule, as run here: in BPegasos every SV's "
                "norm ties in exact arithmetic, so which SV it takes is rounding noise (the paper's discussion says "
                "'oldest'); at the CV's C = 0.125 refsvm's computed choice ends at the constant classifier on most "
                "seeds (23.08 ± 1.53), " + _LU3_PEER + " gives 20.08 ± 3.30 over 5 orders (its default -b 1 the same; "
                + _LU3_TOOLBOX + ") and ties broken towards the SV just added 20.71 ± 3.29; at C = 0.5 refsvm gives "
                "18.93 ± 2.50, within the gap rule, but the toolbox 29.16 ± 18.14 (" + _LU3_BENCH + ")")
EXPLAINED[(_LU3_R, "BSGD-R [random]", "w8a")] = (
    "authors-code", "the paper's numbers come from BudgetedSVM (section 7.1.1, footnote 3), whose removal is not random: "
                    + _LU3_TOOLBOX + "; lu2016-table3 runs that rule and its w8a row (2.08 ± 0.52 at its CV's C = 32) "
                    "is within the gap rule.  With random removal the CV chooses C = 8, where 19 of the 20 seeds err "
                    "1.62-2.95 % (median 2.19, below the paper's 2.94 ± 0.04) and seed 10 ends at 67.28 %: its model "
                    "predicts one class on 71 % of the test rows the runner checks (the error says which: the "
                    "minority class, +1, which holds 2.9 % of them)")
_LU3_S8 = "lu2016-table3-sigma8"
for _row, _ours, _at8 in (
        ("FOGD", "1.30", "gives a median of 2.27 (the paper 2.07 ± 0.08; mean 4.24: at the CV's eta = 0.02 two of "
                         "the 20 orders end far off, at 19.71 and 21.71 %)"),
        ("NOGD", "1.34", "gives 2.14 ± 0.74 where the paper has 1.64 ± 0.10, within the gap rule")):
    EXPLAINED[(_LU3, _row, "w8a")] = (
        "parameters", f"the paper prints neither sigma nor eta (both by 5-fold CV); the table's CV over gamma in "
                      f"{{1/128, 1/64, 1/32, 1/16}} x the paper's eta grid chooses gamma = 1/16 (sigma = 2.83), where "
                      f"the row errs {_ours}, below the paper's; at sigma = 8, the width of the paper's online "
                      f"tables, with eta by the same CV the row {_at8} ({_LU3_S8}, benchmarks/results/reproduce_"
                      f"{_LU3_S8}.txt)")
EXPLAINED[(_LU3_S8, "FOGD", "w8a")] = (
    "parameters", "the CV (seed 0's folds) chooses eta = 0.02, at which two of the 20 orders end far off (19.71 and "
                  "21.71 %) and pull the mean up; the median, 2.27, is 0.20 points above the paper's 2.07, within the gap rule")

#: lu2016-table5-unbudgeted's rows that are lu2016-table5's runs seed for seed (the same runner, parameters, data and
#: seeds; tests/reproduce/test_lu_table5_unbudgeted.py compares the committed per-seed errors)
SAME_ROW_RUNS = {(_LU5_U, _alg, _ds): (_LU5, _alg, _ds) for _alg in ("Perceptron", "OGD") for _ds in ("w8a", "ijcnn1")}
#: lu2016-table9-eta's BOGD rows whose CV chose eta = 0.1, lu2016-table9's fixed step: the same runs seed for seed
#: (tests/reproduce/test_lu_figures.py compares the committed per-seed errors of every SAME_ROW_RUNS pair)
SAME_ROW_RUNS.update({("lu2016-table9-eta", "BOGD", _ds): (_LU9, "BOGD", _ds) for _ds in ("housing", "cpusmall", "cadata")})
EXPLAINED[(_LU5_U, "OGD eta=0.2", "w8a")] = (
    "unexplained", _lu5_code_eta("2.86 ± 0.01", "2.81 ± 0.01", "2.97") + "; the same step on 38,253 of the file's rows "
                   "errs 2.86 too, so the paper's longer stream does not close the gap; still flagged")

#: The readings' own rows (lu2016-table7-readings, -usps-row-widths): each is a lu2016-table7 row with one change,
#: run to test whether the change accounts for a flagged row there, so its gap to the paper is the change's by
#: construction ('protocol'), not a result; lu2016-table7's reasons quote the readings that bear on their rows.
_READING_CHANGES = {
    "tie=lowest": "MATLAB's tie rule, a tie for the top score predicting the lowest class index",
    "rescaled": "another feature scaling (usps: each pixel column min-max onto [-1, 1]; shuttle: features onto "
                "[0, 1])",
    "B=100": "usps at B = 100, section 7.3.1 read in Table 7's column order"}


def _reading(row, change, count="one change"):
    """A reading's own row: lu2016-table7's ``row`` with one ``change`` (``count``: how many it makes)."""
    return ("protocol", f"a reading, not a reproduction: lu2016-table7's row '{row}' with {count}, {change}, run to "
                        "test whether the change accounts for a flagged row of lu2016-table7 (the table's note); its "
                        "gap to the paper is the change's by construction"
            + (" (the Perceptron, with no parameter to tune, is the control under the same change)"
               if row == "Perceptron" else ""))


#: the keys come from the tables' own definitions (refsvm.reproduce.tables_lu), so a reading added there is named here
from ..tables_lu import _LU7_FOGD_STEPS, _LU7_READINGS, _USPS_ROW_WIDTH_ROWS, _USPS_ROW_WIDTHS  # noqa: E402

for _suffix, _rows, _per in _LU7_READINGS:
    for _row in _rows:
        for _ds in _per:
            EXPLAINED.setdefault((_READINGS_RUN, f"{_row} {_suffix}", _ds), _reading(_row, _READING_CHANGES[_suffix]))
for _f in _USPS_ROW_WIDTHS:
    for _row in _USPS_ROW_WIDTH_ROWS:
        EXPLAINED.setdefault(("lu2016-table7-usps-row-widths", f"{_row} gamma x{_f:g}", "usps"),
                             _reading(_row, f"usps at gamma = {_f:g}/128 in place of the table's 1/128"))
_FOGD_SCRIPTS = {0.5: "Experiment.m's options.eta, the kernel learners' step",
                 0.001: "Experiment_B.m's options.eta_fou"}
for _eta in _LU7_FOGD_STEPS:
    for _ds in ("dna", "satimage", "usps", "mnist", "letter", "shuttle"):
        EXPLAINED.setdefault(("lu2016-table7-fogd-step", f"FOGD eta={_eta:g}", _ds),
                             _reading("FOGD", f"the fixed step eta = {_eta:g} of the authors' released scripts "
                                              f"({_FOGD_SCRIPTS[_eta]}) in place of the best point of the paper's "
                                              "grid"))

#: The other one-change companions of lu2016-table7 (their rows are Table 7 rows with the change named; the rows
#: of Table 7 they bear on quote them): their own gaps are the change's by construction, as the readings' above
from ..tables_lu import (LU2016_TABLE7_CODE_OPTIONS, LU2016_TABLE7_MNIST200,  # noqa: E402
                         LU2016_TABLE7_USPS_WIDTH)

_COMPANION_CHANGES = (
    (LU2016_TABLE7_CODE_OPTIONS, "the one setting of the authors' released multiclass/Experiment.m (eta = 0.5 for "
                                 "OGD, NOGD and BOGD, BOGD lambda = 1e-5 and gamma = inf, FOGD eta = 0.005; mnist at "
                                 "B = 200) in place of the best point of the paper's grid"),
    (LU2016_TABLE7_MNIST200, "mnist at B = 200, section 7.3.1 read in Table 7's column order"),
    (LU2016_TABLE7_USPS_WIDTH, "usps at gamma = 0.65/128 in place of the table's 1/128 (the width at which the "
                               "Perceptron gives the paper's 10.0 on the shared ESL pixels)"),
)


def _companion_change(table, label, change):
    """The change of a companion's row ``label``: the table's, where the row adds none of its own."""
    if " gamma x" in label:
        return f"usps at gamma = {label.rsplit('x', 1)[1]}/128 in place of the table's 1/128"
    if table is LU2016_TABLE7_USPS_WIDTH and " eta=" in label:
        return (change + " and the step size of the authors' released multiclass/Experiment.m, eta = "
                + label.rsplit("=", 1)[1])
    return change


for _table, _change in _COMPANION_CHANGES:
    for _e in _table.entries:
        for _d in _table.datasets:
            _two = _table is LU2016_TABLE7_USPS_WIDTH and " eta=" in _e.label
            EXPLAINED.setdefault((_table.name, _e.label, _d.label),
                                 _reading(_e.label.split(" eta=")[0].split(" gamma x")[0],
                                          _companion_change(_table, _e.label, _change),
                                          "two changes" if _two else "one change"))

#: lu2016-table9-eta's BOGD row on abalone, where its CV chose eta = 0.5 (not table 9's 0.1, so not table 9's run):
#: the paper's BOGD rule against the authors' BOGD.m, as table 9's row; the code's rule here is within the rule
EXPLAINED[("lu2016-table9-eta", "BOGD", "abalone")] = (
    "authors-code", EXPLAINED[(_LU9, "BOGD", "abalone")][1] + "; at this table's eta by CV the row 'BOGD [code]' "
                    "gives 0.01524 where the paper has 0.01558 (lu2016-table9-eta, benchmarks/results/reproduce_"
                    "lu2016-table9-eta.txt)")
