"""Classic online kernel learners, the baselines of the budget papers (reference implementation).

Lu et al. (2016, Table 5) and Qaadan et al. (2019, Table 2) compare their
methods with these learners.  Each function below mirrors the update of its
own paper (cited at the function and line by line); the compiled mirror is
:mod:`refsvm._fast.online` (same functions, same signatures, same list
operations, so both make the same discrete decisions).

Layout: one module per family, sharing one preamble.  :mod:`.common` holds
what every learner shares (:func:`~refsvm.online.common.begin`: arguments
checked once, options resolved into :class:`~refsvm.online.common.OnlineOptions`,
weights as data, the pass and its :class:`~refsvm.online.common.OnlineRecorder`);
:mod:`.perceptrons` the mistake-driven learners (perceptron, RBP, Forgetron),
:mod:`.gradient` the hinge-loss gradient learners (OGD, BOGD),
:mod:`.projection` the Projectrons, :mod:`.passive_aggressive` BPA-S and BPA-NN,
:mod:`.regression` the regression OGD, Perceptron, Norma, RBP, Forgetron, Projectron and BOGD (Lu et al.
2016, section 7.4),
:mod:`.multiclass` the multi-class Perceptron, RBP, OGD, Forgetron, BOGD, BPA-S and Projectron(++) (Lu et al. 2016,
section 5: one shared SV set, the true class and the rival updated).  Every
name is importable from ``refsvm.online``.

========================  ==========================================================  ==================
function                  paper                                                       budget
========================  ==========================================================  ==================
:func:`perceptron`        Freund & Schapire (1999), kernel perceptron                 none
:func:`ogd`               Kivinen, Smola & Williamson (2004), NORMA, lambda = 0        none
:func:`rbp`               Cavallanti, Cesa-Bianchi & Gentile (2007), random removal   B
:func:`forgetron`         Dekel, Shalev-Shwartz & Singer (2008), self-tuned           B
:func:`projectron`        Orabona, Keshet & Caputo (2009), Projectron / Projectron++  eta (and B)
:func:`bpas`              Wang & Vucetic (2010), BPA-S                                B
:func:`bpann`             Wang & Vucetic (2010), BPA-NN (Wang et al. 2012's "BPA")    B
:func:`bogd`              Zhao, Wang, Wu, Jin & Hoi (2012), BOGD, uniform sampling    B
========================  ==========================================================  ==================

Sources.  The five papers are not in the shared paper folder; each update
below was written from the paper's description (as summarised by Lu et al.
2016 and Wang et al. 2012) and checked against the published implementations
read for understanding only (the MATLAB code released with Lu et al., JSAT);
where those disagree with the paper the docstring says so and the paper's form
is used.  Equation and figure numbers of the original papers are therefore not
cited.

Conventions shared by all learners (see DESIGN.md):

* binary labels y in {-1, +1}; the model is ``f(x) = sum_j alpha_j k(x_j, x)``
  with ``alpha`` of shape ``(n_sv, 1)`` and no bias (none of the papers has one);
* a *mistake* is counted before the update (online mistake rate =
  ``mistakes / n_steps``, as Lu et al. report).  ``zero_prediction``
  says how a decision value of exactly 0 is read (:func:`is_mistake`):
  ``"mistake"`` (default) counts ``y_t f_t(x_t) <= 0`` as a mistake, the
  reading of the papers (no prediction is made, so no label is right);
  ``"positive"`` predicts ``sign(0) = +1`` as Lu et al.'s released code does,
  so ``f = 0`` is a mistake only for ``y_t = -1``.  The mistake-driven updates
  (Perceptron, RBP, the Projectrons' mistake branch) follow the same reading;
  the Forgetron updates on ``y_t f_t(x_t) <= 0`` under both (its paper and the
  authors' code) and counts its ``M`` by the chosen reading.  A value of
  exactly 0 is not only the empty model's: with a Gaussian kernel whose values
  underflow (unscaled spambase) it happens 90-170 times a pass;
* ``variant``: ``"paper"`` (default) is each paper's update as stated;
  ``"authors"`` is Lu et al.'s released MATLAB code where it differs
  (Forgetron, Projectron(++), BOGD; the docstrings say how), the reading
  behind the numbers of their Table 5;
* the hinge loss is "active" when ``y_t f_t(x_t) < 1`` (Lu et al., section 7.2.1:
  the gradient is taken as 0 at ``y f = 1``);
* SV storage: *append* writes slot ``n_sv``; *remove(p)* moves the last SV into
  slot ``p`` (as :func:`refsvm.budget.remove_sv`); BPA-S *replaces* slot ``r``;
* randomness (the SV RBP and BOGD discard) comes from ``uniforms``, one number
  in [0, 1) per step drawn by the caller; the discarded slot is
  ``floor(u_t * n_sv)``;
* every function continues from ``sv``, ``alpha``, ``t0`` and ``state`` (what
  the previous call returned) and returns an :class:`OnlineResult`;
* **example weights** (``sample_weight``, not in the papers), for every
  learner.  A weight ``s_t >= 0`` scales the example's loss; the line of the
  update that the loss enters changes, the test that triggers it (mistake /
  hinge loss active) does not:

  - perceptron, RBP, Forgetron: the new SV's coefficient is ``s_t y_t``
    (``f'_t = f_t + s_t y_t k(x_t, .)``); the Forgetron's shrinking then runs
    as printed on the weighted ``f'_t`` (its ``M`` counts mistakes, unweighted);
  - OGD, BOGD: ``eta s_t y_t`` (the gradient of the weighted hinge loss);
  - Projectron: the perceptron step ``s_t y_t``, projected (``alpha += s_t y_t d*``)
    or added; Projectron++'s margin-error step is capped at ``s_t`` instead
    of 1, ``tau = min(l / ||P k_t||^2, s_t)`` (the cap is the mistake step);
  - BPA-S: PA-I with the weighted loss ``s_t l``, i.e. ``C s_t`` in place of
    ``C``, in the step ``tau = min(C s_t, l / k_tt)`` and in the replacement
    objective ``Q_r``.

  An example with ``s_t = 0`` changes nothing (no SV, no projection, no
  removal; BOGD still shrinks, the regulariser is not weighted).  ``s_t = 1``
  is bitwise the unweighted run.  Counters (mistakes) are unweighted.

Trace (both paths):

====================== ===========================================================
``mistakes``            number of steps with ``y_t f_t(x_t) <= 0``
``n_steps``             ``len(order)``
``updates``             steps on which the loss triggered an update of the model
``removals``            number of SVs discarded (or replaced, BPA-S)
``kernel_evaluations``  kernel values computed (the papers' unit of cost)
``update_kind``         int8 per step: 0 none, 1 an SV was added, 2 coefficients
                        changed without adding an SV (projection)
``n_sv``                int64 per step: number of SVs after the step
``removal_step``        int64 per removal: index into ``order`` of the step
``removal_index``       int64 per removal: slot of the SV discarded / replaced
====================== ===========================================================
"""

