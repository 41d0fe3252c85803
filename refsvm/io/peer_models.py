"""Models in the formats of the field's tools: LIBSVM and BudgetedSVM (issue 34).

Both formats hold a kernel expansion, which is what a :class:`refsvm.model.BudgetedModel`
is; the functions here translate, and refuse what one side cannot express.

**LIBSVM's model file** (``svm-train``'s output; described from LIBSVM's ``svm.cpp``).  A
header of ``key value...`` lines, then a line ``SV`` and one line per support vector:

- ``svm_type`` (``c_svc`` or ``nu_svc``: classification; the regression and one-class
  types are refused), ``kernel_type`` (``linear``, ``rbf`` ``exp(-gamma |u-v|^2)``,
  ``polynomial`` ``(gamma u.v + coef0)^degree`` -- refsvm's ``"linear"``, ``"rbf"`` and
  ``"poly"`` exactly; ``sigmoid`` and ``precomputed`` are refused), ``degree``, ``gamma``, ``coef0`` (as the kernel needs),
  ``nr_class``, ``total_sv``, ``rho`` (one per pair of classes), ``label`` (the class labels,
  integers), ``nr_sv`` (support vectors per class, summing to ``total_sv``); ``probA``,
  ``probB`` and ``prob_density_marks`` (probability outputs) are read and ignored.
- each support-vector line: ``nr_class - 1`` coefficients, then ``index:value`` pairs
  (1-based feature indices; absent features are 0).

A binary LIBSVM model predicts ``label[0]`` when ``sum_i coef_i k(x_i, x) - rho > 0``, else
``label[1]``: refsvm's binary model with ``coef``, ``bias = -rho`` and
``classes = [label[1], label[0]]`` (refsvm predicts ``classes[1]`` when ``f > 0``).  For two
classes the grouping of the lines by ``nr_sv`` does not enter the decision value; refsvm
writes the support vectors in its own order (so the decision values survive bitwise) with
``nr_sv`` = (number of positive coefficients, the rest).  **Not expressible**: LIBSVM's
multi-class models are one-vs-one votes of ``k(k-1)/2`` binary machines; refsvm's
multi-class models are ``argmax`` over one expansion per class.  Neither is the other, so
multi-class models are refused in both directions (write refsvm's multi-class models in
BudgetedSVM's format).  A refit model (scaled coefficients and a bias) is an expansion plus
a bias and is written as is.

**BudgetedSVM's BSGD model file** (``budgetedsvm-train -A 4``'s output; described from the
toolbox's ``bsgd.cpp`` by Djuric, Lan, Vucetic and Wang).  Ten header lines in this order,
each ``KEY: value``: ``ALGORITHM`` (4 = BSGD; the toolbox's other algorithms store other
models and are refused), ``DIMENSION``, ``NUMBER_OF_CLASSES``, ``LABELS`` (that many
integers), ``NUMBER_OF_WEIGHTS`` (the number of support vectors), ``BIAS_TERM`` (0: BSGD
has no bias), ``KERNEL_FUNCTION`` (0 Gaussian ``exp(-KERNEL_GAMMA_PARAM/2 |u-v|^2)``,
2 polynomial ``(u.v + KERNEL_COEF_PARAM)^KERNEL_DEGREE_PARAM``, 3 linear; 1 exponential,
4 sigmoid and 5 user-defined are refused), ``KERNEL_GAMMA_PARAM``, ``KERNEL_DEGREE_PARAM``,
``KERNEL_COEF_PARAM``; then ``MODEL:`` and one line per support vector: its coefficients as
``-j:alpha`` (class ``j``, 1-based, nonzero ones only), then its features ``i:value``.  The
model predicts the class ``j`` of the largest ``sum_i alpha_ij k(x_i, x)`` (first on ties),
for two classes too.  Hence refsvm's ``gamma`` is half the file's (the file gets ``2 gamma``;
the halving on reading is exact); a binary refsvm model becomes class 2's column (class 1's
zero), and a two-class file becomes ``coef = alpha_2 - alpha_1``, ``classes = [l_1, l_2]``
(ties: both sides predict ``l_1``).  **Not expressible**: a nonzero bias (refused; LIBSVM's
format holds it for binary models) and a polynomial kernel with ``gamma != 1``.  The
toolbox's reader skips one character after ``MODEL:`` (on Linux it eats the first support
vector's first character), so refsvm writes a blank line there, and skips a blank line there on
reading; the
toolbox stores features, coefficients and ``gamma`` as 32-bit floats when it loads a file,
refsvm reads the decimal numbers as doubles.

Numbers are written with Python's ``repr`` (the shortest decimal that reads back to the same
double), so refsvm -> file -> refsvm gives bitwise the same model and decision values.
Every problem in a file raises :class:`refsvm.model.ModelFileError` (a ``ValueError``) of
one line naming the file and the line.
"""

