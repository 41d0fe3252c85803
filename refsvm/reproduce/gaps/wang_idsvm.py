"""Why rows of Wang et al.'s IDSVM baseline differ from the paper (``wang2012-table3-idsvm``, ``-table3-idsvm-51k``,
``-table3-idsvm-stopped``, ``-table3-idsvm-stopped-cv``: Cauwenberghs & Poggio's exact incremental SVM, Table 3).

IDSVM's model after a pass is the SVM of the examples seen, so its rows are LIBSVM's at the same settings: the table
runs both and every seed gives the same test error (tests/reproduce/test_wang_idsvm_table.py checks it on the
committed run, and every number quoted here).
"""

from ._common import _cites
from .wang import _ADULT_CV, _ADULT_CV_ROW, _IJCNN_BOUND, _IJCNN_BOUND_ROW, _banana_split, _gauss_test_draw

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

#: Adult and IJCNN stopped where the paper stopped (8.3K / 33K examples; LIBSVM on them, the model IDSVM has there),
#: as committed, test error %: (the mean at wang2012-table3-all's LIBSVM settings, the mean with a CV of its own, the
#: CV's choice, the paper's IDSVM number); tests/reproduce/test_wang_idsvm_table.py checks each against the runs
_STOPPED, _STOPPED_CV = "wang2012-table3-idsvm-stopped", "wang2012-table3-idsvm-stopped-cv"
STOPPED_ROWS = {"Adult": ("16.78", "15.38", "gamma = 0.25/d, C = 1", "16.07"),
                "IJCNN": ("2.03", "1.32", "gamma = 1/d, C = 10", "1.49")}


def _stopped(ds):
    """``parameters``: the paper's number lies between the row's at two settings, within 2 points of both."""
    at, cv, chosen, paper = STOPPED_ROWS[ds]
    text = (f"the SVM of the paper's {'8,300' if ds == 'Adult' else '33,000'} examples (IDSVM's model where the paper "
            f"stopped it), at wang2012-table3-all's LIBSVM settings (C = 1, gamma = 4/d): "
            + _cites(_STOPPED, "IDSVM [as LIBSVM]", at, paper) + f"; with gamma and C by a 5-fold CV of its own "
            f"({chosen}): " + _cites(_STOPPED_CV, "IDSVM [as LIBSVM, own CV]", cv, paper) + "; the paper's number "
            "lies between the two, within 2 points of both, so the settings account for the gap (from one setting "
            "to the other the test error passes the paper's number): section 7.3 chose IDSVM's C and sigma by "
            "10-fold CV and printed neither")
    if ds == "Adult":
        text += (f"; the CV's choice errs less than the paper's, as LIBSVM's own CV on all of Adult does "
                 f"({_ADULT_CV}: {_ADULT_CV_ROW[2]} where the paper's LIBSVM has {_ADULT_CV_ROW[4]}, at the same "
                 f"gamma = {_ADULT_CV_ROW[0]}/d)")
    else:
        text += (f"; the CV's choice is the point of LIBSVM's lowest test error on all of IJCNN ({_IJCNN_BOUND}: "
                 f"{_IJCNN_BOUND_ROW[0]} at {_IJCNN_BOUND_ROW[1]})")
    return "parameters", text


for _ds in STOPPED_ROWS:
    EXPLAINED[(_STOPPED, "IDSVM [as LIBSVM]", _ds)] = _stopped(_ds)
    EXPLAINED[(_STOPPED_CV, "IDSVM [as LIBSVM, own CV]", _ds)] = _stopped(_ds)
