"""The bot protocol, the factory of bots by name, and how a runner equips search bots."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from citadels.engine.actions import Action
from citadels.engine.determinize import SeatSampler
from citadels.engine.game import Game
from citadels.ids import did_you_mean, match_id, resolve_id


@runtime_checkable
class Bot(Protocol):
    """A player: given its seat's view and the legal actions, it returns one of them."""

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Pick one of ``legal_actions``, knowing only ``view``."""
        ...


@runtime_checkable
class SamplerUser(Protocol):
    """A bot that searches: it needs full games consistent with its view, and takes them from
    the :class:`~citadels.engine.determinize.SeatSampler` of its seat."""

    def attach(self, sampler: SeatSampler) -> None:
        """Take the sampler of the bot's seat."""
        ...


def attach_samplers(game: Game, bots: Sequence[object]) -> None:
    """Give every bot of ``game`` that searches (has ``attach``) the sampler of its seat.

    Call it once per game, before the first decision: a sampler follows the live game."""
    for seat, bot in enumerate(bots):
        if isinstance(bot, SamplerUser):
            bot.attach(SeatSampler(game, seat))


#: The kinds :func:`make_bot` knows, with what each one is.
BOT_KINDS: dict[str, str] = {
    "random": "uniform among the legal actions",
    "heuristic": "rule-based player",
    "ismcts": "information-set Monte Carlo tree search",
    "easy": "heuristic that plays a random legal action half of the time",
    "medium": "the heuristic bot",
    "hard": "ISMCTS with a model of how the other seats pick, 500 iterations or 0.9 s",
    "learned": "a policy trained by reinforcement learning (classic, 4 players; needs numpy)",
}


#: What ``make_bot("hard")`` is: the search with a model of the other seats throughout, fitted
#: to how search players pick (the ``"search"`` pick model at its fitted temperature,
#: :mod:`citadels.bots.model`): it weighs the sampled worlds by their past picks (the draft
#: model), and plays their moves inside the tree and in the rollouts by the heuristic bot from
#: their own view with every pick drawn from the model (``opponents="model"``,
#: ``rollout="modelled"``), so the tree holds only the bot's own moves and no seat in it
#: chooses knowing the bot's character. A budget of 500 iterations or 0.9 s of wall time per
#: decision, whichever comes first (about 0.07 s of one core's time for 500 iterations, so the
#: time limit is a guard that binds only on a loaded machine; pass ``time_limit=None`` for a
#: fully reproducible bot). Measured in docs/bots.md.
HARD: dict[str, Any] = {
    "iterations": 500,
    "time_limit": 0.9,
    "rollout": "modelled",
    "opponents": "model",
    "draft_model": 0.711,  # citadels.bots.model.SEARCH_TEMPERATURE, the fitted one
    "pick_model": "search",
}


@functools.cache
def _bot_classes() -> dict[str, tuple[type, dict[str, Any]]]:
    """Per kind: the class it builds and the parameters it sets itself (made once: a server
    makes a bot per decision). Callers must not change it."""
    from citadels.bots.heuristic import HeuristicBot
    from citadels.bots.ismcts import ISMCTSBot
    from citadels.bots.learned import LearnedBot
    from citadels.bots.random_bot import RandomBot

    return {
        "random": (RandomBot, {}),
        "heuristic": (HeuristicBot, {}),
        "medium": (HeuristicBot, {}),
        "easy": (HeuristicBot, {"randomness": 0.5, "reads_draft": False}),
        "ismcts": (ISMCTSBot, {}),
        "hard": (ISMCTSBot, HARD),
        "learned": (LearnedBot, {}),
    }


def bot_kind(name: object) -> str:
    """The kind of :data:`BOT_KINDS` that ``name`` names, matched loosely like every id
    (``ISMCTS`` is ``ismcts``, see :mod:`citadels.ids`); ``ValueError`` with a suggestion
    otherwise."""
    if isinstance(name, str):
        kind = _KINDS_NAMED.get(name)
        if kind is not None:
            return kind
    kind = resolve_id(name, BOT_KINDS, "bot")
    if isinstance(name, str) and len(_KINDS_NAMED) < 1000:
        _KINDS_NAMED[name] = kind
    return kind


#: :func:`bot_kind`'s answers by the name given (a server makes a bot per decision).
_KINDS_NAMED: dict[str, str] = {}


def bot_parameters(kind: str) -> dict[str, Any]:
    """The parameters a bot of ``kind`` takes (besides ``seed``), with their types."""
    cls, _ = _bot_classes()[bot_kind(kind)]
    init = vars(cls)["__init__"]
    hints = typing.get_type_hints(init)
    return {
        name: hints.get(name, Any)
        for name, param in inspect.signature(init).parameters.items()
        if param.kind is inspect.Parameter.KEYWORD_ONLY
    }


def _fits(value: object, hint: Any) -> bool:
    """Whether ``value`` is of the type ``hint`` (``int``, ``float``, ``str``, ``X | None``);
    an integer is a number, a bool is not."""
    if hint is Any:
        return True
    allowed = typing.get_args(hint) if typing.get_origin(hint) is not None else (hint,)
    if value is None:
        return type(None) in allowed
    if isinstance(value, bool):
        return bool in allowed
    if isinstance(value, int):
        return int in allowed or float in allowed
    if isinstance(value, float):
        return float in allowed
    return any(isinstance(value, t) for t in allowed if isinstance(t, type))


def _type_name(hint: Any) -> str:
    allowed = typing.get_args(hint) if typing.get_origin(hint) is not None else (hint,)
    names = {int: "an integer", float: "a number", str: "a word", bool: "true or false"}
    return " or ".join(
        names.get(t, getattr(t, "__name__", str(t))) for t in allowed if t is not type(None)
    )


def check_bot_parameters(kind: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with their names in canonical spelling (matched loosely, ``Time-Limit`` is
    ``time_limit``); ``ValueError`` naming the problem and the parameters ``kind`` takes if a
    name is not one the bot takes or a value is of the wrong type."""
    kind = bot_kind(kind)
    takes = bot_parameters(kind)
    listing = ", ".join(takes) if takes else "none"
    out: dict[str, Any] = {}
    for typed, value in params.items():
        name = match_id(typed, takes)
        if name is None:
            raise ValueError(
                f"bot {kind!r} has no parameter {typed!r}{did_you_mean(typed, takes)}; "
                f"its parameters: {listing}"
            )
        if not _fits(value, takes[name]):
            raise ValueError(
                f"bot {kind!r}: {name} takes {_type_name(takes[name])}, not {value!r}; "
                f"its parameters: {listing}"
            )
        out[name] = value
    return out


def make_bot(kind: str, *, seed: int | None = None, **params: Any) -> Bot:
    """A bot of ``kind`` (see :data:`BOT_KINDS`, matched loosely); ``params`` go to its
    constructor (e.g. ``iterations=200`` for ``ismcts``). An unknown kind, a parameter the bot
    does not take or a value of the wrong type raises ``ValueError`` naming the known kinds or
    the bot's parameters."""
    kind = bot_kind(kind)
    cls, preset = _bot_classes()[kind]
    # No parameters: nothing to check (reading the constructor's hints costs more than a
    # decision of the simpler bots, and servers make a bot per decision).
    checked = check_bot_parameters(kind, params) if params else {}
    bot: Bot = cls(seed, **{**preset, **checked})
    return bot
