"""The machinery of ``benchmarks/docnumbers.py`` (read its docstring): the renderer registry, results
loading with provenance, table formatting, rewriting marked regions and the lint."""


import difflib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

#: Why a measured-looking number may stand outside generated text (the lint's allowlist).
REASONS = {
    "paper": "a number printed in a paper (or quoted by its authors), not measured here",
    "setting": "a parameter, default, data-set size or protocol setting, not a measurement",
    "target": "a goal the measurements are compared with",
}

#: Pages the lint does not read yet (not converted), with who converts them.  Shrink as you convert.
PENDING = {}

_RENDERERS = {}          # name -> (kind, function); kind "block" or "value"
_LOADED = []             # provenance of the results files the current renderer loaded


def _register(name, kind, fn):
    if name in _RENDERERS and _RENDERERS[name][1] is not fn:
        raise ValueError(f"renderer {name!r} is registered twice ({_RENDERERS[name][1].__module__} and {fn.__module__})")
    _RENDERERS[name] = (kind, fn)


def renderer(name):
    """Register ``fn(fmt) -> str`` (fmt "md" or "rst") as the block renderer NAME."""
    def register(fn):
        _register(name, "block", fn)
        return fn
    return register


def value(name):
    """Register ``fn() -> str`` as the inline value NAME (one short line)."""
    def register(fn):
        _register(name, "value", fn)
        return fn
    return register


def register_machine(name, stem, commit_key):
    """Register the inline value NAME: "<cpu>, commit <commit>" from the ``machine`` record of the results
    file STEM (the commit under its key COMMIT_KEY)."""
    def _machine():
        m = load(stem)["machine"]
        return f"{m['cpu']}, commit {m[commit_key]}"
    value(name)(_machine)


def load(stem):
    """The results file ``benchmarks/results/<stem>.json``, its provenance noted for the footer."""
    data = json.loads((RESULTS / f"{stem}.json").read_text())
    prov = data.get("provenance") if isinstance(data, dict) else None
    prov = prov or _legacy_provenance(data)
    entry = (stem, prov)
    if entry not in _LOADED:
        _LOADED.append(entry)
    return data


def provenance_of(stem):
    """The provenance of results file ``stem`` (a legacy file's command, commit and CPU; None: nothing)."""
    data = load(stem)
    return (data.get("provenance") if isinstance(data, dict) else None) or _legacy_provenance(data)


def _legacy_provenance(data):
    """What a results file written before the numbers contract says of its run (None: nothing):
    its command, commit and CPU, without vector extensions or fingerprint."""
    first = data[0] if isinstance(data, list) and data else data
    if not isinstance(first, dict) or not isinstance(first.get("machine"), dict):
        return None
    m = first["machine"]
    commit = m.get("git") or m.get("git_head") or first.get("git") or "an unrecorded commit"
    return {"command": first.get("command", "command not recorded"), "commit": f"{commit} (no fingerprint: rerun)",
            "machine": {"cpu": m.get("cpu", "?"), "extensions": ["extensions not recorded"]}}


def machine(prov):
    """"<CPU> [<extensions>]" of a provenance."""
    m = prov["machine"]
    return f"{m['cpu']} [{', '.join(m['extensions']) or 'no AVX, FMA or SSE4.2'}]"


def pct(x, digits=2):
    """``x`` (a fraction) as a percentage string with ``digits`` decimals and a % sign."""
    return f"{100 * x:.{digits}f}%"


