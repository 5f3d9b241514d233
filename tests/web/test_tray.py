"""The frame of the table at every size (issue 24): a long Warlord-like menu with the player's own
city unfolded still fits the actions tray, the top bar's real height (--topbar-h) pushes the
table, the notices and the side panel down, and the court of characters, every choice and the
hand can each be seen whole by the page's own scroll, never under the sticky top bar, the
notices box or the sticky tray.

The game is a real one against bots in the real page; at the player's first turn the page is
handed a longer menu than the rules give (``LONG``: the server's choices plus destroy choices
aimed at each opponent and at the player's own city), as a Warlord with a big city would see.
A short menu (``SHORT``, a Warlord early in the game) keeps the tray stuck to the bottom of the
window with the own city unfolded. Nothing of it is played: the test measures, unfolds the own
city, measures again and leaves. Screenshots land in $CITADELS_SCREENS (default: a folder under
the system's temporary one)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import AT_ONCE, create_table, launch_chromium, routed_sockets
from tests.web.test_layout import COURT_IN_VIEW, SCREENS, SIZES

pytestmark = pytest.mark.xdist_group("tray")

FRAME = (Path(__file__).parent / "frame_check.js").read_text(encoding="utf-8")
CHECK = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")
ACTION = ".tray .action:not([disabled])"
MAX_SECONDS = 120
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def lengthened(own: int, each: int) -> str:
    """An init script: at the player's turn (not the draft), the server's menu is lengthened
    as a Warlord's: ``each`` destroy choices aimed at each opponent and ``own`` at the
    player's own city (folded away by menu.js), each ending the turn."""
    return """
(() => {
  const parse = JSON.parse;
  const districts = ['temple', 'market', 'tavern', 'watchtower', 'manor', 'castle'];
  JSON.parse = function (text, reviver) {
    const msg = parse.call(this, text, reviver);
    const legal = msg && msg.legal;
    const view = msg && msg.view;
    if (!Array.isArray(legal) || !legal.length || !view || view.phase === 'draft') return msg;
    if (legal.some((l) => l.action.type === 'pick' || l.action.type === 'put_aside')) return msg;
    if (legal.some((l) => l.action.type === 'destroy')) return msg;
    const me = view.to_move;
    const extra = [];
    for (const p of view.players) {
      const n = p.seat === me ? OWN : EACH;
      for (const d of districts.slice(0, n)) {
        extra.push({action: {type: 'destroy', seat: p.seat, district: d},
                    label: 'Destroy ' + d, target: p.seat, ends_turn: true,
                    harms_self: p.seat === me});
      }
    }
    const end = legal.findIndex((l) => l.action.type === 'end_turn');
    if (end < 0) legal.push(...extra); else legal.splice(end, 0, ...extra);
    window.__lengthened = (window.__lengthened || 0) + 1;
    return msg;
  };
})();
""".replace("OWN", str(own)).replace("EACH", str(each))


#: A Warlord with a big city: six destroy choices at each opponent, five at the own city (a
#: tray too tall to stick at most sizes).
LONG = lengthened(own=5, each=6)
#: A Warlord early in the game: one at each opponent, two at the own city (a tray that stays
#: stuck to the bottom of the window once the own city is unfolded).
SHORT = lengthened(own=2, each=1)


