"""Every word the server sends a person, in one place, made by ``citadels.present``.

The server never builds English itself: labels of actions, sentences of events, the score
table, the names of bots and empty seats all come through the presentation layer's translation
function, in the language each connection asked for.
"""

from __future__ import annotations

import functools
from dataclasses import asdict
from typing import Any

from citadels import present
from citadels.editions import get_edition
from citadels.engine.actions import Action
from citadels.present import N_, score_headers, score_lines, translator
from citadels.present.i18n import Translator

#: The languages the interfaces speak (issue 11), by code, each with its own name and the
#: direction its script is written in. A connection may ask for any of them.
LANGUAGES: dict[str, dict[str, str]] = {
    "en": {"name": "English", "dir": "ltr"},
    "fa": {"name": "فارسی", "dir": "rtl"},
    "ru": {"name": "Русский", "dir": "ltr"},
    "ko": {"name": "한국어", "dir": "ltr"},
    "vi": {"name": "Tiếng Việt", "dir": "ltr"},
}


def language(tag: object) -> str | None:
    """The supported language a tag such as ``"fa"``, ``"fa-IR"`` or ``"ru_RU"`` asks for, or
    ``None`` when it names none of :data:`LANGUAGES`."""
    if not isinstance(tag, str) or not 1 <= len(tag) <= 35:
        return None
    base = tag.replace("_", "-").split("-", 1)[0].lower()
    return base if base in LANGUAGES else None


# Marked for extraction; translated where they are used.
_BOT_NAME = N_("Bot {seat} ({level})")
_SEAT_NAME = N_("Seat {seat}")
_SCORE_ROW = N_("{rank}. {name}: {score} points")
_PRESET_TITLE = N_("{name}: {what}")


def error_text(code: str, rule: str | None = None, lang: str = "en") -> str:
    """An error code (and the rule behind it) in words for a person, in ``lang``."""
    return present.error_text(code, lang, rule)


def edition_title(edition: str, lang: str = "en") -> str:
    """The edition's title for players."""
    return translator(lang).gettext(get_edition(edition).title)


def describe_action(
    action: Action, view: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> str:
    """The words for a legal action, as a button shows them."""
    return present.describe_action(action, view, lang=lang, names=names)


def render_event(
    edition: str, event: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> str:
    """One log entry (as the viewer's view holds it) in words."""
    return present.render_event(edition, event, lang=lang, names=names)


def score_rows(
    edition: str, result: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> list[dict[str, Any]]:
    """The score table, best rank first: every ``present.ScoreLine`` field, the engine's
    ``breakdown``, and a one-line ``text``."""
    tr = translator(lang)
    by_seat = {r["seat"]: r for r in result["seats"]}
    rows = []
    for line in score_lines(result, lang, names):
        row = asdict(line)
        row["breakdown"] = by_seat[line.seat]["breakdown"]
        row["text"] = tr.gettext(_SCORE_ROW, rank=line.rank, name=line.name, score=line.score)
        rows.append(row)
    return rows


def score_columns(lang: str = "en") -> list[str]:
    """Titles of the score table's columns (``name`` … ``gold`` of a score row)."""
    return list(score_headers(lang))


def bot_name(seat: int, level: str, lang: str = "en") -> str:
    """The name shown for a bot's seat (kept once made for its translator, as every update
    names every seat)."""
    return _bot_name(seat, level, translator(lang))


@functools.lru_cache(maxsize=4096)
def _bot_name(seat: int, level: str, tr: Translator) -> str:
    return tr.gettext(_BOT_NAME, seat=seat, level=tr.gettext(level))


def seat_name(seat: int, lang: str = "en") -> str:
    """The name of an empty or unnamed seat (kept once made, as ``bot_name``)."""
    return _seat_name(seat, translator(lang))


@functools.lru_cache(maxsize=4096)
def _seat_name(seat: int, tr: Translator) -> str:
    return tr.gettext(_SEAT_NAME, seat=seat)


def card_catalog(edition: str, lang: str = "en") -> dict[str, Any]:
    """Every card of an edition as the client shows it (public data, the same for every
    viewer): ``present.card_info`` fields plus the colour's symbol and word, and the colour
    labels by colour."""
    cards = []
    colours: dict[str, dict[str, str]] = {}
    for info in present.all_cards(edition, lang=lang):
        card = asdict(info)
        if info.colour:
            label = present.colour_label(info.colour, lang=lang, edition=edition)
            colours[info.colour] = {
                "symbol": label.symbol,
                "word": label.word,
                "letter": label.letter,
            }
            card["colour_symbol"] = label.symbol
            card["colour_word"] = label.word
        cards.append(card)
    return {"edition": get_edition(edition).id, "lang": lang, "cards": cards, "colours": colours}


def preset_titles(edition: str, lang: str = "en") -> dict[str, str]:
    """The titles of an edition's presets, by id: the preset's name (a proper name, from its
    id) and what it changes, e.g. ``Dark City: Wizard and Navigator; …``."""
    tr = translator(lang)
    return {
        p.id: tr.gettext(
            _PRESET_TITLE,
            name=tr.gettext(p.id.replace("_", " ").title()),
            what=tr.gettext(p.title),
        )
        for p in get_edition(edition).presets.values()
    }
