"""The `classic` edition (seeds 002, 003), base game: RULES.md §2, K-1 … K-6."""

from __future__ import annotations

from collections import Counter

import pytest

import citadels
from citadels import (
    Build,
    Destroy,
    EndTurn,
    GatherGold,
    PickCharacter,
    PutAsideCharacter,
    TakeIncome,
)
from citadels.cards import COLOURED_COPIES
from citadels.engine.serialize import card_counts
from tests.helpers import (
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    play,
    player,
    position,
    turn,
)

CLASSIC_PURPLE = {
    "haunted_city": 1,
    "keep": 2,
    "laboratory": 1,
    "smithy": 1,
    "observatory": 1,
    "graveyard": 1,
    "dragon_gate": 1,
    "university": 1,
    "library": 1,
    "great_wall": 1,
    "school_of_magic": 1,
}


# --- K-1 deck ------------------------------------------------------------------------------


def test_K1_deck_is_54_coloured_plus_12_purple() -> None:
    game = citadels.new_game("classic", 4, seed=3)
    cards = card_counts(game.state)
    assert sum(cards.values()) == 66
    assert cards == Counter({**COLOURED_COPIES, **CLASSIC_PURPLE})
    assert "ball_room" not in cards


def test_K1_purple_costs() -> None:
    edition = citadels.get_edition("classic")
    costs = {d: edition.district(d).cost for d in CLASSIC_PURPLE}
    assert costs == {
        "haunted_city": 2,
        "keep": 3,
        "laboratory": 5,
        "smithy": 5,
        "observatory": 5,
        "graveyard": 5,
        "dragon_gate": 6,
        "university": 6,
        "library": 6,
        "great_wall": 6,
        "school_of_magic": 6,
    }
    assert all(edition.district(d).colour == "purple" for d in CLASSIC_PURPLE)


# --- K-2 two players -----------------------------------------------------------------------


@pytest.mark.parametrize("crown", [0, 1])
def test_K2_two_player_selection_as_dezh(crown: int) -> None:
    game = position("classic", 2, crown=crown, seed=12)
    s = game.state
    a, b = crown, 1 - crown
    kinds = []
    while s.phase == "selection":
        acts = legal(game)
        kinds.append((game.to_move, type(acts[0]).__name__, len(acts)))
        play(game, acts[-1])
    assert kinds == [
        (a, "PickCharacter", 7),
        (b, "PickCharacter", 6),
        (b, "PutAsideCharacter", 5),
        (a, "PickCharacter", 4),
        (a, "PutAsideCharacter", 3),
        (b, "PickCharacter", 2),
    ]
    assert all(len(p.characters) == 2 for p in s.players)
    assert len(s.facedown) == 4


def test_K2_both_characters_of_a_seat_play_in_rank_order() -> None:
    game = position("classic", 2, characters={0: ["assassin", "warlord"], 1: ["thief", "bishop"]})
    order = []
    while game.state.round == 1:
        order.append(turn(game))
        play(game, GatherGold(), EndTurn())
    assert order == [(0, "assassin"), (1, "thief"), (1, "bishop"), (0, "warlord")]


# --- K-3 three players ---------------------------------------------------------------------


def test_K3_three_player_selection_as_dezh() -> None:
    game = position("classic", 3, crown=0, seed=12)
    s = game.state
    order = []
    while s.phase == "selection":
        assert all(isinstance(a, PickCharacter) for a in legal(game))
        order.append((game.to_move, len(legal(game))))
        play(game, legal(game)[0])
    assert order == [(0, 7), (1, 6), (2, 5), (0, 4), (1, 3), (2, 2)]
    assert len(s.facedown) == 2
    assert not any(isinstance(a, PutAsideCharacter) for a in legal(game))


# --- K-4 Warlord at the end of the turn ----------------------------------------------------


def test_K4_warlord_cannot_destroy_before_gathering() -> None:
    game = position("classic", 4, characters={0: ["warlord"]}, cities={1: ["tavern"]})
    assert not any(isinstance(a, Destroy) for a in legal(game))


