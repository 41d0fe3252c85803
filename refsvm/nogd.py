"""NOGD: Nystrom online gradient descent (reference implementation).

Algorithms 2 (binary), 4 (multi-class) and 6 (regression) of Lu, Hoi, Wang,
Zhao and Liu (2016), *Large scale online kernel learning*, JMLR 17(47).
The compiled mirror is :mod:`refsvm._fast.nogd`, same function, same signature.

Algorithm 2 (NOGD, binary)::

     1: Input: the budget B, step size eta, rank approximation k
     2: Initialize support vector set S_1 = {}, and model f_1 = 0
     3: while |S_t| < B do
     4:   receive new instance x_t
     5:   predict y^_t = sgn(f_t(x_t))
     6:   update f_t by regular online gradient descent (OGD)
     7:   update S_{t+1} = S_t u {t} whenever loss is nonzero
     8:   t = t + 1
     9: end while
    10: construct the kernel matrix K^_t from S_t
    11: [V_k, D_k] = eigs(K^_t, k)
    12: initialize w_t = [alpha_1, ..., alpha_B] (D_k^{-0.5} V_k')^{-1}
    13: initialize the instance index T0 = t
    14: for t = T0, ..., T do
    15:   receive new instance x_t
    16:   z(x_t) = D_k^{-0.5} V_k' (k(x_t, x^_1), ..., k(x_t, x^_B))'
    17:   predict y^_t = sgn(w_t' z(x_t))
    18:   update w_{t+1} = w_t - eta grad l(w_t' z(x_t); y_t)
    19: end for

Algorithm 4 (multi-class) uses eq. 12-13 in the kernel phase (the new SV gets
``+eta`` for the true class and ``-eta`` for the highest-scoring wrong class)
and eq. 10-11 in the linear phase; Algorithm 6 (regression) uses the squared
loss and updates (and adds an SV) only when the loss exceeds ``epsilon``.
Losses, subgradients and the online counters are those of :mod:`refsvm.fogd`.

Reading of the pseudo-code (see also ``docs/ogd.rst``):

* Kernel: the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` only.
* Line 6 "regular OGD" is kernel OGD without regularisation (Kivinen et al.):
  ``f += eta y k(x_t, .)`` (binary), the new SV's coefficient is the negative
  step ``-eta grad``.  Line 7 adds exactly the examples with nonzero loss.
* Lines 10-12 happen right after the B-th SV was added, before the next
  example (that example is the first of the linear phase).
* Line 11: the ``k`` largest eigenvalues of the B x B kernel matrix.
  **Rank-deficient matrices** (duplicate SVs, tiny gamma): eigenvalues
  ``<= eig_tol * lambda_max`` are dropped (``eig_tol = 1e-8`` by default), so
  the rank actually used, ``r = trace["rank_used"]``, may be below ``k``; the
  map never divides by a zero or negative eigenvalue and never yields NaN.
  Eigenvector signs are fixed (largest-magnitude entry positive) so that the
  map is a deterministic function of the kernel matrix.
* Line 12 (**erratum**): ``D_k^{-0.5} V_k'`` is k x B and has no inverse.
  ``w`` should satisfy ``w' z(x) = alpha' k_x``; the least-squares solution is
  the pseudo-inverse, ``w = D_k^{1/2} V_k' alpha`` (shape (r, c)), for which
  ``w' z(x) = alpha' V_k V_k' k_x``: the kernel model projected onto the span
  of the top eigenvectors, and exactly the kernel model when ``r = B``.
* Line 16's ``z(x)`` costs B kernel evaluations and an r x B product per step.
* **Example weights** (``sample_weight``, not in the paper).  A weight
  ``s_t >= 0`` scales the example's loss, hence its gradient: lines 6 and 18
  use the step ``eta s_t`` (the new SV's coefficient is ``-eta s_t grad``;
  eq. 12-13 and 10-11 likewise).  Whether the loss is "nonzero" (line 7;
  Alg. 6: ``> epsilon``) is decided on the unweighted loss, and an example
  with ``s_t = 0`` takes no step and adds no SV.  Counters are unweighted.
  ``s_t = 1``: bitwise the unweighted run.
* **Averaged weights** (``average=True``, not in the paper; the authors'
  released code, LIBOL/KOL's ``kernel_nogd.h``).  KOL adds the linear-phase
  weights after every linear-phase update to a sum and tests with
  ``sum / (number of those updates)``.  With ``average=True`` the pass keeps
  that sum, ``W_sum`` (r, c): zeros at the switch, or the given ``W_sum``
  when the call starts in the linear phase; ``W`` after each update of line 18
  is added to it.  The caller divides by the number of linear-phase updates
  (``updated`` steps that ``added`` no SV).  The last iterate is unchanged.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .kernels import Kernel
from .sparse import n_rows, new_sv_storage
from .ogd import (OGDOptions, OGDRecorder, OGDResult, check_average_state, check_ogd_data, check_weights,
                  rival_class)
from .constants import UNIT_ROUNDOFF
from .online import is_mistake
from .online.common import margin_tolerance
from .tolerance import KernelErrorBound
from .validation import check_gaussian_rows, check_int, check_positive, check_sparse_rows, weights_as_data

#: Default relative cutoff of the eigenvalues kept at the switch.
EIG_TOL = 1e-8


@dataclass(frozen=True)
class NOGDOptions(OGDOptions):
    """NOGD's options (:class:`refsvm.ogd.OGDOptions` and its own), resolved once before the loop."""

    budget: int = 1             #: B, the SVs collected before the switch
    rank: int = 1               #: k, the rank of the approximation (<= B)
    kernel: Kernel = Kernel()   #: the Gaussian kernel exp(-gamma ||x - x'||^2)
    eig_tol: float = EIG_TOL    #: relative eigenvalue cutoff at the switch

    @classmethod
    def of(cls, *, budget, rank, gamma, eig_tol, **shared):
        budget = check_int(budget, "budget", 1)
        rank = check_int(rank, "rank", 1)
        if rank > budget:
            raise ValueError(f"rank must be at most budget={budget}; got {rank}")
        gamma = check_positive(gamma, "gamma")
        eig_tol = check_positive(eig_tol, "eig_tol", allow_zero=True)
        return super().of(budget=budget, rank=rank, kernel=Kernel.of("rbf", gamma), eig_tol=eig_tol, **shared)


