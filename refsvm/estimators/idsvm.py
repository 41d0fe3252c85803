"""The IDSVM estimator: the exact incremental SVM of Cauwenberghs & Poggio (2000).

:class:`IncrementalSVC` is a thin layer over :func:`refsvm.idsvm.idsvm` (or its compiled mirror
:func:`refsvm._fast.idsvm.idsvm`): it validates the input, maps the two labels to -1/+1, draws the
visiting order and calls the algorithm once per machine, continuing the machines' bookkeeping
(``state_``) on :meth:`partial_fit`.  The bookkeeping is documented in :mod:`refsvm.idsvm`.
"""

import numpy as np
import scipy.sparse as sp

from ..backend import BACKENDS, get_module
from ..validation import check_finite_real, check_gamma, check_int, check_option, check_positive
from ._base import BudgetedClassifierBase

__all__ = ["IncrementalSVC"]

KERNELS = ("rbf", "linear", "poly")


class IncrementalSVC(BudgetedClassifierBase):
    r"""The exact SVM trained online: IDSVM, the incremental SVM of Cauwenberghs & Poggio (2000).

    Wang, Crammer & Vucetic (2012, Table 3) list it as the online algorithm "which achieves the
    optimal solution": after every example the model is the SVM (hinge loss, box ``C``, bias) of
    all examples seen so far, kept by the bookkeeping of its KKT conditions (:mod:`refsvm.idsvm`).
    The model after the pass is therefore scikit-learn's ``SVC`` on the same rows (to the
    bookkeeping's rounding; ``trace_[0]["kkt_violation"]`` certifies it), reached in one pass;
    ``max_examples`` stops the pass early as the paper's runs stopped (after 10,000 s).

    More than two classes: one against the rest, one IDSVM per class over the same visiting order,
    stacked into one model whose column ``r`` holds class ``r``'s coefficients (not in the paper:
    "only binary classification versions of these algorithms are available").  Sparse input is
    densified (the kernel matrix of the examples seen is dense anyway).  Cost: the kernel matrix of the examples seen (``8 m^2`` bytes for ``m``
    examples: 0.8 GB at 10,000) and ``O(m |S|)`` per bookkeeping step (``|S|``: the margin
    vectors).

    Parameters
    ----------
    C : float, default=1.0
        The box of every dual coefficient (times ``sample_weight``).
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel width (``exp(-gamma ||x - x'||^2)``; the polynomial kernel's scale), resolved into
        ``gamma_`` by :meth:`fit` as in :class:`refsvm.BudgetedSVC`.
    kernel : {"rbf", "linear", "poly"}, default="rbf"
    degree : int, default=3
    coef0 : float, default=0.0
    max_examples : int or None, default=None
        Learn the first ``max_examples`` examples of the visiting order only (None: all).
    epochs : int, default=1
        Must be 1: the model after one pass is the exact SVM (a second pass would add every row
        again as a new example).
    backend : {"fast", "python"}, default="fast"
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the visiting order (``rng.permutation(n)``).
    verbose : int, default=0
        Accepted for the common interface; IDSVM prints no progress lines.

    Attributes
    ----------
    classes_, support_vectors_, alpha_, bias_, model_, n_features_in_
        As :class:`refsvm.BudgetedSVC`: ``f(x) = sum_j alpha_[j] k(sv_j, x) + bias_`` over the
        examples with a nonzero dual coefficient.
    trace_ : list of dict
        The trace of :func:`refsvm.idsvm.idsvm` (one dict per call of :meth:`fit` or
        :meth:`partial_fit`), with the KKT certificate ``kkt_violation``; one-vs-rest:
        ``{"per_class": [...], "kkt_violation": largest}``.
    t_ : int
        Examples learned.
    state_ : list of refsvm.idsvm.IDSVMState
        The bookkeeping of each machine (one; one per class against the rest), which
        :meth:`partial_fit` continues: every example seen and their kernel matrix (``8 m^2``
        bytes, held once: the machines share the rows and the matrix).  Not saved by
        :meth:`save`.

    Notes
    -----
    :meth:`partial_fit` continues the exact SVM: after it the model is the SVM of every example
    learned so far (those of :meth:`fit` and of every :meth:`partial_fit` call), each batch visited
    in a random order drawn from the estimator's generator, ``max_examples`` applying per call.
    Rows given again are new examples (the SVM of the multiset), so unlike the budgeted
    estimators, ``k`` calls on the same data are not ``epochs=k``.  The bookkeeping needs every
    example seen (the reserve vectors can rejoin the margin), so the estimator keeps them and their
    kernel matrix (``state_``); a model read by :func:`refsvm.load` has no state and cannot be
    continued.  The model after several calls equals a single :meth:`fit` on the same examples in the
    same order to the bookkeeping's accuracy (each call ends with the final refinement of
    :func:`refsvm.idsvm.refine`), not bitwise.  Each call copies the kernel matrix into the grown
    one (``O(m^2)``): batches of many rows cost about what one :meth:`fit` does, single rows (river's
    ``learn_one``) that copy each.

    Examples
    --------
    >>> from refsvm import IncrementalSVC
    >>> from refsvm.datasets import checkerboard
    >>> X, y = checkerboard(300, random_state=0)
    >>> clf = IncrementalSVC(C=10.0, gamma=30.0, random_state=0).fit(X, y)
    >>> clf.trace_[0]["kkt_violation"] < 1e-6
    True
    """

    _supports_sample_weight = True
    _sparse_rows = True             # CSR passes the checks as CSR and is densified in _one_pass

    def __init__(self, C=1.0, gamma="scale", kernel="rbf", degree=3, coef0=0.0, max_examples=None, epochs=1,
                 backend="fast", random_state=None, verbose=0):
        self.C = C
        self.gamma = gamma
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.max_examples = max_examples
        self.epochs = epochs
        self.backend = backend
        self.random_state = random_state
        self.verbose = verbose

    def _algorithm_params(self):
        kernel = check_option(self.kernel, "kernel", KERNELS)
        check_option(self.backend, "backend", BACKENDS)
        check_finite_real(self.coef0, "coef0")
        if check_int(self.epochs, "epochs", 1) != 1:
            raise ValueError(f"epochs must be 1 for IncrementalSVC (one pass gives the exact SVM; a second pass "
                             f"would add every row again); got {self.epochs!r}")
        if self.max_examples is not None:
            check_int(self.max_examples, "max_examples", 1)
        return dict(C=check_positive(self.C, "C"), kernel=kernel, gamma=check_gamma(self.gamma),
                    degree=check_int(self.degree, "degree", 1), coef0=float(self.coef0))

    def _initial_state(self):
        return None

    def _current_state(self):
        """The machines' bookkeeping, which :meth:`partial_fit` continues."""
        return self.state_

    def _one_pass(self, X, y, params, state):
        """The pass over the first ``max_examples`` rows of a random order (the same order for every
        one-vs-rest machine), continuing ``state`` (one :class:`refsvm.idsvm.IDSVMState` per machine, or
        None); store the model (one column per machine over the union of their SVs) and the states."""
        order = self._rng.permutation(X.shape[0])
        if self.max_examples is not None:
            order = order[:self.max_examples]
        params = dict(params)
        weights = params.pop("sample_weight", None)
        X = X.toarray() if sp.issparse(X) else X          # the function keeps a dense kernel matrix anyway
        idsvm = get_module("idsvm", self.backend).idsvm
        if self.classes_.size == 2:
            problems = [y]
        else:
            problems = [np.where(y == r, 1, -1).astype(np.int64) for r in range(self.classes_.size)]
        results = []
        for r, labels in enumerate(problems):
            res = idsvm(X, labels, order, sample_weight=weights, state=None if state is None else state[r], **params)
            if results:                      # the machines' rows and kernel matrix are one: keep them once
                share_rows(res.state, results[0].state)
            results.append(res)
        rows = X if state is None else np.vstack((state[0].X, X))      # what the results' support indexes
        support = np.unique(np.concatenate([res.support for res in results]))
        coef = np.zeros((support.size, len(results)))
        for r, res in enumerate(results):
            coef[np.searchsorted(support, res.support), r] = res.alpha[:, 0]
        self._set_model(rows[support], coef, np.array([res.bias for res in results]))
        self.state_ = [res.state for res in results]
        self.t_ += int(order.shape[0])
        self.trace_.append(results[0].trace if len(results) == 1 else
                           {"per_class": [res.trace for res in results],
                            "kkt_violation": max(res.trace["kkt_violation"] for res in results)})
        return None


def share_rows(state, first):
    """Point ``state``'s rows and kernel matrix at ``first``'s when they are equal (every machine visits
    the same examples in the same order, so they are, bitwise): one copy in memory, not one per class."""
    for name in ("X", "K"):
        if np.array_equal(getattr(state, name), getattr(first, name)):
            setattr(state, name, getattr(first, name))
