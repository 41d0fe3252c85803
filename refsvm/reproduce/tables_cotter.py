"""Cotter, Shalev-Shwartz & Srebro (2012), Figure 3 (appendix A), as ``refsvm reproduce cotter2012-figure3``:
SBP against random Fourier features (:mod:`refsvm.reproduce.cotter_rff`), on the data and parameters of
``cotter2012-figure2``."""

from .spec import Entry, Table
from .tables_core import COTTER2012_FIGURE2, CURVE, TABLES

TABLES["cotter2012-figure3"] = Table(
    name="cotter2012-figure3",
    title="Cotter, Shalev-Shwartz & Srebro (2012), Figure 3: SBP vs random Fourier features, test error vs "
          "d-dimensional inner products (Adult and MNIST panels; Reuters: data not available)",
    metric="test error (%) at the end of the curve",
    datasets=COTTER2012_FIGURE2.datasets,
    entries=[Entry("SBP", CURVE, dict(method="sbp", nu="derive")),
             Entry("Fourier features", "refsvm.reproduce.cotter_rff:run_rff_curve", dict(k_max=2048))],
    paper={}, seeds=20, quick_rows=300,
    plot="refsvm.reproduce.cotter_rff:plot_inner_products",
    note="Figure 3 prints no numbers (curves only; the text: 'at least on Reuters and MNIST, the SBP is "
         "preferable to (i.e. faster than) approximating the kernel with random Fourier features').  Data and "
         "parameters as cotter2012-figure2 (sigma^2 = 10 Adult, 25 MNIST 8-vs-rest; subsets of 4,000 / 2,000 "
         "training rows; SBP's nu derived on them, ten epochs, averaged iterate).  Fourier features: the paper's "
         "P(x) with v_i ~ N(0, I), k = 1, 2, 4, ..., 2048 pairs, the exact optimum of the linear SVM without bias at "
         "lambda = 1/n (LinearSVC, hinge, C = 1), cost k n inner products (the solver's cost ignored, as the "
         "paper).  Reuters: data not available (the paper's Reuters RCV1 CCAT split, rcv1_train.binary.bz2 / "
         "rcv1_test.binary.bz2, would enable it).  Per-point curves: JSON (per_seed curve) and --png.",
)
