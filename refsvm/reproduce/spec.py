"""The description of a paper's table for ``refsvm reproduce``: its data sets, rows and numbers.

A table's *run specification* is what decides its numbers: the data sets' fields and the rows'
runners, parameters and grids (:func:`spec_digest`).  The paper's numbers, titles, notes and errata
only explain them.  A results file records the digest of the rows and data sets it ran
(``provenance.table_spec``), so that ``benchmarks/stale.py`` calls it stale when that part of its
table changes, not when another table in the same module, or the paper's column, does.
"""

import hashlib
import json
import types
from dataclasses import dataclass, field, fields, is_dataclass

__all__ = ["Entry", "Dataset", "Table", "spec_digest", "MIN_SEEDS"]

#: The one-pass seed policy: a table runs at least this many seeds (visiting orders) unless
#: :data:`refsvm.reproduce.seed_policy.TABLE_EXCEPTIONS` names it with its reason.  The policy's lists live in
#: :mod:`refsvm.reproduce.seed_policy`, outside what a run imports, so that editing them changes no run.
MIN_SEEDS = 20

#: Fields that explain a table but do not decide its numbers: left out of :func:`spec_digest`.
PRESENTATION_FIELDS = frozenset({"title", "metric", "paper", "note", "plot", "errata"})


@dataclass
class Entry:
    """One row of a paper's table."""

    label: str                      #: name in the paper
    runner: str = None              #: "module:function"; None = not yet available in refsvm
    params: dict = field(default_factory=dict)   #: fixed keyword arguments (callables get the data size n)
    grid: dict = field(default_factory=dict)     #: parameter -> values tried (best mean reported)
    note: str = ""                  #: e.g. why it is not available
    per_dataset: dict = field(default_factory=dict)  #: data label -> parameters for that data set only
    #: how a grid point is chosen: "mean" = the best mean error of the reported runs (the online tables, where
    #: the papers tuned on the reported runs); "cv5" = 5-fold cross-validation on the training split (seed 0),
    #: the reported runs then use the chosen point only ("split" protocol)
    select: str = "mean"
    #: another row's label: this row runs at the grid point that row's ``select="cv5"`` chose on the same data
    #: set (that row is cross-validated even when not selected); the row itself runs no CV
    tuned_by: str = None


@dataclass
class Dataset:
    """A data set as a table uses it."""

    label: str                      #: name in the paper
    file: str                       #: stem for refsvm.datasets.load_libsvm
    protocol: str = "stream"        #: "stream": train+test concatenated, one online pass; "split": train / test;
    #: "train-stream": one online pass over the training file only (its test file left out)
    standardize: bool = False
    params: dict = field(default_factory=dict)   #: per-data-set parameters (e.g. gamma, C)
    note: str = ""
    split_train: float = 0.75       #: "split" without a test file: fraction of default_rng(split_seed).permutation kept for training
    split_seed: int = 12345
    positive: float = None          #: one-vs-rest: this label -> +1, every other -> -1
    scale: float = None             #: divide the features by this (e.g. 255 for pixels)
    max_train: int = None           #: keep a fixed random subset (default_rng(2)) of the training rows
    max_test: int = None            #: ... and of the test rows (default_rng(3))
    multiclass: bool = False        #: keep the file's labels (a multi-class table); False: relabel to +-1
    #: a synthetic set instead of a file: dict(name=<generator of refsvm.datasets>, n=training rows,
    #: n_test=test rows, random_state=...): one call of n + n_test rows, the first n for training
    generated: dict = None


@dataclass
class Table:
    """A paper's comparison table."""

    name: str
    title: str
    metric: str                     #: what "error" means, e.g. "online mistake rate (%)"
    datasets: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    paper: dict = field(default_factory=dict)    #: (entry label, data label) -> (mean, std or None, seconds or None)
    seeds: int = MIN_SEEDS          # the one-pass policy (refsvm.reproduce.seed_policy)
    available: bool = True
    note: str = ""
    quick_rows: int = 600           #: --quick: rows kept per data set (and test rows)
    plot: str = None                #: "module:function" drawing --png; None = bar chart (plot_table)
    #: known errors in the paper's own table (e.g. a row that repeats another's numbers), printed with every
    #: run and every --render of a stored one
    errata: list = field(default_factory=list)

    def add(self, entry):
        """Register one more row (e.g. ``TABLES["lu2016-table5"].add(Entry("FOGD", "refsvm.x:run", ...))``)."""
        self.entries = [e for e in self.entries if e.label != entry.label] + [entry]


def _at_default(obj, f):
    """Whether dataclass field ``f`` of ``obj`` holds a neutral declared default (None, False, "" or
    empty: "off", the form a field added later takes); other defaults (a seed, a fraction) count."""
    from dataclasses import MISSING

    default = f.default if f.default is not MISSING else (
        f.default_factory() if f.default_factory is not MISSING else MISSING)
    return default in (None, False, "", {}, []) and getattr(obj, f.name) == default


def _canonical(value):
    """A JSON-able canonical form of a spec value: dataclasses by their run fields, mappings sorted,
    floats by ``repr``, a function by its code (bytecode, constants, names) and closure values."""
    if is_dataclass(value) and not isinstance(value, type):   # fields at a neutral default are left out, so
        return {f.name: _canonical(getattr(value, f.name)) for f in fields(value)   # a field added "off"
                if f.name not in PRESENTATION_FIELDS and not _at_default(value, f)}  # changes nothing
    if isinstance(value, dict):
        return {repr(k) if not isinstance(k, str) else k: _canonical(v) for k, v in sorted(value.items(), key=repr)}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, types.CodeType):
        return {"code": value.co_code.hex(), "consts": _canonical(list(value.co_consts)), "names": list(value.co_names)}
    if isinstance(value, types.FunctionType):
        cells = [c.cell_contents for c in value.__closure__ or ()]
        return {"function": _canonical(value.__code__), "defaults": _canonical(list(value.__defaults__ or ())),
                "closure": _canonical(cells)}
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    return repr(value)


def spec_digest(table, algorithms=None, datasets=None):
    """SHA-256 of ``table``'s run specification, restricted to the rows labelled ``algorithms`` (and
    the rows whose cross-validation they take, ``tuned_by``) and the data sets labelled ``datasets``
    (None: all).  Left out: :data:`PRESENTATION_FIELDS` and each row's and data set's ``note``."""
    entries = [e for e in table.entries if algorithms is None or e.label in algorithms]
    tuners = {getattr(e, "tuned_by", None) for e in entries} - {None}
    entries += [e for e in table.entries if e.label in tuners and e not in entries]
    sets = [d for d in table.datasets if datasets is None or d.label in datasets]
    spec = {"name": table.name, "seeds": table.seeds, "available": table.available,
            "quick_rows": getattr(table, "quick_rows", 600),
            "datasets": sorted((_canonical(d) for d in sets), key=lambda d: d["label"]),
            "entries": sorted((_canonical(e) for e in entries), key=lambda e: e["label"])}
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()
