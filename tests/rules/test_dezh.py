"""The `dezh` edition (seed 001): RULES.md §2, D-1 … D-7."""

from __future__ import annotations

from collections import Counter

import pytest

import citadels
from citadels import (
    Build,
    Destroy,
    EndTurn,
    GatherCards,
    GatherGold,
    KeepCards,
    Murder,
    PickCharacter,
    PutAsideCharacter,
    TakeIncome,
)
from citadels.cards import COLOURED_COPIES
from citadels.engine.serialize import card_counts
from citadels.present import render_event
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

DEZH_PURPLE = {
    "haunted_city": 1,
    "keep": 2,
    "observatory": 1,
    "graveyard": 1,
    "laboratory": 1,
    "smithy": 1,
}


# --- D-1 deck ------------------------------------------------------------------------------


def test_D1_deck_is_54_coloured_plus_7_purple() -> None:
    game = citadels.new_game("dezh", 5, seed=2)
    cards = card_counts(game.state)
    assert sum(cards.values()) == 61
    assert cards == Counter({**COLOURED_COPIES, **DEZH_PURPLE})
    purple = {d for d in cards if game.edition.district(d).colour == "purple"}
    assert purple == set(DEZH_PURPLE)


def test_D1_purple_costs_follow_the_classic_cards() -> None:
    edition = citadels.get_edition("dezh")
    costs = {d: edition.district(d).cost for d in DEZH_PURPLE}
    assert costs == {
        "haunted_city": 2,
        "keep": 3,
        "observatory": 5,
        "graveyard": 5,
        "laboratory": 5,
        "smithy": 5,
    }


# --- D-2 completion ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 8), (3, 8), (4, 7), (5, 7), (6, 7), (7, 7)])
def test_D2_city_size_by_player_count(players: int, size: int) -> None:
    assert citadels.new_game("dezh", players, seed=0).state.complete_at == size


def test_D2_seventh_district_ends_the_game_with_four_players() -> None:
    six = ["manor", "castle", "temple", "church", "tavern", "market"]
    game = position(
        "dezh",
        4,
        characters={0: ["bishop"], 1: ["warlord"]},
        cities={0: six},
        hands={0: ["watchtower"]},
    )
    play(game, GatherGold(), Build("watchtower"), EndTurn())
    assert game.state.first_complete == 0
    # The Warlord still plays, but the completed city is out of reach.
    play(game, GatherGold())
    assert not any(isinstance(a, Destroy) and a.seat == 0 for a in legal(game))
    play(game, EndTurn())
    assert game.is_over
    assert game.result()[0].breakdown.first_complete == 4


def test_D2_seven_districts_do_not_complete_with_three_players() -> None:
    six = ["manor", "castle", "temple", "church", "tavern", "market"]
    game = position(
        "dezh", 3, characters={0: ["bishop"]}, cities={0: six}, hands={0: ["watchtower"]}
    )
    play(game, GatherGold(), Build("watchtower"), EndTurn())
    assert game.state.first_complete is None
    assert not game.is_over


# --- D-3 two players -----------------------------------------------------------------------


@pytest.mark.parametrize("crown", [0, 1])
def test_D3_two_player_selection(crown: int) -> None:
    game = position("dezh", 2, crown=crown, seed=7)
    s = game.state
    a, b = crown, 1 - crown
    assert s.faceup == [] and len(s.facedown) == 1

    def step(seat: int, kind: type, size: int) -> None:
        assert game.to_move == seat
        acts = legal(game)
        assert len(acts) == size
        assert all(isinstance(x, kind) for x in acts)
        play(game, acts[0])

    step(a, PickCharacter, 7)
    step(b, PickCharacter, 6)
    step(b, PutAsideCharacter, 5)
    step(a, PickCharacter, 4)
    step(a, PutAsideCharacter, 3)
    step(b, PickCharacter, 2)
    # The last card goes face down by itself; the calls begin.
    assert s.phase == "turns"
    assert all(len(p.characters) == 2 for p in s.players)
    assert len(s.facedown) == 4
    asides = events(game, "put_aside")
    assert [e["seat"] for e in asides] == [b, a, b]
    # Each put-aside card is known to the seat that put it aside only.
    for viewer in (a, b):
        for e in events(game, "put_aside", viewer):
            assert ("character" in e) == (e["seat"] == viewer)