from .common import (ALGORITHMS, ADDED, NO_UPDATE, PROJECTED, OnlineOptions, OnlineRecorder, OnlineResult,
                     OnlineRun, begin, is_mistake, projectron_U)
from .gradient import bogd, ogd
from .multiclass import (MULTICLASS_ALGORITHMS, multiclass_bogd, multiclass_bpas, multiclass_forgetron,
                         multiclass_ogd, multiclass_perceptron, multiclass_projectron, multiclass_rbp)
from .passive_aggressive import bpann, bpas
from .perceptrons import forgetron, forgetron_shrink, perceptron, rbp
from .projection import projectron
from .regression import (REGRESSION_ALGORITHMS, regression_bogd, regression_forgetron, regression_norma,
                         regression_ogd, regression_perceptron, regression_projectron, regression_rbp)

__all__ = ["ALGORITHMS", "OnlineResult", "OnlineOptions", "OnlineRecorder", "is_mistake", "projectron_U",
           "perceptron", "ogd", "rbp", "forgetron_shrink", "forgetron", "projectron", "bpas", "bogd", "bpann",
           "MULTICLASS_ALGORITHMS", "multiclass_perceptron", "multiclass_rbp", "multiclass_ogd",
           "multiclass_forgetron", "multiclass_bogd", "multiclass_bpas", "multiclass_projectron"]
__all__ += ["REGRESSION_ALGORITHMS", "regression_ogd", "regression_perceptron", "regression_rbp",
            "regression_forgetron", "regression_projectron", "regression_bogd", "regression_norma"]