import os
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._files import atomic_temp
from .model_file import ModelFileError

__all__ = ["write_libsvm_model", "read_libsvm_model", "write_budgetedsvm_model",
           "read_budgetedsvm_model", "read_any_model", "detect_model_format"]

#: BudgetedSVM's codes: ALGORITHM of BSGD, and KERNEL_FUNCTION of the kernels refsvm shares with it.
BSGD_ALGORITHM = 4
BUDGETEDSVM_KERNELS = {0: "rbf", 2: "poly", 3: "linear"}
_BUDGETEDSVM_HEADER = ("ALGORITHM", "DIMENSION", "NUMBER_OF_CLASSES", "LABELS", "NUMBER_OF_WEIGHTS",
                       "BIAS_TERM", "KERNEL_FUNCTION", "KERNEL_GAMMA_PARAM", "KERNEL_DEGREE_PARAM",
                       "KERNEL_COEF_PARAM")
#: LIBSVM's kernel_type names of refsvm's kernels.
LIBSVM_KERNELS = {"linear": "linear", "rbf": "rbf", "poly": "polynomial"}
_LIBSVM_KEYS = ("svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho",
                "label", "probA", "probB", "prob_density_marks", "nr_sv")


# ------------------------------------------------------------ shared pieces


def _model_of(obj, fmt):
    """The :class:`BudgetedModel` of ``obj`` (a model, or a fitted estimator holding one in ``model_``)."""
    from ..model import BudgetedModel

    model = obj if isinstance(obj, BudgetedModel) else getattr(obj, "model_", None)
    if not isinstance(model, BudgetedModel):
        raise TypeError(f"model_or_estimator must be a refsvm BudgetedModel or a fitted estimator whose "
                        f"model_ is one (a kernel expansion); got {type(obj).__name__} "
                        f"(random-feature and Nystroem models have no {fmt} form)")
    return model


def _integer_labels(classes, fmt):
    """``classes`` as Python ints; ValueError when a label is not an integer (both formats store ints)."""
    classes = np.asarray(classes)
    if classes.dtype.kind in "iub":
        return [int(c) for c in classes]
    if classes.dtype.kind == "f" and np.all(np.isfinite(classes)) and np.all(classes == np.round(classes)):
        return [int(c) for c in classes]
    raise ValueError(f"classes must be integer labels to be written in {fmt}'s format; got {classes!r}")


def _num(x):
    """``x`` as the shortest decimal that reads back to the same double (``-0.0`` written as ``0.0``)."""
    return repr(float(x) + 0.0)


def _sv_tokens(sv):
    """For every support vector, its nonzero features as ``index:value`` tokens (1-based)."""
    if sp.issparse(sv):
        sv = sp.csr_matrix(sv)
        for r in range(sv.shape[0]):
            lo, hi = sv.indptr[r], sv.indptr[r + 1]
            order = np.argsort(sv.indices[lo:hi], kind="stable")
            yield [f"{int(j) + 1}:{_num(v)}" for j, v in zip(sv.indices[lo:hi][order], sv.data[lo:hi][order])
                   if v != 0.0]
    else:
        for row in sv:
            yield [f"{int(j) + 1}:{_num(row[j])}" for j in np.flatnonzero(row)]


