"""Issue 11: the gettext catalogs of fa, ru, ko and vi are complete, well formed and use the
seeds' card names.

Every msgid Babel extracts from the sources (``babel.cfg``'s keywords), and every key of the
browser's ``web/i18n/en.json`` (the context ``web:<key>``, tools/web_i18n.py), must have a
non-empty, non-fuzzy translation in every catalog, with the same ``{placeholders}`` as the
English, and each catalog's plural forms must be the ones its language counts with.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from citadels.editions import EDITIONS
from citadels.present import card_name, translator
from citadels.present.i18n import LANGUAGES, catalog_path, load_catalog
from citadels.present.names import (
    CHARACTER_NAMES,
    DISTRICT_NAMES,
    EDITION_TITLES,
    PRESET_NAMES,
    PRESET_TITLES,
    SETUP_ADVICE,
)
from tests.helpers import tool

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: How many plural forms each language has (CLDR: Russian one/few/many, Persian one/other,
#: Korean and Vietnamese other only) and gettext's rule for them.
PLURALS = {
    "ru": (3, [(1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (21, 0), (22, 1), (25, 2)]),
    "fa": (2, [(0, 0), (1, 0), (2, 1), (10, 1)]),
    "ko": (1, [(0, 0), (1, 0), (7, 0)]),
    "vi": (1, [(0, 0), (1, 0), (7, 0)]),
}


#: The keywords of ``babel.cfg``/``make messages``: Babel's own (``gettext``, ``pgettext``…) and
#: the project's markers.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "NP_": (1, 2),
    "NC_": ((1, "c"), 2),
    "g": None,
    "n": (1, 2),
}


@lru_cache(maxsize=1)
def marked_in_sources() -> dict[tuple[str | None, Any], str]:
    """Every (context, msgid) the sources mark (a msgid is a string or a (singular, plural)
    pair; the context ``None`` when there is none), with where."""
    found: dict[tuple[str | None, Any], str] = {}
    for filename, line, message, _comments, context in extract_from_dir(
        ROOT / "src" / "citadels", method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        key = message if isinstance(message, str) else tuple(message)
        found.setdefault((context, key), f"{filename}:{line}")
    return found


@lru_cache(maxsize=1)
def extracted_in_context() -> dict[tuple[str | None, Any], str]:
    """Every (context, msgid) of the template: those the sources mark and the browser's keys
    (context ``web:<key>``, as tools/web_i18n.py adds them)."""
    found = dict(marked_in_sources())
    for context, msgid in tool("web_i18n").messages():
        found.setdefault((context, msgid), "src/citadels/web/i18n/en.json")
    return found


@lru_cache(maxsize=1)
def extracted() -> dict[Any, str]:
    """Every msgid (a string, or a (singular, plural) pair) the sources mark, with where,
    whatever its context."""
    found: dict[Any, str] = {}
    for (_context, key), where in marked_in_sources().items():
        found.setdefault(key, where)
    return found


@lru_cache(maxsize=8)
def catalog(lang: str) -> Any:
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def placeholders(text: str) -> Counter[str]:
    return Counter(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = catalog(lang)
    nplurals = PLURALS[lang][0]
    problems = []
    for (context, msgid), where in extracted_in_context().items():
        message = cat.get(msgid, context=context)
        if message is None:
            problems.append(f"missing: {msgid!r} in context {context!r} ({where})")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        if isinstance(msgid, tuple):
            strings = list(message.string)
            want = placeholders(msgid[1])
            if len(strings) != nplurals:
                problems.append(f"{len(strings)} plural forms, not {nplurals}: {msgid!r}")
        else:
            strings = [message.string]
            want = placeholders(msgid)
        for text in strings:
            if not text or not text.strip():
                problems.append(f"empty: {msgid!r} ({where})")
            elif placeholders(text) != want:
                got = dict(placeholders(text))
                problems.append(f"placeholders {got} != {dict(want)}: {msgid!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_keeps_a_msgid_the_sources_dropped(lang: str) -> None:
    marked = extracted_in_context()
    stale = [(m.context, m.id) for m in catalog(lang) if m.id and (m.context, m.id) not in marked]
    assert not stale, stale


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_are_the_languages_own(lang: str) -> None:
    nplurals, cases = PLURALS[lang]
    cat = catalog(lang)
    assert cat.num_plurals == nplurals
    compiled = load_catalog(lang)
    singular, plural = "{n} card", "{n} cards"
    forms = list(cat.get((singular, plural)).string)
    for n, index in cases:
        assert compiled.ngettext(singular, plural, n) == forms[index], (lang, n)


def test_russian_counts_cards_in_three_forms() -> None:
    tr = translator("ru")
    words = [tr.ngettext("{n} card", "{n} cards", n) for n in (1, 3, 5, 11, 21, 104)]
    assert words == ["1 карта", "3 карты", "5 карт", "11 карт", "21 карта", "104 карты"]


def test_the_marked_names_are_every_name_of_every_edition() -> None:
    """``present/names.py`` marks the engine's names for extraction: it must list them all."""
    for edition in EDITIONS.values():
        for card in edition.characters.values():
            assert CHARACTER_NAMES[card.id] == card.name
        for card in edition.districts.values():
            assert DISTRICT_NAMES[card.id] == card.name
        assert EDITION_TITLES[edition.id] == edition.title
        assert not edition.setup_advice or edition.setup_advice in SETUP_ADVICE
        for preset in edition.presets.values():
            assert preset.title in PRESET_TITLES
            assert PRESET_NAMES[preset.id] == preset.id.replace("_", " ").title()


