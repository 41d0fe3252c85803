"""Refitting the offset (bias) of a trained kernel expansion by exact hinge-loss minimisation.

An online solver returns its *last iterate*.  With a wide Gaussian kernel
(for example a9a with gamma = 2^-7, where every kernel value between two
training points lies in [0.80, 1]), every late step moves the whole decision
function almost like a change of the bias, and the last iterate stops at a
threshold that depends on the last few examples visited: the ranking the
model learned is good, its offset is a lottery.  This module replaces the
offset, after training, by the value that minimises the (weighted) hinge loss
of the final model on the training data (or a random subsample of it; drawn
by the caller, :mod:`refsvm.estimators._base`).  The kernel part of the model
is not touched.

Binary problems: :func:`hinge_offset`
-------------------------------------
Given the kernel part ``f_i = sum_j alpha_j k(x_j, x_i)`` of the decision
values, labels ``y_i`` in {-1, +1} and weights ``w_i >= 0``, find

    b* = argmin_b  L(b),   L(b) = sum_i w_i max(0, 1 - y_i (f_i + b)).

Each term is a hinge in ``b`` with its kink at ``t_i = y_i - f_i``:
``w_i max(0, t_i - b)`` for ``y_i = +1`` (slope ``-w_i`` left of ``t_i``) and
``w_i max(0, b - t_i)`` for ``y_i = -1`` (slope ``+w_i`` right of ``t_i``).
``L`` is convex and piecewise linear; left of every kink its slope is
``-W+`` (``W+``: the total weight of the positive examples), and passing the
kink ``t_i`` raises the slope by ``w_i`` whatever the label (a positive term
stops decreasing, a negative one starts increasing).  So, with the kinks
sorted, ``t_(0) <= t_(1) <= ...``, the slope right of ``t_(k)`` is
``P_k - W+`` with ``P_k = w_(0) + ... + w_(k)``, and

* ``b* = t_(k)`` for the first ``k`` with ``P_k >= W+`` (the slope changes
  sign there);
* if the slope right of ``t_(k)``'s group of equal kinks is exactly 0
  (``P = W+`` at the group's last element) ``L`` is flat up to the next
  larger kink ``t_(j)``; then ``b* = (t_(k) + t_(j)) / 2``, the middle of the
  set of minimisers (no next kink: ``b* = t_(k)``).

Examples with weight 0 are dropped first.  Cost: O(m log m) for the sort and
O(m) for the scan, m the number of rows (plus, in the estimator, one
prediction pass over the m rows, O(m B d)).

Ties and rounding: the kinks are sorted by (t, y, w), so the sorted sequence
does not depend on the sorting algorithm; ``W+`` and ``P_k`` are sums taken
one by one in that order (``numpy.cumsum`` accumulates sequentially), so the
reference and the compiled twin (:mod:`refsvm._fast.refit`) return bitwise
the same ``b*`` for the same input.  The loss they return may differ by
rounding (summation order).

Multi-class (Crammer-Singer model): :func:`crammer_singer_offsets`
------------------------------------------------------------------
One offset ``b_r`` per class and the multi-class hinge loss
``sum_i w_i max(0, 1 + max_{r != y_i} (f_ir + b_r) - f_{i y_i} - b_{y_i})``
(the loss BSGD's multi-class SVM minimises, section 5 of Wang et al. 2012).
Exact coordinate steps: with the other offsets fixed, the loss as a
function of ``b_k`` is again a sum of hinges in ``b_k`` (derivation in
:func:`_coordinate_problem`), solved exactly by :func:`hinge_offset`.  Sweeps
over k = 0..c-1 repeat until a sweep lowers the loss by no more than
``1e-12`` of its value, or ``max_sweeps`` sweeps.  No step increases the loss,
so the result is never worse than the starting offsets; coordinate descent
on a non-smooth convex function can, however, stop at a kink that is not the
joint minimum (a joint minimisation is a linear program; the coordinate
steps keep the cost at O(sweeps c m log m)).  One-vs-rest models (BSCA, SBP
with more than two classes) refit each machine with :func:`hinge_offset` on
its own +-1 labels.

Scale and offset: :func:`scaled_hinge_offset` (``refit_bias="scaled"``)
------------------------------------------------------------------------
The hinge loss measures margins in units of 1; a last iterate whose decision
values are far from that scale (one BSGD pass on a9a or ijcnn1: median
``|f|`` about 40) makes the loss of ``f + b`` an absolute-deviation criterion
dominated by badly misclassified rows.  The scaled refit minimises
``phi(s) = min_b L_s(b)``, ``L_s(b) = sum_i w_i max(0, 1 - y_i (s f_i + b))``,
over the scale ``s > 0`` too: ``phi`` is convex (the partial minimum of a
jointly convex function), hence unimodal in ``log s``.

Where the minimiser lies (binary, :func:`_binary_scale_bracket`): for a fixed
``s`` the optimal ``b`` is one of the kinks ``t_i(s) = y_i - s f_i``, chosen
by their sorted order; that order changes only where two kinks cross,
``s = (y_i - y_j) / (f_i - f_j)``, i.e. (same labels never cross for ``s > 0``)
at ``s = 2 / |f_i - f_j|`` for rows of opposite labels.  Between crossings
``phi`` is linear in ``s``, so ``phi`` is convex and piecewise linear with its
breakpoints in ``[2 / (max f - min f), 2 / g]``, ``g`` the smallest positive
gap between two distinct values of ``f``.  Beyond the last breakpoint ``phi``
is linear with a slope >= 0 (``phi >= 0``), so a minimiser over ``s >= s_lo``
lies in this bracket.  Below the first breakpoint ``phi`` is affine too, with
a slope of at most ``max f - min f`` in absolute value (mean loss); if it
rises there (a model ranking worse than a constant) the infimum is only
approached as ``s -> 0`` (a constant predictor, the threshold ``b / s``
growing without bound).  So the lower end of the search is ``1e-9 s_lo``
(:data:`SCALE_PRECISION`), where ``phi`` is within ``2e-9`` of that limit.
The upper end is capped at
``s max|f| <= 1e150`` (:data:`SCALE_CAP`).  All ``f`` equal: ``phi`` does not
depend on ``s``; ``s* = 1``.

The search: golden section over ``log s`` in that bracket with as many
steps as the bracket's width needs to reach :data:`SCALE_PRECISION` in
``log s`` (at least :data:`SCALE_ITERATIONS`), each step an exact
:func:`hinge_offset`.  It returns ``s*`` within a relative ``1e-9`` of a
minimiser (up to the rounding of the compared losses); the test compares it
with a brute-force minimisation over every breakpoint
(tests/refit/test_scaled_refit_bracket.py).  Multi-class
(:func:`scaled_coordinate_offsets`): the objective is the coordinate-descent
loss, not an exact partial minimum; the bracket is the binary one of all
entries of ``F`` widened by a factor 4 at each end (the kinks of the
coordinate problems are differences of up to three entries), and the search
widens it by 8 decades at an end (up to the cap) while the result lies in the
last step of that end (all entries of ``F`` and the offsets equal:
``s* = 1``).  The model keeps its coefficients and gets the threshold of the
optimal pair, ``b* / s*``: it predicts as the rescaled model ``s* f + b*``.  Cost: the number of steps (about 50 to 80)
times that of :func:`hinge_offset` here; the compiled twin sorts the kinks once (for ``s > 0`` the order
of ``t_i(s) = y_i - s f_i`` within a label is that of ``-f_i``, whatever ``s``: rounding is monotone) and
merges the two labels' lists at each step, O(m) a step after one O(m log m) sort.  The losses compared in the search are
sums taken one by one in row order on both paths, so both take the same
steps and return bitwise the same result.
"""

