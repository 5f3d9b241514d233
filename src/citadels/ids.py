"""One rule for reading every id a user types: editions, presets, characters, districts, bots.

An id is matched whatever its case, and with dashes, spaces and underscores counting as the same
separator: ``Classic``, ``dark-city``, ``Dark City`` and ``TAX_COLLECTOR`` name ``classic``,
``dark_city``, ``dark_city`` and ``tax_collector``. An id that names nothing gets a "did you
mean" suggestion when one is close enough (:mod:`difflib`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from citadels.errors import InvalidSetup, describe

_SEPARATORS = re.compile(r"[\s_-]+")


def normalize_id(text: str) -> str:
    """The canonical spelling of a typed id: lower case, one ``_`` between words."""
    return _SEPARATORS.sub("_", text.strip().lower()).strip("_")


def match_id(text: object, known: Iterable[str]) -> str | None:
    """The id of ``known`` that ``text`` names under the loose rule, or ``None``."""
    if not isinstance(text, str):
        return None
    wanted = normalize_id(text)
    for candidate in known:
        if normalize_id(candidate) == wanted:
            return candidate
    return None


def suggest(text: object, known: Iterable[str]) -> str | None:
    """The known id closest to ``text`` (for "did you mean"), or ``None`` if none is close."""
    if not isinstance(text, str):
        return None
    by_form = {normalize_id(k): k for k in known}
    close = difflib.get_close_matches(normalize_id(text), list(by_form), n=1, cutoff=0.6)
    return by_form[close[0]] if close else None


def did_you_mean(text: object, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` when an id of ``known`` is close to ``text``, else ``""``."""
    close = suggest(text, known)
    return f" (did you mean {close!r}?)" if close is not None else ""


def resolve_id(text: object, known: Iterable[str], what: str, *, where: str = "") -> str:
    """The id of ``known`` that ``text`` names; ``InvalidSetup`` (a ``ValueError``) otherwise.

    The error reads ``unknown <what> 'x'<where> (did you mean 'y'?); known <what>s: …``.
    """
    ids = list(known)
    found = match_id(text, ids)
    if found is not None:
        return found
    raise InvalidSetup(
        f"unknown {what} {describe(text)}{where}{did_you_mean(text, ids)}; "
        f"known {what}s: {', '.join(ids) or 'none'}"
    ).because(
        f"unknown_{what}", given=describe(text), known=", ".join(ids), suggestion=suggest(text, ids)
    )
