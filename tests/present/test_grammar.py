"""Issue 26: sentences that fit every name the game fills in.

Russian: a name («Анна», «Борис», «Место 5», «Бот 2 (сложный)») or a character («Ведьма»,
«Аббат») never governs a gendered word, since it may be of either gender. Every gender-marked
word of a Russian sentence with such a placeholder (found by pymorphy3, the Russian morphological
analyser) must be in :data:`FORMS`, the checked list of forms, with the noun it agrees with, and
never stand next to the placeholder; every sentence is rendered for every character of every
edition and for a female and a male name, character names always in quotes (so they keep their
nominative, whatever the case around them).

Korean: the particle written in its two-way form (``와(과)``) is resolved after every name the
game produces: Hangul names, seat labels, bots with their levels in brackets, names ending in a
digit, a quote or a bracket; after Latin letters the two-way form stays.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

from citadels.editions import EDITIONS
from citadels.present import card_name, render_event, seat_label, translator
from citadels.present.i18n import catalog_path, korean_particles

#: Placeholders filled with a person's or a seat's name.
PERSONS = ("who", "name", "seat", "other", "target", "builder", "thief", "collector",
           "blackmailer", "crown", "player")  # fmt: skip
#: Placeholders filled with a character's name (or a list of them).
CHARACTERS = ("character", "characters", "gave", "got", "signed", "flowered")
PLACEHOLDER = re.compile(r"\{(\w+)\}")

#: Every gender-marked word a Russian sentence with a name or a character in it may use, and
#: the noun (a lemma of the same sentence) it agrees with; ``None``: impersonal (``взято: 2``),
#: part of a card's name (Тронный зал) or a noun pymorphy3 reads as an adjective (the coin
#: «золотой»). Checked by a Russian reader: none agrees with a name. The browser's strings are
#: read too since the catalogs hold them (``web:<key>``); the forms they added (вашего, вашей,
#: ваш квартал, ваше/уплаченное/возвращено золото, золотой) agree with the noun beside them, and
#: so do the review's (каждого/каждое решение, каждый момент, знало это место; «по тому, что»).
FORMS: dict[str, tuple[str, ...] | None] = {
    "был": ("персонаж",),
    "которого": ("игрок",),
    "ваш": ("ход", "квартал"),
    "ваше": ("решение", "золото"),
    "вашего": ("персонаж",),
    "вашей": ("рука",),
    "вышло": ("время",),
    "пропущен": ("ход",),
    "сделал": ("бот",),
    "возвращено": ("золото",),
    "взято": None,
    "сброшено": None,
    "воровской": ("притон",),
    "её": ("карта",),
    "знало": ("место",),
    "каждого": ("решение",),
    "каждое": ("решение",),
    "каждый": ("момент",),
    "лежащего": ("персонаж",),
    "недопустимое": ("значение",),
    "одну": ("карта",),
    "окончена": ("игра",),
    "оружейной": None,
    "первый": ("вариант", "город"),
    "завершённый": ("город",),
    "золотой": None,
    "подписанный": ("ордер",),
    "пустую": ("угроза",),
    "своего": ("персонаж",),
    "свой": ("квартал",),
    "случайную": ("карта",),
    "такого": ("параметр",),
    "тому": None,
    "тронный": None,
    "убитый": ("персонаж",),
    "указан": ("аргумент", "параметр"),
    "уплаченное": ("золото",),
    "учётная": ("запись",),
    "создана": ("запись",),
    "сброшен": ("пароль",),
}
#: The female and the male name, and the other names the game makes.
RU_NAMES = ("Анна", "Борис", "Место 5", "Бот 2 (сложный)")


@lru_cache(maxsize=1)
def morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def gendered(word: str) -> bool:
    """Whether a Russian word is marked for gender in the singular (a past verb, a participle,
    an adjective), as pymorphy3 reads it first."""
    tag = morph().parse(word)[0].tag
    return bool(
        tag.number == "sing" and tag.gender and tag.POS in ("VERB", "PRTS", "ADJS", "PRTF", "ADJF")
    )


def lemmas(text: str) -> set[str]:
    return {morph().parse(w)[0].normal_form for w in re.findall(r"[А-Яа-яЁё]+", text)}


@lru_cache(maxsize=1)
def russian_sentences() -> list[tuple[str, str]]:
    """(msgid, translation) of every Russian entry (each plural form) with a name or a
    character in it."""
    with catalog_path("ru").open("rb") as f:
        catalog = read_po(f, locale="ru")
    out = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if set(PLACEHOLDER.findall(text)) & {*PERSONS, *CHARACTERS}:
                out.append((english, text))
    return out


def tokens(text: str) -> list[str]:
    """Words, placeholders and the punctuation that parts them (a comma, colon, dash or
    bracket: a word on its other side does not agree across it); quotes are dropped."""
    return re.findall(r"\{\w+\}|[А-Яа-яЁё]+|[,:;—–()!?.]", text)


def neighbours(words: list[str], i: int) -> list[str]:
    """The tokens right beside ``words[i]`` that are not punctuation."""
    return [
        w for w in words[max(0, i - 1) : i] + words[i + 1 : i + 2] if w[0].isalpha() or w[0] == "{"
    ]


def test_russian_sentences_are_found() -> None:
    assert len(russian_sentences()) > 150


def test_no_gendered_word_agrees_with_a_name_or_a_character() -> None:
    problems = []
    for english, text in russian_sentences():
        words = tokens(text)
        sentence_lemmas = lemmas(PLACEHOLDER.sub(" ", text))
        for i, word in enumerate(words):
            if not word[0].isalpha() or not gendered(word):
                continue
            low = word.lower()
            if low not in FORMS:
                problems.append(f"unchecked form «{word}»: {text}  ({english})")
                continue
            heads = FORMS[low]
            if heads is not None and not sentence_lemmas & set(heads):
                problems.append(f"«{word}» without {heads}: {text}")
            for other in neighbours(words, i):
                if other.startswith("{") and other.strip("{}") in (*PERSONS, *CHARACTERS):
                    problems.append(f"«{word}» next to {other}: {text}")
    assert not problems, "\n".join(problems)


def _filled(text: str, person: str, character: str) -> str:
    fields: dict[str, str] = {}
    tr = translator("ru")
    for name in PLACEHOLDER.findall(text):
        if name in PERSONS:
            fields[name] = person
        elif name == "characters":
            listed = [tr.pgettext("name in a list", "{name}", name=c) for c in (character, "Аббат")]
            fields[name] = tr.gettext(", ").join(listed)
        elif name in CHARACTERS:
            fields[name] = character
        else:
            fields[name] = "1"
    return text.format(**fields)


def test_every_russian_sentence_reads_for_every_character_and_name() -> None:
    """Rendered for each character of every edition and each kind of name, a sentence keeps
    every character in quotes and puts no gendered word beside a name."""
    characters = sorted({card_name(e, c, "ru") for e in EDITIONS.values() for c in e.characters})
    assert {"Ведьма", "Королева", "Аббат", "Вор"} <= set(characters)
    problems = []
    for _english, text in russian_sentences():
        for character in characters:
            for person in RU_NAMES:
                out = _filled(text, person, character)
                # Quoted or in brackets; or alone after the "·" of a heading ("Ваш ход · Вор"),
                # where it is in the nominative too.
                quoted = f"«{character}»|\\({character}\\)| · {character}$"
                if "{character}" in text and not re.search(quoted, out):
                    problems.append(f"{character} unquoted: {out}")
                words = tokens(out)
                first = person.split()[0]
                for i, word in enumerate(words):
                    if word == first:
                        beside = [w for w in neighbours(words, i) if w not in person]
                        if any(gendered(w) for w in beside):
                            problems.append(f"{person}: {out}")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_lists_of_characters_are_quoted_in_the_narration() -> None:
    event = {"kind": "threats", "characters": ["abbot", "tax_collector"], "flowered": "abbot"}
    text = render_event("2016", event, "ru")
    assert "персонажам: «Аббат» и «Сборщик налогов»" in text, text
    assert render_event("2016", event, "en").startswith(
        "The Blackmailer threatens the Abbot, Tax Collector"
    )


def test_a_list_joins_its_last_item_as_the_language_does() -> None:
    """English keeps ``A, B, C``; Persian writes «الف، ب و پ», Russian «А, Б и В»,
    Vietnamese «A, B và C»; Korean keeps the comma (a particle would need the noun)."""
    deal = {"kind": "deal", "seat": 0, "districts": ["temple", "market", "castle"]}
    assert render_event("classic", deal, "en").endswith(": Temple, Market, Castle.")
    fa = render_event("classic", deal, "fa").replace("\u2068", "").replace("\u2069", "")
    assert fa.count("، ") >= 1 and " و " in fa.split(":")[-1], fa
    assert " и " in render_event("classic", deal, "ru").split(":")[-1]
    assert " và " in render_event("classic", deal, "vi").split(":")[-1]
    two = {"kind": "threats", "characters": ["abbot", "tax_collector"], "flowered": "abbot"}
    assert "، " not in render_event("2016", two, "fa").split("؛")[0], "two names take no comma"


def test_persian_parts_a_seat_label_from_the_number_after_it() -> None:
    """«صندلی ۱ ۴ کارت …» reads as one number: a filled-in name ending in a digit is parted
    from a number right after it by «،»; a name ending in a letter is not."""
    deal = {"kind": "deal", "seat": 1, "districts": ["temple"], "count": 4, "gold": 2}
    plain = render_event("classic", deal, "fa").replace("\u2068", "").replace("\u2069", "")
    assert plain.startswith("صندلی ۱، ۴ "), plain
    named = render_event("classic", deal, "fa", names=["آنا", "سارا"])
    assert "سارا\u2069 ۴ " in named, named


# --- Korean --------------------------------------------------------------------------------

#: Every particle, resolved after a noun with a final consonant, without one, and after ㄹ.
AFTER = {
    "final": {"을(를)": "을", "이(가)": "이", "은(는)": "은", "와(과)": "과", "(으)로": "으로"},
    "vowel": {"을(를)": "를", "이(가)": "가", "은(는)": "는", "와(과)": "와", "(으)로": "로"},
    "ㄹ": {"을(를)": "을", "이(가)": "이", "은(는)": "은", "와(과)": "과", "(으)로": "로"},
}
#: How the digits 0–9 end when read (영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구).
DIGIT_ENDS = ("final", "ㄹ", "vowel", "final", "vowel", "vowel", "final", "ㄹ", "ㄹ", "vowel")
#: Names and how they end when read aloud.
KOREAN_NAMES = {
    "성": "final",
    "요새": "vowel",
    "시장": "final",
    "도시": "vowel",
    "지민": "final",
    "민수 (보통)": "vowel",
    "«성»": "final",
    "철수2": "vowel",
    "플레이어7": "ㄹ",
    "손님10": "final",  # 십
    "20": "final",  # 이십
    "100": "final",  # 백
    "1000": "final",  # 천
    "30000": "final",  # 삼만
    "0": "final",  # 영
    "관전자": "vowel",
}


@pytest.mark.parametrize("name", sorted(KOREAN_NAMES))
def test_korean_particles_after_every_kind_of_name(name: str) -> None:
    for particle, wanted in AFTER[KOREAN_NAMES[name]].items():
        assert korean_particles(name + particle) == name + wanted, (name, particle)


def test_korean_particles_after_every_seat_and_bot_name() -> None:
    """The names the game makes: seat labels (``3번 자리``), the server's bots (``봇 2
    (보통)``, every level) and the terminal's (``1번 자리 · 쉬움 봇``)."""
    tr = translator("ko")
    levels = [tr.gettext(level) for level in ("easy", "medium", "hard", "random")]
    for seat in range(9):
        label = seat_label(seat, None, "ko")
        assert korean_particles(label + "와(과)") == label + "와"  # 자리: a vowel
        for level in levels:
            bot = tr.gettext("Bot {seat} ({level})", seat=seat, level=level)
            for particle, wanted in AFTER[DIGIT_ENDS[seat]].items():
                assert korean_particles(bot + particle) == bot + wanted, (bot, particle)
            assert "(" not in korean_particles(bot + "이(가)")[len(bot) :]


def test_korean_particles_stay_two_way_after_latin_letters() -> None:
    assert korean_particles("Ann와(과)") == "Ann와(과)"
    assert korean_particles("봇 (Ann)을(를)") == "봇 (Ann)을"  # the word outside the brackets


def test_korean_narration_with_bot_names_has_no_two_way_particle_left() -> None:
    names = ["봇 0 (보통)", "봇 1 (어려움)", "지민", "철수2"]
    events = [
        {"kind": "theater", "seat": 0, "with": 1, "gave": "king", "got": "thief"},
        {"kind": "exchange_hands", "seat": 2, "with": 3, "gave": 2, "got": 3},
        {"kind": "exchange_hands", "seat": 3, "with": 0, "gave": 2, "got": 3},
    ]
    for event in events:
        text = render_event("classic", event, "ko", names=names)
        assert not re.search(r"\((?:을|를|이|가|은|는|와|과|으)\)", text), text
