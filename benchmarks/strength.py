"""Strength of the bots: one bot against copies of another, in any edition and preset.

The seed set is fixed and published: deal ``k`` is ``new_game(edition, players,
seed=20240000 + k, preset=…)``. Game ``i`` of a matchup plays deal ``i // players`` with the
bot under test at seat ``i % players``, so every deal is played once from every seat (seats
rotate; luck of the deal cancels in blocks of ``players`` games); every bot's seed is derived
from ``(i, seat)``. A run is therefore reproducible and does not depend on the number of worker
processes; ``seeds`` prints the seed of every game. A win shared by k seats counts 1/k.
Intervals are 95% Wilson score intervals.

The ladder (``ladder``) plays, for each step ``A < B`` of ``--bots`` (default ``random easy
medium``), ``B`` against ``players - 1`` copies of ``A`` and ``A`` against copies of ``B`` on
the same games, and tests the step: a two-proportion z-test of B's win rate in the first
against A's in the second (equal strength gives both ``1/players``), and a one-sample test of
each against ``1/players``; a step is significant when the two-proportion test's two-sided p is
below 0.05 and B is the stronger. ``--every-setup`` runs it in every edition and preset.

Run from the repository with the package installed::

    python benchmarks/strength.py ladder --games 600 --edition classic
    python benchmarks/strength.py ladder --games 600 --every-setup
    python benchmarks/strength.py ladder --games 80 --bots heuristic ismcts --iterations 200
    python benchmarks/strength.py heuristic-vs-random --games 400 --edition 2016 \
        --preset cunning_agents
    python benchmarks/strength.py ismcts-vs-heuristic --games 300 --iterations 200
    python benchmarks/strength.py budgets --games 100 --budgets 50 200 1000
    python benchmarks/strength.py speed --decisions 40 --iterations 1000
    python benchmarks/strength.py coverage --games 40     # the heuristic's fallbacks
    python benchmarks/strength.py seeds --games 8

``--workers N`` plays games in N processes (default: 1); ``--json PATH`` also writes the
figures as JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from citadels import new_game
from citadels.bots import Bot, HeuristicBot, attach_samplers, make_bot
from citadels.cards import PURPLE
from citadels.editions import EDITIONS
from citadels.engine.determinize import SeatSampler
from citadels.sim import play_game

EDITION = "classic"
PLAYERS = 4
BASE_SEED = 20_240_000
#: The bots of the ladder, weakest first, unless ``--bots`` says otherwise.
LADDER = ("random", "easy", "medium")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_two_sided(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z(wins1: float, games1: int, wins2: float, games2: int) -> float:
    """The pooled two-proportion z statistic of rate 1 minus rate 2 (0 when undefined)."""
    if not games1 or not games2:
        return 0.0
    pooled = (wins1 + wins2) / (games1 + games2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / games1 + 1 / games2))
    return (wins1 / games1 - wins2 / games2) / se if se > 0 else 0.0


def one_sample_z(wins: float, games: int, p0: float) -> float:
    """The z statistic of a win rate against the rate ``p0`` (0 when undefined)."""
    if not games or not 0 < p0 < 1:
        return 0.0
    return (wins / games - p0) / math.sqrt(p0 * (1 - p0) / games)


@dataclass(frozen=True)
class Setup:
    """Where a matchup is played: edition, preset (``None``: the default) and player count."""

    edition: str = EDITION
    preset: str | None = None
    players: int = PLAYERS

    @property
    def name(self) -> str:
        preset = f"/{self.preset}" if self.preset else ""
        return f"{self.edition}{preset}, {self.players} players"

    def options(self) -> dict[str, Any]:
        return {"preset": self.preset} if self.preset else {}

    def seed(self, index: int) -> int:
        """The deal of game ``index`` (every seat plays each deal once)."""
        return BASE_SEED + index // self.players

    def focus_seat(self, index: int) -> int:
        return index % self.players


def every_setup(players: int = PLAYERS) -> list[Setup]:
    """Every edition with its default setup and each preset, at ``players`` or the preset's
    minimum if more; a preset that is the default setup (`classic` ``base``, `2016`
    ``first_game``) is left out."""
    out: list[Setup] = []
    for edition in EDITIONS.values():
        out.append(Setup(edition.id, None, players))
        default_purple = {d for d in edition.deck if edition.districts[d].colour == PURPLE}
        for preset in edition.presets.values():
            if (
                preset.characters == edition.default_characters
                and set(preset.districts) == default_purple
            ):
                continue
            out.append(Setup(edition.id, preset.id, max(players, preset.min_players)))
    return out


@dataclass(frozen=True)
class Matchup:
    """One bot (``focus``) against ``players - 1`` copies of ``field``."""

    name: str
    focus: str
    focus_params: dict[str, Any]
    field: str
    field_params: dict[str, Any]
    setup: Setup = Setup()


@dataclass
class Result:
    """The figures of one matchup."""

    name: str
    setup: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    seconds: float
    focus_decisions: int = 0
    focus_iterations: int = 0
    focus_think_seconds: float = 0.0
    focus_fallbacks: int = 0
    focus_longest_decision: float = 0.0

    def line(self) -> str:
        text = (
            f"{self.name:<30} games {self.games:>4}  win rate {self.win_rate:6.1%}  "
            f"95% CI [{self.low:5.1%}, {self.high:5.1%}]  ({self.seconds:.0f} s)"
        )
        if self.focus_iterations:
            rate = self.focus_iterations / self.focus_think_seconds
            per = self.focus_think_seconds / max(1, self.focus_decisions)
            text += (
                f"  {rate:,.0f} it/s, {per:.3f} s/decision "
                f"(longest {self.focus_longest_decision:.3f} s)"
            )
        return text


class _Timed:
    """Wraps the bot under test to count its decisions and thinking time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0
        self.longest = 0.0

    def attach(self, sampler: Any) -> None:
        attach = getattr(self.bot, "attach", None)
        if attach is not None:
            attach(sampler)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any]) -> Any:
        start = time.perf_counter()
        action = self.bot.choose(view, legal_actions)
        spent = time.perf_counter() - start
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.decisions += 1
        self.iterations += getattr(self.bot, "last_iterations", 0)
        return action


