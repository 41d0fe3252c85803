"""FOGD: Fourier online gradient descent (reference implementation).

Algorithms 1 (binary), 3 (multi-class) and 5 (regression) of Lu, Hoi, Wang,
Zhao and Liu (2016), *Large scale online kernel learning*, JMLR 17(47).
The compiled mirror is :mod:`refsvm._fast.fogd`, same function, same signature.

Algorithm 1 (FOGD, binary)::

     1: Input: the number of Fourier components D, step size eta, kernel k
     2: Initialize w_1 = 0; calculate p(u) for kernel k as (2)
     3: Generate random Fourier components u_1, ..., u_D sampled from p(u)
     4: for t = 1, 2, ..., T do
     5:   receive x_t
     6:   construct z(x_t) = (sin(u_1'x_t), cos(u_1'x_t), ..., sin(u_D'x_t), cos(u_D'x_t))'
     7:   predict y^_t = sgn(w_t' z(x_t))
     8:   receive y_t and suffer loss l(w_t' z(x_t); y_t)
     9:   if l(w_t' z(x_t); y_t) > 0 then
    10:     w_{t+1} = w_t - eta grad l(w_t' z(x_t); y_t)
    11:   end if
    12: end for

Algorithm 3 (multi-class) predicts ``argmax_r w_r' z`` (eq. 8), suffers
``max(0, 1 - w_y'z + w_s'z)`` with ``s`` the highest-scoring wrong class
(eq. 9) and updates ``w_y += eta z``, ``w_s -= eta z`` (eq. 10, 11).
Algorithm 5 (regression) predicts ``w'z``, suffers ``(w'z - y)^2`` and updates
only when that loss exceeds ``epsilon``.

Reading of the pseudo-code (see also ``docs/ogd.rst``):

* Line 3 is done by the caller (:func:`refsvm.ogd.fourier_directions`): ``U``
  (D, d) is an argument, rows ``u_j ~ N(0, 2 gamma I)`` for
  ``k(x, x') = exp(-gamma ||x - x'||^2)``.  No randomness inside.
* Line 6: the printed map has no ``1/sqrt(D)``: ``z(x)'z(x) = D`` and
  ``z(x)'z(x') ~ D k(x, x')``; the multi-class proof uses ``||z||^2 = D``.
  That is the default; ``normalize=True`` divides ``z`` by ``sqrt(D)``
  (then ``z(x)'z(x') ~ k(x, x')`` and step sizes known from scikit-learn's
  ``RBFSampler`` transfer; the printed map with step ``eta`` equals the
  normalised one with step ``eta D``).
* Binary hinge loss: the subgradient ``-y z`` is used where ``y w'z < 1``
  (section 7.2.1), so line 10 is ``w += eta y z``.
* Regression: the gradient of ``(w'z - y)^2`` is ``2 (w'z - y) z``; line 10
  takes it as printed (implementations that drop the 2 use half our ``eta``).
* Online mistakes (binary ``y w'z <= 0``, multi-class ``w_s'z >= w_y'z``) and
  the online squared loss are counted before the update (predict, then update).
* **Example weights** (``sample_weight``, not in the paper).  A weight
  ``s_t >= 0`` scales the example's loss, hence its gradient: **line 10** (and
  eq. 10-11, Alg. 5's update) uses the step ``eta s_t`` instead of ``eta``.
  The test of line 9 (Alg. 5: ``loss > epsilon``) is on the unweighted loss,
  and an example with ``s_t = 0`` takes no step (its weighted loss is 0).
  Counters (mistakes, squared loss) are unweighted.  ``s_t = 1`` computes
  ``eta * 1.0 == eta``: bitwise the unweighted run.
* **Averaged weights** (``average=True``, not in the paper; the authors' released
  code, LIBOL/KOL's ``kernel_fogd.h``).  The paper's output is the last
  iterate ``w_{T+1}``.  KOL adds the weights after every update to a sum and
  predicts at test time with ``sum / (number of updates)``.  With
  ``average=True`` the pass keeps that sum, ``W_sum`` (zeros, or the given one
  to continue), adds ``W`` to it after each update (line 10, eq. 10-11, Alg.
  5's update) and returns it; the caller divides by the number of updates
  (``trace["n_updates"]`` summed over its calls).  The last iterate is not
  changed by it.  (KOL's features also differ from line 6: its ``sin`` is a
  parabola approximation and its second feature ``sign(u'x) |cos u'x|``; only
  the averaging is offered here.)
"""

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .ogd import (OGDOptions, OGDRecorder, OGDResult, check_average_state, check_ogd_data, check_weights,
                  fourier_features, rival_class)
