"""Turn-based tables in Chromium (issue 28): the lobby's form creates one (a turn timer in
days, the rule when it runs out), the server stores it, and the table shows the time left in
days and hours, at a phone and a laptop size (screenshots under out/screenshots/)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.web.conftest import PHONE, create_table, shot

pytestmark = pytest.mark.xdist_group("turn-based-web")

#: The laptop size this feature's screenshots are taken at.
WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lobby_creates_a_turn_based_table_that_shows_days_left(
    page: Any, server: str, size: str
) -> None:
    page.set_viewport_size(PHONE if size == "phone" else WIDE)
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    # The rule's field appears only once a turn-based timer is chosen.
    assert page.locator("#create-on-timeout").count() == 0
    labels = page.locator("#create-timer option").all_inner_texts()
    assert "Turn-based: 1 day a turn" in labels and "Turn-based: 14 days a turn" in labels
    assert "Turn-based: 4 hours a turn" in labels
    page.select_option("#create-timer", "turn:172800")
    page.select_option("#create-on-timeout", "skip")
    page.locator("#create-timer").scroll_into_view_if_needed()
    shot(page, f"turn_based_form_{size}")
    # Two seats, the other a bot: the game can start at once, and it is your turn first or
    # soon (the bot plays at once).
    code = create_table(page, "Tess", players=2, bots=1)
    table = httpx.get(f"{server}/api/tables/{code}", timeout=10).json()
    assert (table["turn_timer"], table["on_timeout"], table["timer"]) == (172800, "skip", None)
    page.click("[data-key=start]")
    note = page.locator(".deadline .secs")
    note.wait_for()
    # Two days a turn: "1 day 23 hours" or "2 days", never seconds.
    text = note.inner_text()
    assert re.fullmatch(r"(1 day 23 hours|2 days)", text), text
    title = str(page.locator(".deadline").get_attribute("title"))
    # (the time filled in sits between isolation marks, as every field the page fills in)
    assert title.replace("\u2068", "").replace("\u2069", "") == f"Time left for this turn: {text}"
    shot(page, f"turn_based_table_{size}")


def test_me_sets_changes_and_removes_the_email_address(page: Any, server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto("/me")
    page.fill("#account-name", "Mailer1")
    page.fill("#account-password", "correct horse battery")
    page.click("[data-key=sign-up]")
    page.wait_for_selector("#account-email")
    # This test server sends no e-mails: the form says so.
    assert "sends no e-mails" in page.inner_text(".email-form")
    page.fill("#account-email", "not an address")
    page.click("[data-key=email-save]")
    page.wait_for_selector(".email-form .error")
    assert page.inner_text(".email-form .error") == "That is not an e-mail address."
    page.fill("#account-email", "mailer@example.org")
    page.click("[data-key=email-save]")
    page.wait_for_selector("[data-key=email-remove]")
    assert "mailer@example.org" in page.inner_text(".email-form [role=status]")
    page.locator(".email-form").scroll_into_view_if_needed()
    shot(page, "me_email_phone")
    page.click("[data-key=email-remove]")
    page.wait_for_selector("[data-key=email-remove]", state="detached")
    assert page.inner_text(".email-form [role=status]") == "No e-mails will be sent."
