"""io: the Bayes classifiers of the generators (``bayes_predict``, ``bayes_error``, ``waveform_log_likelihoods``)
against brute force -- for Breiman's waveform numerical quadrature over the mixing weight u, row by row, and a
midpoint rule over u for the whole classifier; for the Gauss mixture the exact error from the noncentral
chi-square distribution of the circle that bounds the +1 region."""

import numpy as np
import pytest
from scipy.integrate import quad

from refsvm.datasets import (bayes_error, bayes_predict, gauss_mixture, waveform, waveform_log_likelihoods,
                             waveform_means)


def _log_integral_by_quad(x, ha, hb):
    """``log integral_0^1 exp(-|x - u h_a - (1 - u) h_b|^2 / 2) du`` by adaptive quadrature, shifted by the
    integrand's largest exponent so that rows far from the class's segment do not underflow."""
    d, m = ha - hb, x - hb
    f = lambda u: -0.5 * np.sum((m - u * d) ** 2)                    # noqa: E731
    u_star = float(np.clip(m @ d / (d @ d), 0.0, 1.0))
    top = f(u_star)
    val, _ = quad(lambda u: np.exp(f(u) - top), 0.0, 1.0, points=[u_star], epsabs=0.0, epsrel=1e-12, limit=200)
    return np.log(val) + top


def test_log_likelihoods_match_quadrature():
    """Each class's log-likelihood equals the quadrature's, up to the one constant -log sqrt(2 pi) of the closed
    form (shared by the classes, so the argmax and the likelihood ratios are the quadrature's): on generated
    rows and on rows far from every class (where mu is far outside [0, 1] and the ends' Phi underflow)."""
    X, _ = waveform(40, random_state=11)
    ha, hb = waveform_means()
    far = np.vstack([10.0 * ha[0], -5.0 * hb[2], np.full(21, 30.0), 0.5 * (ha[1] + hb[1]) + 8.0])
    X = np.vstack([X, far])
    ours = waveform_log_likelihoods(X)
    brute = np.array([[_log_integral_by_quad(x, ha[k], hb[k]) for k in range(3)] for x in X])
    assert np.all(np.abs(ours - brute + 0.5 * np.log(2 * np.pi)) <= 1e-8 * np.maximum(1, np.abs(brute)))


def _midpoint_log_likelihoods(X, steps=400):
    """The same likelihoods by a midpoint rule over u (``steps`` points), in logs: an independent classifier."""
    ha, hb = waveform_means()
    u = (np.arange(steps) + 0.5) / steps
    out = np.empty((X.shape[0], 3))
    for k in range(3):
        centres = u[:, None] * ha[k] + (1 - u[:, None]) * hb[k]         # (steps, 21)
        sq = (X * X).sum(1)[:, None] - 2 * X @ centres.T + (centres * centres).sum(1)[None, :]
        e = -0.5 * sq
        top = e.max(1, keepdims=True)
        out[:, k] = np.log(np.exp(e - top).mean(1)) + top[:, 0]
    return out


def test_bayes_classifier_matches_a_midpoint_rule():
    """The argmax of the closed form and of a 400-point midpoint rule over u agree on 5,000 generated rows but
    for a handful of rows within the rule's error of a tie; so do their errors."""
    X, y = waveform(5000, random_state=12)
    ours = waveform_log_likelihoods(X).argmax(1)
    brute = _midpoint_log_likelihoods(X).argmax(1)
    assert np.mean(ours != brute) <= 1e-3
    assert abs(np.mean(ours != y) - np.mean(brute != y)) <= 1e-3


def test_bayes_classifier_beats_a_gaussian_model():
    """The Bayes classifier errs less than quadratic discriminant analysis (each class a Gaussian, fitted on
    60,000 other rows) on the same 20,000 test rows, by many standard errors of the paired difference: a
    classifier that is not the posterior's argmax would not."""
    Xtr, ytr = waveform(60000, random_state=13)
    X, y = waveform(20000, random_state=14)
    scores = np.empty((len(y), 3))
    for k in range(3):
        Z = Xtr[ytr == k]
        mu, S = Z.mean(0), np.cov(Z, rowvar=False)
        L = np.linalg.cholesky(S)
        W = np.linalg.solve(L, (X - mu).T)
        scores[:, k] = -0.5 * (W * W).sum(0) - np.log(np.diag(L)).sum()
    bayes = waveform_log_likelihoods(X).argmax(1) != y
    qda = scores.argmax(1) != y
    diff = qda.astype(float) - bayes
    assert diff.mean() > 5 * diff.std(ddof=1) / np.sqrt(len(y)), (bayes.mean(), qda.mean())


