"""The shared input checks of refsvm.validation (check_X, check_X_y, check_budget, check_int, ...): a ValueError naming the parameter."""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm.validation import (
    ParameterTypeError,
    check_budget,
    check_classification_targets,
    check_int,
    check_option,
    check_positive,
    check_X,
    check_X_y,
)


# --- check_X ---------------------------------------------------------------


def test_check_X_returns_c_contiguous_float64():
    X = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(3, 2))
    out = check_X(X)
    assert out.dtype == np.float64 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, X)


def test_check_X_accepts_lists_and_densifies_sparse():
    np.testing.assert_array_equal(check_X([[1, 2], [3, 4]]), [[1.0, 2.0], [3.0, 4.0]])
    S = sp.csr_matrix(np.array([[0.0, 1.5], [2.0, 0.0]]))
    out = check_X(S)
    assert isinstance(out, np.ndarray) and out.flags.c_contiguous
    np.testing.assert_array_equal(out, S.toarray())


@pytest.mark.parametrize(
    "X, exc",
    [
        (np.zeros((0, 3)), ValueError),
        (np.zeros((3, 0)), ValueError),
        (np.zeros(3), ValueError),
        (np.zeros((2, 2, 2)), ValueError),
        (np.array([[1.0, np.nan]]), ValueError),
        (np.array([[1.0, np.inf]]), ValueError),
        (np.array([["a", "b"]]), TypeError),
        (np.array([[1 + 2j, 0]]), TypeError),
        ([[1.0, 2.0], [3.0]], TypeError),
    ],
)
def test_check_X_rejects_with_parameter_name(X, exc):
    with pytest.raises(exc, match="X_test"):
        check_X(X, name="X_test")
    with pytest.raises(exc, match="^X "):
        check_X(X)


def test_parameter_type_error_is_both_value_and_type_error():
    with pytest.raises(ValueError):
        check_X([["a"]])
    assert issubclass(ParameterTypeError, TypeError)
    assert issubclass(ParameterTypeError, ValueError)


# --- check_X_y / classification targets ------------------------------------


def test_check_X_y_ok_keeps_label_dtype():
    X, y = check_X_y([[0.0], [1.0]], ["a", "b"])
    assert X.dtype == np.float64 and y.tolist() == ["a", "b"]


@pytest.mark.parametrize(
    "y", [[1, -1, 1], np.ones((2, 1)), [1.0, np.nan], [1.0, np.inf]]
)
def test_check_X_y_bad_y_names_y(y):
    with pytest.raises(ValueError, match="^y "):
        check_X_y(np.zeros((2, 2)), y)


def test_check_X_y_bad_X_names_X():
    with pytest.raises(ValueError, match="^X "):
        check_X_y(np.zeros(2), [1, 2])


def test_classification_targets():
    np.testing.assert_array_equal(check_classification_targets([3, 1, 3, 2]), [1, 2, 3])
    np.testing.assert_array_equal(check_classification_targets([-1.0, 1.0]), [-1.0, 1.0])
    with pytest.raises(ValueError, match="^y has only one class"):
        check_classification_targets([1, 1, 1])
    with pytest.raises(ValueError, match="^y must hold discrete class labels"):
        check_classification_targets([0.5, 1.25, 2.0])


# --- scalar parameters -------------------------------------------------------


def test_check_budget():
    assert check_budget(2) == 2
    assert check_budget(np.int64(100)) == 100
    assert type(check_budget(np.int64(100))) is int
    for bad in (1, 0, -5):
        with pytest.raises(ValueError, match="^budget must be an integer >= 2"):
            check_budget(bad)
    for bad in (2.0, "10", None, True):
        with pytest.raises(TypeError, match="^budget"):
            check_budget(bad)


def test_check_int():
    assert check_int(1, "epochs", 1) == 1
    with pytest.raises(ValueError, match="^epochs must be an integer >= 1; got 0"):
        check_int(0, "epochs", 1)
    with pytest.raises(TypeError, match="^epochs"):
        check_int(1.5, "epochs", 1)


@pytest.mark.parametrize("name", ["gamma", "lam", "eta", "radius"])
def test_check_positive(name):
    assert check_positive(0.5, name) == 0.5
    assert check_positive(np.float32(2), name) == 2.0
    assert check_positive(3, name) == 3.0
    for bad in (0, 0.0, -1e-3, np.inf, np.nan):
        with pytest.raises(ValueError, match=f"^{name} must be a finite number > 0"):
            check_positive(bad, name)
    for bad in ("1", None, True, [1.0]):
        with pytest.raises(TypeError, match=f"^{name}"):
            check_positive(bad, name)


def test_check_positive_allow_zero():
    assert check_positive(0.0, "lam", allow_zero=True) == 0.0
    with pytest.raises(ValueError, match=r"^lam must be a finite number >= 0"):
        check_positive(-1.0, "lam", allow_zero=True)


def test_check_option_lists_allowed_values():
    allowed = ("removal", "projection", "merging")
    assert check_option("merging", "maintenance", allowed) == "merging"
    for bad in ("merge", "", 3, None):
        with pytest.raises(ValueError) as info:
            check_option(bad, "maintenance", allowed)
        msg = str(info.value)
        assert msg.startswith("maintenance must be one of")
        assert all(repr(a) in msg for a in allowed)


def test_all_finite_one_pass_and_its_fallback():
    """The shared finiteness check: a finite sum settles it in one pass; sums that overflow from finite
    entries, and NaN or infinite entries anywhere (of either sign, or cancelling), go to the exact check."""
    import numpy as np
    from refsvm.validation import _all_finite
    big = np.full((3, 4), 1e308)
    assert _all_finite(big) and _all_finite(-big)                  # the sum overflows, the entries do not
    for bad in (np.nan, np.inf, -np.inf):
        for where in ((0, 0), (2, 3), (1, 2)):
            X = np.ones((3, 4))
            X[where] = bad
            assert not _all_finite(X)
    X = np.ones((3, 4))
    X[0, 0], X[1, 1] = np.inf, -np.inf                              # inf - inf = NaN: still refused
    assert not _all_finite(X)
    assert _all_finite(np.zeros((0, 4))) and _all_finite(np.ones((5, 5)))


@pytest.mark.parametrize("backend", ["python", "fast"])
def test_integer_beyond_64_bits_is_refused_naming_the_parameter(backend):
    """A budget of 10**23 once ended in an OverflowError inside the compiled path."""
    from refsvm import BudgetedSVC
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match=r"budget must be an integer from 2 to 2\*\*63 - 1"):
        BudgetedSVC(budget=99999999999999999999999, backend=backend).fit(X, y)
    assert check_int(2 ** 63 - 1, "budget", 2) == 2 ** 63 - 1
    with pytest.raises(ValueError, match="epochs"):
        check_int(2 ** 63, "epochs", 1)
