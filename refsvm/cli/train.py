"""``refsvm train``: train a solver on a LIBSVM file (or a data set name) and save the model.

Every solver of :data:`refsvm.estimators.registry.SOLVERS`: BSGD (default),
BSCA, SBP and the eight online baselines here; FOGD / NOGD in
:mod:`refsvm.cli._ogd`.  An option the chosen solver does not use is refused.
"""

from ..estimators._checkpoint import check_checkpoint_every, check_chunk_every
from ..estimators.registry import COMMON_OPTIONS, SOLVERS, estimator_class, make_estimator
from ..validation import check_positive
from ._common import BINARY_ONLY, _classifier_report, _check_model_path, _gamma, _HelpFormatter, _add_file_options, \
    _optional_float, _settings_text, _train_and_report as _train_in_memory
from ._ogd import add_ogd_arguments
from ._stream import add_stream_arguments


def _train_and_report(args, build, report):
    """Train in memory, or with ``--stream`` chunk by chunk (:func:`refsvm.cli._stream.train_stream`)."""
    if not getattr(args, "stream", False):
        if getattr(args, "shuffle", None) is not None:
            from ._common import _UsageError

            raise _UsageError(f"--shuffle {args.shuffle}: the visiting order of --stream (in memory, each epoch is a "
                              "permutation of all rows); add --stream or drop --shuffle")
        return _train_in_memory(args, build, report)
    from ._stream import train_stream

    return train_stream(args, build, report)


def _refit(args):
    """``--refit-bias [bias|scaled]`` as the estimators' ``refit_bias`` (False, True or "scaled")."""
    return {None: False, "bias": True, "scaled": "scaled"}[args.refit_bias]


#: argparse destinations that are not options of a solver
_NOT_OPTIONS = {"data", "model", "solver", "func", "subparser", "command", "help", "standardize",
                "stream", "chunk_rows", "shuffle_buffer", "shuffle", "checkpoint", "checkpoint_every", "resume"}


def _checkpoint_options(args):
    """``--checkpoint PATH --checkpoint-every N|Nsteps|Ns --resume`` as the keyword arguments of ``fit``
    (:mod:`refsvm.estimators._checkpoint`), or with ``--stream`` of :func:`refsvm.stream.fit_stream`
    (also ``Nchunks``); errors name the options."""
    if args.checkpoint is None:
        for flag, given in (("--resume", args.resume), ("--checkpoint-every", args.checkpoint_every != "epoch")):
            if given:
                raise ValueError(f"{flag} needs --checkpoint PATH (the checkpoint file)")
        return {}
    every = int(args.checkpoint_every) if args.checkpoint_every.isdigit() else args.checkpoint_every
    if getattr(args, "stream", False):    # fit_stream's checkpoints, between chunks
        try:
            check_chunk_every(every, "chunks")
        except ValueError:
            raise ValueError(f"--checkpoint-every must be 'epoch', a number of epochs (e.g. 2), of chunks (e.g. "
                             f"10chunks), of examples (e.g. 5000steps) or seconds (e.g. 600s); got "
                             f"{args.checkpoint_every!r}") from None
        return dict(checkpoint=args.checkpoint, checkpoint_every=every, resume=args.resume)
    try:
        check_checkpoint_every(every)
    except ValueError:
        raise ValueError(f"--checkpoint-every must be 'epoch', a number of epochs (e.g. 2), of steps (e.g. "
                         f"5000steps) or seconds (e.g. 600s); got {args.checkpoint_every!r}") from None
    return dict(checkpoint=args.checkpoint, checkpoint_every=every, resume=args.resume)


#: ``--variant``: the solvers whose learner takes ``variant=`` ("paper" / "authors": Lu et al.'s released code,
#: :class:`refsvm.OnlineKernelClassifier`), and those whose regression version does (OnlineKernelRegressor)
VARIANT_SOLVERS = ("forgetron", "projectron", "projectron++", "bogd")
REGRESSION_VARIANT_SOLVERS = ("forgetron", "bogd")


