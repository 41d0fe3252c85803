"""Sphinx configuration for the refsvm documentation.

Build with warnings as errors (as CI does)::

    sphinx-build -W -b html docs docs/_build/html

Only Sphinx and its bundled extensions are used (no network access is needed:
no intersphinx).
"""

import os
import sys

# autodoc imports refsvm.  Document the *installed* package when there is one
# (CI runs ``pip install ".[test,docs]"`` first); only when refsvm cannot be
# imported fall back to the source checkout this file lives in.
try:
    import refsvm
except ImportError:
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
    import refsvm

# -- Project information -----------------------------------------------------

project = "refsvm"
author = "the refsvm developers"
copyright = "the refsvm developers"
release = getattr(refsvm, "__version__", None) or "0.1.0"
version = ".".join(release.split(".")[:2])

# -- General configuration ---------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx.ext.mathjax",
]

exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
root_doc = "index"
nitpicky = False

# Docstrings are numpydoc style.
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# Read the type after "name :" as a numpydoc type specification, not as reST:
# shapes such as "ndarray of shape (n_features_in_,)" would otherwise turn the
# trailing underscore into a (broken) hyperlink reference.
napoleon_preprocess_types = True

autodoc_member_order = "bysource"
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}

# -- HTML output -------------------------------------------------------------

html_theme = "alabaster"
html_title = f"refsvm {release}"
# Wider than alabaster's default (940px): the paper pages put pseudo-code and
# code side by side.
html_theme_options = {"page_width": "1200px"}
html_static_path = []


# -- Generated content ---------------------------------------------------------
#
# Figure 2 of Glasmachers & Qaadan (docs/lookup.rst) is drawn at build time with
# refsvm.plotting.plot_merge_functions when matplotlib is installed; without it
# (CI installs only ".[test,docs]") the page says so in text.  Either way
# docs/_generated/figure2.rst exists, so the build passes with -W.


def _generate_figure2():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_generated")
    os.makedirs(out, exist_ok=True)
    png = os.path.join(out, "merge_functions.png")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from refsvm.plotting import plot_merge_functions

        fig, _ = plot_merge_functions(grid_size=60)
        fig.savefig(png, dpi=72)
        plt.close(fig)
        text = (
            ".. figure:: /_generated/merge_functions.png\n"
            "   :alt: h(m, kappa) and WD(m, kappa)\n\n"
            "   The functions h(m, kappa) (left) and WD(m, kappa) (right, log scale), "
            "GSS-precise on a 60 x 60 grid, drawn by "
            ":func:`refsvm.plotting.plot_merge_functions` when these pages were built.  "
            "The cliff of h at m = 1/2 for kappa < e^-2 is the set Z of Lemma 1.\n"
        )
    except ImportError:
        text = (
            ".. note::\n\n"
            "   The plot of h(m, kappa) and WD(m, kappa) (the paper's Figure 2) is drawn at "
            "build time when matplotlib is installed; it was not, for this build.  Draw it "
            "with ``refsvm.plotting.plot_merge_functions()`` (``pip install refsvm[plot]``).\n"
        )
    with open(os.path.join(out, "figure2.rst"), "w") as f:
        f.write(text)


_generate_figure2()
