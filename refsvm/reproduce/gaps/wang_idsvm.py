"""Why rows of Wang et al.'s IDSVM baseline differ from the paper (``wang2012-table3-idsvm``, ``-table3-idsvm-51k``:
Cauwenberghs & Poggio's exact incremental SVM, Table 3).

IDSVM's model after a pass is the SVM of the examples seen, so its rows are LIBSVM's at the same settings: the table
runs both and every seed gives the same test error (tests/reproduce/test_wang_idsvm_table.py checks it on the
committed run, and every number quoted here).
"""

from .wang import _banana_split, _gauss_test_draw

EXPLAINED = {}
_T3, _T51 = "wang2012-table3-idsvm", "wang2012-table3-idsvm-51k"

#: The LIBSVM rows of wang2012-table3-idsvm are wang2012-table3-all's LIBSVM runs (the same SVC at the same C, gamma,
#: data and split; deterministic): they take that table's stated reasons.
SAME_ROW_RUNS = {(_T3, "LIBSVM", _ds): ("wang2012-table3-all", "LIBSVM", _ds)
                 for _ds in ("Banana", "Gauss", "Checkerboard")}

#: As committed: IDSVM's test error on every seed (= LIBSVM's at the same settings), %, per data set; and the 51K run.
IDSVM_ERRORS = {"Banana": "10.20", "Gauss": "19.70", "Checkerboard": "1.29"}
CHECKERBOARD_51K = "0.67"
#: the binomial standard error of that test error on the 51K table's 10,000 test rows, in points
CHECKERBOARD_51K_SE = "0.08"


def _same_model(ds):
    return (f"IDSVM's model after the pass is the SVM of the training rows: on every seed its test error is the "
            f"LIBSVM row's at the same settings ({IDSVM_ERRORS[ds]}, sd 0)")


EXPLAINED[(_T3, "IDSVM", "Banana")] = ("data", _same_model("Banana") + "; " + _banana_split("table"))
EXPLAINED[(_T3, "IDSVM", "Gauss")] = ("data", _same_model("Gauss") + "; " + _gauss_test_draw(True))
EXPLAINED[(_T3, "IDSVM", "Checkerboard")] = (
    "data", _same_model("Checkerboard") + "; the table trains on 20,000 generated rows where the paper's IDSVM "
            f"learned 51K examples before its 10,000 s stop; on 51,000 rows the same SVM errs {CHECKERBOARD_51K} "
            f"({_T51}, benchmarks/results/reproduce_{_T51}.txt), within one binomial standard error of the paper's "
            "number there")
EXPLAINED[(_T51, "IDSVM [as LIBSVM]", "Checkerboard 51K")] = (
    "data", f"one draw of 10,000 test rows scores the deterministic run: at a {CHECKERBOARD_51K} % error its binomial "
            f"standard error is {CHECKERBOARD_51K_SE} points, more than the gap (the paper's sd is over five runs "
            "with fresh test rows)")