def _refuse_unused_options(args):
    """An option set to a value the chosen solver would ignore is an error naming it (exit status 2)."""
    solver = SOLVERS[args.solver]
    options = solver.options
    if getattr(args, "regression", False) and solver.regression_options is not None:
        options = solver.regression_options              # the baselines' regression versions
    regression = getattr(args, "regression", False)
    if args.solver in (REGRESSION_VARIANT_SOLVERS if regression else VARIANT_SOLVERS):
        options = options + ("variant",)
    allowed = set(COMMON_OPTIONS) | set(options) | _NOT_OPTIONS
    unused = [max(a.option_strings, key=len) for a in args.subparser._actions
              if a.option_strings and a.dest not in allowed
              and getattr(args, a.dest, None) != args.subparser.get_default(a.dest)]
    if unused:
        raise ValueError(f"{', '.join(unused)}: not used by --solver {args.solver} ({solver.paper}); its options: "
                         + ", ".join("--" + o.replace("_", "-") for o in options))


def _cmd_train_online(args):
    """``refsvm train --solver perceptron|ogd|rbp|forgetron|projectron|projectron++|bpas|bpann|bogd``."""
    if args.solver == "bogd" and args.eta is None:
        # no step size learns on every data set (eta = 0.2 scores below the majority class on ijcnn1,
        # w8a and german): the command refuses to guess rather than train a model that learns nothing
        raise ValueError("--eta: BOGD needs a step size chosen for the data (Lu et al. choose it by "
                         "validation; none learns on every data set: 0.2 does on a9a, not on ijcnn1); "
                         "give --eta, e.g. --eta 0.2, and compare the result with the majority class")
    _check_model_path(args.model)  # before training, not after
    args.binary_only = args.solver in BINARY_ONLY    # the baselines without a multi-class version
    given = {name: getattr(args, name) for name in ("eta", "lam", "C", "max_coef", "variant")
             if getattr(args, name) is not None and getattr(args, name) != args.subparser.get_default(name)}

    def build(X):
        return make_estimator(args.solver, budget=args.budget, gamma=args.gamma, kernel=args.kernel,
                              degree=args.degree, coef0=args.coef0, epochs=args.epochs, backend=args.backend,
                              random_state=args.random_state, verbose=args.verbose, refit_bias=_refit(args),
                              refit_rows=args.refit_rows, **given)

    def report(est, X, seconds):
        settings = _settings_text(given)
        return _classifier_report(est, X, seconds, args, f"{args.solver} ({settings + ', ' if settings else ''}"
                                  f"{args.backend})",
                                  sv_note="" if args.solver in ("perceptron", "ogd") else f" (budget {args.budget})")

    return _train_and_report(args, build, report)


def _cmd_train(args):
    _refuse_unused_options(args)
    args.fit_options = _checkpoint_options(args)
    if SOLVERS[args.solver].regression == "OnlineKernelRegressor" and (
            args.regression or SOLVERS[args.solver].estimator == "OnlineKernelRegressor"):
        from ._regression import train_online_regression   # the baselines' regression versions

        return train_online_regression(args)
    defaults = estimator_class(args.solver)().get_params()
    if args.budget is None:  # the solver's own default (NOGD 400, the others 100; SBP has none)
        args.budget = defaults.get("budget")
    if args.epochs is None:  # the solver's own default (SBP 10, the others 1)
        args.epochs = defaults.get("epochs", 1)
    if SOLVERS[args.solver].estimator == "OnlineKernelClassifier":
        return _cmd_train_online(args)
    if getattr(args, "solver", "bsgd") == "sbp":
        return _cmd_train_sbp(args)
    if getattr(args, "solver", "bsgd") == "idsvm":
        return _cmd_train_idsvm(args)
    if getattr(args, "solver", "bsgd") == "bsca":
        return _cmd_train_bsca(args)
    from ..estimators import BudgetedSVC

    _check_model_path(args.model)  # before training, not after
    if args.solver != "bsgd":  # FOGD / NOGD (Lu et al. 2016), see refsvm/_cli_ogd.py
        if getattr(args, "refit_bias", False):
            raise ValueError(f"--refit-bias: not used by --solver {args.solver} (not a kernel expansion)")
        if getattr(args, "stream", False):
            return _train_ogd_stream(args)
        from ._ogd import train_ogd
        return train_ogd(args)
    def build(X):
        if args.C is not None:
            lam = 1.0 / (X.shape[0] * check_positive(args.C, "C"))
        else:
            lam = args.lam
        return BudgetedSVC(
            budget=args.budget, lam=lam, gamma=args.gamma, kernel=args.kernel,
            degree=args.degree, coef0=args.coef0, learning_rate=args.learning_rate,
            eta=args.eta, radius=args.radius, maintenance=args.maintenance,
            merge_eps=args.merge_eps, merge_solver=args.merge_solver, fit_bias=args.fit_bias, epochs=args.epochs,
            backend=args.backend, random_state=args.random_state, verbose=args.verbose,
            refit_bias=_refit(args), refit_rows=args.refit_rows,
        )

    def report(est, X, seconds):
        return _classifier_report(est, X, seconds, args,
                                  f"BSGD ({args.learning_rate}, {args.maintenance}, {args.backend})",
                                  parameter=f"lambda:            {est.lam:.6g}", sv_note=f" (budget {args.budget})")

    return _train_and_report(args, build, report)


