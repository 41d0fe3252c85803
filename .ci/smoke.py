"""Smoke test of an installed refsvm (run by .ci/run from a folder outside the source tree).

Checks that the package imports from site-packages (not a source tree), that every
compiled module of refsvm._fast loads, that both code paths train the same model on
the built-in checkerboard, and that a model survives save / load and the command line.
Exits non-zero with a message on the first failure.
"""

import importlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import refsvm
from refsvm.datasets import checkerboard

where = pathlib.Path(refsvm.__file__).resolve().parent
if "site-packages" not in where.parts:
    sys.exit(f"refsvm imported from {where}, not from an installed package")
fast = where / "_fast"
names = sorted({p.name.split(".")[0] for p in fast.iterdir() if p.suffix in (".so", ".pyd")})
if not names:
    sys.exit(f"no compiled modules in {fast}")
for name in names:
    importlib.import_module(f"refsvm._fast.{name}")
print(f"refsvm {refsvm.__version__} from {where}; compiled: {', '.join(names)}")

X, y = checkerboard(2000, random_state=0)
Xt, yt = checkerboard(1000, random_state=1)
models = {b: refsvm.BudgetedSVC(budget=50, lam=1e-4, gamma=50.0, backend=b, random_state=0).fit(X, y)
          for b in ("python", "fast")}
d_py, d_fast = (m.decision_function(Xt) for m in models.values())
if not np.allclose(d_py, d_fast, rtol=1e-9, atol=1e-9 * np.abs(d_py).max()):
    sys.exit("python and fast paths disagree on the checkerboard")
acc = models["fast"].score(Xt, yt)
if acc < 0.7:
    sys.exit(f"test accuracy {acc:.3f} on the checkerboard: the model did not learn")
with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "m.npz"
    models["fast"].save(path)
    again = refsvm.BudgetedSVC.load(path)
    if not np.array_equal(again.predict(Xt), models["fast"].predict(Xt)):
        sys.exit("a saved and loaded model predicts differently")
    data = pathlib.Path(tmp) / "train.svm"
    data.write_text("".join(f"{int(l)} 1:{float(a)!r} 2:{float(b)!r}\n" for (a, b), l in zip(X, y)))
    # the console script installed beside this interpreter (the environment need not be activated)
    script = shutil.which("refsvm", path=os.path.dirname(sys.executable)) or sys.exit("no refsvm script installed")
    for cmd in ([script, "train", str(data), str(path), "--budget", "50", "--gamma", "50", "--quiet"],
                [script, "predict", str(path), str(data)]):
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
        if run.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({run.returncode}):\n{run.stdout}{run.stderr}")
        print(run.stdout.strip().splitlines()[-1])
print(f"smoke test passed (checkerboard test accuracy {acc:.3f})")
