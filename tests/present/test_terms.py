"""Issue 26: one word per thing in each language, in the catalogs and the browser strings alike.

The terms table of ``docs/translations.md`` is the source: a second spelling it names (after
«≠») fails anywhere in that language, and where its English column gives a pattern, every text
whose English matches must use the language's word. Card names are checked the same way: a
catalog entry whose English names a card uses that card's name (Russian compared by lemma, so
«Воровского притона» is the Thieves' Den «Воровской притон»)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import citadels
from citadels.present import translator
from citadels.present.i18n import catalog_path
from citadels.present.names import CHARACTER_NAMES, DISTRICT_NAMES

ROOT = Path(__file__).resolve().parents[2]
WEB = Path(citadels.__file__).resolve().parent / "web" / "i18n"
LANGS = ("fa", "ru", "ko", "vi")
COLUMNS = ("term", "en", *LANGS)


def _cell_patterns(cell: str) -> list[re.Pattern[str]]:
    """The words of a cell, each a compiled pattern (plain text, or a `regex`)."""
    out = []
    for part in re.split(r"\s*(?:,|/|;)\s*(?=`|[^`]*(?:$|,|/|;))", cell.strip()):
        part = part.strip()
        if not part or part == "—":
            continue
        if part.startswith("`") and part.endswith("`"):
            out.append(re.compile(part[1:-1].replace("\\|", "|")))
        else:
            out.append(re.compile(re.escape(part)))
    return out


def _split_cell(cell: str) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """A language's cell: its words and, after «≠», the spellings that must not occur."""
    chosen, _, rejected = cell.partition("≠")
    words = [p for p in _cell_patterns(chosen) if not p.pattern.startswith(("classic", "and"))]
    return words, _cell_patterns(rejected)


@lru_cache(maxsize=1)
def terms() -> list[dict[str, Any]]:
    """The rows of the terms table, parsed."""
    text = (ROOT / "docs" / "translations.md").read_text(encoding="utf-8")
    table = text.split("<!-- terms table: parsed by tests/present/test_terms.py -->", 1)[1]
    rows = []
    for line in table.strip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        assert len(cells) == len(COLUMNS), line
        row: dict[str, Any] = {"term": cells[0]}
        en = cells[1]
        row["en"] = re.compile(en[1:-1].replace("\\|", "|")) if en.startswith("`") else None
        for lang, cell in zip(LANGS, cells[2:], strict=True):
            row[lang] = _split_cell(cell)
        rows.append(row)
    return rows


@lru_cache(maxsize=8)
def texts(lang: str) -> list[tuple[str, str, str]]:
    """Every (where, English, translation) of a language: each catalog entry (each plural
    form) and each browser string."""
    out = []
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[1]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        where = f"po:{message.context + '|' if message.context else ''}{english[:60]}"
        out.extend((where, english, s) for s in strings)
    en = json.loads((WEB / "en.json").read_text(encoding="utf-8"))
    ours = json.loads((WEB / f"{lang}.json").read_text(encoding="utf-8"))
    for key, entry in ours.items():
        english = en[key] if isinstance(en[key], str) else en[key]["other"]
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            out.append((f"web:{key}", english, text))
    return out


def _visible(text: str) -> str:
    """A text without its codes: option names, quoted commands, calls such as
    ``Game.view(seat)`` and "the districts option"; a placeholder stands as ``0``."""
    text = re.sub(r"--[\w-]+|'[^']*'|`[^`]*`|\b[A-Za-z_][A-Za-z0-9_.]*\([^()]*\)", " ", text)
    text = re.sub(r"\b\w+ option\b|(?:گزینهٔ|параметр|tùy chọn) \w+|\w+ 옵션", " ", text)
    return re.sub(r"\{[^{}]*\}", "0", text)


def test_the_terms_table_is_read() -> None:
    names = [row["term"] for row in terms()]
    for term in ("seat", "bot", "edition", "tie-break", "gather", "income", "finishing place"):
        assert term in names
    assert all(
        row[lang][0] or row["term"].startswith("pronoun") for row in terms() for lang in LANGS
    )


@pytest.mark.parametrize("lang", LANGS)
def test_no_second_spelling_of_a_term(lang: str) -> None:
    problems = []
    for row in terms():
        _, rejected = row[lang]
        for where, _english, text in texts(lang):
            for pattern in rejected:
                if pattern.search(_visible(text)):
                    problems.append(f"{row['term']}: {pattern.pattern!r} in {where}: {text}")
    assert not problems, "\n".join(problems)


def _uses(text: str, words: list[re.Pattern[str]]) -> bool:
    visible = _visible(text).replace("\u200c", "")
    return any(w.search(visible) or w.search(visible.lower()) for w in words)


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_uses_the_languages_word_for_a_term(lang: str) -> None:
    problems = []
    for row in terms():
        words, _ = row[lang]
        pattern = row["en"]
        if pattern is None or not words:
            continue
        words = [re.compile(w.pattern.replace("\u200c", "")) for w in words]
        for where, english, text in texts(lang):
            if pattern.search(_visible(english)) and not _uses(text, words):
                problems.append(f"{row['term']}: {where}: {text}")
    assert not problems, "\n".join(problems)


# English uses of a card's name that are not the card (the verb "Spy on").
NOT_THE_CARD = {("spy", "Spy on {seat} for {colour} districts")}


def _card_mentions() -> Iterator[tuple[str, str, str | None, str, list[str]]]:
    """(card id, its English name, context, the English text, its translations) of every
    catalog entry whose English names a card (other than the name's own entry)."""
    names = {**CHARACTER_NAMES, **DISTRICT_NAMES}
    for lang in LANGS:
        with catalog_path(lang).open("rb") as f:
            catalog = read_po(f, locale=lang)
        for message in catalog:
            if not message.id:
                continue
            english = message.id if isinstance(message.id, str) else message.id[0]
            strings = (
                list(message.string) if isinstance(message.string, tuple) else [message.string]
            )
            for card, name in names.items():
                if english == name or (card, english) in NOT_THE_CARD:
                    continue
                if card == "keep":  # the verb at the start of a sentence is not the card
                    found = re.search(r"(?<=\w )\bKeep\b|\(Keep\)|the Keep\b", english)
                else:
                    found = re.search(r"\b" + re.escape(name) + r"\b", english)
                if found:
                    yield lang, card, message.context, english, strings


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


def _lemmas(text: str) -> list[str]:
    return [_morph().parse(w)[0].normal_form for w in re.findall(r"[А-Яа-яЁё]+", text)]


def test_every_card_is_called_by_its_name_wherever_a_text_names_it() -> None:
    names = {**CHARACTER_NAMES, **DISTRICT_NAMES}
    problems = []
    checked = 0
    for lang, card, context, english, strings in _card_mentions():
        tr = translator(lang)
        name = tr.pgettext(context, names[card]) if context else tr.gettext(names[card])
        for text in strings:
            checked += 1
            if lang == "ru":
                want, have = _lemmas(name), _lemmas(text)
                ok = any(have[i : i + len(want)] == want for i in range(len(have)))
            elif lang == "vi":
                ok = name.lower() in text.lower()
            else:
                ok = name.replace("\u200c", "") in text.replace("\u200c", "")
            if not ok:
                problems.append(f"{lang} {card} «{name}»: {english} -> {text}")
    assert checked > 400, checked
    assert not problems, "\n".join(problems)
