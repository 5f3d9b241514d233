"""The table at every screen size (issue 24): whole games against bots at 390×844, 768×1024,
1280×800, 1366×768 and 1920×1080. At each of the player's decisions a geometry check
(``layout_check.js``) makes sure every legal action, the hand, the court of characters and every
opponent's city are in the window or reachable by the page's own scroll (no inner scroll box,
nothing covering them), no text is clipped or cut inside a word, and the page never shows
``null``, ``undefined`` or ``NaN``. The page is served under a strict Content-Security-Policy and
must raise no violation. At each decision ``frame_check.js`` also checks the frame: nothing
under the top bar (whatever its height), the notices box under it, the court, every choice and
the hand each seen whole by the page's scroll, clear of the sticky tray; a folded own-city group
is unfolded and checked too. A screenshot of each size lands in $CITADELS_SCREENS (default: a
folder under the system's temporary one; never in git).

Clicks go through ``_click``: the pointer is moved away first, a click that fails is tried
again, and after a few the test fails with Playwright's error and the page's version, event
count and legal actions beside the server's (issue 23 item 8)."""

from __future__ import annotations

import os
import random
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import (
    launch_chromium,
    page_state,
    server_state,
)

pytestmark = pytest.mark.xdist_group("browser-layout")

CHECK = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")
FRAME = (Path(__file__).parent / "frame_check.js").read_text(encoding="utf-8")
LOBBY_CHECK = (Path(__file__).parent / "lobby_check.js").read_text(encoding="utf-8")
#: Screenshots: $CITADELS_SCREENS, else a folder under the system's temporary one (never git).
SCREENS = Path(
    os.environ.get("CITADELS_SCREENS") or Path(tempfile.gettempdir()) / "citadels-screens"
)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'"
)
ACTION = ".tray .action:not([disabled])"
SIZES = {
    "phone": ({"width": 390, "height": 844}, 3),
    "tablet": ({"width": 768, "height": 1024}, 3),
    "laptop-1280": ({"width": 1280, "height": 800}, 4),
    "laptop-1366": ({"width": 1366, "height": 768}, 3),
    "desktop-1920": ({"width": 1920, "height": 1080}, 3),
}
MAX_SECONDS = 300
#: Where the page leaves the court as a turn begins on a tablet or wider (js/layout.js
#: bringTurnIntoReach): whole in the window, clear of the top bar, the notices and the tray,
#: with the tray's first choice in sight too. Only where the two cannot both be in sight
#: between the notices and the window's bottom (a tray too tall to stick, far below the court)
#: the first choice is in sight instead.
COURT_IN_VIEW = """async () => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                          && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const court = document.querySelector('.board .court').getBoundingClientRect();
  const shown = [...document.querySelectorAll('.table-screen > .tray .action')]
    .find((el) => el.checkVisibility());
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const notices = document.querySelector('.notices');
  const top = bar + (notices ? notices.getBoundingClientRect().height : 0);
  const out = [];
  if (shown) {
    const first = shown.getBoundingClientRect();
    if (first.top < top - 1 || first.bottom > innerHeight + 1) out.push('its first choice hidden');
    // The room layout.js leaves: its GAP (8 px) under the notices and above the window's end.
    if (first.bottom - court.top > innerHeight - top - 16) {
      return out.length ? `as the turn begins, with no room for the court, ${out.join('')}` : '';
    }
  }
  if (court.top < -1 || court.bottom > innerHeight + 1) out.push('outside the window');
  for (const sel of ['.topbar', '.notices', '.table-screen > .tray']) {
    const el = document.querySelector(sel);
    const box = el && el.checkVisibility() && el.getBoundingClientRect();
    if (box && meets(court, box)) out.push('under ' + sel);
  }
  return out.length ? `as the turn begins the court (${Math.round(court.top)}..`
    + `${Math.round(court.bottom)}) is ${out.join(', ')}` : '';
}"""
#: Where the page leaves the player's hand as a turn (or a pick) begins on a tablet or wider,
#: above a sticky tray: whole in sight, wherever the window has room for the court and the hand
#: between the notices and the tray (js/layout.js bringTurnIntoReach, its GAP of 8 px).
HAND_IN_VIEW = """async () => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const hand = document.querySelector('.my-hand .hand');
  const tray = document.querySelector('.table-screen > .tray');
  if (!hand || !tray || tray.classList.contains('unstuck')) return '';
  const court = document.querySelector('.board .court').getBoundingClientRect();
  const h = hand.getBoundingClientRect();
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const notices = document.querySelector('.notices');
  const top = bar + (notices ? notices.getBoundingClientRect().height : 0) + 8;
  const bottom = tray.getBoundingClientRect().top - 8;
  if (h.bottom - court.top > bottom - top) return '';
  if (h.top >= top - 1 && h.bottom <= bottom + 1) return '';
  return `as the turn begins the hand (${Math.round(h.top)}..${Math.round(h.bottom)}) is `
    + `not in sight between ${Math.round(top)} and the tray at ${Math.round(bottom)}`;
}"""
CLICK_TRIES = 3


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium as in conftest.py, less its local-network checks: a document the test serves
    through a route (to add the CSP header) counts as coming from nowhere, and Chromium would
    then refuse its WebSocket to the loopback server."""
    yield from launch_chromium(
        "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks"
    )


def _context(browser: Any, server: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")

    def with_csp(route: Any) -> None:
        if route.request.resource_type != "document":
            route.continue_()
            return
        response = route.fetch()
        headers = {**response.headers, "content-security-policy": CSP}
        route.fulfill(response=response, headers=headers)

    ctx.route("**/*", with_csp)
    return ctx


def _page(ctx: Any, errors: list[str]) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    return page


def _click(page: Any, selector: str, server: str, code: str) -> None:
    """Click ``selector`` with the pointer moved away first; fail with both sides' state after
    a few failed tries."""
    error = ""
    for _ in range(CLICK_TRIES):
        page.mouse.move(0, 0)
        try:
            page.click(selector, timeout=4000)
            return
        except Exception as exc:  # reported below
            error = str(exc).splitlines()[0]
    _fail_with_state(page, server, code, f"{CLICK_TRIES} clicks on {selector} failed: {error}")


def _fail_with_state(page: Any, server: str, code: str, what: str) -> None:
    """Fail the test with ``what``, the page's state and the server's for this page's seat."""
    mine = page_state(page)
    pytest.fail(f"{what}\nthe page: {mine}\nthe server: {server_state(server, page, code)}")


