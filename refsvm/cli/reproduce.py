"""``refsvm reproduce NAME``: the command-line face of :func:`refsvm.reproduce.reproduce`.

It calls :func:`~refsvm.reproduce.driver.run_table` with the command line to record, then
:func:`~refsvm.reproduce.report.emit`."""

import shlex
import sys

from ..reproduce import Table, render
# tables: the function (the package attribute refsvm.reproduce.tables is the submodule once it is imported)
from ..reproduce.driver import Backend, run_table, tables
from ..reproduce.report import emit, require_matplotlib


def add_parser(sub):
    """Add the ``reproduce`` subcommand to ``refsvm``'s argument parser (called by :func:`refsvm.cli.build_parser`)."""
    names = ", ".join(sorted(tables()))
    p = sub.add_parser(
        "reproduce", help="rerun a paper's comparison table and print it beside the paper's numbers",
        description=f"Rerun a paper's table (every algorithm x data set x seed) on $REFSVM_DATA. Tables: {names}.")
    p.add_argument("name", metavar="NAME", nargs="?", help="table to run (omit with --list)")
    p.add_argument("--list", action="store_true", help="list the tables and exit (default: False)")
    p.add_argument("--quick", action="store_true", help=f"subsampled data (at most {Table.quick_rows} rows "
                   "per set) and 2 seeds: a smoke run in well under 2 minutes (default: False)")
    p.add_argument("--seeds", type=int, default=None, help="number of seeds; None = the paper's (2 with --quick) (default: None)")
    p.add_argument("--n-jobs", type=int, default=1, help="parallel joblib workers; -1 = all cores (default: 1)")
    p.add_argument("--backend", choices=["loky", "dask", "ray"], default="loky",
                   help='joblib backend: local processes (loky), a Dask cluster (pip install "refsvm[cluster]"), '
                   'or Ray (pip install "refsvm[ray]") (default: loky)')
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="Dask scheduler address (e.g. tcp://host:8786) or Ray address (default: None)")
    p.add_argument("--datasets", nargs="+", default=None, help="only these data sets, paper labels or file stems (default: None)")
    p.add_argument("--algorithms", nargs="+", default=None, help="only these rows, paper labels (default: None)")
    p.add_argument("--json", metavar="PATH", default=None, help="write the results as JSON (default: None)")
    p.add_argument("--png", metavar="PATH", default=None, help="write a bar chart, ours beside the paper; needs "
                   "matplotlib (default: None)")
    p.add_argument("--render", metavar="JSON", default=None, help="print a stored result (a --json file) again, "
                   "with today's gap reasons, instead of running (NAME must be its table) (default: None)")
    p.set_defaults(func=_cmd_reproduce, subparser=p)
    return p


def _cmd_reproduce(args):
    if args.list or args.name is None:
        width = max(map(len, tables())) + 2                 # the longest name still has two spaces after it
        for name, table in sorted(tables().items()):
            state = "" if table.available else "  [not yet available]"
            print(f"{name:<{width}}{table.title}{state}")
        return 0
    if args.seeds is not None and args.seeds < 1:
        raise ValueError(f"--seeds must be >= 1; got {args.seeds}")
    if args.render is not None:
        result = render(args.render)
        if result["table"] != args.name:
            raise ValueError(f"--render: {args.render} holds table {result['table']!r}, not {args.name!r}")
        return 0
    if args.png:
        require_matplotlib()                       # before the run, not after it
    try:
        result = run_table(args.name, quick=args.quick, seeds=args.seeds, datasets=args.datasets,
                           entries=args.algorithms, backend=Backend(args.n_jobs, args.backend, args.scheduler),
                           command=_command_line())
        emit(result, json_path=args.json, png_path=args.png, plot=tables()[args.name].plot)
    except ValueError as exc:  # name the command-line options, not the function's arguments
        text = str(exc)
        for arg, opt in (("entries:", "--algorithms:"), ("datasets:", "--datasets:")):
            if text.startswith(arg):
                text = opt + text[len(arg):]
        raise ValueError(text) from None
    except NotImplementedError as exc:
        print(f"refsvm reproduce: {exc}", file=sys.stderr)
        return 2
    return 0


def _command_line():
    """The command line recorded in the result: ``refsvm reproduce ...`` as typed (the process's arguments),
    or None when ``refsvm.cli.main`` was called from Python with arguments of its own."""
    if sys.argv[1:2] != ["reproduce"]:
        return None
    return "refsvm reproduce " + " ".join(shlex.quote(a) for a in sys.argv[2:])