#: The first choice of the tray and its heading, in sight between the top bar (and the
#: notices box) and the window's bottom edge: answers the problems.
FIRST_IN_SIGHT = """() => {
  const problems = [];
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  const notices = document.querySelector('.notices');
  const top = notices ? notices.getBoundingClientRect().bottom : bar.bottom;
  const shown = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.top < top - 1 || r.bottom > window.innerHeight + 1) {
      const at = (a, b) => `${Math.round(a)}..${Math.round(b)}`;
      problems.push(`${what} out of sight (${at(r.top, r.bottom)}, window `
        + `${at(top, window.innerHeight)}, scrolled ${Math.round(window.scrollY)})`);
    }
  };
  shown(document.querySelector('.tray .tray-title'), 'the tray heading');
  shown(document.querySelector('.tray .action'), 'the first choice');
  return problems;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch_chromium()


def _shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def _frame(page: Any) -> tuple[list[str], dict[str, Any]]:
    out = page.evaluate(FRAME)
    return list(out["problems"]), dict(out["measured"])


def _to_the_players_turn(
    ctx: Any, players: int, errors: list[str], *, route: bool = False
) -> tuple[Any, list[Any]]:
    """A page at a new table against bots, played (the first draft card) until the player's
    turn comes with its lengthened menu; and, with ``route``, the page's WebSockets, routed
    through the test so that it can cut them (``conftest.routed_sockets``)."""
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    sockets = routed_sockets(page) if route else []
    page.goto("/")
    page.wait_for_selector("#create-edition option[value=basic]", state="attached")
    create_table(page, "Ada", players=players, bots=players - 1)
    if page.query_selector("[data-key=start]"):
        page.click("[data-key=start]")
    page.wait_for_selector(".table-screen")
    started = time.monotonic()
    # Draft picks (the first card) until the player's turn comes with its long menu.
    while not page.query_selector(".tray details.menu-group.own"):
        assert time.monotonic() - started < MAX_SECONDS, "the player's turn never came"
        page.wait_for_selector(f"{ACTION}, .tray details.menu-group.own", timeout=30000)
        if page.query_selector(".tray details.menu-group.own"):
            break
        if page.query_selector(".draft-pick:not([disabled])"):
            version = page.evaluate("document.getElementById('app').dataset.version")
            page.mouse.move(0, 0)
            page.click(".draft-pick:not([disabled])")
            page.wait_for_function(
                "(v) => document.getElementById('app').dataset.version !== v", arg=version
            )
        else:
            time.sleep(0.2)  # a turn that the page has not lengthened yet: it redraws
    return page, sockets


@pytest.mark.parametrize("menu", ["long", "short"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_menu_with_the_own_city_unfolded_fits_the_frame(
    browser: Any, server: str, size: str, menu: str
) -> None:
    viewport, players = SIZES[size]
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")
    ctx.add_init_script("localStorage.setItem('citadels.lang', 'en');")
    ctx.add_init_script(AT_ONCE)
    ctx.add_init_script(LONG if menu == "long" else SHORT)
    errors: list[str] = []
    try:
        page, _ = _to_the_players_turn(ctx, players, errors)
        # Bring the turn into sight as the page does, then measure, folded and unfolded.
        page.evaluate("document.fonts.ready.then(() => true)")
        page.evaluate(TWO_FRAMES)
        page.mouse.move(0, 0)
        report: list[str] = []
        # As the turn starts, before the player scrolls, the tray's heading and first choice
        # are in sight (a tray too tall to stick sits at the end of the page: the page has
        # scrolled to it, by no more than needed), the rest reached by the page's own scroll.
        report += [f"turn's start: {p}" for p in page.evaluate(FIRST_IN_SIGHT)]
        # On a tablet or wider the court is whole in sight too, where the window has room for
        # it and the first choice (test_layout.COURT_IN_VIEW).
        if viewport["width"] >= 768:
            report += [p for p in [page.evaluate(COURT_IN_VIEW)] if p]
        folded, m_folded = _frame(page)
        report += [f"folded: {p}" for p in folded]
        _shot(page, f"tray-{size}-{menu}-folded")
        page.click(".tray details.menu-group.own > summary")
        page.wait_for_selector(".tray details.menu-group.own[open]")
        page.evaluate(TWO_FRAMES)
        # The unfolded group is in sight the moment it opens, whatever the tray did.
        inview = page.evaluate(
            """() => {
              const g = document.querySelector('.tray details.menu-group.own[open]');
              const last = [...g.querySelectorAll('.action')].pop();
              const bar = document.querySelector('.topbar').getBoundingClientRect();
              const r = last.getBoundingClientRect();
              return r.top >= bar.bottom - 1 && r.bottom <= window.innerHeight + 1;
            }"""
        )
        if not inview:
            report.append("unfolded: its last choice is not in sight once the group opens")
        _shot(page, f"tray-{size}-{menu}-unfolded")
        unfolded, m_unfolded = _frame(page)
        report += [f"unfolded: {p}" for p in unfolded]
        report += [f"unfolded: {p}" for p in page.evaluate(CHECK, {"table": True})]
        report += errors
        assert not report, "\n".join(report) + f"\n{m_folded} / {m_unfolded}"
    finally:
        ctx.close()


def test_a_reconnection_brings_the_open_decision_back_into_sight(browser: Any, server: str) -> None:
    """On a phone the player has scrolled away from an open decision (a tray too long to stick
    to the window's bottom) when the connection drops. Once the page is back, with the
    reconnection's snapshot redrawn, the decision's heading and first choice are in sight
    again: the player is not left with a turn to play somewhere below the window."""
    viewport, players = SIZES["phone"]
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")
    ctx.add_init_script("localStorage.setItem('citadels.lang', 'en');")
    ctx.add_init_script(AT_ONCE)
    ctx.add_init_script(LONG)
    errors: list[str] = []
    try:
        page, sockets = _to_the_players_turn(ctx, players, errors, route=True)
        page.evaluate(TWO_FRAMES)
        assert not page.evaluate(FIRST_IN_SIGHT), "the turn did not start in sight"
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate(TWO_FRAMES)
        assert page.evaluate(FIRST_IN_SIGHT), "scrolled to the top, the tray is still in sight"
        version = page.evaluate("document.getElementById('app').dataset.version")
        opened = len(sockets)
        sockets[-1].close(code=4000, reason="network trouble")
        page.wait_for_selector(".conn.lost", timeout=5000)
        page.wait_for_selector(".conn.lost", state="detached", timeout=15000)
        assert len(sockets) > opened, "the page did not open a new connection"
        assert page.evaluate("document.getElementById('app').dataset.version") == version
        page.evaluate(TWO_FRAMES)
        page.evaluate(TWO_FRAMES)
        _shot(page, "tray-phone-after-reconnection")
        problems = page.evaluate(FIRST_IN_SIGHT) + errors
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()
