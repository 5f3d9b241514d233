"""How likely each seat is to win from a position: the search's evaluation at a rollout's end.

A search that stops its rollouts at a round's end must say what the position is worth to each
seat. :func:`win_chances` answers with a conditional logit fitted to the outcomes of played
games: every seat gets a linear score ``w · features(s, seat)`` and the chances are the
soft-max of those scores over the seats, so they are in [0, 1] and sum to 1 like a win share.

The features (:data:`FEATURES`) are what the table shows: the seat's score now (R-20), its
city's size and how many districts it still misses (C-14), its gold and cards, the crown,
and the same quantities scaled by the game's progress (the largest city over the districts that
complete one), because a lead in gold matters early and a lead in districts late. The weights
(:data:`WEIGHTS`, one vector per edition) were fitted by ``tools/fit_evaluation.py`` on
positions at the start of each round of games played by the heuristic bot (the rollout player
of ``hard``), labelled with who won in the end; the script prints how much better they
predict the winner than the hand-set :func:`citadels.bots.ismcts.standing` soft-max.
"""

from __future__ import annotations

import math

from citadels.engine import scoring
from citadels.engine.state import OVER, GameState

#: The names of the features, in the order of :func:`features` and of each weight vector.
FEATURES: tuple[str, ...] = (
    "score",
    "districts",
    "missing_one",
    "missing_two",
    "gold",
    "cards",
    "cards_over_four",
    "crown",
    "score_late",
    "districts_late",
    "gold_late",
    "cards_late",
)

#: Fitted weights per edition id (``tools/fit_evaluation.py``); :data:`DEFAULT_WEIGHTS` for an
#: edition without its own.
# fmt: off
WEIGHTS: dict[str, tuple[float, ...]] = {
    "basic": (
        -0.1167, 0.4664, 0.6545, 0.2394, -0.0038, -0.0663,
        -0.0485, -0.0416, 0.2899, 0.3012, 0.2634, 0.2088,
    ),
    "dezh": (
        -0.0549, 0.4630, 0.6236, 0.2349, 0.0167, -0.0673,
        0.0080, 0.0102, 0.2484, 0.3378, 0.2700, 0.2468,
    ),
    "classic": (
        -0.0285, 0.3117, 0.4920, 0.1749, 0.0541, -0.0054,
        0.0626, 0.0096, 0.2299, 0.3420, 0.0909, 0.1671,
    ),
    "2016": (
        -0.0095, 0.5814, 0.5085, 0.1938, 0.0938, 0.0610,
        0.0745, -0.0429, 0.2440, 0.0523, 0.0820, 0.1149,
    ),
}
# fmt: on

#: The weights of an edition not in :data:`WEIGHTS`: those of ``classic`` (zeros, equal chances,
#: before any fit).
DEFAULT_WEIGHTS: tuple[float, ...] = WEIGHTS.get("classic", (0.0,) * len(FEATURES))


def progress(s: GameState) -> float:
    """How near the game is to its end: the largest city over the districts that complete one."""
    target = s.complete_at
    return max(s.city_size(p.seat) for p in s.players) / target if target else 1.0


def features(s: GameState, seat: int, late: float | None = None) -> tuple[float, ...]:
    """The features of ``seat`` in ``s`` (see :data:`FEATURES`); ``late`` is
    :func:`progress` of ``s`` when the caller has it already."""
    p = s.players[seat]
    size = s.city_size(seat)
    if late is None:
        late = progress(s)
    missing = s.complete_at - size
    score = float(scoring.breakdown(s, seat).total)
    gold = float(p.gold)
    cards = float(len(p.hand))
    few = min(cards, 4.0)
    return (
        score,
        float(size),
        1.0 if missing <= 1 else 0.0,
        1.0 if missing <= 2 else 0.0,
        gold,
        few,
        cards - few,
        1.0 if s.crown == seat else 0.0,
        score * late,
        size * late,
        gold * late,
        few * late,
    )


def weights_for(edition: str) -> tuple[float, ...]:
    """The fitted weights of ``edition`` (an edition id), or :data:`DEFAULT_WEIGHTS`."""
    return WEIGHTS.get(edition, DEFAULT_WEIGHTS)


def win_shares(s: GameState) -> list[float]:
    """Each seat's share of the win of the finished game ``s`` (a win shared by k seats
    counts 1/k)."""
    winners = scoring.score(s).winners
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(s.players))]


def soft_max(values: list[float], temperature: float = 1.0) -> list[float]:
    """``exp(value / temperature)`` of each value, normalised to sum to 1."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def win_chances(s: GameState) -> list[float]:
    """Each seat's chance to win from ``s``: its win share if the game is over, otherwise
    the fitted conditional logit's soft-max over the seats (in [0, 1], summing to 1)."""
    if s.phase == OVER:
        return win_shares(s)
    w = weights_for(s.edition.id)
    late = progress(s)
    return soft_max(
        [
            sum(a * b for a, b in zip(w, features(s, seat, late), strict=True))
            for seat in range(len(s.players))
        ]
    )
