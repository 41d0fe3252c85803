"""Lu, Hoi, Wang, Zhao & Liu (2016), Table 3's BSGD-R row with the budget maintenance the paper names.

Section 7.1.1 describes BSGD-R as "the Budgeted Stochastic Gradient Descent algorithm which extends the Pegasos
algorithm ... by exploring the SV Random Removal strategy for budget maintenance (Wang et al., 2012b)"; its
discussion of Table 3 then says the strategy "simply discards the oldest support vector".  ``lu2016-table3`` runs
refsvm's ``"removal"`` (Wang et al.'s smallest-norm SV, where BPegasos' norms all tie in exact arithmetic); this
companion runs the strategy the row's definition names, ``"random-removal"`` (:data:`refsvm.budget.BSGD_MAINTENANCE`:
a uniformly drawn SV, the draws after each pass's order from the seed's generator,
:func:`refsvm.reproduce.runners.pass_draws`), under lu2016-table3's protocol: the same data sets, gamma and C grid,
C by 5-fold CV on the training split.
"""

from .spec import Entry, Table
from .tables_core import _LU3_BSGD, _LU3_C, BSGD, LU2016_TABLE3, TABLES

ROW = "BSGD-R [random]"

TABLES["lu2016-table3-random"] = Table(
    name="lu2016-table3-random",
    title="Lu, Hoi, Wang, Zhao & Liu (2016), JMLR 17, Table 3's BSGD-R with random removal (the strategy section "
          "7.1.1 names), B = 1000; one pass over the training split, test error of the last model",
    metric=LU2016_TABLE3.metric,
    datasets=LU2016_TABLE3.datasets,
    entries=[Entry(ROW, BSGD, dict(budget=1000, maintenance="random-removal"), per_dataset=_LU3_BSGD,
                   grid=dict(C=_LU3_C), select="cv5")],
    paper={(ROW, ds): v for (row, ds), v in LU2016_TABLE3.paper.items() if row == "BSGD-R"},
    seeds=20,
    note="lu2016-table3's protocol for its BSGD-R row (BPegasos, lambda = 1/(n C), one epoch, no bias, B = 1000, "
         "gamma from Glasmachers & Qaadan's Table 1: a9a 2^-7, w8a 2^-5; C by 5-fold CV on the training split (seed 0) "
         "from {2^-3, 2^-1, 2^1, 2^3, 2^5}) with budget maintenance 'random-removal', the 'SV Random Removal strategy' "
         "of the row's definition in section 7.1.1 (lu2016-table3: refsvm's smallest-norm removal).  The paper's "
         "numbers are its BSGD-R row (BudgetedSVM, 5 permutations).",
)
