"""I/O: models in LIBSVM's and BudgetedSVM's model-file formats (refsvm.io.peer_models, refsvm convert).

Round trips keep the decision values bitwise; files written by refsvm are parsed here independently
(a few lines of plain Python following each format's description) and predicted by brute force; a
LIBSVM file built here from scikit-learn's SVC (its support vectors, dual coefficients and intercept,
in LIBSVM's own sign convention) is read by refsvm and predicts what SVC predicts; damaged files give
one-line errors naming the file and the line.
"""

import numpy as np
import pytest

from refsvm import BudgetedModel, BudgetedSVC
from refsvm.cli import main
from refsvm.datasets import checkerboard
from refsvm.io import read_budgetedsvm_model, read_libsvm_model, write_budgetedsvm_model, write_libsvm_model
from refsvm.io.peer_models import detect_model_format, read_any_model
from refsvm.model import ModelFileError


@pytest.fixture(scope="module")
def data():
    X, y = checkerboard(300, random_state=0)
    return X, np.where(y > 0, 7, 3)                       # integer labels other than -1/+1


@pytest.fixture(scope="module")
def binary(data):
    X, y = data
    return BudgetedSVC(budget=20, gamma=20.0, backend="python", random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def multiclass():
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(240, 3))
    y = np.digitize(X[:, 0] + 0.3 * X[:, 1], [0.5, 0.9]) + 1   # classes 1, 2, 3
    return X, BudgetedSVC(budget=15, gamma=4.0, backend="python", random_state=0).fit(X, y)


def kernel_models(d=4, B=12, seed=3):
    """Models of every shared kernel, with a nonzero bias (as a refit gives) and some zero features."""
    rng = np.random.default_rng(seed)
    sv = rng.normal(size=(B, d)) * (rng.uniform(size=(B, d)) > 0.3)
    coef = rng.normal(size=(B, 1))
    return [BudgetedModel(sv, coef, kernel="rbf", gamma=0.37, bias=[0.25], classes=np.array([-1, 1])),
            BudgetedModel(sv, coef, kernel="linear", bias=[-1.5], classes=np.array([0, 5])),
            BudgetedModel(sv, coef, kernel="poly", gamma=0.5, degree=3, coef0=1.25, bias=[0.1],
                          classes=np.array([2, 4]))]


# ------------------------------------------------------------ round trips


@pytest.mark.parametrize("index", range(3))
def test_libsvm_round_trip_is_bitwise(tmp_path, index):
    model = kernel_models()[index]
    back = read_libsvm_model(write_libsvm_model(model, tmp_path / "m.model"))
    X = np.random.default_rng(9).normal(size=(50, 4))
    np.testing.assert_array_equal(back.decision_function(X), model.decision_function(X))
    np.testing.assert_array_equal(back.predict(X), model.predict(X))
    assert back.kernel == model.kernel and back.classes.tolist() == model.classes.tolist()


def test_round_trips_of_a_trained_binary_model(tmp_path, data, binary):
    X, _ = data
    f = binary.decision_function(X)
    for write, read in ((write_libsvm_model, read_libsvm_model), (write_budgetedsvm_model, read_budgetedsvm_model)):
        back = read(write(binary, tmp_path / "m.txt"))
        np.testing.assert_array_equal(back.decision_function(X), f)
        np.testing.assert_array_equal(back.predict(X), binary.predict(X))


def test_budgetedsvm_round_trip_multiclass(tmp_path, multiclass):
    X, est = multiclass
    back = read_budgetedsvm_model(write_budgetedsvm_model(est, tmp_path / "m.txt"))
    np.testing.assert_array_equal(back.decision_function(X), est.decision_function(X))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
    assert back.gamma == est.model_.gamma


