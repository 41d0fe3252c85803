"""Runners on LIBSVM's usps, reconstructed from the shared one (:mod:`refsvm.io.usps`).

The shared ``usps`` is ESL's ``zip.train`` / ``zip.test``; LIBSVM's ``usps`` / ``usps.t``, the files Lu et al.
(2016) and Wang et al. (2012) ran, hold the same digits blurred by a Gaussian (sigma = 0.75 pixel,
:func:`refsvm.io.usps.libsvm_usps_pixels`).  The runners blur the rows they are given and hand them on, so a
table row runs on LIBSVM's pixels with nothing else changed: :func:`run_estimator_libsvm_usps` to
:func:`refsvm.reproduce.runners.run_estimator_scaled` (Lu et al.'s stream), :func:`run_on_libsvm_usps` to any
runner, standardising first where the table standardises (Wang et al.'s splits).
"""

import importlib

from ..io.usps import libsvm_usps_pixels
from .runners import run_estimator_scaled

__all__ = ["libsvm_usps_rows", "run_estimator_libsvm_usps", "run_on_libsvm_usps"]


def libsvm_usps_rows(X, X_test=None, standardize=False):
    """``(X, X_test)``: the shared usps / usps.t rows as LIBSVM's pixels (:func:`refsvm.io.usps.libsvm_usps_pixels`),
    with ``standardize`` then every column scaled to mean 0 and standard deviation 1 over ``X``'s rows and the same
    map applied to ``X_test`` (:func:`refsvm.io.model_file.standardization`, the rule of
    ``load_libsvm(standardize=True)``); ``X_test`` None stays None.  The data of :func:`run_on_libsvm_usps` and of
    ``benchmarks/bench_wang_removal_ties.py --source wang2012-table4-usps-libsvm``."""
    from ..io.model_file import standardization

    X = libsvm_usps_pixels(X)
    X_test = None if X_test is None else libsvm_usps_pixels(X_test)
    if standardize:
        mean, std = standardization(X)
        X = (X - mean) / std
        X_test = None if X_test is None else (X_test - mean) / std
    return X, X_test


def run_estimator_libsvm_usps(X, y, X_test, y_test, seed, **params):
    """:func:`~refsvm.reproduce.runners.run_estimator_scaled` on LIBSVM's usps pixels: ``X`` (rows of the shared
    usps, dense; ``--quick``'s subset too) blurred by :func:`refsvm.io.usps.libsvm_usps_pixels` first."""
    X_test = None if X_test is None else libsvm_usps_pixels(X_test)
    return run_estimator_scaled(libsvm_usps_pixels(X), y, X_test, y_test, seed, **params)


def run_on_libsvm_usps(X, y, X_test, y_test, seed, *, runner, standardize=False, **params):
    """``runner`` (``"module:function"``) on LIBSVM's usps pixels: ``X`` and ``X_test`` (rows of the shared
    ``usps`` / ``usps.t``, as read: the table's data set is not standardised) blurred by
    :func:`refsvm.io.usps.libsvm_usps_pixels`; with ``standardize``, then every column scaled to mean 0 and
    standard deviation 1 over ``X``'s rows and the same map applied to ``X_test``
    (:func:`refsvm.io.model_file.standardization`, the rule of ``load_libsvm(standardize=True)``).  In a
    cross-validation task ``X`` is the fold's training rows, so the statistics are the fold's."""
    X, X_test = libsvm_usps_rows(X, X_test, standardize)
    module, _, func = runner.partition(":")
    return getattr(importlib.import_module(module), func)(X, y, X_test, y_test, seed, **params)
