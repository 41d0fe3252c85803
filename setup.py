"""Build script for refsvm's compiled extension (refsvm._fast).

Every ``refsvm/_fast/*.pyx`` is compiled to an extension module of the same
name, so a new Cython file is picked up without editing this script.  With no
.pyx files the package builds as pure Python.

Environment:
    REFSVM_DEBUG_BUILD=1   compile with boundscheck, wraparound and
                           initializedcheck switched on (slow, for tests).
    REFSVM_BUILD_JOBS=N    compile N extension modules at a time (default:
                           the number of cores).
"""

import glob
import os

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))

DEBUG = os.environ.get("REFSVM_DEBUG_BUILD", "0") not in ("", "0")

# Everything generated (C files, objects, modules) goes to one folder per mode:
# Cython and setuptools only rebuild what is older than its sources, so a
# release build must never pick up the output of a debug build (or the reverse).
BUILD_BASE = os.path.join("build", "debug" if DEBUG else "release")

# build_ext compiles the extension modules in parallel, one per core, and Cython translates
# that many .pyx files at once (pip and `python -m build` pass no -j of their own);
# REFSVM_BUILD_JOBS overrides.
JOBS = int(os.environ.get("REFSVM_BUILD_JOBS", "0")) or (os.cpu_count() or 1)

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}


def extensions():
    # Paths relative to setup.py, as setuptools wants them.
    sources = sorted(glob.glob(os.path.join("refsvm", "_fast", "*.pyx"), root_dir=HERE))
    if not sources:
        return []
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension

    libraries = [] if os.name == "nt" else ["m"]
    # -ffp-contract=off: never fuse a * b + c into one rounding (the reference's
    # Python arithmetic rounds twice; the paths must take the same discrete decisions).
    # -g0: release builds carry no debug information (it made each module 1.5-3 MB); the debug
    # build (REFSVM_DEBUG_BUILD=1) keeps it.
    compile_args = [] if os.name == "nt" else ["-O3", "-ffp-contract=off"] + ([] if DEBUG else ["-g0"])
    exts = [
        Extension(
            "refsvm._fast." + os.path.splitext(os.path.basename(src))[0],
            [src],
            include_dirs=[numpy.get_include(), os.path.join("refsvm", "_fast")],   # fastmath.h
            libraries=libraries,
            extra_compile_args=compile_args,
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        )
        for src in sources
    ]
    return cythonize(
        exts,
        nthreads=JOBS,          # translate the .pyx files to C in parallel too (22 s in one process)
        compiler_directives=DIRECTIVES,
        build_dir=os.path.join(BUILD_BASE, "cython"),
    )


setup(
    ext_modules=extensions(),
    options={"build": {"build_base": BUILD_BASE}, "build_ext": {"parallel": JOBS}},
)
