"""The turn tells its story (issue 24): other players' moves reach the screen one by one at the
chosen pace, "skip to my turn" jumps to the player's decision, what happened to the player is
announced on the page and to screen readers, the menu groups its choices by target and asks
before harming one's own city, and each number key plays the button that shows it (in the
draft: the card's rank).

The pacer's clock is injected (``window.citadelsClock``, see js/pace.js): the test fires its
timers itself, so nothing here waits on or measures wall-clock time. The positions for the
notices come from real games whose other seats are played by the test through the protocol
(``PlayerClient``), each choosing the move aimed at the browser's player when it has one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from citadels.server.client import PlayerClient
from tests.web.conftest import CHROMIUM, LAPTOP, PHONE, serious, shot, token_key

pytestmark = pytest.mark.xdist_group("story")

#: The test's clock: setTimeout only queues; ``fire()`` runs the oldest timer and answers the
#: delay it was set for. Installed before the page's modules load.
CLOCK = """
window.citadelsClock = {
  pending: [], next: 1, asked: [],
  setTimeout(fn, ms) {
    const id = this.next++;
    this.pending.push({ id, fn, ms });
    this.asked.push(ms);
    return id;
  },
  clearTimeout(id) { this.pending = this.pending.filter((t) => t.id !== id); },
  fire() { const t = this.pending.shift(); if (!t) return null; t.fn(); return t.ms; },
};
"""
#: Every text written into the notices' live region, kept as it is written.
LIVE = """
window.__live = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.getElementById("notice-live");
  new MutationObserver(() => { if (el.textContent) window.__live.push(el.textContent); })
    .observe(el, { childList: true, subtree: true, characterData: true });
});
"""
#: Every message the page sends on its WebSocket, kept (to check which action a key played).
SENT = """
window.__sent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { window.__sent.push(JSON.parse(data)); } catch (e) {}
  return send.call(this, data);
};
"""
#: A bounded wait for a game to reach what a test needs (a stalled game fails, never hangs).
MAX_SECONDS = 240


def _create(server: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{server}/api/tables", json={"public": False, **body}, timeout=30)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _join(server: str, code: str, name: str) -> str:
    r = httpx.post(f"{server}/api/tables/{code}/join", json={"name": name}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _start(server: str, code: str, token: str) -> None:
    r = httpx.post(
        f"{server}/api/tables/{code}/start",
        json={},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert r.status_code == 200, r.text


def _page(
    browser: Any,
    server: str,
    code: str,
    token: str,
    *,
    pace: int,
    viewport: dict[str, int] = LAPTOP,
    errors: list[str],
) -> Any:
    # Playwright's wait_for_function evaluates its predicate with eval, which the server's
    # policy refuses; tests/web/test_csp.py and the strict test below run under the policy.
    ctx = browser.new_context(
        viewport=viewport, base_url=server, reduced_motion="reduce", bypass_csp=True
    )
    ctx.add_init_script(CLOCK + LIVE + SENT)
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps(token_key(code))}, {json.dumps(token)});"
        f"localStorage.setItem('citadels.pace', '{pace}');"
        "localStorage.setItem('citadels.lang', 'en');"
    )
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/t/{code}")
    page.wait_for_selector(".table-screen")
    return page


def _shown_version(page: Any) -> int:
    return int(page.get_attribute(".pace", "data-shown-version") or -1)


def _waiting(page: Any) -> int:
    return int(page.get_attribute(".pace", "data-waiting") or 0)


def _actions(page: Any) -> list[dict[str, Any]]:
    """The enabled choices on the page: the action (from its data-key), its key number and
    label."""
    return list(
        page.eval_on_selector_all(
            ".tray .action:not([disabled])",
            """els => els.map(e => ({
                action: JSON.parse(e.dataset.key.replace(/^act-\\d+-/, '')),
                keynum: e.dataset.keynum || null,  // "1"-"9", "0", then "a"-"z"
                index: Number(e.dataset.index),
                label: e.querySelector('.action-label').textContent,
                ends: !!e.querySelector('.ends-tag'),
                group: e.closest('.menu-group')
                    ? Number(e.closest('.menu-group').dataset.target) : null,
                folded: !!e.closest('details:not([open])'),
            }))""",
        )
    )


# --- other seats played by the test through the protocol ---------------------------------------


class Seats:
    """Seats played by the test in a thread of their own (asyncio), each choosing with
    ``choose(client, legal)``; ``watch`` is seat 0's own connection (to know its characters)."""

    def __init__(
        self, server: str, code: str, tokens: list[str], watch: str, choose: Callable[..., Any]
    ) -> None:
        self.server, self.code, self.tokens, self.watch_token = server, code, tokens, watch
        self.choose = choose
        self.watch: PlayerClient | None = None
        self.stop = threading.Event()
        self.failed: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported by the test
            self.failed.append(exc)

    async def _main(self) -> None:
        self.watch = PlayerClient(self.server, self.code, self.watch_token)
        await self.watch.connect()
        clients = []
        for i, token in enumerate(self.tokens):
            c = PlayerClient(self.server, self.code, token, seed=i)
            c.choose = lambda legal, view, c=c: self.choose(self, c, legal)
            await c.connect()
            clients.append(c)

        async def follow(c: PlayerClient) -> None:
            while not self.stop.is_set() and c.result is None:
                with_legal = c.legal and c.version != getattr(c, "_acted", -1)
                if with_legal:
                    c._acted = c.version  # type: ignore[attr-defined]
                    await c.act(c.choose(c.legal, c.view))
                with contextlib.suppress(TimeoutError):
                    await c.recv(timeout=0.5)

        async def keep(c: PlayerClient) -> None:
            while not self.stop.is_set() and c.result is None:
                with contextlib.suppress(TimeoutError):
                    await c.recv(timeout=0.5)

        await asyncio.gather(keep(self.watch), *(follow(c) for c in clients))
        for c in [self.watch, *clients]:
            await c.close()

    def mine(self) -> set[str]:
        """Seat 0's characters now (from its own connection)."""
        view = self.watch.view if self.watch else None
        if not view:
            return set()
        me = next(p for p in view["players"] if p["seat"] == 0)
        return set(me.get("characters") or [])


