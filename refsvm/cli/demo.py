"""``refsvm demo``: BSGD on the synthetic checkerboard, both code paths, no data files needed."""

import time

import numpy as np

from ._common import _HelpFormatter, _UsageError

DEMO_GAMMA = 50.0
DEMO_LAM = 1e-4


def _cmd_demo(args):
    from ..estimators import BudgetedSVC
    from ..io.datasets import checkerboard
    from ..validation import check_budget

    if args.n < 2 or args.n_test < 1:
        raise _UsageError("--n must be >= 2 and --n-test >= 1")
    check_budget(args.budget)
    backends = ["python", "fast"] if args.backend == "both" else [args.backend]
    X, y = checkerboard(args.n, random_state=args.random_state)
    Xt, yt = checkerboard(args.n_test, random_state=args.random_state + 1)
    print(f"BSGD (Pegasos learning rate, merging) on the 4x4 checkerboard of Wang, Crammer "
          f"and Vucetic (2012):\n{args.n} training / {args.n_test} test points in [0,1]^2, "
          f"budget {args.budget}, gamma {DEMO_GAMMA:g}, lambda {DEMO_LAM:g}, one pass.\n")
    rows = []
    models = {}
    for backend in backends:
        est = BudgetedSVC(budget=args.budget, lam=DEMO_LAM, gamma=DEMO_GAMMA,
                          maintenance="merge", learning_rate="pegasos", backend=backend,
                          random_state=args.random_state)
        start = time.perf_counter()
        est.fit(X, y)
        seconds = time.perf_counter() - start
        models[backend] = est
        rows.append((backend, f"{args.n}", f"{est.score(Xt, yt):.4f}", f"{seconds:.3f}",
                     f"{est.support_vectors_.shape[0]}"))
    header = ("backend", "n_train", "test accuracy", "train time (s)", "#SV")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for r in (header, ["-" * w for w in widths], *rows):
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    if len(models) == 2:
        py, fast = models["python"], models["fast"]
        diff = np.max(np.abs(py.alpha_ - fast.alpha_)) if py.alpha_.shape == fast.alpha_.shape \
            else float("nan")
        print(f"\nmax |alpha_python - alpha_fast| = {diff:.2e} (same data and visiting order)")
    return 0


def add_parser(sub):
    """Add the ``demo`` sub-command to ``sub`` (the ``refsvm`` parser's sub-parsers)."""
    demo = sub.add_parser("demo", help="BSGD on a synthetic checkerboard, both backends",
                          description="Train BSGD-merge (Pegasos) on a 4x4 checkerboard "
                                      "(no download) and print accuracy, time and #SV.",
                          formatter_class=_HelpFormatter)
    demo.add_argument("--n", type=int, default=10000, help="training points")
    demo.add_argument("--n-test", type=int, default=5000, help="test points")
    demo.add_argument("--budget", type=int, default=100, help="budget")
    demo.add_argument("--backend", choices=["both", "python", "fast"], default="both",
                      help="which paths to run")
    demo.add_argument("--random-state", type=int, default=0, help="seed")
    demo.set_defaults(func=_cmd_demo, subparser=demo)
    return demo
