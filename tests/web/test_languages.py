"""The web client in the players' languages (issue 11), in a real browser against a real server.

Sara's browser speaks Persian (its language is fa-IR), Ben's English; they sit at one table with
a bot. Sara's page is right to left, mirrored, with Persian digits and no English word of the
client's own; Ben's is English. Mid-game Ben switches to Russian and then Korean with the switch
in the top bar: the page is not reloaded, the game goes on, the connection asks the server for
its texts in the new language, and the choice is remembered.

Game texts (card names, the log, action labels) come from the server's gettext catalogs
(citadels.present). The "no English" checks below are about the client's own words; for the game
texts they check that the server was asked for the reader's language, and that two readers get
different texts when a Persian catalog is installed.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import citadels
from tests.web.conftest import AT_ONCE, LAPTOP, PHONE, create_table, serious, shot

pytestmark = pytest.mark.xdist_group("browser-languages")

ACTION = ".tray .action:not([disabled])"
STRINGS = "import('/static/js/strings.js')"  # the page's own module (one instance per URL)
CARD_IDS = "els => els.map(e => e.dataset.card)"
ROUND = "() => Number(document.querySelector('.round-tag')?.dataset.round || 0)"
FA_CATALOG = (
    Path(citadels.__file__).resolve().parent
    / "present"
    / "locale"
    / "fa"
    / "LC_MESSAGES"
    / "citadels.mo"
)

# The page's own words, as a reader sees them: visible text and the labels assistive technology
# reads, without the game texts the server renders (log, actions, cards), without player names
# (<bdi>) and without texts placed into a sentence (isolated between U+2068 and U+2069).
CHROME_TEXT = """(names) => {
  const body = document.body.cloneNode(true);
  const server = ".log, .action-label, .tip, [data-card], .court-btn, .card, bdi, .code-tag,"
    + " .big-code, #announcer, .lang-pick select, dialog, [data-text=server], noscript,"
    + " .seat-dot";  // other tables' avatars, titled with their players' names
  for (const el of body.querySelectorAll(server)) el.remove();
  const parts = [body.innerText, document.title];
  for (const el of body.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) parts.push(el.getAttribute(a) || "");
  }
  let text = parts.join("\\n").replace(/\\u2068[^\\u2069]*\\u2069/g, "");
  for (const name of names) text = text.split(name).join("");
  return text;
}"""


def _latin_words(page: Any, names: list[str]) -> list[str]:
    """Latin words among the page's own words; ``names`` (people, table codes) aside."""
    names = [*names, "K7QM-2XPA-9HJC-R4TW"]  # the join form's example of a table code
    return sorted(set(re.findall(r"[A-Za-z]{2,}", page.evaluate(CHROME_TEXT, names))))


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return dict(box)


