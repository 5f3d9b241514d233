"""Issue 26, one source of terms: the browser's strings are msgids of the gettext catalogs (the
context ``web:<key>``), and ``web/i18n/<lang>.json`` is written from them by tools/web_i18n.py.

Checked here without a browser: every committed table is what its catalog gives (a test fails
when one is out of date), no translation of the hand-written tables was lost on the way, the
tool's plural forms are the CLDR categories of each gettext form, and the tool tolerates what
other work does to the JSON files meanwhile (a key added by hand is imported, a changed English
makes a kept translation fuzzy, a difference stops it until a side is chosen)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.catalog import Catalog

from citadels.present.i18n import load_catalog, translator
from citadels.server import ServerConfig, create_app
from tests.helpers import tool

web_i18n = tool("web_i18n")
LANGS = tuple(web_i18n.FORMS)
BEFORE = Path(__file__).resolve().parent / "strings_before_catalogs.json"
#: The browser strings deliberately worded anew when they joined the catalogs: the same English
#: sentence had two translations, and the browser now says the terminal's (the plain msgid's);
#: or the Russian grammar test, which reads them now, found a participle beside a character
#: («Ваш персонаж «Ведьма» убит»), and the notice is in the present tense as the others.
RETRANSLATED = {
    ("ru", "notice_murdered"): None,
    ("ru", "notice_bewitched"): None,
    ("ru", "err_illegal_action"): "That move is not allowed now.",
    ("ru", "err_illegal_action_rule"): None,
    ("vi", "err_not_your_turn"): "It is not your turn.",
    ("vi", "err_illegal_action"): "That move is not allowed now.",
    ("vi", "err_illegal_action_rule"): None,
    # Worded anew by the second read of each language (2026-12-03, docs/translations.md):
    # one word per term on a page (ko 뒷면, 손; ru «лицом вниз»), fixed particles after 님 in
    # the notices, the register of the buttons.
    ("fa", "actions"): None,
    ("fa", "confirm_yes"): None,
    ("fa", "empty_hand"): None,
    ("fa", "notice_murdered"): None,
    ("fa", "notice_rob"): None,
    ("fa", "rank_n"): None,
    ("ko", "confirm_self_harm"): None,
    ("ko", "facedown_n"): None,
    ("ko", "known_facedown"): None,
    ("ko", "notice_a_card_taken"): None,
    ("ko", "notice_bewitched"): None,
    ("ko", "notice_card_taken"): None,
    ("ko", "notice_confiscated"): None,
    ("ko", "notice_destroyed"): None,
    ("ko", "notice_exchanged_district"): None,
    ("ko", "notice_exchanged_hands"): None,
    ("ko", "notice_hand_seen"): None,
    ("ko", "notice_murdered"): None,
    ("ko", "notice_rob"): None,
    ("ko", "notice_robbed"): None,
    ("ko", "notice_seized"): None,
    ("ko", "notice_spied"): None,
    ("ko", "replay_spectator"): None,
    ("ru", "confirm_self_harm"): None,
    ("ru", "known_facedown"): None,
    ("ru", "legend_bonus"): None,
    ("vi", "confirm_self_harm"): None,
    ("vi", "confirm_yes"): None,
    ("vi", "err_bad_level"): None,
    ("vi", "legend_bonus"): None,
    ("vi", "level_medium"): None,
    ("vi", "notice_bewitched"): None,
    ("vi", "skip_to_turn"): None,
    ("fa", "skip_to_actions"): None,
    ("ru", "removed"): None,
    ("vi", "bot_level"): None,
    ("ko", "seats_count"): None,
}


def before() -> dict[str, dict[str, Any]]:
    """The hand-written tables of every language, as they were before the catalogs held them."""
    data: dict[str, Any] = json.loads(BEFORE.read_text(encoding="utf-8"))
    return {lang: data[lang] for lang in ("en", *LANGS)}


def table(lang: str, web: Path = web_i18n.WEB_I18N) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((web / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def catalog(lang: str, locale: Path = web_i18n.LOCALE) -> Catalog:
    return web_i18n.load(web_i18n.catalog_file(lang, locale), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_is_what_its_catalog_gives(lang: str) -> None:
    """A JSON file edited by hand, or a catalog changed without `make web-i18n`, fails here."""
    en_text = (web_i18n.WEB_I18N / "en.json").read_text(encoding="utf-8")
    wanted = web_i18n.render(web_i18n.table_of(catalog(lang), lang, web_i18n.english()), en_text)
    path = web_i18n.WEB_I18N / f"{lang}.json"
    assert path.read_text(encoding="utf-8") == wanted, f"{path} is stale: run `make web-i18n`"


def test_nothing_is_left_to_import_or_write() -> None:
    report = web_i18n.run(check=True)
    assert not (report.imported or report.stale or report.dropped or report.conflicts)
    assert not (report.catalogs or report.tables), report.lines()


@pytest.mark.parametrize("lang", LANGS)
def test_every_browser_key_is_a_translated_msgid_of_the_catalog(lang: str) -> None:
    cat = catalog(lang)
    for key, entry in web_i18n.english().items():
        message = cat.get(web_i18n.msgid(entry), context=f"web:{key}")
        assert message is not None, f"{lang}: no entry for web:{key}"
        assert not message.fuzzy, f"{lang}: web:{key} is fuzzy"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(s.strip() for s in strings), f"{lang}: web:{key} is not translated"
        assert [loc for loc, _ in message.locations] == [web_i18n.SOURCE]


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_of_the_hand_written_tables_was_lost(lang: str) -> None:
    """Every key of every language says what the hand-written table said, form by form, but
    for the few sentences worded anew on purpose (:data:`RETRANSLATED`). A key whose English
    changed since may say something else; one translated anew on purpose later goes into
    :data:`RETRANSLATED`, with why."""
    old, now = before()[lang], table(lang)
    english_then, english_now = before()["en"], table("en")
    assert set(english_then) <= set(english_now), "a browser key was dropped"
    tr = translator(lang)
    changed = []
    for key, entry in old.items():
        if english_now[key] != english_then[key]:
            continue
        assert key in now, f"{lang}:{key} lost its translation"
        if (lang, key) in RETRANSLATED:
            assert now[key] != entry, f"{lang}:{key} was to be worded anew"
            plain = RETRANSLATED[lang, key]
            if plain is not None:
                assert now[key] == tr.gettext(plain), f"{lang}:{key}"
        elif now[key] != entry:
            changed.append(f"{lang}:{key}: {entry!r} became {now[key]!r}")
    assert not changed, "\n".join(changed)
    assert {k for lg, k in RETRANSLATED if lg == lang} <= set(old)


def cldr_category(lang: str, n: int) -> str:
    """The CLDR cardinal category of a whole number, as browsers' Intl.PluralRules give it
    (tests/web/test_languages.py compares the tables' categories with Chromium's)."""
    if lang == "fa":
        return "one" if n in (0, 1) else "other"
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    return "other"


@pytest.mark.parametrize("lang", LANGS)
def test_the_plural_forms_are_the_cldr_categories_of_the_gettext_forms(lang: str) -> None:
    """For every count, the gettext form the catalog's rule picks is the one whose CLDR
    category the browser picks; Russian's CLDR ``other`` (fractions) is the extra one."""
    gnu = load_catalog(lang)
    forms = web_i18n.FORMS[lang]
    for n in range(0, 1002):
        assert forms[gnu.plural(n)] == cldr_category(lang, n), (lang, n)  # type: ignore[attr-defined]
    categories = {cldr_category(lang, n) for n in range(1002)}
    assert set(forms) == categories
    assert set(web_i18n.EXTRA.get(lang, {})) == ({"other"} - categories)