def _aim_at_seat_0(
    seats: Seats, client: PlayerClient, legal: list[dict[str, Any]]
) -> dict[str, Any]:
    """A move against seat 0 when there is one (murder, rob, bewitch its characters, destroy its
    districts); in the draft the characters that can do it; otherwise gold, then end the turn."""
    mine = seats.mine()
    actions = [entry["action"] for entry in legal]
    for kind in ("murder", "bewitch", "rob"):
        for a in actions:
            if a["type"] == kind and a.get("character") in mine:
                return a
    for a in actions:
        if a["type"] == "destroy" and a.get("seat") == 0:
            return a
    wanted = ["assassin", "witch", "thief", "warlord"]
    picks = [a for a in actions if a["type"] == "pick"]
    if picks:
        return min(
            picks, key=lambda a: wanted.index(a["character"]) if a["character"] in wanted else 9
        )
    for kind in ("gather_gold", "take_income", "end_turn"):
        for a in actions:
            if a["type"] == kind:
                return a
    # Anything else (keep a card, a power's second step): the first choice that harms nobody.
    harmless = [a for a in actions if a["type"] not in ("murder", "rob", "bewitch", "destroy")]
    return (harmless or actions)[0]


def _last_act(page: Any) -> dict[str, Any] | None:
    acts = [m for m in page.evaluate("window.__sent") if m.get("type") == "act"]
    return acts[-1]["action"] if acts else None


