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

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
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
