"""The commands the terminal game prints for going on with a game or replaying it, written
so they work when pasted into a shell where the player is.

``citadels`` alone works only when it is on the ``PATH`` (``make install`` puts it in
``.venv/bin``, which usually is not); otherwise the command is the full path of the program
that runs. Started by ``make play``, the hint to go on is ``make play RESUME=FILE`` (the
Makefile says so through ``CITADELS_MAKE``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: Set by the Makefile's ``play`` target: the hint to go on is then ``make play RESUME=…``.
MAKE_ENV = "CITADELS_MAKE"


def program() -> str:
    """How to call the ``citadels`` command from any folder: ``citadels`` when that name
    on the ``PATH`` is this program, else this program's full path (or ``python -m
    citadels`` when it was started so)."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    here = Path(argv0).resolve() if argv0 and Path(argv0).is_file() else None
    if here is None or here.suffix == ".py" or here.name == "__main__.py":
        return f"{shlex.quote(sys.executable)} -m citadels"
    found = shutil.which("citadels")
    if found is not None and Path(found).resolve() == here:
        return "citadels"
    return shlex.quote(str(here))


@dataclass(frozen=True)
class Commands:
    """The commands to print: ``program`` calls ``citadels``; ``make`` is whether the game
    was started by ``make play``."""

    program: str = field(default_factory=program)
    make: bool = field(default_factory=lambda: bool(os.environ.get(MAKE_ENV)))

    def resume(self, path: str | Path) -> str:
        """The command that goes on with the saved game at ``path``."""
        where = shlex.quote(str(Path(path).absolute()))
        if self.make:
            return f"make play RESUME={where}"
        return f"{self.program} play --resume {where}"

    def replay(self, path: str | Path) -> str:
        """The command that narrates the game at ``path`` again."""
        return f"{self.program} replay {shlex.quote(str(Path(path).absolute()))}"