class NOGDRecorder(OGDRecorder):
    """NOGD's trace: the online counters and ``updated`` (:class:`refsvm.ogd.OGDRecorder`), plus
    ``added`` (int8 per step), ``kernel_evaluations``, and the switch: ``switch_step``,
    ``eigenvalues`` and ``rank_used`` (-1, empty, -1 when not in this call)."""

    flags = ("updated", "added")
    counters = ("kernel_evaluations",)

    def __init__(self, n_steps, task, c=1):
        super().__init__(n_steps, task, c)
        self.switch_step = -1
        self.eigenvalues = np.zeros(0)

    def kernel_evaluations(self, n):
        self.count("kernel_evaluations", n)

    def add(self, step):
        self.mark("added", step)

    def switch(self, step, eigenvalues):
        self.switch_step, self.eigenvalues = step, eigenvalues

    def trace(self, projection):
        return super().trace(switch_step=int(self.switch_step),
                             rank_used=-1 if projection is None else int(projection.shape[0]),
                             eigenvalues=self.eigenvalues)


def nystrom_map(K, rank, eig_tol):
    """Lines 11-12 helper: ``(P, eigenvalues, V)`` with ``P = D_k^{-1/2} V_k'`` (r, B).

    ``r <= rank``: the ``rank`` largest eigenvalues of the symmetric ``K``,
    then only those ``> eig_tol * lambda_max`` (none if ``lambda_max <= 0``).
    Each eigenvector's largest-magnitude entry is made positive (first on
    ties).  Both paths call this function (the one O(B^3) step of a run).
    """
    lam, V = np.linalg.eigh(np.asarray(K, dtype=np.float64))
    lam, V = lam[::-1][:rank], V[:, ::-1][:, :rank]           # k largest, descending
    keep = lam > eig_tol * lam[0] if lam.size and lam[0] > 0 else np.zeros(lam.size, dtype=bool)
    lam, V = lam[keep], V[:, keep]
    pivot = np.argmax(np.abs(V), axis=0)
    V = V * np.where(V[pivot, np.arange(V.shape[1])] < 0, -1.0, 1.0)
    P = np.ascontiguousarray(V.T / np.sqrt(lam)[:, None])
    return P, np.ascontiguousarray(lam), np.ascontiguousarray(V)


