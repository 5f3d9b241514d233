"""The terminal driver writes no bidi controls (issue 25: Persian borders stay aligned).

tmux and several terminals draw an isolate or a direction mark as a cell of its own while
Textual counts none, so a Persian line with a name in it pushed its box border out.
"""

from __future__ import annotations

import pytest
from textual.app import App
from textual.driver import Driver
from textual.drivers.headless_driver import HeadlessDriver

from citadels import present
from citadels.present.i18n import BIDI_CONTROLS, without_bidi_controls
from citadels.tui.app import PlayApp
from citadels.tui.driver import bidi_free
from tests.tui.harness import session


class _Recorder(HeadlessDriver):
    """A driver that keeps what it was asked to write."""

    written: list[str]

    def write(self, data: str) -> None:
        self.written.append(data)


@pytest.mark.asyncio
async def test_a_persian_sentence_reaches_the_terminal_without_its_isolates() -> None:
    """A real driver object needs a running loop, hence async."""
    line = present.translator("fa").gettext(
        "{name}, your turn as the {character}: what now?", name="صندلی ۰", character="آدمکش"
    )
    assert "\u2068" in line  # the translator isolates the names
    driver = bidi_free(_Recorder)(App())
    assert isinstance(driver, _Recorder)
    driver.written = []
    driver.write("\x1b[1;1H" + line + "\u200f\x1b[0m")
    assert driver.written == [
        "\x1b[1;1H" + line.replace("\u2068", "").replace("\u2069", "") + "\x1b[0m"
    ]
    assert not set(BIDI_CONTROLS) & set(driver.written[0])
    # Joiners are letters' business, not direction: the ZWNJ of «می‌کنید» stays.
    assert without_bidi_controls("می\u200cکنید") == "می\u200cکنید"


def test_the_game_uses_the_platform_driver_without_bidi_controls() -> None:
    app = PlayApp(session("classic", 4, seed=1, bots=["easy"]), pace=0)
    base = App().driver_class
    assert issubclass(app.driver_class, base) and app.driver_class is not base
    assert issubclass(app.driver_class, Driver)
    assert app.driver_class.__name__ == f"BidiFree{base.__name__}"
