"""Strength ladder of the bots: one bot against three others, 4-player `classic`.

Every game is fixed by its index alone: game ``i`` is ``new_game("classic", 4, seed=BASE + i)``,
the bot under test sits at seat ``i % 4`` (seats rotate), and every bot's seed is derived from
``(i, seat)``. So a run is reproducible and does not depend on the number of worker processes.
A win shared by k seats counts 1/k. Intervals are 95% Wilson score intervals.

Run from the repository with the package installed::

    python benchmarks/strength.py heuristic-vs-random --games 400
    python benchmarks/strength.py ismcts-vs-heuristic --games 300 --iterations 200
    python benchmarks/strength.py ladder --games 100 --budgets 50 200 1000
    python benchmarks/strength.py speed --decisions 40 --iterations 1000
    python benchmarks/strength.py all           # the figures of docs/bots.md

``--workers N`` plays games in N processes (default: 2); ``--json PATH`` also writes the
figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from citadels import new_game
from citadels.bots import Bot, HeuristicBot, ISMCTSBot, attach_samplers, make_bot
from citadels.engine.determinize import InformationSet
from citadels.sim import play_game

EDITION = "classic"
PLAYERS = 4
BASE_SEED = 20_240_000


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Matchup:
    """One bot (``focus``) against ``PLAYERS - 1`` copies of ``field``."""

    name: str
    focus: str
    focus_params: dict[str, Any]
    field: str
    field_params: dict[str, Any]


@dataclass
class Result:
    """The figures of one matchup."""

    name: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    seconds: float
    focus_decisions: int = 0
    focus_iterations: int = 0
    focus_think_seconds: float = 0.0

    def line(self) -> str:
        text = (
            f"{self.name:<34} games {self.games:>4}  win rate {self.win_rate:6.1%}  "
            f"95% CI [{self.low:5.1%}, {self.high:5.1%}]  ({self.seconds:.0f} s)"
        )
        if self.focus_iterations:
            rate = self.focus_iterations / self.focus_think_seconds
            text += f"  {rate:,.0f} it/s"
        return text


class _Timed:
    """Wraps the bot under test to count its decisions and thinking time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0

    def attach(self, sampler: Any) -> None:
        attach = getattr(self.bot, "attach", None)
        if attach is not None:
            attach(sampler)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any]) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(view, legal_actions)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        self.iterations += getattr(self.bot, "last_iterations", 0)
        return action


def _seed(index: int, seat: int) -> int:
    return (BASE_SEED + index) * 16 + seat


def play_one(args: tuple[Matchup, int]) -> tuple[float, int, int, float]:
    """Game ``index`` of a matchup: (focus win share, decisions, iterations, think time)."""
    m, index = args
    game = new_game(EDITION, PLAYERS, seed=BASE_SEED + index)
    focus_seat = index % PLAYERS
    bots: list[Any] = [
        make_bot(m.field, seed=_seed(index, seat), **m.field_params) for seat in range(PLAYERS)
    ]
    timed = _Timed(make_bot(m.focus, seed=_seed(index, focus_seat), **m.focus_params))
    bots[focus_seat] = timed
    attach_samplers(game, bots)
    play_game(game, bots)
    winners = game.result().winners
    share = 1 / len(winners) if focus_seat in winners else 0.0
    return share, timed.decisions, timed.iterations, timed.seconds


def run(m: Matchup, games: int, workers: int, first: int = 0) -> Result:
    """Play ``games`` games of a matchup (indices ``first..``) and sum them up."""
    start = time.perf_counter()
    jobs = [(m, i) for i in range(first, first + games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = list(pool.map(play_one, jobs, chunksize=1))
    else:
        outcomes = [play_one(job) for job in jobs]
    wins = sum(o[0] for o in outcomes)
    low, high = wilson(wins, games)
    return Result(
        name=m.name,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        low=low,
        high=high,
        seconds=time.perf_counter() - start,
        focus_decisions=sum(o[1] for o in outcomes),
        focus_iterations=sum(o[2] for o in outcomes),
        focus_think_seconds=sum(o[3] for o in outcomes),
    )


def speed(decisions: int, iterations: int, seed: int = 1) -> dict[str, float]:
    """ISMCTS iterations per second of thinking, at ``decisions`` positions of heuristic
    games (4-player classic, one core), decisions with a single legal action skipped."""
    rng = random.Random(seed)
    spots: list[tuple[Any, int]] = []
    index = 0
    while len(spots) < decisions:
        game = new_game(EDITION, PLAYERS, seed=seed * 1000 + index)
        bots = [HeuristicBot(seat) for seat in range(PLAYERS)]
        while not game.is_over and len(spots) < decisions:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            if len(legal) > 1 and rng.random() < 0.1:
                spots.append((game.copy(), seat))
            game.apply(bots[seat].choose(game.view(seat), legal))
        index += 1
    bot = ISMCTSBot(seed, iterations=iterations)
    total_iterations = 0
    start = time.perf_counter()
    for game, seat in spots:
        bot.search(InformationSet(game, seat), game.legal_actions())
        total_iterations += bot.last_iterations
    seconds = time.perf_counter() - start
    return {
        "decisions": len(spots),
        "iterations": total_iterations,
        "seconds": seconds,
        "iterations_per_second": total_iterations / seconds,
        "seconds_per_decision": seconds / len(spots),
    }


def _matchups(args: argparse.Namespace) -> list[tuple[Matchup, int]]:
    what = args.what
    out: list[tuple[Matchup, int]] = []
    if what in ("heuristic-vs-random", "all"):
        out.append((Matchup("heuristic vs 3 random", "heuristic", {}, "random", {}), args.games))
    if what in ("ismcts-vs-heuristic", "all"):
        it = args.iterations
        name = f"ismcts({it}) vs 3 heuristic"
        out.append((Matchup(name, "ismcts", {"iterations": it}, "heuristic", {}), args.games))
    if what in ("ladder", "all"):
        games = args.ladder_games or args.games
        for budget in args.budgets:
            name = f"ismcts({budget}) vs 3 heuristic"
            if any(m.name == name for m, _ in out):
                continue
            out.append((Matchup(name, "ismcts", {"iterations": budget}, "heuristic", {}), games))
    if what in ("random-vs-heuristic", "all"):
        out.append((Matchup("random vs 3 heuristic", "random", {}, "heuristic", {}), args.games))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "what",
        choices=[
            "heuristic-vs-random",
            "ismcts-vs-heuristic",
            "ladder",
            "random-vs-heuristic",
            "speed",
            "all",
        ],
    )
    parser.add_argument("--games", type=int, default=100, help="games per matchup")
    parser.add_argument("--ladder-games", type=int, default=0, help="games per ladder budget")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS budget")
    parser.add_argument("--budgets", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--decisions", type=int, default=40, help="positions for `speed`")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)

    report: dict[str, Any] = {"edition": EDITION, "players": PLAYERS, "matchups": []}
    say: Callable[[str], None] = lambda text: print(text, flush=True)  # noqa: E731
    if args.what in ("speed", "all"):
        figures = speed(args.decisions, 1000 if args.what == "all" else args.iterations)
        report["speed"] = figures
        say(
            f"ISMCTS speed: {figures['iterations_per_second']:,.0f} iterations/s "
            f"({figures['decisions']} decisions, {figures['seconds_per_decision']:.2f} s each)"
        )
    for matchup, games in _matchups(args):
        result = run(matchup, games, args.workers)
        report["matchups"].append(asdict(result))
        say(result.line())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
