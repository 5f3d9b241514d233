"""Ratings: OpenSkill's Plackett–Luce model for free-for-all games (docs/accounts.md).

A rating is the model's ``(mu, sigma)``; it is shown as :func:`display` of ``mu`` (the prior,
mu 25, shows as 1500). Every player is a team of one; a game's ranks are the engine's
(``result.seats[].rank``, ties kept). The bot levels carry fixed ratings
(:data:`BOT_RATINGS`, measured by ``benchmarks/bot_ratings.py``): they count as opponents
and are never moved by a game, so they anchor the scale people are rated on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

#: The model's prior for a new account.
MU = 25.0
SIGMA = 25.0 / 3.0
#: Displayed points per unit of mu.
SCALE = 60.0

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

#: The bot levels' ratings (mu, sigma), from ``benchmarks/bot_ratings.py --games 160``
#: (docs/accounts.md, "The bots' ratings").
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (-1.50, 3.52),
    "easy": (17.95, 3.00),
    "medium": (36.80, 2.88),
    "hard": (48.75, 3.12),
}


def display(mu: float) -> int:
    """The rating shown for ``mu`` (1500 for the prior)."""
    return round(SCALE * mu)


def rate(players: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """The players' new ``(mu, sigma)`` after a game they finished with ``ranks`` (1 is
    first, equal ranks a tie), as the model computes them."""
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(t[0].mu), float(t[0].sigma)) for t in rated]


def fit(results: Sequence[Sequence[str]], passes: int = 1) -> dict[str, tuple[float, float]]:
    """Ratings of named players from games given as their names from first place to last:
    the model's updates over the games in order, ``passes`` times (sigma reset to the prior's
    between passes)."""
    ratings: dict[str, tuple[float, float]] = {}
    for name in (n for r in results for n in r):
        ratings.setdefault(name, (MU, SIGMA))
    for p in range(passes):
        if p:
            ratings = {n: (mu, SIGMA) for n, (mu, _s) in ratings.items()}
        for order in results:
            new = rate([ratings[n] for n in order], list(range(1, len(order) + 1)))
            for name, value in zip(order, new, strict=True):
                ratings[name] = value
    return ratings


#: Games against people a bot level needs before its measured rating is shown
#: (docs/accounts.md).
MEASURED_MIN = 30

#: One rated game with bots, as :func:`measure_bots` reads it: each seat's rank and either
#: its bot level (``None`` for an account) or the account's ``(mu, sigma)`` before the game.
BotGame = list[tuple[int, str | None, tuple[float, float] | None]]


def measure_bots(games: Sequence[BotGame]) -> dict[str, tuple[float, float, int]]:
    """Each bot level's rating measured against people: ``(mu, sigma, games)``.

    Every bot seat of a game counts as one game of its level against the accounts at that
    table: the bot and the accounts, in the order they finished (the other bots left out),
    the accounts at the ratings they had before the game and held there, and the level's
    estimate updated by the model, game after game in the order given, from the model's
    prior (not from the level's fixed rating, so that the measure is its own)."""
    measured: dict[str, tuple[float, float, int]] = {}
    for game in games:
        people = [(rank, rating) for rank, level, rating in game if level is None and rating]
        if not people:
            continue
        for rank, level, _rating in game:
            if level is None:
                continue
            mu, sigma, count = measured.get(level, (MU, SIGMA, 0))
            new = rate([(mu, sigma), *(r for _, r in people)], [rank, *(k for k, _ in people)])
            measured[level] = (new[0][0], new[0][1], count + 1)
    return measured


def bot_ratings_json() -> dict[str, int]:
    """The bot levels' displayed ratings (``GET /api/info``'s ``bot_ratings``)."""
    return {level: display(mu) for level, (mu, _s) in BOT_RATINGS.items()}


def ranks_of(result: dict[str, Any]) -> dict[int, int]:
    """Each seat's rank in a stored result."""
    return {int(s["seat"]): int(s["rank"]) for s in result.get("seats", [])}
