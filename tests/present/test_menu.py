"""The menu order and marks of present.menu: grouped by target, the turn's end marked."""

from __future__ import annotations

import random

import pytest

from citadels import new_game
from citadels.engine import actions as A
from citadels.engine.game import Game
from citadels.present.menu import menu_entries, target_of


def play_until(game: Game, wanted: type[A.Action], seed: int) -> bool:
    """Play random moves until ``wanted`` is legal; False when the game ended first."""
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        if any(isinstance(a, wanted) for a in legal):
            return True
        game.apply(rng.choice(legal))
    return False


def test_the_warlords_menu_groups_targets_and_puts_his_own_city_last() -> None:
    """C-27: the Warlord may destroy in his own city; that group comes after every other
    seat's, builds come before destroys, and the turn's end is last."""
    found = 0
    for seed in range(60):
        game = new_game("classic", players=4, seed=seed)
        if not play_until(game, A.Destroy, seed):
            continue
        me = game.to_move
        assert me is not None
        entries = menu_entries(game, me)
        assert sorted(e.action.to_json()["type"] for e in entries) == sorted(
            a.to_json()["type"] for a in game.legal_actions()
        )
        kinds = [
            "end" if isinstance(e.action, A.EndTurn) else "free" if e.target is None else "aimed"
            for e in entries
        ]
        assert kinds == sorted(kinds, key=["free", "aimed", "end"].index)
        targets = [e.target for e in entries if e.target is not None]
        order = [(t - me) % 4 or 4 for t in targets]
        assert order == sorted(order)
        for e in entries:
            assert e.harms_self == (isinstance(e.action, A.Destroy) and e.action.seat == me)
        if any(e.harms_self for e in entries):
            found += 1
    assert found >= 3


@pytest.mark.parametrize("edition", ["classic", "dezh", "basic", "2016"])
def test_ends_turn_says_what_applying_does(edition: str) -> None:
    """Game.ends_turn is true exactly when the turn's character is done after the action:
    EndTurn always; the Warlord's destruction in classic (he destroys at the end of his turn,
    C-27), not where he destroys at any time."""
    rng = random.Random(5)
    ended = kept = 0
    for seed in range(12):
        game = new_game(edition, players=4, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            turn = game.state.turn
            for action in legal:
                says = game.ends_turn(action)
                if isinstance(action, A.EndTurn):
                    assert says
                trial = game.copy()
                trial.apply(action)
                after = trial.state.turn
                if turn is None or game.state.phase != "turns" or game.to_move != turn.seat:
                    assert not says
                    continue
                done = after is None or after.ending or after.seat != turn.seat
                assert says == done
                ended += says
                kept += not says
            game.apply(rng.choice(legal))
    assert ended > 50 and kept > 50


def test_destroying_ends_the_classic_warlords_turn_and_not_the_dezh_one() -> None:
    """B-2/D-7/K-4: the Warlord's timing per edition decides whether destroying ends the turn."""
    seen = {}
    for edition in ("classic", "dezh"):
        for seed in range(40):
            game = new_game(edition, players=4, seed=seed)
            if play_until(game, A.Destroy, seed):
                destroy = next(a for a in game.legal_actions() if isinstance(a, A.Destroy))
                seen[edition] = game.ends_turn(destroy)
                break
    assert seen == {"classic": True, "dezh": False}


def test_target_of_names_a_seat_only_for_aimed_actions() -> None:
    assert target_of(A.Destroy(2, "market")) == 2
    assert target_of(A.TakeFromRichest(-1)) is None
    assert target_of(A.Murder("king")) is None
    assert target_of(A.Build("market")) is None
