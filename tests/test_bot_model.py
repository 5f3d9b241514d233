"""The search's opponent model (citadels.bots.model): the draft model makes a seat that took
something else over a character it would clearly have wanted less likely to have seen it,
and the weighted worlds stay consistent with the view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from citadels import Game, new_game
from citadels.bots import HeuristicBot, ISMCTSBot
from citadels.bots.model import DraftModel, WeightedWorlds
from citadels.engine.determinize import InformationSet
from citadels.engine.state import GameState

GREEN = ["market", "tavern", "trading_post", "docks", "harbor"]


def draft_until_last_chooser(seed: int) -> tuple[Game, int, int]:
    """A 4-player `classic` game in round 1's selection, the last chooser to move. The seat
    right after the crown has a city of five green districts, so the heuristic players (who
    make every pick) take the Merchant as soon as it is offered to them. Returns the game, the
    last chooser and the green seat."""
    game = new_game("classic", 4, seed=seed)
    s = game.state
    crown = s.crown
    green = (crown + 1) % 4
    s.players[green].city = GREEN[:]
    s.players[green].built_round = [0] * len(GREEN)
    last = (crown + 3) % 4
    bots = [HeuristicBot(seat) for seat in range(4)]
    while game.to_move != last:
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat)
    return game, last, green


def as_game(state: GameState) -> Game:
    return Game(state, {"edition": "classic", "players": 4, "options": {}, "seed": 0})


def holder(state: GameState, character: str) -> int | None:
    for p in state.players:
        if character in p.characters:
            return int(p.seat)
    return None


def test_a_seat_that_wanted_a_character_it_did_not_leave_is_likelier_to_hold_it() -> None:
    """R-C-4 (the selection is secret): the last chooser does not see the Merchant. The green
    seat, who picked before him, would have taken it if offered: the model makes it likelier
    to hold it than the uniform sampler does, and every weighted world shows the same view."""
    for seed in range(40):
        game, me, green = draft_until_last_chooser(seed)
        offered = {a.character for a in game.legal_actions()}  # type: ignore[attr-defined]
        if "merchant" not in offered and "merchant" not in game.state.faceup:
            break
    else:
        pytest.fail("no deal where the Merchant was taken before the last chooser")
    assert holder(game.state, "merchant") == green  # the heuristic did take it
    info = InformationSet(game, me)
    view = game.view(me)
    uniform = Counter(holder(info.sample(random.Random(k)).state, "merchant") for k in range(400))
    worlds = WeightedWorlds(info, DraftModel(view, temperature=0.5), random.Random(1), pool=200)
    rng = random.Random(2)
    weighted: Counter[int | None] = Counter()
    for _ in range(400):
        world = worlds.sample(rng)
        weighted[holder(world, "merchant")] += 1
        assert as_game(world).view(me) == view
    assert weighted[green] > uniform[green] + 60
    assert worlds.effective < 200


def test_without_hidden_picks_the_weighted_worlds_are_the_exact_sampler() -> None:
    """The first chooser of round 1 has no other seat's pick to weigh: every world weighs
    the same and the worlds are the information set's own samples."""
    game = new_game("classic", 4, seed=3)
    seat = game.to_move
    assert seat is not None
    info = InformationSet(game, seat)
    worlds = WeightedWorlds(info, DraftModel(game.view(seat)), random.Random(0), pool=16)
    assert worlds.uniform
    assert worlds.effective == pytest.approx(16)
    a = worlds.sample(random.Random(5))
    b = info.sample(random.Random(5)).state
    assert as_game(a).to_json() == as_game(b).to_json()


def test_redeal_keeps_the_characters_and_deals_the_cards_again() -> None:
    game, me, _ = draft_until_last_chooser(4)
    info = InformationSet(game, me)
    world = info.sample(random.Random(1)).state
    again = info.redeal(world, random.Random(2))
    assert [p.characters for p in again.players] == [p.characters for p in world.players]
    assert again.facedown == world.facedown
    others = [p.hand for p in again.players if p.seat != me]
    assert others != [p.hand for p in world.players if p.seat != me]
    assert game.view(me) == as_game(again).view(me)


def test_draft_model_refuses_a_temperature_of_zero() -> None:
    game = new_game("classic", 4, seed=1)
    with pytest.raises(ValueError, match="temperature"):
        DraftModel(game.view(0), temperature=0)
    with pytest.raises(ValueError, match="draft_model"):
        ISMCTSBot(1, draft_model=-1.0)
