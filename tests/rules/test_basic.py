"""The `basic` edition (seed 000): RULES.md §2, B-1 … B-6."""

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
    Rob,
    TakeIncome,
)
from citadels.cards import COLOURED_COPIES
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

# --- the edition's data ----------------------------------------------------------------------


def test_basic_deck_is_the_54_coloured_districts() -> None:
    game = citadels.new_game("basic", 4, seed=1)
    s = game.state
    cards = Counter(s.deck)
    for p in s.players:
        cards.update(p.hand)
    assert cards == Counter(COLOURED_COPIES)
    assert sum(cards.values()) == 54
    assert {s.edition.district(d).colour for d in cards} == {"yellow", "blue", "green", "red"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_basic_city_completes_at_eight(players: int) -> None:
    assert citadels.new_game("basic", players, seed=0).state.complete_at == 8


# --- B-1 automatic income ------------------------------------------------------------------


def test_B1_colour_gold_is_given_when_called() -> None:
    game = position(
        "basic", 4, characters={0: ["king"]}, cities={0: ["manor", "castle", "temple"]}, gold={0: 1}
    )
    assert turn(game) == (0, "king")
    assert player(game, 0).gold == 3
    assert events(game, "income")[0]["gold"] == 2
    assert TakeIncome() not in legal(game)
    play(game, GatherGold())
    assert TakeIncome() not in legal(game)
    assert player(game, 0).gold == 5


def test_B1_income_does_not_count_a_district_built_later() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["warlord"]},
        cities={0: ["prison"]},
        hands={0: ["fortress"]},
        gold={0: 4},
    )
    assert player(game, 0).gold == 5
    play(game, GatherGold(), Build("fortress"), EndTurn())
    assert player(game, 0).gold == 2
    assert [e["gold"] for e in events(game, "income")] == [1]


def test_B1_merchant_extra_gold_comes_at_the_call() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["merchant"]},
        cities={0: ["market"]},
        deck_top=["manor", "castle"],
    )
    # One for the green district, one extra, before any gathering.
    assert player(game, 0).gold == 2
    assert game.state.turn is not None and not game.state.turn.gathered
    play(game, GatherCards(), KeepCards(("manor",)))
    assert player(game, 0).gold == 2


def test_B1_architect_cards_come_at_the_call() -> None:
    game = position(
        "basic", 4, characters={0: ["architect"]}, deck_top=["palace", "temple", "manor"]
    )
    assert sorted(player(game, 0).hand) == ["palace", "temple"]
    play(game, GatherGold())
    assert sorted(player(game, 0).hand) == ["palace", "temple"]
    assert player(game, 0).gold == 2


def test_B1_murdered_character_gets_no_automatic_income() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["assassin"], 1: ["merchant"]},
        cities={1: ["market", "docks"]},
    )
    play(game, Murder("merchant"), GatherGold(), EndTurn())
    assert game.state.round == 2
    assert player(game, 1).gold == 0


def test_B1_thief_takes_gold_before_the_automatic_income() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["thief"], 1: ["king"]},
        cities={1: ["manor", "palace"]},
        gold={1: 3},
    )
    play(game, Rob("king"), GatherGold(), EndTurn())
    assert turn(game) == (1, "king")
    assert player(game, 0).gold == 5
    assert player(game, 1).gold == 2


# --- B-2 power timing ----------------------------------------------------------------------


def test_B2_warlord_destroys_only_after_gathering() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["warlord"]},
        cities={1: ["temple", "manor"]},
        hands={0: ["tavern"]},
        gold={0: 5},
    )
    assert not any(isinstance(a, Destroy) for a in legal(game))
    play(game, GatherGold())
    assert Destroy(1, "manor") in legal(game)
    # After income the destruction may come before or after building.
    play(game, Destroy(1, "manor"))
    assert Build("tavern") in legal(game)
    play(game, Build("tavern"))
    assert player(game, 0).gold == 4


def test_B2_other_powers_work_before_or_after_gathering() -> None:
    before = position("basic", 4, characters={0: ["assassin"], 1: ["king"]})
    assert Murder("king") in legal(before)
    play(before, Murder("king"))
    assert before.state.murdered == "king"

    after = position("basic", 4, characters={0: ["assassin"], 1: ["king"]})
    play(after, GatherGold())
    assert Murder("king") in legal(after)
    play(after, Murder("king"))
    assert after.state.murdered == "king"


# --- B-3 Bishop ----------------------------------------------------------------------------


def test_B3_warlord_cannot_touch_a_living_bishop() -> None:
    game = position(
        "basic",
        4,
        characters={1: ["bishop"], 2: ["warlord"]},
        cities={1: ["temple"], 3: ["manor"]},
        gold={2: 5},
    )
    end_turn_with_gold(game)
    play(game, GatherGold())
    assert {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)} == {(3, "manor")}


def test_B3_warlord_may_destroy_a_murdered_bishops_district() -> None:
    game = position(
        "basic",
        4,
        characters={0: ["assassin"], 1: ["bishop"], 2: ["warlord"]},
        cities={1: ["temple"]},
    )
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    play(game, GatherGold(), Destroy(1, "temple"))
    assert player(game, 1).city == []


# --- B-4 two and three players --------------------------------------------------------------


