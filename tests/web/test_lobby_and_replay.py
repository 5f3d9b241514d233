"""The lobby's defaults and the replay from a seat, in Chromium (issue 24).

- The form gives every other seat to a bot, so a game can start at once, and a solo game
  against bots is private unless the host ticks "Show in the lobby".
- A seat's player replays a finished game from their own seat (their hand and picks); anyone
  may choose any seat's point of view once the game is over; while a game is being played the
  replay page offers no seat's view to anyone.
"""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any

import httpx
import pytest

from citadels.server.client import PlayerClient, http
from tests.web.test_topbar import BAR, INSIDE

pytestmark = pytest.mark.xdist_group("lobby-replay")


def _finished_and_playing(server: str) -> dict[str, Any]:
    """A whole solo game played over the protocol (seat 0 by a client, two bots), and a
    second one started and left unplayed."""

    async def go() -> dict[str, Any]:
        bots = {"1": "random", "2": "random"}
        body = {"name": "Anna", "edition": "basic", "players": 3, "bots": bots}
        st, done = await http(server, "POST", "/api/tables", body)
        assert st == 201, done
        me = PlayerClient(server, done["code"], done["token"], seed=5)
        await me.connect()
        st, _ = await http(server, "POST", f"/api/tables/{done['code']}/start", token=done["token"])
        assert st == 200
        await me.play()
        await me.close()
        st, live = await http(server, "POST", "/api/tables", body)
        assert st == 201
        st, _ = await http(server, "POST", f"/api/tables/{live['code']}/start", token=live["token"])
        assert st == 200
        return {"done": done, "live": live}

    out: dict[str, Any] = {}

    def run() -> None:  # Playwright's loop holds this thread: asyncio runs in another
        out.update(asyncio.run(go()))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(300)
    assert out, "the game over the protocol did not finish"
    return out


@pytest.fixture(scope="module")
def games(server: str) -> dict[str, Any]:
    return _finished_and_playing(server)


def _replay(server: str, code: str, seat: int | None) -> dict[str, Any]:
    query = "" if seat is None else f"&seat={seat}"
    r = httpx.get(f"{server}/api/tables/{code}/replay?count=500{query}", timeout=30)
    assert r.status_code == 200
    return dict(r.json())


def _own_pick_texts(rep: dict[str, Any]) -> list[str]:
    return [
        e["text"]
        for f in rep["frames"]
        for e in f["events"]
        if e["kind"] == "pick" and e.get("seat") == rep["seat"] and e.get("character")
    ]


def _log(page: Any) -> str:
    return str(
        page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent).join('\\n')")
    )


def test_the_form_fills_every_other_seat_with_bots_and_keeps_a_solo_game_private(
    page: Any, server: str
) -> None:
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    assert page.input_value("#create-players") == "4"
    assert page.input_value("#create-bots") == "3"
    assert not page.is_checked("[data-key=create-public]")
    assert page.is_visible("#create-public-help")
    # More seats: still every other one a bot; one seat left for a friend: listed.
    page.select_option("#create-players", "5")
    assert page.input_value("#create-bots") == "4"
    page.select_option("#create-bots", "3")
    assert page.is_checked("[data-key=create-public]")
    assert not page.is_visible("#create-public-help")
    page.select_option("#create-bots", "4")
    assert not page.is_checked("[data-key=create-public]")
    page.select_option("#create-players", "4")
    page.fill("#create-name", "Solo")
    page.click("[data-key=create-submit]")
    page.wait_for_url(re.compile(r"/t/(?:[A-Z0-9]{4}-){3}[A-Z0-9]{4}$"))
    code = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{server}/api/tables/{code}", timeout=10).json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert table["public"] is False
    # Every seat is taken: the host can start at once.
    page.wait_for_selector("[data-key=start]:not([disabled])")
    listed = httpx.get(f"{server}/api/tables?status=open", timeout=10).json()["tables"]
    assert code not in [t["code"] for t in listed]

    # A host who ticks the box lists the solo game.
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    page.check("[data-key=create-public]")
    assert not page.is_visible("#create-public-help")
    page.fill("#create-name", "Shown")
    page.click("[data-key=create-submit]")
    page.wait_for_url(re.compile(r"/t/(?:[A-Z0-9]{4}-){3}[A-Z0-9]{4}$"))
    code = page.url.rsplit("/", 1)[1]
    assert httpx.get(f"{server}/api/tables/{code}", timeout=10).json()["public"] is True


