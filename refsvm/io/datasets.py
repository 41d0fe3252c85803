"""Benchmark data: LIBSVM files from ``$REFSVM_DATA`` and two synthetic generators.

The LIBSVM files are not shipped with refsvm.  Point the environment variable
``REFSVM_DATA`` at a directory holding ``<name>.bz2`` (training split or whole
set) and, where the set has one, ``<name>.t.bz2`` (test split); the files and
their provenance are described in ``SOURCES.md`` of the shared data folder.
:data:`DATASETS` lists every set from that file's summary table with the
``n_features`` that must be passed to the svmlight reader (several splits do
not use their last feature index, e.g. ``a9a.t``).

The generators reproduce the synthetic sets of Wang, Crammer and Vucetic
(2012), section 7.2: a 4x4 checkerboard and a mixture of two Gaussians, and
Breiman's waveform (Breiman, Friedman, Olshen and Stone 1984, section 2.6.2),
the "Waveform" column of Wang et al.'s Table 5.  :func:`generate_chunks` gives
any of them as an iterator of chunks, for sets too large to hold at once (the
paper's Checkerboard has 10M rows, its Waveform 2M).
"""

import os
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .fetch import LIBSVM_FILES, auto_download_enabled, data_homes, fetch_libsvm, verify_file
from .libsvm import DEFAULT_MAX_MEMORY, read_libsvm

__all__ = ["DATASETS", "data_dir", "load_libsvm", "fetch_libsvm", "checkerboard", "gauss_mixture", "waveform",
           "waveform_means", "waveform_log_likelihoods", "bayes_predict", "bayes_error", "generate_chunks", "text_like"]

#: Every data set of SOURCES.md (summary table): file stem, ``n_features``, task, and ``test``, the file stem of
#: the test split (``None``; ``-`` in the table: the set has no test split).  ``mnist5k`` (a
#: 5,000-row subset of the MNIST training set) is paired with the full official
#: test set ``mnist.t``; there is no full MNIST training file.
DATASETS = {
    name: dict(n_features=int(n_features), task=task, test=None if test == "-" else test)
    for name, n_features, task, test in (line.split() for line in """
a9a                  123  binary      a9a.t
ijcnn1                22  binary      ijcnn1.t
w8a                  300  binary      -
phishing              68  binary      -
skin_nonskin           3  binary      -
banana                 2  binary      -
german.numer_scale    24  binary      -
spambase              57  binary      -
mushrooms            112  binary      -
svmguide1              4  binary      svmguide1.t
heart_scale           13  binary      -
covtype.first10000    54  multiclass  -
usps                 256  multiclass  usps.t
letter                16  multiclass  letter.t
pendigits             16  multiclass  pendigits.t
satimage              36  multiclass  satimage.t
dna.scale            180  multiclass  dna.scale.t
shuttle                9  multiclass  shuttle.t
mnist5k              784  multiclass  mnist.t
housing_scale         13  regression  -
abalone_scale          8  regression  -
cpusmall              12  regression  -
cadata                 8  regression  -
space_ga               6  regression  -
""".strip().splitlines())
}


def data_dir():
    """Return the data directory named by the environment variable ``REFSVM_DATA``.

    Raises
    ------
    RuntimeError
        If ``REFSVM_DATA`` is not set.
    FileNotFoundError
        If it does not name an existing directory.
    """
    value = os.environ.get("REFSVM_DATA")
    if not value:
        raise RuntimeError(
            "REFSVM_DATA is not set: set it to the directory holding the LIBSVM "
            "data files (<name>.bz2, <name>.t.bz2), e.g. export REFSVM_DATA=../shared/data"
        )
    path = Path(value).expanduser()
    if not path.is_dir():
        raise FileNotFoundError(f"REFSVM_DATA={value!r} is not a directory")
    return path


def _read(path, n_features, zero_based, max_memory, sparse=False):
    # The table's n_features is authoritative: a split that does not use its
    # last features (a9a.t) is padded; one with more features is an error.
    return read_libsvm(path, n_features=n_features, zero_based=zero_based,
                       pad_features=True, max_memory=max_memory, sparse=sparse)