def test_D3_put_aside_cards_are_out_of_the_round() -> None:
    game = position("dezh", 2, crown=0, seed=9)
    s = game.state
    play(game, legal(game)[0])
    play(game, legal(game)[0])
    aside = legal(game)[0]
    assert isinstance(aside, PutAsideCharacter)
    play(game, aside)
    assert aside.character in s.facedown
    assert aside.character not in [getattr(x, "character", None) for x in legal(game)]


# --- D-4 three players ---------------------------------------------------------------------


def test_D4_three_player_selection() -> None:
    game = position("dezh", 3, crown=1, seed=4)
    s = game.state
    order, sizes = [], []
    while s.phase == "selection":
        order.append(game.to_move)
        sizes.append(len(legal(game)))
        assert all(isinstance(x, PickCharacter) for x in legal(game))
        play(game, legal(game)[0])
    assert order == [1, 2, 0, 1, 2, 0]
    # One card face down at the start; the last chooser keeps one of the last two.
    assert sizes == [7, 6, 5, 4, 3, 2]
    assert all(len(p.characters) == 2 for p in s.players)
    assert len(s.facedown) == 2 and s.faceup == []


# --- D-5 tie-break -------------------------------------------------------------------------


def test_D5_tie_goes_to_the_highest_character_of_the_last_round() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["king"], 1: ["warlord"], 2: ["thief"]},
        cities={0: ["manor", "castle"], 1: ["palace", "market"], 3: ["temple"]},
        gold={0: 30},
        first_complete=3,
    )
    finish_round(game)
    result = game.result()
    assert result[0].score == result[1].score == 7
    assert (result[1].rank, result[0].rank) == (1, 2)
    assert result[0].tiebreak == result[1].tiebreak == "character_rank"
    assert result.winners == (1,)


def test_D5_two_player_tie_uses_the_higher_of_two_characters() -> None:
    game = position(
        "dezh",
        2,
        characters={0: ["assassin", "architect"], 1: ["king", "merchant"]},
        cities={0: ["manor", "palace"], 1: ["castle"]},
        gold={1: 50},
        first_complete=1,
    )
    finish_round(game)
    result = game.result()
    # Seat 0: 3 + 5 = 8; seat 1: 4 + 4 (first complete) = 8.
    assert result[0].score == result[1].score == 8
    assert result.winners == (0,)
    assert result[1].rank == 2


# --- D-6 Warlord ---------------------------------------------------------------------------


def test_D6_warlord_pays_cost_minus_one_and_may_hit_his_own_city() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["warlord"]},
        cities={0: ["castle"], 1: ["cathedral"]},
        gold={0: 7},
    )
    play(game, Destroy(0, "castle"))
    assert player(game, 0).gold == 4
    assert player(game, 0).city == []


def test_D6_warlord_cannot_target_a_city_of_seven() -> None:
    seven = ["manor", "castle", "palace", "temple", "church", "tavern", "market"]
    game = position(
        "dezh",
        5,
        characters={0: ["warlord"]},
        cities={1: seven, 2: seven[:6]},
        gold={0: 20},
        first_complete=1,
    )
    targets = {a.seat for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {2}


# --- D-7 free order ------------------------------------------------------------------------


def test_D7_build_before_gathering() -> None:
    game = position("dezh", 4, characters={0: ["thief"]}, hands={0: ["manor"]}, gold={0: 3})
    assert Build("manor") in legal(game)
    play(game, Build("manor"))
    assert EndTurn() not in legal(game)
    play(game, GatherGold(), EndTurn())
    assert player(game, 0).city == ["manor"]
    assert player(game, 0).gold == 2


def test_D7_warlord_destroys_before_gathering_and_keeps_playing() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["warlord"]},
        cities={1: ["market"]},
        hands={0: ["prison"]},
        gold={0: 3},
    )
    play(game, Destroy(1, "market"))
    assert turn(game) == (0, "warlord")
    play(game, Build("prison"), TakeIncome(), GatherGold(), EndTurn())
    assert player(game, 0).gold == 1 + 2
    assert player(game, 0).city == ["prison"]


def test_D7_income_power_any_time_even_before_gathering() -> None:
    game = position("dezh", 4, characters={0: ["bishop"]}, cities={0: ["temple", "church"]})
    play(game, TakeIncome())
    assert player(game, 0).gold == 2
    play(game, GatherGold())
    assert TakeIncome() not in legal(game)
    assert player(game, 0).gold == 4


