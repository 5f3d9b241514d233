"""The rules engine: pure Python, no I/O, no clock, no global randomness.

Its modules may run compiled with mypyc (see ``citadels.compiled``); :data:`COMPILED` says
whether they do. The compiled build plays exactly the same games as the pure source.
"""

from citadels.compiled import engine_path as _engine_path

_engine_path(__path__)

from citadels.compiled import COMPILED

__all__ = ["COMPILED"]
