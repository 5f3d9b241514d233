"""The bot protocol, the factory of bots by name, and how a runner equips search bots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from citadels.engine.actions import Action
from citadels.engine.determinize import SeatSampler
from citadels.engine.game import Game


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
    "hard": "ISMCTS with 500 iterations per decision",
}


def make_bot(kind: str, *, seed: int | None = None, **params: Any) -> Bot:
    """A bot of ``kind`` (see :data:`BOT_KINDS`); ``params`` go to its constructor (e.g.
    ``iterations=200`` for ``ismcts``). Unknown kinds raise ``ValueError`` naming the known
    ones."""
    from citadels.bots.heuristic import HeuristicBot
    from citadels.bots.ismcts import ISMCTSBot
    from citadels.bots.random_bot import RandomBot

    if kind == "random":
        return RandomBot(seed, **params)
    if kind in ("heuristic", "medium"):
        return HeuristicBot(seed, **params)
    if kind == "easy":
        return HeuristicBot(seed, **{"randomness": 0.5, **params})
    if kind == "ismcts":
        return ISMCTSBot(seed, **params)
    if kind == "hard":
        return ISMCTSBot(seed, **{"iterations": 500, **params})
    known = ", ".join(BOT_KINDS)
    raise ValueError(f"unknown bot kind {kind!r}; known kinds: {known}")
