"""The search's opponent model (citadels.bots.model): the draft model makes a seat that took
something else over a character it would clearly have wanted less likely to have seen it,
and the weighted worlds stay consistent with the view."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from citadels import Game, new_game
from citadels.bots import HeuristicBot, ISMCTSBot, make_bot
from citadels.bots.ismcts import bot_policy, modelled_policy
from citadels.bots.model import SEARCH_TEMPERATURE, DraftModel, WeightedWorlds
from citadels.engine import rules
from citadels.engine.actions import PickCharacter
from citadels.engine.determinize import InformationSet
from citadels.engine.state import SELECTION, GameState

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


def last_chooser_missing(character: str) -> tuple[Game, int, int]:
    """The first deal of :func:`draft_until_last_chooser` where ``character`` is neither
    offered to the last chooser nor face up: another seat took it, or it is face down."""
    for seed in range(60):
        game, me, green = draft_until_last_chooser(seed)
        offered = {a.character for a in game.legal_actions()}  # type: ignore[attr-defined]
        if character not in offered and character not in game.state.faceup:
            return game, me, green
    pytest.fail(f"no deal where the {character} was gone before the last chooser")


def test_a_seat_that_wanted_a_character_it_did_not_leave_is_likelier_to_hold_it() -> None:
    """R-C-4 (the selection is secret): the last chooser does not see the Merchant. The green
    seat, who picked before him, would have taken it if offered: the model makes it likelier
    to hold it than the uniform sampler does, and every weighted world shows the same view."""
    game, me, green = last_chooser_missing("merchant")
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


def test_the_search_pick_model_expects_the_first_chooser_to_have_taken_the_architect() -> None:
    """R-C-4 (the selection is secret): the last chooser sees neither the Architect nor the
    other seats' picks. Search players take the Architect when it is offered (the ``"search"``
    pick model's bias, fitted by tools/fit_pick_model.py), so under that model the crown, who
    chose first from every character left, holds it far more often than under the uniform
    sampler or the heuristic's values alone; every weighted world shows the real view."""
    game, me, _ = last_chooser_missing("architect")
    crown = game.state.crown
    info = InformationSet(game, me)
    view = game.view(me)

    def crown_holds(model: DraftModel | None) -> int:
        rng = random.Random(2)
        if model is None:
            worlds = [info.sample(rng).state for _ in range(400)]
        else:
            weighted = WeightedWorlds(info, model, random.Random(1), pool=200)
            worlds = [weighted.sample(rng) for _ in range(400)]
        for world in worlds[:50]:
            assert as_game(world).view(me) == view
        return sum(holder(world, "architect") == crown for world in worlds)

    uniform = crown_holds(None)
    heuristic = crown_holds(DraftModel(view, SEARCH_TEMPERATURE, "heuristic"))
    search = crown_holds(DraftModel(view, SEARCH_TEMPERATURE, "search"))
    assert search > uniform + 60
    assert search > heuristic + 40


def test_an_unknown_pick_model_is_refused_with_the_known_ones() -> None:
    game = new_game("classic", 4, seed=1)
    with pytest.raises(ValueError, match="known pick models: heuristic, search"):
        DraftModel(game.view(0), 0.5, "psychic")
    with pytest.raises(ValueError, match=r"pick_model 'psychic'.*heuristic, search"):
        ISMCTSBot(1, draft_model=0.5, pick_model="psychic")
    bot = make_bot("hard", pick_model="search")
    assert isinstance(bot, ISMCTSBot) and bot.pick_model == "search"


def test_modelled_rollouts_pick_as_search_players_and_play_the_rest_like_the_bot() -> None:
    """The ``"modelled"`` rollout policy draws a pick from the ``"search"`` pick model: offered
    the Architect, it takes it more than twice as often as a uniform pick would, where the
    heuristic bot, going by its values alone, never does; any other decision is the heuristic
    bot's own."""
    for seed in range(40):
        game = new_game("classic", 4, seed=seed)
        s = game.state
        legal = rules.legal_actions(s)
        offered = {a.character for a in legal}  # type: ignore[attr-defined]
        if "architect" in offered and bot_policy(s, legal, random.Random(0)) != PickCharacter(
            "architect"
        ):
            break
    else:
        pytest.fail("no first pick where the heuristic bot leaves the Architect")
    bot_picks = Counter(bot_policy(s, legal, random.Random(k)).character for k in range(300))  # type: ignore[attr-defined]
    modelled = Counter(
        modelled_policy(s, legal, random.Random(k)).character  # type: ignore[attr-defined]
        for k in range(300)
    )
    assert bot_picks["architect"] == 0
    assert modelled["architect"] > 2 * 300 / len(legal)  # twice a uniform pick's share
    assert set(modelled) <= {a.character for a in legal}  # type: ignore[attr-defined]
    bots = [HeuristicBot(seat) for seat in range(4)]
    while game.state.phase == SELECTION:
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat)
    legal = rules.legal_actions(game.state)
    assert len(legal) > 1
    for k in range(20):
        assert modelled_policy(game.state, legal, random.Random(k)) == bot_policy(
            game.state, legal, random.Random(k)
        )


def test_the_pick_model_fit_recovers_the_temperature_and_biases_that_made_the_picks() -> None:
    """tools/fit_pick_model.py: picks drawn from a known model (a slope on the value and a
    bias per character) are fitted back to it, the biases centred on 0, and the fit predicts
    them better than a uniform guess."""
    np = pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location(
        "fit_pick_model", Path(__file__).resolve().parent.parent / "tools" / "fit_pick_model.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules["fit_pick_model"] = tool
    spec.loader.exec_module(tool)
    characters = ["architect", "assassin", "king", "merchant"]
    bias = {"architect": 1.0, "assassin": -0.5, "king": -1.0, "merchant": 0.5}
    slope = 1.5
    rng = np.random.default_rng(0)
    picks = []
    for _ in range(4000):
        size = int(rng.integers(2, len(characters) + 1))
        offered = [str(c) for c in rng.choice(characters, size=size, replace=False)]
        values = [float(v) for v in rng.normal(1.5, 1.0, size=len(offered))]
        u = np.array([slope * v + bias[c] for c, v in zip(offered, values, strict=True)])
        p = np.exp(u - u.max())
        taken = int(rng.choice(len(offered), p=p / p.sum()))
        picks.append((offered, values, taken))
    data = tool.design(picks, characters)
    w = tool.fit(data)
    assert abs(w[0] - slope) < 0.1
    for i, c in enumerate(characters):
        assert abs(w[i + 1] - bias[c]) < 0.1
    uniform = sum(np.log(len(x)) for x, _ in data) / len(data)
    assert tool.log_loss(w, data) < uniform
