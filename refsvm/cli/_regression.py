"""``refsvm train --solver perceptron|ogd|rbp|forgetron|projectron|bogd|norma --regression``: the online
baselines' regression versions (:class:`refsvm.OnlineKernelRegressor`, Lu et al. 2016, section 7.4;
FOGD-R / NOGD-R are in :mod:`refsvm.cli._ogd`).

Options: ``--epsilon`` (the tube), ``--eta`` (the step), ``--budget`` (rbp, forgetron, projectron, bogd),
``--lam`` and ``--max-coef`` (bogd), ``--lam`` and ``--nu`` (norma), ``--variant paper|authors`` (forgetron,
bogd: ``authors`` is Lu et al.'s released code), the kernel options, ``--gamma``,
``--epochs``, ``--backend``, ``--random-state``, ``--test``.  An option not given keeps the estimator's
default (Lu et al.'s settings: budget 30, epsilon 0.1, eta 0.1; not the classifiers' budget or the BSGD /
SBP defaults of ``--lam`` and ``--nu``).  The command prints the online squared loss of the last pass and
the training (and ``--test``) mean squared error; ``refsvm predict`` reads the model file as a regressor.
"""

import numpy as np

#: the regression options whose command-line default belongs to another solver (used only when given)
_GIVEN_ONLY = ("budget", "eta", "lam", "max_coef", "nu", "variant")


def train_online_regression(args):
    """Fit, save and report an :class:`~refsvm.OnlineKernelRegressor` (``--solver`` names the algorithm)."""
    from ..estimators.registry import make_estimator
    from ._common import _check_model_path, _settings_text, _train_and_report

    if not args.regression:
        raise ValueError(f"--solver {args.solver} is a regression learner; add --regression")
    if getattr(args, "fit_options", None):
        raise ValueError("--checkpoint: not available with --regression for the online baselines")
    _check_model_path(args.model)  # before training, not after
    given = {name: getattr(args, name) for name in _GIVEN_ONLY
             if getattr(args, name) is not None and getattr(args, name) != args.subparser.get_default(name)}
    if args.epochs is None:
        args.epochs = 1

    def build(X):
        return make_estimator(args.solver, regression=True, epsilon=args.epsilon, gamma=args.gamma,
                              kernel=args.kernel, degree=args.degree, coef0=args.coef0, epochs=args.epochs,
                              backend=args.backend, random_state=args.random_state, **given)

    def report(est, X, seconds):
        settings = _settings_text(dict(given, epsilon=args.epsilon))
        yield (f"trained {args.solver}-R ({settings}, {args.backend}) on {X.shape[0]} examples with "
               f"{X.shape[1]} features")
        yield f"training time:     {seconds:.3f} s"
        yield f"support vectors:   {est.sv_.shape[0]}"

    def scores(est, X, y, test):
        trace = est.trace_[-1]
        yield f"online mean squared loss (last pass): {trace['squared_loss'] / max(trace['n_steps'], 1):.6g}"
        yield f"training MSE:      {np.mean((est.predict(X) - y) ** 2):.6g}"
        if test is not None:
            yield (f"test MSE:          {np.mean((est.predict(test[0]) - test[1]) ** 2):.6g} "
                   f"({test[0].shape[0]} examples)")

    if getattr(args, "stream", False):      # partial_fit chunk by chunk; the streamed MSE
        from ._stream import train_stream

        return train_stream(args, build, report)
    return _train_and_report(args, build, report, scores)
