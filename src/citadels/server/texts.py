"""Every word the server sends a person, in one place.

The server renders texts through the presentation layer (``citadels.present``) when it is
installed; until then it falls back on the engine's own short texts. Swapping the source of
the texts is a change to this module only.
"""

from __future__ import annotations

import importlib
from typing import Any

from citadels.editions import get_edition
from citadels.engine.actions import Action

_present: Any
try:  # pragma: no cover - which branch runs depends on the presentation layer's presence
    _present = importlib.import_module("citadels.present")
except ImportError:  # pragma: no cover
    _present = None


def edition_title(edition: str, lang: str = "en") -> str:
    """The edition's title for players."""
    return get_edition(edition).title


def describe_action(
    action: Action, view: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> str:
    """The words for a legal action, as a button shows them."""
    if _present is not None:
        return str(_present.describe_action(action, view, lang=lang, names=names))
    text = action.text()
    return text[:1].upper() + text[1:]


def render_event(
    edition: str, event: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> str:
    """One log entry (as the viewer's view holds it) in words."""
    if _present is not None:
        return str(_present.render_event(edition, event, lang=lang, names=names))
    text = event.get("text")
    return str(text) if text is not None else str(event.get("kind", ""))


def score_rows(
    edition: str, result: dict[str, Any], lang: str = "en", names: list[str] | None = None
) -> list[dict[str, Any]]:
    """The score table: one row per seat in rank order, with its breakdown and a line of text."""
    lines: list[str] | None = None
    if _present is not None and hasattr(_present, "score_lines"):
        try:
            raw = _present.score_lines(edition, result, lang=lang, names=names)
            lines = [str(x) for x in raw]
        except TypeError:
            lines = None
    rows = []
    seats = sorted(result["seats"], key=lambda r: (r["rank"], r["seat"]))
    for i, r in enumerate(seats):
        name = names[r["seat"]] if names else f"Seat {r['seat']}"
        if lines is not None and i < len(lines):
            text = lines[i]
        else:
            b = r["breakdown"]
            parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in b.items() if v)
            tie = f"; tie-break: {r['tiebreak']}" if r.get("tiebreak") else ""
            text = f"{r['rank']}. {name}: {r['score']} points ({parts or 'nothing'}){tie}"
        rows.append(
            {
                "seat": r["seat"],
                "name": name,
                "rank": r["rank"],
                "score": r["score"],
                "breakdown": r["breakdown"],
                "tiebreak": r.get("tiebreak"),
                "text": text,
            }
        )
    return rows


def bot_name(seat: int, level: str, lang: str = "en") -> str:
    """The name shown for a bot's seat."""
    return f"Bot {seat} ({level})"


def seat_name(seat: int, lang: str = "en") -> str:
    """The name of an empty or unnamed seat."""
    return f"Seat {seat}"
