"""The description of a paper's table for ``refsvm reproduce``: its data sets, rows and numbers."""

from dataclasses import dataclass, field

__all__ = ["Entry", "Dataset", "Table"]


@dataclass
class Entry:
    """One row of a paper's table."""

    label: str                      #: name in the paper
    runner: str = None              #: "module:function"; None = not yet available in refsvm
    params: dict = field(default_factory=dict)   #: fixed keyword arguments (callables get the data size n)
    grid: dict = field(default_factory=dict)     #: parameter -> values tried (best mean reported)
    note: str = ""                  #: e.g. why it is not available
    per_dataset: dict = field(default_factory=dict)  #: data label -> parameters for that data set only
    #: how a grid point is chosen: "mean" = the best mean error of the reported runs (the online tables, where
    #: the papers tuned on the reported runs); "cv5" = 5-fold cross-validation on the training split (seed 0),
    #: the reported runs then use the chosen point only ("split" protocol)
    select: str = "mean"
    #: another row's label: this row runs at the grid point that row's ``select="cv5"`` chose on the same data
    #: set (that row is cross-validated even when not selected); the row itself runs no CV
    tuned_by: str = None


@dataclass
class Dataset:
    """A data set as a table uses it."""

    label: str                      #: name in the paper
    file: str                       #: stem for refsvm.datasets.load_libsvm
    protocol: str = "stream"        #: "stream": train+test concatenated, one online pass; "split": train / test
    standardize: bool = False
    params: dict = field(default_factory=dict)   #: per-data-set parameters (e.g. gamma, C)
    note: str = ""
    split_train: float = 0.75       #: "split" without a test file: fraction of default_rng(split_seed).permutation kept for training
    split_seed: int = 12345
    positive: float = None          #: one-vs-rest: this label -> +1, every other -> -1
    scale: float = None             #: divide the features by this (e.g. 255 for pixels)
    max_train: int = None           #: keep a fixed random subset (default_rng(2)) of the training rows
    max_test: int = None            #: ... and of the test rows (default_rng(3))
    multiclass: bool = False        #: keep the file's labels (a multi-class table); False: relabel to +-1
    #: a synthetic set instead of a file: dict(name=<generator of refsvm.datasets>, n=training rows,
    #: n_test=test rows, random_state=...): one call of n + n_test rows, the first n for training
    generated: dict = None


@dataclass
class Table:
    """A paper's comparison table."""

    name: str
    title: str
    metric: str                     #: what "error" means, e.g. "online mistake rate (%)"
    datasets: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    paper: dict = field(default_factory=dict)    #: (entry label, data label) -> (mean, std or None, seconds or None)
    seeds: int = 20
    available: bool = True
    note: str = ""
    quick_rows: int = 600           #: --quick: rows kept per data set (and test rows)
    plot: str = None                #: "module:function" drawing --png; None = bar chart (plot_table)
    #: known errors in the paper's own table (e.g. a row that repeats another's numbers), printed with every
    #: run and every --render of a stored one
    errata: list = field(default_factory=list)

    def add(self, entry):
        """Register one more row (e.g. ``TABLES["lu2016-table5"].add(Entry("FOGD", "refsvm.x:run", ...))``)."""
        self.entries = [e for e in self.entries if e.label != entry.label] + [entry]
