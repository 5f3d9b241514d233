"""How good and how fast is the game review (``citadels.review``)? Bounded measurements.

Parts, each printing the figures docs/review.md quotes:

``speed``
    One seat's review of a 4-player ``classic`` game played by ``hard`` bots at the default
    budget, on one core (CPU time and wall time), and a hint at the default budget (the mean
    over the seat's positions of the first game's rounds 2 to 4).

``mixed``
    Mixed tables, the fair comparison of the bots: deal ``d`` (``new_game("classic", 4,
    seed=BASE + d)``) is played four times, the table ``random``, ``medium``, ``hard``,
    ``medium`` turned by one seat each time (rotation ``r``: the table's ``k``-th bot at seat
    ``(k + r) % 4``), so every bot meets the same deals, the same opponents and every seat. In
    each game the seats of ``random``, the first ``medium`` and ``hard`` are reviewed (their
    decisions only: ``review_game(..., others=False)``). Prints the table below, with 95%
    bootstrap intervals over the deals (the four games of a deal resampled together) and the
    differences between the bots, paired by deal.

``labels``
    The first design: game ``i`` is ``new_game("classic", 4, seed=BASE + i)`` with the bot
    under test at seat ``i % 4`` and ``medium`` bots at the other seats, for each of
    ``random``, ``medium`` and ``hard``; the bot's seat is reviewed. The same table, with 95%
    bootstrap intervals over the games.

``compare``
    The loss of the same decisions (of saved reviews, ``--load``) estimated the first way, from
    the one search that also chose the best action (its root statistics, each compared action
    topped up to a fifth of the budget; the review before the second evaluation), against the
    review's loss today (:func:`citadels.review.analyse`: a second, independent evaluation).
    ``--limit`` decisions per bot, in game order.

``quality``
    For every decision the reviews call a mistake or a blunder, the real game at that moment
    (its deal fixed: hands, deck and generator as they were) is played on twice per playout
    seed: once after the action the review calls best, once after the action the seat chose,
    every seat then played by ``--playout-bot`` bots seeded alike in both branches. Prints the
    reviewed seat's win share after each, and the mean paired difference with its 95%
    confidence interval over the decisions (each decision's difference averaged over its
    playouts first).

Run from the repository with the package installed (one process each; nice it on a shared
machine)::

    nice python benchmarks/review.py speed
    nice python benchmarks/review.py mixed --deals 4 --first 0 --budget 500 --save mixed0.json
    nice python benchmarks/review.py mixed --load mixed0.json mixed4.json
    nice python benchmarks/review.py compare --load mixed0.json --limit 40
    nice python benchmarks/review.py quality --load mixed0.json --playouts 20

``--budget`` is the review budget (default: ``citadels.review.DEFAULT_BUDGET``). ``--save FILE``
writes the reviews (with each game's record, bot and number of legal actions per decision) as
JSON and ``--load FILE...`` reads them back instead of playing and reviewing again; the labels
are set from the losses by the current :func:`citadels.review.label` either way.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from citadels.bots import make_bot
from citadels.bots.ismcts import ISMCTSBot
from citadels.engine.actions import action_from_json
from citadels.engine.determinize import InformationSet
from citadels.engine.game import Game, new_game, replay
from citadels.review import (
    DEFAULT_BUDGET,
    FLOOR,
    LABELS,
    SEARCH,
    SHARES,
    THRESHOLDS,
    TOP,
    _position_seed,
    hint,
    label,
    review_game,
)
from citadels.sim import play_game

BASE_SEED = 20_261_227
PLAYERS = 4
KINDS = ("random", "medium", "hard")
#: The mixed table, seat by seat before it is turned; the first three are reviewed.
TABLE = ("random", "medium", "hard", "medium")
BAD = ("mistake", "blunder")
RESAMPLES = 2000


def bot(kind: str, seed: int) -> object:
    """A bot of ``kind``; ``hard`` without its time limit (reproducible on a loaded machine)."""
    if kind == "hard":
        return make_bot("hard", seed=seed, time_limit=None)
    return make_bot(kind, seed=seed)


def played(kind: str, i: int) -> tuple[Game, int]:
    """Game ``i`` with ``kind`` at seat ``i % 4`` and medium bots elsewhere; and that seat."""
    seat = i % PLAYERS
    game = new_game("classic", PLAYERS, seed=BASE_SEED + i)
    bots = [bot(kind if s == seat else "medium", BASE_SEED + 10 * i + s) for s in range(PLAYERS)]
    play_game(game, bots)  # type: ignore[arg-type]
    return game, seat


def played_mixed(deal: int, rotation: int) -> tuple[Game, list[str]]:
    """Deal ``deal`` played by the mixed table turned by ``rotation``; and each seat's bot."""
    kinds = [TABLE[(s - rotation) % PLAYERS] for s in range(PLAYERS)]
    game = new_game("classic", PLAYERS, seed=BASE_SEED + deal)
    seeds = [BASE_SEED + 100 * deal + 10 * rotation + s for s in range(PLAYERS)]
    play_game(game, [bot(k, x) for k, x in zip(kinds, seeds, strict=True)])  # type: ignore[misc]
    return game, kinds