def test_K4_destroying_ends_the_turn() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["warlord"], 1: ["magician"]},
        cities={0: ["prison"], 1: ["tavern"]},
        hands={0: ["watchtower"]},
        gold={0: 2},
    )
    end_turn_with_gold(game)
    play(game, GatherGold())
    assert Build("watchtower") in legal(game)
    play(game, Destroy(1, "tavern"))
    # No building, income or ending afterwards: the round is over.
    assert game.state.round == 2
    assert player(game, 0).city == ["prison"]
    assert player(game, 0).hand == ["watchtower"]
    assert player(game, 0).gold == 4
    assert events(game, "end_turn")[-1]["seat"] == 0
    assert events(game, "income") == []


def test_K4_build_and_income_first_then_destroy() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["warlord"]},
        cities={0: ["prison"], 1: ["market"]},
        hands={0: ["watchtower"]},
        gold={0: 0},
    )
    play(game, GatherGold(), Build("watchtower"), TakeIncome(), Destroy(1, "market"))
    assert player(game, 0).city == ["prison", "watchtower"]
    assert player(game, 0).gold == 2 - 1 + 2 - 1
    assert game.state.round == 2


# --- K-5 tie-break -------------------------------------------------------------------------


def _tie(cities: dict[int, list[str]], gold: dict[int, int]) -> citadels.Outcome:
    eight = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]
    game = position(
        "classic",
        4,
        characters={0: ["warlord"], 1: ["king"]},
        cities={**cities, 3: eight},
        gold=gold,
        first_complete=3,
    )
    finish_round(game)
    assert game.is_over
    return game.result()


def test_K5_tie_goes_to_district_cost_points() -> None:
    # Seat 1 reaches 9 only through the Dragon Gate's 2 bonus points.
    result = _tie({0: ["palace", "castle"], 1: ["dragon_gate", "temple"]}, {1: 20})
    assert result[0].score == result[1].score == 9
    assert result[0].breakdown.districts == 9
    assert result[1].breakdown.districts == 7
    assert (result[0].rank, result[1].rank) == (2, 3)
    assert result[0].tiebreak == "district_costs"


def test_K5_then_most_gold() -> None:
    result = _tie({0: ["palace", "castle"], 1: ["cathedral", "castle"]}, {0: 1, 1: 6})
    assert result[0].score == result[1].score == 9
    assert result[0].breakdown.districts == result[1].breakdown.districts == 9
    assert (result[0].gold, result[1].gold) == (3, 8)
    assert (result[1].rank, result[0].rank) == (2, 3)
    assert result[1].tiebreak == result[0].tiebreak == "gold"


def test_K5_else_shared() -> None:
    result = _tie({0: ["palace", "castle"], 1: ["cathedral", "harbor"]}, {0: 3, 1: 3})
    assert result[0].score == result[1].score
    assert result[0].rank == result[1].rank == 2
    assert result[0].tiebreak == result[1].tiebreak == "shared"
    assert result[2].rank == 4


# --- K-6 city size option ------------------------------------------------------------------


@pytest.mark.parametrize("size", [8, 7, 6])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_K6_complete_at_option(size: int, players: int) -> None:
    game = citadels.new_game("classic", players, seed=1, complete_at=size)
    assert game.state.complete_at == size
    assert game.view(0)["complete_at"] == size


def test_K6_default_is_eight() -> None:
    for players in (2, 3, 4, 7):
        assert citadels.new_game("classic", players, seed=0).state.complete_at == 8


def test_K6_short_game_ends_at_six() -> None:
    game = position(
        "classic",
        4,
        options={"complete_at": 6},
        characters={0: ["king"], 2: ["merchant"]},
        cities={0: ["manor", "castle", "temple", "church", "tavern"]},
        hands={0: ["watchtower"]},
    )
    assert game.state.complete_at == 6
    play(game, GatherGold(), Build("watchtower"), EndTurn())
    assert game.state.first_complete == 0
    assert not game.is_over
    finish_round(game)
    assert game.is_over
    r = game.result()[0]
    assert r.breakdown.first_complete == 4


@pytest.mark.parametrize("bad", [5, 9, "7", 7.0, True])
def test_K6_other_sizes_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="K-6"):
        citadels.new_game("classic", 4, seed=0, complete_at=bad)