def _train_ogd_stream(args):
    """``refsvm train --stream --solver fogd|nogd``: the classifier trained by :func:`refsvm.stream.fit_stream`
    (``partial_fit`` chunk by chunk; the model is that of ``partial_fit`` over the same chunks)."""
    from ._ogd import make_estimator as make_ogd

    def report(est, X, seconds):
        yield (f"trained {args.solver.upper()}{'-R' if args.regression else ''} ({args.backend}) on {X.shape[0]} "
               f"examples with {X.shape[1]} features (streamed)")
        yield f"training time:     {seconds:.3f} s"

    return _train_and_report(args, lambda X: make_ogd(args), report)


def _cmd_train_bsca(args):
    """``refsvm train --solver bsca``: BSCAClassifier with C (``--C``, else C = 1 / (n lambda))."""
    from ..estimators import BSCAClassifier

    _check_model_path(args.model)  # before training, not after

    def build(X):
        C = args.C if args.C is not None else 1.0 / (X.shape[0] * check_positive(args.lam, "lam"))
        return BSCAClassifier(
            budget=args.budget, C=C, gamma=args.gamma, kernel=args.kernel, degree=args.degree,
            coef0=args.coef0, maintenance=args.maintenance, merge_eps=args.merge_eps,
            merge_solver=args.merge_solver, epochs=args.epochs, backend=args.backend,
            random_state=args.random_state, verbose=args.verbose,
            refit_bias=_refit(args), refit_rows=args.refit_rows,
        )

    def report(est, X, seconds):
        return _classifier_report(est, X, seconds, args, f"BSCA ({args.maintenance}, {args.backend})",
                                  parameter=f"C:                 {est.C:.6g}",
                                  sv_note=f" (budget {args.budget} per machine)")

    return _train_and_report(args, build, report)


def _cmd_train_sbp(args):
    """``refsvm train --solver sbp``: SBPClassifier (nu, gamma, kernel, epochs, --fit-bias)."""
    from ..estimators import SBPClassifier

    _check_model_path(args.model)  # before training, not after

    def build(X):
        return SBPClassifier(nu=args.nu, gamma=args.gamma, kernel=args.kernel, degree=args.degree,
                             coef0=args.coef0, epochs=args.epochs, fit_intercept=args.fit_bias,
                             backend=args.backend, random_state=args.random_state, verbose=args.verbose,
                             refit_bias=_refit(args), refit_rows=args.refit_rows)

    def report(est, X, seconds):
        evaluations = sum(tr["kernel_evaluations"] for tr in est.trace_)
        return _classifier_report(est, X, seconds, args,
                                  f"SBP (nu {args.nu:g}, {'with' if args.fit_bias else 'no'} bias, {args.backend})",
                                  time_note=f" ({args.epochs} epochs, {evaluations} kernel evaluations)")

    return _train_and_report(args, build, report)


