"""How good and how fast is the game review (``citadels.review``)? Bounded measurements.

Three parts, each printing the figures docs/review.md quotes:

``speed``
    One seat's review of a 4-player ``classic`` game played by ``hard`` bots at the default
    budget, on one core (CPU time and wall time), and a hint at the default budget (the mean
    over the seat's positions of the first game's rounds 2 to 4).

``labels``
    Game ``i`` is ``new_game("classic", 4, seed=BASE + i)`` with the bot under test at seat
    ``i % 4`` and ``medium`` bots at the other seats, for each of ``random``, ``medium`` and
    ``hard``; the bot's seat is reviewed. Prints, per bot, the decisions reviewed, the share
    labelled mistake or blunder, the share not labelled good and the mean loss, each with a 95%
    confidence interval over the games (normal approximation of the per-game figures).

``quality``
    For every decision the ``labels`` games' reviews call a mistake or a blunder, the real game
    at that moment (its deal fixed: hands, deck and generator as they were) is played on twice
    per playout seed: once after the action the review calls best, once after the action the
    seat chose, every seat then played by ``medium`` bots seeded alike in both branches. Prints
    the reviewed seat's win share after each, and the mean paired difference with its 95%
    confidence interval over the decisions (each decision's difference averaged over its
    playouts first).

Run from the repository with the package installed (one process; nice it on a shared machine)::

    nice python benchmarks/review.py speed
    nice python benchmarks/review.py labels --games 8
    nice python benchmarks/review.py quality --games 8 --playouts 20

``labels`` and ``quality`` share their reviews (``quality`` runs ``labels`` first); ``--budget``
changes the review budget of both (default: ``citadels.review.DEFAULT_BUDGET``). ``--save FILE``
writes the reviews (with each game's record and bot) as JSON and ``--load FILE`` reads them back
instead of playing and reviewing again; the labels are set from the losses by the current
``citadels.review.THRESHOLDS`` either way.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from citadels.bots import make_bot
from citadels.engine.actions import action_from_json
from citadels.engine.game import Game, new_game, replay
from citadels.review import (
    DEFAULT_BUDGET,
    FLOOR,
    LABELS,
    SHARES,
    THRESHOLDS,
    hint,
    label,
    review_game,
)
from citadels.sim import play_game

BASE_SEED = 20_261_227
PLAYERS = 4
KINDS = ("random", "medium", "hard")


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


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and a 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def pct(x: tuple[float, float, float]) -> str:
    return f"{100 * x[0]:.1f}% [{100 * x[1]:.1f}, {100 * x[2]:.1f}]"


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
    for obj in record["actions"]:
        if g.to_move == seat and len(g.legal_actions()) > 1 and 2 <= g.round <= 4:
            t = time.process_time()
            hint(g, seat, budget)
            times.append(time.process_time() - t)
        g.apply_json(obj)
    print(
        f"hint at budget {budget}: mean {statistics.fmean(times):.3f} s CPU, "
        f"max {max(times):.3f} s over {len(times)} positions"
    )


def review_games(
    games: int, budget: int, first: int = 0, kinds: tuple[str, ...] = KINDS
) -> list[dict[str, Any]]:
    """Games ``first`` to ``first + games - 1`` of every bot in ``kinds`` reviewed: per game
    its bot's ``kind``, its record and its review."""
    out: list[dict[str, Any]] = []
    for kind in kinds:
        started = time.process_time()
        for i in range(first, first + games):
            game, seat = played(kind, i)
            review = review_game(game, seat, budget=budget)
            out.append({"kind": kind, "record": game.record(), "review": review.to_json()})
        print(f"{kind}: {games} games reviewed in {time.process_time() - started:.0f} s CPU")
    return out


def relabel(decision: dict[str, Any]) -> str:
    """A reviewed decision's label by today's :func:`citadels.review.label`."""
    return label(decision["loss"], decision["best"][0]["chance"])


def scheme_label(loss: float, best: float, scheme: str) -> str:
    """The label of a decision under one of the labellings compared in ``schemes``: the
    points alone (``points``), the share of the best chance alone with the floor
    (``shares``), both (``both``, :func:`citadels.review.label`), or the loss in log-odds
    (``logodds``, with the floor; thresholds 0.25, 0.5, 1)."""
    if scheme == "both":
        return label(loss, best)
    found = "good"
    for i, name in enumerate(LABELS[1:]):
        if scheme == "points":
            hit = loss >= THRESHOLDS[name]
        elif scheme == "shares":
            hit = loss >= FLOOR and best > 0 and loss / best >= SHARES[name]
        else:
            hi = min(1 - 1e-3, max(2e-3, best))
            lo = min(hi - 1e-3, max(1e-3, best - loss))
            odds = math.log(hi / (1 - hi)) - math.log(lo / (1 - lo))
            hit = loss >= FLOOR and odds >= (0.25, 0.5, 1.0)[i]
        if hit:
            found = name
    return found


def schemes(entries: list[dict[str, Any]]) -> None:
    """Per labelling and bot: the share of decisions marked mistake or worse and not good,
    with 95% intervals over the games (the reasoning of docs/review.md's thresholds)."""
    print("scheme    bot      mistake+blunder/decision  not good/decision")
    for scheme in ("points", "shares", "both", "logodds"):
        for kind in KINDS:
            bad: list[float] = []
            off: list[float] = []
            for e in entries:
                if e["kind"] != kind:
                    continue
                ds = e["review"]["decisions"]
                found = [scheme_label(d["loss"], d["best"][0]["chance"], scheme) for d in ds]
                bad.append(sum(x in ("mistake", "blunder") for x in found) / len(found))
                off.append(sum(x != "good" for x in found) / len(found))
            print(f"{scheme:9} {kind:8} {pct(interval(bad)):24}  {pct(interval(off))}")


