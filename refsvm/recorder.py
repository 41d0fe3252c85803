"""Recorders: everything a run writes down that is not the algorithm.

An algorithm function (``bsgd``, ``bsca``, ``sbp.optimize``, ``fogd``, ``nogd``, the
online learners) holds the paper's lines; its trace (counters, per-step flags, the
list of maintenance events, timers, diagnostics) goes through one recorder, called
once per event: a margin computed, an SV added, a maintenance event with its
partner and weight degradation, ...  :meth:`Recorder.trace` assembles the trace
dict the algorithm returns (its keys are listed in DESIGN.md per algorithm).

Each algorithm module defines a small subclass whose methods are named after its
events (``BSGDRecorder.maintenance(step, event, eta_t)``); the generic pieces are
here:

* ``count(name, n)``: an integer counter (``mistakes``, ``kernel_evaluations``);
* ``mark(name, step)``: a per-step int8 flag (``added``, ``updated``);
* ``append(**columns)``: one row of an event table (``maint_step``, ``maint_index``);
* ``timer(name)``: a context manager adding wall-clock seconds to ``name``.

The compiled twins fill the same counters in C (no Python call per step) and hand
them over once per call through the same subclass (``Recorder.from_counts``), so
both paths return traces assembled by one function.

**Per-step records (opt-in).**  Inside ``with recording_steps():`` (off by default) a
recorder that supports them also keeps what the oracle's schema promises per step and
per maintenance event (BSGD: the scores ``f_t(x_t)`` of every step, key ``margin``, and
the merged SV's coefficient ``alpha_z`` of every merge, key ``maint_new_coefficient``, and the h that
placed the merged point, key ``maint_h``, written by the merge itself).
The values are copied from the algorithm's own variables, never recomputed, so a traced
run's model is bitwise the untraced one; the compiled twins read the switch once per call
(:func:`steps_recorded`) and write the values from their C loop into arrays handed over
with the other counters.  Untraced runs allocate and write nothing.
"""

import time
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

_RECORD_STEPS = ContextVar("refsvm_record_steps", default=False)


@contextmanager
def recording_steps(on=True):
    """Within the block, algorithm calls (both paths) that support it add per-step records to their
    traces (see the module docstring); the switch is per thread / context (a ``ContextVar``)."""
    token = _RECORD_STEPS.set(bool(on))
    try:
        yield
    finally:
        _RECORD_STEPS.reset(token)


def steps_recorded():
    """True inside :func:`recording_steps` (read once per algorithm call)."""
    return _RECORD_STEPS.get()


class Recorder:
    """Counters, per-step flags, event tables and timers of one pass; :meth:`trace` assembles them.

    ``flags``: names of the per-step int8 arrays (length ``n_steps``); ``events``: the
    event table's columns as ``{name: dtype}``; ``counters`` / ``timers``: names
    that start at 0 (so they are in the trace even when nothing happened).
    """

    flags = ()
    events = {}
    counters = ()
    timers = ()

    def __init__(self, n_steps):
        self.n_steps = int(n_steps)
        self.counts = dict.fromkeys(self.counters, 0)
        self.seconds = dict.fromkeys(self.timers, 0.0)
        self.step_flags = {name: np.zeros(self.n_steps, dtype=np.int8) for name in self.flags}
        self.columns = {name: [] for name in self.events}

    # -- the generic events
    def count(self, name, n=1):
        self.counts[name] = self.counts.get(name, 0) + n

    def mark(self, name, step, value=1):
        self.step_flags[name][step] = value

    def append(self, **values):
        for name, value in values.items():
            self.columns[name].append(value)

    @contextmanager
    def timer(self, *names):
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            for name in names:
                self.seconds[name] = self.seconds.get(name, 0.0) + elapsed

    # -- the trace
    def trace(self, **extra):
        """The trace dict: counters (int), flags, event columns (arrays of their dtype), timers, ``extra``."""
        out = {name: int(value) for name, value in self.counts.items()}
        out.update(self.step_flags)
        for name, dtype in self.events.items():
            out[name] = np.array(self.columns[name], dtype=dtype)
        out.update(self.seconds)
        out.update(extra)
        return out


