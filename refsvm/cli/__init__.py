"""The ``refsvm`` command: train, predict, demo.

::

    refsvm train DATA MODEL [--budget B] [--lam L | --C C] [--gamma G] ... [--test TEST]
    refsvm predict MODEL DATA [--output FILE]
    refsvm demo [--n N] [--budget B] [--backend both|python|fast]
    refsvm trace DATA --solver S [--seed N | --order FILE] --output TRACE   (docs/oracle.rst)
    refsvm compare-traces A B [--rtol R]
    refsvm convert IN OUT --to libsvm|budgetedsvm|refsvm     (docs/peer-models.rst)

``DATA`` (and ``--test``) is a file in LIBSVM (svmlight) format, read with
:func:`refsvm.io.libsvm.read_libsvm` (``.gz`` and ``.bz2`` files are
decompressed): feature indices are 1-based unless ``--zero-based`` is given,
and the test file of ``train --test`` and the data of ``predict`` must have
the model's number of features (``--pad-features`` allows a file with fewer,
filling zeros).  A file that would need more than ``--max-memory`` as a dense
matrix (default 4G) is refused before it is made dense.  When no such file
exists and the environment variable ``REFSVM_DATA`` is set, ``DATA`` is taken
as the name of a data set there and read with
:func:`refsvm.datasets.load_libsvm` (its training split).

Models are ``.npz`` files (:meth:`refsvm.model.BudgetedModel.save`).  Invalid
values (e.g. ``--budget 1``) print the validation message and exit with status
2, as argparse does for unknown options.  A damaged or invalid data or model
file, an unwritable model path (checked before training) or a lack of memory
prints one line ``refsvm COMMAND: error: ...`` and exits with status 1;
Ctrl-C prints ``refsvm COMMAND: interrupted`` and exits with status 130.
"""

import sys

__all__ = ["build_parser", "main"]


def build_parser():
    """The argument parser of the ``refsvm`` command."""
    import argparse

    from .._version import __version__
    from . import convert, demo, fetch, predict, reproduce, trace, train
    from ._common import _HelpFormatter

    parser = argparse.ArgumentParser(
        prog="refsvm", description="Kernel SVMs on a budget, as the papers state them: BSGD (Wang, Crammer, Vucetic 2012) with removal, projection and merging (lookup merging: Glasmachers, Qaadan), BSCA (Qaadan, Schueler, Glasmachers 2019), SBP (Cotter, Shalev-Shwartz, Srebro 2012), FOGD / NOGD (Lu, Hoi et al. 2016) and eight online baselines; each with a pure-Python reference path and a compiled one.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"refsvm {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for command in (train, predict, demo, reproduce, fetch, trace, convert):  # one module per sub-command
        command.add_parser(sub)
    return parser


def main(argv=None):
    """Run the ``refsvm`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Exit status: 0 on success, 2 for invalid arguments, 1 for files that
    cannot be read or written and other errors (one line on stderr, no
    traceback), 130 when interrupted (Ctrl-C), also while the command's
    modules are being imported (they are imported here, inside the handler).
    Python warnings are printed as one line per kind when the command ends
    (:func:`refsvm.cli._common.collapsed_warnings`).
    """
    command = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = args.command
        from ._common import collapsed_warnings

        with collapsed_warnings(f"refsvm {command}", args.subparser):
            return _run(args)
    except (KeyboardInterrupt, ImportError) as exc:
        # Ctrl-C while a compiled module initialises: some extension loaders (pybind11's, e.g. scipy's
        # HiGHS wrapper) turn the KeyboardInterrupt into "ImportError: initialization failed" raised from it
        if not _caused_by_interrupt(exc):
            raise
        print(f"refsvm{' ' + command if command else ''}: interrupted", file=sys.stderr)
        return 130


def _caused_by_interrupt(exc):
    """Whether a KeyboardInterrupt is in ``exc``'s chain of causes and contexts."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _run(args):
    """``args.func(args)`` with the command's errors turned into one line and an exit status."""
    from ..io.libsvm import LibsvmFileError
    from ..io.model_file import ModelFileError
    from ._common import _cli_text, _FileError, _one_line, _UsageError

    try:
        return args.func(args)
    except (_FileError, LibsvmFileError, ModelFileError) as exc:
        print(f"refsvm {args.command}: error: {_cli_text(_one_line(exc), args.subparser)}", file=sys.stderr)
        return 1
    except (_UsageError, ValueError) as exc:
        args.subparser.error(_cli_text(_one_line(exc), args.subparser))  # usage and message, exit status 2
    except MemoryError as exc:
        print(f"refsvm {args.command}: error: out of memory ({_one_line(exc)})", file=sys.stderr)
        return 1
    except (RuntimeError, OSError) as exc:  # e.g. compiled extension missing, unwritable file
        print(f"refsvm {args.command}: error: {_cli_text(_one_line(exc), args.subparser)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