def test_russian_keeps_its_fraction_form_where_it_is_not_the_few_form() -> None:
    """CLDR's Russian ``other`` (fractions, and the fallback without a count) is no gettext
    form: it is the ``few`` form, or the ``cldr-other:`` comment of the entry."""
    cat = catalog("ru")
    robbed = cat.get(
        web_i18n.msgid(web_i18n.english()["notice_robbed"]), context="web:notice_robbed"
    )
    assert "cldr-other: {name} забирает у вас {n} золотого." in robbed.user_comments
    assert table("ru")["notice_robbed"]["other"] == "{name} забирает у вас {n} золотого."
    assert table("ru")["seats_count"]["other"] == table("ru")["seats_count"]["few"]


# --- the tool, on copies ----------------------------------------------------------------------


@pytest.fixture
def copies(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the catalogs and of the tables written from them, for the tool to change."""
    web = tmp_path / "i18n"
    shutil.copytree(web_i18n.WEB_I18N, web)
    locale = tmp_path / "locale"
    for lang in LANGS:
        target = web_i18n.catalog_file(lang, locale)
        target.parent.mkdir(parents=True)
        shutil.copyfile(web_i18n.catalog_file(lang), target)
    web_i18n.run(("write",), web=web, locale=locale)  # in step, whatever the checkout's state
    return web, locale


def _write(web: Path, lang: str, data: dict[str, Any]) -> None:
    (web / f"{lang}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_the_tool_carries_every_hand_written_table_over_unchanged(
    copies: tuple[Path, Path],
) -> None:
    """From catalogs without browser entries and the hand-written tables, the tool writes the
    same tables back: every key, every form, every language."""
    web, locale = copies
    for lang, data in before().items():
        _write(web, lang, data)
    for lang in LANGS:
        cat = catalog(lang, locale)
        for message in [m for m in cat if m.context and m.context.startswith("web:")]:
            cat.delete(message.id, context=message.context)
        web_i18n.catalog_file(lang, locale).write_bytes(web_i18n.dump(cat))
    report = web_i18n.run(web=web, locale=locale)
    assert len(report.imported) == len(LANGS) * len(before()["en"])
    for lang in LANGS:
        assert table(lang, web) == before()[lang], lang
        assert list(table(lang, web)) == list(before()["en"])
    assert not web_i18n.run(check=True, web=web, locale=locale).lines()


def test_a_key_added_to_the_json_tables_by_hand_is_imported(copies: tuple[Path, Path]) -> None:
    web, locale = copies
    en = table("en", web)
    en["gold_left"] = {"one": "{n} gold left", "other": "{n} gold left"}
    en["hello_x"] = "Hello"
    _write(web, "en", en)
    fa, ru = table("fa", web), table("ru", web)
    fa["hello_x"] = "سلام"
    ru["gold_left"] = {
        "one": "остался {n} золотой",
        "few": "осталось {n} золотых",
        "many": "осталось {n} золотых",
        "other": "осталось {n} золотого",
    }
    _write(web, "fa", fa)
    _write(web, "ru", ru)
    report = web_i18n.run(web=web, locale=locale)
    assert sorted(report.imported) == ["fa:hello_x", "ru:gold_left"]
    message = catalog("fa", locale).get("Hello", context="web:hello_x")
    assert message.string == "سلام" and not message.fuzzy
    message = catalog("ru", locale).get(("{n} gold left",) * 2, context="web:gold_left")
    assert message.string == ("остался {n} золотой", "осталось {n} золотых", "осталось {n} золотых")
    assert "cldr-other: осталось {n} золотого" in message.user_comments
    assert table("ru", web)["gold_left"] == ru["gold_left"]
    assert table("fa", web)["hello_x"] == "سلام"
    # Untranslated: an empty entry in the catalog, and no key in the table (the browser shows
    # the English until a translator writes it).
    ko = catalog("ko", locale).get("Hello", context="web:hello_x")
    assert ko is not None and ko.string == ""
    assert "hello_x" not in table("ko", web) and "gold_left" not in table("fa", web)
    # The new keys are in the English table's place, last and in order, in the catalog.
    contexts = [m.context for m in catalog("fa", locale) if m.context]
    assert contexts[-2:] == ["web:gold_left", "web:hello_x"]


def test_a_changed_english_makes_a_kept_translation_fuzzy(copies: tuple[Path, Path]) -> None:
    web, locale = copies
    en = table("en", web)
    en["robbed"] = "Robbed of gold"
    _write(web, "en", en)
    ru = table("ru", web)
    ru["robbed"] = "Обокраден (золото)"
    _write(web, "ru", ru)
    report = web_i18n.run(web=web, locale=locale)
    assert "fa:robbed" in report.stale and "ru:robbed" in report.imported
    fa = catalog("fa", locale)
    assert fa.get("Robbed", context="web:robbed") is None
    assert fa.get("Robbed of gold", context="web:robbed").fuzzy
    assert "robbed" not in table("fa", web)
    assert table("ru", web)["robbed"] == "Обокраден (золото)"
    assert not catalog("ru", locale).get("Robbed of gold", context="web:robbed").fuzzy


def test_a_difference_stops_the_tool_until_a_side_is_chosen(copies: tuple[Path, Path]) -> None:
    web, locale = copies
    fa = table("fa", web)
    catalog_word = fa["refresh"]
    fa["refresh"] = "تازه‌سازی"
    _write(web, "fa", fa)
    po_before = web_i18n.catalog_file("fa", locale).read_bytes()
    with pytest.raises(web_i18n.Conflict, match="fa:refresh"):
        web_i18n.run(web=web, locale=locale)
    assert web_i18n.catalog_file("fa", locale).read_bytes() == po_before
    assert table("fa", web)["refresh"] == "تازه‌سازی"
    report = web_i18n.run(web=web, locale=locale, prefer="po")
    assert any("fa:refresh" in line for line in report.lines())
    assert table("fa", web)["refresh"] == catalog_word
    fa["refresh"] = "تازه‌سازی"
    _write(web, "fa", fa)
    web_i18n.run(web=web, locale=locale, prefer="json")
    assert catalog("fa", locale).get("Refresh", context="web:refresh").string == "تازه‌سازی"
    assert table("fa", web)["refresh"] == "تازه‌سازی"


def test_a_key_gone_from_the_english_table_leaves_the_catalogs(copies: tuple[Path, Path]) -> None:
    web, locale = copies
    en = table("en", web)
    del en["refresh"]
    _write(web, "en", en)
    report = web_i18n.run(web=web, locale=locale)
    assert sorted(report.dropped) == [f"{lang}:refresh" for lang in sorted(LANGS)]
    assert all(
        catalog(lang, locale).get("Refresh", context="web:refresh") is None for lang in LANGS
    )
    assert "refresh" not in table("vi", web)


def test_the_template_gets_every_browser_key(tmp_path: Path) -> None:
    pot = tmp_path / "citadels.pot"
    pot.write_bytes(web_i18n.dump(Catalog(project="citadels")))
    added = web_i18n.add_to_template(pot)
    assert added == len(web_i18n.english())
    template = web_i18n.load(pot)
    assert [m.context for m in template if m.id] == [f"web:{k}" for k in web_i18n.english()]
    assert web_i18n.add_to_template(pot) == 0
    assert "#: src/citadels/web/i18n/en.json\n" in pot.read_text(encoding="utf-8")


def test_the_make_targets_run_the_tool() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    messages = makefile.split("\nmessages:", 1)[1].split("\n\n", 1)[0]
    update = makefile.split("\nupdate-po:", 1)[1].split("\n\n", 1)[0]
    target = makefile.split("\nweb-i18n:", 1)[1].split("\n\n", 1)[0]
    assert "tools/web_i18n.py pot $(POT)" in messages
    assert update.index("$(WEB_I18N) import") < update.index("pybabel update")
    assert update.index("pybabel update") < update.index("$(WEB_I18N) write")
    assert "$(WEB_I18N)" in target


def test_the_server_serves_the_generated_tables_at_their_urls() -> None:
    """The client fetches /static/i18n/<lang>.json (strings.js): the file as written, as JSON,
    with the validators a browser revalidates its copy by."""

    async def fetch() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=create_app(ServerConfig()))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return [await client.get(f"/static/i18n/{lang}.json") for lang in ("en", *LANGS)]

    for lang, response in zip(("en", *LANGS), asyncio.run(fetch()), strict=True):
        assert response.status_code == 200, lang
        assert response.headers["content-type"].startswith("application/json")
        assert "etag" in response.headers and "last-modified" in response.headers
        assert response.content == (web_i18n.WEB_I18N / f"{lang}.json").read_bytes()
