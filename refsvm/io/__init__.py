"""Input and output: LIBSVM files (:mod:`refsvm.io.libsvm`), model files
(:mod:`refsvm.io.model_file`) and the benchmark data sets
(:mod:`refsvm.io.datasets`, public as :mod:`refsvm.datasets`).

Nothing here is part of a paper's algorithm; the algorithm modules never
import this package.
"""