def merged_slot(p, n, b_before):
    """The slot the merged point z holds after a merge of ``m = p`` with partner ``n`` of ``b_before`` SVs
    (-1: no partner, ``m`` was removed): z is written into slot m, then the last SV moves into slot n
    (:func:`refsvm.budget.remove_sv`), so z ends in slot n when m was the last SV."""
    if n < 0:
        return -1
    return n if p == b_before - 1 else p


class StepRecords:
    """The opt-in per-step records of one pass (:func:`recording_steps`): the scores ``f_t(x_t)`` of
    every step (``margin``, float64 ``(n_steps, c)``) and, per maintenance event, the merged SV's
    coefficient (``maint_new_coefficient``, float64 ``(n_events, c)``, NaN for an event without a
    merge).  Copies of the algorithm's numbers; nothing is recomputed."""

    @classmethod
    def when_on(cls, n_steps, c):
        """The records of a pass inside :func:`recording_steps`, else :class:`NoStepRecords` (does nothing)."""
        return cls(n_steps, c) if steps_recorded() else NoStepRecords()

    def __init__(self, n_steps, c):
        self.margins = np.full((int(n_steps), int(c)), np.nan)
        self.step = 0
        self.new_coefficients = []
        self.merge_hs = []
        self.c = int(c)

    def margin(self, f):
        """The step's scores (called once per step, in order)."""
        self.margins[self.step] = f
        self.step += 1

    def maintenance(self, event, A):
        """The event's merged coefficient, read from the model ``A`` after the event, and its h (the
        merge's own, :data:`refsvm.budget.MaintenanceEvent` ``h``; NaN without a merge)."""
        z = merged_slot(event.p, event.n, event.b_before) if event.strategy == "merge" else -1
        self.new_coefficients.append(A[z].copy() if z >= 0 else np.full(self.c, np.nan))
        self.merge_hs.append(event.h if z >= 0 else np.nan)

    def trace(self):
        return {"margin": self.margins,
                "maint_new_coefficient": np.array(self.new_coefficients, dtype=np.float64).reshape(-1, self.c),
                "maint_h": np.array(self.merge_hs, dtype=np.float64)}


def step_record_arrays(n_steps, n_events, c):
    """The compiled twins' per-step record arrays, ``(margins (n_steps, c), new coefficients (max(n_events, 1),
    c))`` filled with NaN, or ``(None, None)`` outside :func:`recording_steps` (read once per call)."""
    if not steps_recorded():
        return None, None
    return np.full((int(n_steps), int(c)), np.nan), np.full((max(int(n_events), 1), int(c)), np.nan)


def merge_h_array(n_events):
    """The compiled BSGD / BSCA's array of the merges' h (``(max(n_events, 1),)``, NaN: no merge), or
    None outside :func:`recording_steps`."""
    return np.full(max(int(n_events), 1), np.nan) if steps_recorded() else None


def add_step_records(trace, margins, new_coefficients, n_events, merge_hs=None):
    """Hand the twins' per-step record arrays over to ``trace`` (the keys of :meth:`StepRecords.trace`;
    ``maint_h`` all NaN for a learner without merges, ``merge_hs`` None)."""
    if margins is not None:
        trace["margin"] = margins
        trace["maint_new_coefficient"] = new_coefficients[:n_events].copy()
        trace["maint_h"] = merge_hs[:n_events].copy() if merge_hs is not None else np.full(n_events, np.nan)


class NoStepRecords:
    """:class:`StepRecords` switched off: records nothing, adds no trace keys."""

    def margin(self, f):
        pass

    def maintenance(self, event, A):
        pass

    def trace(self):
        return {}