def legal_counts(game: Game, moves: Sequence[int]) -> list[int]:
    """The number of legal actions at each of ``moves`` (indices in the record)."""
    wanted = set(moves)
    record = game.record()
    g = replay({**record, "actions": []})
    out: list[int] = []
    for i, obj in enumerate(record["actions"]):
        if i in wanted:
            out.append(len(g.legal_actions()))
        g.apply_json(obj)
    return out


def entry(kind: str, game: Game, seat: int, budget: int, group: int) -> dict[str, Any]:
    """One reviewed seat: its bot, the group its intervals resample together, the record, the
    review of its decisions and the number of legal actions at each."""
    review = review_game(game, seat, budget=budget, others=False).to_json()
    legal = legal_counts(game, [d["move"] for d in review["decisions"]])
    return {"kind": kind, "group": group, "record": game.record(), "review": review,
            "legal": legal}  # fmt: skip


def review_games(
    games: int, budget: int, first: int = 0, kinds: tuple[str, ...] = KINDS
) -> list[dict[str, Any]]:
    """The first design: games ``first`` to ``first + games - 1`` of every bot in ``kinds``."""
    out: list[dict[str, Any]] = []
    for kind in kinds:
        started = time.process_time()
        for i in range(first, first + games):
            game, seat = played(kind, i)
            out.append(entry(kind, game, seat, budget, i))
        print(f"{kind}: {games} games reviewed in {time.process_time() - started:.0f} s CPU")
    return out


def review_mixed(
    deals: int,
    budget: int,
    first: int = 0,
    save: Callable[[list[dict[str, Any]]], None] | None = None,
) -> list[dict[str, Any]]:
    """Mixed tables: deals ``first`` to ``first + deals - 1``, each in its four rotations;
    ``save`` is given the reviews so far after each deal (a run cut short keeps them)."""
    out: list[dict[str, Any]] = []
    for d in range(first, first + deals):
        started, wall = time.process_time(), time.perf_counter()
        for r in range(PLAYERS):
            game, kinds = played_mixed(d, r)
            for kind in KINDS:
                out.append(entry(kind, game, kinds.index(kind), budget, d))
        print(f"deal {d}: 4 games, 12 seats reviewed in {time.process_time() - started:.0f} s "
              f"CPU, {time.perf_counter() - wall:.0f} s wall", flush=True)  # fmt: skip
        if save is not None:
            save(out)
    return out


def relabel(decision: dict[str, Any]) -> str:
    """A reviewed decision's label by today's :func:`citadels.review.label`."""
    return label(decision["loss"], decision["best"][0]["chance"])