def test_sparse_support_vectors_are_written(tmp_path, binary, data):
    import scipy.sparse as sp

    X, _ = data
    m = binary.model_
    sparse = BudgetedModel(sp.csr_matrix(m.support_vectors), m.coef, gamma=m.gamma, classes=m.classes)
    back = read_libsvm_model(write_libsvm_model(sparse, tmp_path / "m.model"))
    np.testing.assert_array_equal(back.support_vectors, m.support_vectors)
    np.testing.assert_array_equal(back.decision_function(X), m.decision_function(X))


def test_read_model_loads_into_an_estimator(tmp_path, data, binary):
    X, _ = data
    model = read_libsvm_model(write_libsvm_model(binary, tmp_path / "m.model"))
    model.save(tmp_path / "m.npz")
    est = BudgetedSVC.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(est.predict(X), binary.predict(X))


# ------------------------------------------------------------ independent readers


def parse_libsvm(path):
    """A plain reading of a binary LIBSVM model file: header dict, coefficients, SV dicts."""
    lines = open(path).read().splitlines()
    cut = lines.index("SV")
    head = {w[0]: w[1:] for w in (line.split() for line in lines[:cut])}
    coef, svs = [], []
    for line in lines[cut + 1:]:
        words = line.split()
        coef.append(float(words[0]))
        svs.append({int(t.split(":")[0]) - 1: float(t.split(":")[1]) for t in words[1:]})
    return head, coef, svs


def brute_kernel(sv, x, head):
    dot = sum(v * x[j] for j, v in sv.items())
    kind = head["kernel_type"][0]
    if kind == "linear":
        return dot
    if kind == "polynomial":                              # LIBSVM's name (svm.cpp's kernel_type_table)
        return (float(head["gamma"][0]) * dot + float(head["coef0"][0])) ** int(head["degree"][0])
    dist = sum(x * x) - 2 * dot + sum(v * v for v in sv.values())
    return np.exp(-float(head["gamma"][0]) * dist)


@pytest.mark.parametrize("index", range(3))
def test_libsvm_file_predicted_independently(tmp_path, index):
    model = kernel_models()[index]
    path = write_libsvm_model(model, tmp_path / "m.model")
    head, coef, svs = parse_libsvm(path)
    assert head["svm_type"] == ["c_svc"] and int(head["total_sv"][0]) == len(coef) == sum(map(int, head["nr_sv"]))
    X = np.random.default_rng(2).normal(size=(40, 4))
    rho, labels = float(head["rho"][0]), [int(v) for v in head["label"]]
    dec = np.array([sum(a * brute_kernel(sv, x, head) for a, sv in zip(coef, svs)) - rho for x in X])
    np.testing.assert_allclose(model.decision_function(X), dec, rtol=1e-12, atol=1e-12)
    expected = np.where(dec > 0, labels[0], labels[1])       # LIBSVM: label[0] when the decision is > 0
    np.testing.assert_array_equal(model.predict(X), expected)


