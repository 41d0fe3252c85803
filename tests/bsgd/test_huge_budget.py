"""A budget above what a run can use (e.g. 10**9: "no budget pressure", as on a log-scale sweep) costs
nothing: every solver's storage is sized by the run, and the model is that of budget = n."""

import numpy as np
import pytest

from refsvm import BSCAClassifier, BudgetedSVC, FOGDClassifier, NOGDClassifier, NOGDRegressor, OnlineKernelClassifier
from refsvm.datasets import checkerboard

X, Y = checkerboard(200, random_state=0)
X = np.hstack([X, np.random.default_rng(1).normal(size=(200, 3))])   # 200 x 5, as the report
R = X[:, 0] - X[:, 1]
HUGE = 10 ** 9

MAKERS = [
    ("BudgetedSVC", lambda b, be: BudgetedSVC(budget=b, gamma=2.0, maintenance="projection", random_state=0,
                                              backend=be), Y),
    ("BSCAClassifier", lambda b, be: BSCAClassifier(budget=b, gamma=2.0, random_state=0, backend=be), Y),
    ("BSCAClassifier-append", lambda b, be: BSCAClassifier(budget=b, gamma=2.0, sv_update="append", epochs=2,
                                                           random_state=0, backend=be), Y),
    ("NOGDClassifier", lambda b, be: NOGDClassifier(budget=b, rank=10, gamma=2.0, random_state=0, backend=be), Y),
    ("NOGDRegressor", lambda b, be: NOGDRegressor(budget=b, rank=10, gamma=2.0, random_state=0, backend=be), R),
] + [(f"online-{a}", (lambda a: lambda b, be: OnlineKernelClassifier(algorithm=a, budget=b, gamma=2.0,
                                                                       random_state=0, backend=be))(a), Y)
     for a in ("rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")]


@pytest.mark.parametrize("backend", ["python", "fast"])
@pytest.mark.parametrize("name, make, target", MAKERS, ids=[m[0] for m in MAKERS])
def test_huge_budget_trains_saves_loads_and_equals_budget_n(tmp_path, name, make, target, backend):
    huge = make(HUGE, backend).fit(X, target)
    plain = make(len(X) * 2, backend).fit(X, target)         # a budget the run can never fill
    np.testing.assert_allclose(huge.predict(X), plain.predict(X))
    if hasattr(huge, "decision_function"):
        np.testing.assert_array_equal(huge.decision_function(X), plain.decision_function(X))
    huge.save(tmp_path / "m.npz")
    again = type(huge).load(tmp_path / "m.npz")
    np.testing.assert_array_equal(again.predict(X), huge.predict(X))
    if name == "BudgetedSVC":
        continued = make(HUGE, backend).fit(X, target)
        continued.partial_fit(X, target)                         # grown when more examples arrive
        assert continued.support_vectors_.shape[0] <= 2 * len(X)


def test_nogd_without_the_switch_stays_a_kernel_expansion():
    est = NOGDClassifier(budget=HUGE, rank=10, gamma=2.0, random_state=0).fit(X, Y)
    assert est.trace_[-1]["switch_step"] == -1


def test_storage_the_machine_cannot_give_is_one_error_before_any_work():
    Xa = np.zeros((5, 123))
    Xa[:, 0] = [0, 1, 0, 1, 0]
    with pytest.raises(ValueError, match=r"n_components: .* needs \d+\.\d GiB, more than this machine"):
        FOGDClassifier(n_components=10 ** 8, gamma=1.0).fit(Xa, [0, 1, 0, 1, 0])
