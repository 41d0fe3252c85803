"""The oracle's trace files: JSON Lines and the compact form (refsvm/oracle.py, docs/oracle.rst).

A trace is held in two shapes: *records* (a list of dicts, header first, in file order: what a JSON
Lines file holds line by line and what :func:`refsvm.oracle.compare_traces` compares) and *tables*
(:func:`refsvm.oracle.trace_tables`: ``"step"`` and ``"maintenance"`` as dicts of arrays, ``"epoch"``
as a list of records).  :func:`records_of` turns tables into records.

* :func:`write_trace` / :func:`read_trace`: JSON Lines (floats in shortest round-trip form; non-finite
  values as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``).
* :func:`write_compact`: the compact form for long runs, a NumPy ``.npz`` archive (no pickles) of the
  tables: ``header`` and ``epoch`` as JSON text, and one array per field, named ``step.<field>`` and
  ``maintenance.<field>`` (``maintenance.partner`` -1: none; ``maintenance.h`` and
  ``maintenance.new_coefficient`` NaN: the event merged nothing).  :func:`read_trace` reads it back as the records the JSON Lines file holds.
"""

import json
import math

import numpy as np

__all__ = ["SCHEMA", "SCHEMA_VERSION", "records_of", "write_trace", "read_trace", "write_compact", "read_compact"]

#: The records' schema: its name and version (a header's ``schema`` and ``schema_version``).
SCHEMA = "refsvm-trace"
SCHEMA_VERSION = 2


def records_of(header, tables):
    """The records (dicts, header first, in file order) of a trace in columns (:func:`trace_tables`)."""
    records = [header] if header is not None else []
    steps = {k: v.tolist() for k, v in tables["step"].items()}
    ev = {k: v.tolist() for k, v in tables["maintenance"].items()}
    ev_fields = [k for k in ev if k not in ("step", "event", "partner", "h", "new_coefficient")]
    epochs = {r["step"]: r for r in tables["epoch"]}
    j, n_events = 0, len(ev["step"])
    for values in zip(*steps.values()):
        r = {"record": "step", **dict(zip(steps, values))}
        records.append(r)
        while j < n_events and ev["step"][j] == r["step"]:
            m = {"record": "maintenance", "step": ev["step"][j], "event": ev["event"][j]}
            m.update((k, ev[k][j]) for k in ev_fields)
            partner = ev["partner"][j]
            m["partner"] = None if partner < 0 else partner
            if "h" in ev and partner >= 0 and not math.isnan(ev["h"][j]):   # a merge (projection: no h)
                m["h"] = ev["h"][j]
            if "new_coefficient" in ev and partner >= 0:
                m["new_coefficient"] = ev["new_coefficient"][j]
            records.append(_field_order(m))
            j += 1
        if r["step"] in epochs:
            records.append(epochs[r["step"]])
    return records


_EVENT_ORDER = ("record", "step", "event", "kind", "index", "partner", "h", "weight_degradation", "new_coefficient")


def _field_order(m):
    return {k: m[k] for k in sorted(m, key=lambda k: _EVENT_ORDER.index(k) if k in _EVENT_ORDER else 99)}


def _json_value(v):
    """Non-finite floats as the strings "NaN", "Infinity", "-Infinity" (plain JSON has none)."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, dict):
        return {k: _json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    if isinstance(v, np.generic):
        return _json_value(v.item())
    return v


def _json_line(r):
    """One record as a JSON line (the plain encoder first; non-finite or NumPy values through :func:`_json_value`)."""
    try:
        return json.dumps(r, allow_nan=False)
    except (ValueError, TypeError):
        return json.dumps(_json_value(r), allow_nan=False)


def write_trace(records, path):
    """Write ``records`` to ``path`` as JSON Lines (floats in shortest round-trip form)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(_json_line(r) + "\n" for r in records))


def read_trace(path):
    """The records of a trace file: JSON Lines (a ValueError names the line that is not JSON) or the
    compact form (a path ending in ``.npz``, :func:`read_compact`)."""
    if str(path).endswith(".npz"):
        return records_of(*read_compact(path))
    records = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}: line {n} is not JSON ({exc.msg})") from None
    return records


def write_compact(header, tables, path):
    """Write a trace in columns (:func:`refsvm.oracle.trace_tables`) as the compact ``.npz`` form."""
    arrays = {f"{kind}.{name}": np.asarray(column) for kind in ("step", "maintenance")
              for name, column in tables[kind].items()}
    arrays["header"] = np.array(json.dumps(_json_value(header), allow_nan=False))
    arrays["epoch"] = np.array(json.dumps(_json_value(tables["epoch"]), allow_nan=False))
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def read_compact(path):
    """``(header, tables)`` of a compact trace file (ValueError if it is not one)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            names = list(z.files)
            tables = {kind: {n.split(".", 1)[1]: z[n] for n in names if n.startswith(kind + ".")}
                      for kind in ("step", "maintenance")}
            header, epochs = json.loads(str(z["header"])), json.loads(str(z["epoch"]))
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path}: not a compact refsvm trace ({exc})") from None
    tables["epoch"] = epochs
    return header, tables
