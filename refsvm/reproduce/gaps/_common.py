"""What the family modules of :mod:`refsvm.reproduce.gaps` share: how a reason cites a companion run, and a
text two families quote."""


def _cites(run, row, ours, paper, via=None):
    """What a companion run measured: ``via`` (default: the same row) gives ``ours`` where the paper has
    ``paper`` (``run``: the table's name; its text results file)."""
    quoted = f"the row {via!r}" if via else "the row"
    return f"{quoted} gives {ours} where the paper has {paper} ({run}, benchmarks/results/reproduce_{run}.txt)"

_ADULT_OFFSET = ("the paper's cross-validated (C, sigma) are not printed; with Glasmachers & Qaadan's gamma = 2^-7 every "
                 "a9a kernel value is in [0.80, 1], each step moves the decision function like a bias and the last "
                 "iterate's offset wanders (best-offset accuracy 84.3-84.4 % on every seed; refit_bias='scaled' "
                 "recovers it, docs/refit)")