def initial_weights(eigenvalues, V, A):
    """Alg. 2, line 12 (erratum: the pseudo-inverse): ``w = D_k^{1/2} V_k' alpha``, shape (r, c),
    C-contiguous, from the kept ``eigenvalues`` and eigenvectors ``V`` (B, r) of :func:`nystrom_map`
    and the kernel coefficients ``A`` (B, c).  Both paths call this."""
    return np.ascontiguousarray(np.sqrt(eigenvalues)[:, None] * (V.T @ A))


def check_nogd_state(X, options, sv, alpha, projection, W):
    """Check the rows for the Gaussian kernel and the state to continue from (both twins call this).

    Returns ``(sv, alpha, projection, W)`` as float64 arrays (None where absent).
    """
    budget, rank, c = options.budget, options.rank, options.c
    check_gaussian_rows(X)
    d = X.shape[1]
    if sv is None or n_rows(sv) == 0:
        if projection is not None or W is not None:
            raise ValueError("projection and W need the support vectors sv they were built from")
        return None, None, None, None
    if sp.issparse(sv):                                        # sparse SVs (a model trained on CSR)
        if sv.shape[1] != d:
            raise ValueError(f"sv must have shape (n_sv, {d}); got {sv.shape}")
        sv = check_sparse_rows(sv, "sv")
    else:
        sv = check_weights(sv, (len(sv), d), "sv")
    if projection is None:
        if W is not None:
            raise ValueError("W is the linear phase's state: pass it with its projection")
        if sv.shape[0] >= budget:
            raise ValueError(f"sv holds {sv.shape[0]} support vectors in the kernel phase; "
                             f"it must hold fewer than budget={budget}")
        alpha = check_weights(alpha, (sv.shape[0], c), "alpha")
        return sv, alpha, None, None
    if sv.shape[0] != budget:
        raise ValueError(f"sv must hold budget={budget} support vectors after the switch; got {sv.shape[0]}")
    projection = np.array(projection, dtype=np.float64, order="C")
    if projection.ndim != 2 or projection.shape[1] != budget or projection.shape[0] > rank:
        raise ValueError(f"projection must have shape (r, {budget}) with r <= rank={rank}; "
                         f"got {projection.shape}")
    W = check_weights(W, (projection.shape[0], c), "W")
    if alpha is not None:
        alpha = check_weights(alpha, (budget, c), "alpha")
    return sv, alpha, projection, W


def initial_model(X, options, sv, alpha, n_steps):
    """Alg. 2, line 2: ``S_1 = {}``, ``f_1 = 0``, or the given kernel-phase state; returns the SV
    storage ``SV`` and coefficients ``A`` with room for the SVs this call can hold (budget
    10**9: n), and the number ``b`` of SVs in them.  Sparse X: sparse SV slots (refsvm.sparse)."""
    b = 0 if sv is None else sv.shape[0]
    cap = min(options.budget, b + n_steps)
    SV, A = new_sv_storage(cap, X), np.zeros((cap, options.c))
    if b:
        SV[:b] = sv
        if alpha is not None:
            A[:b] = alpha
    return SV, A, b


def feature_error(projection, eps_K):
    """``eps_z``: a bound of the error of one Nystrom feature ``z_i = sum_j P_ij k_j`` (the mistake
    counter's tolerance in the linear phase; both paths call this).  Error bound: ``B`` products summed
    in any order err by at most ``(B + 2) u sum_j |P_ij k_j|``, each Gaussian ``|k_j| <= 1 + eps_K``,
    and each ``k_j`` by at most ``eps_K``: ``((B + 2) u (1 + eps_K) + eps_K) max_i sum_j |P_ij|``."""
    P = np.asarray(projection)
    if P.size == 0:
        return 0.0
    return float(((P.shape[1] + 2) * UNIT_ROUNDOFF * (1.0 + eps_K) + eps_K) * np.max(np.sum(np.abs(P), axis=1)))


