"""The menu's keys in Chromium (issue 24): every choice of a long menu has a key (1–9, 0, then
A–Z), its button shows that key, and the key plays exactly that choice; the folded "own
city" group shows no key and answers none until it is unfolded, then its keys play its
choices (a self-harming one asks first).

The menu is the page's own: table.js draws a turn of 18 choices from a made-up view (the
classic cards), and the key handler is menu.js's, as app.js wires it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import LAPTOP

pytestmark = pytest.mark.xdist_group("keys")

OPPONENT = ["temple", "market", "tavern", "watchtower", "manor", "castle"]
OWN = ["prison", "docks", "harbor"]

#: Draws the table screen into #keytest with a Warlord's long menu and records what it plays.
DRAW = """async ([opponent, own]) => {
  const { loadCards } = await import('/static/js/lobby.js');
  const { tableScreen } = await import('/static/js/table.js');
  const { keyOf, pressKey } = await import('/static/js/menu.js');
  await loadCards('classic', 'en');
  const player = (seat, city) => ({seat, gold: 3, hand_size: 2, city, characters: [],
                                   complete: false, hand: seat === 0 ? ['temple', 'market'] : []});
  const legal = [
    {action: {type: 'take_income'}, label: 'Take income', target: null},
    {action: {type: 'build', district: 'temple'}, label: 'Build Temple', target: null},
    {action: {type: 'build', district: 'market'}, label: 'Build Market', target: null},
    ...opponent.map((d) => ({action: {type: 'destroy', seat: 1, district: d},
                             label: 'Destroy ' + d, target: 1, ends_turn: true})),
    ...opponent.map((d) => ({action: {type: 'destroy', seat: 2, district: d},
                             label: 'Destroy ' + d, target: 2, ends_turn: true})),
    ...own.map((d, i) => ({action: {type: 'destroy', seat: 0, district: d},
                           label: 'Destroy ' + d, target: 0, ends_turn: true,
                           harms_self: i === 0})),
    {action: {type: 'end_turn'}, label: 'End your turn', target: null, ends_turn: true},
  ];
  const view = {
    phase: 'turn', to_move: 0, crown: 1, round: 3, complete_at: 8, deck_size: 30,
    facedown_count: 1, characters_in_play: ['assassin', 'thief', 'magician', 'king', 'bishop',
    'merchant', 'architect', 'warlord'], revealed: {warlord: 0}, known_facedown: [],
    faceup_removed: [], turn: {seat: 0, character: 'warlord'},
    players: [player(0, own), player(1, opponent), player(2, opponent)],
  };
  const table = {seats: [0, 1, 2].map((seat) => ({seat, name: ['Anna', 'Ben', 'Chloé'][seat],
                                                   kind: 'human', connected: true}))};
  window.__played = [];
  const game = {code: 'TEST', table, you: {seat: 0, spectator: false}, view, legal,
                events: [], chat: [], sideTab: 'log'};
  const root = document.createElement('div');
  root.id = 'keytest';
  document.body.replaceChildren(root);
  const handlers = {onAct: (a) => window.__played.push(a), onChat() {}, onChatDraft() {},
                    onTab() {}, onRematch() {}, onScores() {}};
  root.appendChild(tableScreen(game, handlers));
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest && ev.target.closest('dialog')) return;
    const key = keyOf(ev);
    if (key !== null && pressKey(root, key)) ev.preventDefault();
  });
  return legal.length;
}"""

BUTTONS = """() => [...document.querySelectorAll('#keytest .tray .action')].map((b) => {
  const hint = b.querySelector('.key-hint');
  return {
    action: JSON.parse(b.dataset.key.replace(/^act-\\d+-/, '')),
    key: b.dataset.keynum || null,
    shown: hint && hint.checkVisibility() ? hint.textContent : null,
    shortcut: b.getAttribute('aria-keyshortcuts'),
    folded: !!b.closest('details:not([open])'),
  };
})"""


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    ctx = browser.new_context(viewport=LAPTOP, base_url=server, reduced_motion="reduce")
    ctx.add_init_script("localStorage.setItem('citadels.lang', 'en');")
    p = ctx.new_page()
    p.set_default_timeout(20000)
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.goto("/")
    p.wait_for_selector("#create-edition option[value=classic]", state="attached")
    assert p.evaluate(DRAW, [OPPONENT, OWN]) == 3 + 2 * len(OPPONENT) + len(OWN) + 1
    yield p
    ctx.close()
    assert errors == []


def _played(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__played"))


def test_every_choice_of_a_long_menu_has_a_shown_key_that_plays_it(page: Any) -> None:
    buttons = page.evaluate(BUTTONS)
    visible = [b for b in buttons if not b["folded"]]
    assert len(visible) == 16 and len(buttons) == 19
    # The keys in the order shown: 1–9, 0, then letters; each shown on its button.
    assert [b["key"] for b in visible] == [*"1234567890", *"abcdef"]
    assert [b["shown"] for b in visible] == [*"1234567890", *"ABCDEF"]
    assert [b["shortcut"] for b in visible] == [*"1234567890", *"ABCDEF"]
    assert visible[-1]["action"] == {"type": "end_turn"}
    for b in visible:
        before = len(_played(page))
        page.keyboard.press(b["key"])
        played = _played(page)
        assert played[before:] == [b["action"]], b


def test_the_folded_own_city_shows_no_key_and_answers_none_until_unfolded(page: Any) -> None:
    folded = [b for b in page.evaluate(BUTTONS) if b["folded"]]
    assert [b["action"]["seat"] for b in folded] == [0, 0, 0]
    # The own city's keys come after every visible one, and none shows while it is folded.
    assert [b["key"] for b in folded] == ["g", "h", "i"]
    assert [b["shown"] for b in folded] == [None, None, None]
    for b in folded:
        page.keyboard.press(b["key"])
    assert _played(page) == []
    assert page.locator("#keytest details.menu-group.own[open]").count() == 0

    page.click("#keytest .menu-group.own > summary")
    unfolded = [b for b in page.evaluate(BUTTONS) if b["action"].get("seat") == 0]
    assert [b["shown"] for b in unfolded] == ["G", "H", "I"]
    # A key of the unfolded group plays its choice; the one that harms the city asks first.
    page.keyboard.press("h")
    assert _played(page) == [unfolded[1]["action"]]
    page.keyboard.press("g")
    page.wait_for_selector(".confirm-dialog[open]")
    assert _played(page) == [unfolded[1]["action"]]
    page.click("[data-key=confirm-yes]")
    assert _played(page) == [unfolded[1]["action"], unfolded[0]["action"]]
    # The other keys have not moved.
    assert page.evaluate(BUTTONS)[-1]["key"] == "f"
