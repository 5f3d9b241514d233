"""Engine benchmark: the same measurements as ``citadels bench`` (see ``citadels.bench``).

Run from the repository with the package installed::

    python benchmarks/bench.py [--games N] [--seconds S] [--json]
"""

from __future__ import annotations

import sys

from citadels.cli import main

if __name__ == "__main__":
    main(["bench", *sys.argv[1:]])