def _write_text(path, text):
    """Write ``text`` to ``path`` atomically (temporary file and rename); return the path."""
    path = Path(os.fspath(path))
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a directory; give a file name for the model")
    try:
        fd, tmp = atomic_temp(path.parent if str(path.parent) else Path("."), f".{path.name}.", ".part")
    except OSError as exc:
        raise OSError(exc.errno, f"{path}: cannot write the model ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class _Lines:
    """The lines of a text model file, with errors naming the file and the line."""

    def __init__(self, path):
        self.path = Path(os.fspath(path))
        if not self.path.exists():
            raise FileNotFoundError(f"model file not found: {self.path}")
        if self.path.is_dir():
            raise ModelFileError(f"{self.path}: is a directory, not a model file")
        with open(self.path, "rb") as fh:
            raw = fh.read()
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise ModelFileError(f"{self.path}: not a text model file (non-ASCII bytes)") from None
        self.lines = text.replace("\r\n", "\n").split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()                        # the newline ending the last line

    def error(self, lineno, message):
        where = f"line {lineno}" if lineno <= len(self.lines) else "end of file"
        return ModelFileError(f"{self.path}, {where}: {message}")

    def number(self, text, lineno, what, kind=float):
        try:
            value = kind(text)
        except ValueError:
            raise self.error(lineno, f"{what} must be {'an integer' if kind is int else 'a number'}; "
                                     f"got {text!r}") from None
        if kind is float and not np.isfinite(value):
            raise self.error(lineno, f"{what} must be finite; got {text!r}")
        return value

    def pairs(self, tokens, lineno):
        """``(index, value)`` of ``index:value`` tokens."""
        out = []
        for tok in tokens:
            index, colon, value = tok.partition(":")
            if not colon:
                raise self.error(lineno, f"expected index:value, got {tok!r}")
            out.append((self.number(index, lineno, "an index", int), self.number(value, lineno, "a value")))
        return out


def _dense_rows(rows, d):
    """The ``(B, d)`` matrix of rows given as lists of ``(0-based index, value)``."""
    S = np.zeros((len(rows), d))
    for r, row in enumerate(rows):
        for j, v in row:
            S[r, j] = v
    return S


def _width(lines, highest, n_features, stated=0):
    """The number of features: ``n_features`` if given (at least the largest index), else the larger of
    the largest index and the file's stated dimension."""
    if n_features is None:
        return max(highest, stated)
    if n_features < highest:
        raise ModelFileError(f"{lines.path}: a support vector has feature {highest}, more than "
                             f"n_features={n_features}")
    return n_features


def _built(lines, **fields):
    """The :class:`BudgetedModel` of ``fields``; its validation errors name the file."""
    from ..model import BudgetedModel

    try:
        return BudgetedModel(**fields)
    except ValueError as exc:
        raise ModelFileError(f"{lines.path}: invalid model: {exc}") from None


# ------------------------------------------------------------ LIBSVM


def write_libsvm_model(model_or_estimator, path):
    """Write a binary kernel-expansion model as a LIBSVM model file (see the module text); return the path.

    ValueError for what LIBSVM's format cannot express: a multi-class model (one-vs-one in LIBSVM,
    argmax over per-class expansions in refsvm) and non-integer labels.
    """
    m = _model_of(model_or_estimator, "LIBSVM")
    if m.coef.shape[1] != 1:
        raise ValueError(
            f"a multi-class refsvm model ({len(m.classes)} classes, argmax over one expansion per class) "
            "cannot be written in LIBSVM's format, whose multi-class models are one-vs-one votes of "
            "binary machines; write it with write_budgetedsvm_model or BudgetedModel.save")
    neg, pos = _integer_labels(m.classes, "LIBSVM")
    coef = m.coef[:, 0]
    head = ["svm_type c_svc", f"kernel_type {LIBSVM_KERNELS[m.kernel]}"]
    if m.kernel == "poly":
        head.append(f"degree {int(m.degree)}")
    if m.kernel in ("rbf", "poly"):
        head.append(f"gamma {_num(m.gamma)}")
    if m.kernel == "poly":
        head.append(f"coef0 {_num(m.coef0)}")
    n_pos = int(np.count_nonzero(coef > 0))
    head += ["nr_class 2", f"total_sv {len(coef)}", f"rho {_num(-m.bias[0])}", f"label {pos} {neg}",
             f"nr_sv {n_pos} {len(coef) - n_pos}", "SV"]
    body = [" ".join([_num(a)] + tokens) for a, tokens in zip(coef, _sv_tokens(m.support_vectors))]
    return _write_text(path, "\n".join(head + body) + "\n")


def _libsvm_header(lines):
    """``{key: (values, line number)}`` of the header and the number of the ``SV`` line."""
    header = {}
    for i, line in enumerate(lines.lines, 1):
        words = line.split()
        if not words:
            continue
        if words == ["SV"]:
            return header, i
        key = words[0]
        if header and ":" in line:
            raise lines.error(i, "a support-vector line before the 'SV' line (is the 'SV' line missing?)")
        if key not in _LIBSVM_KEYS:
            raise lines.error(i, f"unknown LIBSVM model header field {key!r} (not a LIBSVM model file?)"
                              if header else f"a LIBSVM model file starts with 'svm_type'; got {line[:40]!r}")
        if key in header:
            raise lines.error(i, f"header field {key!r} given twice")
        header[key] = (words[1:], i)
    raise lines.error(len(lines.lines) + 1, "no 'SV' line (the header must end with a line 'SV')")


def _field(lines, header, key, count=1, kind=float, end=0):
    """The values of header field ``key``: ``count`` numbers of type ``kind``; a missing field is an error."""
    if key not in header:
        raise lines.error(end, f"missing header field {key!r}")
    words, i = header[key]
    if len(words) != count:
        raise lines.error(i, f"{key} must have {count} value{'s' * (count != 1)}; got {len(words)}")
    values = [lines.number(w, i, key, kind) for w in words]
    return values[0] if count == 1 else values


def read_libsvm_model(path, n_features=None):
    """Read a binary LIBSVM model file (``c_svc`` / ``nu_svc``; linear, rbf, poly) as a
    :class:`refsvm.model.BudgetedModel` (see the module text).

    ``n_features``: the width of the support vectors (default: the largest feature index in the file,
    which LIBSVM's format does not record).  :class:`refsvm.model.ModelFileError` naming the file and
    line for anything refsvm cannot read, including multi-class (one-vs-one) models.
    """
    lines = _Lines(path)
    header, sv_line = _libsvm_header(lines)
    svm_type = _field(lines, header, "svm_type", kind=str, end=sv_line)
    if svm_type not in ("c_svc", "nu_svc"):
        raise lines.error(header["svm_type"][1], f"svm_type {svm_type} is not a classifier; refsvm reads "
                                                 "c_svc and nu_svc models")
    name = _field(lines, header, "kernel_type", kind=str, end=sv_line)
    kernel = {v: k for k, v in LIBSVM_KERNELS.items()}.get(name)
    if kernel is None:
        raise lines.error(header["kernel_type"][1], f"kernel_type {name} has no refsvm kernel (LIBSVM's names of "
                                                    "refsvm's kernels: linear, rbf, polynomial)")
    nr_class = _field(lines, header, "nr_class", kind=int, end=sv_line)
    if nr_class != 2:
        raise lines.error(header["nr_class"][1], f"nr_class {nr_class}: LIBSVM's multi-class models are "
                                                 "one-vs-one votes, which are not a refsvm model (argmax over "
                                                 "one expansion per class); only binary models are read")
    total = _field(lines, header, "total_sv", kind=int, end=sv_line)
    rho = _field(lines, header, "rho", end=sv_line)
    first, second = _field(lines, header, "label", 2, int, end=sv_line)
    if "nr_sv" in header:
        counts = _field(lines, header, "nr_sv", 2, int)
        if min(counts) < 0 or sum(counts) != total:
            raise lines.error(header["nr_sv"][1], f"nr_sv {counts[0]} {counts[1]} must be >= 0 and sum to "
                                                  f"total_sv {total}")
    params = dict(gamma=1.0)
    if kernel in ("rbf", "poly"):
        params["gamma"] = _field(lines, header, "gamma", end=sv_line)
    if kernel == "poly":
        params.update(degree=_field(lines, header, "degree", kind=int, end=sv_line),
                      coef0=_field(lines, header, "coef0", end=sv_line))
    body = [(i, line.split()) for i, line in enumerate(lines.lines[sv_line:], sv_line + 1)]
    while body and not body[-1][1]:
        body.pop()                                  # blank lines at the end
    if len(body) != total:
        raise lines.error(body[total][0] if len(body) > total else len(lines.lines) + 1,
                          f"total_sv is {total} but {len(body)} support-vector lines follow 'SV'")
    coef, rows, highest = np.empty(total), [], 0
    for r, (i, words) in enumerate(body):
        if not words:
            raise lines.error(i, "empty support-vector line (expected a coefficient and index:value pairs)")
        coef[r] = lines.number(words[0], i, "the coefficient")
        pairs = lines.pairs(words[1:], i)
        indices = [j for j, _ in pairs]
        if min(indices, default=1) < 1 or len(set(indices)) != len(indices):
            raise lines.error(i, "feature indices must be distinct integers >= 1")
        highest = max(highest, max(indices, default=0))
        rows.append([(j - 1, v) for j, v in pairs])
    d = _width(lines, highest, n_features)
    return _built(lines, support_vectors=_dense_rows(rows, d), coef=coef.reshape(-1, 1), kernel=kernel,
                  bias=np.array([-rho]), classes=np.array([second, first]), **params)


# ------------------------------------------------------------ BudgetedSVM


def write_budgetedsvm_model(model_or_estimator, path):
    """Write a kernel-expansion model (binary or multi-class) as a BudgetedSVM BSGD model file (see the
    module text); return the path.

    ValueError for what the format cannot express: a nonzero bias, a polynomial kernel with
    ``gamma != 1``, non-integer labels.
    """
    m = _model_of(model_or_estimator, "BudgetedSVM")
    if np.any(m.bias != 0.0):
        raise ValueError(f"BudgetedSVM's BSGD models have no bias term; this model's bias is {m.bias.tolist()} "
                         "(a binary model with a bias can be written in LIBSVM's format)")
    if m.kernel == "poly" and m.gamma != 1.0:
        raise ValueError(f"BudgetedSVM's polynomial kernel is (u.v + coef0)^degree, without gamma; this "
                         f"model has gamma={m.gamma!r} (only gamma=1 can be written)")
    labels = _integer_labels(m.classes, "BudgetedSVM")
    alphas = np.column_stack([np.zeros(len(m.coef)), m.coef]) if m.coef.shape[1] == 1 else m.coef
    kernel_code = {v: k for k, v in BUDGETEDSVM_KERNELS.items()}[m.kernel]
    head = [f"ALGORITHM: {BSGD_ALGORITHM}", f"DIMENSION: {m.support_vectors.shape[1]}",
            f"NUMBER_OF_CLASSES: {len(labels)}", "LABELS: " + " ".join(str(c) for c in labels),
            f"NUMBER_OF_WEIGHTS: {len(alphas)}", "BIAS_TERM: 0.0", f"KERNEL_FUNCTION: {kernel_code}",
            f"KERNEL_GAMMA_PARAM: {_num(2.0 * m.gamma)}", f"KERNEL_DEGREE_PARAM: {_num(m.degree)}",
            f"KERNEL_COEF_PARAM: {_num(m.coef0)}", "MODEL:", ""]   # the blank line: see the module text
    body = [" ".join([f"-{j + 1}:{_num(a)}" for j, a in enumerate(row) if a != 0.0] + tokens)
            for row, tokens in zip(alphas, _sv_tokens(m.support_vectors))]
    return _write_text(path, "\n".join(head + body) + "\n")


def _budgetedsvm_header(lines):
    """``{KEY: (words, line number)}`` of the ten header lines, in the toolbox's order, and ``MODEL:``."""
    header = {}
    for i, key in enumerate(_BUDGETEDSVM_HEADER + ("MODEL",), 1):
        line = lines.lines[i - 1] if i <= len(lines.lines) else None
        if line is None or not line.startswith(key + ":"):
            found = "nothing" if line is None else repr(line[:40])
            hint = " (not a BudgetedSVM model file?)" if i == 1 else ""
            raise lines.error(i, f"expected '{key}:' (BudgetedSVM's header, in its order); got {found}{hint}")
        header[key] = (line[len(key) + 1:].split(), i)
    return header


def read_budgetedsvm_model(path, n_features=None):
    """Read a BudgetedSVM BSGD model file (binary or multi-class; Gaussian, polynomial, linear) as a
    :class:`refsvm.model.BudgetedModel` (see the module text).

    ``n_features``: the width of the support vectors (default: the larger of ``DIMENSION`` and the
    largest feature index).  :class:`refsvm.model.ModelFileError` naming the file and line for
    anything refsvm cannot read.
    """
    lines = _Lines(path)
    header = _budgetedsvm_header(lines)

    def field(key, count=1, kind=float):
        return _field(lines, header, key, count, kind)

    if field("ALGORITHM", kind=int) != BSGD_ALGORITHM:
        raise lines.error(1, f"ALGORITHM {field('ALGORITHM', kind=int)} is not BSGD ({BSGD_ALGORITHM}); the "
                             "toolbox's other algorithms (Pegasos, AMM, LLSVM) are not kernel expansions")
    dimension, n_classes = field("DIMENSION", kind=int), field("NUMBER_OF_CLASSES", kind=int)
    if n_classes < 2 or dimension < 0:
        raise lines.error(3 if n_classes < 2 else 2, "need NUMBER_OF_CLASSES >= 2 and DIMENSION >= 0")
    labels = field("LABELS", n_classes, int)
    budget = field("NUMBER_OF_WEIGHTS", kind=int)
    if budget < 0:
        raise lines.error(5, f"NUMBER_OF_WEIGHTS must be >= 0; got {budget}")
    if field("BIAS_TERM") != 0.0:
        raise lines.error(6, "BIAS_TERM must be 0 (BSGD models have no bias term)")
    code = field("KERNEL_FUNCTION", kind=int)
    if code not in BUDGETEDSVM_KERNELS:
        raise lines.error(7, f"KERNEL_FUNCTION {code} has no refsvm kernel (refsvm reads 0 Gaussian, "
                             "2 polynomial, 3 linear)")
    kernel, gamma, degree = BUDGETEDSVM_KERNELS[code], field("KERNEL_GAMMA_PARAM"), field("KERNEL_DEGREE_PARAM")
    if kernel == "rbf" and gamma <= 0.0:
        raise lines.error(8, f"KERNEL_GAMMA_PARAM must be > 0 for the Gaussian kernel; got {gamma!r}")
    if kernel == "poly" and (degree < 1 or degree != int(degree)):
        raise lines.error(9, f"KERNEL_DEGREE_PARAM must be an integer >= 1 for refsvm's polynomial kernel; "
                             f"got {degree!r}")
    body = [(i, line.split()) for i, line in enumerate(lines.lines[11:], 12)]
    if body and not body[0][1]:
        body.pop(0)                                 # a blank line right after MODEL: (module text)
    while len(body) > budget and not body[-1][1]:
        body.pop()
    if len(body) != budget:
        raise lines.error(body[budget][0] if len(body) > budget else len(lines.lines) + 1,
                          f"NUMBER_OF_WEIGHTS is {budget} but {len(body)} support-vector lines follow 'MODEL:'")
    alphas, rows, highest = np.zeros((budget, n_classes)), [], 0
    for r, (i, words) in enumerate(body):
        row = []
        for j, v in lines.pairs(words, i):
            if j < 0 and -j <= n_classes:
                alphas[r, -j - 1] = v
            elif j > 0:
                row.append((j - 1, v))
                highest = max(highest, j)
            else:
                raise lines.error(i, f"index {j}: coefficients are -1..-{n_classes}, features 1, 2, ...")
        rows.append(row)
    d = _width(lines, highest, n_features, dimension)
    coef = alphas[:, 1:] - alphas[:, :1] if n_classes == 2 else alphas
    return _built(lines, support_vectors=_dense_rows(rows, d), coef=coef, kernel=kernel,
                  gamma=gamma / 2.0 if gamma > 0.0 else 1.0, degree=int(degree) if kernel == "poly" else 3,
                  coef0=field("KERNEL_COEF_PARAM"), bias=np.zeros(coef.shape[1]), classes=np.array(labels))


# ------------------------------------------------------------ any of the three


def detect_model_format(path):
    """``"refsvm"`` (an ``.npz`` archive), ``"libsvm"`` or ``"budgetedsvm"``, from the file's first bytes."""
    path = Path(os.fspath(path))
    if not path.is_file():
        if not path.exists():
            raise FileNotFoundError(f"model file not found: {path}")
        raise ModelFileError(f"{path}: not a regular file")
    with open(path, "rb") as fh:
        start = fh.read(16)
    if start.startswith(b"PK"):
        return "refsvm"
    if start.startswith(b"svm_type"):
        return "libsvm"
    if start.startswith(b"ALGORITHM:"):
        return "budgetedsvm"
    raise ModelFileError(f"{path}, line 1: not a model file of refsvm (.npz), LIBSVM ('svm_type ...') or "
                         f"BudgetedSVM ('ALGORITHM: ...'); it starts with {start!r}")


def read_any_model(path, n_features=None):
    """``(model, format)``: the :class:`BudgetedModel` of a refsvm, LIBSVM or BudgetedSVM model file.

    A refsvm file of standardised features (``refsvm train --standardize``) is refused: the other
    formats cannot hold the standardisation.
    """
    fmt = detect_model_format(path)
    if fmt == "libsvm":
        return read_libsvm_model(path, n_features), fmt
    if fmt == "budgetedsvm":
        return read_budgetedsvm_model(path, n_features), fmt
    from ..model import BudgetedModel
    from .model_file import read_standardization

    if read_standardization(path) is not None:
        raise ModelFileError(f"{path}: the model was trained on standardised features (--standardize); "
                             "LIBSVM and BudgetedSVM model files cannot hold the standardisation")
    return BudgetedModel.load(path), fmt
