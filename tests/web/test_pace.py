"""The table's pace in Chromium (issue 24): the host sets it in the create-table form, every
browser at the table shows the others' moves that far apart (even one whose general choice
differs), and a player who changes the pace at the table overrides it for themselves only, at
that table, across a reload.

The pacer's clock is injected as in test_story.py: the test fires its timers and reads the
delays they were set for, so nothing here waits on wall-clock time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import LAPTOP, create_table
from tests.web.test_story import CLOCK

pytestmark = pytest.mark.xdist_group("pace")

DELAYS = "window.citadelsClock.asked.filter((ms) => ms > 0)"


@pytest.fixture()
def errors() -> Iterator[list[str]]:
    seen: list[str] = []
    yield seen
    assert seen == []


def _context(browser: Any, server: str, general: int, errors: list[str]) -> Any:
    """A browser whose general pace choice is ``general`` ms, with the test's clock."""
    ctx = browser.new_context(viewport=LAPTOP, base_url=server, reduced_motion="reduce")
    ctx.add_init_script(
        CLOCK + "localStorage.setItem('citadels.lang', 'en');"
        f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
        f" localStorage.setItem('citadels.pace', '{general}'); }}"
    )
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def _paced_delays(page: Any, count: int) -> list[int]:
    """Play the browser's seat (its first choice) and fire the pacer's timers until ``count``
    more delays were asked for; answers those delays."""
    start = len(page.evaluate(DELAYS))
    end = time.monotonic() + 120
    while len(page.evaluate(DELAYS)) < start + count:
        assert time.monotonic() < end, "the bots' moves were never paced"
        if page.query_selector(".tray .action:not([disabled])"):
            page.click(".tray .action:not([disabled])")
        if page.evaluate("window.citadelsClock.pending.length"):
            page.evaluate("window.citadelsClock.fire()")
        page.wait_for_timeout(50)
    return list(page.evaluate(DELAYS))[start : start + count]


def test_the_host_sets_the_pace_and_a_browser_overrides_it_only_for_itself(
    browser: Any, server: str, errors: list[str]
) -> None:
    host = _context(browser, server, 500, errors)
    guest = None
    try:
        host.goto("/")
        host.wait_for_selector("#create-edition option[value=basic]", state="attached")
        # The form proposes the host's own pace, and says what it does.
        assert host.input_value("#create-pace") == "500"
        assert "each player" in host.inner_text("#create-pace-help")
        host.select_option("#create-pace", "2000")
        code = create_table(host, "Anna", players=4, bots=3)
        table = httpx.get(f"{server}/api/tables/{code}", timeout=10).json()
        assert table["pace"] == 2000
        host.click("[data-key=start]")
        host.wait_for_selector(".table-screen")
        # The table's pace, not this browser's general 500 ms.
        assert host.input_value("[data-key=pace]") == "2000"
        assert set(_paced_delays(host, 3)) == {2000}

        # Someone else watching, whose browser generally shows moves at once: the host's pace.
        guest = _context(browser, server, 0, errors)
        guest.goto(f"/t/{code}")
        guest.wait_for_selector("[data-key=pace]")
        assert guest.input_value("[data-key=pace]") == "2000"

        # The host's player chooses 1 s here: their own choice from now on, at this table.
        host.select_option("[data-key=pace]", "1000")
        while host.evaluate("window.citadelsClock.pending.length"):
            host.evaluate("window.citadelsClock.fire()")
        assert set(_paced_delays(host, 2)) == {1000}
        host.reload()
        host.wait_for_selector("[data-key=pace]")
        assert host.input_value("[data-key=pace]") == "1000"
        # Only for that browser: the table and the guest keep the host's 2 s.
        assert httpx.get(f"{server}/api/tables/{code}", timeout=10).json()["pace"] == 2000
        guest.reload()
        guest.wait_for_selector("[data-key=pace]")
        assert guest.input_value("[data-key=pace]") == "2000"
    finally:
        host.context.close()
        if guest is not None:
            guest.context.close()
