"""Timing of the engine through its public API: random playouts, ``copy()``, one decision.

Shared by ``citadels bench`` and ``benchmarks/bench.py``. Numbers are for one core: the
playouts run in this process, one game after another, timed by the process's CPU time
(``time.process_time``), so other work on the machine disturbs them little.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
import timeit
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from citadels.compiled import engine_name
from citadels.engine import COMPILED
from citadels.engine.actions import Action
from citadels.engine.game import Game, new_game
from citadels.present.i18n import N_, translator

#: The engines ``BenchReport.engine`` names (``citadels.compiled.engine_name``), marked for
#: translation.
ENGINE_NAMES = (N_("compiled (mypyc)"), N_("pure Python"))

#: Target throughput of random classic playouts on one core.
GOAL_CLASSIC_GAMES_PER_SECOND = 500.0
#: Target cost of ``Game.copy()`` on a mid-game position.
GOAL_COPY_MICROSECONDS = 20.0

EDITIONS: tuple[str, ...] = ("basic", "dezh", "classic", "2016")


@dataclass(frozen=True, slots=True)
class EditionTiming:
    """The figures measured for one edition and player count."""

    edition: str
    players: int
    games: int
    decisions: int
    seconds: float
    games_per_second: float
    decisions_per_second: float
    decision_us: float
    """``legal_actions()`` + ``apply()`` per decision, replaying recorded games (µs)."""
    copy_us: float
    """``Game.copy()`` on a mid-game position, median of several runs (µs)."""
    view_us: float
    """``Game.view(seat)`` of the seat to move on the same position, whole log (µs)."""
    tail_view_us: float
    """``Game.view(seat, log_from=game.log_size)`` on the same position: no log (µs)."""


@dataclass(frozen=True, slots=True)
class BenchReport:
    """A whole benchmark run: one :class:`EditionTiming` per edition, and the goals."""

    timings: tuple[EditionTiming, ...]
    python: str
    machine: str
    engine: str = ""
    """Which engine ran: ``compiled (mypyc)`` or ``pure Python`` (``citadels.compiled``)."""

    def timing(self, edition: str) -> EditionTiming | None:
        """The figures of ``edition``, if it was measured."""
        return next((t for t in self.timings if t.edition == edition), None)

    def goals(self) -> dict[str, dict[str, Any]]:
        """Each goal with its target, the measured value and whether it is met."""
        out: dict[str, dict[str, Any]] = {}
        classic = self.timing("classic")
        if classic is not None:
            out["classic_games_per_second"] = {
                "target": f">= {GOAL_CLASSIC_GAMES_PER_SECOND:g}",
                "measured": classic.games_per_second,
                "met": classic.games_per_second >= GOAL_CLASSIC_GAMES_PER_SECOND,
            }
        if self.timings:
            worst = max(t.copy_us for t in self.timings)
            out["copy_us"] = {
                "target": f"< {GOAL_COPY_MICROSECONDS:g}",
                "measured": worst,
                "met": worst < GOAL_COPY_MICROSECONDS,
            }
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "python": self.python,
            "machine": self.machine,
            "engine": self.engine,
            "compiled": COMPILED,
            "editions": [asdict(t) for t in self.timings],
            "goals": self.goals(),
        }


def random_playout(game: Game, rng: random.Random) -> int:
    """Play ``game`` to its end choosing uniformly among the legal actions; returns the
    number of decisions."""
    decisions = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        decisions += 1
    return decisions


def playouts(
    edition: str, players: int, max_games: int, max_seconds: float, seed: int = 0
) -> tuple[int, int, float, list[tuple[int, list[Action]]]]:
    """Random playouts until ``max_games`` games or ``max_seconds`` (at least one game).

    Returns games, decisions, elapsed seconds and, for up to 50 games, the seed and actions
    (for :func:`time_decisions`).
    """
    rng = random.Random(seed)
    games = decisions = 0
    kept: list[tuple[int, list[Action]]] = []
    start = time.process_time()
    elapsed = 0.0
    while games < max(1, max_games) and (games == 0 or elapsed < max_seconds):
        game_seed = rng.getrandbits(63)
        game = new_game(edition, players, seed=game_seed)
        decisions += random_playout(game, rng)
        games += 1
        if len(kept) < 50:
            kept.append((game_seed, game.actions))
        elapsed = time.process_time() - start
    return games, decisions, elapsed, kept


def time_decisions(edition: str, players: int, games: Sequence[tuple[int, list[Action]]]) -> float:
    """µs per decision of ``legal_actions()`` + ``apply()``, replaying the given games."""
    total = 0.0
    count = 0
    for game_seed, actions in games:
        game = new_game(edition, players, seed=game_seed)
        start = time.process_time()
        for action in actions:
            game.legal_actions()
            game.apply(action)
        total += time.process_time() - start
        count += len(actions)
    return total / count * 1e6 if count else 0.0


def mid_game(edition: str, players: int, seed: int = 1) -> Game:
    """A position halfway through a seeded random game."""
    length = random_playout(new_game(edition, players, seed=seed), random.Random(seed))
    game = new_game(edition, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(length // 2):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def median_us(func: Any, number: int, repeat: int = 7) -> float:
    """Median over ``repeat`` runs of the cost of one call of ``func`` (µs)."""
    runs = timeit.repeat(func, time.process_time, number=number, repeat=repeat)
    return statistics.median(runs) / number * 1e6


def bench_edition(
    edition: str, players: int = 4, max_games: int = 1000, max_seconds: float = 2.0
) -> EditionTiming:
    """Measure one edition: playouts, one decision, ``copy()`` and ``view()``."""
    games, decisions, seconds, kept = playouts(edition, players, max_games, max_seconds)
    position = mid_game(edition, players)
    seat = position.to_move
    return EditionTiming(
        edition=edition,
        players=players,
        games=games,
        decisions=decisions,
        seconds=seconds,
        games_per_second=games / seconds,
        decisions_per_second=decisions / seconds,
        decision_us=time_decisions(edition, players, kept),
        copy_us=median_us(position.copy, number=2000),
        view_us=median_us(lambda: position.view(seat), number=200),
        tail_view_us=median_us(lambda: position.view(seat, log_from=position.log_size), number=200),
    )


def run_bench(
    max_games: int = 1000,
    max_seconds: float = 2.0,
    editions: Sequence[str] = EDITIONS,
    players: int = 4,
) -> BenchReport:
    """Measure every edition in ``editions`` at ``players`` players."""
    timings = tuple(bench_edition(e, players, max_games, max_seconds) for e in editions)
    return BenchReport(
        timings=timings,
        python=f"{platform.python_implementation()} {platform.python_version()}",
        machine=f"{platform.system()} {platform.machine()}",
        engine=engine_name(),
    )


def markdown_table(report: BenchReport, lang: str = "en") -> str:
    """The figures as a Markdown table (the one in the README), in ``lang``."""
    tr = translator(lang)
    engine = tr.gettext(report.engine or "pure Python")
    heads = [
        tr.gettext(h)
        for h in (
            N_("Edition"),
            N_("Games/s"),
            N_("Decisions/s"),
            N_("µs/decision"),
            N_("copy() µs"),
            N_("view() µs"),
            N_("view() µs, no log"),
        )
    ]
    lines = [
        tr.gettext(
            "Random playouts on one core, {python}, {machine}, {engine} engine:",
            python=report.python,
            machine=report.machine,
            engine=engine,
        ),
        "",
        "| " + " | ".join(heads) + " |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for t in report.timings:
        cells = [
            f"`{t.edition}`",
            tr.decimal(t.games_per_second),
            tr.decimal(t.decisions_per_second),
            tr.decimal(t.decision_us, 1),
            tr.decimal(t.copy_us, 1),
            tr.decimal(t.view_us),
            tr.decimal(t.tail_view_us),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
