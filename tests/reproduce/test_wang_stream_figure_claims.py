"""refsvm reproduce: what docs/evidence-wang.rst says of Wang et al.'s Figures 4 and 5 as run (accuracy along the
streams) and of Figure 3's binary sets (five passes against one), against the committed 20-seed results."""

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
if not (ROOT / "benchmarks").is_dir():
    pytest.skip("benchmarks/ is not in this tree (an installed package)", allow_module_level=True)


def _accuracy(figure):
    """``{(dataset, row): (accuracy % per seed x checkpoint, checkpoints)}`` of the committed run."""
    data = json.loads((RESULTS / f"reproduce_wang2012-figure{figure}.json").read_text())
    out = {}
    for r in data["rows"]:
        if r.get("available"):
            streams = [np.array(s["stream"], dtype=float) for s in r["per_seed"]]
            out[(r["dataset"], r["algorithm"])] = (np.array([100 - s[:, 2] for s in streams]), streams[0][:, 0])
    return out, data["seeds"]


def test_figure5_shapes():
    """Figure 5 (B = 100), over the 20 seeds: removal on Checkerboard gains at first and ends below its early
    peak; on Waveform merging is ahead of projection at 100,000 examples in every seed, but 8 of the 20 orders
    lose more than 2 points between 300,000 and 1M examples and it ends ahead in only half of them; on
    Covertype merging ends ahead of projection in all but one seed."""
    acc, seeds = _accuracy(5)
    assert seeds == 20
    remove, n = acc[("Checkerboard", "BPegasos+remove B=100")]
    mean = remove.mean(0)
    assert mean[1] > mean[0] + 3 and mean[-1] < mean.max() - 3
    merge, n = acc[("Waveform", "BPegasos+merge B=100")]
    project, _ = acc[("Waveform", "BPegasos+project B=100")]
    i100, i300 = list(n).index(100_000), list(n).index(300_000)
    assert np.all(merge[:, i100] > project[:, i100])
    assert np.sum(merge[:, i300] - merge[:, -1] > 2) == 8
    assert np.sum(merge[:, -1] > project[:, -1]) == 10
    cm, _ = acc[("Covertype", "BPegasos+merge B=100")]
    cp, _ = acc[("Covertype", "BPegasos+project B=100")]
    assert np.sum(cm[:, -1] > cp[:, -1]) == 19


def test_waveform_long_stream_with_the_authors_tolerance_keeps_merging():
    """On wang2012-table5-waveform-long's 1M-row stream (lambda = 1e-4, B = 100) every seed with the authors'
    golden-section tolerance (1e-4) errs less than every seed with the tables' 0.01, and its spread is about a
    ninth of theirs: the late loss of Figure 5's merging row goes with the tolerance."""
    rows = {r["algorithm"]: [s["error"] for s in r["per_seed"]] for r in json.loads(
        (RESULTS / "reproduce_wang2012-table5-waveform-long.json").read_text())["rows"]}
    coarse, fine = rows["BPegasos+merge B=100 C=0.01"], rows["BPegasos+merge B=100 C=0.01 eps=1e-4"]
    assert max(fine) < min(coarse)
    assert np.std(fine, ddof=1) <= 0.12 * np.std(coarse, ddof=1)


def test_figure4_shapes():
    """Figure 4, means over the 20 seeds: on Checkerboard merging follows Pegasos (within half a point at 10,000
    examples) and ends above its stopped run at both budgets; on Covertype it trails Pegasos; on Waveform it does
    not grow faster than Pegasos at the same number of examples (10,000 and 30,000), ends above Pegasos's stopped
    run at B = 500 and below it at B = 100."""
    acc, seeds = _accuracy(4)
    assert seeds == 20
    peg = "Pegasos (no budget, first 50,000 examples)"

    def mean_at(ds, row, n):
        a, ns = acc[(ds, row)]
        return a.mean(0)[list(ns).index(n)] if n is not None else a.mean(0)[-1]

    for b in (100, 500):
        row = f"BPegasos+merge B={b}"
        assert abs(mean_at("Checkerboard", row, 10_000) - mean_at("Checkerboard", peg, 10_000)) < 0.5
        assert mean_at("Checkerboard", row, None) > mean_at("Checkerboard", peg, None)
        assert mean_at("Covertype", row, None) < mean_at("Covertype", peg, None)
        for n in (10_000, 30_000):
            assert mean_at("Waveform", row, n) - mean_at("Waveform", peg, n) < 0.2
    assert mean_at("Waveform", "BPegasos+merge B=500", None) > mean_at("Waveform", peg, None)
    assert mean_at("Waveform", "BPegasos+merge B=100", None) < mean_at("Waveform", peg, None)


def test_figure4_and_5_share_the_merging_runs_at_b100():
    """The docs call Figure 4's BPegasos+merge B=100 curves Figure 5's runs: the same per-seed accuracies."""
    four, _ = _accuracy(4)
    five, _ = _accuracy(5)
    for ds in ("Checkerboard", "Waveform", "Covertype"):
        assert np.array_equal(four[(ds, "BPegasos+merge B=100")][0], five[(ds, "BPegasos+merge B=100")][0])


def test_figure3_binary_claims():
    """Figure 3's binary sets (B = 500 merging, one pass against five): five passes raise the mean accuracy on IJCNN
    and Checkerboard and narrow their spread; on Adult they raise the median but not the mean, and the spread grows
    (a few orders end far lower after five passes)."""
    data = json.loads((RESULTS / "reproduce_wang2012-figure3-binary.json").read_text())
    assert data["seeds"] == 20 and not data["quick"]
    acc = {(r["dataset"], r["algorithm"].split(", ")[1]): 100 - np.array([s["error"] for s in r["per_seed"]])
           for r in data["rows"]}
    for ds in ("IJCNN", "Checkerboard"):
        one, five = acc[(ds, "1 pass")], acc[(ds, "5 passes")]
        assert five.mean() > one.mean() and five.std() < one.std(), ds
    one, five = acc[("Adult", "1 pass")], acc[("Adult", "5 passes")]
    assert np.median(five) > np.median(one) and five.mean() < one.mean() and five.std() > one.std()
    assert np.sum(five < one.min()) >= 2                 # orders that end below every one-pass run


def test_figure3_banana_gauss_claims():
    """Figure 3 on Banana and Gauss: five passes raise the mean accuracy and narrow the spread on both; the one-pass
    rows are wang2012-table3-all's BPegasos+merge B=500 runs, seed for seed (the same runner, settings and data)."""
    data = json.loads((RESULTS / "reproduce_wang2012-figure3-banana-gauss.json").read_text())
    base = json.loads((RESULTS / "reproduce_wang2012-table3-all.json").read_text())
    assert data["seeds"] == 20 and not data["quick"]
    err = {(r["dataset"], r["algorithm"].split(", ")[1]): np.array([s["error"] for s in r["per_seed"]])
           for r in data["rows"]}
    for ds in ("Banana", "Gauss"):
        one, five = err[(ds, "1 pass")], err[(ds, "5 passes")]
        assert five.mean() < one.mean() and five.std() < one.std(), ds
        row = next(r for r in base["rows"] if r["dataset"] == ds and r["algorithm"] == "BPegasos+merge B=500")
        assert np.array_equal(one, [s["error"] for s in row["per_seed"]]), ds
