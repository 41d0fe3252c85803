"""The feature-scale warning: one feature holding most of the variance of ``X`` (a Gaussian kernel of one
width then sees little else)."""

import warnings

import numpy as np
import scipy.sparse as sp


class FeatureScaleWarning(UserWarning):
    """One feature holds most of the variance of ``X``: a Gaussian kernel of one width sees little else."""


def _feature_variances(X, rows=None):
    """Per-column variances of ``X`` in blocks of rows (no temporary copy of ``X``)."""
    if sp.issparse(X):
        mean = np.asarray(X.mean(axis=0)).ravel()
        return np.maximum(np.asarray(X.multiply(X).mean(axis=0)).ravel() - mean * mean, 0.0)
    rows = rows or max(1, 2 ** 20 // max(X.shape[1], 1))
    mean = X.mean(axis=0)
    total = np.zeros(X.shape[1])
    for start in range(0, X.shape[0], rows):
        block = X[start:start + rows] - mean
        total += np.einsum("ij,ij->j", block, block)
    return total / max(X.shape[0], 1)


#: share of the total variance of ``X`` above which one feature triggers :class:`FeatureScaleWarning`
FEATURE_SHARE_WARNING = 0.5
#: rows of ``X`` the feature-scale check reads at most (evenly spaced): a heuristic needs no more
FEATURE_CHECK_ROWS = 2000


def warn_feature_scale(X, estimator_name):
    """Warn (:class:`FeatureScaleWarning`) when one of at least 3 features holds more than half the variance.

    The Gaussian kernel ``exp(-gamma ||x - x'||^2)`` has one width for all features: when one feature's
    spread dwarfs the others', the kernel (and ``gamma="scale"``, which sets the width from the total
    variance) sees mostly that feature.  Raw LIBSVM sets such as cadata, cpusmall, space_ga, spambase,
    svmguide1, shuttle and covtype are like that; the defaults learn on them once X is standardised
    (``benchmarks/bench_defaults.py``).  With two features half the variance is the balanced case,
    hence at least 3."""
    if X.ndim != 2 or X.shape[1] < 3 or X.shape[0] < 2:
        return
    if X.shape[0] > FEATURE_CHECK_ROWS:                   # a fixed, evenly spaced subsample (no random draw)
        X = X[np.linspace(0, X.shape[0] - 1, FEATURE_CHECK_ROWS).astype(np.intp)]
    var = _feature_variances(X)
    total = float(var.sum())
    if not (total > 0.0 and np.isfinite(total)):
        return
    j = int(np.argmax(var))
    share = float(var[j]) / total
    if share > FEATURE_SHARE_WARNING:
        warnings.warn(
            f"{estimator_name}: feature {j} holds {100 * share:.0f}% of the variance of X (standard deviation "
            f"{np.sqrt(var[j]):.3g}; median over the features {np.sqrt(np.median(var)):.3g}), so a Gaussian "
            "kernel of one width sees mostly that feature; standardise X (e.g. "
            "make_pipeline(StandardScaler(), estimator)) unless that is intended", FeatureScaleWarning,
            stacklevel=4)