# The seeds' own words (GLOSSARY.md): seed 000/001 Persian, 002 Russian, 003 Korean, 004
# Vietnamese (capitalised as a card title). The Persian names carry the zero-width non-joiner
# that standard spelling needs (the seed's text has lost it), see docs/translations.md.
SEED_NAMES = {
    "fa": {
        "assassin": "آدمکش",
        "thief": "دزد",
        "magician": "شعبده\u200cباز",
        "king": "شاه",
        "bishop": "اسقف",
        "merchant": "بازرگان",
        "architect": "معمار",
        "warlord": "سردار",
        "manor": "عمارت",
        "castle": "قصر کوچک",
        "market": "بازارچه",
        "watchtower": "برج دیده\u200cبانی",
        "haunted_city": "شهر متروک",
        "keep": "قورخانه",
        "observatory": "رصدخانه",
        "graveyard": "گورستان",
        "smithy": "آهنگری",
    },
    "ru": {
        "thief": "Вор",
        "magician": "Чародей",
        "king": "Король",
        "bishop": "Епископ",
        "merchant": "Купец",
        "architect": "Зодчий",
        "warlord": "Кондотьер",
        "castle": "Замок",
        "market": "Рынок",
        "observatory": "Обсерватория",
        "graveyard": "Кладбище",
        "quarry": "Карьер",
        "bell_tower": "Колокольня",
    },
    "ko": {
        "assassin": "암살자",
        "thief": "도둑",
        "magician": "마술사",
        "king": "왕",
        "bishop": "주교",
        "merchant": "상인",
        "architect": "건축가",
        "warlord": "콘도티에르",
        "castle": "성",
        "market": "시장",
    },
    "vi": {
        "assassin": "Sát thủ",
        "thief": "Kẻ trộm",
        "magician": "Nhà ảo thuật",
        "king": "Vua",
        "witch": "Phù thủy",
        "tax_collector": "Người thu thuế",
        "emperor": "Hoàng đế",
        "blackmailer": "Kẻ tống tiền",
        "castle": "Lâu Đài",
        "market": "Chợ",
        "bell_tower": "Tháp Chuông",
    },
}


#: Seed 001, the Dezh rulebook, names four characters and the Laboratory its own way: a `dezh`
#: game uses its words (the edition's context, S3 of the 2026-12 review); the other editions
#: keep seed 000's, and the Laboratory, whose Dezh word «کیمیاگری» ("alchemy") sits beside the
#: Alchemist «کیمیاگر» in Dark City, is «آزمایشگاه» there.
DEZH_NAMES = {
    "assassin": "آدمکش",
    "thief": "راهزن",
    "magician": "تردست",
    "king": "شاه",
    "bishop": "حکیم",
    "merchant": "تاجر",
    "architect": "معمار",
    "warlord": "سردار",
    "tavern": "کاروانسرا",
    "laboratory": "کیمیاگری",
    "keep": "قورخانه",
}


def test_a_dezh_game_uses_the_dezh_rulebooks_names() -> None:
    for card_id, name in DEZH_NAMES.items():
        assert card_name("dezh", card_id, "fa") == name, card_id
    assert card_name("basic", "thief", "fa") == "دزد"
    assert card_name("classic", "laboratory", "fa") == "آزمایشگاه"
    # Another language, without a Dezh rulebook, keeps its one name.
    assert card_name("dezh", "thief", "ru") == card_name("classic", "thief", "ru") == "Вор"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_card_names_follow_the_seeds(lang: str) -> None:
    for card_id, name in SEED_NAMES[lang].items():
        edition = "2016" if card_id in EDITIONS["2016"].characters else "classic"
        if (
            card_id not in EDITIONS[edition].characters
            and card_id not in EDITIONS[edition].districts
        ):
            edition = "dezh"
        assert card_name(edition, card_id, lang) == name, (lang, card_id)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_two_cards_of_an_edition_share_a_name(lang: str) -> None:
    for edition in EDITIONS.values():
        ids = [*edition.characters, *edition.districts]
        names = [card_name(edition, i, lang) for i in ids]
        assert len(set(names)) == len(names), (lang, edition.id)
