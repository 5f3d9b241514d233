"""Accounts in Chromium (issue 28): a guest's table, an account made from the page that claims
its seat, the game played (a rated one: the other seat is a bot), then the profile with its
rating and replay link, "my tables" and the leaderboard; a table created signed in (the page's
CSRF token and origin pass the server's checks). Screenshots at a laptop and a phone size."""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import httpx
import pytest

from citadels.server.client import PlayerClient
from tests.web.conftest import LAPTOP, PHONE, create_table, shot, token_key

pytestmark = pytest.mark.xdist_group("accounts-web")


def _play(server: str, code: str, token: str) -> dict[str, Any]:
    """Play the seat's game to its end over the protocol (in a thread: Playwright's loop
    holds this one); the result."""

    async def go() -> dict[str, Any]:
        me = PlayerClient(server, code, token, seed=3)
        await me.connect()
        await me.play()
        await me.close()
        assert me.result is not None
        return me.result

    out: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: out.update(asyncio.run(go())))
    worker.start()
    worker.join(300)
    assert out, "the game did not finish"
    return out


def test_an_account_claims_a_guest_seat_plays_rated_and_sees_its_profile(
    page: Any, server: str
) -> None:
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    # The lobby names each bot level with its rating.
    hard = page.text_content("#create-level option[value=hard]") or ""
    info = httpx.get(f"{server}/api/info", timeout=10).json()
    assert re.search(r"\d", hard) and str(info["bot_ratings"]["hard"])[:1] in hard, hard
    # A guest's solo table: one bot.
    code = create_table(page, "Wren", players=2, bots=1)
    token = page.evaluate("k => localStorage.getItem(k)", token_key(code))
    assert token
    page.click("[data-key=start]")
    page.wait_for_function(
        "c => fetch('/api/tables/' + c).then(r => r.json()).then(t => t.status === 'playing')",
        arg=code,
    )
    # Create an account from the page: the guest's seat becomes the account's.
    page.goto("/me")
    page.fill("#account-name", "Wren")
    page.fill("#account-password", "a long enough secret")
    page.click("[data-key=sign-up]")
    page.wait_for_selector(".account-page [data-key=nav-profile]")
    table = httpx.get(f"{server}/api/tables/{code}", timeout=10).json()
    assert table["seats"][0]["account"] == "Wren" and table["rated"] is True
    # "My tables": the game, with its turn.
    page.wait_for_selector(f"[data-key=go-{code}]")
    shot(page, "accounts-my-tables-laptop")
    # Every page of the site says how many tables wait for the player's move: the badge of
    # "My tables" and the title (the bot has moved at once; the seat is the player's to play).
    waiting = page.evaluate(
        "() => fetch('/api/account/tables').then(r => r.json())"
        ".then(d => d.tables.filter(e => e.waits === 'you').length)"
    )
    assert waiting == 1
    page.goto("/")
    page.wait_for_selector("[data-key=nav-me] .badge")
    assert (page.text_content("[data-key=nav-me] .badge") or "").startswith("1")
    page.wait_for_function("document.title.startsWith('(1) ')")
    shot(page, "accounts-lobby-badge-laptop")
    result = _play(server, code, token)
    won = result["seats"][0]["rank"] == 1
    # The profile: one game, the rating moved, a replay link.
    page.click("[data-key=nav-profile]")
    page.wait_for_url(re.compile(r"/profile/Wren$"))
    page.wait_for_selector(".profile-table td.rating")
    profile = httpx.get(f"{server}/api/accounts/Wren", timeout=10).json()
    rating = profile["editions"]["basic"]["rating"]["rating"]
    assert rating != 1500 and profile["editions"]["basic"]["won"] == int(won)
    row = page.text_content("tr[data-edition=basic]") or ""
    assert f"{rating:,}".replace(",", "") in row.replace(",", "").replace("\u202f", ""), row
    page.wait_for_selector(f"a[href='/replay/{code}']")
    shot(page, "accounts-profile-laptop")
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector(".profile-table td.rating")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    shot(page, "accounts-profile-phone")
    page.set_viewport_size(LAPTOP)
    # The leaderboard lists the account.
    page.goto("/leaderboard")
    page.wait_for_selector("#board-edition option[value=basic]", state="attached")
    page.select_option("#board-edition", "basic")
    page.wait_for_selector("a[href='/profile/Wren']")
    # Signed in, a new table from the lobby's form is the account's seat at once: the
    # page's CSRF token and origin are accepted.
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    page.wait_for_selector("[data-key=nav-profile]")
    shot(page, "accounts-lobby-laptop")
    second = create_table(page, "Wren", players=3, bots=2)
    assert (
        httpx.get(f"{server}/api/tables/{second}", timeout=10).json()["seats"][0]["account"]
        == "Wren"
    )
    # Signing out from the lobby.
    page.goto("/")
    page.click("[data-key=sign-out]")
    page.wait_for_selector("[data-key=nav-sign-in]")
    assert page.evaluate("() => document.cookie") == ""  # the session cookie is HttpOnly


def test_a_wrong_password_is_said_in_words(page: Any, server: str) -> None:
    r = httpx.post(f"{server}/api/accounts", json={"name": "Known", "password": "the right one!"})
    assert r.status_code == 201
    page.goto("/me")
    page.fill("#account-name", "Known")
    page.fill("#account-password", "not the right one")
    page.click("[data-key=sign-in]")
    alert = page.wait_for_selector(".account-form .error")
    assert "No account has this name and password" in (alert.text_content() or "")
    shot(page, "accounts-sign-in-error-laptop")