def negative_gradient(options, f, y_t, eta_t, rec, tol=0.0):
    """The loss of ``f`` for ``y_t`` and the step's coefficient ``beta = -eta_t grad l`` (c,), in both
    phases: ``(loss is nonzero, beta)``.  Alg. 2 (hinge), Alg. 4 (eq. 9; ``+eta`` for the true class,
    ``-eta`` for the highest-scoring wrong one, eq. 10-13), Alg. 6 (squared loss, nonzero means
    ``> epsilon``).  The online mistake or loss goes to the recorder ``rec`` (``tol``: the scores' error
    bound; a margin within it of 0 is 0, :func:`refsvm.online.common.margin_tolerance`)."""
    if options.task == "binary":
        rec.mistake(is_mistake(y_t, f[0], options.zero_prediction, tol))   # as FOGD (refsvm.online.is_mistake)
        return y_t * f[0] < 1.0, np.array([eta_t * y_t])              # hinge loss > 0
    if options.task == "multiclass":
        s_t = rival_class(f, y_t)                             # eq. 9: highest-scoring wrong class
        rec.mistake(f[s_t] >= f[y_t] - tol)
        beta = np.zeros(options.c)
        beta[y_t] = eta_t                                     # eq. 10 / 12
        beta[s_t] = -eta_t                                    # eq. 11 / 13
        return 1.0 - f[y_t] + f[s_t] > 0.0, beta
    loss = (f[0] - y_t) ** 2
    rec.squared_loss(loss)
    return loss > options.epsilon, np.array([-eta_t * 2.0 * (f[0] - y_t)])   # Alg. 6: -eta grad of (f - y)^2


def nogd_result(rec, sv, A, b, alpha, projection, W, W_sum, t0):
    """The :class:`refsvm.ogd.OGDResult` of a pass (both twins call this): the SVs ``sv`` (the
    first ``b`` rows of the storage, copied; None if none), their coefficients (when the call
    started with them, ended in the kernel phase or switched), the linear-phase state and the trace."""
    switched = rec.switch_step >= 0
    alpha_out = A[:b].copy() if (b > 0 and (alpha is not None or projection is None or switched)) else None
    return OGDResult(W=W, t=int(t0) + rec.n_steps, trace=rec.trace(projection), sv=sv, alpha=alpha_out,
                     projection=projection, W_sum=W_sum)


