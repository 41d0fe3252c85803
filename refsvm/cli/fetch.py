"""``refsvm fetch NAME...``: download benchmark data sets from the LIBSVM collection (checksums verified)."""

from ..io.fetch import LIBSVM_FILES, fetch_libsvm
from ._common import _HelpFormatter


def add_parser(sub):
    """Add the ``fetch`` sub-command to ``sub`` (the ``refsvm`` parser's sub-parsers)."""
    names = ", ".join(sorted(s for s in LIBSVM_FILES if not s.endswith(".t")))
    fetch = sub.add_parser(
        "fetch", help="download LIBSVM benchmark data sets by name (SHA-256 verified)",
        description=f"Download data sets from the LIBSVM collection into DATA_HOME, verify each file's "
                    f"SHA-256 and store it as <file>.bz2 (an interrupted download leaves no file). "
                    f"Data sets with a recorded checksum: {names}.",
        formatter_class=_HelpFormatter)
    fetch.add_argument("names", metavar="NAME", nargs="+", help="data set names, e.g. a9a")
    fetch.add_argument("--data-home", metavar="DIR", default=None,
                       help="target folder (default: $REFSVM_DATA if set, else ~/.cache/refsvm)")
    fetch.add_argument("--url", metavar="URL", default=None,
                       help="base URL of the collection (default: $REFSVM_LIBSVM_URL if set, else LIBSVM's site)")
    fetch.add_argument("--force", action="store_true", help="download again even if the files are there")
    fetch.add_argument("--quiet", action="store_true", help="no progress lines")
    fetch.set_defaults(func=_cmd_fetch, subparser=fetch)
    return fetch


def _cmd_fetch(args):
    for name in args.names:
        for path in fetch_libsvm(name, args.data_home, base_url=args.url, force=args.force,
                                 progress=not args.quiet):
            print(path)
    return 0
