"""Threads for independent pieces of work: the one-vs-rest machines of an estimator, the row
blocks of a prediction (``n_jobs``, joblib's convention).

Threads, not processes: the compiled solvers and the BLAS / numpy calls of a prediction release
the GIL, so the pieces run in parallel on the same arrays, without copying ``X``.
"""

import numbers


def check_n_jobs(n_jobs):
    """``n_jobs`` as joblib reads it (None = 1, -1 = all cores, -2 = all but one, ...) -> workers >= 1;
    ValueError naming ``n_jobs`` for 0, booleans and non-integers."""
    from joblib import effective_n_jobs

    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0):
        raise ValueError(f"n_jobs must be None or a non-zero integer (-1: all cores); got {n_jobs!r}")
    return max(1, effective_n_jobs(n_jobs))


def map_threads(n_jobs, func, items):
    """``[func(item) for item in items]``, run in ``n_jobs`` threads; the results come back in the
    order of ``items``, so whatever is assembled from them is bitwise that of ``n_jobs=1``."""
    workers = check_n_jobs(n_jobs)
    items = list(items)
    workers = min(workers, len(items))
    if workers <= 1:
        return [func(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(func, items))
