"""The oracle's comparison: the first step where two traces part (:func:`compare_traces`, re-exported by
:mod:`refsvm.oracle`, whose docstring describes the records; docs/oracle.rst)."""

import json
import math
from dataclasses import dataclass, field

from .oracle_files import SCHEMA, read_trace

__all__ = ["compare_traces", "values_agree", "TraceComparison", "Divergence", "DISCRETE_FIELDS", "CONTINUOUS_FIELDS",
           "SCHEMA_VERSIONS_READ"]

#: Versions :func:`compare_traces` reads.  Version 2 only adds fields (``step.margin``,
#: ``maintenance.h``, ``maintenance.new_coefficient`` from the per-step records); every v1 field keeps its meaning,
#: so a v1 reader reads a v2 trace by ignoring fields it does not know.
SCHEMA_VERSIONS_READ = (1, 2)

#: Fields compared exactly (decisions and integers); every other numeric field is continuous.
DISCRETE_FIELDS = ("index", "update", "violated", "n_sv", "n_violating", "kind", "partner", "mistakes",
                   "epoch", "step")
#: Continuous fields, compared to ``rtol`` / ``atol``.
CONTINUOUS_FIELDS = ("margin", "water_level", "bias", "weight_degradation", "h", "new_coefficient",
                     "objective", "dual_objective", "water_level_bar", "bias_bar")


# -- first divergence

_KIND_ORDER = {"step": 0, "maintenance": 1, "epoch": 2}
_HEADER_KEYS = (("solver",), ("schema_version",), ("data", "X_sha256"), ("data", "y_sha256"), ("order", "sha256"),
                ("order", "uniforms_sha256"), ("params",))


@dataclass
class Divergence:
    """Where two traces part: the record (kind, step, event number), the field, both values, and the
    records of both traces within ``context`` steps of ``step``."""

    step: int
    record: str
    event: int
    field: str
    a: object
    b: object
    context_a: list
    context_b: list

    def describe(self):
        where = f"step {self.step}" + (f", {self.record} record {self.event}" if self.record != "step" else "")
        return f"{where}: {self.field}: a = {self.a!r}, b = {self.b!r}"


@dataclass
class TraceComparison:
    """The result of :func:`compare_traces`; ``agree`` is False when either divergence was found."""

    first_discrete: Divergence = None
    first_continuous: Divergence = None
    skipped: list = field(default_factory=list)
    header_differences: list = field(default_factory=list)
    truncated: str = None
    n_compared: int = 0
    rtol: float = 1e-9
    atol: float = 0.0

    @property
    def agree(self):
        return self.first_discrete is None and self.first_continuous is None

    def report(self):
        """A human-readable summary (what ``refsvm compare-traces`` prints)."""
        lines = [f"compared {self.n_compared} records (rtol {self.rtol:g}, atol {self.atol:g})"]
        lines += [f"header differs: {d}" for d in self.header_differences]
        if self.skipped:
            lines.append("skipped (not in both traces): " + ", ".join(self.skipped))
        if self.truncated:
            lines.append(self.truncated)
        for name, div in (("discrete decision", self.first_discrete), ("continuous value", self.first_continuous)):
            if div is None:
                lines.append(f"first {name} divergence: none")
                continue
            lines.append(f"first {name} divergence at {div.describe()}")
            for side, ctx in (("a", div.context_a), ("b", div.context_b)):
                lines += [f"  {side}: {json.dumps(r)}" for r in ctx]
        lines.append("traces agree" if self.agree else "traces diverge")
        return "\n".join(lines)


