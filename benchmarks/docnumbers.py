"""Numbers in README.md and docs/*.rst are generated from committed results, never typed.

    python benchmarks/docnumbers.py --write     # rewrite every marked region from benchmarks/results/
    python benchmarks/docnumbers.py --check     # exit 1 (and a diff) when a page differs from its results
    python benchmarks/docnumbers.py --lint      # exit 1 on a measured-looking number outside generated text

Marking a region (the text between the markers is replaced on ``--write``):

- Markdown block: a line ``<!-- numbers:NAME -->``, the generated text, a line ``<!-- /numbers -->``.
- Markdown inline: ``<!-- n:NAME -->1.74<!-- /n -->`` inside a sentence.
- RST block (tables): a comment line ``.. numbers:NAME``, a blank line, the generated text, a blank
  line, a comment line ``.. /numbers`` (the generated text is not indented: it is not part of the
  comment).
- RST inline: write the substitution ``|NAME|`` in the text; ``--write`` defines every one the page
  uses in a generated block at the page's end (``.. numbers:substitutions`` ... ``.. /numbers``),
  as ``.. |NAME| replace:: 1.74``.

NAME is a renderer registered by a ``benchmarks/numbers_*.py`` file (one per subject; every such
file is imported here; the machinery is in ``benchmarks/_docgen.py``).  Adding one::

    from _docgen import load, pct, renderer, span, table, value


    @renderer("bsgd-table")                      # block: returns the table (Markdown or RST per fmt)
    def _bsgd_table(fmt):
        data = load("bench_bsgd")                # benchmarks/results/bench_bsgd.json; records its provenance
        return table(["data", "B", "acc."], [[r["data"], r["B"], pct(r["acc"])] for r in data["rows"]], fmt)

    @value("fogd-us")                            # inline: returns a short string, no line breaks
    def _fogd_us():
        return f"{load('bench_peers_fogd')['rows'][0]['us']:.2f}"

A block renderer's text is followed by one line per results file it loaded: "measured at <commit>
on <CPU> [<extensions>], `<command>`" (from the file's ``provenance``; "no provenance" when it has
none: rerun it).  Renderers read only committed results files (``load``), so a number changes only
when its results file does; ``benchmarks/stale.py`` says when a results file no longer matches the
code.

The lint (``--lint``, run by tests/package/test_doc_numbers.py) flags a percentage, a time (s, ms,
µs / us, minutes), a size (KiB / MiB / GiB, KB / MB / GB) or a speed ratio (``1.5x``, ``0.16-0.48x``)
outside generated text and inline code.  A number that is not a measurement of this code is allowed
when marked with its reason, one of :data:`REASONS`:

- Markdown: ``<!-- allow: paper -->`` anywhere on the line (it covers that line);
- RST: a comment line ``.. allow: paper`` and a blank line before a paragraph, list item, table
  or directive; it covers that paragraph and what is indented under it (a code block after ``.. code-block::``,
  a definition's body): up to the first line after a blank line that is not indented deeper than
  the marker.

Pages not converted yet are listed in ``PENDING`` (``benchmarks/_docgen.py``, one place; their
owners shrink it as they convert): the lint skips them, ``--check`` covers them all.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _docgen  # noqa: E402
from _docgen import (PENDING, REASONS, ROOT, _RENDERERS, check, lint, lint_all, load, pages, render,  # noqa: E402,F401
                     renderer, rewrite, value)

for _path in sorted(Path(__file__).resolve().parent.glob("numbers_*.py")):
    __import__(_path.stem)                        # registers its renderers in _docgen's registry


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="rewrite the marked regions")
    group.add_argument("--check", action="store_true", help="exit 1 when a page differs from its results")
    group.add_argument("--lint", action="store_true", help="exit 1 on measured-looking numbers outside generated text")
    args = ap.parse_args(argv)
    if args.lint:
        found = lint_all()
        for rel, hits in found.items():
            for i, line in hits:
                print(f"{rel}:{i}: {line.strip()}")
        return 1 if found else 0
    diffs = check()
    if args.check:
        for diff in diffs.values():
            print(diff)
        return 1 if diffs else 0
    failed = 0
    for rel, diff in diffs.items():
        if diff.startswith(f"{rel}: cannot render"):
            print(diff, end="", file=sys.stderr)     # left as it is
            failed += 1
            continue
        path = ROOT / rel
        path.write_text(rewrite(path.read_text(), "md" if rel.endswith(".md") else "rst"))
        print(f"rewrote {rel}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
