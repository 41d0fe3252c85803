"""``refsvm convert IN OUT --to libsvm|budgetedsvm|refsvm``: translate a model between refsvm's ``.npz``
files and the model files of LIBSVM and BudgetedSVM (:mod:`refsvm.io.peer_models`; docs/peer-models.rst)."""

from ._common import _HelpFormatter

FORMATS = ("libsvm", "budgetedsvm", "refsvm")
DESCRIPTION = ("Read a model file (refsvm .npz, LIBSVM's svm-train output or BudgetedSVM's BSGD model; the "
               "format is recognised from the file's start) and write it in the format --to. What a format "
               "cannot hold is refused with a message: LIBSVM's format holds binary models only (its "
               "multi-class models are one-vs-one votes), BudgetedSVM's has no bias.")


def add_parser(sub):
    """Add the ``convert`` sub-command to ``sub`` (the ``refsvm`` parser's sub-parsers)."""
    convert = sub.add_parser("convert", help="convert a model between refsvm, LIBSVM and BudgetedSVM model files",
                             description=DESCRIPTION, formatter_class=_HelpFormatter)
    convert.add_argument("input", metavar="IN", help="model file to read")
    convert.add_argument("output", metavar="OUT", help="model file to write (refsvm: .npz is appended if missing)")
    convert.add_argument("--to", required=True, choices=FORMATS, help="format of OUT")
    convert.add_argument("--n-features", type=int, default=None, metavar="D",
                         help="width of the support vectors read from a LIBSVM or BudgetedSVM file (default: "
                              "the largest feature index, or BudgetedSVM's DIMENSION if larger)")
    convert.set_defaults(func=_cmd_convert, subparser=convert)
    return convert


def _cmd_convert(args):
    from ..io.peer_models import read_any_model, write_budgetedsvm_model, write_libsvm_model

    if args.n_features is not None and args.n_features < 1:
        raise ValueError(f"--n-features must be >= 1; got {args.n_features}")
    model, fmt = read_any_model(args.input, args.n_features)
    if args.to == "libsvm":
        written = write_libsvm_model(model, args.output)
    elif args.to == "budgetedsvm":
        written = write_budgetedsvm_model(model, args.output)
    else:
        model.save(args.output)
        from ..io.model_file import model_path
        written = model_path(args.output)
    print(f"{args.input} ({fmt}, {model.n_support} support vectors, {len(model.classes)} classes) -> "
          f"{written} ({args.to})")
    return 0
