#!/usr/bin/env python
"""LIBSVM's usps against the shared (ESL) usps: the blur that maps one onto the other, found and checked.

The shared ``usps`` / ``usps.t`` are ESL's ``zip.train`` / ``zip.test``; LIBSVM's files (the papers' data)
are not in the shared data.  Given a copy of (a prefix of the rows of) one of LIBSVM's files, outside this
repository (``--libsvm PATH``, LIBSVM format, labels 1..10), this script:

1. checks that its labels are the shared split's labels + 1, row for row;
2. fits a free 7 x 7 linear filter and an offset (50 numbers, least squares over every pixel) to the first half
   of the rows, each LIBSVM pixel against the 7 x 7 ESL neighbourhood (background -1 beyond the border), and
   reports its error on the second half;
3. compares the fitted weights with :func:`refsvm.io.usps.usps_blur_weights` (sigma = 0.75, radius 3) and
   prints the log ratios of neighbouring centre-row weights, which a Gaussian makes a^2 / (2 sigma^2);
4. compares :func:`refsvm.io.usps.libsvm_usps_pixels` (the closed form, six decimals) with every value of the file;
5. reports the mean squared distance between images on both files (all pairs of the rows), their ratio.

Run
``python benchmarks/bench_usps_libsvm.py --libsvm /path/to/usps.t --split usps.t --source "..."``.
"""

import argparse
import hashlib
import os
import shlex
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from _common import SHARED_NOTE, print_run_header, write_json  # noqa: E402

MODULES = ["refsvm.io.usps", "refsvm.io.datasets", "refsvm.io.libsvm"]
SIDE = 16


def neighbourhoods(X, radius, background=-1.0):
    """``(n, 256, (2 radius + 1)^2)``: each pixel's square neighbourhood, ``background`` beyond the border."""
    images = np.pad(X.reshape(-1, SIDE, SIDE), ((0, 0), (radius, radius), (radius, radius)),
                    constant_values=background)
    width = 2 * radius + 1
    cols = [images[:, dy:dy + SIDE, dx:dx + SIDE].reshape(len(X), -1) for dy in range(width) for dx in range(width)]
    return np.stack(cols, -1)


def fit_filter(X_esl, X_libsvm, radius):
    """Least-squares filter (weights, offset) on the first half of the rows; max and rms error on the second."""
    half = len(X_esl) // 2
    A = neighbourhoods(X_esl, radius)
    design = lambda rows: np.hstack([A[rows].reshape(-1, A.shape[-1]), np.ones((len(A[rows]) * SIDE * SIDE, 1))])  # noqa: E731
    coef, *_ = np.linalg.lstsq(design(slice(0, half)), X_libsvm[:half].reshape(-1), rcond=None)
    err = design(slice(half, None)) @ coef - X_libsvm[half:].reshape(-1)
    width = 2 * radius + 1
    return coef[:-1].reshape(width, width), float(coef[-1]), float(np.abs(err).max()), float(np.sqrt(np.mean(err ** 2)))


