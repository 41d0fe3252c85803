"""The tables of lookup-table merging (Glasmachers & Qaadan): construction, cache, Lemma 1.

The precomputed ``h(m, kappa)`` and normalised ``WD(m, kappa)`` on the ``(G + 1) x (G + 1)`` grid
(:func:`compute_tables`, GSS-precise over the whole grid at once: :func:`gss_h_grid`,
:func:`normalized_wd`, :func:`merge_functions`), their checksummed on-disk and in-process cache
(:func:`get_tables`), and the cells where Lemma 1 says h or WD is not smooth
(:func:`two_mode_threshold`, :func:`nonsmooth_cells`).  :mod:`refsvm.lookup` re-exports every name
here and holds the interpolation and the merge solvers that read the tables; its docstring states
the grid convention, the border limits, the interpolation error and the cache file format.  The
compiled path (:mod:`refsvm._fast.lookup`) re-exports these same functions.
"""

import hashlib
import math
import os
import warnings
from pathlib import Path

import numpy as np

from ._files import atomic_temp
from .constants import GOLDEN_RATIO, MERGE_EPS_PRECISE

#: Grid size used by Glasmachers & Qaadan (cells per axis).
DEFAULT_GRID_SIZE = 400
#: Version of the table definition and of the cache file format.  Bump it when
#: either changes: the version is part of the cache file name and the checksum.
#: 2: ``(1 - h)^2`` evaluated as ``(1 - h) * (1 - h)`` (was ``** 2``, libm ``pow``),
#: as in :mod:`refsvm.budget`; the values change in the last bits.
FORMAT_VERSION = 2
#: ``e^-2``: for ``kappa < e^-2`` the merging objective can have two modes (Lemma 1).
KAPPA_TWO_MODES = math.exp(-2.0)

_MEMORY_CACHE = {}


# ----------------------------------------------------------------------------
# golden-section search over a whole grid
# ----------------------------------------------------------------------------

def _objective_exact(h, alpha_m, alpha_n, log_kappa):
    """``g(h)`` for scalars, with the same floating-point operations as
    :func:`refsvm.budget.merge_objective` (``(1 - h) * (1 - h)``, libm ``exp``)."""
    alpha_z = alpha_m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    return alpha_z * alpha_z


def _objective_fast(h, alpha_m, alpha_n, log_kappa):
    """``g(h)`` with numpy ufuncs (numpy's SIMD ``exp`` may differ from libm's by 1 ulp)."""
    alpha_z = alpha_m * np.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * np.exp(h * h * log_kappa)
    return alpha_z * alpha_z


def _objective_array(h, alpha_m, alpha_n, log_kappa, exact):
    if not exact:
        return _objective_fast(h, alpha_m, alpha_n, log_kappa)
    values = map(_objective_exact, h.tolist(), alpha_m.tolist(), alpha_n.tolist(), log_kappa.tolist())
    return np.fromiter(values, dtype=np.float64, count=h.size)


