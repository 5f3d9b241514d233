"""A click is never lost to a redraw (issue 24), in Chromium.

The page draws itself again on every message (another player's move, a chat line, a seat's
presence) by replacing its elements. A mouse click is a press and a release on one element: a
redraw between the two left the release on a new button, the browser sent the click to no
button, and the person's move was silently dropped (seen under load as "the click was not
drawn" in the whole-game tests). While a button is held down the page now waits, and draws
once the click is done.

The redraw here is the sound switch's (any redraw replaces the tray's buttons alike), made
between ``mouse.down()`` and ``mouse.up()``, with nothing timed. (A finger's tap is not at risk:
the browser sends its click to whatever is under the finger when the tap ends.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import AT_ONCE, LAPTOP, started_table

pytestmark = pytest.mark.xdist_group("press")

ACTION = ".tray .action:not([disabled])"
VERSION = "Number(document.getElementById('app').dataset.version)"


def test_a_redraw_between_press_and_release_does_not_lose_the_click(
    browser: Any, server: str
) -> None:
    init = AT_ONCE + "localStorage.setItem('citadels.lang', 'en');"
    with started_table(browser, server, LAPTOP, init=init) as page:
        version = page.evaluate(VERSION)
        sound = page.get_attribute("[data-key=sound]", "aria-pressed")
        first = page.query_selector(ACTION)
        assert first is not None
        box = first.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        # The page is asked to draw again while the button is held (the sound switch redraws).
        page.evaluate("document.querySelector('[data-key=sound]').click()")
        page.mouse.up()
        # The move was sent and played (the page's version moves on) ...
        page.wait_for_function(f"(v) => {VERSION} > v", arg=version, timeout=10000)
        # ... and the redraw asked for meanwhile was made after it, not dropped.
        page.wait_for_function(
            "(s) => document.querySelector('[data-key=sound]').getAttribute('aria-pressed') !== s",
            arg=sound,
        )
