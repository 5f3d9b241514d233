"""The real ``citadels play`` program in a pseudo-terminal (pexpect), from start to final score.

A small fast game: 2 players, you against an easy bot, a fixed seed, no narration pause, and
always the first option (the key ``1``). Bounded in time by pexpect's timeouts.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

CITADELS = Path(sys.executable).with_name("citadels")
ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07")


def _plain(raw: str) -> str:
    """The terminal output without escape sequences (text only)."""
    return ANSI.sub("", raw)


@pytest.mark.skipif(not CITADELS.exists(), reason="the citadels script is not installed")
def test_a_whole_game_in_a_real_terminal(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "COLUMNS": "120",
        "LINES": "36",
    }
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        str(CITADELS),
        [
            "play",
            "--edition",
            "basic",
            "--players",
            "2",
            "--bots",
            "easy",
            "--seed",
            "5",
            "--pace",
            "0",
            "--save",
            str(save),
        ],
        env=env,
        dimensions=(36, 120),
        encoding="utf-8",
        codec_errors="replace",
        timeout=30,
    )
    seen = ""
    deadline = time.monotonic() + 240
    try:
        child.expect("Your move", timeout=60)
        seen += _plain(child.before + child.after)
        while "The game is over" not in seen:
            assert time.monotonic() < deadline, "the game did not end in time"
            child.send("1\r")  # "1" waits for a second digit in a menu of ten or more
            try:
                child.expect(r".+", timeout=2)
                seen = (seen + _plain(child.before + child.after))[-20000:]
                # Read whatever else arrived, briefly.
                while True:
                    child.expect(r".+", timeout=0.3)
                    seen = (seen + _plain(child.before + child.after))[-20000:]
                    if "The game is over" in seen:
                        break
            except pexpect.TIMEOUT:
                pass
        # The rest of the score table may come in the next writes.
        for _ in range(20):
            if "Winner" in seen:
                break
            try:
                child.expect(r".+", timeout=1)
                seen = (seen + _plain(child.before + child.after))[-20000:]
            except pexpect.TIMEOUT:
                pass
        assert "Winner" in seen
        child.send("q")
        child.expect(pexpect.EOF, timeout=30)
        tail = _plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, tail
    assert "The game record is in" in tail
    data = json.loads(save.read_text())
    assert data["format"] == "citadels.play/1"
    from citadels.tui import load_session

    assert load_session(save).game.is_over