def _number(v):
    """A JSON value as a float (the strings NaN / Infinity / -Infinity included), else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v) if isinstance(v, str) else None


def values_agree(a, b, rtol, atol):
    """Continuous values agree iff equal, both NaN, or ``|a - b| <= atol + rtol max(|a|, |b|)``.

    Error bound: the default rtol 1e-9 is DESIGN.md's agreement tolerance between the two paths
    (floating summation orders differ; 6 orders of magnitude above double rounding accumulated over a
    few hundred steps); a value that is not a number is compared exactly.
    """
    if isinstance(a, list) and isinstance(b, list):  # one value per class (multi-class scores)
        return len(a) == len(b) and all(values_agree(u, v, rtol, atol) for u, v in zip(a, b))
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return a == b
    if x == y or (math.isnan(x) and math.isnan(y)):
        return True
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    return abs(x - y) <= atol + rtol * max(abs(x), abs(y))


def _body(records):
    """``{(kind, step, event): record}`` of the non-header records, and the header (or None)."""
    header, body = None, {}
    for r in records:
        kind = r.get("record")
        if kind == "header":
            header = header or r
            version = r.get("schema_version")
            if r.get("schema") == SCHEMA and isinstance(version, int) and version > max(SCHEMA_VERSIONS_READ):
                raise ValueError(f"schema_version: this refsvm reads {SCHEMA} versions "
                                 f"{', '.join(map(str, SCHEMA_VERSIONS_READ))}, got {version}")
        elif kind in _KIND_ORDER:
            body[(kind, int(r.get("step", -1)), int(r.get("event", r.get("epoch", 0) if kind == "epoch" else 0)))] = r
        else:
            raise ValueError(f"trace record without a known 'record' kind: {json.dumps(r)[:120]}")
    return header, body


def _header_differences(ha, hb):
    if ha is None or hb is None:
        return [] if ha is hb else ["only one trace has a header"]
    out = []
    for path in _HEADER_KEYS:
        va, vb = ha, hb
        for k in path:
            va = va.get(k) if isinstance(va, dict) else None
            vb = vb.get(k) if isinstance(vb, dict) else None
        if va is not None and vb is not None and va != vb:
            out.append(f"{'.'.join(path)}: {va!r} != {vb!r}")
    return out


def _context(body, step, width):
    return [r for (_, s, _), r in sorted(body.items(), key=_order) if abs(s - step) <= width]


def _order(item):
    (kind, step, event), _ = item
    return step, _KIND_ORDER[kind], event


def compare_traces(a, b, *, rtol=1e-9, atol=0.0, context=2):
    """Compare two traces (paths of JSON Lines files or lists of records) record by record.

    Records are matched by (kind, step, event); within the steps both traces reach, a record on one
    side only is a discrete divergence.  Fields in :data:`DISCRETE_FIELDS` (and every non-numeric
    field) must be equal; numeric fields otherwise (:data:`CONTINUOUS_FIELDS`) agree to
    :func:`values_agree`.  Record kinds or fields that only one trace has (a partial trace) are
    skipped and named in ``skipped``.  Returns a :class:`TraceComparison`.
    """
    if not (isinstance(rtol, (int, float)) and rtol >= 0 and isinstance(atol, (int, float)) and atol >= 0):
        raise ValueError(f"rtol, atol: expected numbers >= 0, got {rtol!r}, {atol!r}")
    ha, body_a = _body(read_trace(a) if not isinstance(a, list) else a)
    hb, body_b = _body(read_trace(b) if not isinstance(b, list) else b)
    out = TraceComparison(rtol=rtol, atol=atol, header_differences=_header_differences(ha, hb))
    kinds_a, kinds_b = {k[0] for k in body_a}, {k[0] for k in body_b}
    out.skipped += [f"{k} records (only in {'a' if k in kinds_a else 'b'})" for k in sorted(kinds_a ^ kinds_b)]
    last = min(max((k[1] for k in body_a), default=-1), max((k[1] for k in body_b), default=-1))
    if max((k[1] for k in body_a), default=-1) != max((k[1] for k in body_b), default=-1):
        out.truncated = f"compared up to step {last}, where the shorter trace ends"
    keys = sorted({k for k in (*body_a, *body_b) if k[0] in kinds_a & kinds_b and k[1] <= last},
                  key=lambda k: (k[1], _KIND_ORDER[k[0]], k[2]))
    skipped = set()
    for key in keys:
        ra, rb = body_a.get(key), body_b.get(key)
        if ra is None or rb is None:
            if out.first_discrete is None:
                out.first_discrete = Divergence(key[1], key[0], key[2], "record present", ra is not None,
                                                rb is not None, _context(body_a, key[1], context),
                                                _context(body_b, key[1], context))
            continue
        out.n_compared += 1
        for name in sorted(set(ra) | set(rb)):
            if name not in ra or name not in rb:
                skipped.add(f"{key[0]}.{name} (only in {'a' if name in ra else 'b'})")
                continue
            discrete = name in DISCRETE_FIELDS or name not in CONTINUOUS_FIELDS and (
                _number(ra[name]) is None or isinstance(ra[name], int))
            same = ra[name] == rb[name] if discrete else values_agree(ra[name], rb[name], rtol, atol)
            slot = "first_discrete" if discrete else "first_continuous"
            if not same and getattr(out, slot) is None:
                setattr(out, slot, Divergence(key[1], key[0], key[2], name, ra[name], rb[name],
                                              _context(body_a, key[1], context), _context(body_b, key[1], context)))
        if out.first_discrete is not None and out.first_continuous is not None:
            break
    out.skipped += sorted(skipped)
    return out