def scheme_label(loss: float, best: float, scheme: str) -> str:
    """The label under one of the labellings compared: the points alone (``points``), the
    share of the best chance alone with the floor (``shares``), or both (``both``,
    :func:`citadels.review.label`)."""
    if scheme == "both":
        return label(loss, best)
    found = "good"
    for name in LABELS[1:]:
        if scheme == "points":
            hit = loss >= THRESHOLDS[name]
        else:
            hit = loss >= FLOOR and best > 0 and loss / best >= SHARES[name]
        if hit:
            found = name
    return found


Decision = dict[str, Any]
Measure = Callable[[Decision], float]


def rows(entries: list[dict[str, Any]], kind: str) -> dict[int, list[Decision]]:
    """Per group (deal or game): the decisions of ``kind``'s reviewed seats, each with its
    number of legal actions (``n_legal``)."""
    out: dict[int, list[Decision]] = {}
    for e in entries:
        if e["kind"] == kind:
            for d, n in zip(e["review"]["decisions"], e["legal"], strict=True):
                out.setdefault(e["group"], []).append({**d, "n_legal": n, "marked": relabel(d)})
    return out


Sums = dict[int, tuple[float, int]]


def per_group(groups: dict[int, list[Decision]], measure: Measure,
              keep: Callable[[Decision], bool]) -> Sums:  # fmt: skip
    """Per group: the sum of ``measure`` over its kept decisions, and how many they are."""
    out: Sums = {}
    for g, ds in groups.items():
        kept = [measure(d) for d in ds if keep(d)]
        out[g] = (sum(kept), len(kept))
    return out


def boot(parts: Sequence[Sums], combine: Callable[[list[float]], float]
         ) -> tuple[float, float, float]:  # fmt: skip
    """``combine`` of each part's mean per decision, and its 95% bootstrap interval: the groups
    (deals or games) resampled with replacement, every part's decisions of a group together
    (so that a difference between two bots is paired by deal)."""
    keys = sorted({g for part in parts for g in part})
    rng = random.Random(0)

    def of(sample: Sequence[int]) -> float:
        means = []
        for part in parts:
            total = sum(part[g][0] for g in sample if g in part)
            n = sum(part[g][1] for g in sample if g in part)
            means.append(total / n if n else math.nan)
        return combine(means)

    value = of(keys)
    draws = sorted(x for x in (of([rng.choice(keys) for _ in keys]) for _ in range(RESAMPLES))
                   if not math.isnan(x))  # fmt: skip
    if not draws:
        return value, math.nan, math.nan
    return value, draws[int(0.025 * len(draws))], draws[int(0.975 * len(draws)) - 1]


def is_bad(d: Decision) -> float:
    return float(d["marked"] in BAD)


def not_good(d: Decision) -> float:
    return float(d["marked"] != "good")


def loss_pts(d: Decision) -> float:
    return 100 * d["loss"]


def is_pick(d: Decision) -> bool:
    return bool(d["chosen"]["action"]["type"] == "pick")


def anything(d: Decision) -> bool:
    return True


def fmt(x: tuple[float, float, float], unit: str = "%", scale: float = 100) -> str:
    return f"{scale * x[0]:.1f}{unit} [{scale * x[1]:.1f}, {scale * x[2]:.1f}]"