from .constants import UNIT_ROUNDOFF
from .online import is_mistake
from .online.common import margin_tolerance
from .tolerance import SINCOS_ERROR, RowNormBound, feature_error
from .validation import weights_as_data


@dataclass(frozen=True)
class FOGDOptions(OGDOptions):
    """FOGD's options (:class:`refsvm.ogd.OGDOptions` and ``normalize``), resolved once before the loop."""

    normalize: bool = False     #: divide the feature map by sqrt(D) (not in the paper)


class FOGDRecorder(OGDRecorder):
    """FOGD's trace: the online counters and ``updated`` (:class:`refsvm.ogd.OGDRecorder`), plus
    ``kernel_evaluations`` (0: FOGD evaluates no kernel) and ``feature_map_evaluations`` (one a step)."""

    def __init__(self, n_steps, task, drift=None, c=1):
        super().__init__(n_steps, task, c)
        self.drift = drift                  #: the weights' :class:`WeightDrift` (the mistake counter's)

    def update(self, step, step_size=0.0):
        """The weights moved at ``step`` by ``step_size`` times the features (a column each)."""
        super().update(step)
        if self.drift is not None:
            self.drift.move(step_size)

    def trace(self):
        return super().trace(kernel_evaluations=0, feature_map_evaluations=self.n_steps)


class WeightDrift:
    """The mistake counter's error bound of a linear score ``f = W'z`` whose weights were summed online.

    ``W`` is the sum of the steps ``a_t z(x_t)``, and its rounding and the features' error (``eps_z``
    each, :func:`refsvm.tolerance.feature_error` of the rows seen so far, ``|z_i| <= z_max``)
    accumulate: with ``G`` the sum of the ``|a_t|`` of the ``m`` moves and ``w0_max = max|W|`` at the
    call's start, each entry of ``W`` is within ``G (eps_z + u z_max) + m u (w0_max + G z_max)`` of
    its exact value (:func:`weight_drift`).  :meth:`tolerance`: :func:`refsvm.online.common.margin_tolerance`
    of the dot product plus that drift's effect.  The drift the weights carry in from the ``t0``
    steps of earlier calls (chunks, epochs: the same step ``eta`` and weights) is covered by starting
    from ``G = eta max(s) t0`` and ``m = t0`` (a run starts from ``W = 0``, Alg. 1, line 2).
    """

    def __init__(self, u_max, d, scale, W, step_sum=0.0, n_moves=0):
        self.u_max, self.d, self.scale, self.rows = u_max, d, scale, RowNormBound()
        self.z_max = float(scale * (1.0 + SINCOS_ERROR + 4.0 * UNIT_ROUNDOFF))   # |z_i| on both paths
        self.w0_max = float(np.max(np.abs(W))) if W.size else 0.0
        self.step_sum, self.n_moves = float(step_sum), int(n_moves)

    @classmethod
    def of(cls, U, X, W, options, s, t0):
        """The drift bound of a call from its directions ``U``, rows ``X``, weights ``W`` at the start,
        options (``eta``, ``normalize``), example weights ``s`` and steps before it ``t0`` (both paths)."""
        s_max = float(np.max(s)) if len(s) else 0.0
        u_max = math.sqrt(float(np.max(np.einsum("ij,ij->i", U, U))))
        scale = 1.0 / math.sqrt(U.shape[0]) if options.normalize else 1.0
        return cls(u_max, X.shape[1], scale, W, options.eta * s_max * int(t0), int(t0))

    def move(self, step_size):
        self.step_sum += abs(step_size)
        self.n_moves += 1

    def tolerance(self, z, W, x_t):
        """The tolerance of the scores ``z'W`` of row ``x_t`` (over all columns: any two scores' sum)."""
        eps_z = feature_error(self.u_max, self.d, self.rows.see(x_t), self.scale)
        return margin_tolerance(z[:, None], W, eps_z) + weight_drift(
            self.step_sum, self.n_moves, eps_z, self.z_max, self.w0_max, W.shape[0])