def load_libsvm(name, *, standardize=False, zero_based=False, max_memory=DEFAULT_MAX_MEMORY, download=True,
                sparse=False):
    """Load the LIBSVM data set ``name`` from ``$REFSVM_DATA`` (or the per-user cache).

    Reads ``<name>.bz2`` and the test split (``<name>.t.bz2``; for the sets of
    :data:`DATASETS` the split named there) from the first folder of
    :func:`refsvm.io.fetch.data_homes` that has the training file:
    ``$REFSVM_DATA`` if set, then the per-user cache.  When no folder has it
    and ``download`` is true, a set with a recorded checksum is downloaded
    first (:func:`refsvm.io.fetch.fetch_libsvm`, into ``$REFSVM_DATA`` if
    set, else the cache); the environment variable ``REFSVM_NO_DOWNLOAD=1``
    switches that off for the whole process.  For a name not in
    :data:`DATASETS` the test split is read if ``<name>.t.bz2`` exists, and
    both splits are given the larger of their feature counts.

    Parameters
    ----------
    name : str
        File stem, e.g. ``"a9a"``, ``"dna.scale"``.
    standardize : bool, default False
        Scale every attribute to mean 0 and standard deviation 1 using the
        mean and (population) standard deviation of the *training* split,
        applied to both splits, as Wang, Crammer and Vucetic (2012, section
        7.2) did for all their data sets.  A column that is constant in the
        training split is only centred (divided by 1), so it is 0 in the
        training split; this is scikit-learn's ``StandardScaler`` rule.
    zero_based : bool, default False
        Whether the files' feature indices start at 0; by default they are
        read as 1-based (LIBSVM's convention) and an index 0 is an error.
    max_memory : int or None, default 4 GiB
        Largest dense matrix (bytes) a split may turn into, checked before it
        is allocated (see :func:`refsvm.io.libsvm.read_libsvm`).
    download : bool, default True
        Download a missing file that has a recorded checksum (see above).
    sparse : bool, default False
        Return ``X_train`` / ``X_test`` as canonical CSR matrices, never dense
        (``max_memory`` then does not apply).  Cannot be combined with
        ``standardize`` (centring makes the data dense).

    Returns
    -------
    X_train, y_train, X_test, y_test
        Dense C-contiguous float64 arrays; labels as in the file (float64, not
        remapped: conventions differ between sets, e.g. -1/+1, 0/1, 1..7).
        ``X_test`` and ``y_test`` are ``None`` for a set without a test split.

    Raises
    ------
    FileNotFoundError
        Naming the path, if the training file or a test split listed in
        :data:`DATASETS` is missing (and was not downloaded).
    refsvm.io.fetch.FetchError
        (an ``OSError``) naming the URL, if a download failed; naming the file, if a file with a
        checksum in :data:`refsvm.io.fetch.LIBSVM_FILES` does not match it (verified once per process
        while the file keeps its size and mtime: :func:`refsvm.io.fetch.verify_file`).
    refsvm.io.libsvm.LibsvmFileError
        (a ``ValueError``) naming the file (and line) if a file is damaged,
        holds NaN, index 0, more features than :data:`DATASETS` lists, or
        would exceed ``max_memory``.
    """
    if sparse and standardize:
        raise ValueError("standardize=True centres every column, which makes sparse data dense; use "
                         "sparse=False, or scale without centring (sklearn.preprocessing.MaxAbsScaler)")
    directory = _directory_of(name, download)
    info = DATASETS.get(name)
    if info is not None:
        n_features = info["n_features"]
        test = info["test"]
    else:
        n_features = None
        test = f"{name}.t" if (directory / f"{name}.t.bz2").is_file() else None

    X_train, y_train = _read(verify_file(directory / f"{name}.bz2"), n_features, zero_based, max_memory, sparse)
    X_test = y_test = None
    if test is not None:
        X_test, y_test = _read(verify_file(directory / f"{test}.bz2"), n_features, zero_based, max_memory, sparse)
        if n_features is None and X_test.shape[1] != X_train.shape[1]:
            d = max(X_train.shape[1], X_test.shape[1])
            X_train = _pad(X_train, d)
            X_test = _pad(X_test, d)

    if standardize:
        from .model_file import standardization

        mean, std = standardization(X_train)
        X_train = (X_train - mean) / std
        if X_test is not None:
            X_test = (X_test - mean) / std
    return X_train, y_train, X_test, y_test