def table(entries: list[dict[str, Any]]) -> None:
    """Per bot: the share of decisions marked, the mean loss, by kind of decision, and the
    differences between the bots, with bootstrap intervals (the groups resampled)."""
    by_kind = {k: rows(entries, k) for k in KINDS}
    budget = entries[0]["review"]["budget"]
    groups = len({e["group"] for e in entries})
    seats = sum(e["kind"] == KINDS[0] for e in entries)
    print(f"{seats} reviewed seats per bot in {groups} groups (deals or games), 4-player "
          f"classic, budget {budget}; thresholds {THRESHOLDS}, shares {SHARES}, floor {FLOOR}; "
          f"95% bootstrap intervals over the groups")  # fmt: skip

    def one(kind: str, measure: Measure, keep: Callable[[Decision], bool] = anything,
            ) -> tuple[float, float, float]:  # fmt: skip
        return boot([per_group(by_kind[kind], measure, keep)], lambda m: m[0])

    print("bot      decisions  mistake+/decision     not good/decision     mean loss")
    for kind in KINDS:
        n = sum(len(g) for g in by_kind[kind].values())
        print(f"{kind:8} {n:9}  {fmt(one(kind, is_bad)):20}  "
              f"{fmt(one(kind, not_good)):20}  {fmt(one(kind, loss_pts), ' pts', 1)}")  # fmt: skip
    print("bot      picks: n, mistake+, mean loss          other: n, mistake+, mean loss")
    for kind in KINDS:
        cells = []
        for keep in (is_pick, lambda d: not is_pick(d)):
            n = sum(keep(d) for g in by_kind[kind].values() for d in g)
            cells.append(f"{n:4}, {fmt(one(kind, is_bad, keep))}, "
                         f"{fmt(one(kind, loss_pts, keep), '', 1)}")  # fmt: skip
        print(f"{kind:8} {cells[0]:40}  {cells[1]}")
    print("bot      mean chance  chose the best  2 legal actions  mistake+ with 3 or more")
    for kind in KINDS:
        chance = one(kind, lambda d: d["best"][0]["chance"])
        same = one(kind, lambda d: float(d["chosen"]["action"] == d["best"][0]["action"]))
        two = one(kind, lambda d: float(d["n_legal"] == 2))
        many = one(kind, is_bad, lambda d: d["n_legal"] >= 3)
        print(f"{kind:8} {100 * chance[0]:10.1f}%  {100 * same[0]:13.1f}%  "
              f"{100 * two[0]:14.1f}%  {fmt(many)}")  # fmt: skip
    print("scheme   bot      mistake+/decision     not good/decision")
    for scheme in ("points", "shares", "both"):
        for kind in KINDS:

            def marked(d: Decision, s: str = scheme) -> float:
                return float(scheme_label(d["loss"], d["best"][0]["chance"], s) in BAD)

            def off(d: Decision, s: str = scheme) -> float:
                return float(scheme_label(d["loss"], d["best"][0]["chance"], s) != "good")

            print(f"{scheme:8} {kind:8} {fmt(one(kind, marked)):20}  {fmt(one(kind, off))}")
    print("difference (paired by group)   mistake+/decision       mean loss")
    for a, b in (("random", "medium"), ("medium", "hard"), ("random", "hard")):

        def diff(measure: Measure, a: str = a, b: str = b) -> tuple[float, float, float]:
            parts = [per_group(by_kind[k], measure, anything) for k in (a, b)]
            return boot(parts, lambda m: m[0] - m[1])

        print(f"{a + ' - ' + b:30} {fmt(diff(is_bad), ' pts'):22}  "
              f"{fmt(diff(loss_pts), ' pts', 1)}")  # fmt: skip


def one_search(
    view: dict[str, Any], options: dict[str, Any], legal: list[Any], chosen: Any, budget: int
) -> tuple[float, float]:
    """The first way's loss and best estimate at a position (the review before the second
    evaluation): from the one search that chose, each compared action topped up to a fifth of
    the budget, the best being the largest of the compared estimates."""
    info = InformationSet.from_view(view, options)
    searcher = ISMCTSBot(None, iterations=budget, **SEARCH)
    searcher.rng = random.Random(_position_seed(0, view["seat"], view))
    floor = max(1, round(budget * 0.2))
    searcher.search(info, legal, view=view, floor=floor, evaluate=[chosen], evaluate_top=TOP)
    stats = {a: m for a, (v, m) in searcher.last_stats.items() if v >= floor or a == chosen}
    best = max(stats.values())
    return max(0.0, best - stats[chosen]), best


