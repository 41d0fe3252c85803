"""Shared pieces of FOGD and NOGD (Lu, Hoi, Wang, Zhao and Liu, 2016).

J. Lu, S. C. H. Hoi, J. Wang, P. Zhao, Z.-Y. Liu (2016), *Large scale online
kernel learning*, Journal of Machine Learning Research 17(47), 1-43.

Used by both paths (:mod:`refsvm.fogd`, :mod:`refsvm.nogd` and their compiled
twins :mod:`refsvm._fast.fogd`, :mod:`refsvm._fast.nogd`):

* :class:`OGDResult`, what one pass returns;
* :class:`OGDOptions`, the options of a pass, resolved and checked once before the loop
  (FOGD and NOGD extend it with their own);
* :func:`check_ogd_data`, the one data check both twins call;
* :class:`OGDRecorder`, the online counters and per-step flags of a pass, from which
  both paths assemble the trace (FOGD's and NOGD's recorders extend it);
* :func:`rival_class`, eq. 9 (the highest-scoring wrong class);
* :func:`fourier_directions`, how a caller draws ``u_1..u_D`` (Alg. 1, line 3)
  from a generator, so that randomness stays outside the algorithms;
* :func:`fourier_features`, the feature map for a whole matrix (prediction).

Tasks and labels (``task``):

* ``"binary"``: labels y in {-1, +1}, one weight column, hinge loss (Alg. 1, 2);
* ``"multiclass"``: labels 0..c-1, c weight columns, multi-class hinge loss
  against the highest-scoring wrong class (Alg. 3, 4, eq. 9-13);
* ``"regression"``: real targets, one weight column, squared loss, update only
  when the loss exceeds ``epsilon`` (Alg. 5, 6).
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .recorder import NoStepRecords, Recorder, StepRecords
from .validation import (ZERO_PREDICTIONS, _all_finite, check_int, check_option, check_positive,
                         check_sparse_rows)

TASKS = ("binary", "multiclass", "regression")


@dataclass
class OGDResult:
    """What one pass of :func:`refsvm.fogd.fogd` or :func:`refsvm.nogd.nogd` returns.

    FOGD fills ``W`` (and ``W_sum`` with ``average=True``).  NOGD returns its whole state so that the next
    call continues from it: in the kernel phase ``sv`` and ``alpha`` (and
    ``projection = W = None``); after the switch ``sv`` (the B SVs, fixed from
    then on), ``alpha`` (the kernel coefficients at the switch, kept for
    diagnostics), ``projection`` (``D_k^{-1/2} V_k'``, shape (r, B)) and ``W``
    (shape (r, c)).
    """

    W: np.ndarray                   #: linear weights, (2D, c) for FOGD, (r, c) for NOGD (None in NOGD's kernel phase)
    t: int                          #: index of the last step taken
    trace: dict = field(default_factory=dict)
    sv: np.ndarray = None           #: NOGD: support vectors (n_sv, d)
    alpha: np.ndarray = None        #: NOGD: kernel coefficients (n_sv, c)
    projection: np.ndarray = None   #: NOGD: D_k^{-1/2} V_k', shape (r, B), None before the switch
    W_sum: np.ndarray = None        #: ``average=True``: the sum of the (NOGD: linear-phase) weights after each update


def n_columns(task, n_classes):
    """Number of weight columns: 1 for binary and regression, ``n_classes`` for multi-class."""
    return n_classes if task == "multiclass" else 1


def fourier_directions(rng, n_components, n_features, gamma):
    """Draw ``U`` (D, d): rows ``u_j ~ N(0, 2 gamma I)`` (Alg. 1, line 3).

    For ``k(x, x') = exp(-gamma ||x - x'||^2)`` the Fourier transform is the
    density of ``N(0, 2 gamma I)``.  (The paper's ``exp(-||x-x'||^2 / (2 sigma^2))``
    with ``p(u) = N(0, sigma^-2 I)`` is the same with ``gamma = 1/(2 sigma^2)``.)
    """
    return rng.normal(0.0, np.sqrt(2.0 * gamma), size=(n_components, n_features))


def fourier_features(U, X, normalize=False):
    """``z(x)`` for every row of ``X``: shape (n, 2D), columns ``sin(u_1'x), cos(u_1'x), ...``.

    ``normalize=False`` is the printed map (``z'z = D``, ``z(x)'z(x') ~ D k(x, x')``);
    ``normalize=True`` divides by ``sqrt(D)`` (``z(x)'z(x') ~ k(x, x')``, the map of
    scikit-learn's ``RBFSampler`` up to its random phases).
    """
    U = np.asarray(U, dtype=np.float64)
    P = (sp.csr_matrix(X) @ U.T) if sp.issparse(X) else np.asarray(X, dtype=np.float64) @ U.T
    Z = np.empty((P.shape[0], 2 * P.shape[1]))
    Z[:, 0::2] = np.sin(P)
    Z[:, 1::2] = np.cos(P)
    if normalize:
        Z /= np.sqrt(U.shape[0])
    return Z


def _check_labels(y, order, task, n_classes, n):
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must have shape ({n},) to match X; got {y.shape}")
    used = y[order] if order.size else y[:0]
    if task == "regression":
        y = np.ascontiguousarray(y, dtype=np.float64)
        if not np.all(np.isfinite(y[order] if order.size else y[:0])):
            raise ValueError("y contains NaN or infinity")
        return y
    yf = np.asarray(used, dtype=np.float64)
    if yf.size and not np.all(yf == np.round(yf)):
        raise ValueError("y must hold integer labels for a classification task")
    y = np.ascontiguousarray(y, dtype=np.int64)
    used = y[order] if order.size else y[:0]
    if task == "binary":
        if used.size and not np.all(np.abs(used) == 1):
            raise ValueError("y must hold labels -1 and +1 for task='binary'")
    elif used.size and (used.min() < 0 or used.max() >= n_classes):
        raise ValueError(f"y must hold labels 0..{n_classes - 1} for n_classes={n_classes}")
    return y


@dataclass(frozen=True)
class OGDOptions:
    """The options FOGD and NOGD share, resolved and checked once before the loop (:meth:`of`).

    ``eta`` and ``epsilon`` are floats; ``c`` is the number of weight columns.  Every error
    names the parameter.
    """

    task: str                   #: "binary", "multiclass" or "regression"
    n_classes: int              #: the number of classes (multi-class only)
    eta: float                  #: the step size
    epsilon: float              #: regression: update only when the squared loss exceeds it
    zero_prediction: str        #: binary: how w'z = 0 is counted (refsvm.online.is_mistake)
    average: bool               #: keep the sum of the weights after each update (KOL's variant)

    @classmethod
    def of(cls, *, task, n_classes, eta, epsilon, zero_prediction, average, **own):
        """Check the shared options and build the (sub)class with the algorithm's ``own`` ones (checked by it)."""
        task = check_option(task, "task", TASKS)
        check_option(zero_prediction, "zero_prediction", ZERO_PREDICTIONS)
        if task == "multiclass":
            check_int(n_classes, "n_classes", 3)
        eta = check_positive(eta, "eta")
        if task == "regression":
            check_positive(epsilon, "epsilon", allow_zero=True)
        if not isinstance(average, (bool, np.bool_)):
            raise ValueError(f"average must be True or False; got {average!r}")
        return cls(task=task, n_classes=n_classes, eta=eta, epsilon=float(epsilon),
                   zero_prediction=zero_prediction, average=bool(average), **own)

    @property
    def c(self):
        """The number of weight columns (:func:`n_columns`)."""
        return n_columns(self.task, self.n_classes)


def check_ogd_data(X, y, order, t0, options):
    """Check the data FOGD and NOGD share; return ``(X, y, order)``.

    ``X`` C-contiguous float64 (n, d), finite (or canonical CSR); ``order`` int64
    indices into X; ``y`` int64 labels (classification) or float64 targets
    (regression), checked against ``options.task``; ``t0`` an integer >= 0.
    Every error names the parameter.
    """
    if sp.issparse(X):                                       # sparse rows (refsvm.sparse): canonical CSR
        X = check_sparse_rows(X)
    else:
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array (n_samples, n_features); got shape {X.shape}")
        if not _all_finite(X):                               # (no temporary the size of X)
            raise ValueError("X contains NaN or infinity")
    order = np.ascontiguousarray(order, dtype=np.int64)
    if order.ndim != 1:
        raise ValueError(f"order must be a 1-D array of indices into X; got shape {order.shape}")
    if order.size and (order.min() < 0 or order.max() >= X.shape[0]):
        raise ValueError(f"order must hold indices in 0..{X.shape[0] - 1}")
    y = _check_labels(y, order, options.task, options.n_classes, X.shape[0])
    check_int(t0, "t0", 0)
    return X, y, order


def rival_class(f, y_t):
    """Eq. 9: ``s_t``, the highest-scoring class other than ``y_t`` (the lowest index on ties)."""
    others = f.copy()
    others[y_t] = -np.inf
    return int(np.argmax(others))


class OGDRecorder(Recorder):
    """The online counters and per-step flags of one FOGD / NOGD pass.

    Events: :meth:`mistake` (classification: the prediction before the update was
    wrong), :meth:`squared_loss` (regression: the online loss), :meth:`update` (the
    weights moved at this step).  :meth:`trace` gives ``n_steps``, ``updated``,
    ``n_updates`` and ``mistakes`` (int) or ``squared_loss_sum`` (float).  The
    compiled twins count in C and hand the counts over once (:meth:`from_counts`).
    Per-step records (opt-in, :func:`refsvm.recorder.recording_steps`): :meth:`score`, the ``c``
    scores of each step before its update (trace keys ``margin`` and an empty ``maint_new_coefficient``).
    """

    flags = ("updated",)

    def __init__(self, n_steps, task, c=1):
        super().__init__(n_steps)
        self.task = task
        self.squared_loss_sum = 0.0
        self.steps = StepRecords.when_on(n_steps, c)
        if task != "regression":
            self.counts["mistakes"] = 0

    @classmethod
    def from_counts(cls, n_steps, task, *, flags, mistakes=0, squared_loss_sum=0.0, **counts):
        """The recorder of a pass counted elsewhere (the compiled twins): per-step ``flags``
        (int8 arrays by name), the online counters and the other ``counts``."""
        rec = cls(n_steps, task)
        rec.steps = NoStepRecords()          # the twins hand their records over themselves (add_step_records)
        rec.step_flags.update(flags)
        rec.counts.update(counts)
        if task != "regression":
            rec.counts["mistakes"] = int(mistakes)
        rec.squared_loss_sum = float(squared_loss_sum)
        return rec

    def mistake(self, wrong):
        self.count("mistakes", wrong)

    def score(self, f):
        """The step's scores ``f`` (one a class; the prediction for regression) before its update."""
        self.steps.margin(f)

    def squared_loss(self, loss):
        self.squared_loss_sum += loss

    def update(self, step):
        self.mark("updated", step)

    def updated(self, step):
        return self.step_flags["updated"][step]

    def trace(self, **extra):
        loss = {"squared_loss_sum": float(self.squared_loss_sum)} if self.task == "regression" else {}
        return super().trace(n_steps=self.n_steps, n_updates=int(self.step_flags["updated"].sum()),
                             **extra, **loss, **self.steps.trace())


def check_weights(W, shape, name="W"):
    """``W`` as a C-contiguous float64 copy of the given shape (ValueError naming ``name``)."""
    W = np.array(W, dtype=np.float64, order="C")
    if W.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}; got {W.shape}")
    if not np.all(np.isfinite(W)):
        raise ValueError(f"{name} contains NaN or infinity")
    return W


def check_average_state(average, W_sum, W):
    """The averaged variant's ``W_sum`` to start a pass with (FOGD and NOGD, both paths): ``None``
    unless ``average`` (checked by :meth:`OGDOptions.of`) and there are linear weights ``W``
    (NOGD: the linear phase), then the given sum (checked against ``W``'s shape) or zeros like ``W``."""
    if W_sum is not None and not average:
        raise ValueError("W_sum is the averaged variant's state: pass it with average=True")
    if W is None:
        if W_sum is not None:
            raise ValueError("W_sum is the linear phase's state: pass it with W and its projection")
        return None
    if not average:
        return None
    return np.zeros_like(W) if W_sum is None else check_weights(W_sum, W.shape, "W_sum")