def _directory_of(name, download):
    """The folder holding ``<name>.bz2``: the first of the data homes that has it, else (downloading it
    when allowed) the first data home; ``$REFSVM_DATA`` naming no folder is an error."""
    if os.environ.get("REFSVM_DATA"):
        data_dir()  # REFSVM_DATA names no folder: FileNotFoundError naming it
    homes = data_homes()
    for home in homes:
        if (home / f"{name}.bz2").is_file():
            return home
    if download and auto_download_enabled() and name in LIBSVM_FILES:
        fetch_libsvm(name, homes[0])
        return homes[0]
    if not os.environ.get("REFSVM_DATA") and not homes[0].is_dir():
        fetch = (f"fetch the set with refsvm.datasets.fetch_libsvm({name!r}) / refsvm fetch {name}"
                 if name in LIBSVM_FILES else
                 f"place {name}.bz2 there by hand (it has no recorded checksum, so refsvm fetch cannot get it)")
        raise FileNotFoundError(
            f"{homes[0] / (name + '.bz2')}: no such file, and REFSVM_DATA is not set: set it to the directory "
            f"holding the LIBSVM data files (<name>.bz2, <name>.t.bz2), or {fetch}")
    return homes[0]


def _pad(X, d):
    if X.shape[1] == d:
        return X
    if sp.issparse(X):                                  # more columns, no new entries
        return sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], d))
    out = np.zeros((X.shape[0], d))
    out[:, : X.shape[1]] = X
    return out


def checkerboard(n, *, random_state=None, grid=4):
    """Uniform points on a ``grid`` x ``grid`` checkerboard in [0, 1]^2.

    Wang, Crammer and Vucetic (2012, section 7.2): "a uniformly distributed
    two-dimensional 4x4 checkerboard with alternating class assignments".
    The label is +1 where the cell indices ``(i, j)`` have an even sum
    (the corner cell at the origin is +1), -1 otherwise.

    Returns
    -------
    X : ndarray of shape (n, 2), float64
    y : ndarray of shape (n,), int64 with values -1 and +1
    """
    rng = np.random.default_rng(random_state)
    X = rng.uniform(0.0, 1.0, size=(n, 2))
    cell = np.minimum(np.floor(X * grid).astype(np.int64), grid - 1)
    y = np.where(cell.sum(axis=1) % 2 == 0, 1, -1).astype(np.int64)
    return X, y


def gauss_mixture(n, *, random_state=None):
    """Two 2-D Gaussians with equal priors (Wang, Crammer and Vucetic 2012, section 7.2).

    Class +1 is drawn from N((0, 0), I), class -1 from N((2, 0), 4 I)
    (standard deviation 2).  The labels are drawn first (each +1 with
    probability 1/2), then the points.

    Returns
    -------
    X : ndarray of shape (n, 2), float64
    y : ndarray of shape (n,), int64 with values -1 and +1
    """
    rng = np.random.default_rng(random_state)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    X = rng.standard_normal((n, 2))
    neg = y == -1
    X[neg] = 2.0 * X[neg] + np.array([2.0, 0.0])
    return X, y


