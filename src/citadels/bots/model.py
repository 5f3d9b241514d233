"""Opponent modelling for the search: which worlds of an information set are likely.

The exact sampler (:class:`~citadels.engine.determinize.InformationSet`) deals every world
consistent with a seat's view with the same probability. Real players are not uniform: a
seat that was offered the Merchant with a city full of green districts and took the Bishop
instead probably did not see the Merchant at all. :class:`DraftModel` scores a sampled world
by how likely the other seats' picks of this round are under a model of their choice: each
seat picks a character from what it was offered with probability proportional to
``exp(value / temperature)``, where ``value`` is what the heuristic bot thinks holding the
character is worth to that seat (:meth:`citadels.bots.heuristic.HeuristicBot.character_value`,
computed from the public table the seat sees: its city's colours, the gold and hands at the
table, the crown). The sampled world's log carries, for each other seat's pick, the character
it took and the characters it was offered (the sampler rewrites those events consistently),
so the likelihood of a world is a product over those picks.

Players who search do not pick like the heuristic bot: a search player offered the Merchant or
the Architect takes it most of the time, whatever the heuristic thinks of it. A *pick model*
(:data:`PICK_MODELS`) adds a bias per character to the values: ``"heuristic"`` adds none,
``"search"`` adds the biases fitted by ``tools/fit_pick_model.py`` to the picks of search
players (``ismcts`` at 200 iterations in 4-player ``classic``), with its fitted temperature
:data:`SEARCH_TEMPERATURE`. The biases go by character id, so the eight base characters
carry them into every edition; a character the fit did not see gets none.

:class:`WeightedWorlds` turns that into a sampler for the search: it draws a pool of worlds
from the information set, weighs each by the model, and hands out copies of pool worlds in
proportion to their weight, with the cards, markers and generator dealt again each time
(only the characters' placement is kept from the pool). Every world it hands out is one the
exact sampler could deal, so it stays consistent with the view; only the odds change.

Only the public table *now* is used: during the turns, the cities and purses the seats had
when they picked have partly changed (a build of this round counts already). The model reads
nothing the seat may not know: the values come from the seat's own view, the picks from the
sampled world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from citadels.bots.heuristic import HeuristicBot, _Table
from citadels.engine.determinize import InformationSet
from citadels.engine.state import GameState

#: Per pick model, the bias (in log-odds) added to each character's scaled value: ``"heuristic"``
#: none; ``"search"`` fitted by ``tools/fit_pick_model.py`` (conditional logit, 4-player
#: ``classic``, the picks of three ``ismcts(200)`` seats in 120 games against ``hard``).
# fmt: off
PICK_MODELS: dict[str, dict[str, float]] = {
    "heuristic": {},
    "search": {
        "assassin": -1.034, "thief": -0.462, "magician": -1.245, "king": -1.576,
        "bishop": -0.14, "merchant": 2.141, "architect": 2.309, "warlord": 0.007,
    },
}
# fmt: on

#: The temperature fitted together with the ``"search"`` biases (value points).
SEARCH_TEMPERATURE = 0.711


class DraftModel:
    """How likely the other seats' character picks of this round are, for one seat's view.

    ``temperature`` (in the heuristic's value points) sets how strongly a seat is assumed to
    take what is worth most to it: near 0, always the best; large, uniform (no modelling).
    ``picks`` names the pick model (:data:`PICK_MODELS`), whose bias for a character is added
    to its value over the temperature.
    """

    def __init__(
        self, view: dict[str, Any], temperature: float = 1.0, picks: str = "heuristic"
    ) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be a positive number, not {temperature!r}")
        if picks not in PICK_MODELS:
            known = ", ".join(PICK_MODELS)
            raise ValueError(f"unknown pick model {picks!r}; known pick models: {known}")
        bias = PICK_MODELS[picks]
        self.seat: int = view["seat"]
        self.temperature = temperature
        table = _Table(view)
        judge = HeuristicBot(0)
        characters: Sequence[str] = view["characters_in_play"]
        self.values: list[dict[str, float]] = [
            {
                c: judge.character_value(table, c, p["seat"]) / temperature + bias.get(c, 0.0)
                for c in characters
            }
            for p in view["players"]
        ]
        """For each seat, each character's value to it over the temperature, plus its bias."""

    def log_likelihood(self, s: GameState) -> float:
        """The log-probability of the other seats' picks of this round in world ``s`` (a
        sample of the seat's information set), up to a constant shared by every world."""
        log = s.log
        total = 0.0
        for i in range(len(log) - 1, -1, -1):
            ev = log[i]
            kind = ev.kind
            if kind == "round":
                break
            if kind != "pick" or ev.seat is None or ev.seat == self.seat or ev.secret is None:
                continue
            values = self.values[ev.seat]
            offered = ev.secret.get("offered", ())
            chosen = ev.secret.get("character")
            if chosen not in values or len(offered) < 2:
                continue
            top = max(values.get(c, 0.0) for c in offered)
            norm = sum(math.exp(values.get(c, 0.0) - top) for c in offered)
            total += values[chosen] - top - math.log(norm)
        return total


class WeightedWorlds:
    """Worlds of an information set, drawn in proportion to a :class:`DraftModel`.

    ``pool`` worlds are dealt from ``info`` with ``rng`` and weighed once; each
    :meth:`sample` picks one of them by weight and deals its cards, markers and generator
    again (the characters' placement stays). With no other seat's hidden pick to weigh (every
    world equally likely), it is the exact sampler.
    """

    def __init__(
        self,
        info: InformationSet,
        model: DraftModel,
        rng: random.Random,
        pool: int = 64,
    ) -> None:
        self.info = info
        worlds = [info.sample(rng).state for _ in range(pool)]
        logs = [model.log_likelihood(w) for w in worlds]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        self.uniform = min(logs) == top
        self.worlds = worlds
        self.cumulative: list[float] = []
        acc = 0.0
        for w in weights:
            acc += w
            self.cumulative.append(acc)
        self.effective = acc * acc / sum(w * w for w in weights)
        """The pool's effective sample size (``pool`` when the weights are equal)."""

    def sample(self, rng: random.Random) -> GameState:
        """A world drawn by weight, its cards and markers dealt again."""
        if self.uniform:
            return self.info.sample(rng).state
        r = rng.random() * self.cumulative[-1]
        lo, hi = 0, len(self.cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cumulative[mid] > r:
                hi = mid
            else:
                lo = mid + 1
        return self.info.redeal(self.worlds[lo], rng)