def gss_h_grid(m, log_kappa, eps=MERGE_EPS_PRECISE, exact=True):
    """``refsvm.budget.merge_h([m], [1 - m], log_kappa, eps)`` for arrays of ``(m, log_kappa)``.

    A vectorised golden-section search: every element runs the loop of
    :func:`refsvm.budget.golden_section_search` on its own bracket, with the same
    comparisons in the same order (elements whose bracket is already narrower
    than ``eps`` are frozen, so an element that needs one iteration more or less
    than the others behaves as in the scalar loop).  The half-interval rule is
    that of :func:`refsvm.budget.merge_h`: ``[1/2, 1]`` if ``g(1) >= g(0)``.

    With ``exact=True`` the objective is evaluated element by element with libm
    (``math.exp``, squares as products), so the result is bitwise equal to the
    scalar ``merge_h``.  ``exact=False`` uses numpy's ufuncs (about 3x faster);
    numpy's ``exp`` differs from libm's by one ulp in a few percent of the
    arguments, which flips near-tie comparisons once the bracket is so small
    that ``g`` is flat to machine precision: h then differs by up to ~1e-7
    (WD, being stationary in h, by ~1e-16).

    Parameters
    ----------
    m : array_like
        Relative weights in ``(0, 1)``; ``alpha_m = m``, ``alpha_n = 1 - m``.
    log_kappa : array_like
        ``log kappa``, finite, broadcast against ``m``.
    eps : float
        Final bracket width (``MERGE_EPS_PRECISE = 1e-10`` for the tables).
    exact : bool
        See above.

    Returns
    -------
    ndarray of float64, the broadcast shape of ``m`` and ``log_kappa``.
    """
    m, log_kappa = np.broadcast_arrays(np.asarray(m, dtype=np.float64), np.asarray(log_kappa, dtype=np.float64))
    shape = m.shape
    alpha_m = m.ravel().copy()
    alpha_n = 1.0 - alpha_m
    L = log_kappa.ravel().copy()

    def g(h, idx=None):
        if idx is None:
            return _objective_array(h, alpha_m, alpha_n, L, exact)
        return _objective_array(h, alpha_m[idx], alpha_n[idx], L[idx], exact)

    ones, zeros = np.ones_like(alpha_m), np.zeros_like(alpha_m)
    upper = g(ones) >= g(zeros)                        # merge_h: [1/2, 1] if g(1) >= g(0)
    a = np.where(upper, 0.5, 0.0)
    b = np.where(upper, 1.0, 0.5)
    c = b - GOLDEN_RATIO * (b - a)
    d = a + GOLDEN_RATIO * (b - a)
    fc, fd = g(c), g(d)
    active = b - a > eps                               # while b - a > eps:
    while active.any():
        keep_left = fc >= fd                           #   if fc >= fd:  (NaN -> else, as in the scalar loop)
        left = active & keep_left
        right = active & ~keep_left
        new_b = np.where(left, d, b)                   #     b, d, fd = d, c, fc
        new_d = np.where(left, c, d)
        new_fd = np.where(left, fc, fd)
        new_a = np.where(right, c, a)                  #   else: a, c, fc = c, d, fd
        new_c = np.where(right, d, c)
        new_fc = np.where(right, fd, fc)
        new_c = np.where(left, new_b - GOLDEN_RATIO * (new_b - new_a), new_c)   # c = b - G (b - a)
        new_d = np.where(right, new_a + GOLDEN_RATIO * (new_b - new_a), new_d)  # d = a + G (b - a)
        idx = np.flatnonzero(active)
        probe = np.where(left, new_c, new_d)[idx]
        f_probe = g(probe, idx)                        #   fc = f(c)  /  fd = f(d)
        left_idx = left[idx]
        new_fc[idx[left_idx]] = f_probe[left_idx]
        new_fd[idx[~left_idx]] = f_probe[~left_idx]
        a, b, c, d, fc, fd = new_a, new_b, new_c, new_d, new_fc, new_fd
        active = b - a > eps
    return (0.5 * (a + b)).reshape(shape)


def _wd_exact(h, m, log_kappa):
    """``WD`` of :func:`refsvm.budget.merge_pair` for ``alpha_m = m, alpha_n = 1 - m`` (same operations)."""
    alpha_n = 1.0 - m
    alpha_z = m * math.exp((1.0 - h) * (1.0 - h) * log_kappa) + alpha_n * math.exp(h * h * log_kappa)
    kappa = math.exp(log_kappa)
    wd = m * m + alpha_n * alpha_n + 2.0 * kappa * (m * alpha_n) - alpha_z * alpha_z
    return max(wd, 0.0)


def normalized_wd(h, m, log_kappa, exact=True):
    """``WD = m^2 + (1-m)^2 + 2 m (1-m) kappa - s(h)^2`` (clipped at 0) for arrays.

    The normalised weight degradation of merging with coefficient ``h``
    (``alpha_m + alpha_n = 1``); with ``exact=True`` bitwise equal to the WD of
    :func:`refsvm.budget.merge_pair`.
    """
    h, m, log_kappa = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (h, m, log_kappa)))
    if exact:
        values = map(_wd_exact, h.ravel().tolist(), m.ravel().tolist(), log_kappa.ravel().tolist())
        return np.fromiter(values, dtype=np.float64, count=h.size).reshape(h.shape)
    n = 1.0 - m
    s = m * np.exp((1.0 - h) * (1.0 - h) * log_kappa) + n * np.exp(h * h * log_kappa)
    wd = m * m + n * n + 2.0 * np.exp(log_kappa) * (m * n) - s * s
    return np.maximum(wd, 0.0)


