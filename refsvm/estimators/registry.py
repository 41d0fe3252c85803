"""The solvers refsvm trains, by name: one registry for the command line and ``refsvm reproduce``.

Each :class:`Solver` names its estimator class, the paper, the tasks it
handles and the ``refsvm train`` options it uses (besides the options every
solver uses: :data:`COMMON_OPTIONS`).  ``refsvm train --solver NAME`` takes
every name of :data:`SOLVERS` and refuses an option the solver does not use;
:func:`estimator_class` resolves a registry name (or a dotted path such as
``"refsvm.BSCAClassifier"``) for the reproduction's runners.
"""

import importlib
from dataclasses import dataclass, field

__all__ = ["Solver", "SOLVERS", "COMMON_OPTIONS", "estimator_class", "make_estimator", "cost_per_epoch"]

#: ``refsvm train`` options (argparse destinations) that every solver uses.
COMMON_OPTIONS = ("gamma", "epochs", "backend", "random_state", "verbose", "test", "zero_based", "max_memory",
                  "pad_features", "sparse")

_KERNEL = ("kernel", "degree", "coef0")
_REFIT = ("refit_bias", "refit_rows")


@dataclass(frozen=True)
class Solver:
    """One trainable solver."""

    name: str                        #: ``--solver`` value
    estimator: str                   #: class name in :mod:`refsvm`
    paper: str                       #: what it is, in a few words
    options: tuple                   #: train options it uses, besides COMMON_OPTIONS
    regression: str = None           #: class name for ``--regression`` (None: classification only)
    params: dict = field(default_factory=dict)   #: fixed estimator parameters (e.g. the algorithm)
    regression_options: tuple = None  #: train options it uses with ``--regression`` (None: ``options``)


def _regressor(algorithm, *options):
    """The fields of a baseline with a regression version (``OnlineKernelRegressor``, Lu et al. 2016,
    section 7.4): ``--regression``, ``--epsilon``, ``--eta`` (the step) and ``options``."""
    return dict(regression="OnlineKernelRegressor",
                regression_options=("regression", "epsilon", "eta") + options + _KERNEL)


_BUDGETED = ("budget",)
SOLVERS = {s.name: s for s in (
    Solver("bsgd", "BudgetedSVC", "budgeted SGD: Pegasos / Norma / margin perceptron (Wang, Crammer, Vucetic 2012)",
           _BUDGETED + ("lam", "C", "learning_rate", "eta", "radius", "maintenance", "merge_eps", "merge_solver",
                        "fit_bias") + _KERNEL + _REFIT),
    Solver("bsca", "BSCAClassifier", "dual coordinate ascent on a budget (Qaadan, Schueler, Glasmachers 2019)",
           _BUDGETED + ("lam", "C", "maintenance", "merge_eps", "merge_solver") + _KERNEL + _REFIT),
    Solver("sbp", "SBPClassifier", "the kernelized stochastic batch perceptron (Cotter, Shalev-Shwartz, Srebro 2012)",
           ("nu", "fit_bias") + _KERNEL + _REFIT),
    Solver("fogd", "FOGDClassifier", "Fourier online gradient descent (Lu, Hoi et al. 2016)",
           ("n_components", "normalize", "average", "eta", "regression", "epsilon"), regression="FOGDRegressor"),
    Solver("nogd", "NOGDClassifier", "Nystroem online gradient descent (Lu, Hoi et al. 2016)",
           _BUDGETED + ("rank", "average", "eta", "regression", "epsilon"), regression="NOGDRegressor"),
    Solver("perceptron", "OnlineKernelClassifier", "kernel perceptron, no budget (baseline)",
           _KERNEL + _REFIT, params={"algorithm": "perceptron"}, **_regressor("perceptron")),
    Solver("ogd", "OnlineKernelClassifier", "kernel OGD, no budget (baseline)",
           ("eta",) + _KERNEL + _REFIT, params={"algorithm": "ogd"}, **_regressor("ogd")),
    Solver("rbp", "OnlineKernelClassifier", "random budget perceptron (baseline)",
           _BUDGETED + _KERNEL + _REFIT, params={"algorithm": "rbp"}, **_regressor("rbp", "budget")),
    Solver("forgetron", "OnlineKernelClassifier", "Forgetron (baseline)",
           _BUDGETED + _KERNEL + _REFIT, params={"algorithm": "forgetron"}, **_regressor("forgetron", "budget")),
    Solver("projectron", "OnlineKernelClassifier", "Projectron (baseline; --eta: projection threshold)",
           _BUDGETED + ("eta",) + _KERNEL + _REFIT, params={"algorithm": "projectron"},
           **_regressor("projectron", "budget")),
    Solver("projectron++", "OnlineKernelClassifier", "Projectron++ (baseline; --eta: projection threshold)",
           _BUDGETED + ("eta",) + _KERNEL + _REFIT, params={"algorithm": "projectron++"}),
    Solver("bpas", "OnlineKernelClassifier", "budgeted passive-aggressive, simple (baseline; --C)",
           _BUDGETED + ("C",) + _KERNEL + _REFIT, params={"algorithm": "bpas"}),
    Solver("bpann", "OnlineKernelClassifier", "budgeted passive-aggressive, nearest neighbour, binary "
           "(baseline; --C)", _BUDGETED + ("C",) + _KERNEL + _REFIT, params={"algorithm": "bpann"}),
    Solver("bogd", "OnlineKernelClassifier", "bounded OGD (baseline; --eta, --lam, --max-coef)",
           _BUDGETED + ("eta", "lam", "max_coef") + _KERNEL + _REFIT, params={"algorithm": "bogd"},
           **_regressor("bogd", "budget", "lam", "max_coef")),
    Solver("idsvm", "IncrementalSVC", "the exact incremental SVM (Cauwenberghs & Poggio 2000; baseline; "
           "--C, --max-examples)", ("C", "max_examples") + _KERNEL),
    Solver("norma", "OnlineKernelRegressor", "Norma with an adaptive tube, regression only (baseline; --regression, "
           "--eta, --lam, --nu, --epsilon)", ("regression", "epsilon", "eta", "lam", "nu") + _KERNEL,
           regression="OnlineKernelRegressor", params={"algorithm": "norma"}),
)}


