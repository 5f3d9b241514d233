"""Exceptions, one type per cause, each with a stable ``code``."""

from __future__ import annotations


class CitadelsError(Exception):
    """Base class of every error the engine raises on purpose."""

    code = "citadels_error"


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
    (a search bot without its seat's sampler, see ``citadels.bots.attach_samplers``)."""

    code = "bot_not_ready"
