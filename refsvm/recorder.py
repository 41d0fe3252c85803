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
"""

import time
from contextlib import contextmanager

import numpy as np


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
