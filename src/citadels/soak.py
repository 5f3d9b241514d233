"""The long conformance soak: ``python -m citadels.soak --games 100000``.

Plays random games over every edition and player count with every invariant of
``citadels.conformance`` checked (deep checks sampled more sparsely than in the test suite),
spread over all cores. Any failure prints the edition, seed and decision to replay it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from citadels.conformance import ConformanceError, Stats, play_checked, random_setup
from citadels.editions import EDITIONS


def configurations() -> list[tuple[str, int, bool]]:
    """Every (edition, player count, random setup?) the soak plays: default setups for 2–7
    players, and random character sets and decks (``random_setup``) for 2–8."""
    configs = [(e.id, n, False) for e in EDITIONS.values() for n in range(e.min_players, 8)]
    configs += [
        (e.id, n, True)
        for e in EDITIONS.values()
        if e.presets
        for n in range(e.min_players, e.max_players + 1)
    ]
    return configs


def run_chunk(start: int, count: int) -> tuple[int, int, list[str]]:
    """Play games ``start`` … ``start + count - 1``; returns (games, decisions, failures)."""
    configs = configurations()
    stats = Stats()
    failures: list[str] = []
    for i in range(start, start + count):
        edition, players, randomised = configs[i % len(configs)]
        options = random_setup(edition, players, random.Random(i)) if randomised else {}
        try:
            play_checked(
                edition, players, seed=i, deep_every=400, views_every=100, stats=stats, **options
            )
        except ConformanceError as exc:
            failures.append(str(exc))
    return stats.games, stats.decisions, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=500)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games = decisions = 0
    failures: list[str] = []
    chunks = [
        (s, min(args.chunk, args.start + args.games - s))
        for s in range(args.start, args.start + args.games, args.chunk)
    ]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for g, d, f in pool.map(run_chunk, *zip(*chunks, strict=True)):
            games += g
            decisions += d
            failures.extend(f)
            elapsed = time.perf_counter() - started
            print(
                f"\r{games + len(failures):>8} games, {len(failures)} failed, "
                f"{games / elapsed:,.0f} games/s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    elapsed = time.perf_counter() - started
    print(file=sys.stderr)
    print(
        f"soak: {games} games passed, {len(failures)} failed, {decisions} decisions, "
        f"{elapsed:.0f} s over {len(configurations())} edition/player configurations"
    )
    for failure in failures[:20]:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
