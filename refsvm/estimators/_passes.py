"""One pass of an algorithm over the data through ``run_chunk``: one call, or chunks with progress lines
(``verbose >= 1``, :mod:`refsvm.estimators._progress`) and stops inside the epoch for checkpoints
(:mod:`refsvm.estimators._checkpoint`).  :class:`PassRunner` is a base of
:class:`refsvm.estimators._base.BudgetedClassifierBase`."""

import numpy as np

from ..validation import check_int
from ._progress import PassProgress, chunk_size, merge_traces


class PassRunner:
    """``verbose`` and the chunked pass (methods of :class:`BudgetedClassifierBase`)."""

    # ------------------------------------------------------------------ progress

    def _check_verbose(self):
        """``verbose`` (an int >= 0, or a bool as scikit-learn's estimators accept it: False = 0,
        True = 1; estimators without the parameter count as 0)."""
        verbose = getattr(self, "verbose", 0)
        if isinstance(verbose, (bool, np.bool_)):
            return int(verbose)
        return check_int(verbose, "verbose", 0)

    def _run_pass(self, order, run_chunk, label=None, carry=None):
        """Run one pass over ``order`` through ``run_chunk``; report progress if verbose.

        ``run_chunk(sub_order)`` calls the algorithm once on ``sub_order`` (a
        contiguous piece of ``order``), continuing from the model and step
        counter of the previous call, stores the new model, and returns
        ``(trace, n_sv)``: the algorithm's trace of that call (with at least
        ``n_steps`` and ``mistakes``; ``maint_step`` or ``n_maintenance`` for
        the maintenance count) and the number of support vectors after it.

        ``verbose=0``: one call with the whole ``order``.  ``verbose >= 1``:
        chunks of :func:`refsvm.estimators._progress.chunk_size` steps, a progress line
        after each (:class:`refsvm.estimators._progress.PassProgress`), and the chunks'
        traces merged by :func:`refsvm.estimators._progress.merge_traces`.  Returns the
        trace of the pass.  ``label``: what the progress lines call the pass (default: the epoch,
        ``self._progress_label``); e.g. a one-vs-rest machine adds its class.

        ``carry``: the dict of the solver's in-pass state that ``run_chunk`` continues from (lists
        are restored in place).  Handed over, the pass can also stop inside an epoch for a checkpoint
        (``fit(checkpoint=..., checkpoint_every="<k>steps")``: ``self._pass_checkpointer``, a
        :class:`refsvm.estimators._checkpoint._PassCheckpoints`), and a resumed pass starts at the
        position saved there, with the traces of the segments run before.
        """
        verbose = self._check_verbose()
        n = len(order)
        stops = getattr(self, "_pass_checkpointer", None) if carry is not None else None
        if verbose == 0 and stops is None:
            trace, _ = run_chunk(order)
            return trace
        progress = PassProgress(type(self).__name__, label or getattr(self, "_progress_label", "pass"), n,
                                error_label=getattr(self, "_error_label", "online error")) if verbose else None
        size = chunk_size(n, verbose)
        start, traces, offsets = stops.begin(n, carry) if stops is not None else (0, [], [])
        while True:
            stop = min(n, start + size, n if stops is None else stops.next_stop(start))
            trace, n_sv = run_chunk(order[start:stop])
            traces.append(trace)
            offsets.append(start)
            if progress is not None:
                progress.update(trace, n_sv)
            start = stop
            if start >= n:
                break
            if stops is not None:
                stops.after(start, traces, offsets, carry)
        if progress is not None:
            progress.finish()
        return merge_traces(traces, offsets)
