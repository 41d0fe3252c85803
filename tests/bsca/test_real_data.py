"""BSCA on real data (REFSVM_DATA): one pass, B = 500, the paper's Table 1 parameters.

Qaadan, Schüler & Glasmachers (2019), Table 2, one pass with B = 500:
BSCA 83.18 % (ADULT = a9a, C = 2^5, gamma = 2^-7) and 97.27 % (IJCNN = ijcnn1,
C = 2^5, gamma = 2); BSGD 80.74 % / 96.68 %.  Requirement: our BSCA's mean over
seeds 0-4 within 0.5 points of the paper and above our BSGD's mean.

Measured (this code, raw LIBSVM features, sampling="uniform" as printed):

* ijcnn1: BSCA 98.05 97.79 97.75 96.99 97.53 % (mean 97.62, sd 0.35);
  BSGD 96.83 96.73 96.65 95.83 94.46 % (mean 96.10, sd 0.89).  Met.
* a9a: BSCA 83.49 80.36 77.58 70.41 72.96 % (mean 76.96, sd 4.77);
  BSGD 79.58 74.77 81.70 79.09 82.88 % (mean 79.60, sd 2.78).  NOT met: kept
  as a strict xfail.  It is not the budget: one pass of *exact* kernel SDCA
  (budget=None) gives the same 70.5 / 72.9 % on seeds 3 / 4; one uniform pass
  at C = 32 leaves the dual far from its optimum (many coordinates never
  visited, 37 %).  With a permutation per epoch (sampling="permutation")
  a9a gives 84.14 81.88 83.42 83.70 77.43 % (mean 82.12), above BSGD; that is
  the guard test.  Three uniform epochs give 83.4 / 79.1 % (seeds 3 / 4).
"""

import numpy as np
import pytest

from refsvm import BSCAClassifier, BudgetedSVC

PAPER = {"a9a": 0.8318, "ijcnn1": 0.9727}
GAMMA = {"a9a": 2.0 ** -7, "ijcnn1": 2.0}
SEEDS = range(5)


@pytest.fixture(scope="module")
def runs():
    cache = {}

    def get(require_data, name, solver, sampling="uniform"):
        key = (name, solver, sampling)
        if key not in cache:
            X, y, Xt, yt = require_data(name, standardize=False)
            acc = []
            for seed in SEEDS:
                if solver == "bsca":
                    est = BSCAClassifier(budget=500, C=32.0, gamma=GAMMA[name], sampling=sampling,
                                         random_state=seed)
                else:
                    est = BudgetedSVC(budget=500, lam=1.0 / (32.0 * len(y)), gamma=GAMMA[name],
                                      random_state=seed)
                acc.append(est.fit(X, y).score(Xt, yt))
            cache[key] = np.array(acc)
        return cache[key]

    return get


def _check(runs, require_data, name):
    bsca = runs(require_data, name, "bsca")
    bsgd = runs(require_data, name, "bsgd")
    msg = (f"{name}: BSCA {np.round(bsca * 100, 2)} mean {bsca.mean():.4f}; "
           f"BSGD {np.round(bsgd * 100, 2)} mean {bsgd.mean():.4f}; paper {PAPER[name]}")
    assert abs(bsca.mean() - PAPER[name]) <= 0.005, msg
    assert bsca.mean() > bsgd.mean(), msg


def test_ijcnn1_matches_paper_and_beats_bsgd(runs, require_data):
    _check(runs, require_data, "ijcnn1")


@pytest.mark.xfail(strict=True, reason="a9a, one uniform pass: BSCA mean 76.96% (83.49 80.36 77.58 70.41 "
                   "72.96), below the paper's 83.18% and our BSGD's 79.60%; see module docstring")
def test_a9a_matches_paper_and_beats_bsgd(runs, require_data):
    _check(runs, require_data, "a9a")


def test_a9a_permutation_beats_bsgd(runs, require_data):
    """Guard: with a permutation per epoch, BSCA beats BSGD on a9a and stays near the paper."""
    perm = runs(require_data, "a9a", "bsca", "permutation")
    bsgd = runs(require_data, "a9a", "bsgd")
    assert perm.mean() > bsgd.mean() + 0.01, (perm, bsgd)
    assert perm.mean() > PAPER["a9a"] - 0.02, perm
