"""Tournaments: bots against each other with seats rotated, on all cores or a Ray cluster.

A tournament is a list of bot entries (one per seat) and a number of games. Game ``i`` seats
entry ``(seat + i) mod n`` at ``seat``, so over ``n`` consecutive games every entry plays every
seat once. Every game takes its seeds from ``(master seed, i)`` alone (``game_seeds``), so the
results do not depend on the backend, the number of workers or the order games finish in.
"""

from __future__ import annotations

import importlib.util
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from citadels.bots import attach_samplers, make_bot
from citadels.bots.base import bot_kind, bot_parameters, check_bot_parameters
from citadels.editions import canonical_options, get_edition
from citadels.engine.game import Game, new_game
from citadels.sim.random_games import game_seeds, play_game

BACKENDS = ("processes", "ray")

#: 95% two-sided normal quantile, for Wilson intervals.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class BotEntry:
    """One contestant: a bot kind and its parameters, under a display label."""

    label: str
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def make(self, seed: int) -> Any:
        return make_bot(self.kind, seed=seed, **dict(self.params))


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_bots(spec: str) -> list[BotEntry]:
    """Read ``"ismcts:iterations=200,heuristic,random"`` into entries (one per seat).

    Parameters follow the kind after colons: ``kind:name=value:name=value``. Kinds are matched
    loosely (``ISMCTS`` is ``ismcts``). An unknown kind, a malformed parameter, a parameter the
    bot does not take or a value of the wrong type raises ``ValueError`` naming the kinds or
    the bot's parameters.
    """
    entries = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise ValueError(f"empty bot in {spec!r}")
        name, *raw = part.split(":")
        kind = bot_kind(name)
        params = []
        for item in raw:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                takes = ", ".join(bot_parameters(kind)) or "none"
                raise ValueError(
                    f"bot parameter {item!r} of {part!r} must be name=value; "
                    f"the parameters of {kind!r}: {takes}"
                )
            params.append((key.strip(), _value(value.strip())))
        checked = check_bot_parameters(kind, dict(params))
        entries.append(BotEntry(part, kind, tuple(checked.items())))
    if len(entries) < 2:
        raise ValueError("a tournament needs at least 2 bots, one per seat")
    return entries


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of one game: who sat there and how it went."""

    seat: int
    entry: int
    score: int
    rank: int
    win: float
    """1 for a sole winner, 1/k for each of k seats tied first, 0 otherwise."""
    characters: tuple[str, ...]
    """The characters the seat picked, round by round."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game of a tournament."""

    index: int
    seed: int
    rounds: int
    decisions: int
    seconds: float
    seats: tuple[SeatRecord, ...]


def entry_at(seat: int, index: int, n: int) -> int:
    """The entry that sits at ``seat`` in game ``index`` (seats rotate every game)."""
    return (seat + index) % n


def picks(game: Game) -> list[list[str]]:
    """Per seat, the characters it picked in each round (read by the runner, not a bot)."""
    out: list[list[str]] = [[] for _ in range(game.num_players)]
    for ev in game.state.log:
        if ev.kind == "pick" and ev.seat is not None and ev.secret:
            out[ev.seat].append(ev.secret["character"])
    return out


def play_indexed(
    edition: str,
    entries: Sequence[BotEntry],
    options: dict[str, Any],
    master: int,
    index: int,
) -> GameRecord:
    """Play game ``index`` of a tournament and record it."""
    n = len(entries)
    game_seed, bot_seeds = game_seeds(master, index, n)
    game = new_game(edition, n, seed=game_seed, **options)
    bots = [entries[entry_at(seat, index, n)].make(bot_seeds[seat]) for seat in range(n)]
    attach_samplers(game, bots)
    start = time.perf_counter()
    decisions = play_game(game, bots)
    seconds = time.perf_counter() - start
    outcome = game.result()
    winners = outcome.winners
    held = picks(game)
    seats = tuple(
        SeatRecord(
            seat=r.seat,
            entry=entry_at(r.seat, index, n),
            score=r.score,
            rank=r.rank,
            win=1 / len(winners) if r.seat in winners else 0.0,
            characters=tuple(held[r.seat]),
        )
        for r in outcome
    )
    return GameRecord(index, game_seed, game.state.round, decisions, seconds, seats)