def _seed(index: int, seat: int) -> int:
    return (BASE_SEED + index) * 16 + seat


def play_one(args: tuple[Matchup, int]) -> tuple[float, int, int, float, int, float]:
    """Game ``index`` of a matchup: (focus win share, decisions, iterations, think time,
    heuristic fallbacks of the bot under test, its longest decision)."""
    m, index = args
    setup = m.setup
    game = new_game(setup.edition, setup.players, seed=setup.seed(index), **setup.options())
    focus_seat = setup.focus_seat(index)
    bots: list[Any] = [
        make_bot(m.field, seed=_seed(index, seat), **m.field_params)
        for seat in range(setup.players)
    ]
    timed = _Timed(make_bot(m.focus, seed=_seed(index, focus_seat), **m.focus_params))
    bots[focus_seat] = timed
    attach_samplers(game, bots)
    play_game(game, bots)
    winners = game.result().winners
    share = 1 / len(winners) if focus_seat in winners else 0.0
    fallbacks = sum(getattr(timed.bot, "fallbacks", Counter()).values())
    return share, timed.decisions, timed.iterations, timed.seconds, fallbacks, timed.longest


def run(m: Matchup, games: int, workers: int, first: int = 0) -> Result:
    """Play ``games`` games of a matchup (indices ``first..``) and sum them up."""
    start = time.perf_counter()
    jobs = [(m, i) for i in range(first, first + games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            chunk = 1 if "ismcts" in (m.focus, m.field) or "hard" in (m.focus, m.field) else 16
            outcomes = list(pool.map(play_one, jobs, chunksize=chunk))
    else:
        outcomes = [play_one(job) for job in jobs]
    wins = sum(o[0] for o in outcomes)
    low, high = wilson(wins, games)
    return Result(
        name=m.name,
        setup=m.setup.name,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        low=low,
        high=high,
        seconds=time.perf_counter() - start,
        focus_decisions=sum(o[1] for o in outcomes),
        focus_iterations=sum(o[2] for o in outcomes),
        focus_think_seconds=sum(o[3] for o in outcomes),
        focus_fallbacks=sum(o[4] for o in outcomes),
        focus_longest_decision=max((o[5] for o in outcomes), default=0.0),
    )


# --- the ladder ----------------------------------------------------------------------------


def _label(kind: str, params: dict[str, Any]) -> str:
    budget = [f"{params['iterations']}"] if "iterations" in params else []
    if params.get("time_limit"):
        budget.append(f"{params['time_limit']:g} s")
    budget += [f"{k}={v}" for k, v in params.items() if k not in ("iterations", "time_limit")]
    return f"{kind}({', '.join(budget)})" if budget else kind


@dataclass
class Step:
    """One step ``weaker < stronger`` of the ladder, tested both ways on the same games."""

    weaker: str
    stronger: str
    up: Result
    """The stronger bot against copies of the weaker."""
    down: Result | None
    """The weaker bot against copies of the stronger (``None``: not played)."""
    parity: float
    z: float
    p: float
    significant: bool

    def line(self) -> str:
        if self.down is not None:
            test = f"two-proportion z = {self.z:+.2f}, p = {self.p:.2g}"
        else:
            test = f"one-sample z = {self.z:+.2f} against {self.parity:.0%}, p = {self.p:.2g}"
        verdict = "significant" if self.significant else "NOT significant"
        return f"step {self.weaker} < {self.stronger}: {test} -> {verdict} (5%, two-sided)"


def ladder(
    setup: Setup,
    bots: Sequence[tuple[str, dict[str, Any]]],
    games: int,
    workers: int,
    both_ways: bool = True,
    say: Callable[[str], None] = print,
    first: int = 0,
) -> list[Step]:
    """Each step of ``bots`` (weakest first) played and tested in ``setup``, on games
    ``first`` to ``first + games - 1`` of the seed set."""
    parity = 1 / setup.players
    field_count = setup.players - 1
    steps: list[Step] = []
    for (weak, weak_params), (strong, strong_params) in itertools.pairwise(bots):
        w, s = _label(weak, weak_params), _label(strong, strong_params)
        up = run(
            Matchup(f"{s} vs {field_count} {w}", strong, strong_params, weak, weak_params, setup),
            games,
            workers,
            first,
        )
        say("  " + up.line())
        down = None
        if both_ways:
            name = f"{w} vs {field_count} {s}"
            down = run(
                Matchup(name, weak, weak_params, strong, strong_params, setup),
                games,
                workers,
                first,
            )
            say("  " + down.line())
            z = two_proportion_z(up.wins, up.games, down.wins, down.games)
        else:
            z = one_sample_z(up.wins, up.games, parity)
        p = normal_two_sided(z)
        step = Step(w, s, up, down, parity, z, p, significant=p < 0.05 and z > 0)
        say("  " + step.line())
        steps.append(step)
    return steps


def _search_params(args: argparse.Namespace) -> dict[str, Any]:
    """The ISMCTS parameters of the command line."""
    params: dict[str, Any] = {"iterations": args.iterations}
    if args.seconds_per_decision:
        params["time_limit"] = args.seconds_per_decision
    for item in args.search_param:
        name, _, value = item.partition("=")
        params[name] = _param_value(value)
    return params


def _param_value(text: str) -> Any:
    """A parameter's value from the command line: JSON (``200``, ``0.5``, ``null``), or the
    text itself (``rollout=bot``, ``evaluation=fitted``)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _hard_params(args: argparse.Namespace) -> dict[str, Any]:
    """The parameters the command line sets on ``hard`` (none: ``make_bot("hard")`` as is)."""
    params: dict[str, Any] = {}
    for item in args.hard_param:
        name, _, value = item.partition("=")
        params[name] = _param_value(value)
    return params


def _bot_list(args: argparse.Namespace) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for kind in args.bots:
        params: dict[str, Any] = {}
        if kind == "ismcts":
            params.update(_search_params(args))
        elif kind == "hard":
            params.update(_hard_params(args))
        out.append((kind, params))
    return out


def plot_ladder(ladder_report: list[dict[str, Any]], path: str) -> None:
    """A PNG of a ladder: per setup, each step's win rates both ways with their 95%
    intervals and the parity line (needs matplotlib, the ``plots`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [f"{r['setup']['edition']}/{r['setup']['preset'] or 'default'}" for r in ladder_report]
    steps = len(ladder_report[0]["steps"]) if ladder_report else 0
    fig, axes = plt.subplots(
        steps, 1, figsize=(10, 3.6 * max(1, steps)), layout="constrained", squeeze=False
    )
    for row, ax in enumerate(axes[:, 0]):
        for offset, way, colour in ((-0.2, "up", "#4c72b0"), (0.2, "down", "#c44e52")):
            results = [r["steps"][row][way] for r in ladder_report]
            xs = [i + offset for i, res in enumerate(results) if res]
            if not xs:
                continue  # a one-way ladder: no bars the other way
            rates = [res["win_rate"] for res in results if res]
            errors = [
                [res["win_rate"] - res["low"] for res in results if res],
                [res["high"] - res["win_rate"] for res in results if res],
            ]
            label = next((res["name"] for res in results if res), way)
            ax.bar(xs, rates, width=0.4, yerr=errors, capsize=3, color=colour, label=label)
        for i, r in enumerate(ladder_report):
            parity = 1 / r["setup"]["players"]
            ax.hlines(parity, i - 0.45, i + 0.45, colors="black", linestyles="--", linewidth=1)
        first = ladder_report[0]["steps"][row]
        ax.set_title(f"step {first['weaker']} < {first['stronger']} (dashes: parity)")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("win rate (95% CI)")
        ax.set_ylim(0, 1)
        ax.legend(loc="upper right", fontsize=8)
    counts = sorted(
        {
            res["games"]
            for r in ladder_report
            for st in r["steps"]
            for res in (st["up"], st["down"])
            if res
        }
    )
    games = f"{counts[0]} to {counts[-1]}" if len(counts) > 1 else f"{counts[0] if counts else 0}"
    fig.suptitle(f"Strength ladder, {games} games per matchup, seats rotated")
    fig.savefig(path, dpi=90)
    plt.close(fig)


# --- the heuristic's coverage -------------------------------------------------------------


def coverage(games: int, seed: int = 1) -> tuple[int, Counter[str], Counter[str], int]:
    """Heuristic bots only, ``games`` games of every edition and preset, each with a player
    count drawn from the setup's range and a random seed: the games played, the fallbacks by
    decision kind, the action types chosen, and the views it could not read."""
    rng = random.Random(seed)
    fallbacks: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    errors = played = 0
    for edition in EDITIONS.values():
        for preset in (None, *edition.presets):
            chosen_preset = edition.presets[preset] if preset else None
            low = max(edition.min_players, chosen_preset.min_players if chosen_preset else 2)
            characters = chosen_preset.characters if chosen_preset else edition.default_characters
            high = edition.max_players if len(characters) > 8 else min(edition.max_players, 7)
            options = {"preset": preset} if preset else {}
            for _ in range(games):
                players = rng.randint(low, high)
                game = new_game(edition.id, players, seed=rng.randrange(1 << 62), **options)
                bots = [HeuristicBot(rng.randrange(1 << 30)) for _ in range(players)]
                while not game.is_over:
                    seat = game.to_move
                    assert seat is not None
                    legal = game.legal_actions()
                    action = bots[seat].choose(game.view(seat), legal)
                    if len(legal) > 1:
                        chosen[f"{edition.id} {action.type}"] += 1
                    game.apply(action, seat)
                for bot in bots:
                    fallbacks.update(bot.fallbacks)
                    errors += bot.errors
                played += 1
    return played, fallbacks, chosen, errors


# --- the search's speed --------------------------------------------------------------------


def speed(
    decisions: int,
    kind: str = "ismcts",
    params: dict[str, Any] | None = None,
    seed: int = 1,
    budget: float | None = None,
) -> dict[str, float]:
    """Whole decisions of a search bot (``kind`` with ``params``: ``make_bot(kind, ...)``) at
    ``decisions`` positions of heuristic games (4-player classic), decisions with a single
    legal action skipped: each one is ``bot.choose(view, legal)`` with the seat's sampler, the
    information set and any weighting included, timed by the wall clock and by the process's
    CPU time. ``budget`` (seconds): also count the decisions whose wall time exceeded it."""
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
    bot = make_bot(kind, seed=seed, **(params or {}))
    total_iterations = 0
    walls: list[float] = []
    cpu = 0.0
    for game, seat in spots:
        attach = getattr(bot, "attach", None)
        if attach is not None:
            attach(SeatSampler(game, seat))
        view, legal = game.view(seat), game.legal_actions()
        wall, clock = time.perf_counter(), time.process_time()
        bot.choose(view, legal)
        cpu += time.process_time() - clock
        walls.append(time.perf_counter() - wall)
        total_iterations += getattr(bot, "last_iterations", 0)
    seconds = sum(walls)
    return {
        "decisions": len(spots),
        "iterations": total_iterations,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "iterations_per_second": total_iterations / cpu if cpu else 0.0,
        "seconds_per_decision": seconds / len(spots),
        "longest_decision": max(walls),
        "over_budget": sum(1 for w in walls if budget is not None and w > budget),
    }


def _matchups(args: argparse.Namespace, setup: Setup) -> list[tuple[Matchup, int]]:
    what = args.what
    field_count = setup.players - 1
    search = _search_params(args)
    out: list[tuple[Matchup, int]] = []
    if what in ("heuristic-vs-random", "all"):
        name = f"heuristic vs {field_count} random"
        out.append((Matchup(name, "heuristic", {}, "random", {}, setup), args.games))
    if what in ("ismcts-vs-heuristic", "all"):
        name = f"{_label('ismcts', search)} vs {field_count} heuristic"
        out.append((Matchup(name, "ismcts", search, "heuristic", {}, setup), args.games))
    if what in ("budgets", "all"):
        games = args.ladder_games or args.games
        for budget in args.budgets:
            name = f"ismcts({budget}) vs {field_count} heuristic"
            if any(m.name == name for m, _ in out):
                continue
            params = {"iterations": budget}
            out.append((Matchup(name, "ismcts", params, "heuristic", {}, setup), games))
    if what in ("random-vs-heuristic", "all"):
        name = f"random vs {field_count} heuristic"
        out.append((Matchup(name, "random", {}, "heuristic", {}, setup), args.games))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "what",
        choices=[
            "ladder",
            "heuristic-vs-random",
            "ismcts-vs-heuristic",
            "budgets",
            "random-vs-heuristic",
            "speed",
            "coverage",
            "seeds",
            "all",
        ],
    )
    parser.add_argument("--games", type=int, default=100, help="games per matchup")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="ladder: start at this game of the seed set (a replication on other deals)",
    )
    parser.add_argument("--edition", default=EDITION, choices=sorted(EDITIONS))
    parser.add_argument("--preset", default=None, help="a preset of the edition")
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument(
        "--every-setup", action="store_true", help="every edition and preset (ladder)"
    )
    parser.add_argument("--bots", nargs="+", default=list(LADDER), help="the ladder, weakest first")
    parser.add_argument(
        "--one-way",
        action="store_true",
        help="ladder: play only the stronger bot against the weaker (one-sample test)",
    )
    parser.add_argument("--ladder-games", type=int, default=0, help="games per budget")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS budget")
    parser.add_argument(
        "--seconds-per-decision", type=float, default=None, help="ISMCTS time limit"
    )
    parser.add_argument(
        "--search-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="another ISMCTS parameter (e.g. prior=1.0, exploration=0.7); repeatable",
    )
    parser.add_argument(
        "--hard-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of `hard` in the ladder and `speed` (e.g. iterations=300); repeatable",
    )
    parser.add_argument(
        "--kind", default="ismcts", choices=["ismcts", "hard"], help="the bot `speed` times"
    )
    parser.add_argument(
        "--budget", type=float, default=None, help="speed: seconds a decision may take"
    )
    parser.add_argument("--budgets", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--decisions", type=int, default=40, help="positions for `speed`")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument(
        "--plot", default=None, help="ladder: also draw it into this PNG (needs matplotlib)"
    )
    parser.add_argument(
        "--from-json", default=None, help="ladder: draw --plot from a saved --json, play nothing"
    )
    args = parser.parse_args(argv)
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            plot_ladder(json.load(f)["ladder"], args.plot or "ladder.png")
        return 0

    setup = Setup(args.edition, args.preset, args.players)
    if args.preset is not None:
        new_game(args.edition, args.players, seed=0, preset=args.preset)  # a bad one fails now
    report: dict[str, Any] = {"matchups": [], "ladder": []}
    say: Callable[[str], None] = lambda text: print(text, flush=True)  # noqa: E731
    if args.what == "seeds":
        for i in range(args.games):
            say(f"game {i}: seed {setup.seed(i)}, bot under test at seat {setup.focus_seat(i)}")
        return 0
    if args.what == "coverage":
        played, fallbacks, chosen, errors = coverage(args.games)
        report["coverage"] = {
            "games": played,
            "fallbacks": dict(fallbacks),
            "errors": errors,
            "chosen": dict(sorted(chosen.items())),
        }
        say(
            f"{played} heuristic games (every edition and preset, {args.games} each): "
            f"{sum(fallbacks.values())} fallbacks, {errors} unread views"
        )
        for kind, count in fallbacks.most_common():
            say(f"  fallback {kind}: {count}")
    if args.what == "ladder":
        setups = every_setup(args.players) if args.every_setup else [setup]
        for where in setups:
            say(f"{where.name}:")
            steps = ladder(
                where, _bot_list(args), args.games, args.workers, not args.one_way, say, args.first
            )
            report["ladder"].append(
                {
                    "setup": asdict(where),
                    "steps": [
                        {
                            "weaker": st.weaker,
                            "stronger": st.stronger,
                            "up": asdict(st.up),
                            "down": asdict(st.down) if st.down else None,
                            "z": st.z,
                            "p": st.p,
                            "significant": st.significant,
                        }
                        for st in steps
                    ],
                }
            )
        if args.plot:
            plot_ladder(report["ladder"], args.plot)
    if args.what in ("speed", "all"):
        if args.kind == "hard":
            kind, params = "hard", _hard_params(args)
        else:
            kind, params = "ismcts", _search_params(args)
            if args.what == "all":
                params["iterations"] = 1000
        figures = speed(args.decisions, kind, params, budget=args.budget)
        report["speed"] = figures
        say(
            f"{_label(kind, params)} speed: {figures['iterations_per_second']:,.0f} "
            f"iterations per CPU second ({figures['decisions']} decisions, "
            f"{figures['seconds_per_decision']:.3f} s each by the wall clock, "
            f"{figures['cpu_seconds'] / figures['decisions']:.3f} s of CPU; "
            f"longest {figures['longest_decision']:.3f} s)"
        )
        if args.budget is not None:
            over = int(figures["over_budget"])
            verdict = "holds" if over == 0 else "does NOT hold"
            say(f"budget {args.budget:g} s per decision {verdict}: {over} decisions over it")
    for matchup, games in _matchups(args, setup):
        result = run(matchup, games, args.workers)
        report["matchups"].append(asdict(result))
        say(f"{setup.name}: {result.line()}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