def estimator_class(name):
    """The estimator class of a registry name (``"bsca"``) or a dotted path (``"refsvm.BSCAClassifier"``)."""
    if name in SOLVERS:
        name = "refsvm." + SOLVERS[name].estimator
    module, _, cls = name.rpartition(".")
    if not module:
        raise ValueError(f"estimator: {name!r} is neither a solver ({', '.join(SOLVERS)}) nor a dotted path")
    return getattr(importlib.import_module(module), cls)


def make_estimator(name, regression=False, **params):
    """An estimator of solver ``name`` with ``params`` (plus the solver's fixed parameters)."""
    solver = SOLVERS[name]
    if regression and solver.regression is None:
        raise ValueError(f"regression: --solver {name} is a classifier; "
                         f"{', '.join(n for n, s in SOLVERS.items() if s.regression)} do regression")
    if not regression and solver.estimator.endswith("Regressor"):
        raise ValueError(f"regression: --solver {name} is a regression learner; add --regression")
    cls = estimator_class("refsvm." + (solver.regression if regression else solver.estimator))
    return cls(**solver.params, **params)


def cost_per_epoch(name, n, budget=None, n_components=None, classes=2):
    """``(count, what)``: the kernel evaluations (FOGD: feature-map entries) one epoch of solver ``name``
    needs at most on ``n`` examples, for the progress line's up-front estimate.

    One margin row per step over at most ``budget`` SVs (BSGD, BSCA, NOGD, the budgeted baselines;
    one machine per class for BSCA's one-vs-rest); SBP computes a full kernel row (``n``) per
    iteration; the unbudgeted Perceptron / OGD up to ``n`` SVs; FOGD ``n x n_components`` sin/cos pairs.
    """
    machines = classes if (name in ("bsca", "sbp") or SOLVERS[name].estimator == "OnlineKernelClassifier") \
        and classes > 2 else 1
    if name == "fogd":
        return n * (n_components or 0), "feature-map entries (n x n_components)"
    if name == "sbp":
        return machines * n * n, "kernel evaluations (n iterations x n, per one-vs-rest machine)"
    if name in ("perceptron", "ogd", "norma"):
        return machines * n * n, "kernel evaluations at most (n x the SVs, up to n; no budget)"
    width = min(budget or n, n)
    return machines * n * width, "kernel evaluations at most (n x min(budget, n)" + \
        (", per one-vs-rest machine)" if machines > 1 else ")")
