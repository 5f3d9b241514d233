"""The heuristic bot has a rule for every decision of every edition and preset, and the
rules for the Dark City and 2016 powers do what their docstrings say."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import citadels
from citadels import Action, Build, BuildFree, GatherGold, new_game
from citadels.bots import HeuristicBot
from citadels.engine.actions import Foresee, PayRemainder, PayWithCard, SpyOn, TakeTribute
from citadels.sim import play_game
from tests.helpers import characters_2016, play, position


def setups() -> list[tuple[str, str | None]]:
    """Every edition with its default setup and each of its presets."""
    return [
        (edition.id, preset)
        for edition in citadels.EDITIONS.values()
        for preset in (None, *edition.presets)
    ]


def player_counts(edition_id: str, preset: str | None) -> list[int]:
    """Every player count the setup allows (8 only with a rank-9 character)."""
    edition = citadels.EDITIONS[edition_id]
    chosen = edition.presets[preset] if preset else None
    low = max(edition.min_players, chosen.min_players if chosen else 2)
    characters = chosen.characters if chosen else edition.default_characters
    high = edition.max_players if len(characters) > 8 else min(edition.max_players, 7)
    return list(range(low, high + 1))


def heuristic_game(edition: str, preset: str | None, players: int, seed: int) -> list[HeuristicBot]:
    options = {"preset": preset} if preset else {}
    game = new_game(edition, players, seed=seed, **options)
    bots = [HeuristicBot(seed * 10 + seat) for seat in range(players)]
    play_game(game, bots)
    assert game.is_over
    return bots


@pytest.mark.parametrize(("edition", "preset"), setups())
def test_heuristic_has_a_rule_for_every_decision(edition: str, preset: str | None) -> None:
    """No random fallback and no unread view over games of every player count (the
    measurement over many more games: ``benchmarks/strength.py coverage``)."""
    fallbacks: Counter[str] = Counter()
    for players in player_counts(edition, preset):
        for seed in (players, 100 + players):
            for bot in heuristic_game(edition, preset, players, seed):
                assert bot.errors == 0
                fallbacks.update(bot.fallbacks)
    assert fallbacks == Counter()


def test_an_unknown_decision_is_a_counted_fallback() -> None:
    """A view the rules cannot read: a seeded random choice, counted, never a failure."""
    bot = HeuristicBot(1)
    legal = [Build("palace"), Build("manor")]
    assert bot.choose({"nonsense": True}, legal) in legal
    assert bot.errors == 1
    assert bot.fallbacks == Counter({"build": 1})


# --- the 2016 powers, by hand --------------------------------------------------------------


def to_seat(game: citadels.Game, seat: int) -> None:
    """Let the other seats gather gold and end their turns until ``seat`` is to move."""
    while game.to_move != seat:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.type in ("gather_gold", "end_turn")), legal[0]))


def decide(game: citadels.Game, seat: int = 0) -> Action:
    return HeuristicBot(0).choose(game.view(seat), game.legal_actions())


def game16(chosen: Sequence[str], **kwargs: Any) -> citadels.Game:
    options = {"characters": characters_2016(*chosen)}
    return position("2016", 4, options=options, **kwargs)


def test_thieves_den_paid_with_useless_cards_then_gold() -> None:
    game = game16(
        (),
        characters={0: ["king"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        hands={0: ["thieves_den", "temple", "palace"]},
        cities={0: ["temple"]},
        gold={0: 8},
    )
    to_seat(game, 0)
    play(game, GatherGold(), Build("thieves_den"))
    assert decide(game) == PayWithCard("temple")  # already in the city: worth nothing
    play(game, PayWithCard("temple"))
    assert decide(game) == PayRemainder()  # the Palace is worth more than its gold


def test_necropolis_built_free_on_the_cheapest_district() -> None:
    game = game16(
        (),
        characters={0: ["king"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        hands={0: ["necropolis"]},
        cities={0: ["tavern", "market", "castle"]},
        gold={0: 0},
    )
    to_seat(game, 0)
    play(game, GatherGold())
    choice = decide(game)
    while choice.type == "take_income":
        play(game, choice)
        choice = decide(game)
    assert choice == BuildFree("necropolis", "tavern")


def test_seer_foresees_and_emperor_takes_a_card_when_short_of_cards() -> None:
    game = game16(
        ["seer"],
        characters={0: ["seer"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        hands={0: ["tavern"], 1: ["palace", "manor"], 2: ["castle"]},
    )
    to_seat(game, 0)
    assert decide(game) == Foresee()

    game = game16(
        ["emperor"],
        characters={0: ["emperor"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        crown=1,
        hands={0: [], 2: ["palace", "manor"], 3: ["castle"]},
        gold={2: 3, 3: 3},
    )
    to_seat(game, 0)
    choice = decide(game)
    while choice.type != "take_tribute":
        play(game, choice)
        choice = decide(game)
    assert choice == TakeTribute("card")


def test_spy_names_the_largest_hand_and_the_commonest_colour() -> None:
    game = game16(
        ["spy"],
        characters={0: ["spy"], 1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        hands={1: ["tavern"], 2: ["palace", "manor", "castle", "temple", "church"]},
        gold={1: 5, 2: 5},
    )
    to_seat(game, 0)
    play(game, GatherGold())
    choice = decide(game)
    assert isinstance(choice, SpyOn)
    assert choice.seat == 2
    # Green is the commonest colour of the deck (CARDS.md T3).
    assert choice.colour == "green"
