"""Sparse rows: CSR input and support vectors that keep the data's sparsity (reference).

The data sets this field is measured on are wide and sparse (rcv1: 47k
features, news20: 1.36M, url: 3.2M).  A dense copy of them does not fit in
memory, so the algorithms read ``scipy.sparse`` CSR matrices as they are and
keep their support vectors sparse:

* a new SV is its row of X (its nonzeros);
* a merged SV ``z = h x_m + (1 - h) x_n`` (eq. 18 of Wang et al.) has the union
  of the two supports; an entry whose value comes out exactly 0 is dropped
  (``scipy.sparse`` does the same);
* projection and removal change coefficients only; removal is the list
  operation of DESIGN.md (the last SV moves into the freed slot).

Gaussian kernel rows use the squared norms
(``||x - x'||^2 = ||x||^2 + ||x'||^2 - 2 x.x'``, clamped at 0), so a kernel
row costs one sparse dot product per SV.  The squared norm of a row is the sum
of its squared values in index order, and a dot product adds the products of
common indices in index order; with these two definitions ``||x - x||^2`` is
exactly 0.  Dense rows use the same formula with the same sums
(:mod:`refsvm.kernels`; the zeros of a dense row add exact zeros), so a dense
run and a CSR run of the same data are bitwise the same run.  Merging's
distance between two SVs (``log kappa = -gamma ||x_m - x_n||^2``, eq. 18) is
the same number too (:func:`refsvm.kernels.sq_dist`).


:class:`SparseRows` is the SV storage of the reference path; it supports the
few list operations the algorithms use on a dense SV array (``SV[j] = row``,
``SV[:b]``, ``SV[idx]``), so :mod:`refsvm.bsgd` and :mod:`refsvm.budget` read
the same on dense and sparse data.  The compiled twin is
:mod:`refsvm._fast.sparse` (per-SV index / value buffers and a scatter
workspace of ``d`` doubles).

Storage rule: the SVs hold sparse rows exactly when X is a scipy sparse
matrix (no densifying of X, ever); a dense X gives a dense ``(B + 1, d)`` SV
array.  How the compiled path lays out sparse rows is a matter of speed only:
per-SV index / value buffers, or, when ``(B + 1) d`` is at most
:data:`DENSE_LAYOUT_ENTRIES` (64 MB of doubles: a9a, w8a, mnist, ...), a dense
``(B + 1, d)`` array read at the example's nonzeros.  Both layouts compute
the same numbers bitwise (the same norms, the same products of common
indices in index order; a product with a zero adds an exact zero), so the
reference keeps the one readable layout, :class:`SparseRows`.
"""

import numpy as np
import scipy.sparse as sp

#: Sparse rows of at most this many entries for all SV slots ((B + 1) d) are laid out as a dense array
#: in the compiled path (speed only: the numbers are those of the per-SV buffers; see above).
DENSE_LAYOUT_ENTRIES = 2 ** 23

__all__ = ["SparseRows", "canonical_csr", "is_sparse", "new_sv_storage", "rows_equal", "row_sq_norms",
           "n_rows", "sparse_dots"]


def is_sparse(X):
    """True for a scipy sparse matrix or array."""
    return sp.issparse(X)


def n_rows(M):
    """Number of rows of a dense array, a list of rows or a sparse matrix (``len`` is ambiguous
    for scipy matrices)."""
    return M.shape[0] if sp.issparse(M) else len(M)


def row_sq_norms(S):
    """``||s_j||^2`` of every row of the CSR matrix ``S``: squared values added in index order."""
    S = sp.csr_matrix(S)
    out = np.zeros(S.shape[0])
    for j in range(S.shape[0]):
        s = 0.0
        for v in S.data[S.indptr[j]:S.indptr[j + 1]].tolist():
            s += v * v
        out[j] = s
    return out


def rows_equal(a, b):
    """True when the sparse rows ``a`` and ``b`` (1, d) are equal in every coordinate."""
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    return (a.nnz == b.nnz and np.array_equal(a.indices, b.indices)
            and np.array_equal(a.data, b.data))


class SparseRows:
    """A fixed number of slots, each holding one sparse row (1, d) CSR, or empty.

    Mirrors the part of a dense ``(capacity, d)`` array that the algorithms
    use: ``S[j]`` (one row), ``S[j] = row`` (set a slot), ``S[:b]`` and
    ``S[index_array]`` (the rows stacked as an ``(k, d)`` CSR matrix),
    ``S[:b] = csr`` (fill the first slots).  Rows are never changed in place:
    a merge writes a new row into its slot.
    """

    def __init__(self, capacity, d):
        self.d = int(d)
        self.rows = [None] * int(capacity)
        self.shape = (int(capacity), self.d)

    def __len__(self):
        return len(self.rows)

    def _stack(self, rows):
        if not rows:
            return sp.csr_matrix((0, self.d))
        return sp.vstack(rows, format="csr")

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            return self.rows[key]
        if isinstance(key, slice):
            return self._stack(self.rows[key])
        return self._stack([self.rows[k] for k in np.asarray(key).tolist()])

    def __setitem__(self, key, value):
        if isinstance(key, slice):                     # S[:b] = csr matrix of b rows
            value = canonical_csr(value)
            for j, k in enumerate(range(*key.indices(len(self.rows)))):
                self.rows[k] = value[j]
            return
        self.rows[key] = canonical_csr(value)

    def copy(self):
        out = SparseRows(len(self.rows), self.d)
        out.rows = list(self.rows)
        return out


def canonical_csr(M):
    """``M`` as a canonical float64 CSR matrix: sorted indices, no duplicate entries, no stored
    zeros (the form both paths store and compare)."""
    M = sp.csr_matrix(M, dtype=np.float64, copy=True)
    M.sum_duplicates()
    M.eliminate_zeros()
    M.sort_indices()
    return M


def new_sv_storage(capacity, X):
    """Empty SV storage for ``capacity`` SVs of the data ``X``: :class:`SparseRows` for a sparse X,
    a dense zero ``(capacity, d)`` array otherwise (the storage rule of the module docstring)."""
    if sp.issparse(X):
        return SparseRows(capacity, X.shape[1])
    return np.zeros((capacity, X.shape[1]))



def sparse_dots(S, x):
    """``s_j . x`` for every row of the CSR matrix ``S`` and the sparse row ``x`` (1, d): the
    products of common indices added in index order of ``s_j``."""
    return np.asarray((S @ sp.csr_matrix(x).T).todense()).ravel()