def _cmd_train_idsvm(args):
    """``refsvm train --solver idsvm``: IncrementalSVC (C, gamma, kernel, --max-examples)."""
    from ..estimators import IncrementalSVC

    _check_model_path(args.model)  # before training, not after
    if args.epochs != 1:
        raise ValueError(f"--epochs: idsvm makes one pass (its model is the exact SVM of the examples seen); "
                         f"got {args.epochs}")
    C = 1.0 if args.C is None else args.C

    def build(X):
        return IncrementalSVC(C=C, gamma=args.gamma, kernel=args.kernel, degree=args.degree, coef0=args.coef0,
                              max_examples=args.max_examples, backend=args.backend, random_state=args.random_state,
                              verbose=args.verbose)

    def report(est, X, seconds):
        # the last call's trace (--stream keeps only the last chunk's); one against the rest: one per machine
        trace = est.trace_[-1]
        events = sum(t["events"] for t in trace.get("per_class", [trace]))
        where = "; the last chunk: " if getattr(args, "stream", False) else ", "
        return _classifier_report(est, X, seconds, args, f"IDSVM (C {C:g}, {args.backend})",
                                  time_note=f" ({est.t_} examples{where}{events} bookkeeping steps, KKT certificate "
                                            f"{trace['kkt_violation']:.2g})")

    return _train_and_report(args, build, report)


def _classes_note():
    """The help's sentence on multi-class data: which online baselines are binary only (none: every
    solver takes it)."""
    if not BINARY_ONLY:
        return " Every solver takes multi-class data."
    return (" The online baselines " + ", ".join(BINARY_ONLY) + " are binary classifiers (DATA must have two "
            "classes); the other solvers take multi-class data.")


