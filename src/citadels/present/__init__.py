"""The presentation layer: every word a person reads, made from the engine's data.

Card texts, action wording and parsing, event rendering, seat and colour labels and the score
table, all through one translation function (``translator``). The terminal game, the web
client and any text observation use this layer; none of them parses English or re-describes a
card. Every function takes ``lang`` (``en``, ``fa``, ``ru``, ``ko``, ``vi``; see
``docs/translations.md``).

Additions to the contract of PRESENT_API.md (all compatible):

- ``CardInfo`` also has ``colour_id`` (the engine's ``"yellow"``…) and ``bonus`` (printed
  points on top of the cost); ``colour_label`` accepts both kinds (``"noble"``) and engine
  ids (``"yellow"``); ``"purple"`` is the kind ``"unique"``.
- ``score_lines(result, lang="en", names=None)`` takes ``Game.result()`` or its JSON
  (``view["result"]``) and returns ``ScoreLine`` rows, best rank first: ``seat``, ``name``,
  ``score``, ``city``, ``colours``, ``first``, ``complete``, ``bonus`` (C-15 a–e), ``rank``,
  ``winner``, ``tiebreak`` (words, ``""`` without a tie) and ``gold``; ``score_headers(lang)``
  titles the columns in that order, ``tiebreak_text(code, lang)`` words one tie-break code.
- ``parse_action``'s menu index is 1-based (``"1"`` is the first legal action); it also takes
  each word's start (``"bui mar"``) and the engine's short text (``"build market"``);
  ``ParseError.candidates`` holds the legal actions an ambiguous text could mean.
- ``seat_label(None)`` is ``"Spectator"``.
- ``find_card(edition, text, lang)`` matches a card by id, name or unique prefix (used by
  ``citadels cards``); ``UnknownCard`` / ``UnknownEdition`` are ``CitadelsError``s.
- ``N_`` / ``NP_`` mark literals (and plural pairs) for extraction without translating them;
  ``babel.cfg`` and ``docs/present.md`` give the extraction command.
- ``citadels.engine.events.EVENT_KINDS`` lists every event kind the engine logs;
  ``events.RENDERED_KINDS`` the ones rendered here (a test keeps them equal).
"""

from __future__ import annotations

from citadels.present.actions import ParseError, describe_action, parse_action
from citadels.present.cards import CardInfo, all_cards, card_info
from citadels.present.errors import error_text
from citadels.present.events import render_event, render_log
from citadels.present.i18n import N_, NP_, Translator, translator
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
    "NP_",
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
    "error_text",
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