def span(values, fmt="{:.2f}", unit=""):
    """"lo-hi" (or the single value) of ``values`` in ``fmt``, followed by ``unit``."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return (lo if lo == hi else f"{lo}-{hi}") + unit


def table(headers, rows, fmt):
    """A Markdown pipe table (fmt "md") or an RST simple table (fmt "rst") of strings; a ``|`` in a cell
    (e.g. ``|y - f|``) is escaped, as it would end a Markdown cell or open an RST substitution."""
    rows = [[str(c).replace("|", "\\|") for c in r] for r in rows]
    if fmt == "md":
        out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return "\n".join(out + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    rule = "  ".join("=" * w for w in widths)
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([rule, line(headers), rule, *(line(r) for r in rows), rule])


def footer(fmt):
    """The "measured at" lines of the results files loaded by the current block."""
    q = "`" if fmt == "md" else "``"
    lines = []
    for stem, prov in _LOADED:
        where = f"{q}benchmarks/results/{stem}.json{q}"
        if prov:
            load, cores = prov["machine"].get("loadavg"), prov["machine"].get("logical_cores")
            busy = f" (load {load[0]:.1f} on {cores} cores)" if load and cores else ""
            lines.append(f"measured at {prov['commit']} on {machine(prov)}{busy}, {q}{prov['command']}{q} ({where})")
        else:
            lines.append(f"{where} has no provenance: rerun it")
    return "\n\n".join(lines)


def render(name, fmt):
    """The text of renderer NAME (a block gets its footer)."""
    if name not in _RENDERERS:
        raise KeyError(f"no renderer named {name!r} (registered: {', '.join(sorted(_RENDERERS))})")
    kind, fn = _RENDERERS[name]
    _LOADED.clear()
    if kind == "value":
        text = fn()
        if "\n" in text:
            raise ValueError(f"value {name!r} rendered more than one line")
        return text
    return fn(fmt).rstrip("\n") + "\n\n" + footer(fmt)


# --- rewriting pages --------------------------------------------------------------------------------

_MD_BLOCK = re.compile(r"(<!-- numbers:([\w.-]+) -->\n)(.*?)(<!-- /numbers -->)", re.S)
_MD_INLINE = re.compile(r"(<!-- n:([\w.-]+) -->)(.*?)(<!-- /n -->)", re.S)
_RST_BLOCK = re.compile(r"(^([ \t]*)\.\. numbers:([\w.-]+)\n)(.*?)(^\2\.\. /numbers$)", re.S | re.M)
_RST_SUBST = re.compile(r"\|([\w.-]+)\|")


def rewrite(text, fmt):
    """``text`` with every marked region regenerated."""
    if fmt == "md":
        text = _MD_BLOCK.sub(lambda m: m[1] + render(m[2], "md") + "\n" + m[4], text)
        return _MD_INLINE.sub(lambda m: m[1] + render(m[2], "md") + m[4], text)
    body = _RST_BLOCK.sub(lambda m: m[0] if m[3] == "substitutions" else
                          m[1] + "\n" + _indent(render(m[3], "rst"), m[2]) + "\n\n" + m[5], text)
    names = sorted({m[1] for m in _RST_SUBST.finditer(body)
                    if m[1] in _RENDERERS and _RENDERERS[m[1]][0] == "value"})
    if not names and ".. numbers:substitutions" not in body:
        return body
    body = re.sub(r"\n*^\.\. numbers:substitutions\n.*?^\.\. /numbers\n?", "\n", body, flags=re.S | re.M)
    body = body.rstrip("\n") + "\n"
    if not names:
        return body
    defs = "\n".join(f".. |{n}| replace:: {render(n, 'rst')}" for n in names)
    return body + "\n.. numbers:substitutions\n\n" + defs + "\n\n.. /numbers\n"


def _indent(text, prefix):
    """``text`` with ``prefix`` before every non-empty line (a block inside a list or definition)."""
    return "\n".join(prefix + line if line else "" for line in text.splitlines())


def pages():
    """README.md and docs/*.rst (repository-relative paths)."""
    return ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.rst"))


def check(paths=None, root=ROOT):
    """``{path: unified diff}`` of the pages whose generated text differs from their results."""
    out = {}
    for rel in paths or pages():
        old = (Path(root) / rel).read_text()
        try:
            new = rewrite(old, "md" if rel.endswith(".md") else "rst")
        except (OSError, KeyError, ValueError) as exc:   # a missing results file, an unknown renderer
            out[rel] = f"{rel}: cannot render: {type(exc).__name__}: {exc}\n"
            continue
        if new != old:
            out[rel] = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), rel, rel + " (generated)"))
    return out


# --- the lint -----------------------------------------------------------------------------------

_MEASURE = re.compile(
    r"(?<![\w.])[-+±]?\d[\d,]*(?:\.\d+)?(?:\s?[-–]\s?\d[\d,]*(?:\.\d+)?)?"
    r"(?:x(?![\w])|\s?(?:%|(?:s|ms|µs|us|min|minutes?|seconds?|hours?)(?![\w])|[KMG]i?B(?![\w])))")
_CODE = re.compile(r"``[^`]*``|`[^`]*`")


def lint(rel, root=ROOT):
    """``[(line number, line)]`` of page ``rel`` holding a measured-looking number outside generated
    text, inline code and allowed lines (see the module docstring)."""
    lines = (Path(root) / rel).read_text().splitlines()
    md = rel.endswith(".md")
    out, generated, allowed, allow_indent, started, seen_blank = [], False, False, 0, False, False
    for i, line in enumerate(lines, 1):
        s = line.strip()
        if md:
            if s.startswith("<!-- numbers:"):
                generated = True
            if s == "<!-- /numbers -->":
                generated = False
                continue
            allowed = bool(re.search(r"<!-- allow: (\w+) -->", line)) and \
                re.search(r"<!-- allow: (\w+) -->", line)[1] in REASONS
            line = _MD_INLINE.sub("", line)
        else:
            if re.match(r"\.\. numbers:", s):
                generated = True
            if s == ".. /numbers":
                generated = False
                continue
            m = re.match(r"\.\. allow: (\w+)\s*$", s)
            if m:
                if m[1] not in REASONS:
                    out.append((i, f"unknown allow reason {m[1]!r} (one of {', '.join(REASONS)})"))
                allowed, allow_indent, started, seen_blank = True, len(line) - len(line.lstrip()), False, False
                continue
            if allowed:                            # the marked paragraph and what is indented under it
                if not s:
                    seen_blank = started
                elif not started:
                    started = True
                elif seen_blank and len(line) - len(line.lstrip()) <= allow_indent:
                    allowed = False
            line = _RST_SUBST.sub("", line)
        if generated or allowed:
            continue
        if _MEASURE.search(_CODE.sub("", line)):
            out.append((i, line))
    return out


def lint_all(root=ROOT):
    """``{path: [(line number, line)]}`` over every page not in :data:`PENDING`."""
    found = {rel: lint(rel, root) for rel in pages() if rel not in PENDING}
    return {k: v for k, v in found.items() if v}