def _play_a_little(pages: list[Any], until_round: int, seconds: float = 60) -> None:
    """Both people click their first action until the given round (or the time is up)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if min(p.evaluate(ROUND) for p in pages) >= until_round:
            return
        moved = False
        for page in pages:
            button = page.query_selector(ACTION)
            if button is None:
                continue
            with contextlib.suppress(Exception):
                button.click(timeout=3000)
                moved = True
                page.wait_for_function(
                    "() => !document.querySelector('.tray .action[disabled]')", timeout=10000
                )
        if not moved:
            time.sleep(0.1)


@pytest.fixture(scope="module")
def lang_game(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    rec: dict[str, Any] = {"errors": [], "outside": [], "frames": {"sara": [], "ben": []}}
    ctxs = []

    def context(locale: str) -> Any:
        # bypass_csp: wait_for_function compiles its predicates with eval (see test_csp.py).
        ctx = browser.new_context(
            viewport=LAPTOP, base_url=server, locale=locale, reduced_motion="reduce",
            bypass_csp=True,
        )  # fmt: skip
        ctx.add_init_script(AT_ONCE)

        def guard(route: Any) -> None:
            url = route.request.url
            if url.startswith(server) or url.startswith("data:"):
                route.continue_()
            else:
                rec["outside"].append(url)
                route.abort()

        ctx.route("**/*", guard)
        ctxs.append(ctx)
        return ctx

    def page_of(ctx: Any, who: str) -> Any:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.on("pageerror", lambda exc: rec["errors"].append(f"{who}: {exc}"))

        def on_socket(ws: Any) -> None:
            ws.on("framesent", lambda data: rec["frames"][who].append(("sent", data)))
            ws.on("framereceived", lambda data: rec["frames"][who].append(("got", data)))

        page.on("websocket", on_socket)
        return page

    sara = page_of(context("fa-IR"), "sara")
    ben = page_of(context("en-GB"), "ben")
    fonts: list[str] = []
    sara.on("request", lambda r: fonts.append(r.url) if "/fonts/" in r.url else None)
    try:
        sara.goto("/")
        sara.wait_for_selector("#create-edition option[value=basic]", state="attached")
        rec["lobby_dir"] = sara.evaluate("[document.documentElement.lang, document.dir]")
        rec["lobby_latin"] = _latin_words(sara, [])
        shot(sara, "lobby-fa-laptop")
        # The lobby's switch: Vietnamese, then Persian again.
        sara.select_option("[data-key=lang]", "vi")
        sara.wait_for_function("document.documentElement.lang === 'vi'")
        sara.wait_for_selector("#create-edition option[value=basic]", state="attached")
        rec["lobby_vi"] = {
            "dir": sara.evaluate("document.dir"),
            "submit": sara.inner_text("[data-key=create-submit]"),
            "level": sara.inner_text("#create-level option[value=medium]"),
        }
        sara.select_option("[data-key=lang]", "fa")
        sara.wait_for_function("document.documentElement.lang === 'fa'")
        sara.wait_for_selector("#create-edition option[value=basic]", state="attached")
        code = create_table(sara, "سارا", players=3, bots=1)
        ben.goto(f"/t/{code}")
        ben.wait_for_selector("#sit-name")
        ben.fill("#sit-name", "Ben")
        ben.click(".seat.empty [data-key^=sit-]")
        ben.wait_for_selector(".room .seat.mine")
        sara.wait_for_function("!document.querySelector('[data-key=start]').disabled")
        rec["room_latin"] = _latin_words(sara, ["Ben", code])
        shot(sara, "waiting-room-fa-laptop")
        sara.click("[data-key=start]")
        for page in (sara, ben):
            page.wait_for_selector(".table-screen")
        _play_a_little([sara, ben], until_round=2)
        sara.wait_for_selector(".log li")
        sara.evaluate("document.fonts.ready")
        rec["fa"] = {
            "html": sara.evaluate("[document.documentElement.lang, document.documentElement.dir]"),
            "side": _box(sara, "aside.side"),
            "board": _box(sara, ".board"),
            "brand": _box(sara, ".topbar .brand"),
            "round": sara.inner_text(".round-tag"),
            "stats": sara.inner_text(".my-panel .stats"),
            "latin": _latin_words(sara, ["Ben", code]),
            "names": sara.eval_on_selector_all(".pname bdi", "els => els.map(e => e.textContent)"),
            "log": sara.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)"),
            "persian_font": sara.evaluate(
                "document.fonts.check('16px \"Citadels Text\"', 'سیتادل')"
            ),
            "direction": sara.evaluate("getComputedStyle(document.body).direction"),
        }
        shot(sara, "table-fa-laptop")
        rec["axe_fa"] = serious(sara)
        sara.set_viewport_size(PHONE)
        sara.wait_for_timeout(300)
        shot(sara, "table-fa-phone")
        rec["fa_phone_overflow"] = sara.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        sara.set_viewport_size(LAPTOP)
        rec["fonts"] = list(fonts)
        rec["en"] = {
            "html": ben.evaluate("[document.documentElement.lang, document.documentElement.dir]"),
            "side": _box(ben, "aside.side"),
            "board": _box(ben, ".board"),
            "brand": _box(ben, ".topbar .brand"),
            "tab": ben.inner_text("[data-key=tab-log]"),
            "log": ben.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)"),
        }

        # --- Ben switches to Russian mid-game: no reload, the game goes on ------------------
        ben.evaluate("window.__same_page = true")
        hand = ben.eval_on_selector_all(
            ".my-hand [data-card]", "els => els.map(e => e.dataset.card)"
        )
        sent_before = len(rec["frames"]["ben"])
        ben.select_option("[data-key=lang]", "ru")
        ben.wait_for_function("document.documentElement.lang === 'ru'")
        ben.wait_for_function("document.querySelector('[data-key=tab-log]').textContent === 'Ходы'")
        frames = rec["frames"]["ben"][sent_before:]
        rec["switch"] = {
            "same_page": ben.evaluate("window.__same_page === true"),
            "hand_before": hand,
            "hand_after": ben.eval_on_selector_all(".my-hand [data-card]", CARD_IDS),
            "stored": ben.evaluate("localStorage.getItem('citadels.lang')"),
            "latin": _latin_words(ben, ["Ben", "سارا", code]),
            "dir": ben.evaluate("document.documentElement.dir"),
            "plural": ben.evaluate(
                STRINGS + ".then(s => [1, 3, 5, 21].map(n => s.t('cards_n', {n})))"
            ),
        }
        # The server answers the switch with a snapshot: wait for it (not for a fixed time,
        # which a busy machine outlasts), then for anything else that came with it.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
            kind == "got" and '"snapshot"' in d for kind, d in rec["frames"]["ben"][sent_before:]
        ):
            ben.wait_for_timeout(100)
        ben.wait_for_timeout(500)
        frames = rec["frames"]["ben"][sent_before:]
        rec["switch"]["sent"] = [json.loads(d) for kind, d in frames if kind == "sent"]
        rec["switch"]["got"] = [json.loads(d)["type"] for kind, d in frames if kind == "got"]
        shot(ben, "table-ru-laptop")
        _play_a_little([sara, ben], until_round=3, seconds=30)
        ben.select_option("[data-key=lang]", "ko")
        ben.wait_for_function("document.documentElement.lang === 'ko'")
        ben.wait_for_function(
            "document.querySelector('[data-key=tab-log]').textContent === '진행 기록'"
        )
        rec["ko_latin"] = _latin_words(ben, ["Ben", "سارا", code])
        shot(ben, "table-ko-laptop")
        ben.reload()
        ben.wait_for_selector(".table-screen")
        rec["after_reload"] = ben.evaluate("document.documentElement.lang")
        rec["sara_hello"] = [
            json.loads(d) for kind, d in rec["frames"]["sara"] if kind == "sent" and '"hello"' in d
        ]
        rec["plural_forms"] = sara.evaluate(
            """async () => {
              const out = {};
              for (const lang of ["en", "fa", "ru", "ko", "vi"]) {
                const table = await (await fetch(`/static/i18n/${lang}.json`)).json();
                const wanted = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.sort();
                out[lang] = Object.entries(table).filter(([, v]) => typeof v === "object")
                  .map(([k, v]) => [k, Object.keys(v).sort().join() === wanted.join()]);
              }
              return out;
            }"""
        )
        rec["fa_numbers"] = sara.evaluate(
            STRINGS + ".then(s => [s.num(1234), s.t('seats_count', {n: 5})])"
        )
        yield rec
    finally:
        for ctx in ctxs:
            ctx.close()


def test_persian_page_is_right_to_left_and_mirrored(lang_game: dict[str, Any]) -> None:
    fa, en = lang_game["fa"], lang_game["en"]
    assert lang_game["lobby_dir"] == ["fa", "rtl"]
    assert fa["html"] == ["fa", "rtl"] and fa["direction"] == "rtl"
    assert en["html"] == ["en", "ltr"]
    # Mirrored: the moves panel is at the left in Persian, at the right in English; the brand
    # starts the top bar at the right in Persian, at the left in English.
    assert fa["side"]["x"] < fa["board"]["x"]
    assert en["side"]["x"] > en["board"]["x"]
    assert fa["brand"]["x"] > LAPTOP["width"] / 2 > en["brand"]["x"]


def test_lobby_switches_language(lang_game: dict[str, Any]) -> None:
    got = dict(lang_game["lobby_vi"])
    level = re.sub("[\u2068\u2069]", "", got.pop("level"))
    assert got == {"dir": "ltr", "submit": "Tạo bàn"}
    # The level's word, then its rating (docs/accounts.md) as Vietnamese writes numbers.
    assert re.fullmatch(r"Trung bình · \d{1,3}(?:\.\d{3})*", level), level


def test_persian_page_has_no_english_word_of_its_own(lang_game: dict[str, Any]) -> None:
    assert lang_game["lobby_latin"] == []
    assert lang_game["room_latin"] == []
    assert lang_game["fa"]["latin"] == []


def test_persian_numbers_and_names(lang_game: dict[str, Any]) -> None:
    fa = lang_game["fa"]
    assert re.fullmatch(r"دور [۰-۹]+", fa["round"]), fa["round"]
    assert not re.search(r"[0-9]", fa["stats"]) and re.search(r"[۰-۹]", fa["stats"])
    assert "Ben" in fa["names"] and "سارا" in fa["names"]  # names sit in <bdi>
    assert lang_game["fa_numbers"] == ["۱٬۲۳۴", "۵ صندلی"]


def test_fonts_come_from_our_server_and_cover_persian(lang_game: dict[str, Any]) -> None:
    assert lang_game["outside"] == []
    assert any("vazirmatn-arabic-" in url for url in lang_game["fonts"]), lang_game["fonts"]
    assert lang_game["fa"]["persian_font"] is True


def test_each_reader_asks_the_server_for_their_language(lang_game: dict[str, Any]) -> None:
    assert lang_game["sara_hello"] and all(h["lang"] == "fa" for h in lang_game["sara_hello"])
    fa_log, en_log = lang_game["fa"]["log"], lang_game["en"]["log"]
    assert fa_log and en_log
    if FA_CATALOG.exists():  # once the Persian catalog is installed, the two logs differ
        assert fa_log[0] != en_log[0]


def test_switching_language_mid_game_keeps_the_game(lang_game: dict[str, Any]) -> None:
    sw = lang_game["switch"]
    assert sw["same_page"] is True
    assert sw["hand_after"] == sw["hand_before"]
    assert {"type": "lang", "lang": "ru"} in sw["sent"]
    assert "snapshot" in sw["got"] and "error" not in sw["got"]
    assert sw["stored"] == "ru" and sw["dir"] == "ltr"
    assert sw["latin"] == [] and lang_game["ko_latin"] == []
    assert sw["plural"] == [
        "1 карта в руке",
        "3 карты в руке",
        "5 карт в руке",
        "21 карта в руке",
    ]
    assert lang_game["after_reload"] == "ko"  # remembered


def test_plural_forms_match_the_browsers_plural_rules(lang_game: dict[str, Any]) -> None:
    for lang, entries in lang_game["plural_forms"].items():
        assert entries, lang
        assert all(ok for _key, ok in entries), (lang, entries)


def test_persian_page_passes_the_accessibility_scan(lang_game: dict[str, Any]) -> None:
    assert lang_game["axe_fa"] == []


def test_persian_phone_does_not_scroll_sideways(lang_game: dict[str, Any]) -> None:
    assert lang_game["fa_phone_overflow"] <= 0


def test_no_page_error(lang_game: dict[str, Any]) -> None:
    assert lang_game["errors"] == []
