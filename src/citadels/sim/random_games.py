"""Play games among bots and gather statistics: the loop behind ``citadels simulate``.

Every game of a run gets its seeds from ``(master seed, game index)`` alone (see
:func:`game_seeds`), so a run is reproducible from its master seed and a game can be played
on its own, in any order or process, with the same outcome.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from citadels.bots import Bot, RandomBot, attach_samplers
from citadels.engine.game import Game, new_game

#: Builds the bots of one game: ``factory(players, bot_seeds) -> one bot per seat``.
BotFactory = Callable[[int, Sequence[int]], Sequence[Bot]]


def random_bots(players: int, seeds: Sequence[int]) -> list[Bot]:
    """One :class:`~citadels.bots.RandomBot` per seat, each with its own seed."""
    return [RandomBot(seeds[seat]) for seat in range(players)]


def game_seeds(master: int, index: int, players: int) -> tuple[int, list[int]]:
    """The game seed and one bot seed per seat for game ``index`` of a run seeded ``master``.

    Derived by hashing, so the seeds of a game do not depend on the games played before it.
    One digest gives the game seed and 7 bot seeds; seats beyond the seventh (8 players in
    `classic`) take theirs from further digests, so the first 7 never change.
    """
    words = _seed_words(f"citadels-sim:{master}:{index}")
    block = 1
    while len(words) < 1 + players:
        words += _seed_words(f"citadels-sim:{master}:{index}:{block}")
        block += 1
    return words[0], words[1 : 1 + players]


def _seed_words(key: str) -> list[int]:
    """Eight non-negative 63-bit integers hashed from ``key``."""
    digest = hashlib.blake2b(key.encode(), digest_size=64).digest()
    return [int.from_bytes(digest[i : i + 8], "little") >> 1 for i in range(0, 64, 8)]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a simulation keeps of one finished game."""

    seed: int
    rounds: int
    decisions: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (several when the tie-break could not separate them)."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


def play_game(game: Game, bots: Sequence[Bot], *, full_log: bool = False) -> int:
    """Play ``game`` to its end with one bot per seat; returns the number of decisions.

    Each bot sees only its own seat's view; a bot that searches (``attach``) first receives
    its seat's sampler (:func:`citadels.bots.attach_samplers`). By default the view's ``log``
    holds the events since that seat's previous decision (the whole log on its first decision),
    which keeps a game linear in its length; ``full_log=True`` sends the whole log every time.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{game.num_players} seats need {game.num_players} bots, not {len(bots)}")
    attach_samplers(game, bots)  # search bots get their seat's sampler
    seen = [0] * game.num_players
    decisions = 0
    while True:
        seat = game.to_move
        if seat is None:
            return decisions
        legal = game.legal_actions()
        if full_log:
            view = game.view(seat)
        else:
            view = game.view(seat, log_from=seen[seat])
            seen[seat] += len(view["log"])
        game.apply(bots[seat].choose(view, legal), seat)
        decisions += 1


def summarize(game: Game, seed: int, decisions: int) -> GameSummary:
    """The :class:`GameSummary` of a finished game started with ``seed``."""
    outcome = game.result()
    return GameSummary(
        seed=seed,
        rounds=game.state.round,
        decisions=decisions,
        scores=tuple(r.score for r in outcome),
        ranks=tuple(r.rank for r in outcome),
    )


@dataclass(slots=True)
class SimStats:
    """Running totals over many games of one edition and player count; ``merge`` adds runs."""

    edition: str
    players: int
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)
    """Per seat: games won, a win shared by k tied seats counting 1/k to each."""
    score_totals: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * self.players
        if not self.score_totals:
            self.score_totals = [0] * self.players

    def add(self, summary: GameSummary) -> None:
        """Count one finished game."""
        self.games += 1
        self.rounds += summary.rounds
        self.decisions += summary.decisions
        winners = summary.winners
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        for seat, score in enumerate(summary.scores):
            self.score_totals[seat] += score

    def merge(self, other: SimStats) -> None:
        """Add another run of the same edition and player count (e.g. from another worker)."""
        if (other.edition, other.players) != (self.edition, self.players):
            raise ValueError("cannot merge statistics of different editions or player counts")
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.seconds = max(self.seconds, other.seconds)
        for seat in range(self.players):
            self.wins[seat] += other.wins[seat]
            self.score_totals[seat] += other.score_totals[seat]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.games if self.games else 0.0

    @property
    def mean_decisions(self) -> float:
        return self.decisions / self.games if self.games else 0.0

    @property
    def win_share(self) -> list[float]:
        """Per seat: the share of games won (ties split), summing to 1."""
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def mean_score(self) -> list[float]:
        return [t / self.games if self.games else 0.0 for t in self.score_totals]

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        return {
            "edition": self.edition,
            "players": self.players,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "mean_rounds": self.mean_rounds,
            "mean_decisions": self.mean_decisions,
            "win_share": self.win_share,
            "mean_score": self.mean_score,
        }


def run_games(
    edition: str,
    players: int,
    games: int,
    seed: int,
    *,
    bots: BotFactory = random_bots,
    first: int = 0,
    options: dict[str, Any] | None = None,
    on_game: Callable[[GameSummary], None] | None = None,
) -> SimStats:
    """Play games ``first`` to ``first + games - 1`` of the run seeded ``seed``.

    Raises ``ValueError`` for an unknown edition, a bad player count or option before any
    game is played. ``on_game`` is called after every game (a progress bar, a log).
    """
    if type(games) is not int or games < 0:
        raise ValueError(f"the number of games must be a non-negative integer, not {games!r}")
    opts = options or {}
    new_game(edition, players, seed=0, **opts)  # validate the setup once, up front
    stats = SimStats(edition, players)
    start = time.perf_counter()
    for index in range(first, first + games):
        game_seed, bot_seeds = game_seeds(seed, index, players)
        game = new_game(edition, players, seed=game_seed, **opts)
        decisions = play_game(game, bots(players, bot_seeds))
        summary = summarize(game, game_seed, decisions)
        stats.add(summary)
        if on_game is not None:
            on_game(summary)
    stats.seconds = time.perf_counter() - start
    return stats