def compare(entries: list[dict[str, Any]], limit: int) -> None:
    """The same decisions' loss the first way (one search) and today's way (two)."""
    budget = entries[0]["review"]["budget"]
    print(f"compare: the first {limit} decisions of each bot, budget {budget}")
    print("bot      kind    n   mean loss: one search, two   mistake+: one search, two")
    started = time.process_time()
    for kind in KINDS:
        found: list[tuple[bool, float, float, float, float]] = []
        for e in entries:
            if e["kind"] != kind or len(found) >= limit:
                continue
            record = e["record"]
            seat = e["review"]["seat"]
            targets = {d["move"]: d for d in e["review"]["decisions"]}
            g = replay({**record, "actions": []})
            for i, obj in enumerate(record["actions"]):
                d = targets.get(i)
                if d is not None and len(found) < limit:
                    chosen = action_from_json(d["chosen"]["action"])
                    old, best = one_search(
                        g.view(seat), record["options"], g.legal_actions(), chosen, budget
                    )
                    found.append((is_pick(d), old, best, d["loss"], d["best"][0]["chance"]))
                g.apply_json(obj)
        for name, keep in (("picks", True), ("other", False)):
            part = [f for f in found if f[0] == keep]
            if not part:
                continue
            old = statistics.fmean(f[1] for f in part)
            new = statistics.fmean(f[3] for f in part)
            bad_old = statistics.fmean(label(f[1], f[2]) in BAD for f in part)
            bad_new = statistics.fmean(label(f[3], f[4]) in BAD for f in part)
            print(f"{kind:8} {name:6} {len(part):3}   {100 * old:5.2f} pts, {100 * new:5.2f} pts"
                  f"        {100 * bad_old:5.1f}%, {100 * bad_new:5.1f}%")  # fmt: skip
    print(f"({time.process_time() - started:.0f} s CPU)")


def speed(budget: int) -> None:
    game, _ = played("hard", 0)
    seat = 0
    cpu, wall = time.process_time(), time.perf_counter()
    review = review_game(game, seat, budget=budget)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"review of seat {seat}, 4-player classic game of hard bots ({len(game.actions)} moves, "
        f"{len(review.decisions)} decisions with a choice, {len(review.curve)} curve points) "
        f"at budget {budget}: {cpu:.1f} s CPU, {wall:.1f} s wall"
    )
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"], **record["options"])
    times: list[float] = []
    walls: list[float] = []
    for obj in record["actions"]:
        if g.to_move == seat and len(g.legal_actions()) > 1 and 2 <= g.round <= 4:
            t, w = time.process_time(), time.perf_counter()
            hint(g, seat, budget)
            times.append(time.process_time() - t)
            walls.append(time.perf_counter() - w)
        g.apply_json(obj)
    print(
        f"hint at budget {budget}: mean {statistics.fmean(times):.3f} s CPU, "
        f"max {max(times):.3f} s over {len(times)} positions (wall: mean "
        f"{statistics.fmean(walls):.3f} s, max {max(walls):.3f} s)"
    )


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and a 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def win_share(game: Game, seat: int) -> float:
    winners = game.result().winners
    return 1.0 / len(winners) if seat in winners else 0.0