def _browser_move(page: Any, rec: dict[str, Any], prefer: tuple[str, ...] = ()) -> bool:
    """Seat 0's move through the page, by its number key whenever the button shows one: a
    character no opponent wants (or one of ``prefer``), gold, the cheapest building it can
    afford, then the end of the turn. Checks that the key played the button's action and, in
    the draft, that the key is the card's rank. Answers whether it moved."""
    acts = _actions(page)
    if not acts:
        return False
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by_type.setdefault(a["action"]["type"], []).append(a)
    choice = None
    if "pick" in by_type:
        shy = ("assassin", "witch", "thief", "warlord", "bishop")
        liked = [a for a in by_type["pick"] if a["action"]["character"] in prefer]
        calm = [a for a in by_type["pick"] if a["action"]["character"] not in shy]
        choice = (liked or calm or by_type["pick"])[0]
    elif "put_aside" in by_type:
        choice = by_type["put_aside"][0]
    else:
        for kind in ("gather_gold", "take_income", "build", "keep", "end_turn"):
            if kind in by_type:
                choice = by_type[kind][0]
                break
        if choice is None:
            choice = next(
                (a for a in acts if a["action"]["type"] not in ("destroy", "armory")), acts[0]
            )
    version = _shown_version(page)
    if choice["keynum"] and not choice["folded"]:
        if choice["action"].get("character"):
            rank = rec["ranks"][choice["action"]["character"]]
            key = int(choice["keynum"])
            rec.setdefault("draft_keys", []).append((key, rank, choice["index"] + 1))
        page.keyboard.press(choice["keynum"])
        rec.setdefault("keys", []).append((choice["action"], "pending"))
    else:
        page.click(f".tray .action[data-index='{choice['index']}']")
    # The move is answered by an update (the buttons are redrawn).
    page.wait_for_function(
        "([v]) => Number(document.querySelector('.pace')?.dataset.shownVersion) > v"
        " || !document.querySelector('.pace')",
        arg=[version],
    )
    if choice["keynum"] and not choice["folded"]:
        rec["keys"][-1] = (choice["action"], _last_act(page))
    return True


def _play_until(
    page: Any,
    seats: Seats,
    done: Callable[[], bool],
    rec: dict[str, Any],
    prefer: tuple[str, ...] = (),
) -> None:
    """Play seat 0 through the page (pace 0: moves are shown at once) until ``done()``."""
    end = time.monotonic() + MAX_SECONDS
    while not done():
        assert not seats.failed, seats.failed
        assert time.monotonic() < end, "the game did not reach the position in time"
        if page.query_selector(".table-screen.over"):
            return
        if not _browser_move(page, rec, prefer):
            page.wait_for_timeout(100)


def _ranks(server: str, edition: str) -> dict[str, int]:
    cards = httpx.get(f"{server}/api/cards/{edition}", timeout=30).json()["cards"]
    return {c["id"]: c["rank"] for c in cards if c["kind"] == "character"}


@pytest.fixture(scope="module")
def errors() -> list[str]:
    return []