# ----------------------------------------------------------------------------
# the tables
# ----------------------------------------------------------------------------

def grid_nodes(grid_size=DEFAULT_GRID_SIZE):
    """The node coordinates ``i / G``, ``i = 0 .. G`` (float64, shape ``(G + 1,)``)."""
    G = _check_grid_size(grid_size)
    return np.arange(G + 1, dtype=np.float64) / G


def merge_functions(m, kappa, exact=True):
    """``(h, WD)`` at arbitrary points ``(m, kappa)`` of ``[0, 1]^2`` (GSS-precise; arrays).

    What the tables store at their nodes, and the direct evaluation the
    interpolation is tested against.  For ``0 < m < 1`` and ``0 < kappa < 1``:
    ``h = gss_h_grid(m, log(kappa), MERGE_EPS_PRECISE, exact)`` and
    ``WD = normalized_wd(h, m, log(kappa), exact)`` (with ``exact=True`` bitwise
    ``refsvm.budget.merge_pair([m], [1 - m], log(kappa), MERGE_EPS_PRECISE)``).
    On the border of the square the limits of the module docstring:

    =================  ================================  =====================
    border             h                                 WD
    =================  ================================  =====================
    ``m = 0``          0                                 0
    ``m = 1``          1                                 0
    ``kappa = 1``      m (limit kappa -> 1)              0
    ``kappa = 0``      1 if m >= 1/2 else 0              min(m, 1 - m)^2
    =================  ================================  =====================

    (the ``m`` rows take precedence at the corners; they agree with the
    ``kappa`` columns there except at ``(0, 0)`` and ``(1, 0)``, where both give
    the same values anyway).
    """
    m, kappa = np.broadcast_arrays(np.asarray(m, dtype=np.float64), np.asarray(kappa, dtype=np.float64))
    if np.any(~((m >= 0.0) & (m <= 1.0))) or np.any(~((kappa >= 0.0) & (kappa <= 1.0))):
        raise ValueError("m and kappa must lie in [0, 1]")
    h = np.empty(m.shape, dtype=np.float64)
    wd = np.empty(m.shape, dtype=np.float64)

    inner = (m > 0.0) & (m < 1.0) & (kappa > 0.0) & (kappa < 1.0)
    if inner.any():                       # GSS-precise, exactly as refsvm.budget.merge_pair
        log_kappa = np.log(kappa[inner])
        h_inner = gss_h_grid(m[inner], log_kappa, MERGE_EPS_PRECISE, exact=exact)
        h[inner] = h_inner
        wd[inner] = normalized_wd(h_inner, m[inner], log_kappa, exact=exact)

    # kappa = 0: the limit kappa -> 0+ (removal of the smaller point; tie m = 1/2 -> upper half)
    zero = kappa == 0.0
    upper = m >= 0.5
    h[zero] = np.where(upper, 1.0, 0.0)[zero]
    wd[zero] = np.where(upper, (1.0 - m) ** 2, m ** 2)[zero]
    # kappa = 1: x_m = x_n, any h is optimal; the limit kappa -> 1- is h = m
    one = kappa == 1.0
    h[one] = m[one]
    wd[one] = 0.0
    # m = 0 and m = 1: a single point, nothing is lost
    h[m == 0.0] = 0.0
    wd[m == 0.0] = 0.0
    h[m == 1.0] = 1.0
    wd[m == 1.0] = 0.0
    return h, wd