import numpy as np

__all__ = ["hinge_offset", "scaled_hinge_offset", "crammer_singer_offsets", "scaled_crammer_singer_offsets",
           "hinge_loss", "multiclass_hinge_loss", "check_refit_arguments"]

#: Golden-section search of the scale (``refit_bias="scaled"``): the bracket of ``log s`` used when the
#: data give none (no positive weight), the fewest iterations, the precision reached in ``log s``, the
#: cap ``s max|f| <= SCALE_CAP`` (module notes: the bracket comes from the breakpoints of the loss).
SCALE_BRACKET = (-4.0 * np.log(10.0), 4.0 * np.log(10.0))
SCALE_ITERATIONS = 50
SCALE_PRECISION = 1e-9
SCALE_CAP = 1e150


def check_refit_arguments(f, y, sample_weight, multiclass=False):
    """Validated ``(f, y, w)``: float64 decision values, int64 labels, float64 weights (ones if None)."""
    f = np.asarray(f, dtype=np.float64)
    if f.ndim != (2 if multiclass else 1):
        raise ValueError(f"f must be a {2 if multiclass else 1}-D array of decision values; got shape {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError("f must be finite")
    y = np.asarray(y)
    if y.shape != (f.shape[0],):
        raise ValueError(f"y must have shape ({f.shape[0]},); got {y.shape}")
    y = y.astype(np.int64)
    if multiclass:
        if f.shape[1] < 2 or (y.size and (y.min() < 0 or y.max() >= f.shape[1])):
            raise ValueError(f"y must hold class indices 0..{f.shape[1] - 1} (f has {f.shape[1]} columns)")
    elif y.size and not np.all(np.abs(y) == 1):
        raise ValueError("y must hold labels -1 and +1")
    if sample_weight is None:
        w = np.ones(f.shape[0])
    else:
        w = np.asarray(sample_weight, dtype=np.float64)
        if w.shape != (f.shape[0],):
            raise ValueError(f"sample_weight must have shape ({f.shape[0]},); got {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("sample_weight must be finite and >= 0")
    return np.ascontiguousarray(f), np.ascontiguousarray(y), np.ascontiguousarray(w)


def hinge_offset(f, y, sample_weight=None):
    """The offset b minimising ``sum_i w_i max(0, 1 - y_i (f_i + b))`` exactly (module notes).

    Parameters
    ----------
    f : ndarray of shape (m,)
        Decision values without offset (the kernel part of the model).
    y : ndarray of shape (m,)
        Labels in {-1, +1}.
    sample_weight : ndarray of shape (m,) or None
        Weights >= 0 (None: all 1).

    Returns
    -------
    offset : float
        The minimiser (the middle of the set of minimisers when it is an
        interval; 0.0 when no example has positive weight).
    loss : float
        The weighted mean hinge loss ``L(offset) / sum(w)`` (0.0 without weight).
    """
    f, y, w = check_refit_arguments(f, y, sample_weight)
    keep = w > 0                                   # weight-0 examples have no kink
    f, y, w = f[keep], y[keep], w[keep]
    m = f.shape[0]
    if m == 0:
        return 0.0, 0.0
    t = y - f                                      # the kink of term i
    order = np.lexsort((w, y, t))                  # sort by (t, y, w)
    t, ys, ws = t[order], y[order], w[order]
    w_pos = np.cumsum(np.where(ys > 0, ws, 0.0))[-1]   # slope left of all kinks: -W+
    passed = np.cumsum(ws)                         # slope right of t_(k): passed[k] - W+
    k = int(np.searchsorted(passed, w_pos, side="left"))   # first k with passed[k] >= W+
    k = min(k, m - 1)                              # (W+ = sum of all weights: rounding guard)
    offset = t[k]
    last = int(np.searchsorted(t, t[k], side="right")) - 1   # last kink equal to t_(k)
    if passed[last] == w_pos and last + 1 < m:     # flat up to the next larger kink
        offset = 0.5 * (t[k] + t[last + 1])
    offset = float(offset)
    return offset, _sequential_mean(w, np.maximum(0.0, 1.0 - y * (f + offset)))


def _sequential_mean(w, h):
    """``sum(w h) / sum(w)`` with both sums taken one by one in row order (as the compiled twin)."""
    return float(np.cumsum(w * h)[-1] / np.cumsum(w)[-1])


def _golden_scale(objective, bracket=SCALE_BRACKET):
    """Golden-section search of ``objective(s)`` (unimodal in ``log s``) over ``bracket`` (of ``log s``).

    As many steps as reach :data:`SCALE_PRECISION` in ``log s`` (at least :data:`SCALE_ITERATIONS`);
    returns the middle of the final bracket, or an end of ``bracket`` when every step moved towards
    it (the minimiser is at or beyond that end).  Shared by both twins (the objective calls the
    twin's own solver).
    """
    ratio = (np.sqrt(5.0) - 1.0) / 2.0
    lo, hi = float(bracket[0]), float(bracket[1])
    a, b = lo, hi
    steps = max(SCALE_ITERATIONS, int(np.ceil(np.log(max(b - a, SCALE_PRECISION) / SCALE_PRECISION)
                                              / -np.log(ratio))))
    p, q = b - ratio * (b - a), a + ratio * (b - a)
    fp, fq = objective(float(np.exp(p))), objective(float(np.exp(q)))
    for _ in range(steps):
        if fp <= fq:                               # the minimum is in [a, q]
            b, q, fq = q, p, fp
            p = b - ratio * (b - a)
            fp = objective(float(np.exp(p)))
        else:                                      # the minimum is in [p, b]
            a, p, fp = p, q, fq
            q = a + ratio * (b - a)
            fq = objective(float(np.exp(q)))
    if a == lo or b == hi:                         # never left an end: compare with the end itself
        end = lo if a == lo else hi
        middle = 0.5 * (a + b)
        if objective(float(np.exp(end))) <= objective(float(np.exp(middle))):
            return float(np.exp(end))
    return float(np.exp(0.5 * (a + b)))


def _binary_scale_bracket(f, widen=1.0):
    """The bracket of ``log s`` holding a minimiser of ``phi`` (module notes), or None if all ``f`` are equal.

    ``[log(1e-9 * 2 / (max f - min f)), log(2 / g)]``, ``g`` the smallest positive gap between sorted
    distinct values of ``f`` (a lower bound of the smallest gap between rows of opposite labels, so the
    bracket holds every breakpoint; the factor :data:`SCALE_PRECISION` at the lower end reaches the limit
    ``s -> 0`` within ``2e-9`` of the loss), each end moved out by the factor ``widen``; the upper end
    capped at ``s max|f| <= SCALE_CAP``.  No rounding enters the bracket beyond that of the differences.
    """
    values = np.unique(f)
    if values.size < 2:
        return None
    gaps = np.diff(values)
    smallest = gaps[gaps > 0].min()
    lo = np.log(2.0 / (values[-1] - values[0]) / widen * SCALE_PRECISION)
    hi = min(np.log(2.0 / smallest * widen), np.log(SCALE_CAP / np.abs(values).max()))
    return (float(min(lo, hi)), float(hi))


def scaled_hinge_offset(f, y, sample_weight=None):
    """The threshold of the scale and offset jointly minimising the hinge loss (module notes).

    Returns
    -------
    threshold : float
        ``b* / s*``: the bias that makes ``f + threshold`` predict as ``s* f + b*``.
    scale : float
        ``s*``.
    loss : float
        The weighted mean hinge loss of ``s* f + b*``.
    """
    f, y, w = check_refit_arguments(f, y, sample_weight)
    return scaled_offset(lambda s: hinge_offset(s * f, y, w), f, w)


def scaled_offset(solve_at, f, w):
    """:func:`scaled_hinge_offset` of validated ``(f, y, w)`` with ``solve_at(s)``, the twin's
    ``hinge_offset(s * f, y, w)`` (the reference: that call; the compiled twin: the kinks sorted
    once for every ``s``, :class:`refsvm._fast.refit.ScaledKinks`, bitwise the same pairs)."""
    if not np.any(w > 0):
        return 0.0, 1.0, 0.0
    bracket = _binary_scale_bracket(f[w > 0])
    scale = 1.0 if bracket is None else _golden_scale(lambda s: solve_at(s)[1], bracket)
    offset, loss = solve_at(scale)
    return offset / scale, scale, loss


def hinge_loss(f, y, offset, sample_weight=None):
    """Weighted mean of ``max(0, 1 - y_i (f_i + offset))`` (0.0 without weight)."""
    f, y, w = check_refit_arguments(f, y, sample_weight)
    if np.sum(w) == 0:
        return 0.0
    return float(np.sum(w * np.maximum(0.0, 1.0 - y * (f + offset))) / np.sum(w))


def multiclass_hinge_loss(F, y, offsets, sample_weight=None):
    """Weighted mean of ``max(0, 1 + max_{r != y_i} (F_ir + b_r) - F_{i y_i} - b_{y_i})``."""
    F, y, w = check_refit_arguments(F, y, sample_weight, multiclass=True)
    if F.shape[0] == 0 or np.sum(w) == 0:
        return 0.0
    G = F + np.asarray(offsets, dtype=np.float64)
    rows = np.arange(F.shape[0])
    own = G[rows, y]
    G[rows, y] = -np.inf
    loss = np.maximum(0.0, 1.0 + G.max(axis=1) - own)
    return float(np.sum(w * loss) / np.sum(w))


def _coordinate_problem(F, y, offsets, k):
    """The loss as a function of ``b_k`` (others fixed): ``(u, s, const)`` with
    ``loss(b_k) = sum_i w_i (const_i + max(0, 1 - s_i (u_i + b_k)))``.

    With ``G = F + b`` (the scores, ``G_k`` using the current ``b_k``):

    * ``y_i = k``: the term is ``max(0, 1 + M_i - F_ik - b_k)``, ``M_i`` the largest
      other score: ``s_i = +1``, ``u_i = F_ik - M_i``, ``const_i = 0``;
    * ``y_i != k``: with ``g_i = G_{i y_i}`` and ``M'_i`` the largest score of the
      classes other than ``y_i`` and ``k``, and ``c_i = max(0, 1 + M'_i - g_i)``, the
      term is ``max(c_i, 1 + F_ik + b_k - g_i) = c_i + max(0, 1 + (F_ik - g_i - c_i) + b_k)``:
      ``s_i = -1``, ``u_i = F_ik - g_i - c_i``, ``const_i = c_i``.
    """
    m, c = F.shape
    rows = np.arange(m)
    G = F + offsets
    others = G.copy()
    others[:, k] = -np.inf                         # scores of the classes != k
    mine = y == k
    u = np.empty(m)
    s = np.where(mine, 1, -1).astype(np.int64)
    const = np.zeros(m)
    # y_i = k
    M = others.max(axis=1)
    u[mine] = F[mine, k] - M[mine]
    # y_i != k
    g = G[rows, y]
    rest = others.copy()
    rest[rows, y] = -np.inf                        # classes other than y_i and k
    Mr = rest.max(axis=1)
    ci = np.maximum(0.0, 1.0 + Mr - g)
    u[~mine] = F[~mine, k] - g[~mine] - ci[~mine]
    const[~mine] = ci[~mine]
    return u, s, const


def crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """Per-class offsets lowering the multi-class hinge loss by exact coordinate steps (module notes).

    Parameters
    ----------
    F : ndarray of shape (m, c)
        Decision values without offsets, ``c >= 2`` (needs ``c >= 3`` to differ from
        one binary offset).
    y : ndarray of shape (m,)
        Class indices 0..c-1.
    offsets : ndarray of shape (c,)
        Starting offsets (the model's current bias).
    sample_weight : ndarray of shape (m,) or None
        Weights >= 0 (None: all 1).
    max_sweeps : int
        At most this many sweeps over the c coordinates.

    Returns
    -------
    offsets : ndarray of shape (c,)
        The new offsets.
    loss : float
        The weighted mean multi-class hinge loss at the new offsets.
    sweeps : int
        The number of sweeps run.
    """
    return coordinate_offsets(hinge_offset, F, y, offsets, sample_weight, max_sweeps)


def coordinate_offsets(hinge_offset, F, y, offsets, sample_weight=None, max_sweeps=20):
    """:func:`crammer_singer_offsets` with the binary solver ``hinge_offset`` given: this module's
    :func:`hinge_offset` or the compiled twin's (one coordinate loop serves both paths)."""
    F, y, w = check_refit_arguments(F, y, sample_weight, multiclass=True)
    b = np.array(offsets, dtype=np.float64).reshape(-1)
    if b.shape != (F.shape[1],):
        raise ValueError(f"offsets must have shape ({F.shape[1]},); got {b.shape}")
    loss = multiclass_hinge_loss(F, y, b, w)
    sweeps = 0
    for sweeps in range(1, max_sweeps + 1):
        before = loss
        for k in range(F.shape[1]):
            u, s, _ = _coordinate_problem(F, y, b, k)
            candidate = b.copy()
            candidate[k], _ = hinge_offset(u, s, w)
            new_loss = multiclass_hinge_loss(F, y, candidate, w)
            if new_loss <= loss:                   # exact step; never accept rounding increases
                b, loss = candidate, new_loss
        if before - loss <= 1e-12 * before:
            break
    return b, loss, sweeps


def scaled_crammer_singer_offsets(F, y, offsets, sample_weight=None, max_sweeps=20):
    """:func:`crammer_singer_offsets` of ``s F`` with the common scale ``s`` by golden-section search.

    Returns ``(thresholds, scale, loss)``: the offsets divided by ``s*`` (the model keeps its
    coefficients and predicts as ``s* F + b*``), ``s*`` and the loss of ``s* F + b*``.
    """
    return scaled_coordinate_offsets(hinge_offset, F, y, offsets, sample_weight, max_sweeps)


def scaled_coordinate_offsets(hinge_offset, F, y, offsets, sample_weight=None, max_sweeps=20):
    """:func:`scaled_crammer_singer_offsets` with the binary solver ``hinge_offset`` given (as
    :func:`coordinate_offsets`)."""
    F, y, w = check_refit_arguments(F, y, sample_weight, multiclass=True)
    b0 = np.array(offsets, dtype=np.float64).reshape(-1)
    objective = lambda s: coordinate_offsets(hinge_offset, s * F, y, s * b0, w, max_sweeps)[1]  # noqa: E731
    bracket = _binary_scale_bracket(np.append(F[w > 0].ravel(), b0), 4.0)
    scale = 1.0 if bracket is None else _widening_golden_scale(
        objective, bracket, np.log(SCALE_CAP / max(np.abs(F).max(), np.abs(b0).max())))
    b, loss, _ = coordinate_offsets(hinge_offset, scale * F, y, scale * b0, w, max_sweeps)
    return b / scale, scale, loss


def _widening_golden_scale(objective, bracket, top):
    """:func:`_golden_scale` over ``bracket``, widened by 8 decades at an end
    while the result lies at that end (upper end at most ``top``, lower end at least ``-top``); the
    multi-class search (module notes)."""
    lo, hi = bracket
    step = 8.0 * np.log(10.0)
    for _ in range(40):
        scale = _golden_scale(objective, (lo, hi))
        at = np.log(scale)
        if at >= hi - 1e-6 * max(1.0, hi - lo) and hi < top:
            lo, hi = hi - 1.0, min(hi + step, top)
        elif at <= lo + 1e-6 * max(1.0, hi - lo) and lo > -top:
            lo, hi = max(lo - step, -top), lo + 1.0
        else:
            break
    return scale
