"""End-to-end: real people's browsers against a real server (issue 10).

One module-scoped game: a host on a laptop creates a table in the lobby, a second player joins
on a phone-sized screen, a third on a laptop, a fourth browser watches, one seat is a bot. The
three humans play the WHOLE game through the page by clicking the first legal action each time.
On the way it reloads a player's page mid-game, runs the accessibility scan and keeps
screenshots of every main screen (out/screenshots/). The tests below check what was recorded.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import (
    AT_ONCE,
    CHROMIUM,
    LAPTOP,
    PHONE,
    REQUIRE,
    create_table,
    page_state,
    routed_sockets,
    serious,
    server_state,
    shot,
)

# One game serves every test of this file: keep them on one xdist worker (make uses loadgroup).
pytestmark = pytest.mark.xdist_group("browser-game")

ACTION = ".tray .action:not([disabled])"
MAX_ACTIONS = 2000
#: A game that stalls fails the test with what the pages show instead of hanging the suite.
MAX_SECONDS = 420


def _context(browser: Any, server: str, viewport: dict[str, int], outside: list[str]) -> Any:
    # bypass_csp: Playwright's wait_for_function compiles its predicates with eval, which the
    # server's policy refuses; test_csp.py checks the page under the policy.
    ctx = browser.new_context(
        viewport=viewport, base_url=server, reduced_motion="reduce", bypass_csp=True
    )
    ctx.add_init_script(AT_ONCE)

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(server) or url.startswith("data:"):
            route.continue_()
        else:  # the client must need nothing from outside the server
            outside.append(url)
            route.abort()

    ctx.route("**/*", guard)
    return ctx


def _page(ctx: Any, errors: list[str]) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


TEXTS = "els => els.map(e => e.textContent)"
CARD_IDS = "els => els.map(e => e.dataset.card)"
ROUND = "() => Number(document.querySelector('.round-tag')?.textContent.match(/\\d+/)?.[0] || 0)"


def _texts(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, TEXTS))


def _hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".my-hand .hand [data-card]", CARD_IDS))


def _card_dialog(page: Any) -> dict[str, Any]:
    """Open a card's text from the court with the keyboard, then close it with Escape."""
    page.focus(".court-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector(".card-dialog[open]")
    power = page.query_selector(".card-dialog .power-text")
    title = page.inner_text(".card-dialog h2")
    out = {"title": title, "power": power.inner_text() if power else ""}
    page.keyboard.press("Escape")
    page.wait_for_selector(".card-dialog[open]", state="detached")
    out["focus_back"] = page.evaluate("document.activeElement.classList.contains('court-btn')")
    return out


def _server_has_card_texts(server: str) -> bool:
    import httpx

    return httpx.get(f"{server}/api/cards/basic", timeout=5).status_code == 200


@pytest.fixture(scope="module")
def played(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    """Play one whole game through the browser and record what happened."""
    if not Path(CHROMIUM).exists() and not REQUIRE:
        pytest.skip("no Chromium")
    rec: dict[str, Any] = {"errors": [], "outside": [], "clicks": {}, "phone_tray_visible": []}
    errors = rec["errors"]
    ctxs = [
        _context(browser, server, LAPTOP, rec["outside"]),
        _context(browser, server, PHONE, rec["outside"]),
        _context(browser, server, LAPTOP, rec["outside"]),
        _context(browser, server, LAPTOP, rec["outside"]),
    ]
    anna, ben, chloe, watcher = (_page(c, errors) for c in ctxs)
    # Ben's WebSocket goes through a proxy route, so the test can cut it like a bad network.
    ben_sockets = routed_sockets(ben)
    try:
        # --- the lobby: Anna creates a basic 4-seat table with one bot -------------------------
        phone_lobby = _page(ctxs[1], errors)
        phone_lobby.goto("/")
        phone_lobby.wait_for_selector("#create-name")
        shot(phone_lobby, "lobby-phone")
        phone_lobby.close()

        anna.goto("/")
        anna.wait_for_selector("#create-edition option[value=basic]", state="attached")
        shot(anna, "lobby-laptop")
        rec["axe_lobby"] = serious(anna)
        code = rec["code"] = create_table(anna, "Anna", players=4, bots=0)

        # --- two friends take seats by the invite link; a fourth browser watches ------------
        for page, name in ((ben, "Ben"), (chloe, "Chloé")):
            page.goto(f"/t/{code}")
            page.wait_for_selector("#sit-name")
            page.fill("#sit-name", name)
            page.click(".seat.empty [data-key^=sit-]")
            page.wait_for_selector(".room .seat.mine")
        watcher.goto(f"/t/{code}")
        watcher.wait_for_selector(".room")
        # The host gives the last empty seat to a bot.
        anna.wait_for_selector("[data-key=bot-3]")
        rec["start_disabled_while_empty"] = anna.is_disabled("[data-key=start]")
        anna.select_option("#lvl-3", "easy")
        anna.click("[data-key=bot-3]")
        anna.wait_for_function("document.querySelectorAll('.room .seat.empty').length === 0")
        watcher.wait_for_function("document.querySelectorAll('.room .seat.bot').length === 1")
        rec["room_names"] = _texts(anna, ".seat .seat-name")
        shot(anna, "waiting-room-laptop")
        shot(ben, "waiting-room-phone")
        rec["invite_link"] = anna.input_value("#invite-link")

        # --- the host starts ------------------------------------------------------------
        anna.click("[data-key=start]")
        players = {"Anna": anna, "Ben": ben, "Chloé": chloe}
        for page in (*players.values(), watcher):
            page.wait_for_selector(".table-screen")
        rec["clicks"] = {name: 0 for name in players}

        # --- the table chat: players write, the spectator reads ---------------------------
        ben.click("[data-key=tab-chat]")
        ben.fill("#chat-input", "good luck <b>all</b>")
        ben.press("#chat-input", "Enter")
        anna.click("[data-key=tab-chat]")
        anna.wait_for_selector(".chat li")
        watcher.click("[data-key=tab-chat]")
        watcher.wait_for_selector(".chat li")
        rec["chat"] = {
            "anna": anna.inner_text(".chat li"),
            "bold_tags": len(anna.query_selector_all(".chat li b b")),
            "watcher": watcher.inner_text(".chat li"),
            "watcher_input": len(watcher.query_selector_all("#chat-input")),
        }
        for page in (anna, ben, watcher):
            page.click("[data-key=tab-log]")

        drafted = reloaded = mid = False
        failed: dict[str, int] = {}
        actions = 0
        started = time.monotonic()
        while actions < MAX_ACTIONS:
            if time.monotonic() - started > MAX_SECONDS:
                stuck = {n: p.inner_text(".tray") for n, p in players.items()}
                pytest.fail(f"the game stalled after {actions} actions; the trays: {stuck}")
            if all(p.query_selector(".scores") for p in players.values()):
                break
            moved = False
            for name, page in players.items():
                button = page.query_selector(ACTION)
                if button is None:
                    continue
                if not drafted and page.query_selector(".draft-pick"):
                    drafted = True
                    shot(page, f"draft-{'phone' if page is ben else 'laptop'}")
                    other = ben if page is not ben else anna
                    shot(other, f"draft-waiting-{'phone' if other is ben else 'laptop'}")
                    rec["draft_cards"] = page.eval_on_selector_all(
                        ".draft-pick [data-card]", CARD_IDS
                    )
                round_no = page.evaluate(ROUND)
                if not reloaded and page is chloe and round_no >= 2:
                    # A reload in the middle of the game: same seat, same hand, same turn.
                    before = _hand(chloe)
                    legal_before = _texts(chloe, ACTION)
                    chloe.reload()
                    chloe.wait_for_selector(ACTION)
                    rec["reload"] = {
                        "hand_before": before,
                        "hand_after": _hand(chloe),
                        "name_after": chloe.inner_text(".my-panel .pname"),
                        "legal_before": legal_before,
                        "legal_after": _texts(chloe, ACTION),
                        "title": chloe.title(),
                    }
                    reloaded = True
                    button = chloe.query_selector(ACTION)
                    if button is None:
                        continue
                if "drop" not in rec and page is ben and round_no >= 2:
                    # The connection drops mid-game: the page says so, reconnects by itself
                    # with its token and carries on with the same hand.
                    before = _hand(ben)
                    sockets = len(ben_sockets)
                    ben_sockets[-1].close(code=4000, reason="network trouble")
                    ben.wait_for_selector(".conn.lost", timeout=5000)
                    ben.wait_for_selector(".conn.lost", state="detached", timeout=15000)
                    rec["drop"] = {
                        "new_socket": len(ben_sockets) > sockets,
                        "hand_before": before,
                        "hand_after": _hand(ben),
                    }
                    button = ben.query_selector(ACTION)
                    if button is None:
                        continue
                if not mid and round_no >= 3 and page is anna:
                    mid = True
                    shot(anna, "table-laptop")
                    shot(watcher, "spectator-laptop")
                    # Ben's page is scrolled for its two pictures, then put back where it was:
                    # left at the top, a decision of his already on screen would have its
                    # buttons below the fold only because of the pictures.
                    ben_y = ben.evaluate("window.scrollY")
                    ben.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                    shot(ben, "table-phone")
                    ben.evaluate("window.scrollTo(0, 0)")
                    shot(ben, "table-phone-top")
                    ben.evaluate(f"window.scrollTo(0, {ben_y})")
                    rec["axe_table"] = serious(anna)
                    rec["title_your_turn"] = anna.title()
                    rec["spectator"] = {
                        "hand": watcher.query_selector_all(".my-hand, ul.hand, .my-panel"),
                        "note": watcher.inner_text(".tray"),
                        "panels": len(watcher.query_selector_all(".seat-panel")),
                        "actions": len(watcher.query_selector_all(".action")),
                    }
                    rec["log_lines"] = len(anna.query_selector_all(".log li"))
                    rec["card_dialog"] = _card_dialog(anna)
                    rec["district_tiles"] = len(anna.query_selector_all(".card.district"))
                    rec["cities"] = _texts(anna, ".card.district .band .word")
                if page is ben:
                    box = button.bounding_box()
                    in_reach = bool(box) and box["y"] + box["height"] <= PHONE["height"]
                    rec["phone_tray_visible"].append(in_reach)
                try:
                    if page is chloe:
                        # Chloé plays from the keyboard only: the key the first button shows
                        # (in the draft, the rank printed on the card).
                        key = button.get_attribute("data-keynum")
                        if key:
                            page.keyboard.press(key)
                        else:
                            button.focus()
                            page.keyboard.press("Enter")
                    else:
                        page.mouse.move(0, 0)  # no hover under the pointer before the click
                        button.click(timeout=5000)
                except Exception as exc:
                    # The page may have re-rendered under the click: look again, a few times.
                    failed[name] = failed.get(name, 0) + 1
                    if failed[name] >= 3:
                        pytest.fail(
                            f"{name}: 3 clicks in a row failed: {str(exc).splitlines()[0]}\n"
                            f"the page: {page_state(page)}\n"
                            f"the server: {server_state(server, page, code)}"
                        )
                    continue
                failed[name] = 0
                rec["clicks"][name] += 1
                actions += 1
                moved = True
                # Wait until this page has taken the answer (the buttons go away or change).
                with contextlib.suppress(Exception):
                    page.wait_for_function(
                        "() => !document.querySelector('.tray .action[disabled]')", timeout=10000
                    )
            if not moved:
                time.sleep(0.05)
        rec["actions"] = actions
        rec["seconds"] = time.monotonic() - started
        for page in (*players.values(), watcher):
            page.wait_for_selector(".scores", timeout=30000)
        shot(anna, "scores-laptop")
        ben.evaluate("document.querySelector('.scores').scrollIntoView()")
        shot(ben, "scores-phone")
        rec["score_rows"] = _texts(anna, ".score-table tbody tr")
        rec["winner_line"] = anna.inner_text(".winner-line")
        rec["watcher_scores"] = bool(watcher.query_selector(".scores"))

        # --- a rematch: Anna opens a new table, the link reaches the others in the chat ----
        anna.click("[data-key=rematch]")
        anna.wait_for_url(re.compile(rf"/t/(?!{code})(?:[A-Z0-9]{{4}}-){{3}}[A-Z0-9]{{4}}$"))
        new_code = anna.url.rsplit("/", 1)[1]
        anna.wait_for_selector(".room .seat.mine")
        ben.click("[data-key=scores-close]")
        ben.click("[data-key=tab-chat]")
        ben.click(f".chat a[href='/t/{new_code}']")
        ben.wait_for_selector("#sit-name")
        rec["rematch"] = {
            "new_code": new_code,
            "old_code": code,
            "bots": len(anna.query_selector_all(".room .seat.bot")),
            "ben_url": ben.url,
        }

        # --- the replay, stepped move by move (from the spectator's scores) ---------------
        watcher.click("[data-key=replay-link]")
        watcher.wait_for_selector(".replay-bar")
        watcher.click("[data-key=r-first]")
        first = watcher.inner_text(".step")
        watcher.click("[data-key=r-next]")
        second = watcher.inner_text(".step")
        watcher.keyboard.press("ArrowRight")
        third = watcher.inner_text(".step")
        watcher.click("[data-key=r-last]")
        shot(watcher, "replay-laptop")
        rec["replay"] = {
            "steps": [first, second, third],
            "last": watcher.inner_text(".step"),
            "scores": bool(watcher.query_selector(".scores")),
            "hand": watcher.query_selector_all(".my-hand"),
        }
        yield rec
    finally:
        for ctx in ctxs:
            ctx.close()


def test_whole_game_is_played_through_the_pages(played: dict[str, Any]) -> None:
    """Three humans (one on a phone) and a bot finish a game by clicking legal actions."""
    assert played["actions"] > 20
    assert all(n > 0 for n in played["clicks"].values()), played["clicks"]
    assert len(played["score_rows"]) == 4
    assert played["winner_line"].strip()
    assert not played["errors"], played["errors"]
    assert not played["outside"], played["outside"]


def test_chat_is_plain_text_and_spectators_read_it(played: dict[str, Any]) -> None:
    chat = played["chat"]
    assert "good luck <b>all</b>" in chat["anna"]
    assert chat["bold_tags"] == 0  # shown as text, never as HTML
    assert "good luck" in chat["watcher"]
    assert chat["watcher_input"] == 0


def test_keyboard_player_finishes_the_game(played: dict[str, Any]) -> None:
    """Chloé pressed only the key "1" (the first legal action) for every decision."""
    assert played["clicks"]["Chloé"] > 5


def test_lobby_creates_and_friends_join_by_link(played: dict[str, Any]) -> None:
    """The host creates, two friends join by the link, the host gives a seat to a bot."""
    assert played["invite_link"].endswith(f"/t/{played['code']}")
    assert played["start_disabled_while_empty"]
    names = " ".join(played["room_names"])
    for name in ("Anna", "Ben", "Chloé"):
        assert name in names
    assert "Bot" in names or "bot" in names


def test_draft_offers_character_cards(played: dict[str, Any]) -> None:
    """In round 1 of a 4-player basic game the first human to choose is offered 5 characters
    (8, less 2 face up and 1 face down), or 4 when the bot chose before."""
    import citadels

    cards = played["draft_cards"]
    assert len(cards) == len(set(cards)) and len(cards) in (4, 5)
    assert set(cards) <= set(citadels.get_edition("basic").characters)


def test_reload_mid_game_reconnects_to_the_same_seat_and_hand(played: dict[str, Any]) -> None:
    r = played["reload"]
    assert r["name_after"].startswith("Chloé")
    assert r["hand_after"] == r["hand_before"]
    assert r["legal_after"] == r["legal_before"]
    assert "Your turn" in r["title"]


def test_dropped_connection_reconnects_by_itself(played: dict[str, Any]) -> None:
    d = played["drop"]
    assert d["new_socket"]
    assert d["hand_after"] == d["hand_before"]


def test_spectator_sees_the_table_but_no_hand(played: dict[str, Any]) -> None:
    s = played["spectator"]
    assert s["hand"] == []
    assert s["actions"] == 0
    assert s["panels"] == 4
    assert played["watcher_scores"]


def test_phone_plays_with_actions_in_thumb_reach(played: dict[str, Any]) -> None:
    assert played["clicks"]["Ben"] > 0
    assert played["phone_tray_visible"] and all(played["phone_tray_visible"])


def test_your_turn_shows_in_the_tab_title(played: dict[str, Any]) -> None:
    assert played["title_your_turn"].startswith("▶")


def test_card_text_opens_from_the_keyboard(played: dict[str, Any], server: str) -> None:
    d = played["card_dialog"]
    assert d["title"].strip()
    assert d["focus_back"]
    if _server_has_card_texts(server):
        assert d["power"].strip()


def test_districts_carry_a_colour_word(played: dict[str, Any], server: str) -> None:
    """Colour-blind players: every district tile names its colour in words."""
    if not _server_has_card_texts(server):
        pytest.skip("the server sends no card texts yet (GET /api/cards/{edition} requested)")
    assert played["cities"], "no district tile on the table"
    assert len(played["cities"]) == played["district_tiles"]
    assert all(w.strip() for w in played["cities"])


def test_log_tells_the_moves_in_words(played: dict[str, Any]) -> None:
    assert played["log_lines"] > 5


def test_rematch_link_brings_the_others_to_a_new_table(played: dict[str, Any]) -> None:
    r = played["rematch"]
    assert r["new_code"] != r["old_code"]
    assert r["bots"] == 1  # the same set-up: the bot keeps its seat
    assert r["ben_url"].endswith(f"/t/{r['new_code']}")


def test_replay_steps_move_by_move(played: dict[str, Any]) -> None:
    r = played["replay"]
    nums = [int(re.search(r"\d+", s).group()) for s in r["steps"]]  # type: ignore[union-attr]
    assert nums == [0, 1, 2]
    assert r["scores"]
    assert r["hand"] == []


def test_accessibility_scan_lobby(played: dict[str, Any]) -> None:
    assert played["axe_lobby"] == []


def test_accessibility_scan_table(played: dict[str, Any]) -> None:
    assert played["axe_table"] == []
