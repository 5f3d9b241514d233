"""The bot levels' ratings: games among the server's bot levels, fitted with OpenSkill's
Plackett–Luce model (the model the server rates people with, docs/accounts.md).

Game ``i`` deals ``new_game(edition, 4, seed=20280000 + i)`` and seats the four levels
(``random``, ``easy``, ``medium``, ``hard`` as the server plays them: ``hard`` at the server's
``HARD_ITERATIONS``) in the order of the ``i``-th permutation of a fixed shuffle, so every
level plays every seat. Every level starts at the model's prior (mu 25, sigma 25/3, shown as
1500); the fit replays the games in order through the model's updates (``--passes`` more than
1 replays them again from the ratings the last pass ended with, sigma reset to the prior's),
and prints each level's mu, sigma, displayed rating and wins.

Run from the repository with the package installed::

    python benchmarks/bot_ratings.py --games 160 --json out/bot_ratings.json

A run is reproducible (the bots' seeds are derived from the game's number).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

from citadels.engine.game import new_game
from citadels.server.botpool import _bot
from citadels.server.ratings import MU, SIGMA, display, fit
from citadels.sim.random_games import play_game

LEVELS = ("random", "easy", "medium", "hard")
SEED_BASE = 20280000


def play(games: int, edition: str) -> list[list[str]]:
    """Each game's levels from first place to last (a tie broken by seat)."""
    orders = list(itertools.permutations(LEVELS))
    random.Random(7).shuffle(orders)
    out: list[list[str]] = []
    for i in range(games):
        levels = list(orders[i % len(orders)])
        game = new_game(edition, len(levels), seed=SEED_BASE + i)
        bots = [_bot(level, seed=SEED_BASE * 10 + i * 8 + s) for s, level in enumerate(levels)]
        play_game(game, bots)
        ranks = [r.rank for r in game.result()]
        order = sorted(range(len(levels)), key=lambda s: (ranks[s], s))
        out.append([levels[s] for s in order])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    started = time.monotonic()
    results = play(args.games, args.edition)
    seconds = time.monotonic() - started
    ratings = fit(results, passes=args.passes)
    wins = {lv: sum(r[0] == lv for r in results) for lv in LEVELS}
    report: dict[str, Any] = {
        "games": args.games,
        "edition": args.edition,
        "passes": args.passes,
        "seconds": round(seconds, 1),
        "prior": {"mu": MU, "sigma": SIGMA},
        "levels": {
            lv: {
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "rating": display(mu),
                "wins": wins[lv],
            }
            for lv, (mu, sigma) in ratings.items()
        },
    }
    print(json.dumps(report, indent=2))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
