"""``python -m refsvm.cli``: the ``refsvm`` command."""

import sys

from . import main

sys.exit(main())