def test_budgetedsvm_file_predicted_independently(tmp_path, multiclass):
    X, est = multiclass
    path = write_budgetedsvm_model(est, tmp_path / "m.txt")
    lines = open(path).read().splitlines()
    head = {line.split(":")[0]: line.split(":")[1].split() for line in lines[:10]}
    labels = [int(v) for v in head["LABELS"]]
    g = float(head["KERNEL_GAMMA_PARAM"][0])
    assert lines[10] == "MODEL:" and int(head["KERNEL_FUNCTION"][0]) == 0 and float(head["BIAS_TERM"][0]) == 0
    rows = [line for line in lines[11:] if line.strip()]
    assert len(rows) == int(head["NUMBER_OF_WEIGHTS"][0])
    scores = np.zeros((len(X), len(labels)))
    for line in rows:
        pairs = [(int(t.split(":")[0]), float(t.split(":")[1])) for t in line.split()]
        sv = np.zeros(X.shape[1])
        for j, v in pairs:
            if j > 0:
                sv[j - 1] = v
        k = np.exp(-0.5 * g * ((X - sv) ** 2).sum(axis=1))   # the toolbox's Gaussian: exp(-g/2 |x - y|^2)
        for j, v in pairs:
            if j < 0:
                scores[:, -j - 1] += v * k
    np.testing.assert_allclose(est.decision_function(X), scores, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(est.predict(X), np.array(labels)[np.argmax(scores, axis=1)])


def test_toolbox_file_without_the_blank_line(tmp_path, binary, data):
    """The toolbox writes no blank line after MODEL:; such a file reads the same."""
    X, _ = data
    path = write_budgetedsvm_model(binary, tmp_path / "m.txt")
    text = path.read_text().replace("MODEL:\n\n", "MODEL:\n")
    assert "MODEL:\n-2:" in text
    (tmp_path / "tool.txt").write_text(text)
    back = read_budgetedsvm_model(tmp_path / "tool.txt")
    np.testing.assert_array_equal(back.decision_function(X), binary.decision_function(X))


# ------------------------------------------------------------ scikit-learn's LIBSVM


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_model_of_sklearn_svc_predicts_as_svc(tmp_path, data, kernel):
    from sklearn.svm import SVC

    X, y = data
    Xtr, Xte = X[:200], X[200:]
    svc = SVC(kernel=kernel, C=10.0, gamma=3.0, degree=3, coef0=0.5).fit(Xtr, y[:200])
    # LIBSVM's own convention: label[0] is predicted when sum coef k - rho > 0; scikit-learn negates
    # dual_coef_ and intercept_ of binary models so that a positive decision means classes_[1].
    name = {"poly": "polynomial"}.get(kernel, kernel)                # LIBSVM's kernel_type names
    head = ["svm_type c_svc", f"kernel_type {name}", "degree 3", "gamma 3.0", "coef0 0.5", "nr_class 2",
            f"total_sv {len(svc.support_)}", f"rho {float(svc.intercept_[0])!r}",
            f"label {svc.classes_[0]} {svc.classes_[1]}", f"nr_sv {svc.n_support_[0]} {svc.n_support_[1]}", "SV"]
    body = [f"{-float(a)!r} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(sv))
            for a, sv in zip(svc.dual_coef_[0], svc.support_vectors_)]
    (tmp_path / "svc.model").write_text("\n".join(head + body) + "\n")
    model = read_libsvm_model(tmp_path / "svc.model")
    np.testing.assert_array_equal(model.predict(Xte), svc.predict(Xte))
    np.testing.assert_array_equal(model.predict(Xtr), svc.predict(Xtr))
    np.testing.assert_allclose(-model.decision_function(Xte), svc.decision_function(Xte), rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------ refusals and bad files


def test_what_a_format_cannot_hold_is_refused(tmp_path, multiclass):
    _, est = multiclass
    with pytest.raises(ValueError, match="one-vs-one"):
        write_libsvm_model(est, tmp_path / "m.model")
    with pytest.raises(ValueError, match="no bias term"):
        write_budgetedsvm_model(kernel_models()[0], tmp_path / "m.txt")
    poly = kernel_models()[2]
    with pytest.raises(ValueError, match="gamma=0.5"):
        write_budgetedsvm_model(BudgetedModel(poly.support_vectors, poly.coef, kernel="poly", gamma=0.5,
                                              classes=poly.classes), tmp_path / "m.txt")
    m = kernel_models()[0]
    with pytest.raises(ValueError, match="integer labels"):
        write_libsvm_model(BudgetedModel(m.support_vectors, m.coef, classes=np.array(["a", "b"])), tmp_path / "x")
    with pytest.raises(TypeError, match="model_or_estimator"):
        write_libsvm_model(object(), tmp_path / "x")
    assert not (tmp_path / "x").exists()


def corrupt(tmp_path, text, old, new):
    """The file ``text`` with ``old`` replaced by ``new`` (a tuple each: several replacements)."""
    path = tmp_path / "bad.model"
    for o, n in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        assert o in text
        text = text.replace(o, n, 1)
    path.write_text(text)
    return path


LIBSVM_CASES = [("svm_type c_svc", "hello world", "line 1"),
                ("rho -0.25\n", "", "missing header field 'rho'"),
                (("total_sv 12", "nr_sv 6 6\n"), ("total_sv 13", ""), "13 but 12 support-vector lines"),
                ("nr_sv 6 6", "nr_sv 7 6", "sum to total_sv 12"),
                ("nr_sv", "nr_sv 1 1 #", "nr_sv must have 2 values"),
                ("nr_class 2", "nr_class 3", "one-vs-one"),
                ("kernel_type rbf", "kernel_type sigmoid", "no refsvm kernel"),
                ("gamma 0.37", "gamma abc", "gamma must be a number"),
                ("\nSV\n", "\n", "'SV' line"),
                (("total_sv 12", "nr_sv 6 6\n", "SV\n"), ("total_sv 13", "", "SV\n1.0 1:x\n"),
                 "line 9: a value must be"),
                ("SV\n", "SV\n1.0 1:2\n", "line 22: total_sv is 12 but 13")]


@pytest.mark.parametrize("old, new, message", LIBSVM_CASES)
def test_bad_libsvm_files(tmp_path, old, new, message):
    text = write_libsvm_model(kernel_models()[0], tmp_path / "good.model").read_text()
    path = corrupt(tmp_path, text, old, new)
    with pytest.raises(ModelFileError, match=message) as info:
        read_libsvm_model(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    assert "line" in str(info.value) or "end of file" in str(info.value)


BUDGETED_CASES = [("ALGORITHM: 4", "ALGORITHM: 3", "not BSGD"),
                  ("DIMENSION: 2\n", "", "expected 'DIMENSION:'"),
                  ("NUMBER_OF_WEIGHTS: 20", "NUMBER_OF_WEIGHTS: 21", "21 but 20 support-vector lines"),
                  ("LABELS: 3 7", "LABELS: 3", "LABELS must have 2 values"),
                  ("KERNEL_FUNCTION: 0", "KERNEL_FUNCTION: 4", "no refsvm kernel"),
                  ("BIAS_TERM: 0.0", "BIAS_TERM: 1.0", "no bias term"),
                  ("-2:", "-5:", "coefficients are -1..-2")]


@pytest.mark.parametrize("old, new, message", BUDGETED_CASES)
def test_bad_budgetedsvm_files(tmp_path, binary, old, new, message):
    text = write_budgetedsvm_model(binary, tmp_path / "good.txt").read_text()
    path = corrupt(tmp_path, text, old, new)
    with pytest.raises(ModelFileError, match=message) as info:
        read_budgetedsvm_model(path)
    assert str(path) in str(info.value) and "line" in str(info.value) and "\n" not in str(info.value)


def test_format_detection(tmp_path, binary):
    binary.save(tmp_path / "m.npz")
    write_libsvm_model(binary, tmp_path / "m.model")
    write_budgetedsvm_model(binary, tmp_path / "m.txt")
    assert [detect_model_format(tmp_path / n) for n in ("m.npz", "m.model", "m.txt")] == \
        ["refsvm", "libsvm", "budgetedsvm"]
    (tmp_path / "junk").write_text("1 1:0.5\n")
    with pytest.raises(ModelFileError, match="not a model file"):
        read_any_model(tmp_path / "junk")


# ------------------------------------------------------------ refsvm convert


def test_convert_command_round_trip(tmp_path, data, binary, capsys):
    X, _ = data
    binary.save(tmp_path / "m.npz")
    assert main(["convert", str(tmp_path / "m.npz"), str(tmp_path / "m.model"), "--to", "libsvm"]) == 0
    assert main(["convert", str(tmp_path / "m.model"), str(tmp_path / "m.txt"), "--to", "budgetedsvm"]) == 0
    assert main(["convert", str(tmp_path / "m.txt"), str(tmp_path / "back"), "--to", "refsvm"]) == 0
    est = BudgetedSVC.load(tmp_path / "back.npz", backend="python")
    np.testing.assert_array_equal(est.decision_function(X), binary.decision_function(X))
    assert "libsvm" in capsys.readouterr().out


def test_convert_command_errors(tmp_path, multiclass, capsys):
    _, est = multiclass
    est.save(tmp_path / "multi.npz")
    with pytest.raises(SystemExit) as info:                 # refused like an invalid value: status 2
        main(["convert", str(tmp_path / "multi.npz"), str(tmp_path / "m.model"), "--to", "libsvm"])
    assert info.value.code == 2
    assert "one-vs-one" in capsys.readouterr().err
    (tmp_path / "bad.model").write_text("svm_type c_svc\nkernel_type rbf\n")
    assert main(["convert", str(tmp_path / "bad.model"), str(tmp_path / "o"), "--to", "refsvm"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("refsvm convert: error:") and "bad.model" in err and "\n" not in err
    with pytest.raises(SystemExit) as info:
        main(["convert", "a", "b", "--to", "weka"])
    assert info.value.code == 2


def test_toolbox_style_two_class_file(tmp_path):
    """A two-class file as the toolbox trains it (both classes' coefficients nonzero, no blank line after
    MODEL:, 10-decimal numbers): refsvm's decision is class 2's score minus class 1's, its prediction the
    toolbox's argmax (class 1 on ties)."""
    rng = np.random.default_rng(5)
    sv, alpha = np.round(rng.normal(size=(8, 3)), 10), np.round(rng.normal(size=(8, 2)), 10)
    lines = ["ALGORITHM: 4", "DIMENSION: 3", "NUMBER_OF_CLASSES: 2", "LABELS: 1 -1", "NUMBER_OF_WEIGHTS: 8",
             "BIAS_TERM: 0.000000", "KERNEL_FUNCTION: 0", "KERNEL_GAMMA_PARAM: 0.800000",
             "KERNEL_DEGREE_PARAM: 2.000000", "KERNEL_COEF_PARAM: 0.000000", "MODEL:"]
    lines += [f"-1:{a[0]:2.10f} -2:{a[1]:2.10f} " + " ".join(f"{j + 1}:{v:2.10f}" for j, v in enumerate(x))
              for a, x in zip(alpha, sv)]
    (tmp_path / "tool.txt").write_text("\n".join(lines) + "\n")
    model = read_budgetedsvm_model(tmp_path / "tool.txt")
    X = rng.normal(size=(60, 3))
    K = np.exp(-0.5 * 0.8 * ((X[:, None, :] - sv[None]) ** 2).sum(axis=2))
    scores = K @ alpha
    np.testing.assert_allclose(model.decision_function(X), scores[:, 1] - scores[:, 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), np.array([1, -1])[np.argmax(scores, axis=1)])


def test_models_the_formats_cannot_hold_are_refused_by_convert(tmp_path, data, binary, capsys):
    """A random-feature model and a model of standardised features have no LIBSVM / BudgetedSVM form."""
    from refsvm import FOGDClassifier
    from refsvm.io.model_file import add_standardization

    X, y = data
    FOGDClassifier(n_components=20, random_state=0).fit(X, y).save(tmp_path / "fogd.npz")
    assert main(["convert", str(tmp_path / "fogd.npz"), str(tmp_path / "o"), "--to", "libsvm"]) == 1
    assert "fogd.npz" in capsys.readouterr().err
    binary.save(tmp_path / "std.npz")
    add_standardization(tmp_path / "std.npz", X.mean(axis=0), X.std(axis=0))
    assert main(["convert", str(tmp_path / "std.npz"), str(tmp_path / "o"), "--to", "budgetedsvm"]) == 1
    assert "standardised" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
