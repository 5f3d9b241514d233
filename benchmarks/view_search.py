"""Does the search play the same from its view alone? A bounded check, 4-player `classic`.

Game ``i`` is ``new_game("classic", 4, seed=BASE + i)``; an ``ismcts`` bot sits at seat
``i % 4`` against three heuristic bots, and plays the game twice: once with the sampler of the
live game (``attach_samplers``, as ``play_game`` does) and once from its view alone (the whole
view every decision, its setup options in ``bot.options``, no sampler). The two samplers deal
the same worlds for the same generator, so every decision, hence every game, must be the same;
the script counts the search bot's wins in both, the decisions that differ, and the time each
way takes per decision.

Run from the repository with the package installed::

    python benchmarks/view_search.py --games 20 --iterations 200
"""

from __future__ import annotations

import argparse
import time

from citadels import new_game
from citadels.bots import HeuristicBot, ISMCTSBot, attach_samplers
from citadels.engine.actions import Action

BASE_SEED = 20_241_400
PLAYERS = 4


def play(i: int, iterations: int, from_view: bool) -> tuple[float, list[Action], float, int]:
    """Game ``i``: the search bot's win share, its choices, its thinking time and decisions."""
    game = new_game("classic", PLAYERS, seed=BASE_SEED + i)
    focus = i % PLAYERS
    bots: list[object] = [HeuristicBot(i * 10 + seat) for seat in range(PLAYERS)]
    search = ISMCTSBot(i * 10 + focus, iterations=iterations)
    bots[focus] = search
    if not from_view:
        attach_samplers(game, bots)
    choices: list[Action] = []
    spent = 0.0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        if seat == focus:
            view = game.view(seat) if from_view else game.view(seat, log_from=game.log_size)
            start = time.perf_counter()
            action = search.choose(view, legal)
            spent += time.perf_counter() - start
            choices.append(action)
        else:
            bot = bots[seat]
            assert isinstance(bot, HeuristicBot)
            action = bot.choose(game.view(seat, log_from=game.log_size), legal)
        game.apply(action, seat)
    winners = game.result().winners
    share = 1 / len(winners) if focus in winners else 0.0
    return share, choices, spent, len(choices)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    wins = {False: 0.0, True: 0.0}
    spent = {False: 0.0, True: 0.0}
    decisions = 0
    differ = 0
    for i in range(args.games):
        a = play(i, args.iterations, from_view=False)
        b = play(i, args.iterations, from_view=True)
        wins[False] += a[0]
        wins[True] += b[0]
        spent[False] += a[2]
        spent[True] += b[2]
        decisions += a[3]
        differ += sum(x != y for x, y in zip(a[1], b[1], strict=False)) + abs(a[3] - b[3])
    games = args.games
    print(f"{games} games, ismcts({args.iterations}) vs 3 heuristic, 4-player classic")
    for key, name in ((False, "game's sampler"), (True, "view alone")):
        ms = 1000 * spent[key] / max(1, decisions)
        print(f"  {name:15} wins {wins[key]:.1f}/{games}  {ms:.0f} ms per decision")
    print(f"  decisions of the search bot: {decisions}, different between the two: {differ}")


if __name__ == "__main__":
    main()