def test_a_player_replays_from_their_seat_and_anyone_from_any_seat_afterwards(
    page: Any, server: str, games: dict[str, Any]
) -> None:
    done = games["done"]
    code = done["code"]
    mine = _replay(server, code, 0)
    watched = _replay(server, code, None)
    picks = _own_pick_texts(mine)
    assert picks and not set(picks) & {e["text"] for f in watched["frames"] for e in f["events"]}

    # Anna's browser holds her seat's token: the replay opens at her seat.
    page.goto("/")
    page.evaluate(
        # net.js keeps a token under the code's letters alone (no dashes, upper case).
        "([c, t]) => localStorage.setItem('citadels.token.' + c, t)",
        [code.replace("-", "").upper(), done["token"]],
    )
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".my-panel")
    assert page.input_value("#r-seat") == "0"
    assert "(you)" in page.inner_text("#r-seat option[value='0']")
    hand = mine["frames"][0]["view"]["players"][0]["hand"]
    assert hand and page.locator(".my-panel .my-hand .hand li").count() == len(hand)
    page.click("[data-key=r-last]")
    log = _log(page)
    assert picks[-1] in log  # the log shows its last 150 lines: the last round's pick

    # Someone else: a spectator's replay first, then any seat they choose.
    page.evaluate(
        "c => localStorage.removeItem('citadels.token.' + c)", code.replace("-", "").upper()
    )
    page.goto(f"/replay/{code}")
    page.wait_for_selector("#r-seat")
    page.wait_for_selector(".table-screen")
    assert page.input_value("#r-seat") == ""
    assert page.locator(".my-panel").count() == 0
    assert "(you)" not in page.inner_text("#r-seat")
    page.select_option("#r-seat", "1")
    page.wait_for_selector(".my-panel")
    assert page.url.endswith(f"/replay/{code}?seat=1")
    theirs = _replay(server, code, 1)
    hand = theirs["frames"][0]["view"]["players"][1]["hand"]
    assert page.locator(".my-panel .my-hand .hand li").count() == len(hand)
    page.click("[data-key=r-last]")
    log = _log(page)
    assert _own_pick_texts(theirs)[-1] in log
    assert picks[-1] not in log  # seat 0's picks stay seat 0's
    # A link with ?seat= opens at that seat.
    page.goto(f"/replay/{code}?seat=2")
    page.wait_for_selector(".my-panel")
    assert page.input_value("#r-seat") == "2"


def test_no_seat_view_is_offered_before_the_game_ends(
    page: Any, server: str, games: dict[str, Any]
) -> None:
    live = games["live"]["code"]
    page.goto(f"/replay/{live}?seat=0")
    page.wait_for_selector(".loading .error")
    assert page.locator("#r-seat").count() == 0 and page.locator(".my-panel").count() == 0
    # Watching the game being played: the spectator's view only.
    page.goto(f"/t/{live}")
    page.wait_for_selector(".table-screen.spectating")
    assert page.locator("#r-seat").count() == 0 and page.locator(".my-panel").count() == 0


def test_the_replay_of_another_seat_names_that_seat_and_says_you_only_on_ones_own(
    page: Any, server: str, games: dict[str, Any]
) -> None:
    done = games["done"]
    code = done["code"]
    names = _replay(server, code, 1)["names"]
    page.goto("/")
    page.evaluate(
        "([c, t]) => localStorage.setItem('citadels.token.' + c, t)",
        [code.replace("-", "").upper(), done["token"]],
    )
    # Anna's own seat: "You" on her panel.
    page.goto(f"/replay/{code}")
    page.wait_for_selector(".my-panel")
    assert page.inner_text(".my-panel .you-tag") == "You"
    assert page.get_attribute(".my-panel", "aria-label") == f"You: {names[0]}"
    assert "Your hand" in page.text_content(".my-panel .my-hand h3")
    # Another seat, chosen by Anna or by anyone: that seat's name, never "You".
    for token in (True, False):
        if not token:
            page.evaluate(
                "c => localStorage.removeItem('citadels.token.' + c)",
                code.replace("-", "").upper(),
            )
        page.goto(f"/replay/{code}?seat=1")
        page.wait_for_selector(".my-panel")
        assert page.locator(".my-panel .you-tag").count() == 0
        assert page.inner_text(".my-panel h2.pname").strip() == names[1]
        assert page.get_attribute(".my-panel", "aria-label") == names[1]
        panel = page.text_content(".my-panel")
        assert "you" not in panel.lower(), panel
        for step in range(0, 40, 3):  # nor "Your turn" while that seat plays
            page.fill("#r-slider", str(step))
            assert "your turn" not in page.text_content(".table-screen").lower()


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 360, "height": 800}])
def test_the_replay_bar_fits_a_phone_on_one_line(
    browser: Any, server: str, games: dict[str, Any], viewport: dict[str, int]
) -> None:
    """On a phone the replay's bar keeps the home link, "Replay", the round and the language
    on one line inside the window (its code, which is in the address, is left out)."""
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.goto(f"/replay/{games['done']['code']}")
        page.wait_for_selector(".replay-top .round-tag")
        bar = page.evaluate(BAR)
        assert bar["lines"] == 1 and bar["brand"], bar
        assert page.evaluate(INSIDE) == [], "the replay's bar overflows the window"
        assert page.is_visible(".replay-top [data-key=lang]")
        # It is the table's wood bar, and the step controls start below it.
        frame = page.evaluate(
            """() => [getComputedStyle(document.querySelector('header.topbar')).backgroundImage,
                      document.querySelector('header.topbar').getBoundingClientRect().bottom,
                      document.querySelector('nav.replay-bar').getBoundingClientRect().top]"""
        )
        assert frame[0].startswith("linear-gradient") and frame[2] >= frame[1] - 1, frame
    finally:
        ctx.close()
