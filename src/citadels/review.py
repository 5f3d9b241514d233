"""Game review and hints: the search's estimate of each choice, from what the seat knew.

A review goes through one seat's game, decision by decision. At each decision it rebuilds the
seat's information set from the seat's view alone (``game.view(seat)`` with its whole log and
the game's setup options, :meth:`InformationSet.from_view
<citadels.engine.determinize.InformationSet.from_view>`): the real game's hidden parts (other
hands, the deck's order, the face-down characters) never reach the search. It then runs the
``hard`` bot's search (:data:`citadels.bots.base.HARD`: ISMCTS with a model of how the other
seats pick) at a fixed number of iterations, scoring the end of each rollout with the fitted
win chances (:func:`citadels.bots.evaluation.win_chances`), and reads the root's statistics:
each action's mean reward is its **estimated win chance**. That search only
*chooses*: its most visited action is the best one, and its :data:`TOP` most visited the ones
compared. The numbers come from a second, independent evaluation
(:meth:`ISMCTSBot.evaluate <citadels.bots.ismcts.ISMCTSBot.evaluate>`: a fresh tree, fresh
worlds, another generator, the same number of iterations for each compared action and for the
chosen one), so the best action's estimate is not the largest of many noisy ones (the winner's
curse) and a chosen action the search hardly visited is not judged by a less searched subtree.

The **loss** of a decision is the best action's estimate minus the chosen action's (never
below 0; 0 when the seat chose the best action), labelled by :func:`label`: in points
(:data:`THRESHOLDS`) or as a share of the chance the best action kept (:data:`SHARES`, from a
:data:`FLOOR` on). Every seat's estimate over the game (the *curve*) is the best action's
estimate at its first decision of each round (the reviewed seat's: at every decision), from
that seat's own view; the last point of a finished game is its true win share.

Everything is deterministic: the generator of each search is seeded from the review's seed,
the seat and the length of the seat's log, which are public, so the same record, seed and
budget give the same review, and so does any game the seat could not tell from it
(``tests/test_review.py``). These are a search's estimates, not the truth: see
``docs/review.md`` for what they mean and how good they are.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citadels.bots.base import HARD
from citadels.bots.ismcts import ISMCTSBot
from citadels.engine.actions import Action, action_from_json
from citadels.engine.determinize import InformationSet
from citadels.engine.game import Game, new_game

#: The format of :meth:`Review.to_json`.
REVIEW_FORMAT = "citadels.review/1"

#: The search iterations per decision by default (see docs/review.md for the cost).
DEFAULT_BUDGET = 1000

#: How many of the best actions a decision shows (the chosen one is shown too).
TOP = 3

#: The labels of a decision, from the smallest loss to the largest.
LABELS: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")

#: The smallest loss in estimated win chance (0 to 1) of each label but ``good``.
THRESHOLDS: dict[str, float] = {"inaccuracy": 0.03, "mistake": 0.07, "blunder": 0.15}

#: The smallest share of the best action's estimated chance lost of each label but ``good``
#: (a loss of 4 points from 10% is 40% of the chance there was; see :func:`label`).
SHARES: dict[str, float] = {"inaccuracy": 0.15, "mistake": 0.3, "blunder": 0.5}

#: No loss below this (in win chance, 0 to 1) is labelled by its share: well above the
#: search's own noise at the default budget, so a hopeless seat's play is not marked for
#: the noise of estimates near 0.
FLOOR = 0.01

#: The ``hard`` bot's search as the review runs it: no time limit (a reproducible budget) and
#: the fitted win chances at a rollout's end (a calibrated chance, not a standing).
SEARCH: dict[str, Any] = {
    **{k: v for k, v in HARD.items() if k not in ("iterations", "time_limit")},
    "evaluation": "fitted",
}

#: The iterations of the second, independent evaluation of each compared action, as a share
#: of the budget: every estimate a review shows rests on that many (200 at the default budget).
EVALUATION_SHARE = 0.2


def label(loss: float, best: float) -> str:
    """The label of a decision that lost ``loss`` of the estimated win chance where the best
    action kept ``best``: the worst label whose threshold the loss reaches in points
    (:data:`THRESHOLDS`) or, from :data:`FLOOR` on, as a share of ``best`` (:data:`SHARES`).
    Points alone would mark almost nothing in a game already lost (from 10%, no choice can
    lose 7 points), shares alone nothing when far ahead (from 90%, 7 points is 8%): each
    covers the other's blind side (docs/review.md)."""
    share = loss / best if best > 0 and loss >= FLOOR else 0.0
    found = "good"
    for name in LABELS[1:]:
        if loss >= THRESHOLDS[name] or share >= SHARES[name]:
            found = name
    return found