def play_chunk(
    edition: str,
    entries: Sequence[BotEntry],
    options: dict[str, Any],
    master: int,
    indices: Sequence[int],
) -> list[GameRecord]:
    """Play several games (the unit of work a worker receives)."""
    return [play_indexed(edition, entries, options, master, i) for i in indices]


def _chunks(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(50, games // (workers * 8) or 1))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional: ties)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate with its 95% confidence interval."""

    wins: float
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "games": self.games,
            "rate": self.rate,
            "ci95": [self.low, self.high],
        }


def _rate(wins: float, games: int) -> Rate:
    low, high = wilson(wins, games)
    return Rate(wins, games, low, high)


@dataclass
class TournamentResult:
    """All games of a tournament, with the statistics drawn from them."""

    edition: str
    entries: list[BotEntry]
    options: dict[str, Any]
    seed: int
    backend: str
    workers: int
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def by_entry(self) -> list[Rate]:
        """Win rate of each entry over all its games (seats rotated)."""
        wins = [0.0] * len(self.entries)
        for g in self.records:
            for s in g.seats:
                wins[s.entry] += s.win
        return [_rate(w, self.games) for w in wins]

    def by_seat(self) -> list[Rate]:
        """Win rate of each seat, whoever sat there."""
        wins = [0.0] * len(self.entries)
        for g in self.records:
            for s in g.seats:
                wins[s.seat] += s.win
        return [_rate(w, self.games) for w in wins]

    def by_bot(self) -> dict[str, Rate]:
        """Win rate of each bot, entries of the same label (kind and parameters) pooled: the
        trials are the seat-games that bot played."""
        wins: dict[str, float] = {}
        played: dict[str, int] = {}
        for e, rate in zip(self.entries, self.by_entry(), strict=True):
            wins[e.label] = wins.get(e.label, 0.0) + rate.wins
            played[e.label] = played.get(e.label, 0) + rate.games
        return {label: _rate(wins[label], played[label]) for label in wins}

    def by_character(self) -> dict[str, Rate]:
        """For each character: how often a seat that picked it (in any round of the game) won.

        The trials are games, not rounds: a seat that picked the character in several rounds
        of one game counts once, so the interval does not shrink with the game's length."""
        held: dict[str, int] = {}
        wins: dict[str, float] = {}
        for g in self.records:
            for s in g.seats:
                for c in set(s.characters):
                    held[c] = held.get(c, 0) + 1
                    wins[c] = wins.get(c, 0.0) + s.win
        rank = get_edition(self.edition).rank
        return {c: _rate(wins[c], held[c]) for c in sorted(held, key=lambda c: (rank(c), c))}

    def scores(self) -> list[list[int]]:
        """Every final score of each entry."""
        out: list[list[int]] = [[] for _ in self.entries]
        for g in self.records:
            for s in g.seats:
                out[s.entry].append(s.score)
        return out

    def scores_by_bot(self) -> dict[str, list[int]]:
        """Every final score of each bot, entries of the same label pooled."""
        out: dict[str, list[int]] = {}
        for e, scores in zip(self.entries, self.scores(), strict=True):
            out.setdefault(e.label, []).extend(scores)
        return out

    def setup_line(self) -> str:
        """What was played, in one line: edition, preset or custom lists, players, games."""
        parts = [f"{self.edition}"]
        if self.options.get("preset") is not None:
            parts.append(f"preset {self.options['preset']}")
        if self.options.get("characters") is not None:
            parts.append("chosen characters")
        if self.options.get("districts") is not None:
            parts.append("chosen districts")
        if self.options.get("complete_at") is not None:
            parts.append(f"complete at {self.options['complete_at']}")
        parts.append(f"{len(self.entries)} players")
        parts.append(f"{self.games} games")
        return ", ".join(parts)

    def summary(self) -> dict[str, Any]:
        """Everything the report shows, as JSON-ready data."""
        rounds = [g.rounds for g in self.records]
        scores = self.scores()
        pooled = self.scores_by_bot()
        return {
            "edition": self.edition,
            "players": len(self.entries),
            "options": self.options,
            "seed": self.seed,
            "backend": self.backend,
            "workers": self.workers,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "mean_rounds": _mean(rounds),
            "mean_decisions": _mean([g.decisions for g in self.records]),
            "bots": [
                {
                    "entry": i,
                    "label": e.label,
                    **rate.to_json(),
                    "mean_score": _mean(scores[i]),
                    "score_stdev": _stdev(scores[i]),
                }
                for i, (e, rate) in enumerate(zip(self.entries, self.by_entry(), strict=True))
            ],
            "pooled": {
                label: {**rate.to_json(), "mean_score": _mean(pooled[label])}
                for label, rate in self.by_bot().items()
            },
            "seats": [rate.to_json() for rate in self.by_seat()],
            "characters": {c: r.to_json() for c, r in self.by_character().items()},
        }

    def write(self, out: str, *, plots: bool | None = None) -> list[str]:
        """Write ``summary.json``, ``games.csv`` and the PNG plots into ``out``; returns the
        paths written. The plots need matplotlib (the ``plots`` extra): ``plots=None`` draws
        them when it is installed, ``True`` raises ``ValueError`` when it is not."""
        from citadels.sim import report

        return report.write(self, out, plots=plots)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _stdev(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = _mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def run_tournament(
    edition: str,
    entries: Sequence[BotEntry],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    backend: str = "processes",
    options: dict[str, Any] | None = None,
    ray_address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games of ``entries`` (one per seat) and gather the statistics.

    ``workers`` processes (``backend="processes"``; 1 plays in this process) or Ray tasks
    (``backend="ray"``: a local Ray instance, or the cluster at ``ray_address``).
    ``on_progress(done)`` is called as games finish. Bad settings raise ``ValueError``
    before any game is played.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if type(games) is not int or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be a positive integer, not {workers!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ValueError("the ray backend needs Ray: pip install 'citadels[ray]'")
    edition = get_edition(edition).id
    opts = canonical_options(get_edition(edition), options or {})
    new_game(edition, len(entries), seed=0, **opts)  # validate the setup up front
    for e in entries:
        e.make(0)  # and every bot's parameters
    result = TournamentResult(edition, list(entries), opts, seed, backend, workers)
    chunks = _chunks(games, workers)
    start = time.perf_counter()
    if backend == "ray":
        batches: Iterable[list[GameRecord]] = _run_ray(
            edition, entries, opts, seed, chunks, workers, ray_address
        )
    elif workers == 1:
        batches = (play_chunk(edition, entries, opts, seed, c) for c in chunks)
    else:
        batches = _run_processes(edition, entries, opts, seed, chunks, workers)
    for batch in batches:
        result.records.extend(batch)
        if on_progress is not None:
            on_progress(len(result.records))
    result.seconds = time.perf_counter() - start
    result.records.sort(key=lambda g: g.index)
    return result


def _run_processes(
    edition: str,
    entries: Sequence[BotEntry],
    options: dict[str, Any],
    seed: int,
    chunks: list[list[int]],
    workers: int,
) -> Iterable[list[GameRecord]]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(play_chunk, edition, list(entries), options, seed, c) for c in chunks
        ]
        for future in as_completed(futures):
            yield future.result()


def _run_ray(
    edition: str,
    entries: Sequence[BotEntry],
    options: dict[str, Any],
    seed: int,
    chunks: list[list[int]],
    workers: int,
    address: str | None,
) -> Iterable[list[GameRecord]]:
    import ray

    started = not ray.is_initialized()
    if started:
        if address is None:
            # A local instance; keep Ray's own workers from importing a stale package copy.
            os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        remote = ray.remote(play_chunk)
        pending = [remote.remote(edition, list(entries), options, seed, c) for c in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