def weight_drift(step_sum, n_moves, eps_z, z_max, w0_max, n_rows):
    """:class:`WeightDrift`'s term: ``4 n_rows z_max (G (eps_z + u z_max) + m u (w0_max + G z_max))``
    (``sum_i |z_i| <= n_rows z_max`` times the entries' drift; 4: two scores, two paths).  The twin
    evaluates the same expression (``refsvm._fast.tolerance.weight_drift``)."""
    u = UNIT_ROUNDOFF
    drift = step_sum * (eps_z + u * z_max) + n_moves * u * (w0_max + step_sum * z_max)
    return 4.0 * n_rows * z_max * drift


def check_fogd_data(X, y, order, U, t0, options):
    """:func:`refsvm.ogd.check_ogd_data` and the directions ``U`` (D, d), C-contiguous float64;
    returns ``(X, y, order, U)`` (both twins call this)."""
    X, y, order = check_ogd_data(X, y, order, t0, options)
    U = np.ascontiguousarray(U, dtype=np.float64)
    if U.ndim != 2 or U.shape[1] != X.shape[1] or U.shape[0] < 1:
        raise ValueError(f"U must have shape (D, {X.shape[1]}) with D >= 1; got {U.shape}")
    return X, y, order, U


def fourier_map(U, x_t, normalize, z):
    """Alg. 1, line 6: ``z(x_t) = (sin(u_1'x_t), cos(u_1'x_t), ...)`` written into ``z`` (2D,) and returned.

    A sparse row multiplies only the columns of ``U`` at its nonzeros; ``normalize``
    divides by ``sqrt(D)`` (not in the paper).
    """
    p = U[:, x_t.indices] @ x_t.data if sp.issparse(x_t) else U @ x_t
    z[0::2] = np.sin(p)
    z[1::2] = np.cos(p)
    if normalize:
        z *= 1.0 / np.sqrt(U.shape[0])
    return z