def test_bayes_error_estimate_is_deterministic_and_consistent():
    e, se = bayes_error("waveform", 30000, random_state=3, chunk_size=7000)
    assert (e, se) == bayes_error("waveform", 30000, random_state=3, chunk_size=7000)
    assert se == pytest.approx(np.sqrt(e * (1 - e) / 30000))
    wrong = 0                                  # the chunks are generator calls with seeds 3, 4, ...
    for i, n in enumerate((7000, 7000, 7000, 7000, 2000)):
        X, y = waveform(n, random_state=3 + i)
        assert np.array_equal(bayes_predict("waveform", X), waveform_log_likelihoods(X).argmax(1))
        wrong += np.count_nonzero(_midpoint_log_likelihoods(X).argmax(1) != y)
    assert abs(e - wrong / 30000) <= 1e-3


def _gauss_exact_error():
    """The Bayes error of N((0,0), I) against N((2,0), 4I), equal priors, in closed form: the +1 region
    ``-|x|^2/2 - log 2 pi >= -|x - (2,0)|^2/8 - log 8 pi`` is the disc ``|x - c|^2 <= r^2`` with
    ``c = (-2/3, 0)``, ``r^2 = (4 + 8 ln 4)/3 + 4/9`` (multiply by 8 and complete the square), so each class's
    mass in it is a noncentral chi-square probability with 2 degrees of freedom."""
    from scipy.stats import ncx2
    c, r2 = np.array([-2 / 3, 0.0]), (4 + 8 * np.log(4)) / 3 + 4 / 9
    inside_pos = ncx2.cdf(r2, 2, c @ c)                      # x ~ N(0, I)
    d = (c - np.array([2.0, 0.0])) / 2                       # x = (2, 0) + 2 z, z ~ N(0, I)
    inside_neg = ncx2.cdf(r2 / 4, 2, d @ d)
    return 0.5 * (1 - inside_pos) + 0.5 * inside_neg


def test_gauss_mixture_bayes_error_matches_the_closed_form():
    exact = _gauss_exact_error()
    assert 0.18 < exact < 0.19
    e, se = bayes_error("gauss_mixture", 400000, random_state=21)
    assert abs(e - exact) <= 5 * se
    X, _ = gauss_mixture(2000, random_state=22)               # the classifier is the disc
    inside = (X[:, 0] + 2 / 3) ** 2 + X[:, 1] ** 2 <= (4 + 8 * np.log(4)) / 3 + 4 / 9
    assert np.array_equal(bayes_predict("gauss_mixture", X), np.where(inside, 1, -1))


@pytest.mark.parametrize("call, word", [
    (lambda: waveform_log_likelihoods(np.zeros((3, 20))), "X"),
    (lambda: waveform_log_likelihoods(np.zeros(21)), "X"),
    (lambda: bayes_predict("gauss_mixture", np.zeros((3, 21))), "X"),
    (lambda: bayes_predict("gauss_mixture", np.array([[0.0, np.nan]])), "X"),
    (lambda: bayes_predict("waveform", np.full((2, 21), np.inf)), "X"),
    (lambda: bayes_error("waveform", 10, random_state=None), "random_state"),
    (lambda: bayes_error("waveform", 10, random_state=-1), "random_state"),
    (lambda: bayes_predict("checkerboard", np.zeros((3, 2))), "name"),
    (lambda: bayes_error("spiral"), "name"),
    (lambda: bayes_error("waveform", 0), "n"),
    (lambda: bayes_error("waveform", -5), "n"),
    (lambda: bayes_error("waveform", 10, chunk_size=-1), "chunk_size"),
    (lambda: bayes_error("waveform", 10, chunk_size=0), "chunk_size")])
def test_bad_input_names_the_parameter(call, word):
    with pytest.raises(ValueError, match=f"^{word} must"):
        call()
