"""Exceptions, one type per cause, each with a stable ``code``."""

from __future__ import annotations

from typing import Any, Self


class CitadelsError(Exception):
    """Base class of every error the engine raises on purpose.

    ``reason`` (when set) is a finer, stable code of the cause (``"player_count"``) and
    ``fields`` its data (ids, numbers, paths), so that an interface can word the error in its
    reader's language (``citadels.present.errors.error_text``); ``str(error)`` stays the
    English message for developers and logs.
    """

    code = "citadels_error"
    reason: str | None = None
    fields: dict[str, Any] = {}

    def because(self, reason: str, **fields: Any) -> Self:
        """This error with its cause's code and data set (``raise InvalidSetup(msg).because(
        "player_count", edition="classic", low=2, high=8, given=9)``)."""
        self.reason = reason
        self.fields = fields
        return self


class MalformedAction(CitadelsError, ValueError):
    """The action is not well formed: unknown type, missing or mistyped field."""

    code = "malformed_action"


class IllegalAction(CitadelsError):
    """The action is well formed but the rules do not allow it now.

    ``rule`` is the rule ID (RULES.md / CARDS.md) that forbids it, when one applies.
    """

    code = "illegal_action"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat is to move."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """An action was sent to a finished game."""

    code = "game_over"


class CorruptState(CitadelsError, ValueError):
    """A saved game or record cannot be loaded: it names what is wrong."""

    code = "corrupt_state"


class BotNotReady(CitadelsError, RuntimeError):
    """A bot was asked to play before it was equipped to play as strong as it was asked to
    (a search bot given neither its seat's sampler, see ``citadels.bots.attach_samplers``,
    nor its seat's whole view)."""

    code = "bot_not_ready"


class InvalidSetup(CitadelsError, ValueError):
    """``new_game`` (or ``resolve_setup``) was given an unknown edition, a bad player count,
    seed or option: the message names it and, where it helps, what is allowed."""

    code = "invalid_setup"


class InvalidArgument(CitadelsError, ValueError):
    """A query was given an argument of the wrong type or out of range (``view``'s seat or
    ``log_from``)."""

    code = "invalid_argument"


def describe(value: object) -> str:
    """A short, safe description of any value for an error message.

    Never fails and never grows: no deep recursion on nested data, no 5,000-digit numbers
    (``repr`` of those raises), long strings and containers cut short.
    """
    if value is None or type(value) is bool:
        return repr(value)
    if type(value) is int:
        if value.bit_length() > 64:
            return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return repr(value)
    if type(value) is float:
        return f"the float {value!r}"
    if type(value) is str:
        return repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        kind = type(value).__name__
        if not value:
            return f"an empty {kind}"
        if isinstance(value, dict) or any(isinstance(v, (list, tuple, dict)) for v in value):
            return f"a {kind} of {len(value)} item(s)"
        shown = ", ".join(describe(v) for v in list(value)[:4])
        more = ", ..." if len(value) > 4 else ""
        return f"the {kind} [{shown}{more}]"
    return f"a {type(value).__name__}"