def nogd(X, y, order, *, task, n_classes, budget, rank, gamma, eta, epsilon=0.0, eig_tol=EIG_TOL,
         sv=None, alpha=None, projection=None, W=None, t0=0, sample_weight=None, zero_prediction="mistake",
         average=False, W_sum=None):
    """One pass of NOGD (Algorithm 2, 4 or 6) over ``X[order]``, continuing a state.

    Parameters
    ----------
    X, y, order, task, n_classes, eta, epsilon, t0
        As in :func:`refsvm.fogd.fogd`.
    budget : int
        B, the number of SVs collected before the switch (>= 1).
    rank : int
        k, the rank of the approximation (1 <= k <= B; the paper uses 0.2 B).
    gamma : float
        Gaussian kernel ``exp(-gamma ||x - x'||^2)`` (> 0).
    eig_tol : float
        Relative eigenvalue cutoff at the switch (see the module notes).
    sv, alpha, projection, W
        State to continue from (``None``: empty model).  Kernel phase:
        ``sv`` (n_sv < B, d) and ``alpha`` (n_sv, c).  Linear phase: ``sv``
        (B, d), ``projection`` (r, B), ``W`` (r, c) (``alpha`` optional).
        Chunked calls passing the returned state on equal one call over the
        concatenated orders, the switch included.
    sample_weight : ndarray of shape (n,), float64, or None
        Weight ``s_t >= 0`` of example ``X[i]`` (indexed like ``y``): step
        ``eta s_t`` (module docstring).  ``None``: all 1.
    zero_prediction : {"mistake", "positive"}
        Binary task: how ``f_t(x_t) = 0`` is counted (:func:`refsvm.online.is_mistake`);
        only the mistake count changes.
    average : bool
        Keep the sum of the linear-phase weights after each linear-phase
        update (the averaged variant, module docstring).
    W_sum : ndarray of shape (r, c) or None
        ``average=True`` in the linear phase: the sum to continue (``None``:
        zeros).  Must be ``None`` in the kernel phase and without ``average``.

    Returns
    -------
    OGDResult
        ``sv``, ``alpha``, ``projection``, ``W``, ``t`` and the trace:
        ``mistakes`` / ``squared_loss_sum``, ``n_steps``, ``updated`` and
        ``added`` (int8 per step), ``n_updates``, ``switch_step`` (index into
        ``order`` of the step whose SV completed the budget, -1 if the switch
        is not in this call), ``rank_used`` (r, -1 before the switch),
        ``eigenvalues`` (kept at the switch, empty if not in this call) and
        ``kernel_evaluations`` (n_sv per kernel-phase step, B^2 for K at the
        switch, B per linear-phase step).  ``average=True``: ``W_sum`` once
        the pass is in the linear phase (else ``None``).
    """
    o = NOGDOptions.of(task=task, n_classes=n_classes, budget=budget, rank=rank, gamma=gamma, eta=eta,
                       epsilon=epsilon, eig_tol=eig_tol, zero_prediction=zero_prediction, average=average)
    X, y, order = check_ogd_data(X, y, order, t0, o)
    sv, alpha, projection, W = check_nogd_state(X, o, sv, alpha, projection, W)
    W_sum = check_average_state(o.average, W_sum, W)
    s = weights_as_data(sample_weight, X.shape[0])
    SV, A, b = initial_model(X, o, sv, alpha, len(order))     # Alg. 2, line 2: S_1 = {}, f_1 = 0
    rec = NOGDRecorder(len(order), o.task, o.c)
    kernel_error = KernelErrorBound(X.shape[1], sv, o.kernel)   # the kernel values' (the mistake counter's)
    for step, i in enumerate(order):                          # Alg. 2, line 3 (while |S_t| < B), then line 14
        x_t, y_t, eta_t = X[i], y[i], o.eta * s[i]            # Alg. 2, line 4 / line 15 (the step: eta s_t)
        k_t = o.kernel.row(SV[:b], x_t)                       # k(x_t, x_j) for the SVs (lines 5, 16)
        rec.kernel_evaluations(b)
        if projection is not None:
            z = projection @ k_t                              # Alg. 2, line 16: z(x_t)
            f = z @ W                                         # Alg. 2, line 17
            tol = margin_tolerance(z[:, None], W, feature_error(projection, kernel_error.at(x_t)))   # f's
        else:
            f = k_t @ A[:b]                                   # Alg. 2, line 5: f_t(x_t)
            tol = margin_tolerance(k_t[:, None], A[:b], kernel_error.at(x_t))   # f's error bound
        rec.score(f)                                          # per-step records (opt-in): f_t(x_t)
        nonzero, beta = negative_gradient(o, f, y_t, eta_t, rec, tol)   # loss, beta = -eta s_t grad l
        if not nonzero or eta_t == 0.0:                       # s_t = 0: weighted loss 0
            continue
        rec.update(step)
        if projection is not None:
            W += np.outer(z, beta)                            # Alg. 2, line 18
            if W_sum is not None:
                W_sum += W                                    # averaged variant: sum of w_{t+1} (KOL)
            continue
        SV[b] = x_t                                           # Alg. 2, lines 6-7: f += beta k(x_t, .)
        A[b] = beta
        b += 1
        rec.add(step)
        if b == o.budget:                                     # Alg. 2, line 3: |S_t| reaches B
            K = o.kernel.matrix(SV[:b], SV[:b])               # Alg. 2, line 10
            rec.kernel_evaluations(b * b)
            projection, eigenvalues, V = nystrom_map(K, o.rank, o.eig_tol)   # Alg. 2, line 11
            W = initial_weights(eigenvalues, V, A)            # Alg. 2, line 12 (pseudo-inverse)
            W_sum = np.zeros_like(W) if o.average else None   # the averaged variant's sum starts here
            rec.switch(step, eigenvalues)                     # Alg. 2, line 13: T0 = t
    return nogd_result(rec, SV[:b].copy() if b else None, A, b, alpha, projection, W, W_sum, t0)