def mean_squared_distance(X):
    """The mean of ||x_i - x_j||^2 over all pairs i < j."""
    sq = (X * X).sum(1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    iu = np.triu_indices(len(X), 1)
    return float(d2[iu].mean())


def main(argv=None):
    from sklearn.datasets import load_svmlight_file

    from refsvm.io.datasets import load_libsvm
    from refsvm.io.usps import USPS_BLUR_RADIUS, USPS_BLUR_SIGMA, libsvm_usps_pixels, usps_blur_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--libsvm", required=True, help="LIBSVM's usps or usps.t (or a prefix of its rows)")
    ap.add_argument("--split", choices=("usps", "usps.t"), required=True, help="which split the file is")
    ap.add_argument("--source", required=True, help="where the file came from (printed and recorded)")
    ap.add_argument("--json")
    ap.add_argument("--output")
    args = ap.parse_args(argv)
    print_run_header("benchmarks/bench_usps_libsvm.py", argv)

    raw = open(args.libsvm, "rb").read()
    X_lib, y_lib = load_svmlight_file(args.libsvm, n_features=SIDE * SIDE)
    X_lib = X_lib.toarray()
    X_tr, y_tr, X_te, y_te = load_libsvm("usps")
    X_esl, y_esl = (X_tr, y_tr) if args.split == "usps" else (X_te, y_te)
    n = len(y_lib)
    X_esl, y_esl = X_esl[:n], y_esl[:n]
    labels_match = bool(np.array_equal(y_lib - 1, y_esl))

    fits = {}
    for radius in (1, 2, 3, 4):
        weights, offset, max_err, rms_err = fit_filter(X_esl, X_lib, radius)
        fits[radius] = dict(max_error=max_err, rms_error=rms_err, offset=offset, weight_sum=float(weights.sum()),
                            weights=weights.tolist())
    w3 = np.asarray(fits[USPS_BLUR_RADIUS]["weights"])
    closed = np.outer(usps_blur_weights(), usps_blur_weights())
    centre = w3[USPS_BLUR_RADIUS]
    log_ratios = [float(np.log(centre[USPS_BLUR_RADIUS] / centre[USPS_BLUR_RADIUS + a]))
                  for a in range(1, USPS_BLUR_RADIUS + 1)]
    gaussian_log_ratios = [a * a / (2 * USPS_BLUR_SIGMA ** 2) for a in range(1, USPS_BLUR_RADIUS + 1)]

    ours = libsvm_usps_pixels(X_esl)
    diff = np.abs(ours - X_lib)
    msd_esl, msd_lib = mean_squared_distance(X_esl), mean_squared_distance(X_lib)
    result = dict(
        file=dict(path=os.path.basename(args.libsvm), split=args.split, source=args.source, rows=n,
                  sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw)),
        labels_match=labels_match,
        fits={str(r): {k: v for k, v in f.items() if k != "weights" or r == USPS_BLUR_RADIUS} for r, f in fits.items()},
        fitted_vs_closed_form_max=float(np.abs(w3 - closed).max()),
        log_ratios=log_ratios, gaussian_log_ratios=gaussian_log_ratios,
        closed_form=dict(sigma=USPS_BLUR_SIGMA, radius=USPS_BLUR_RADIUS, max_abs_difference=float(diff.max()),
                         share_equal=float(np.mean(diff == 0.0)), values=int(diff.size)),
        mean_squared_distance=dict(esl=msd_esl, libsvm=msd_lib, ratio=msd_lib / msd_esl),
    )
    lines = [f"file    : {result['file']['path']} ({args.split}, first {n} rows; sha256 {result['file']['sha256']}); "
             f"source: {args.source}",
             f"labels  : LIBSVM label - 1 equals the shared {args.split}'s label on every row: {labels_match}",
             "", "free filter fitted on the first half of the rows, error on the second half:",
             "radius  window  max |error|     rms error       offset       sum of weights"]
    for r, f in fits.items():
        lines.append(f"{r:6d}  {2 * r + 1}x{2 * r + 1:<5d} {f['max_error']:.3e}     {f['rms_error']:.3e}    "
                     f"{f['offset']:+.2e}    {f['weight_sum']:.9f}")
    lines += ["", f"radius-{USPS_BLUR_RADIUS} weights against the Gaussian (sigma = {USPS_BLUR_SIGMA}, normalised over "
                  f"the window): max |difference| {result['fitted_vs_closed_form_max']:.2e}",
              "log ratio of the centre weight to its neighbours at a = 1, 2, 3: "
              + ", ".join(f"{v:.6f}" for v in log_ratios) + "  (Gaussian a^2 / (2 sigma^2): "
              + ", ".join(f"{v:.6f}" for v in gaussian_log_ratios) + ")",
              "", f"closed form (refsvm.io.usps.libsvm_usps_pixels, 6 decimals) against the file's {diff.size} values: "
                  f"max |difference| {diff.max():.1e}, equal {100 * result['closed_form']['share_equal']:.1f} %",
              f"mean squared distance between images (all pairs): shared (ESL) {msd_esl:.3f}, LIBSVM {msd_lib:.3f}, "
              f"ratio {msd_lib / msd_esl:.3f}"]
    text = "\n".join(lines)
    print(text)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("command: python benchmarks/bench_usps_libsvm.py "
                     + shlex.join(sys.argv[1:] if argv is None else argv) + f"\n{SHARED_NOTE}\n\n{text}\n")
    write_json(args.json, result, MODULES, note=SHARED_NOTE)


if __name__ == "__main__":
    main()