def compute_tables(grid_size=DEFAULT_GRID_SIZE):
    """Compute ``(h_table, wd_table)`` with GSS-precise; no caching (see :func:`get_tables`).

    Both are float64 arrays of shape ``(G + 1, G + 1)``, ``table[i, j] = f(i/G, j/G)``
    (row = m, column = kappa), evaluated by :func:`merge_functions`.
    ``wd_table`` is normalised to ``alpha_m + alpha_n = 1``: the weight
    degradation of a pair is ``(alpha_m + alpha_n)**2 * WD`` (the printed
    Lemma 1 lacks the square).  Interior nodes equal
    ``refsvm.budget.merge_pair([m], [1-m], log(kappa), MERGE_EPS_PRECISE)``
    bitwise; border nodes hold the limits.  Deterministic: the same libm gives
    the same bits.
    """
    G = _check_grid_size(grid_size)
    nodes = grid_nodes(G)
    m, kappa = np.meshgrid(nodes, nodes, indexing="ij")
    h_table, wd_table = merge_functions(m, kappa, exact=True)
    return np.ascontiguousarray(h_table), np.ascontiguousarray(wd_table)


def table_checksum(h_table, wd_table):
    """SHA-256 (hex) of the tables, the grid size and :data:`FORMAT_VERSION`."""
    h_table = np.ascontiguousarray(h_table, dtype="<f8")
    wd_table = np.ascontiguousarray(wd_table, dtype="<f8")
    digest = hashlib.sha256()
    digest.update(f"refsvm-lookup-v{FORMAT_VERSION}-G{h_table.shape[0] - 1}\n".encode())
    digest.update(h_table.tobytes())
    digest.update(wd_table.tobytes())
    return digest.hexdigest()