def add_parser(sub):
    """Add the ``train`` sub-command to ``sub`` (the ``refsvm`` parser's sub-parsers)."""
    solvers = "; ".join(f"{s.name}: {s.paper}" for s in SOLVERS.values())
    train = sub.add_parser("train", help="train a budgeted kernel machine (--solver) on a LIBSVM file, save the model",
                           description="Train a solver (--solver, default bsgd) on DATA and save the model to MODEL "
                                       "(.npz). An option the solver does not use is an error. Solvers: "
                                       + solvers + "." + _classes_note(),
                           formatter_class=_HelpFormatter)
    train.add_argument("data", metavar="DATA", help="LIBSVM file (or data set name, see REFSVM_DATA)")
    train.add_argument("model", metavar="MODEL", help="output model file (.npz)")
    train.add_argument("--budget", type=int, default=None,
                       help="number of support vectors (None: the solver's default, 100; NOGD 400)")
    reg = train.add_mutually_exclusive_group()
    reg.add_argument("--lam", type=float, default=1e-4, help="regularisation lambda")
    reg.add_argument("--C", type=float, default=None,
                     help="LIBSVM's C; bsgd: lambda = 1 / (n C) instead of --lam; bsca, idsvm: the box; bpas, bpann: the "
                          "aggressiveness")
    train.add_argument("--gamma", type=_gamma, default="scale",
                       help="kernel width: k(x,x') = exp(-gamma ||x-x'||^2); a number > 0, 'scale' "
                            "(1 / (n_features * X.var())) or 'auto' (1 / n_features)")
    train.add_argument("--kernel", choices=["rbf", "linear", "poly"], default="rbf",
                       help="kernel function")
    train.add_argument("--degree", type=int, default=3, help="polynomial kernel degree")
    train.add_argument("--coef0", type=float, default=0.0, help="polynomial kernel constant")
    train.add_argument("--learning-rate", choices=["pegasos", "norma", "perceptron"],
                       default="pegasos", help="learning-rate schedule (BSGD variant)")
    train.add_argument("--eta", type=float, default=None,
                       help="eta of norma / perceptron (None: norma 1/sqrt(lambda), perceptron 0.1); the "
                            "online baselines' step size (bogd: required, no value learns on every data set)")
    train.add_argument("--radius", type=_optional_float, default=None,
                       help="perceptron ball radius U (None: 1/sqrt(lambda))")
    train.add_argument("--maintenance", choices=["removal", "projection", "merge", "random-removal", "stop"],
                       default="merge", help="budget maintenance (random-removal and stop: BSGD only, the baselines "
                                             "MP+random and MP+stop of Wang et al. sec. 7.3)")
    train.add_argument("--merge-eps", type=float, default=0.01,
                       help="golden-section search precision of merging")
    train.add_argument("--merge-solver", choices=["gss", "gss-precise", "lookup-h", "lookup-wd"],
                       default="gss", help="how merging finds h: golden-section search or a table lookup "
                       "(Glasmachers & Qaadan; binary problems only)")
    train.add_argument("--fit-bias", action="store_true", help="learn an unregularised bias")
    train.add_argument("--refit-bias", nargs="?", const="bias", default=None, choices=["bias", "scaled"],
                       help="after the last pass, replace the bias by the exact minimiser of the training "
                            "hinge loss ('bias', the default when given without a value) or by the threshold "
                            "of the jointly optimal scale and offset ('scaled'); solvers: "
                            + ", ".join(n for n, s in SOLVERS.items() if "refit_bias" in s.options)
                            + " (not " + ", ".join(n for n, s in SOLVERS.items() if "refit_bias" not in s.options)
                            + ": not kernel expansions); see refsvm.refit")
    train.add_argument("--refit-rows", type=int, default=10000,
                       help="--refit-bias uses at most this many training rows (a random subsample)")
    train.add_argument("--epochs", type=int, default=None,
                       help="passes over the data (None: the solver's default: 10 for sbp, as "
                            "SBPClassifier and the paper; 1 for the others)")
    train.add_argument("--backend", choices=["fast", "python"], default="fast",
                       help="compiled or pure-Python reference path")
    train.add_argument("--random-state", type=int, default=0,
                       help="seed of the visiting order")
    noise = train.add_mutually_exclusive_group()
    noise.add_argument("--verbose", dest="verbose", action="store_const", const=1, default=1,
                       help="progress lines on stderr during training: examples/s, SVs, maintenance "
                            "events, online error (default: on)")
    noise.add_argument("--quiet", dest="verbose", action="store_const", const=0,
                       help="no progress lines (default: off)")
    train.add_argument("--test", metavar="TESTFILE", default=None,
                       help="also report the accuracy on this LIBSVM file (read with the "
                            "training data's number of features)")
    _add_file_options(train, pad="a test file with fewer features than DATA", standardize=True)
    train.add_argument("--solver", choices=list(SOLVERS), default="bsgd", metavar="SOLVER",
                       help="the solver: " + ", ".join(SOLVERS) + " (the list above says what each is and "
                            "which options it uses)")
    train.add_argument("--max-coef", type=float, default=10.0,
                       help="bogd: coefficients are kept within eta * max_coef")
    train.add_argument("--variant", choices=["paper", "authors"], default="paper",
                       help="forgetron, projectron, projectron++, bogd (and forgetron, bogd --regression): 'paper' "
                            "follows each learner's paper, 'authors' the reading of Lu et al.'s released code "
                            "where it differs (refsvm.OnlineKernelClassifier's variant: the Forgetron's larger "
                            "root, the Projectrons' filled budget and U threshold (--eta unused), BOGD's update "
                            "at y f <= 1 with the whole vector rescaled; with --regression, BOGD's removal of "
                            "the oldest SV without rescaling)")
    train.add_argument("--max-examples", type=int, default=None,
                       help="idsvm: learn the first N examples of the visiting order only (the paper's early stop)")
    train.add_argument("--nu", type=float, default=0.01, help="SBP: the margin-violation parameter nu (Cotter et al.; volume n nu)")
    add_stream_arguments(train)  # --stream, --chunk-rows, --shuffle-buffer, --shuffle
    train.add_argument("--checkpoint", metavar="PATH", default=None,
                       help="write the training state to PATH (atomically) at epoch boundaries, or inside an "
                            "epoch with --checkpoint-every Nsteps; with --resume, "
                            "continue from it: bit for bit the model of an uninterrupted run")
    train.add_argument("--checkpoint-every", metavar="N", default="epoch",
                       help="with --checkpoint: after every epoch ('epoch'), every N epochs, 'Nsteps': every N steps "
                            "(inside epochs; bsgd, fogd, nogd and the online baselines, not bsca or sbp), or 'Ns': "
                            "at the first stop (every 10000 steps, or epoch boundary for bsca / sbp) N seconds "
                            "after the previous checkpoint; the last epoch always writes one. With --stream: "
                            "between chunks, 'Nchunks': every N chunks, 'Nsteps': at the first chunk completing "
                            "N examples, 'Ns' at the first chunk N seconds after the previous checkpoint")
    train.add_argument("--resume", action="store_true",
                       help="continue the run from --checkpoint PATH (refused when it holds other data or "
                            "parameters)")
    train.set_defaults(func=_cmd_train, subparser=train)
    add_ogd_arguments(train)  # --solver fogd|nogd, --regression, ...
    return train
