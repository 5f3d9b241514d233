"""The real ``citadels play`` in a pseudo-terminal whose window is resized during a decision,
read through a terminal emulator (pyte) as a person would see it.

Textual's pilot resizes the app in one step; a real terminal first tells the app, and the
boxes get their new sizes only when the layout runs after that. What the table and the menu's
box hold must be decided again then (a table measured for the old size crowded the menu down
to one choice, and a card's power meant to fit under the menu hid the rest of it).
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

CITADELS = Path(sys.executable).with_name("citadels")


class Terminal:
    """A child process in a pty and the screen it draws."""

    def __init__(self, args: list[str], size: tuple[int, int], env: dict[str, str]) -> None:
        columns, lines = size
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.Stream(self.screen)
        self.child = pexpect.spawn(
            str(CITADELS), args, env=env, dimensions=(lines, columns), encoding="utf-8",
            codec_errors="replace", timeout=30,
        )  # fmt: skip

    def read(self, quiet: float = 1.0, limit: float = 60.0) -> None:
        """Feed the screen until the program has drawn nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=quiet))
            except pexpect.TIMEOUT:
                return
        raise AssertionError("the program never stopped drawing")

    def wait_for(self, text: str, limit: float = 60.0) -> None:
        deadline = time.monotonic() + limit
        while text not in self.text():
            assert time.monotonic() < deadline, f"{text!r} never shown:\n{self.text()}"
            self.read(quiet=0.3, limit=5)

    def resize(self, columns: int, lines: int) -> None:
        self.screen.resize(lines, columns)
        self.child.setwinsize(lines, columns)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)


@pytest.mark.skipif(not CITADELS.exists(), reason="the citadels script is not installed")
def test_a_window_resized_during_the_draft_keeps_every_choice_in_the_menu(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "TERM": "xterm-256color", "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("NO_COLOR", None)
    args = ["play", "--edition", "classic", "--players", "4", "--bots", "medium", "--seed", "1",
            "--pace", "0", "--lang", "en", "--save", str(tmp_path / "g.json")]  # fmt: skip
    term = Terminal(args, (100, 30), env)
    try:
        term.wait_for("Pick the Warlord")
        term.read()
        choices = re.findall(r"│\s*\d Pick the \w+", term.text())
        assert len(choices) == 5, term.text()
        for columns, lines in ((80, 24), (100, 30), (80, 24)):
            term.resize(columns, lines)
            term.read()
            shown = term.text()
            assert re.findall(r"│\s*\d Pick the \w+", shown) == choices, shown
            assert "type an action's name" in shown, shown
            # At 80×24 the menu has no room for a card's power as well (``?`` explains it).
            if lines == 24:
                assert "Assassin: " not in shown, shown
    finally:
        term.child.terminate(force=True)