def cache_dir():
    """Directory of the on-disk cache: ``$REFSVM_CACHE`` or ``~/.cache/refsvm``."""
    env = os.environ.get("REFSVM_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "refsvm"


def cache_path(grid_size=DEFAULT_GRID_SIZE):
    """Cache file of the tables for ``grid_size`` (name includes grid size and format version)."""
    G = _check_grid_size(grid_size)
    return cache_dir() / f"lookup_v{FORMAT_VERSION}_G{G}.npz"


def _load_cached(path, G):
    """Tables from ``path`` if the file is intact, else None (with a warning if it exists)."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as f:
            version = int(f["format_version"])
            grid = int(f["grid_size"])
            stored = str(f["sha256"])
            h_table = np.array(f["h"], dtype=np.float64)
            wd_table = np.array(f["wd"], dtype=np.float64)
    except Exception as exc:  # unreadable / truncated / foreign file
        warnings.warn(f"refsvm lookup cache {path} is unreadable ({exc!r}); regenerating", RuntimeWarning,
                      stacklevel=3)
        return None
    problem = None
    if version != FORMAT_VERSION or grid != G or h_table.shape != (G + 1, G + 1) or wd_table.shape != h_table.shape:
        problem = "describes other tables"
    elif table_checksum(h_table, wd_table) != stored:
        problem = "fails its SHA-256 checksum"
    if problem:
        warnings.warn(f"refsvm lookup cache {path} {problem}; regenerating", RuntimeWarning, stacklevel=3)
        return None
    return h_table, wd_table


def _store(path, h_table, wd_table):
    """Write the cache file atomically (temporary file + rename); returns the checksum."""
    checksum = table_checksum(h_table, wd_table)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = atomic_temp(path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, h=h_table, wd=wd_table, grid_size=np.int64(h_table.shape[0] - 1),
                     format_version=np.int64(FORMAT_VERSION), sha256=np.str_(checksum))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return checksum


def get_tables(grid_size=DEFAULT_GRID_SIZE):
    """``(h_table, wd_table)`` for ``grid_size``, computed once and cached.

    Looks in the in-process cache, then in :func:`cache_path` (verifying the
    SHA-256 checksum; a bad file is regenerated with a ``RuntimeWarning``), and
    computes with :func:`compute_tables` otherwise.  The arrays returned are
    shared and read-only.  If the cache directory is not writable the tables are
    still returned (with a ``RuntimeWarning``).
    """
    G = _check_grid_size(grid_size)
    if G in _MEMORY_CACHE:
        return _MEMORY_CACHE[G]
    path = cache_path(G)
    tables = _load_cached(path, G)
    if tables is None:
        tables = compute_tables(G)
        try:
            _store(path, *tables)
        except OSError as exc:
            warnings.warn(f"cannot write refsvm lookup cache {path} ({exc}); tables are kept in memory only",
                          RuntimeWarning, stacklevel=2)
    for t in tables:
        t.setflags(write=False)
    _MEMORY_CACHE[G] = tables
    return tables


def clear_memory_cache():
    """Forget the tables cached in this process (the disk cache is untouched)."""
    _MEMORY_CACHE.clear()


def _check_grid_size(grid_size):
    if isinstance(grid_size, bool) or not isinstance(grid_size, (int, np.integer)) or grid_size < 1:
        raise ValueError(f"grid_size must be a positive integer, got {grid_size!r}")
    return int(grid_size)


# ----------------------------------------------------------------------------
# Lemma 1: where h and WD are not smooth
# ----------------------------------------------------------------------------

def two_mode_threshold(kappa):
    """``psi(kappa)``: ``s`` has two modes iff ``kappa < e^-2`` and ``|logit m| < psi(kappa)``.

    Stationary points of ``s`` solve ``phi(h) = logit m`` with
    ``phi(h) = logit h - |log kappa| (2h - 1)``.  For ``|log kappa| > 2`` phi is
    increasing near 0 and 1 and decreasing between ``h_-`` and ``h_+``,
    ``h_pm = (1 pm r)/2``, ``r = sqrt(1 - 2/|log kappa|)``; three stationary
    points (two modes) exist iff ``|logit m| < phi(h_-) = |log kappa| r - log((1+r)/(1-r))``.
    Returns 0 for ``kappa >= e^-2`` and ``inf`` for ``kappa = 0`` (array in, array out).
    """
    kappa = np.asarray(kappa, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        L = -np.log(kappa)
        r = np.sqrt(np.maximum(1.0 - 2.0 / L, 0.0))
        psi = L * r - np.log((1.0 + r) / (1.0 - r))
    psi = np.where(kappa >= KAPPA_TWO_MODES, 0.0, psi)
    psi = np.where(kappa <= 0.0, np.inf, psi)
    return psi[()] if psi.ndim == 0 else psi


def nonsmooth_cells(grid_size=DEFAULT_GRID_SIZE):
    """Boolean ``(G, G)`` mask: cell ``(i, j)`` meets ``N u Z`` of Lemma 1.

    ``Z = {1/2} x [0, e^-2]`` (h jumps, WD has a kink) and
    ``N = {(m, kappa): kappa <= e^-2, |logit m| = psi(kappa)}`` (a second mode
    appears; contains the pitchfork point ``(1/2, e^-2)`` and reaches the
    corners ``(0, 0)``, ``(1, 0)``).  Cell ``(i, j)`` is the closed square
    ``[m0, m1] x [k0, k1]``; it meets Z iff ``m0 <= 1/2 <= m1`` and ``k0 <= e^-2``,
    and it meets N iff ``k0 <= e^-2`` and the ranges of ``|logit m|`` over
    ``[m0, m1]`` and of ``psi`` over ``[k0, min(k1, e^-2)]`` (psi decreases)
    overlap.  Outside these cells h and WD are smooth (Lemma 1).
    """
    G = _check_grid_size(grid_size)
    nodes = grid_nodes(G)
    m0, m1 = nodes[:-1, None], nodes[1:, None]
    k0, k1 = nodes[None, :-1], nodes[None, 1:]
    with np.errstate(divide="ignore"):
        abs_logit = np.abs(np.log(nodes) - np.log1p(-nodes))          # inf at m = 0, 1
    lo_end, hi_end = abs_logit[:-1, None], abs_logit[1:, None]
    straddle = (m0 <= 0.5) & (0.5 <= m1)
    a_lo = np.where(straddle, 0.0, np.minimum(lo_end, hi_end))
    a_hi = np.maximum(lo_end, hi_end)
    below = k0 <= KAPPA_TWO_MODES
    psi_hi = two_mode_threshold(k0)                                   # psi decreases in kappa
    psi_lo = two_mode_threshold(np.minimum(k1, KAPPA_TWO_MODES))
    in_z = straddle & below
    in_n = below & (a_lo <= psi_hi) & (psi_lo <= a_hi)
    return in_z | in_n