def _choose(page: Any, rng: random.Random) -> str:
    """A selector for the action to play: a build when there is one, else mostly the first."""
    # Only the buttons in view: a folded group's (the own city's) are there but hidden.
    shown = [a for a in page.query_selector_all(ACTION) if a.is_visible()]
    if not shown and page.query_selector(".tray details:not([open]) > summary"):
        # Every choice is in the folded group: unfold it, as a player would.
        page.click(".tray details:not([open]) > summary")
        shown = [a for a in page.query_selector_all(ACTION) if a.is_visible()]
    if not shown:  # the tray is being redrawn: its next look finds the buttons
        return ACTION
    builds = [a for a in shown if a.get_attribute("data-action") == "build"]
    if builds:
        return f"{ACTION}[data-index='{builds[0].get_attribute('data-index')}']"
    pick = shown[0] if len(shown) == 1 or rng.random() < 0.7 else rng.choice(shown)
    return f"{ACTION}[data-index='{pick.get_attribute('data-index')}']"


def _lobby_problems(page: Any) -> list[str]:
    """The lobby: the language switch is not covered, the edition's title is not cut, the
    join field's hint does not look like a filled-in code."""
    return list(page.evaluate(LOBBY_CHECK))


def _shot(page: Any, name: str) -> None:
    """What the window shows (a full-page picture would draw the sticky tray mid-page), then
    the same scrolled to the end of the page."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(SCREENS / f"{name}.png"))
    if page.evaluate("document.scrollingElement.scrollHeight > window.innerHeight + 4"):
        y = page.evaluate("window.scrollY")
        page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
        page.screenshot(path=str(SCREENS / f"{name}-end.png"))
        page.evaluate(f"window.scrollTo(0, {y})")


def _frame(page: Any) -> list[str]:
    """The frame's problems (frame_check.js): the top bar, the notices box and the tray leave
    the court, every choice and the hand in sight."""
    return list(page.evaluate(FRAME)["problems"])


def _own_city(page: Any) -> list[str]:
    """Unfold the player's own city in the tray, as a player would, check the table and the
    frame with it open, and fold it again (its choices harm the player's city: the test's
    random choice is not made among them). Answers the problems found."""
    page.mouse.move(0, 0)
    page.click(".tray details.menu-group.own:not([open]) > summary")
    page.wait_for_selector(".tray details.menu-group.own[open]")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    found = [f"own city unfolded: {p}" for p in page.evaluate(CHECK, {"table": True})]
    found += [f"own city unfolded: {p}" for p in _frame(page)]
    page.click(".tray details.menu-group.own[open] > summary")
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_whole_game_shows_the_whole_table(browser: Any, server: str, size: str) -> None:
    viewport, players = SIZES[size]
    rng = random.Random(size)
    errors: list[str] = []
    ctx = _context(browser, server, viewport)
    try:
        page = _page(ctx, errors)
        page.goto("/")
        page.wait_for_selector("#create-edition option[value=basic]", state="attached")
        page.select_option("#create-edition", "basic")
        page.evaluate("document.fonts.ready.then(() => true)")
        lobby = _lobby_problems(page)
        _shot(page, f"{size}-lobby")
        page.fill("#create-name", "Ada")
        page.select_option("#create-players", str(players))
        page.select_option("#create-bots", str(players - 1))
        _click(page, "[data-key=create-submit]", server, "")
        page.wait_for_url(re.compile(r"/t/(?:[A-Z0-9]{4}-){3}[A-Z0-9]{4}$"))
        code = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("[data-key=start], .table-screen")
        _shot(page, f"{size}-room")
        if page.query_selector("[data-key=start]"):
            _shot(page, f"{size}-room")
            _click(page, "[data-key=start]", server, code)
        page.wait_for_selector(".table-screen")

        problems: dict[str, list[str]] = {}
        decisions = 0
        shots = {"draft": False, "turn": False}
        dialog_checked = False
        last_title = ""
        started = time.monotonic()
        while not page.query_selector(".scores"):
            assert time.monotonic() - started < MAX_SECONDS, f"stalled after {decisions}"
            try:
                # A shown choice: a menu may start with the folded own city's.
                page.wait_for_selector(f"{ACTION}:visible, .scores", timeout=20000)
            except Exception:
                pytest.fail(f"no decision came: {server_state(server, page, code)}")
            if page.query_selector(".scores"):
                break
            page.mouse.move(0, 0)
            kind = "draft" if page.query_selector(".draft-pick") else "turn"
            title = page.evaluate(
                "(document.querySelector('.tray .tray-title') || {}).textContent || ''"
            )
            found = []
            if title != last_title and viewport["width"] >= 768:
                # The first decision of a character's turn (or of a pick), before the checks
                # scroll the page: the court in sight, and the hand where there is room.
                found += [p for p in [page.evaluate(COURT_IN_VIEW)] if p]
                found += [p for p in [page.evaluate(HAND_IN_VIEW)] if p]
            last_title = title
            found += page.evaluate(CHECK, {"table": True}) + _frame(page)
            own = ".tray details.menu-group.own:not([open]) > summary"
            if page.query_selector(own) and any(
                a.is_visible() for a in page.query_selector_all(ACTION)
            ):
                if not shots.get("own"):
                    shots["own"] = True
                    page.click(own)
                    _shot(page, f"{size}-own-city")
                    page.click(".tray details.menu-group.own[open] > summary")
                found += _own_city(page)
            for p in found:
                problems.setdefault(p, []).append(f"decision {decisions} ({kind})")
            many = len(page.query_selector_all(ACTION)) >= 3
            if not shots[kind] and (kind == "draft" or many):
                shots[kind] = True
                _shot(page, f"{size}-{kind}")
            if not dialog_checked and page.query_selector(".my-hand .hand .card"):
                # A district's text opens with a tap; it never says null (no rulings).
                page.mouse.move(0, 0)
                page.click(".my-hand .hand .card")
                page.wait_for_selector(".card-dialog[open]")
                text = page.inner_text(".card-dialog")
                assert not re.search(r"\b(null|undefined|NaN)\b", text), text
                page.keyboard.press("Escape")
                page.wait_for_selector(".card-dialog[open]", state="detached")
                dialog_checked = True
            version = int(page.evaluate("document.getElementById('app').dataset.version"))
            chosen = _choose(page, rng)
            _click(page, chosen, server, code)
            decisions += 1
            # The player's own move is drawn at once: wait for it, or the next look at the
            # tray could still see this decision's buttons.
            try:
                page.wait_for_function(
                    "(v) => Number(document.getElementById('app').dataset.version) > v"
                    " || document.querySelector('.scores')",
                    arg=version,
                    timeout=15000,
                )
            except Exception as exc:  # reported with both sides' state
                _fail_with_state(
                    page,
                    server,
                    code,
                    f"decision {decisions} ({kind}): the click on {chosen} at version {version}"
                    f" was not drawn ({str(exc).splitlines()[0]})",
                )
        page.wait_for_selector(".scores")
        found = page.evaluate(CHECK, {"table": False})
        for p in found:
            problems.setdefault(p, []).append("the scores")
        _shot(page, f"{size}-scores")
        assert decisions > 5
        report = [*(f"lobby: {p}" for p in lobby)]
        report += [f"{p}  [{', '.join(w[:3])}]" for p, w in problems.items()]
        report += errors
        assert not report, "\n".join(report)
    finally:
        ctx.close()


def test_card_without_rulings_shows_no_null(browser: Any, server: str) -> None:
    """The card dialog of a card with no power and no rulings holds no "null" text."""
    errors: list[str] = []
    ctx = _context(browser, server, {"width": 1280, "height": 800})
    try:
        page = _page(ctx, errors)
        page.goto("/")
        page.wait_for_selector("#create-edition option[value=basic]", state="attached")
        cards = httpx.get(f"{server}/api/cards/basic?lang=en", timeout=5).json()["cards"]
        plain = next(c["id"] for c in cards if c.get("kind") == "district" and not c.get("rulings"))
        page.evaluate(
            "async (id) => { const m = await import('/static/js/cards.js'); m.showCard(id); }",
            plain,
        )
        page.wait_for_selector(".card-dialog[open]")
        text = page.inner_text(".card-dialog")
        assert text.strip()
        assert "null" not in text and "undefined" not in text, text
        assert not errors, errors
    finally:
        ctx.close()