@pytest.mark.parametrize("crown", [0, 1])
def test_B4_two_players_pick_twice_round_from_the_crown(crown: int) -> None:
    game = position("basic", 2, crown=crown, seed=3)
    s = game.state
    assert s.faceup == []
    assert len(s.facedown) == 1
    order = []
    sizes = []
    while s.phase == "selection":
        order.append(game.to_move)
        sizes.append(len(legal(game)))
        assert all(isinstance(a, PickCharacter) for a in legal(game))
        play(game, legal(game)[0])
    other = 1 - crown
    assert order == [crown, other, crown, other]
    assert sizes == [7, 6, 5, 4]
    assert all(len(p.characters) == 2 for p in s.players)
    # The three cards left over are unused, face down; only the last picker has seen them.
    assert len(s.facedown) == 4
    assert [e["seat"] for e in events(game, "put_aside")] == [other] * 3
    assert sorted(game.view(other)["known_facedown"]) == sorted(s.facedown[1:])
    assert game.view(crown)["known_facedown"] == []


def test_B4_three_players_pick_twice_round() -> None:
    game = position("basic", 3, crown=2, seed=5)
    s = game.state
    assert s.faceup == []
    order = []
    while s.phase == "selection":
        order.append(game.to_move)
        play(game, legal(game)[-1])
    assert order == [2, 0, 1, 2, 0, 1]
    assert all(len(p.characters) == 2 for p in s.players)
    assert len(s.facedown) == 2


def test_B4_two_player_seat_plays_a_turn_for_each_character() -> None:
    game = position("basic", 2, characters={0: ["thief", "king"], 1: ["magician", "warlord"]})
    seen = []
    while game.state.round == 1:
        seen.append(turn(game))
        end_turn_with_gold(game)
    assert seen == [(0, "thief"), (1, "magician"), (0, "king"), (1, "warlord")]
    assert player(game, 0).gold == 4
    assert player(game, 1).gold == 4


# --- B-5 naming -----------------------------------------------------------------------------


def test_B5_assassin_names_ranks_two_to_eight() -> None:
    game = position("basic", 4, characters={0: ["assassin"]})
    targets = [a.character for a in legal(game) if isinstance(a, Murder)]
    assert targets == [
        "thief",
        "magician",
        "king",
        "bishop",
        "merchant",
        "architect",
        "warlord",
    ]


def test_B5_thief_names_ranks_three_to_eight() -> None:
    game = position("basic", 4, characters={0: ["thief"]})
    targets = [a.character for a in legal(game) if isinstance(a, Rob)]
    assert targets == ["magician", "king", "bishop", "merchant", "architect", "warlord"]


def test_B5_thief_may_not_name_the_murdered_character() -> None:
    game = position("basic", 4, characters={0: ["assassin"], 1: ["thief"]})
    play(game, Murder("magician"), GatherGold(), EndTurn())
    targets = [a.character for a in legal(game) if isinstance(a, Rob)]
    assert targets == ["king", "bishop", "merchant", "architect", "warlord"]


# --- B-6 scoring ---------------------------------------------------------------------------


def test_B6_four_colours_give_the_bonus() -> None:
    game = position(
        "basic",
        4,
        characters={1: ["king"]},
        cities={0: ["manor", "temple", "tavern", "watchtower"], 1: ["manor", "temple", "tavern"]},
        first_complete=3,
        complete_at=8,
    )
    finish_round(game)
    result = game.result()
    assert result[0].breakdown.colours == 3
    assert result[0].score == 3 + 1 + 1 + 1 + 3
    assert result[1].breakdown.colours == 0


def test_B6_completion_bonuses() -> None:
    eight = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]
    game = position(
        "basic",
        4,
        characters={2: ["king"]},
        cities={0: eight, 1: eight, 2: eight[:7]},
        first_complete=1,
    )
    finish_round(game)
    result = game.result()
    assert (result[1].breakdown.first_complete, result[1].breakdown.complete) == (4, 0)
    assert (result[0].breakdown.first_complete, result[0].breakdown.complete) == (0, 2)
    assert (result[2].breakdown.first_complete, result[2].breakdown.complete) == (0, 0)
    assert result[1].score == 21 + 4
    assert result[0].score == 21 + 2


def test_B6_equal_scores_share_the_rank() -> None:
    eight = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]
    game = position(
        "basic",
        4,
        characters={0: ["warlord"], 1: ["thief"]},
        cities={0: ["manor", "castle"], 1: ["palace", "market"], 2: eight},
        gold={0: 10},
        first_complete=2,
    )
    finish_round(game)
    result = game.result()
    assert result[0].score == result[1].score == 7
    assert (result[0].rank, result[1].rank) == (2, 2)
    assert result[0].tiebreak == result[1].tiebreak == "shared"
    assert result[2].rank == 1 and result[2].tiebreak is None
    assert result[3].rank == 4
    assert game.result().winners == (2,)


def test_B6_tied_winners_are_all_first() -> None:
    game = position(
        "basic",
        2,
        characters={0: ["warlord"], 1: ["king"]},
        cities={0: ["manor"], 1: ["manor", "tavern", "temple", "church"]},
        first_complete=0,
    )
    finish_round(game)
    result = game.result()
    assert result[0].score == 3 + 4
    assert result[1].score == 3 + 1 + 1 + 2
    assert result.winners == (0, 1)
    assert [r.rank for r in result] == [1, 1]
    assert result[0].tiebreak == "shared"


def test_B6_real_game_reaches_an_end_and_scores() -> None:
    game = citadels.new_game("basic", 3, seed=17)
    while not game.is_over:
        acts = legal(game)
        builds = [a for a in acts if isinstance(a, Build)]
        if builds:
            play(game, builds[-1])
        elif GatherGold() in acts and game.state.turn and not game.state.turn.gathered:
            play(game, GatherGold())
        elif EndTurn() in acts:
            play(game, EndTurn())
        else:
            play(game, acts[0])
        assert game.state.round < 60
    result = game.result()
    first = game.state.first_complete
    assert first is not None
    assert result[first].breakdown.first_complete == 4
    for r in result:
        assert r.score == r.breakdown.total
