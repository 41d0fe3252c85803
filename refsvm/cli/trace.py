"""``refsvm trace`` (a solver's step trace as JSON Lines) and ``refsvm compare-traces`` (the first step
where two traces part); both are thin wrappers of :mod:`refsvm.oracle` (docs/oracle.rst)."""

import json
import sys

from ._common import _add_file_options, _FileError, _HelpFormatter, _read_data, _UsageError


def _param(text):
    """``KEY=VALUE``; VALUE is read as JSON (numbers, true / false, null) or else kept as a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise _UsageError(f"--param: expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _read_order(path):
    """One epoch per non-empty line of whitespace-separated 0-based example indices."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.split() for line in f if line.strip()]
    except OSError as exc:
        raise _FileError(f"--order {path}: cannot be read ({exc.strerror})") from None
    try:
        return [[int(v) for v in line] for line in lines]
    except ValueError:
        raise _UsageError(f"--order {path}: expected whitespace-separated integer indices, one epoch a line") from None


def _cmd_trace(args):
    import numpy as np
    import scipy.sparse as sp

    from .. import oracle

    params = dict(_param(p) for p in args.param)
    order = _read_order(args.order) if args.order else None
    X, y = _read_data(args.data, args)
    X = X.toarray() if sp.issparse(X) else X
    try:
        with open(args.output, "w", encoding="utf-8"):
            pass
    except OSError as exc:
        raise _FileError(f"--output {args.output}: cannot be written ({exc.strerror})") from None
    results = oracle.export_trace(args.solver, X, np.asarray(y), path=args.output, epochs=args.epochs,
                                  seed=args.seed, order=order, params=params, backend=args.backend)
    n_steps = sum(int(r.trace["n_steps"]) for r in results)
    print(f"wrote {args.output}: {args.solver} ({args.backend}), {len(results)} epoch(s), {n_steps} steps")
    return 0


def _cmd_compare(args):
    from .. import oracle

    for path in (args.a, args.b):
        try:
            open(path, encoding="utf-8").close()
        except OSError as exc:
            raise _FileError(f"{path}: cannot be read ({exc.strerror})") from None
    result = oracle.compare_traces(args.a, args.b, rtol=args.rtol, atol=args.atol, context=args.context)
    print(result.report())
    sys.stdout.flush()
    return 0 if result.agree else 1


def add_parser(sub):
    """Add the ``trace`` and ``compare-traces`` sub-commands to ``sub``."""
    from ..oracle import SOLVERS

    trace = sub.add_parser("trace", help="write a solver's step trace (JSON Lines) for checking another implementation",
                           description="Run one solver on DATA and write its trace: a header (solver, parameters, "
                                       "fingerprints of the data and of the visiting order), one record per step, "
                                       "per maintenance event and per epoch (schema: docs/oracle.rst).",
                           formatter_class=_HelpFormatter)
    trace.add_argument("data", metavar="DATA", help="LIBSVM file or data set name (binary labels)")
    trace.add_argument("--solver", required=True, choices=list(SOLVERS), help="the solver to trace")
    trace.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                       help="a solver parameter (repeatable), e.g. --param budget=100 --param maintenance=removal")
    how = trace.add_mutually_exclusive_group()
    how.add_argument("--seed", type=int, default=0, help="draws each epoch's visiting order (and uniforms)")
    how.add_argument("--order", metavar="FILE", help="visiting order: one epoch a line of 0-based indices")
    trace.add_argument("--epochs", type=int, default=1, help="epochs (ignored with --order)")
    trace.add_argument("--backend", choices=["python", "fast"], default="python", help="which path to run")
    trace.add_argument("--output", required=True, metavar="FILE",
                       help="the trace file to write (ending in .npz: the compact form; else JSON Lines)")
    _add_file_options(trace, pad=False)
    trace.set_defaults(func=_cmd_trace, subparser=trace)

    compare = sub.add_parser("compare-traces", help="the first step where two traces part",
                             description="Compare two traces record by record: print the first step whose "
                                         "discrete decision differs and the first whose continuous values leave "
                                         "the tolerance, with neighbouring steps; exit status 1 when they "
                                         "diverge, 0 when they agree.",
                             formatter_class=_HelpFormatter)
    compare.add_argument("a", metavar="A", help="trace file")
    compare.add_argument("b", metavar="B", help="trace file")
    compare.add_argument("--rtol", type=float, default=1e-9, help="relative tolerance of continuous values")
    compare.add_argument("--atol", type=float, default=0.0, help="absolute tolerance of continuous values")
    compare.add_argument("--context", type=int, default=2, help="neighbouring steps shown around a divergence")
    compare.set_defaults(func=_cmd_compare, subparser=compare)
    return trace
