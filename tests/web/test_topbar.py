"""The table's top bar (issue 24): one line on a phone, its less-needed controls behind a "more"
button that a keyboard and a screen reader reach, and --topbar-h its real height.

Below a 1280 px laptop (phones at 390×844 and 360×800, a tablet at 768×1024) the bar holds the
home link, the round, whose turn it is, "skip to my turn" and the connection; the table code, the
pace, the sound and the language sit behind a disclosure button (aria-expanded) whose panel drops
below the bar without changing its height. From 1280 px up the button is hidden and those
controls are in the bar. The waiting room's big table code stays on one line on a phone."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import AT_ONCE, create_table, launch_chromium, shot

pytestmark = pytest.mark.xdist_group("topbar")

SIZES = {
    "phone-390": {"width": 390, "height": 844},
    "phone-360": {"width": 360, "height": 800},
    "tablet-768": {"width": 768, "height": 1024},
    "laptop-1280": {"width": 1280, "height": 800},
}

#: The bar's shown boxes (its own children, and those of the panel while it lays them out in
#: the bar), the number of lines they take, the bar's height and --topbar-h.
BAR = """() => {
  const bar = document.querySelector('.topbar');
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const kids = [...bar.children].flatMap((el) =>
    getComputedStyle(el).display === 'contents' ? [...el.children] : [el]);
  const boxes = kids.filter((el) => shown(el) && getComputedStyle(el).position !== 'absolute')
    .map((el) => el.getBoundingClientRect());
  const lines = [];
  for (const b of boxes.sort((a, c) => a.top - c.top)) {
    const line = lines.find((l) => b.top < l.bottom - 1 && l.top < b.bottom - 1);
    if (!line) lines.push({ top: b.top, bottom: b.bottom });
    else {
      line.top = Math.min(line.top, b.top);
      line.bottom = Math.max(line.bottom, b.bottom);
    }
  }
  const brand = bar.querySelector('a.brand').getBoundingClientRect();
  const more = bar.querySelector('.more-btn');
  return {
    lines: lines.length,
    height: bar.getBoundingClientRect().height,
    topbarH: parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--topbar-h')),
    brand: brand.width > 4 && brand.height > 4,
    more: Boolean(more && shown(more)),
    expanded: more ? more.getAttribute('aria-expanded') : null,
    controls: ['[data-key=lang]', '[data-key=sound]', '[data-key=pace]']
      .map((s) => { const el = bar.querySelector(s); return Boolean(el && shown(el)); }),
  };
}"""

#: Whether every shown box of the bar lies inside the window, side to side.
INSIDE = """() => {
  const bar = document.querySelector('.topbar');
  const kids = [...bar.querySelectorAll('*')].filter((el) => el.checkVisibility()
    && el.getBoundingClientRect().width > 0 && !el.closest('.sr, .topbar-more.open'));
  return kids.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < -1 || r.right > window.innerWidth + 1;
  }).map((el) => el.className || el.tagName);
}"""


#: How many lines the waiting room's big code takes, and whether it overflows its box.
BIG_CODE = """() => {
  const el = document.querySelector('.big-code');
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return { lines: tops.size, overflows: el.scrollWidth > el.clientWidth + 1 };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch_chromium()


@contextlib.contextmanager
def _waiting_room(
    browser: Any,
    server: str,
    viewport: dict[str, int],
    lang: str,
    init: str,
    motion: str = "reduce",
) -> Iterator[Any]:
    """A page of ``viewport`` in ``lang`` (``init`` run first) at a new table of four, three of
    them bots, in its waiting room; the context closes after. ``motion``: the reduced-motion
    preference ("no-preference" plays the page's animations)."""
    ctx = browser.new_context(
        viewport=viewport, base_url=server, reduced_motion=motion, bypass_csp=True
    )
    ctx.add_init_script(f"localStorage.setItem('citadels.lang', '{lang}');")
    ctx.add_init_script(init)
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.goto("/")
        page.wait_for_selector("#create-edition option[value=basic]", state="attached")
        create_table(page, "Ada", players=4, bots=3)
        yield page
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_top_bar_is_one_line_and_its_controls_are_reachable(
    browser: Any, server: str, size: str
) -> None:
    viewport = SIZES[size]
    folded = viewport["width"] < 1280
    with _waiting_room(browser, server, viewport, "en", AT_ONCE) as page:
        code = page.evaluate(BIG_CODE)
        assert code == {"lines": 1, "overflows": False}, f"the room's big code: {code}"
        room = page.evaluate(BAR)
        assert room["lines"] == 1, f"the waiting room's bar: {room}"
        page.click("[data-key=start]")
        page.wait_for_selector(".table-screen .tray .action:not([disabled])")
        bar = page.evaluate(BAR)
        assert bar["lines"] == 1, f"the bar takes {bar['lines']} lines: {bar}"
        assert bar["brand"], "the home link is not shown"
        assert abs(bar["topbarH"] - bar["height"]) <= 1, bar
        assert page.evaluate(INSIDE) == [], "the bar overflows the window"
        if not folded:
            assert not bar["more"], "the 'more' button is shown on a wide screen"
            assert bar["controls"] == [True, True, True], bar
            return
        assert bar["more"] and bar["expanded"] == "false", bar
        assert bar["controls"] == [False, False, False], "the settings are in the bar: " + str(bar)
        # The keyboard opens the panel, reaches its controls, and Escape closes it.
        page.focus(".topbar .more-btn")
        page.keyboard.press("Enter")
        opened = page.evaluate(BAR)
        assert opened["expanded"] == "true", opened
        assert opened["controls"] == [True, True, True], opened
        assert opened["height"] == bar["height"], "opening the panel changed the bar's height"
        assert abs(opened["topbarH"] - bar["height"]) <= 1, opened
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#topbar-more') !== null")
        page.keyboard.press("Escape")
        closed = page.evaluate(BAR)
        assert closed["expanded"] == "false" and closed["controls"] == [False, False, False]
        assert page.evaluate("document.activeElement.classList.contains('more-btn')")
        # The panel's controls work: the language changes the page.
        page.click(".topbar .more-btn")
        page.select_option(".topbar [data-key=lang]", "ru")
        page.wait_for_function("document.documentElement.lang === 'ru'")
        page.wait_for_function("document.querySelector('.round-tag').textContent.includes('Раунд')")
        # A tap elsewhere closes the panel.
        page.mouse.click(viewport["width"] // 2, viewport["height"] - 5)
        assert page.evaluate(BAR)["expanded"] == "false"
        assert page.evaluate(BAR)["lines"] == 1


#: A clock whose timers never fire (js/pace.js waits on window.citadelsClock): after the first,
#: every other player's move waits, and "Skip to my turn" stays in the bar with its count.
HELD = (
    "window.citadelsClock = { setTimeout: () => 0, clearTimeout: () => {} };"
    "localStorage.setItem('citadels.pace', '2000');"
)


@pytest.mark.parametrize("size", ["phone-360", "tablet-768", "laptop-1280"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_bar_stays_one_line_while_moves_wait(
    browser: Any, server: str, size: str, lang: str
) -> None:
    with _waiting_room(browser, server, SIZES[size], lang, HELD) as page:
        page.click("[data-key=start]")
        # A player who picks first plays before any other move arrives: pick, then wait.
        page.wait_for_selector(".topbar .skip-moves, .draft-pick:not([disabled])")
        if not page.query_selector(".topbar .skip-moves"):
            page.click(".draft-pick:not([disabled])")
        page.wait_for_selector(".topbar .skip-moves")
        bar = page.evaluate(BAR)
        assert bar["lines"] == 1, f"the bar takes {bar['lines']} lines while moves wait: {bar}"
        assert abs(bar["topbarH"] - bar["height"]) <= 1, bar
        assert page.evaluate(INSIDE) == [], "the bar overflows the window"
        # The skip button's words are its name, whether shown or only said.
        name = page.get_attribute(".topbar .skip-moves", "title")
        assert name and name in page.inner_text(".topbar .skip-moves .skip-word")


#: The your-turn ribbon's box at a moment of its animation (ms), against the table's boxes it
#: must not cover and the window's edges.
BANNER = """(at) => {
  const banner = document.querySelector('.turn-banner');
  if (!banner) return ['no banner'];
  for (const a of banner.getAnimations()) { a.pause(); a.currentTime = at; }
  const b = banner.getBoundingClientRect();
  const meets = (r) => r.left < b.right - 0.5 && b.left < r.right - 0.5
                       && r.top < b.bottom - 0.5 && b.top < r.bottom - 0.5;
  const out = [];
  if (getComputedStyle(banner).opacity < 0.5) out.push(`not shown at ${at} ms`);
  if (b.left < 0 || b.right > innerWidth || b.top < 0) out.push(`outside the window at ${at} ms`);
  // What the page shows of a box: its part below the top bar (a box scrolled under the bar is
  // hidden by the bar itself).
  const barBottom = document.querySelector('.topbar').getBoundingClientRect().bottom;
  for (const sel of ['.board .court', '.opponents .seat-panel', '.my-panel', '.notices',
                     '.table-screen > .tray', '.side']) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      const shown = {left: r.left, right: r.right, bottom: r.bottom,
                     top: Math.max(r.top, barBottom)};
      if (el.checkVisibility() && shown.bottom > shown.top && meets(shown)) {
        out.push(`covers ${sel} at ${at} ms`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_your_turn_ribbon_covers_none_of_the_table(
    browser: Any, server: str, size: str, lang: str
) -> None:
    """The ribbon that says a turn began lies over the top bar, through its whole animation:
    the court, the cards, the notices and the choices stay in sight as the turn begins."""
    with _waiting_room(browser, server, SIZES[size], lang, AT_ONCE, "no-preference") as page:
        page.click("[data-key=start]")
        # The first decision of the game (a pick) is a turn beginning: the ribbon is drawn.
        page.wait_for_selector(".turn-banner", state="attached")
        problems = [p for at in (240, 700, 1100) for p in page.evaluate(BANNER, at)]
        shot(page, f"turn-banner-{lang}-{size}")
        assert problems == [], problems
