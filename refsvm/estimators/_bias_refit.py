"""``refit_bias`` / ``refit_rows``: the bias replaced after the last pass by the hinge-loss minimiser
(:mod:`refsvm.refit`).  :class:`BiasRefit` is a base of
:class:`refsvm.estimators._base.BudgetedClassifierBase`."""

import dataclasses
import time

import numpy as np

from ..backend import get_module
from ..refit import hinge_loss, multiclass_hinge_loss
from ..validation import check_bool, check_int


class BiasRefit:
    """The bias refit after training (methods of :class:`BudgetedClassifierBase`)."""

    # ------------------------------------------------------------ bias refit

    #: How a multi-class model's offsets are refit: ``"ovr"`` (one binary offset per
    #: one-vs-rest machine) or ``"crammer-singer"`` (the multi-class hinge loss).
    _refit_multiclass = "ovr"

    def _check_refit(self):
        """``(refit_bias, refit_rows)`` validated; ``(False, None)`` without these parameters."""
        if not hasattr(self, "refit_bias"):
            return False, None
        refit = self.refit_bias
        if not (isinstance(refit, str) and refit == "scaled"):
            if isinstance(refit, str):
                raise ValueError(f"refit_bias must be True, False or 'scaled'; got {refit!r}")
            check_bool(refit, "refit_bias")
        return refit, check_int(self.refit_rows, "refit_rows", 1)

    def _refit_subsample(self, n, rows):
        """Sorted indices of ``rows`` of ``n`` examples, or None for all of them.

        Drawn from a generator spawned once per training run from the
        estimator's generator (``random_state``): the visiting orders are not
        changed, and every refit of a run (each ``partial_fit`` call) draws
        from the same seed, so ``fit(epochs=k)`` and ``k`` calls of
        ``partial_fit`` refit on the same rows.
        """
        if n <= rows:
            return None
        if getattr(self, "_refit_seed", None) is None:
            seed_seq = getattr(self._rng.bit_generator, "seed_seq", None)
            self._refit_seed = (seed_seq.spawn(1)[0] if seed_seq is not None
                                else int(self._rng.integers(2 ** 63)))
        return np.sort(np.random.default_rng(self._refit_seed).choice(n, rows, replace=False))

    def _refit_bias_after_training(self, X, y, weights):
        """With ``refit_bias=True``: replace ``bias_`` by the hinge-loss minimiser (:mod:`refsvm.refit`).

        The kernel part of the model is kept; its decision values on the
        training rows (a subsample of ``refit_rows`` when there are more)
        give a one-dimensional convex piecewise-linear problem per offset,
        solved exactly.  Binary: one offset.  Multi-class: one offset per
        one-vs-rest machine (``_refit_multiclass = "ovr"``), or the per-class
        offsets of the Crammer-Singer hinge loss by exact coordinate steps
        (``"crammer-singer"``).  The trace of the last pass gets
        ``refit_bias`` (the chosen offsets), ``refit_bias_before`` (the
        algorithm's), ``refit_hinge_before`` / ``refit_hinge_after`` (weighted
        mean hinge loss on the refit rows; per machine for one-vs-rest),
        ``refit_rows`` and ``refit_seconds``; ``refit_bias="scaled"``: the threshold of the
        jointly optimal scale and offset (:func:`refsvm.refit.scaled_hinge_offset`), with
        ``refit_scale`` and ``refit_scaled_hinge`` (loss of the rescaled model) in the
        trace.  The algorithm's bias stays the
        training state (``partial_fit`` continues from it).  Off: nothing
        changes.
        """
        self.__dict__.pop("_trained_bias", None)
        refit, rows = self._check_refit()
        if not refit:
            return
        start = time.perf_counter()
        index = self._refit_subsample(X.shape[0], rows)
        if index is not None:
            X, y = X[index], y[index]
            weights = None if weights is None else weights[index]
        before = np.array(self.bias_, dtype=np.float64)
        kernel_part = dataclasses.replace(self.model_, bias=np.zeros_like(before))
        F = kernel_part.decision_function(X, backend=self.backend)
        module = get_module("refit", self.backend)
        scaled = isinstance(refit, str)
        extra = {}
        if F.ndim == 1:
            if scaled:
                offset, scale, extra["refit_scaled_hinge"] = module.scaled_hinge_offset(F, y, weights)
                extra["refit_scale"] = scale
            else:
                offset, _ = module.hinge_offset(F, y, weights)
            new = np.array([offset])
            loss_before, after = hinge_loss(F, y, before[0], weights), hinge_loss(F, y, offset, weights)
        elif self._refit_multiclass == "crammer-singer":
            if scaled:
                new, extra["refit_scale"], extra["refit_scaled_hinge"] = module.scaled_crammer_singer_offsets(
                    F, y, before, weights)
            else:
                new, _, _ = module.crammer_singer_offsets(F, y, before, weights)
            loss_before = multiclass_hinge_loss(F, y, before, weights)
            after = multiclass_hinge_loss(F, y, new, weights)
        else:
            c = F.shape[1]
            new, after, loss_before, scales = np.empty(c), np.empty(c), np.empty(c), np.empty(c)
            for r in range(c):
                yr = np.where(y == r, 1, -1)
                if scaled:
                    new[r], scales[r], _ = module.scaled_hinge_offset(F[:, r], yr, weights)
                else:
                    new[r], _ = module.hinge_offset(F[:, r], yr, weights)
                after[r] = hinge_loss(F[:, r], yr, new[r], weights)
                loss_before[r] = hinge_loss(F[:, r], yr, before[r], weights)
            if scaled:
                extra["refit_scale"] = scales
        self._trained_bias = self.bias_
        self._set_model(self.support_vectors_, self.alpha_, new)
        if self.trace_:
            self.trace_[-1].update(refit_bias=new.copy(), refit_bias_before=before,
                                   refit_hinge_before=loss_before, refit_hinge_after=after,
                                   refit_rows=int(X.shape[0]),
                                   refit_seconds=time.perf_counter() - start, **extra)
