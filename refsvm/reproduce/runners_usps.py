"""A runner on LIBSVM's usps, reconstructed from the shared one (:mod:`refsvm.io.usps`).

The shared ``usps`` is ESL's ``zip.train``; LIBSVM's ``usps``, the file Lu et al. (2016) ran, holds the same
digits blurred by a Gaussian (sigma = 0.75 pixel, :func:`refsvm.io.usps.libsvm_usps_pixels`).  The runner
blurs the rows it is given and hands them to :func:`refsvm.reproduce.runners.run_estimator_scaled`, so a table
row runs on LIBSVM's pixels with nothing else changed.
"""

from ..io.usps import libsvm_usps_pixels
from .runners import run_estimator_scaled

__all__ = ["run_estimator_libsvm_usps"]


def run_estimator_libsvm_usps(X, y, X_test, y_test, seed, **params):
    """:func:`~refsvm.reproduce.runners.run_estimator_scaled` on LIBSVM's usps pixels: ``X`` (rows of the shared
    usps, dense; ``--quick``'s subset too) blurred by :func:`refsvm.io.usps.libsvm_usps_pixels` first."""
    X_test = None if X_test is None else libsvm_usps_pixels(X_test)
    return run_estimator_scaled(libsvm_usps_pixels(X), y, X_test, y_test, seed, **params)
