"""Every card's name fits its card (issue 24), in Chromium: in every language, for every card of
every edition, in every form the table draws a card, from a 360 px phone to a 1920 px screen.

The forms are those of a game in progress: the court's characters, the player's own
characters, an opponent's (mini) characters and city (mini districts), the hand (small
districts), the picks in the tray (wide characters) and the card dialog (big cards). Each is
drawn by the page's own ``cards.js`` inside a copy of the container the game draws it in (so the
game's stylesheet sizes it as it sizes the real ones), measured, and removed in one step.

A name fits when its words' text stays inside the card's border with a gap on both sides, covers
neither the rank medallion nor the emblem, and takes no more lines than it has words (a word is
never broken). The test machine's serif is DejaVu Serif, the widest a player may get where
Palatino is missing, so a name that fits here fits with the faces most players have."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import shot, started_table

pytestmark = pytest.mark.xdist_group("card_names")

LANGS = ("en", "fa", "ru", "ko", "vi")
SIZES = (
    {"width": 360, "height": 800},
    {"width": 390, "height": 844},
    {"width": 768, "height": 1024},
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
)
EDITIONS = ("basic", "dezh", "classic", "2016")

#: Draws every card of ``editions`` in every form beside the game's own containers, measures
#: each name against its card, removes them, and gives back what did not fit. The game's own
#: cards (classic) are loaded again at the end.
NAMES_FIT = """async ([editions, game]) => {
  const { loadCards } = await import('/static/js/lobby.js');
  const cards = await import('/static/js/cards.js');
  const lang = document.documentElement.lang;
  const el = (tag, cls, ...kids) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    e.append(...kids);
    return e;
  };
  // [form, the container it is drawn beside, the kind of card, how one card is drawn]
  const forms = [
    ['court', '.court-row', 'character', (id) => el('li', '',
      el('button', 'court-btn', cards.characterCard(id, {extra: 'court-card'})))],
    ['own character', '.my-chars', 'character',
     (id) => el('div', 'row', el('button', 'court-btn', cards.characterCard(id)))],
    ['opponent character', '.opponents', 'character',
     (id) => el('button', 'court-btn', cards.characterCard(id, {extra: 'mini'}))],
    ['pick', '.tray', 'character',
     (id) => el('div', 'tray-actions draft-row',
                el('button', 'draft-pick', cards.characterCard(id, {big: true, extra: 'wide'})))],
    ['dialog', 'body', 'character', (id) => cards.characterCard(id, {big: true})],
    ['hand', 'ul.hand', 'district',
     (id) => el('li', '', cards.districtTile(id, {size: 'small'}))],
    ['opponent city', '.opponents', 'district',
     (id) => el('ul', 'city', el('li', '', cards.districtTile(id, {size: 'mini'})))],
    ['dialog', 'body', 'district', (id) => cards.districtTile(id, {size: 'big', still: true})],
  ];
  const GAP = 1.5;
  const out = [];
  for (const edition of editions) {
    const data = await (await fetch(`/api/cards/${edition}?lang=${lang}`)).json();
    if (!await loadCards(edition, lang)) return [`${edition}: the cards did not load`];
    const text = data.cards.map((c) => c.name).join(' ');
    const probe = document.querySelector('.card .name') || document.body;
    await document.fonts.load(`700 16px ${getComputedStyle(probe).fontFamily}`, text);
    for (const [form, where, kind, draw] of forms) {
      const real = document.querySelector(where);
      if (!real) { out.push(`no ${where} on the page`); continue; }
      const box = where === 'body' ? el('div', '') : real.cloneNode(false);
      box.removeAttribute('id');
      for (const c of data.cards) if (c.kind === kind) box.append(draw(c.id));
      if (where === 'body') document.body.append(box); else real.after(box);
      for (const name of box.querySelectorAll('.card .name')) {
        const card = name.closest('.card');
        const cb = card.getBoundingClientRect();
        const cs = getComputedStyle(card);
        const left = cb.left + parseFloat(cs.borderLeftWidth) + GAP;
        const right = cb.right - parseFloat(cs.borderRightWidth) - GAP;
        const range = document.createRange();
        range.selectNodeContents(name);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const id = card.dataset.card;
        const what = `${edition} ${form} ${id} «${name.textContent}»`;
        if (!rects.length) { out.push(`${what}: not drawn`); continue; }
        const tl = Math.min(...rects.map((r) => r.left));
        const tr = Math.max(...rects.map((r) => r.right));
        if (tl < left || tr > right) {
          const at = `${Math.round(tl - cb.left)}..${Math.round(tr - cb.left)} px`;
          out.push(`${what}: ${at} in a card of ${Math.round(cb.width)}`);
        }
        const lines = new Set(rects.map((r) => Math.round(r.top))).size;
        const words = name.textContent.trim().split(/\\s+/).length;
        if (lines > words) out.push(`${what}: ${lines} lines for ${words} words`);
        for (const part of card.querySelectorAll(':scope > .rank, :scope > .emblem')) {
          const p = part.getBoundingClientRect();
          if (p.width === 0) continue;
          for (const r of rects) {
            if (r.left < p.right - 0.5 && p.left < r.right - 0.5
                && r.top < p.bottom - 0.5 && p.top < r.bottom - 0.5) {
              out.push(`${what}: covers the ${part.className.baseVal ?? part.className}`);
            }
          }
        }
      }
      box.remove();
    }
  }
  await loadCards(game, lang);
  return [...new Set(out)];
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_card_name_fits_its_card(browser: Any, server: str, size: dict[str, int]) -> None:
    with started_table(browser, server, size, edition="classic", bypass_csp=True) as page:
        problems: list[str] = []
        for lang in LANGS:
            page.evaluate(f"localStorage.setItem('citadels.lang', '{lang}')")
            page.reload()
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            page.wait_for_selector(".table-screen .tray .action:not([disabled])")
            page.evaluate("document.fonts.ready.then(() => true)")
            found = page.evaluate(NAMES_FIT, [list(EDITIONS), "classic"])
            problems += [f"{lang} {size['width']}: {p}" for p in found]
            if lang == "ru":
                shot(page, f"card-names-{lang}-{size['width']}")
        assert problems == [], f"{len(problems)} names do not fit:\n" + "\n".join(problems[:60])