def _check_rows(n, name="n"):
    """``n`` as an int >= 0, else ValueError naming the parameter."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{name} must be an integer >= 0; got {n!r}")
    return int(n)


#: The three base waves of Breiman et al. (1984, section 2.6.2), on the 21 attributes m = 1..21:
#: h1(m) = max(6 - |m - 11|, 0), h2(m) = h1(m - 4), h3(m) = h1(m + 4) (rows 0, 1, 2).
_WAVES = np.array([[max(6.0 - abs(m - shift - 11), 0.0) for m in range(1, 22)] for shift in (0, 4, -4)])
#: Class k mixes the waves (a, b) of this row: class 0 = (h1, h2), 1 = (h1, h3), 2 = (h2, h3).
_WAVE_PAIRS = ((0, 1), (0, 2), (1, 2))


def waveform_means():
    """The base waves ``h_a`` and ``h_b`` of each class, arrays of shape (3, 21) each (see :func:`waveform`)."""
    a, b = np.array(_WAVE_PAIRS).T
    return _WAVES[a].copy(), _WAVES[b].copy()


def waveform(n, *, random_state=None):
    """Breiman's waveform data: 21 attributes, 3 equiprobable classes.

    Breiman, Friedman, Olshen and Stone (1984), *Classification and Regression
    Trees*, section 2.6.2 (the generator of UCI's "Waveform Database
    Generator (Version 1)"): with the base waves ``h1(m) = max(6 - |m - 11|, 0)``,
    ``h2(m) = h1(m - 4)``, ``h3(m) = h1(m + 4)`` (m = 1..21), a row of class
    ``(a, b)`` is ``x_m = u h_a(m) + (1 - u) h_b(m) + e_m`` with one
    ``u ~ U(0, 1)`` per row and ``e_m ~ N(0, 1)`` independent.  Classes:
    0 = (h1, h2), 1 = (h1, h3), 2 = (h2, h3), each with probability 1/3.
    The class is drawn first for all rows, then ``u``, then the noise.
    Wang, Crammer and Vucetic (2012) use 2M rows (Table 5).

    Returns
    -------
    X : ndarray of shape (n, 21), float64
    y : ndarray of shape (n,), int64 with values 0, 1, 2
    """
    n = _check_rows(n)
    rng = np.random.default_rng(random_state)
    y = rng.integers(0, 3, size=n).astype(np.int64)
    u = rng.random(n)[:, None]
    ha, hb = waveform_means()
    X = u * ha[y] + (1.0 - u) * hb[y] + rng.standard_normal((n, 21))
    return X, y


def waveform_log_likelihoods(X):
    """``log p(x | class k)`` of :func:`waveform`'s three classes at the rows of ``X``, up to a constant shared
    by the classes: shape (n, 3).  The Bayes classifier of the generator is the argmax over the columns (the
    classes are equiprobable).

    A row of class ``(a, b)`` is ``u h_a + (1 - u) h_b + e`` with ``u ~ U(0, 1)`` and ``e ~ N(0, I)``, so
    with ``d = h_a - h_b``, ``m = x - h_b`` and ``mu = m.d / |d|^2``::

        p(x | k) = (2 pi)^(-21/2) integral_0^1 exp(-|m - u d|^2 / 2) du
                 = (2 pi)^(-20/2) exp(-(|m|^2 - |d|^2 mu^2) / 2) (Phi((1 - mu)|d|) - Phi(-mu |d|)) / |d|

    (complete the square in ``u``; ``Phi`` is the standard normal distribution function), evaluated in logs
    (``scipy.special.log_ndtr``).  ``tests/io/test_bayes_classifiers.py`` checks it against numerical
    quadrature over ``u``.
    """
    from scipy.special import log_ndtr

    X = _finite_rows(X, 21)
    ha, hb = waveform_means()
    out = np.empty((X.shape[0], 3))
    for k in range(3):
        d = ha[k] - hb[k]
        nd = np.sqrt(d @ d)
        m = X - hb[k]
        mu = (m @ d) / (nd * nd)
        hi, lo = (1.0 - mu) * nd, -mu * nd                                # hi - lo = |d| > 0
        # Phi(hi) - Phi(lo) = Phi(-lo) - Phi(-hi): take the pair of arguments on the side of 0 where Phi is
        # small (both ends above 0: the upper tails), so that no difference of two numbers near 1 is formed
        right = lo > 0.0
        a, b = np.where(right, -hi, lo), np.where(right, -lo, hi)          # a < b: both < 0, or a <= 0 < b
        log_b = log_ndtr(b)
        log_mass = log_b + np.log1p(-np.exp(log_ndtr(a) - log_b))         # log(Phi(b) - Phi(a))
        out[:, k] = -0.5 * (np.einsum("ij,ij->i", m, m) - nd * nd * mu * mu) + log_mass - np.log(nd)
    return out


def _finite_rows(X, d):
    """``X`` as a float64 array of shape (n, d) with finite entries, else ValueError naming ``X``."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"X must have shape (n, {d}); got {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite (no NaN or infinity)")
    return X


def _gauss_mixture_bayes(X):
    """The Bayes classifier of :func:`gauss_mixture`: +1 where ``log N(x; 0, I) >= log N(x; (2, 0), 4 I)``."""
    X = _finite_rows(X, 2)
    log_pos = -0.5 * np.einsum("ij,ij->i", X, X) - np.log(2.0 * np.pi)
    Z = X - np.array([2.0, 0.0])
    log_neg = -0.125 * np.einsum("ij,ij->i", Z, Z) - np.log(8.0 * np.pi)
    return np.where(log_pos >= log_neg, 1, -1).astype(np.int64)


def _waveform_bayes(X):
    """The Bayes classifier of :func:`waveform`: the class of largest likelihood (equal priors)."""
    return waveform_log_likelihoods(X).argmax(axis=1).astype(np.int64)


#: The Bayes classifiers of the generators whose classes overlap (checkerboard's label is a function of x:
#: its Bayes error is 0).
_BAYES = {"gauss_mixture": _gauss_mixture_bayes, "waveform": _waveform_bayes}


def bayes_predict(name, X):
    """The Bayes classifier of the generator ``name`` ("gauss_mixture" or "waveform") at the rows of ``X`` (the
    generator's own coordinates, before any standardisation): the label of largest posterior probability,
    from the densities each generator's docstring defines (:func:`waveform_log_likelihoods`; for
    :func:`gauss_mixture` the two Gaussian densities, ties to +1).  No classifier errs less in expectation
    on data of that generator."""
    if name not in _BAYES:
        raise ValueError(f"name must be one of {', '.join(sorted(_BAYES))}; got {name!r}")
    return _BAYES[name](X)


def bayes_error(name, n=2_000_000, *, random_state=0, chunk_size=200_000):
    """The Bayes error of the generator ``name`` ("gauss_mixture" or "waveform") estimated on ``n`` generated
    rows: ``(error, standard_error)``, as fractions.

    The error of :func:`bayes_predict` on ``n`` fresh rows drawn in chunks of ``chunk_size`` (chunk ``i``
    from ``random_state + i``); ``standard_error`` is the binomial ``sqrt(e (1 - e) / n)``.  A test error
    on ``m`` rows of the same generator can be below the exact value by sampling only, about
    ``sqrt(e (1 - e) / m)``; :func:`bayes_predict` on a given test set measures where that set lies.
    """
    if name not in _BAYES:
        raise ValueError(f"name must be one of {', '.join(sorted(_BAYES))}; got {name!r}")
    n = _check_rows(n)
    chunk_size = _check_rows(chunk_size, "chunk_size")
    random_state = _check_rows(random_state, "random_state")
    if n == 0:
        raise ValueError("n must be positive to estimate an error; got 0")
    if chunk_size == 0:
        raise ValueError("chunk_size must be positive; got 0")
    generate = _GENERATORS[name]
    wrong = 0
    for i, start in enumerate(range(0, n, chunk_size)):
        X, y = generate(min(chunk_size, n - start), random_state=random_state + i)
        wrong += int(np.count_nonzero(bayes_predict(name, X) != y))
    e = wrong / n
    return e, float(np.sqrt(e * (1.0 - e) / n))


_GENERATORS = {"checkerboard": checkerboard, "gauss_mixture": gauss_mixture, "waveform": waveform}


def generate_chunks(name, n, *, chunk_size=100_000, random_state=None, **params):
    """The synthetic set ``name`` ("checkerboard", "gauss_mixture", "waveform") as an iterator of ``(X, y)``
    chunks of ``chunk_size`` rows (the last one shorter), ``n`` rows in all.

    One generator ``default_rng(random_state)`` is passed to every chunk in turn, so the chunks are
    determined by ``(random_state, chunk_size)``: the same arguments give the same rows; another
    ``chunk_size`` gives another sample of the same distribution (the rows of one call of the
    generator equal the chunks only when ``chunk_size >= n``).  ``params`` go to the generator (``grid``).
    """
    if name not in _GENERATORS:
        raise ValueError(f"name must be one of {', '.join(sorted(_GENERATORS))}; got {name!r}")
    n = _check_rows(n)
    chunk_size = _check_rows(chunk_size, "chunk_size")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1; got {chunk_size!r}")
    rng = np.random.default_rng(random_state)
    for start in range(0, n, chunk_size):
        yield _GENERATORS[name](min(chunk_size, n - start), random_state=rng, **params)


def text_like(n, d, nnz, *, zipf=1.1, label_noise=0.0, random_state=None):
    """A synthetic sparse, wide, text-like data set (CSR), for benchmarks anyone can rerun.

    Rows are bags of "words": each row draws ``2 nnz`` column indices from a
    Zipf law over the columns (column ``j``, counted from 0, has probability
    proportional to ``(j + 1) ** -zipf``) and keeps the first ``nnz``
    distinct ones (fewer only if a row's draws hold fewer distinct columns);
    each kept column gets a count ``1 + Poisson(1)`` and the value
    ``log(1 + count)``, and every row is scaled to Euclidean norm 1 (as
    tf-idf rows are).  Labels come from a hidden linear rule: a weight
    ``w_j ~ N(0, 1)`` on every column, ``y = +1`` where ``x . w`` is above its
    median over the rows (so the classes are balanced), else ``-1``; with
    ``label_noise > 0`` that fraction of labels, drawn at random, is flipped.

    Parameters
    ----------
    n, d, nnz : int
        Rows, columns, and nonzeros a row (``1 <= nnz <= d``).
    zipf : float, default 1.1
        Exponent of the column law (larger: a few columns in every row).
    label_noise : float in [0, 0.5), default 0
    random_state : int, Generator or None

    Returns
    -------
    X : scipy.sparse.csr_matrix of shape (n, d), float64, canonical
    y : ndarray of shape (n,), float64 in {-1, +1}
    """
    import scipy.sparse as sp

    for name, value, low in (("n", n, 1), ("d", d, 1), ("nnz", nnz, 1)):
        if isinstance(value, bool) or int(value) != value or value < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}")
    if nnz > d:
        raise ValueError(f"nnz must be <= d; got nnz={nnz}, d={d}")
    if not np.isfinite(zipf) or zipf <= 0:
        raise ValueError(f"zipf must be a finite number > 0; got {zipf!r}")
    if not 0.0 <= label_noise < 0.5:
        raise ValueError(f"label_noise must be in [0, 0.5); got {label_noise!r}")
    rng = np.random.default_rng(random_state)
    cdf = np.cumsum(np.arange(1, d + 1, dtype=np.float64) ** -zipf)
    cdf /= cdf[-1]
    draws = np.minimum(np.searchsorted(cdf, rng.random((n, 2 * nnz)), side="right"), d - 1)
    indptr = np.zeros(n + 1, dtype=np.int64)
    columns = []
    for i in range(n):
        row = draws[i]
        _, first = np.unique(row, return_index=True)        # first draw of each distinct column
        keep = np.sort(row[np.sort(first)[:nnz]])
        columns.append(keep)
        indptr[i + 1] = indptr[i] + keep.size
    indices = np.concatenate(columns)
    values = np.log1p(1.0 + rng.poisson(1.0, size=indices.size))
    X = sp.csr_matrix((values, indices, indptr), shape=(n, d))
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.csr_matrix(sp.diags(1.0 / norms) @ X)
    X.sort_indices()
    w = rng.standard_normal(d)
    score = X @ w
    y = np.where(score > np.median(score), 1.0, -1.0)
    if label_noise > 0:
        flip = rng.random(n) < label_noise
        y[flip] = -y[flip]
    return X, y