def test_D7_merchant_extra_comes_with_the_gather_action() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["merchant"]},
        hands={0: ["tavern"]},
        gold={0: 1},
        deck_top=["docks", "harbor"],
    )
    play(game, Build("tavern"))
    assert player(game, 0).gold == 0
    play(game, GatherCards())
    assert player(game, 0).gold == 0
    play(game, KeepCards(("docks",)))
    assert player(game, 0).gold == 1


def test_D7_architect_cards_come_with_the_gather_action() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["architect"]},
        deck_top=["temple", "church", "monastery"],
    )
    assert player(game, 0).hand == []
    play(game, GatherGold())
    assert sorted(player(game, 0).hand) == ["church", "temple"]


def test_D7_assassin_may_act_after_gathering_and_building() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["assassin"], 1: ["king"]},
        hands={0: ["temple"]},
        gold={0: 1},
    )
    play(game, GatherGold(), Build("temple"), Murder("king"), EndTurn())
    assert game.state.round == 2
    assert events(game, "murdered_revealed")[0]["seat"] == 1


def test_D7_turn_order_free_but_one_build() -> None:
    game = position(
        "dezh", 4, characters={0: ["king"]}, hands={0: ["manor", "castle"]}, gold={0: 9}
    )
    play(game, Build("manor"))
    assert not any(isinstance(a, Build) for a in legal(game))
    play(game, TakeIncome(), GatherGold())
    assert player(game, 0).gold == 9 - 3 + 1 + 2
    play(game, EndTurn())
    assert game.state.round == 2


# --- C-12 in `dezh`: the murdered role is turned face up when called (seed 001) -------------


def test_C12_dezh_murdered_holder_turns_the_card_face_up_at_the_call() -> None:
    """C-12, seed 001's Assassin: when the murdered role is called, its holder turns the card
    face up and, unable to do anything, ends the turn: logged and revealed at once."""
    game = position(
        "dezh",
        4,
        characters={0: ["assassin"], 1: ["merchant"], 2: ["warlord"]},
        cities={1: ["market"]},
        gold={1: 4},
    )
    play(game, Murder("merchant"), GatherGold(), EndTurn())
    assert turn(game) == (2, "warlord")
    assert player(game, 1).gold == 4
    assert game.state.revealed["merchant"] == 1
    for viewer in (0, 1, 2, 3, None):
        view = game.view(viewer)
        assert view["revealed"]["merchant"] == 1
        assert view["players"][1]["characters"] == ["merchant"]
        shown = [e for e in view["log"] if e.get("character") == "merchant"]
        assert [e["kind"] for e in shown] == ["murder", "reveal"]
        assert shown[1]["seat"] == 1 and shown[1]["murdered"] is True
        assert "turned face up" in render_event("dezh", shown[1])
    assert not [e for e in events(game, "call") if e["character"] == "merchant"]


def test_C12_dezh_murdered_unheld_role_is_a_silent_call() -> None:
    game = position("dezh", 4, characters={0: ["assassin"], 2: ["warlord"]})
    play(game, Murder("merchant"), GatherGold(), EndTurn())
    assert turn(game) == (2, "warlord")
    call = [e for e in events(game, "call") if e["character"] == "merchant"]
    assert [(e["answered"], e["murdered"]) for e in call] == [(False, True)]
    assert "merchant" not in game.state.revealed


def test_C12_C23_dezh_murdered_king_revealed_at_call_takes_the_crown_at_round_end() -> None:
    game = position("dezh", 4, characters={0: ["assassin"], 1: ["king"], 2: ["warlord"]})
    play(game, Murder("king"), GatherGold(), EndTurn())
    assert game.state.revealed["king"] == 1
    assert game.state.crown == 0
    end_turn_with_gold(game)
    assert game.state.round == 2 and game.state.crown == 1


def test_C12_C24_dezh_murdered_bishop_revealed_at_call_protects_nothing() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["assassin"], 1: ["bishop"], 2: ["warlord"]},
        cities={1: ["temple"]},
        gold={2: 5},
    )
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert game.state.revealed["bishop"] == 1
    play(game, GatherGold())
    assert Destroy(1, "temple") in legal(game)
