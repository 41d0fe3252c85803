"""The stated reasons of Glasmachers & Qaadan's and Qaadan et al. (2019)'s rows: part of
:data:`refsvm.reproduce.gaps.EXPLAINED`."""

from ._common import _ADULT_OFFSET


#: (table, row label, data-set label) -> (reason, what supports it)
EXPLAINED = {
    ("qaadan2019-table2", "BSGD", "ADULT"): ("parameters", _ADULT_OFFSET),
    ("qaadan2019-table2", "Projectron", "ADULT"): ("paper-worse-than-constant",
                                                   "the paper's Projectron on ADULT (25.65 % accuracy, 74.35 % "
                                                   "error) is worse than predicting the majority class (23.62 % "
                                                   "error on a9a.t); ours learns"),
}
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


#: Qaadan et al.'s Table 2 at its 20 seeds (benchmarks/results/reproduce_qaadan2019-table2.*; the numbers quoted are
#: checked against it by tests/reproduce/test_glasmachers_table2.py)
_Q2_FLAGGED = "qaadan2019-table2, benchmarks/results/reproduce_qaadan2019-table2.txt"
EXPLAINED[("qaadan2019-table2", "OGD", "IJCNN")] = (
    "parameters", "the paper's runs use the LSOKL toolbox's settings, which it does not print; the table picks "
                  "OGD's eta from Lu et al.'s grid by mean test error (eta = 2: 2.31 over 20 seeds), and the "
                  "paper's 5.41 lies between the grid's eta = 0.2 (3.60) and eta = 0.02 (8.73) (" + _Q2_FLAGGED
                  + "): a smaller step than the grid's best")

#: Table 2's IJCNN Forgetron over 200 visiting orders (qaadan2019-table2-seeds; the numbers quoted are its committed
#: result's, checked by tests/reproduce/test_glasmachers_table2.py)
_Q2_SEEDS = "qaadan2019-table2-seeds, benchmarks/results/reproduce_qaadan2019-table2-seeds.txt"
EXPLAINED[("qaadan2019-table2", "Forgetron", "IJCNN")] = (
    "paper-run-seeds", "the paper's single run (7.26) lies just below the range of the table's 20 seeds (7.29-19.73) and "
                 "within that of 200 visiting orders, 5.85-24.60, where 19 of the 200 runs err at most 7.26 "
                 "(" + _Q2_SEEDS + "): a removal learner's last model scatters widely with the order")

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