@pytest.fixture(scope="module")
def notice_game(browser: Any, server: str, errors: list[str]) -> Iterator[dict[str, Any]]:
    """A basic game (Assassin, Thief, Warlord) of three: seat 0 in the browser, seats 1 and 2
    played by the test against it, until it has been murdered, robbed and had a district
    destroyed. Then a classic game with the Witch, until it has been bewitched."""
    rec: dict[str, Any] = {"ranks": _ranks(server, "basic")}
    # --- the basic game --------------------------------------------------------------------
    made = _create(server, {"name": "Anna", "edition": "basic", "players": 3, "seed": 2024})
    code, token = made["code"], made["token"]
    others = [_join(server, code, "Ben"), _join(server, code, "Chloé")]
    seats = Seats(server, code, others, token, _aim_at_seat_0)
    seats.thread.start()
    _start(server, code, token)
    page = _page(browser, server, code, token, pace=0, errors=errors)

    def kinds() -> set[str]:
        return set(
            page.eval_on_selector_all(".notices .notice", "els => els.map(e => e.dataset.kind)")
        )

    seen: set[str] = set()
    shots = {"destroyed": False}

    def done() -> bool:
        now = kinds()
        if now and not shots["destroyed"] and "destroyed" in now:
            shots["destroyed"] = True
            shot(page, "story-notice-laptop")
            rec["axe_notices"] = serious(page)
            page.set_viewport_size(PHONE)
            shot(page, "story-notice-phone")
            rec["notice_box_in_phone_view"] = page.evaluate(
                "(() => { const r = document.querySelector('.notices').getBoundingClientRect();"
                " return r.top >= 0 && r.bottom <= innerHeight; })()"
            )
            page.set_viewport_size(LAPTOP)
        seen.update(now)
        return {"murdered", "destroyed"} <= seen and bool({"rob", "robbed"} & seen)

    try:
        _play_until(page, seats, done, rec)
        rec["basic_kinds"] = set(seen)
        rec["basic_live"] = list(page.evaluate("window.__live"))
        rec["basic_texts"] = list(
            page.eval_on_selector_all(".notices .notice", "els => els.map(e => e.textContent)")
        )
        # A language switch words the notices anew and empties the live region.
        if kinds():
            before = rec["basic_texts"]
            page.select_option("[data-key=lang]", "ru")
            page.wait_for_function("document.documentElement.lang === 'ru'")
            page.wait_for_load_state("networkidle")  # the card names in Russian
            shot(page, "story-notice-ru-laptop")
            rec["ru_texts"] = list(
                page.eval_on_selector_all(".notices .notice", "els => els.map(e => e.textContent)")
            )
            rec["en_texts_before_switch"] = before
            rec["live_after_switch"] = page.text_content("#notice-live")
            page.select_option("[data-key=lang]", "en")
            page.wait_for_function("document.documentElement.lang === 'en'")
    finally:
        seats.stop.set()
        seats.thread.join(timeout=10)
        page.context.close()
    # --- the classic game with the Witch ---------------------------------------------------
    rec["ranks"].update(_ranks(server, "classic"))
    witch_set = ["witch", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    made = _create(
        server,
        {"name": "Anna", "edition": "classic", "players": 3, "characters": witch_set, "seed": 7},
    )
    code, token = made["code"], made["token"]
    others = [_join(server, code, "Ben"), _join(server, code, "Chloé")]
    seats = Seats(server, code, others, token, _aim_at_seat_0)
    seats.thread.start()
    _start(server, code, token)
    page = _page(browser, server, code, token, pace=0, errors=errors)
    try:
        _play_until(page, seats, lambda: "bewitched" in kinds(), rec)
        rec["witch_kinds"] = kinds()
        rec["witch_live"] = list(page.evaluate("window.__live"))
    finally:
        seats.stop.set()
        seats.thread.join(timeout=10)
        page.context.close()
    yield rec


def test_murdered_robbed_destroyed_are_announced(notice_game: dict[str, Any]) -> None:
    kinds = notice_game["basic_kinds"]
    assert "murdered" in kinds and "destroyed" in kinds and kinds & {"rob", "robbed"}
    live = " ".join(notice_game["basic_live"])
    assert "murdered your" in live
    assert "destroyed your" in live
    assert "rob your" in live or "gold from you" in live


def test_bewitched_is_announced(notice_game: dict[str, Any]) -> None:
    assert "bewitched" in notice_game["witch_kinds"]
    assert any("bewitched your" in text for text in notice_game["witch_live"]), notice_game[
        "witch_live"
    ]


def test_notices_are_in_sight_on_a_phone(notice_game: dict[str, Any]) -> None:
    assert notice_game["notice_box_in_phone_view"]


def test_notices_and_the_grouped_menu_pass_the_accessibility_scan(
    notice_game: dict[str, Any], warlord: dict[str, Any]
) -> None:
    assert notice_game["axe_notices"] == []
    assert warlord["axe_menu"] == []


def test_notices_follow_a_language_switch(notice_game: dict[str, Any]) -> None:
    before, after = notice_game["en_texts_before_switch"], notice_game["ru_texts"]
    assert len(before) == len(after) and before != after
    assert all(any("\u0400" <= ch <= "\u04ff" for ch in text) for text in after)
    assert not notice_game["live_after_switch"]


def test_number_keys_play_the_button_that_shows_them(notice_game: dict[str, Any]) -> None:
    keys = notice_game["keys"]
    assert len(keys) >= 5
    # Keys played both draft picks and turn actions (gold, builds, the end of the turn).
    assert any(shown["type"] == "pick" for shown, _ in keys)
    assert any(shown["type"] != "pick" for shown, _ in keys)
    for shown, sent in keys:
        assert sent == shown


def test_draft_keys_are_the_ranks_printed_on_the_cards(notice_game: dict[str, Any]) -> None:
    draft = notice_game["draft_keys"]
    assert draft and all(key == rank for key, rank, _place in draft)
    # At least once the key differs from the card's place in the row (the old trap).
    assert any(key != place for key, _rank, place in draft)


# --- pacing: bots' moves one by one, at the configured delay, and "skip to my turn" ------------


@pytest.fixture(scope="module")
def paced(browser: Any, server: str, errors: list[str]) -> Iterator[dict[str, Any]]:
    """A basic game of four: seat 0 in the browser at a pace of 2 s, three easy bots."""
    made = _create(
        server,
        {
            "name": "Anna",
            "edition": "basic",
            "players": 4,
            "seed": 11,
            "bots": {"1": "easy", "2": "easy", "3": "easy"},
        },
    )
    code, token = made["code"], made["token"]
    _start(server, code, token)
    page = _page(browser, server, code, token, pace=2000, errors=errors)
    rec: dict[str, Any] = {"steps": []}
    try:
        end = time.monotonic() + MAX_SECONDS
        # Let the bots move: play seat 0's decisions until some of their moves wait.
        while _waiting(page) < 2:
            assert time.monotonic() < end, "no bot move ever waited"
            if _actions(page):
                page.click(".tray .action:not([disabled])")
            page.wait_for_timeout(100)
            # Shown moves arm the next timer: fire it so the queue moves when the test is not
            # yet measuring.
            if _waiting(page) < 2 and page.evaluate("window.citadelsClock.pending.length"):
                page.evaluate("window.citadelsClock.fire()")
        # Now one move per timer: each fire shows exactly the next version.
        while _waiting(page) >= 2 and len(rec["steps"]) < 4:
            before = (_shown_version(page), _waiting(page))
            page.wait_for_timeout(150)  # nothing moves without the clock
            still = (_shown_version(page), _waiting(page))
            delay = page.evaluate("window.citadelsClock.fire()")
            after = (_shown_version(page), _waiting(page))
            rec["steps"].append({"before": before, "still": still, "delay": delay, "after": after})
        # Skip: straight to seat 0's decision, every waiting move shown.
        if _waiting(page):
            rec["waiting_before_skip"] = _waiting(page)
            page.click("[data-key=skip-moves]")
            page.wait_for_selector(".tray .action:not([disabled])")
            rec["after_skip"] = {
                "waiting": _waiting(page),
                "shown": _shown_version(page),
                "server": httpx.get(f"{server}/api/tables/{code}", timeout=30).json()["version"],
                "tray": len(_actions(page)),
            }
    finally:
        page.context.close()
    yield rec


def test_bot_moves_reach_the_screen_one_by_one_at_the_chosen_pace(paced: dict[str, Any]) -> None:
    steps = paced["steps"]
    assert steps
    for step in steps:
        assert step["still"] == step["before"]  # nothing is shown before the clock says so
        assert step["delay"] == 2000  # the pace chosen for this browser
        assert step["after"][0] == step["before"][0] + 1  # exactly one move more
        assert step["after"][1] == step["before"][1] - 1


def test_skip_jumps_to_my_decision(paced: dict[str, Any]) -> None:
    assert paced.get("waiting_before_skip"), "some moves were waiting to be skipped"
    after = paced["after_skip"]
    assert after["waiting"] == 0 and after["tray"] > 0
    assert after["shown"] == after["server"]


# --- the menu: grouped by target, ends-turn marks, the self-harm confirmation ------------------


def _builder(seats: Seats, client: PlayerClient, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """An opponent that leaves the Warlord to seat 0 and builds a city for it to aim at."""
    actions = [entry["action"] for entry in legal]
    picks = [a for a in actions if a["type"] == "pick"]
    if picks:
        calm = [
            a for a in picks if a["character"] not in ("warlord", "assassin", "thief", "bishop")
        ]
        return (calm or picks)[0]
    for kind in ("gather_gold", "take_income", "build", "end_turn"):
        for a in actions:
            if a["type"] == kind:
                return a
    harmless = [a for a in actions if a["type"] not in ("murder", "rob", "destroy")]
    return (harmless or actions)[0]


@pytest.fixture(scope="module")
def warlord(browser: Any, server: str, errors: list[str]) -> Iterator[dict[str, Any]]:
    """A classic game of three where seat 0 (the browser) takes the Warlord whenever it can,
    until its menu offers to destroy a district of its own city and of another's."""
    # Classic: the Warlord destroys at the end of his turn, so destroying ends it.
    made = _create(server, {"name": "Anna", "edition": "classic", "players": 3, "seed": 99})
    code, token = made["code"], made["token"]
    others = [_join(server, code, "Ben"), _join(server, code, "Chloé")]
    seats = Seats(server, code, others, token, _builder)
    seats.thread.start()
    _start(server, code, token)
    page = _page(browser, server, code, token, pace=0, errors=errors)
    rec: dict[str, Any] = {"ranks": _ranks(server, "classic")}

    def ready() -> bool:
        groups = {a["group"] for a in _actions(page) if a["action"]["type"] == "destroy"}
        return 0 in groups and len(groups) >= 2

    try:
        _play_until(page, seats, ready, rec, prefer=("warlord",))
        assert ready(), "the game ended before the Warlord could aim at both cities"
        rec["dom"] = _actions(page)
        rec["legal"] = list(seats.watch.legal) if seats.watch else []
        rec["titles"] = page.eval_on_selector_all(
            ".tray .menu-group", "els => els.map(e => [e.dataset.target, e.tagName])"
        )
        shot(page, "story-menu-laptop")
        rec["axe_menu"] = serious(page)
        sent = lambda: len(page.evaluate("window.__sent"))  # noqa: E731
        own = next(a for a in rec["dom"] if a["group"] == 0 and a["action"]["type"] == "destroy")
        rec["own"] = own
        page.click(".menu-group.own > summary")
        count = sent()
        page.click(f".tray .action[data-index='{own['index']}']")
        page.wait_for_selector(".confirm-dialog[open]")
        rec["confirm_text"] = page.inner_text(".confirm-dialog")
        page.click("[data-key=confirm-no]")
        page.wait_for_selector(".confirm-dialog[open]", state="detached")
        rec["sent_after_cancel"] = sent() - count
        # The key of the same button asks too; this time the player confirms.
        page.keyboard.press(own["keynum"])
        page.wait_for_selector(".confirm-dialog[open]")
        page.click("[data-key=confirm-yes]")
        page.wait_for_function("([n]) => window.__sent.length > n", arg=[count])
        rec["confirmed"] = _last_act(page)
    finally:
        seats.stop.set()
        seats.thread.join(timeout=10)
        page.context.close()
    yield rec


def test_menu_groups_choices_by_target_own_city_last_and_folded(warlord: dict[str, Any]) -> None:
    dom = warlord["dom"]
    # The page keeps the server's menu order (data-index is the place in `legal`)...
    assert [a["index"] for a in dom] == sorted(a["index"] for a in dom)

    # ...untargeted first, then each opponent's group, the player's own city, ending the turn.
    def rank(a: dict[str, Any]) -> int:
        if a["action"]["type"] == "end_turn":
            return 3
        return {None: 0, 0: 2}.get(a["group"], 1)

    assert [rank(a) for a in dom] == sorted(rank(a) for a in dom)
    assert warlord["titles"][-1] == ["0", "DETAILS"]
    assert all(a["folded"] == (a["group"] == 0) for a in dom)
    # Opponents' groups follow the order of play after seat 0.
    order = [int(t) for t, _tag in warlord["titles"]]
    assert order == [*sorted(order[:-1]), 0]


def test_buttons_say_when_an_action_ends_the_turn(warlord: dict[str, Any]) -> None:
    legal = warlord["legal"]
    assert legal, "the seat's own connection holds the menu"
    assert any(a["ends"] for a in warlord["dom"]), "a classic Warlord's destruction ends the turn"
    for a in warlord["dom"]:
        entry = legal[a["index"]]
        assert entry["action"] == a["action"]
        assert a["ends"] == (entry["ends_turn"] and entry["action"]["type"] != "end_turn")


def test_destroying_your_own_district_asks_first(warlord: dict[str, Any]) -> None:
    own = warlord["own"]
    assert own["label"] in warlord["confirm_text"]
    assert warlord["sent_after_cancel"] == 0  # cancelled: nothing was played
    assert warlord["confirmed"] == own["action"]


# --- a strict Content-Security-Policy ---------------------------------------------------------

CSP = "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"
#: Every violation the page reports (a blocked script, style attribute, image, socket...).
VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${where} ${e.sample}`);
});
"""


def test_the_client_runs_under_a_strict_content_security_policy(browser: Any, server: str) -> None:
    """Served with ``default-src 'self'`` (no inline script, no style attribute in markup, no
    data: image), the lobby and a game against bots, with motion on, report no violation."""
    # A page answered by the test's route has no address of its own, and Chromium's local
    # network checks would then refuse its socket to 127.0.0.1: a browser of its own, without
    # them, for this test.
    strict = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-features=LocalNetworkAccessChecks"],
    )
    ctx = strict.new_context(viewport=LAPTOP, base_url=server)  # motion on: the flyers run
    ctx.add_init_script(VIOLATIONS + "localStorage.setItem('citadels.pace', '500');")

    def with_csp(route: Any) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": CSP}
        route.fulfill(response=response, headers=headers)

    # The pages themselves carry the policy (a route on every URL would also catch the socket).
    ctx.route(re.compile(r"^http://[^/]+/(t/[A-Z0-9]+)?$"), with_csp)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/")
        page.wait_for_selector("#create-name")
        made = _create(
            server,
            {
                "name": "Anna",
                "edition": "basic",
                "players": 3,
                "seed": 5,
                "bots": {"1": "easy", "2": "easy"},
            },
        )
        page.evaluate(
            "([k, t]) => localStorage.setItem(k, t)",
            [token_key(made["code"]), made["token"]],
        )
        _start(server, made["code"], made["token"])
        page.goto(f"/t/{made['code']}")
        try:
            page.wait_for_selector(".table-screen")
        except Exception as exc:
            raise AssertionError([page.evaluate("window.__csp"), page.inner_text("body")]) from exc
        for _ in range(12):  # a few decisions: the draft, gold, builds, the end of turns
            page.wait_for_selector(".tray .action:not([disabled])", timeout=60000)
            page.click(".tray .action:not([disabled])")
            page.wait_for_timeout(300)
        page.click(".court-btn")
        page.wait_for_selector(".card-dialog[open]")
        assert page.query_selector(".card .emblem"), "the emblems are drawn"
        violations = page.evaluate("window.__csp")
    finally:
        ctx.close()
        strict.close()
    assert not violations, violations
    assert not errors, errors


def test_no_page_error(errors: list[str]) -> None:
    """No script error on any page of this module (it runs last: after every game above)."""
    assert not errors, errors
