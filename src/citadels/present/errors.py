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
    "rate_limited": N_("Too many requests at once; wait a moment and try again."),
    "too_many_connections": N_(
        "Too many connections from your address; close a tab and try again."
    ),
    "spectators_full": N_("This table has as many spectators as it can take; try again later."),
    "hints_off": N_("The host did not allow hints at this table."),
    "busy": N_("The server is busy with other reviews and hints; try again in a moment."),
    "table_busy": N_("This table is already waiting for a review or a hint; try again soon."),
}

#: What each cause (an error's ``reason``, set where it is raised) means, filled in from the
#: error's ``fields``: the setup and save-file errors of ``citadels play``, ``demo`` and
#: ``replay``. Free-form data (a path, a bad id, the system's reason) stays as it is.
REASON_TEXTS: dict[str, str] = {
    "unknown_edition": N_("There is no edition {given}; the editions are: {known}."),
    "unknown_preset": N_("There is no preset {given}; the presets are: {known}."),
    "unknown_bot": N_("There is no bot level {given}; the levels are: {known}."),
    "player_count": N_("Edition {edition} plays with {low} to {high} players, not {given}."),
    "unique_count": N_(
        "The {edition} deck takes exactly {count} unique districts (rule N-1), not {given}."
    ),
    "complete_at": N_("A city can be complete at {allowed} districts (rule {rule}), not {given}."),
    "unknown_characters": N_("Edition {edition} has no character {given} (see 'citadels cards')."),
    "two_of_rank": N_("Two characters of rank {rank}: {first} and {second} (one per rank, K-7)."),
    "missing_rank": N_("No character of rank {ranks} (rule K-7)."),
    "rank9_needed": N_("8 players need a character of rank 9 (rules K-7, N-1, C-5)."),
    "emperor_2": N_("The Emperor is not used with 2 players (rule N-2)."),
    "queen_5": N_("The Queen needs 5 or more players (rules K-7, R-28)."),
    "unknown_districts": N_(
        "Edition {edition} has no purple district {given}; choose among: {known}."
    ),
    "district_twice": N_("The districts name a purple district twice."),
    "seed": N_("The seed must be a 64-bit integer, not {given}."),
    "too_few_players": N_("A game needs at least 2 players, not {given}."),
    "hotseat_people": N_(
        "A hot-seat game needs at least 2 people: {players} players with {bots} bots "
        "leave {people}."
    ),
    "seat_range": N_("--seat must be from 0 to {last}, not {given}."),
    "bot_levels": N_(
        "--bots gives {given} levels; {players} players need one level for all bots or {bots} "
        "(one per bot)."
    ),
    "too_many_names": N_("{given} names given for {players} players."),
    "no_save": N_("There is no save file at {path}."),
    "save_is_directory": N_("{path} is a folder, not a save file."),
    "save_not_text": N_("{path} is not a save file (it is not text)."),
    "cannot_read": N_("Cannot read {path}: {cause}"),
    "cannot_write": N_("Cannot write {path}: {cause}"),
    "not_json": N_(
        "{path} is not a readable save file: not valid JSON ({cause}, line {line}, "
        "column {column})."
    ),
    "not_a_save": N_("{path} is not a Citadels save file."),
    "damaged": N_("{path} is damaged: {detail}"),
}
#: Sentences added after a cause's text when the error carries that field (not empty).
_EXTRAS: dict[str, str] = {
    "suggestion": N_("Did you mean {suggestion}?"),
    "rank9": N_("Add a character of rank 9: {rank9}."),
    "presets": N_("Or choose a preset that has one: {presets}."),
}
#: An error without a worded cause: its kind in words, the engine's detail (English) after it.
_WITH_DETAIL = N_("{error} ({detail})")


def error_with_detail(error: CitadelsError, lang: str = "en") -> str:
    """An error for a reader who may act on it (the command line, a failed save): worded
    from its cause when it has one, else its kind in ``lang`` followed by the engine's English
    detail. In English it is the engine's own message, which names every detail (e.g. the
    fixes of a bad setup)."""
    if lang == "en":
        return str(error)
    if error.reason in REASON_TEXTS or error.code in ("parse_error", "unknown_card"):
        return error_text(error, lang)
    tr = translator(lang)
    code = "corrupt_state" if error.code == "save_error" else error.code
    kind = error_text(code, lang, getattr(error, "rule", None))
    return tr.gettext(_WITH_DETAIL, error=kind, detail=str(error))


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
        worded = REASON_TEXTS.get(error.reason or "")
        if worded is not None:
            fields = {k: v for k, v in error.fields.items() if k not in _EXTRAS}
            text = tr.gettext(worded, **fields)
            for key, extra in _EXTRAS.items():
                value = error.fields.get(key)
                if value:
                    shown = repr(value) if key == "suggestion" else value
                    text += " " + tr.gettext(extra, **{key: shown})
            return text
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
