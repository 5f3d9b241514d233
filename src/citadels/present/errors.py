"""Errors in words: the engine raises codes and rule IDs (``citadels.errors``), and this module
says them in the reader's language.

The engine's own message (``str(error)``) is English for developers and logs; a person reads
``error_text(error, lang)``, made from the error's ``code`` and, for an illegal action, the rule
that forbids it (``rule``, an ID of RULES.md such as ``C-7``) with that rule's topic.
"""

from __future__ import annotations

from citadels.errors import CitadelsError
from citadels.present.i18n import N_, translator

#: What each error code means to a player.
ERROR_TEXTS: dict[str, str] = {
    "illegal_action": N_("That move is not allowed now."),
    "not_your_turn": N_("It is not your turn."),
    "game_over": N_("The game is over."),
    "malformed_action": N_("That is not a move of this game."),
    "malformed": N_("The message was not understood."),
    "stale_version": N_("The table changed meanwhile; look again and choose."),
    "invalid_setup": N_("This game cannot be set up that way."),
    "corrupt_state": N_("The saved game cannot be read."),
    "unknown_card": N_("There is no such card."),
    "unknown_edition": N_("There is no such edition."),
}

#: The topic of each core rule an illegal action may name (RULES.md, C-1 … C-27).
RULE_TOPICS: dict[str, str] = {
    "C-1": N_("setup"),
    "C-2": N_("the order of a round"),
    "C-3": N_("characters removed at the start of a round"),
    "C-4": N_("choosing characters"),
    "C-5": N_("the last chooser's face-down pick"),
    "C-6": N_("calling the characters"),
    "C-7": N_("gathering comes first in a turn: 2 gold or cards"),
    "C-8": N_("building after gathering"),
    "C-9": N_("a character's power, once per turn"),
    "C-10": N_("hidden and open information"),
    "C-11": N_("destroyed and discarded districts"),
    "C-12": N_("a murdered character loses the turn"),
    "C-13": N_("the end of a round"),
    "C-14": N_("the end of the game"),
    "C-15": N_("scoring"),
    "C-20": N_("the Assassin"),
    "C-21": N_("the Thief"),
    "C-22": N_("the Magician"),
    "C-23": N_("the King"),
    "C-24": N_("the Bishop"),
    "C-25": N_("the Merchant"),
    "C-26": N_("the Architect"),
    "C-27": N_("the Warlord"),
}

_WITH_TOPIC = N_("{error} Rule {rule}: {topic}.")
_WITH_RULE = N_("{error} (rule {rule})")


def error_text(error: CitadelsError | str, lang: str = "en", rule: str | None = None) -> str:
    """An error (or its code) in words for a player in ``lang``, naming the rule behind it
    when there is one: ``That move is not allowed now. Rule C-7: gathering comes first…``.

    A ``ParseError`` or ``UnknownCard`` already speaks the player's language (it is made by
    this layer): its own message is returned. An unknown code is said as a generic error."""
    tr = translator(lang)
    if isinstance(error, CitadelsError):
        if error.code in ("parse_error", "unknown_card", "save_error"):
            return str(error)
        code = error.code
        rule = rule or getattr(error, "rule", None)
    else:
        code = error
    msgid = ERROR_TEXTS.get(code)
    text = tr.gettext(msgid) if msgid else tr.gettext("Something went wrong ({code}).", code=code)
    if not rule:
        return text
    topic = RULE_TOPICS.get(rule)
    if topic is not None:
        return tr.gettext(_WITH_TOPIC, error=text, rule=rule, topic=tr.gettext(topic))
    return tr.gettext(_WITH_RULE, error=text, rule=rule)
