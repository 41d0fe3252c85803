"""Progress reports of verbose estimators (``verbose >= 1``), shared by every solver.

A pass over the data is split into chunks (:func:`chunk_size`) and the
algorithm function is called once per chunk, continuing from the model it
returned (every algorithm function of refsvm takes the model and step counter
to continue from, so the chunked pass computes the same model as one call;
tests check this).  After each chunk :class:`PassProgress` prints one line;
:func:`merge_traces` joins the chunks' traces into the trace of the pass.
With ``verbose=0`` the pass is one call: no chunking, no cost.

Lines go to ``sys.stderr`` (standard output stays free for results), e.g.::

    [BudgetedSVC] epoch 1/2: 20000/49749 (40%)  61,234 ex/s  500 SVs  19,500 maintenance  online error 0.0512
    [BudgetedSVC] epoch 1/2 done: 49749 steps in 0.81 s  61,234 ex/s  500 SVs  49,249 maintenance  online error 0.0431

``ex/s`` counts examples visited per second of the pass so far; ``SVs`` is
the current number of support vectors; ``maintenance`` the number of budget
maintenance events and ``online error`` the fraction of online mistakes
(prediction of each example before its update) in the pass so far; SBP prints
``error on sampled low-margin points`` instead (the mistakes among the points
it samples, which lie under the water level: not an online error).  A
one-vs-rest machine names its class (``epoch 1/10, class 3 vs rest (4/10)``).
"""

import math
import numbers
import sys
import time

import numpy as np

__all__ = ["MIN_CHUNK", "chunk_size", "merge_traces", "PassProgress"]

#: Smallest chunk (steps): passes shorter than this are reported once, at their end.
MIN_CHUNK = 1000


def chunk_size(n_steps, verbose):
    """Steps per call of the algorithm: the whole pass for ``verbose <= 0``;
    about a tenth of the pass for ``verbose == 1`` and a hundredth for
    ``verbose >= 2``, never fewer than :data:`MIN_CHUNK` steps."""
    if verbose <= 0:
        return max(n_steps, 1)
    parts = 10 if verbose == 1 else 100
    return max(MIN_CHUNK, math.ceil(n_steps / parts))


def merge_traces(traces, offsets):
    """The trace of a pass from the traces of its chunks.

    Rules (a trace is a dict): numbers are summed (counts, seconds, sums);
    arrays are concatenated along their first axis, and arrays whose key ends
    in ``_step`` (indices into the chunk's ``order``) are shifted by the
    chunk's offset ``offsets[k]`` into the pass's ``order``; any other value
    is taken from the last chunk.  One chunk: its trace unchanged.
    """
    if len(traces) == 1:
        return traces[0]
    merged = {}
    for key, last in traces[-1].items():
        values = [tr[key] for tr in traces]
        if isinstance(last, np.ndarray):
            if key.endswith("_step"):
                values = [np.asarray(v) + off for v, off in zip(values, offsets)]
            merged[key] = np.concatenate(values, axis=0)
        elif isinstance(last, numbers.Number) and not isinstance(last, (bool, np.bool_)):
            merged[key] = sum(values[1:], values[0])
        else:
            merged[key] = last
    return merged


def _count(trace):
    """Maintenance events in a chunk's trace (``maint_step`` or ``n_maintenance``)."""
    if "maint_step" in trace:
        return len(trace["maint_step"])
    return int(trace.get("n_maintenance", 0))


class PassProgress:
    """Prints a progress line after every chunk of one pass, and one at its end.

    Parameters
    ----------
    name : str
        Estimator name printed first (``[BudgetedSVC]``).
    label : str
        What the pass is (``"epoch 1/3"``, ``"partial_fit call 4"``).
    n_steps : int
        Length of the pass.
    stream : file, default=sys.stderr
    error_label : str, default="online error"
        What the trace's ``mistakes`` count, as printed: an online error for the solvers that predict each
        visited example before updating; SBP's ``"error on sampled low-margin points"`` (it counts
        mistakes only among the points line 6 samples, those under the water level, so the fraction is
        far above the model's training error).
    """

    def __init__(self, name, label, n_steps, stream=None, error_label="online error"):
        self.prefix = f"[{name}] {label}"
        self.error_label = error_label
        self.n_steps = int(n_steps)
        self.stream = sys.stderr if stream is None else stream
        self.steps = 0
        self.mistakes = 0
        self.squared_loss = None       # regression traces: sum of the online squared losses
        self.events = 0
        self.maintains = False
        self.n_sv = 0
        self.start = time.perf_counter()

    def _stats(self):
        seconds = time.perf_counter() - self.start
        rate = self.steps / seconds if seconds > 0 else float("inf")
        parts = [f"{rate:,.0f} ex/s"]
        if self.n_sv is not None:                       # FOGD has no SVs: nothing to print
            parts.append(f"{self.n_sv} SVs")
        if self.maintains:                              # only solvers that maintain a budget
            parts.append(f"{self.events:,} maintenance")
        if self.squared_loss is not None:
            mse = self.squared_loss / self.steps if self.steps else 0.0
            parts.append(f"online mse {mse:.4g}")
        else:
            error = self.mistakes / self.steps if self.steps else 0.0
            parts.append(f"{self.error_label} {error:.4f}")
        return seconds, "  ".join(parts)

    def update(self, trace, n_sv):
        """Account for one chunk (its trace, the SV count after it); print a line unless it ends the pass."""
        self.steps += int(trace["n_steps"])
        if "mistakes" not in trace and "squared_loss_sum" in trace:    # a regressor's trace
            self.squared_loss = (self.squared_loss or 0.0) + float(trace["squared_loss_sum"])
        else:
            self.mistakes += int(trace["mistakes"])
        self.events += _count(trace)
        self.maintains = self.maintains or "maint_step" in trace or "n_maintenance" in trace
        self.n_sv = None if n_sv is None else int(n_sv)
        if self.steps < self.n_steps:
            _, stats = self._stats()
            pct = 100.0 * self.steps / self.n_steps
            print(f"{self.prefix}: {self.steps}/{self.n_steps} ({pct:.0f}%)  {stats}",
                  file=self.stream, flush=True)

    def finish(self):
        """Print the line of the finished pass."""
        seconds, stats = self._stats()
        print(f"{self.prefix} done: {self.steps} steps in {seconds:.2f} s  {stats}",
              file=self.stream, flush=True)
