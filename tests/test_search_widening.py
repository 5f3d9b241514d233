"""Progressive widening of the search (ISMCTSBot(widening=…)): a node holds at most
2 (n + 1) ** widening moves, let in by widening_rank, so the Warlord's long list of
destructions (C-27) is not all tried at once."""

from __future__ import annotations

import math

import pytest

from citadels import Game, new_game
from citadels.bots import HeuristicBot, ISMCTSBot
from citadels.bots.ismcts import widening_rank
from citadels.engine.actions import Build, Destroy, EndTurn
from citadels.engine.determinize import SeatSampler


def warlord_with_many_targets() -> tuple[Game, int]:
    """A 4-player `classic` game of heuristic bots at the first decision with at least 15
    destructions on offer (C-27)."""
    for seed in range(40):
        game = new_game("classic", 4, seed=seed)
        bots = [HeuristicBot(seat) for seat in range(4)]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            if sum(isinstance(a, Destroy) for a in legal) >= 15:
                return game, seat
            game.apply(bots[seat].choose(game.view(seat), legal), seat)
    raise AssertionError("no Warlord turn with 15 targets in 40 games")


def search(game: Game, seat: int, widening: float, iterations: int = 200) -> ISMCTSBot:
    bot = ISMCTSBot(1, iterations=iterations, rollout="bot", widening=widening)
    bot.attach(SeatSampler(game, seat))
    assert bot.choose(game.view(seat), game.legal_actions()) in game.legal_actions()
    return bot


def test_C27_widening_bounds_the_moves_tried_at_the_root() -> None:
    game, seat = warlord_with_many_targets()
    legal = game.legal_actions()
    wide = search(game, seat, 0.0)
    assert len(wide.last_stats) == len(legal)  # every move tried without widening
    narrow = search(game, seat, 0.3)
    limit = 2 * (200 + 1) ** 0.3
    assert len(narrow.last_stats) == math.ceil(limit)
    assert len(narrow.last_stats) < len(legal)
    # The moves let in are the first by widening_rank: the others held back are all ranked
    # after every one of them.
    s = game.state
    tried = sorted(widening_rank(s, a) for a in narrow.last_stats)
    held = [widening_rank(s, a) for a in legal if a not in narrow.last_stats]
    assert held and min(held) >= tried[-1]


def test_widening_rank_orders_the_turn_then_builds_then_the_largest_cities() -> None:
    game, _ = warlord_with_many_targets()
    s = game.state
    legal = game.legal_actions()
    ranks = {a: widening_rank(s, a) for a in legal}
    for a in legal:
        if isinstance(a, EndTurn):
            assert ranks[a] == (0, 0)
    builds = [a for a in legal if isinstance(a, Build)]
    destroys = [a for a in legal if isinstance(a, Destroy)]
    if builds:
        assert max(ranks[b] for b in builds) < min(ranks[d] for d in destroys)
    first = min(destroys, key=ranks.__getitem__)
    assert s.city_size(first.seat) == max(s.city_size(d.seat) for d in destroys)


def test_widening_keeps_the_search_reproducible_and_validated() -> None:
    game, seat = warlord_with_many_targets()
    a = search(game, seat, 0.3, iterations=100)
    b = search(game, seat, 0.3, iterations=100)
    assert a.last_stats == b.last_stats
    for bad in (-0.1, 1.0, 2):
        with pytest.raises(ValueError, match="widening must be a number from 0 up to 1"):
            ISMCTSBot(widening=bad)