def quality(
    entries: list[dict[str, Any]],
    playouts: int,
    playout_bot: str = "medium",
    at: str = "mistake",
    kinds: Sequence[str] = KINDS,
    only: str = "all",
) -> None:
    """The review's best against the action chosen, played out (``kinds``' seats only; ``only``
    ``picks`` or ``other`` keeps the character picks or the other decisions)."""
    diffs: list[float] = []
    best_wins: list[float] = []
    chosen_wins: list[float] = []
    started = time.process_time()
    for e in entries:
        if e["kind"] not in kinds:
            continue
        record = e["record"]
        seat = e["review"]["seat"]
        targets = {
            d["move"]: d
            for d in e["review"]["decisions"]
            if LABELS.index(relabel(d)) >= LABELS.index(at)
            and (only == "all" or is_pick(d) == (only == "picks"))
        }
        if not targets:
            continue
        g = replay({**record, "actions": []})
        for i, obj in enumerate(record["actions"]):
            d = targets.get(i)
            if d is not None:
                after = {"best": 0.0, "chosen": 0.0}
                branches = (("best", d["best"][0]["action"]), ("chosen", d["chosen"]["action"]))
                for k in range(playouts):
                    for branch, action in branches:
                        h = g.copy()
                        h.apply(action_from_json(action), seat)
                        seeds = [BASE_SEED + 1000 * i + 10 * k + s for s in range(PLAYERS)]
                        play_game(h, [make_bot(playout_bot, seed=x) for x in seeds])
                        after[branch] += win_share(h, seat) / playouts
                best_wins.append(after["best"])
                chosen_wins.append(after["chosen"])
                diffs.append(after["best"] - after["chosen"])
            g.apply_json(obj)
    spent = time.process_time() - started
    print(
        f"quality: {len(diffs)} decisions ({only}) of {', '.join(kinds)} called {at} or worse, "
        f"{playouts} playouts each "
        f"by {playout_bot} bots from the real deal ({spent:.0f} s CPU)"
    )
    if not diffs:
        return
    print(f"  seat's win share after the review's best action: {fmt(interval(best_wins))}")
    print(f"  seat's win share after the action chosen:        {fmt(interval(chosen_wins))}")
    m = interval(diffs)
    print(f"  best minus chosen, paired: {100 * m[0]:+.1f} points [{100 * m[1]:+.1f}, "
          f"{100 * m[2]:+.1f}]")  # fmt: skip
    better = sum(x > 0 for x in diffs)
    worse = sum(x < 0 for x in diffs)
    print(f"  decisions where best did better: {better}, worse: {worse}, "
          f"equal: {len(diffs) - better - worse}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=("speed", "mixed", "labels", "compare", "quality"))
    parser.add_argument("--games", type=int, default=8, help="games per bot (labels)")
    parser.add_argument("--deals", type=int, default=4, help="deals, 4 games each (mixed)")
    parser.add_argument("--playouts", type=int, default=20, help="playouts per branch (quality)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--playout-bot", default="medium", help="the playouts' bot (quality)")
    parser.add_argument("--at", default="mistake", choices=LABELS[1:], help="least label tested")
    parser.add_argument("--limit", type=int, default=40, help="decisions per bot (compare)")
    parser.add_argument("--save", help="write the reviews (JSON) to this file")
    parser.add_argument("--load", nargs="+", help="read the reviews from these files instead")
    parser.add_argument("--first", type=int, default=0, help="the first game or deal's index")
    parser.add_argument("--kinds", nargs="+", default=KINDS, choices=KINDS,
                        help="bots (labels, quality)")  # fmt: skip
    parser.add_argument("--only", default="all", choices=("all", "picks", "other"),
                        help="which decisions (quality)")  # fmt: skip
    args = parser.parse_args()
    if args.part == "speed":
        speed(args.budget)
        return

    def save(entries: list[dict[str, Any]]) -> None:
        if args.save:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump(entries, f)

    if args.load:
        entries: list[dict[str, Any]] = []
        for name in args.load:
            with open(name, encoding="utf-8") as f:
                entries += json.load(f)
    elif args.part == "labels":
        entries = review_games(args.games, args.budget, args.first, tuple(args.kinds))
    else:
        entries = review_mixed(args.deals, args.budget, args.first, save)
    save(entries)
    table(entries)
    if args.part == "compare":
        compare(entries, args.limit)
    if args.part == "quality":
        quality(entries, args.playouts, args.playout_bot, args.at, args.kinds, args.only)


if __name__ == "__main__":
    main()
