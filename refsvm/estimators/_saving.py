"""Save and load of a fitted classifier: the model, the class name and every hyper-parameter in one
``.npz`` file (no pickle; :meth:`refsvm.model.BudgetedModel.save`).  :class:`SaveLoad` is a base of
:class:`refsvm.estimators._base.BudgetedClassifierBase`."""

import dataclasses
import numbers
import warnings

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ..model import BudgetedModel


class SaveLoad:
    """``save`` / ``load`` (methods of :class:`BudgetedClassifierBase`)."""

    # ---------------------------------------------------------------- save/load

    def save(self, path):
        """Write the fitted model and every hyper-parameter to ``path`` (``.npz``).

        The file holds the model (support vectors, coefficients, bias, kernel
        parameters with the fitted ``gamma_``, classes), the estimator's class
        name, ``get_params()`` as a JSON string (no pickle) and the version of
        refsvm (see :meth:`refsvm.model.BudgetedModel.save`).  A
        ``random_state`` that is a ``numpy.random.Generator`` cannot be
        stored: it is saved as ``None`` (with a warning).  The training state
        (``t_``, the generator) is not stored.

        Parameters
        ----------
        path : str or path-like
            Destination file (numpy appends ``.npz`` when missing).
        """
        check_is_fitted(self)
        params = self.get_params(deep=False)
        state = params.get("random_state")
        if state is not None and not isinstance(state, (numbers.Integral, np.integer)):
            warnings.warn(
                f"random_state={state!r} cannot be stored in a model file; it is saved as None",
                UserWarning, stacklevel=2,
            )
            params["random_state"] = None
        dataclasses.replace(self.model_, params=params, estimator=type(self).__name__).save(path)

    @classmethod
    def load(cls, path, backend=None):
        """Make a fitted estimator from a model file written by :meth:`save`.

        The estimator predicts exactly as the saved one and has the saved
        hyper-parameters, checked as on construction (the estimator's own
        validation runs: an invalid value in the file raises ValueError
        naming the parameter and the file).  :meth:`fit` on it trains with
        these parameters.  Files without parameters (written by
        :meth:`refsvm.model.BudgetedModel.save` or by refsvm before 0.1.0
        recorded them) give the defaults, with the model's kernel parameters
        (adjusted by the subclass's ``_params_from_model``).  ``t_`` is
        ``None``: :meth:`partial_fit` refuses to continue a loaded model
        (:meth:`fit` trains a new one).  Class labels of ``object`` dtype
        come back as strings.

        Parameters
        ----------
        path : str or path-like
            A ``.npz`` file written by :meth:`save` or
            :meth:`refsvm.model.BudgetedModel.save`.
        backend : {"fast", "python"} or None, default=None
            Backend of the returned estimator; ``None`` keeps the saved one
            (``"fast"`` for files without parameters).

        Returns
        -------
        estimator
            A fitted estimator.
        """
        model = BudgetedModel.load(path)
        if model.params is None:
            params = dict(cls._params_from_model(model), backend=backend or "fast")
        else:
            params = cls._checked_saved_params(model, path)
            if backend is not None:
                params["backend"] = backend
        est = cls(**params)
        try:
            est._algorithm_params()  # the estimator's own checks, as in fit
            est._check_refit()
        except ValueError as exc:
            raise ValueError(f"{path}: invalid parameter in the model file: {exc}") from exc
        est.classes_ = np.asarray(model.classes)
        est.n_features_in_ = model.support_vectors.shape[1]
        est.model_ = model
        est.support_vectors_ = model.support_vectors
        est.alpha_ = model.coef
        est.bias_ = model.bias
        est.gamma_ = float(model.gamma)
        est.t_ = None
        est.trace_ = []
        return est

    @classmethod
    def _checked_saved_params(cls, model, path):
        """The saved ``get_params()``: same estimator class, known names, kernel as the model's."""
        if model.estimator != cls.__name__:
            raise ValueError(
                f"{path}: the file holds a {model.estimator} model; load it with "
                f"{model.estimator}.load, not {cls.__name__}.load"
            )
        params = dict(model.params)
        unknown = sorted(set(params) - set(cls._get_param_names()))
        if unknown:
            raise ValueError(
                f"{path}: parameters {unknown} of the file are unknown to {cls.__name__} of this "
                f"refsvm (file written by refsvm {model.version})"
            )
        for name in ("kernel", "degree", "coef0"):
            if name in params and params[name] != getattr(model, name):
                raise ValueError(
                    f"{path}: parameter {name}={params[name]!r} disagrees with the model's "
                    f"{name}={getattr(model, name)!r}"
                )
        gamma = params.get("gamma")
        if gamma is not None and not isinstance(gamma, str) and gamma != model.gamma:
            raise ValueError(
                f"{path}: parameter gamma={gamma!r} disagrees with the model's gamma={model.gamma!r}"
            )
        return params

    @classmethod
    def _params_from_model(cls, model):
        """Constructor arguments recovered from a loaded model (its kernel parameters)."""
        return dict(kernel=model.kernel, gamma=model.gamma, degree=model.degree, coef0=model.coef0)