def fogd(X, y, order, *, task, n_classes, U, eta, epsilon=0.0, normalize=False, W=None, t0=0,
         sample_weight=None, zero_prediction="mistake", average=False, W_sum=None):
    """One pass of FOGD (Algorithm 1, 3 or 5) over ``X[order]``.

    Parameters
    ----------
    X : ndarray of shape (n, d), float64
    y : ndarray of shape (n,)
        ``task="binary"``: labels in {-1, +1}; ``"multiclass"``: 0..n_classes-1;
        ``"regression"``: real targets.
    order : ndarray of int64
        Visiting order (indices into X), drawn by the caller.
    task : {"binary", "multiclass", "regression"}
    n_classes : int
        Number of classes (used by ``"multiclass"`` only, >= 3).
    U : ndarray of shape (D, d)
        Random Fourier directions (Alg. 1, line 3), drawn by the caller.
    eta : float
        Step size (> 0).
    epsilon : float
        Regression threshold: update only when ``(w'z - y)^2 > epsilon``.
    normalize : bool
        Divide the feature map by ``sqrt(D)`` (not in the paper).
    W : ndarray of shape (2D, c) or None
        Weights to continue from (``None``: ``w_1 = 0``, Alg. 1, line 2).
    t0 : int
        Number of steps taken before this call.
    sample_weight : ndarray of shape (n,), float64, or None
        Weight ``s_t >= 0`` of example ``X[i]`` (indexed like ``y``): the
        step of line 10 is ``eta s_t`` (module docstring).  ``None``: all 1.
    zero_prediction : {"mistake", "positive"}
        Binary task: how ``w_t' z(x_t) = 0`` is counted
        (:func:`refsvm.online.is_mistake`; Lu et al.'s code: ``"positive"``).
        Only the mistake count changes; the update is the hinge loss's.
    average : bool
        Keep the sum of the weights after each update (the averaged variant,
        module docstring), returned as ``OGDResult.W_sum``.
    W_sum : ndarray of shape (2D, c) or None
        ``average=True``: the sum to continue (``None``: zeros).  Must be
        ``None`` without ``average``.

    Returns
    -------
    OGDResult
        ``W`` and the trace: ``mistakes`` (classification) or
        ``squared_loss_sum`` (regression, sum of the online losses),
        ``n_steps``, ``updated`` (int8 per step), ``n_updates``,
        ``kernel_evaluations`` (0: FOGD evaluates no kernel; each step costs
        one feature map, a D x d matrix-vector product and D sin/cos pairs),
        ``feature_map_evaluations`` (= n_steps).
    """
    o = FOGDOptions.of(task=task, n_classes=n_classes, eta=eta, epsilon=epsilon, normalize=normalize,
                       zero_prediction=zero_prediction, average=average)
    X, y, order, U = check_fogd_data(X, y, order, U, t0, o)
    W = np.zeros((2 * len(U), o.c)) if W is None else check_weights(W, (2 * len(U), o.c))   # Alg. 1, line 2
    W_sum = check_average_state(o.average, W_sum, W)
    s = weights_as_data(sample_weight, X.shape[0])
    rec = FOGDRecorder(len(order), o.task, WeightDrift.of(U, X, W, o, s, t0), o.c)   # the mistake counter's bound
    z = np.empty(2 * len(U))
    for step, i in enumerate(order):                          # Alg. 1, line 4
        x_t, y_t, eta_t = X[i], y[i], o.eta * s[i]            # Alg. 1, line 5 (the step of x_t: eta s_t)
        fourier_map(U, x_t, o.normalize, z)                   # Alg. 1, line 6: z(x_t)
        f = z @ W                                             # Alg. 1, line 7: w_t' z(x_t)
        rec.score(f)                                          # per-step records (opt-in)
        if o.task == "binary":
            rec.mistake(is_mistake(y_t, f[0], o.zero_prediction, rec.drift.tolerance(z, W, x_t)))   # sgn wrong
            if y_t * f[0] < 1.0 and eta_t != 0.0:             # Alg. 1, line 9: hinge loss > 0 (s_t = 0: none)
                W[:, 0] += eta_t * y_t * z                    # Alg. 1, line 10
                rec.update(step, eta_t)
        elif o.task == "multiclass":
            s_t = rival_class(f, y_t)                         # eq. 9: highest-scoring wrong class
            rec.mistake(f[s_t] >= f[y_t] - rec.drift.tolerance(z, W, x_t))   # eq. 8 prediction wrong
            if 1.0 - f[y_t] + f[s_t] > 0.0 and eta_t != 0.0:  # Alg. 3: loss (9) > 0
                W[:, y_t] += eta_t * z                        # eq. 10
                W[:, s_t] -= eta_t * z                        # eq. 11
                rec.update(step, eta_t)
        else:
            loss = (f[0] - y_t) ** 2                          # Alg. 5: squared loss
            rec.squared_loss(loss)
            if loss > o.epsilon and eta_t != 0.0:             # Alg. 5: loss exceeds epsilon
                W[:, 0] -= eta_t * 2.0 * (f[0] - y_t) * z     # Alg. 5: w - eta grad l
                rec.update(step)
        if W_sum is not None and rec.updated(step):
            W_sum += W                                        # averaged variant: sum of w_{t+1} (KOL)
    return OGDResult(W=W, t=int(t0) + len(order), trace=rec.trace(), W_sum=W_sum)


def decision_values(X, U, W, normalize=False):
    """``F = z(X) W``, shape (n, c): the model's scores for every row of ``X``.

    Computed 1024 rows at a time (the feature matrix of a whole test set,
    n x 2D doubles, would not fit in memory for D = 4000).  ``X`` may be sparse.
    """
    X = sp.csr_matrix(X) if sp.issparse(X) else np.ascontiguousarray(X, dtype=np.float64)
    W = np.asarray(W, dtype=np.float64)
    F = np.empty((X.shape[0], W.shape[1]))
    for start in range(0, X.shape[0], 1024):
        F[start:start + 1024] = fourier_features(U, X[start:start + 1024], normalize) @ W
    return F
