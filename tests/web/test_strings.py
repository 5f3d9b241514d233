"""The client's interface strings in every language (issue 11), checked without a browser: every
key of the English table is translated in fa, ru, ko and vi, none is empty, placeholders match
the English, plural entries have exactly the forms the language counts with, and the Persian,
Russian and Korean tables hold no Latin word. (The browser test checks the same plural forms
against Chromium's own Intl.PluralRules.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import citadels
from citadels.server import texts

WEB = Path(citadels.__file__).resolve().parent / "web"
LANGS = ["en", "fa", "ru", "ko", "vi"]
#: The CLDR cardinal plural categories of each language, as browsers' Intl.PluralRules use them.
PLURALS = {
    "en": {"one", "other"},
    "fa": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "ko": {"other"},
    "vi": {"other"},
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def table(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def forms(entry: Any) -> list[str]:
    """The texts of an entry: itself, or each of its plural forms."""
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def test_the_client_the_server_and_the_files_know_the_same_languages() -> None:
    assert set(texts.LANGUAGES) == set(LANGS)
    assert sorted(p.stem for p in (WEB / "i18n").glob("*.json")) == sorted(LANGS)
    js = (WEB / "js" / "strings.js").read_text(encoding="utf-8")
    block = js.split("export const LANGUAGES = {", 1)[1].split("};", 1)[0]
    in_js = dict(re.findall(r"(\w+): \{ name: \"([^\"]+)\", dir: \"(?:ltr|rtl)\"", block))
    assert in_js == {code: info["name"] for code, info in texts.LANGUAGES.items()}
    assert re.search(r'fa: \{ name: "[^"]+", dir: "rtl" \}', block)


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_key_is_translated_with_the_english_placeholders(lang: str) -> None:
    en, other = table("en"), table(lang)
    assert sorted(other) == sorted(en), set(en) ^ set(other)
    for key, entry in other.items():
        assert isinstance(entry, type(en[key])), key
        wanted = set(PLACEHOLDER.findall(forms(en[key])[-1]))
        for text in forms(entry):
            assert isinstance(text, str) and text.strip(), f"{lang}:{key} is empty"
            assert set(PLACEHOLDER.findall(text)) == wanted, f"{lang}:{key}: {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_entries_have_the_forms_the_language_counts_with(lang: str) -> None:
    entries = {k: v for k, v in table(lang).items() if isinstance(v, dict)}
    assert entries, "the tables count things (seats, cards, districts)"
    for key, entry in entries.items():
        assert set(entry) == PLURALS[lang], f"{lang}:{key} has {sorted(entry)}"
        for text in entry.values():
            assert "{n}" in text, f"{lang}:{key}: the count is {{n}}"


@pytest.mark.parametrize("lang", ["fa", "ru", "ko"])
def test_no_english_word_is_left_in_a_translation(lang: str) -> None:
    """Persian, Russian and Korean are written in other scripts: a Latin word in their table is
    English left behind (placeholders aside)."""
    left = {}
    for key, entry in table(lang).items():
        for text in forms(entry):
            latin = re.findall(r"[A-Za-z]{2,}", PLACEHOLDER.sub("", text))
            if latin:
                left[key] = latin
    assert not left, left


def test_persian_words_keep_their_zero_width_non_joiner() -> None:
    """Persian strings keep the zero-width non-joiner inside words (e.g. «حرکت‌ها»), never the
    escape sequence itself."""
    raw = (WEB / "i18n" / "fa.json").read_text(encoding="utf-8")
    assert "\\u200c" not in raw and "\u200c" in raw
