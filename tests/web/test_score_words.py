"""One name for each score column: the browser's own words for the columns (used when a
message carries no titles) are the server's, in every language (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import citadels
from citadels.present import score_headers

WEB = Path(citadels.__file__).resolve().parent / "web"
#: The strings table's key for each of score_headers' titles (by position).
KEYS = {
    "player": 0,
    "total": 1,
    "score_districts": 2,
    "score_colours": 3,
    "score_first_complete": 4,
    "score_complete": 5,
    "score_bonus": 6,
    "rank": 7,
    "tiebreak": 9,
}


@pytest.mark.parametrize("lang", ["en", "fa", "ru", "ko", "vi"])
def test_score_columns_have_one_name(lang: str) -> None:
    table = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    titles = score_headers(lang)
    assert {key: table[key] for key in KEYS} == {key: titles[i] for key, i in KEYS.items()}