@dataclass(frozen=True, slots=True)
class Estimate:
    """One action's estimated win chance (0 to 1) and the iterations it rests on."""

    action: Action
    chance: float
    visits: int

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "chance": self.chance, "visits": self.visits}


@dataclass(frozen=True, slots=True)
class Analysis:
    """The search's verdict on one position: the compared actions, best estimate first."""

    seat: int
    round: int
    estimates: tuple[Estimate, ...]
    iterations: int

    @property
    def chance(self) -> float:
        """The position's estimated win chance: the best action's."""
        return self.estimates[0].chance

    def of(self, action: Action) -> Estimate | None:
        """The estimate of ``action``, if it was compared."""
        return next((e for e in self.estimates if e.action == action), None)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: what it chose, how that compares with the best."""

    move: int
    """The index of the action in the game's record."""
    round: int
    chosen: Estimate
    best: tuple[Estimate, ...]
    """The :data:`TOP` best compared actions, best first (the chosen one may be among them)."""
    loss: float
    label: str
    view: dict[str, Any] = field(repr=False, compare=False)
    """The seat's view at that moment (to word the actions)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "round": self.round,
            "chosen": self.chosen.to_json(),
            "best": [e.to_json() for e in self.best],
            "loss": self.loss,
            "label": self.label,
        }


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """A seat's estimated win chance at one moment, from its own view."""

    seat: int
    round: int
    move: int
    chance: float
    final: bool = False
    """Whether this is the finished game's true win share rather than an estimate."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "round": self.round,
            "move": self.move,
            "chance": self.chance,
            "final": self.final,
        }


@dataclass(slots=True)
class Review:
    """A seat's game reviewed (:func:`review_game`)."""

    edition: str
    players: int
    seat: int
    budget: int
    seed: int
    decisions: list[Decision]
    curve: list[CurvePoint]
    over: bool
    winners: list[int]

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        out = dict.fromkeys(LABELS, 0)
        for d in self.decisions:
            out[d.label] += 1
        return out

    def key_moments(self, count: int = 3) -> list[Decision]:
        """The ``count`` decisions that lost the most (at least an inaccuracy), in game order."""
        worst = sorted(
            (d for d in self.decisions if d.label != "good"), key=lambda d: (-d.loss, d.move)
        )[:count]
        return sorted(worst, key=lambda d: d.move)

    def mean_loss(self) -> float:
        """The mean loss per decision (0 without decisions)."""
        return sum(d.loss for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data (``citadels review --json``, docs/review.md)."""
        return {
            "format": REVIEW_FORMAT,
            "edition": self.edition,
            "players": self.players,
            "seat": self.seat,
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": dict(THRESHOLDS),
            "shares": dict(SHARES),
            "floor": FLOOR,
            "over": self.over,
            "winners": list(self.winners),
            "counts": self.counts(),
            "mean_loss": self.mean_loss(),
            "decisions": [d.to_json() for d in self.decisions],
            "key_moments": [d.move for d in self.key_moments()],
            "curve": [p.to_json() for p in self.curve],
        }


def _position_seed(seed: int, seat: int, view: Mapping[str, Any], part: str = "") -> int:
    """The search's seed at a position: from public facts only (the review's seed, the seat,
    how long its log is; ``part`` tells the evaluation's generator from the search's), so two
    games the seat cannot tell apart get the same search."""
    key = f"citadels.review/{seed}/{seat}/{len(view['log'])}{'/' + part if part else ''}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def check_budget(budget: object) -> int:
    """``budget`` if it is a positive number of iterations; ``ValueError`` otherwise."""
    if type(budget) is not int or budget < 1:
        raise ValueError(f"budget must be a positive number of iterations, not {budget!r}")
    return budget


def analyse(
    view: dict[str, Any],
    options: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    chosen: Action | None = None,
    top: int = TOP,
) -> Analysis:
    """The search's estimates at the position of ``view`` (a seat's whole view, to move), with
    the game's setup ``options``; ``legal`` are its legal actions. ``chosen`` (an action
    played there) is compared with the ``top`` most visited ones. Reads nothing but the view."""
    budget = check_budget(budget)
    seat = view["seat"]
    info = InformationSet.from_view(view, dict(options))
    if len(legal) < 2:  # no choice: nothing to compare (the search does not stop here)
        return Analysis(seat, view["round"], (Estimate(legal[0], float("nan"), 0),), 0)
    # 1. Which actions: the search chooses its best (the most visited) and ranks the others.
    bot = ISMCTSBot(None, iterations=budget, **SEARCH)
    bot.rng = random.Random(_position_seed(seed, seat, view))
    best = bot.search(info, legal, view=view)
    stats = bot.last_stats
    order = {a: i for i, a in enumerate(legal)}
    ranked = sorted(stats, key=lambda a: (-stats[a][0], -stats[a][1], order[a]))
    candidates = [best, *ranked[: top - 1]] if top > 1 else [best]
    if chosen is not None:
        candidates.append(chosen)
    candidates = list(dict.fromkeys(candidates))
    # 2. How good: a second, independent evaluation of those actions (a fresh tree, fresh
    # worlds, another generator, as many iterations for each), so that the best action's
    # estimate is not the maximum of the first search's noisy ones (the winner's curse) and
    # a little-visited chosen action is not judged by a less searched subtree.
    judge = ISMCTSBot(None, iterations=budget, **SEARCH)
    judge.rng = random.Random(_position_seed(seed, seat, view, "evaluation"))
    each = max(1, round(budget * EVALUATION_SHARE))
    values = judge.evaluate(info, candidates, each, view=view)
    compared = [Estimate(a, values[a][1], values[a][0]) for a in candidates]
    rest = sorted(compared[1:], key=lambda e: (-e.chance, -e.visits, order[e.action]))
    return Analysis(
        seat, view["round"], (compared[0], *rest), bot.last_iterations + judge.last_iterations
    )


def _legal_of(view: Mapping[str, Any]) -> list[Action]:
    legal = view.get("legal_actions")
    if not legal:
        raise ValueError("the view is not of the seat to move (it has no legal_actions)")
    return [action_from_json(a) for a in legal]


def hint(
    game_or_view: Game | dict[str, Any],
    seat: int | None = None,
    budget: int = DEFAULT_BUDGET,
    *,
    seed: int = 0,
    top: int = TOP,
    options: Mapping[str, Any] | None = None,
) -> list[Estimate]:
    """The ``top`` best actions for ``seat`` now, with their estimated win chances, best
    first: from a live game (only ``game.view(seat)`` is read) or from a seat's whole view
    (``game.view(seat)``; its setup ``options`` then, default none). ``ValueError`` if the
    seat is not the one to move or the view is not a whole one."""
    if isinstance(game_or_view, Game):
        game = game_or_view
        if seat is None or game.to_move != seat:
            raise ValueError(f"seat {seat!r} is not to move (seat {game.to_move!r} is)")
        view = game.view(seat)
        opts: Mapping[str, Any] = game.record()["options"]
    else:
        view = game_or_view
        if seat is not None and view.get("seat") != seat:
            raise ValueError(f"the view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")
        opts = options if options is not None else view.get("options", {})
    legal = _legal_of(view)
    return list(analyse(view, opts, legal, budget=budget, seed=seed, top=top).estimates[:top])


@dataclass(slots=True)
class _Position:
    move: int
    seat: int
    round: int
    view: dict[str, Any]
    legal: list[Action]
    chosen: Action
    reviewed: bool
    on_curve: bool


def _positions(game: Game, seat: int, others: bool = True) -> tuple[list[_Position], Game]:
    """The positions to analyse, replayed from the record: every decision of ``seat`` with a
    choice, and (``others``) each other seat's first decision with a choice of every round
    (the curve)."""
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"], **record["options"])
    seen: set[tuple[int, int]] = set()
    out: list[_Position] = []
    for i, action in enumerate(game.actions):
        mover = g.to_move
        assert mover is not None
        legal = g.legal_actions()
        if len(legal) > 1:
            first = (mover, g.round) not in seen
            seen.add((mover, g.round))
            if mover == seat or (first and others):
                view = g.view(mover)
                mine = mover == seat
                out.append(_Position(i, mover, g.round, view, legal, action, mine, first or mine))
        g.apply(action, mover)
    return out, g


def review_game(
    game: Game,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    top: int = TOP,
    on_progress: Callable[[int, int], None] | None = None,
    others: bool = True,
) -> Review:
    """Review ``seat``'s decisions in ``game`` (finished or not) at ``budget`` iterations per
    position; ``on_progress(done, total)`` is called after each position analysed; without
    ``others`` the other seats' curves are left out (their positions are not analysed, the
    decisions are the same: each position's search is seeded on its own). Each
    estimate is made from the view of the seat that moved, and from nothing else."""
    budget = check_budget(budget)
    if type(seat) is not int or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be an integer from 0 to {game.num_players - 1}, not {seat!r}")
    options = game.record()["options"]
    positions, final = _positions(game, seat, others)
    decisions: list[Decision] = []
    curve: list[CurvePoint] = []
    for done, p in enumerate(positions, 1):
        a = analyse(
            p.view,
            options,
            p.legal,
            budget=budget,
            seed=seed,
            chosen=p.chosen if p.reviewed else None,
            top=top if p.reviewed else 1,  # a curve point needs the best action's alone
        )
        if p.on_curve:
            curve.append(CurvePoint(p.seat, p.round, p.move, a.chance))
        if p.reviewed:
            mine = a.of(p.chosen)
            assert mine is not None
            loss = max(0.0, a.chance - mine.chance)
            marked = label(loss, a.chance)
            decisions.append(
                Decision(p.move, p.round, mine, a.estimates[:top], loss, marked, p.view)
            )
        if on_progress is not None:
            on_progress(done, len(positions))
    winners: list[int] = []
    if final.is_over:
        winners = list(final.result().winners)
        share = 1.0 / len(winners)
        moves = len(game.actions)
        for s in range(game.num_players):
            chance = share if s in winners else 0.0
            curve.append(CurvePoint(s, final.round, moves, chance, True))
    return Review(
        edition=game.edition.id,
        players=game.num_players,
        seat=seat,
        budget=budget,
        seed=seed,
        decisions=decisions,
        curve=curve,
        over=final.is_over,
        winners=winners,
    )


def positions_to_review(game: Game, seat: int) -> int:
    """How many positions :func:`review_game` analyses for ``seat`` (its progress total)."""
    return len(_positions(game, seat)[0])


def review_from_json(data: Mapping[str, Any], game: Game) -> Review:
    """A review read back from :meth:`Review.to_json` (a stored one), with each decision's
    view rebuilt by replaying ``game``'s record (the game the review was made of), so that
    :mod:`citadels.present.review` can word it again in any language."""
    if data.get("format") != REVIEW_FORMAT:
        raise ValueError(f"not a review (format {data.get('format')!r})")
    seat = int(data["seat"])
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"], **record["options"])
    moves = {int(d["move"]) for d in data["decisions"]}
    views: dict[int, dict[str, Any]] = {}
    for i, action in enumerate(game.actions):
        if i in moves:
            views[i] = g.view(seat)
        g.apply(action, g.to_move)

    def estimate(e: Mapping[str, Any]) -> Estimate:
        return Estimate(action_from_json(e["action"]), float(e["chance"]), int(e["visits"]))

    decisions = [
        Decision(
            int(d["move"]),
            int(d["round"]),
            estimate(d["chosen"]),
            tuple(estimate(e) for e in d["best"]),
            float(d["loss"]),
            str(d["label"]),
            views[int(d["move"])],
        )
        for d in data["decisions"]
    ]
    curve = [
        CurvePoint(int(p["seat"]), int(p["round"]), int(p["move"]), float(p["chance"]),
                   bool(p["final"]))
        for p in data["curve"]
    ]  # fmt: skip
    return Review(
        edition=str(data["edition"]),
        players=int(data["players"]),
        seat=seat,
        budget=int(data["budget"]),
        seed=int(data["seed"]),
        decisions=decisions,
        curve=curve,
        over=bool(data["over"]),
        winners=[int(w) for w in data["winners"]],
    )
