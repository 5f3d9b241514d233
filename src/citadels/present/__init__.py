"""The presentation layer: every word a person reads, made from the engine's data.

Card texts, action wording and parsing, event rendering, seat and colour labels and the score
table, all through one translation function (``translator``). The terminal game, the web
client and any text observation use this layer; none of them parses English or re-describes a
card. English only for now; every function takes ``lang``.

Additions to the contract of PRESENT_API.md (compatible):

- ``CardInfo`` also has ``colour_id`` (the engine's ``"yellow"``…) and ``bonus`` (printed
  points on top of the cost); ``colour_label`` accepts both kinds (``"noble"``) and engine
  ids (``"yellow"``).
- ``score_lines(result, lang, names)`` returns ``ScoreLine`` rows (best first);
  ``score_headers(lang)`` gives the column titles, ``tiebreak_text`` the tie-break in words.
- ``parse_action``'s menu index is 1-based (``"1"`` is the first legal action).
- ``find_card(edition, text, lang)`` matches a card by id, name or unique prefix (used by
  ``citadels cards``); ``UnknownCard`` / ``UnknownEdition`` are ``CitadelsError``s.
- ``N_`` marks literals for extraction without translating them (gettext's noop).
- ``EVENT_KINDS`` (``citadels.engine.events``) lists every event kind the engine logs.
"""

from __future__ import annotations

from citadels.present.actions import ParseError, describe_action, parse_action
from citadels.present.cards import CardInfo, all_cards, card_info
from citadels.present.events import render_event, render_log
from citadels.present.i18n import N_, Translator, translator
from citadels.present.labels import (
    ColourLabel,
    UnknownCard,
    UnknownEdition,
    card_name,
    colour_label,
    seat_label,
)
from citadels.present.lookup import find_card
from citadels.present.scores import ScoreLine, score_headers, score_lines, tiebreak_text

__all__ = [
    "N_",
    "CardInfo",
    "ColourLabel",
    "ParseError",
    "ScoreLine",
    "Translator",
    "UnknownCard",
    "UnknownEdition",
    "all_cards",
    "card_info",
    "card_name",
    "colour_label",
    "describe_action",
    "find_card",
    "parse_action",
    "render_event",
    "render_log",
    "score_headers",
    "score_lines",
    "seat_label",
    "tiebreak_text",
    "translator",
]
