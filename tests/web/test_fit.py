"""Geometry on phones and laptops, in Chromium (issue 24):

- the lobby's decorative fan of cards covers nothing: not the create-table form under it, not
  the title, the tagline or the language switch beside it, and no card is cut by the window,
  in every language (a Vietnamese or Russian card is taller, a Russian title longer), from
  360 px phones to 1920 px screens;
- the final score table fits 360–430 px phones (and a tablet) without scrolling sideways, the
  table's own box nor the page, with eight players, a tie-break column and a 24-letter name,
  in every language; and a real finished game's scores fit as well.

The score table is the page's own (table.js ``tableScreen`` over a finished view) with the
server's column titles and tie-break words for each language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from citadels.present import score_headers, tiebreak_text
from tests.web.conftest import shot
from tests.web.test_lobby_and_replay import _finished_and_playing

pytestmark = pytest.mark.xdist_group("fit")

LANGS = ("en", "fa", "ru", "ko", "vi")
PHONES = ({"width": 360, "height": 800}, {"width": 390, "height": 844},
          {"width": 414, "height": 896}, {"width": 430, "height": 932})  # fmt: skip
WIDER = ({"width": 768, "height": 1024}, {"width": 1280, "height": 800},
         {"width": 1366, "height": 768}, {"width": 1920, "height": 1080})  # fmt: skip

#: Every fan card's box against the boxes it must not cover; the page's sideways overflow.
FAN = """() => {
  const box = (el) => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                          && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const others = {form: '.create-form', title: '.hero h1', tagline: '.tagline',
                  language: '.hero-tools select', join: '.join-form'};
  const out = [];
  const cards = [...document.querySelectorAll('.fan-slot .card')];
  if (cards.length !== 8) out.push('the fan has ' + cards.length + ' cards');
  const width = document.documentElement.clientWidth;
  for (const card of cards) {
    if (box(card).left < -0.5 || box(card).right > width + 0.5) {
      out.push('a card is cut by the window');
    }
    for (const [name, sel] of Object.entries(others)) {
      const el = document.querySelector(sel);
      if (el && meets(box(card), box(el))) out.push(`a card covers the ${name}`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) {
    out.push(`the page scrolls sideways (${page.scrollWidth} > ${page.clientWidth})`);
  }
  return [...new Set(out)];
}"""

#: The scores of a finished game of eight, drawn by the page's own table.js.
SCORES = """async ([headers, tie]) => {
  const { loadCards } = await import('/static/js/lobby.js');
  const { tableScreen } = await import('/static/js/table.js');
  await loadCards('classic', document.documentElement.lang);
  const names = ['Maximilian-Alexandrovich', 'Bot 2 (medium)', 'Ана-Мария', 'سارا',
                 'Nguyễn Thị Minh Khai', '김민준', 'Ben', 'Chloé'];
  const scores = names.map((name, seat) => ({
    seat, name, score: 38 - seat * 3, city: 28 - seat, colours: 3,
    first: seat === 0 ? 4 : 0, complete: seat < 3 ? 2 : 0, bonus: 11 - seat, rank: seat + 1,
    winner: seat === 0, tiebreak: seat < 2 ? tie : '', gold: 9,
  }));
  scores[1].score = scores[0].score;
  const view = {phase: 'over', to_move: null, crown: 0, round: 9, complete_at: 7, deck_size: 0,
    facedown_count: 0, characters_in_play: [], revealed: {}, known_facedown: [],
    faceup_removed: [], turn: null,
    players: names.map((n, seat) => ({seat, gold: 9, hand_size: 1, city: [], characters: [],
                                      complete: seat < 3, hand: []}))};
  const table = {seats: names.map((name, seat) => ({seat, name, kind: 'human', connected: true}))};
  const game = {code: 'TEST', table, you: {seat: 0, spectator: false}, view, legal: [],
    events: [], chat: [], sideTab: 'log', scores, scoreHeaders: headers,
    result: {winners: [0]}};
  const root = document.createElement('main');
  document.body.replaceChildren(root);
  const noop = () => {};
  root.appendChild(tableScreen(game, {onAct: noop, onChat: noop, onChatDraft: noop, onTab: noop,
                                      onRematch: noop, onScores: noop}));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
}"""

#: Whether anything of the scores scrolls sideways: the table's box, the panel, the page.
SIDEWAYS = """() => {
  const out = [];
  for (const [name, el] of [['the table', document.querySelector('.scores .table-wrap')],
                            ['the panel', document.querySelector('.scores')],
                            ['the page', document.scrollingElement]]) {
    if (!el) out.push(`no ${name}`);
    else if (el.scrollWidth > el.clientWidth) {
      out.push(`${name} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  const table = document.querySelector('.score-table');
  const cells = table ? [...table.querySelectorAll('th, td')] : [];
  const width = document.documentElement.clientWidth;
  if (cells.some((c) => c.getBoundingClientRect().right > width + 0.5)) {
    out.push('a cell ends outside the window');
  }
  return out;
}"""


@pytest.fixture(scope="module")
def finished(server: str) -> str:
    return str(_finished_and_playing(server)["done"]["code"])


def _page(browser: Any, server: str, viewport: dict[str, int], lang: str) -> Any:
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('citadels.lang', '{lang}');")
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


@pytest.fixture()
def pages(browser: Any, server: str) -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for page in opened:
        page.context.close()
        assert page.errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_fan_covers_nothing(
    browser: Any, server: str, pages: list[Any], lang: str
) -> None:
    problems = []
    for viewport in (*PHONES, *WIDER):
        page = _page(browser, server, viewport, lang)
        pages.append(page)
        page.goto("/")
        page.wait_for_selector("#create-edition option", state="attached")
        page.wait_for_selector(".lobby-lists")
        page.evaluate("document.fonts.ready.then(() => true)")
        problems += [f"{viewport['width']}×{viewport['height']}: {p}" for p in page.evaluate(FAN)]
        page.context.close()
        pages.remove(page)
        assert page.errors == []
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_score_table_fits_a_phone_without_scrolling_sideways(
    browser: Any, server: str, pages: list[Any], lang: str
) -> None:
    headers = list(score_headers(lang))
    tie = tiebreak_text("character_rank", lang)
    page = _page(browser, server, PHONES[0], lang)
    pages.append(page)
    page.goto("/")
    page.wait_for_selector("#create-edition option", state="attached")
    problems = []
    for viewport in (*PHONES, WIDER[0], WIDER[2]):
        page.set_viewport_size(viewport)
        assert page.evaluate(SCORES, [headers, tie])
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_selector(".scores .score-table tbody tr:nth-child(8)")
        problems += [f"{viewport['width']}: {p}" for p in page.evaluate(SIDEWAYS)]
        if viewport["width"] in (360, 768):
            shot(page, f"fit-scores-{lang}-{viewport['width']}")
        # Every number and name is still in the table (nothing hidden to make it fit).
        assert page.locator(".score-table tbody tr").count() == 8
        assert page.locator(".score-table thead th").count() == 9
        # The tie-break's words are shown for both tied rows (in its column or under the name).
        shown = page.evaluate(
            "t => [...document.querySelectorAll('.score-table tbody tr')].map((r) =>"
            " [...r.querySelectorAll('.tie-col, .tie-note')].filter((e) => e.checkVisibility()"
            " && e.textContent.includes(t)).length)",
            tie,
        )
        assert shown == [1, 1, 0, 0, 0, 0, 0, 0], (viewport, shown)
    assert problems == [], "\n".join(problems)


def test_a_finished_games_scores_fit_a_phone(
    browser: Any, server: str, pages: list[Any], finished: str
) -> None:
    for viewport in PHONES[:2]:
        page = _page(browser, server, viewport, "en")
        pages.append(page)
        page.goto(f"/replay/{finished}")
        page.wait_for_selector(".table-screen")
        page.click("[data-key=r-last]")
        page.wait_for_selector(".scores .score-table")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate(SIDEWAYS) == [], viewport