def labels(entries: list[dict[str, Any]]) -> None:
    """The label figures per bot, the labels set by the current thresholds."""
    budget = entries[0]["review"]["budget"]
    games = sum(e["kind"] == KINDS[0] for e in entries)
    print(f"labels: {games} games per bot, 4-player classic, budget {budget}, "
          f"thresholds {THRESHOLDS}, shares {SHARES}, floor {FLOOR}")  # fmt: skip
    print("bot      decisions  mistake+blunder/decision  not good/decision         mean loss")
    for kind in KINDS:
        bad: list[float] = []
        off: list[float] = []
        loss: list[float] = []
        decisions = 0
        for e in entries:
            if e["kind"] != kind:
                continue
            found = [relabel(d) for d in e["review"]["decisions"]]
            n = len(found)
            decisions += n
            bad.append(sum(x in ("mistake", "blunder") for x in found) / n)
            off.append(sum(x != "good" for x in found) / n)
            loss.append(statistics.fmean(d["loss"] for d in e["review"]["decisions"]))
        m = interval(loss)
        print(
            f"{kind:8} {decisions:9}  {pct(interval(bad)):24}  {pct(interval(off)):24}  "
            f"{100 * m[0]:.2f} pts [{100 * m[1]:.2f}, {100 * m[2]:.2f}]"
        )
    print("bot      mean chance  loss/chance  rounds 1-3: mean loss, share not good")
    for kind in KINDS:
        ds = [d for e in entries if e["kind"] == kind for d in e["review"]["decisions"]]
        best = [d["best"][0]["chance"] for d in ds]
        rel = [d["loss"] / b if b > 0 else 0.0 for d, b in zip(ds, best, strict=True)]
        early = [d["loss"] for d in ds if d["round"] <= 3]
        off_early = sum(relabel(d) != "good" for d in ds if d["round"] <= 3) / len(early)
        print(
            f"{kind:8} {100 * statistics.fmean(best):10.1f}%  {100 * statistics.fmean(rel):10.1f}%"
            f"  {100 * statistics.fmean(early):.2f} pts, {100 * off_early:.1f}% of {len(early)}"
        )
    print("bot      character picks: mean loss, share mistake+   other decisions: the same")
    for kind in KINDS:
        ds = [d for e in entries if e["kind"] == kind for d in e["review"]["decisions"]]
        cells = []
        for picks in (True, False):
            part = [d for d in ds if (d["chosen"]["action"]["type"] == "pick") == picks]
            bad = sum(relabel(d) in ("mistake", "blunder") for d in part) / len(part)
            mean = statistics.fmean(d["loss"] for d in part)
            cells.append(f"{100 * mean:.2f} pts, {100 * bad:4.1f}% of {len(part):4}")
        print(f"{kind:8} {cells[0]:36}  {cells[1]}")


def win_share(game: Game, seat: int) -> float:
    winners = game.result().winners
    return 1.0 / len(winners) if seat in winners else 0.0


def quality(
    entries: list[dict[str, Any]], playouts: int, playout_bot: str = "medium", at: str = "mistake"
) -> None:
    diffs: list[float] = []
    best_wins: list[float] = []
    chosen_wins: list[float] = []
    started = time.process_time()
    for e in entries:
        record = e["record"]
        seat = e["review"]["seat"]
        targets = {
            d["move"]: d
            for d in e["review"]["decisions"]
            if LABELS.index(relabel(d)) >= LABELS.index(at)
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
        f"quality: {len(diffs)} decisions called {at} or worse, {playouts} playouts each "
        f"by {playout_bot} bots from the real deal ({spent:.0f} s CPU)"
    )
    if not diffs:
        return
    print(f"  seat's win share after the review's best action: {pct(interval(best_wins))}")
    print(f"  seat's win share after the action chosen:        {pct(interval(chosen_wins))}")
    m = interval(diffs)
    print(f"  best minus chosen, paired: {100 * m[0]:+.1f} points [{100 * m[1]:+.1f}, "
          f"{100 * m[2]:+.1f}]")  # fmt: skip
    better = sum(x > 0 for x in diffs)
    worse = sum(x < 0 for x in diffs)
    print(f"  decisions where best did better: {better}, worse: {worse}, "
          f"equal: {len(diffs) - better - worse}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=("speed", "labels", "schemes", "quality"))
    parser.add_argument("--games", type=int, default=8, help="games per bot (labels, quality)")
    parser.add_argument("--playouts", type=int, default=20, help="playouts per branch (quality)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--playout-bot", default="medium", help="the playouts' bot (quality)")
    parser.add_argument("--at", default="mistake", choices=LABELS[1:], help="least label tested")
    parser.add_argument("--save", help="write the reviews (JSON) to this file")
    parser.add_argument("--load", nargs="+", help="read the reviews from these files instead")
    parser.add_argument("--first", type=int, default=0, help="the first game's index (labels)")
    parser.add_argument("--kinds", nargs="+", default=KINDS, choices=KINDS, help="bots reviewed")
    args = parser.parse_args()
    if args.part == "speed":
        speed(args.budget)
        return
    if args.load:
        entries = []
        for name in args.load:
            with open(name, encoding="utf-8") as f:
                entries += json.load(f)
    else:
        entries = review_games(args.games, args.budget, args.first, tuple(args.kinds))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump(entries, f)
    labels(entries)
    if args.part == "schemes":
        schemes(entries)
    if args.part == "quality":
        quality(entries, args.playouts, args.playout_bot, args.at)


if __name__ == "__main__":
    main()
