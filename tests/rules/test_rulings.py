"""Interaction rulings of CARDS.md §9 (R-n) that apply to `basic`, `dezh` and `classic`."""

from __future__ import annotations

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
    Rob,
    TakeIncome,
    UseGraveyard,
    UseLaboratory,
    UseSmithy,
)
from tests.helpers import (
    deck_bottom,
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    play,
    player,
    position,
    turn,
)

EDITIONS = ("basic", "dezh", "classic")
EIGHT = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]


def _targets(game: citadels.Game) -> set[tuple[int, str]]:
    return {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)}


def events_all(game: citadels.Game) -> list[dict[str, object]]:
    """The whole log as a spectator sees it."""
    return list(game.view(None)["log"])


# --- R-2 bonus points are not cost -----------------------------------------------------------


def test_R2_dragon_gate_bonus_is_not_cost() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["king"], 1: ["bishop"]},
        cities={0: ["dragon_gate"], 1: ["palace", "castle"], 2: EIGHT},
        first_complete=2,
    )
    finish_round(game)
    result = game.result()
    assert result[0].breakdown.districts == 6 and result[0].breakdown.bonus == 2
    # 8 each; the cost step counts the Dragon Gate as 6 against 9.
    assert result[0].score == 8 and result[1].score == 9
    tie = position(
        "classic",
        4,
        characters={0: ["king"], 1: ["bishop"]},
        cities={0: ["university"], 1: ["palace", "manor"], 2: EIGHT},
        first_complete=2,
    )
    finish_round(tie)
    r = tie.result()
    assert r[0].score == r[1].score == 8
    assert (r[1].rank, r[0].rank) == (2, 3)
    assert r[0].tiebreak == "district_costs"


# --- R-3 Bishop ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_R3_murdered_bishop_protects_nothing(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["assassin"], 1: ["bishop"], 3: ["warlord"]},
        cities={1: ["church"]},
        gold={3: 1},
    )
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert turn(game) == (3, "warlord")
    play(game, GatherGold())
    assert (1, "church") in _targets(game)


@pytest.mark.parametrize("edition", EDITIONS)
def test_R3_living_bishop_shields_for_the_rest_of_the_round(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={1: ["bishop"], 2: ["merchant"], 3: ["warlord"]},
        cities={1: ["church", "manor"], 2: ["market"]},
        gold={3: 5},
    )
    end_turn_with_gold(game)
    end_turn_with_gold(game)
    play(game, GatherGold())
    assert _targets(game) == {(2, "market")}


@pytest.mark.parametrize("edition", ["basic", "dezh", "classic"])
def test_R3_two_player_bishop_also_shields_from_his_own_warlord(edition: str) -> None:
    game = position(
        edition,
        2,
        characters={0: ["bishop", "warlord"], 1: ["king", "merchant"]},
        cities={0: ["church", "market"], 1: ["manor"]},
        gold={0: 5},
    )
    while turn(game) != (0, "warlord"):
        end_turn_with_gold(game)
    play(game, GatherGold())
    assert _targets(game) == {(1, "manor")}


def test_R3_unchosen_bishop_protects_nobody() -> None:
    game = position("classic", 4, characters={0: ["warlord"]}, cities={1: ["church"]}, gold={0: 1})
    play(game, GatherGold())
    assert _targets(game) == {(1, "church")}


# --- R-4 other limits on rank-8 abilities --------------------------------------------------


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R4_keep_is_never_destroyed(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["warlord"]}, cities={0: ["keep"], 1: ["keep"]}, gold={0: 9}
    )
    play(game, GatherGold())
    assert _targets(game) == set()


@pytest.mark.parametrize("edition", EDITIONS)
def test_R4_completed_city_is_never_targeted(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["warlord"]},
        cities={1: EIGHT, 0: ["tavern"]},
        gold={0: 9},
        complete_at=8,
        first_complete=1,
    )
    play(game, GatherGold())
    assert _targets(game) == {(0, "tavern")}


def test_R4_completed_city_under_the_short_game_option() -> None:
    game = position(
        "classic",
        4,
        options={"complete_at": 7},
        characters={0: ["warlord"]},
        cities={1: EIGHT[:7], 2: EIGHT[:6]},
        gold={0: 9},
        first_complete=1,
    )
    play(game, GatherGold())
    assert {seat for seat, _ in _targets(game)} == {2}


# --- R-5 Warlord destroy cost ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("city", "target", "price"),
    [
        (["temple"], "temple", 0),
        (["manor"], "manor", 2),
        (["palace"], "palace", 4),
        (["dragon_gate"], "dragon_gate", 5),
        (["great_wall", "temple"], "temple", 1),
        (["great_wall", "dragon_gate"], "dragon_gate", 6),
        (["great_wall", "manor"], "great_wall", 5),
    ],
)
def test_R5_destroy_cost(city: list[str], target: str, price: int) -> None:
    # With exactly the price the target is offered and takes all the gold; one less, not.
    for gold in (price, price - 1):
        if gold < 0:
            continue
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={1: city},
            gold={0: gold},
            deck_top=["tavern", "market"],
        )
        play(game, GatherCards(), KeepCards(("tavern",)))
        assert (Destroy(1, target) in legal(game)) is (gold == price)
        if gold == price:
            play(game, Destroy(1, target))
            assert player(game, 0).gold == 0
            assert events(game, "destroy")[0]["paid"] == price
            assert target not in player(game, 1).city


def test_R5_destroyed_card_is_discarded_to_the_bottom() -> None:
    game = position("classic", 4, characters={0: ["warlord"]}, cities={1: ["great_wall", "tavern"]})
    play(game, GatherGold(), Destroy(1, "tavern"))
    assert deck_bottom(game, 1) == ["tavern"]
    assert player(game, 0).gold == 1


# --- R-7 Graveyard -------------------------------------------------------------------------


def test_R7_classic_graveyard_not_for_its_own_warlord() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["warlord"]},
        cities={0: ["graveyard", "manor"]},
        gold={0: 5},
    )
    play(game, GatherGold(), Destroy(0, "manor"))
    assert game.state.pending == []
    assert deck_bottom(game, 1) == ["manor"]


def test_R7_dezh_graveyard_even_for_the_warlord() -> None:
    game = position(
        "dezh", 4, characters={0: ["warlord"]}, cities={0: ["graveyard", "manor"]}, gold={0: 5}
    )
    play(game, Destroy(0, "manor"))
    assert legal(game) == [UseGraveyard(False), UseGraveyard(True)]
    play(game, UseGraveyard(True))
    assert player(game, 0).hand == ["manor"]
    assert player(game, 0).gold == 5 - 2 - 1


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R7_graveyard_in_another_city_than_the_target(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["warlord"]},
        cities={2: ["graveyard"], 3: ["palace"]},
        gold={0: 4, 2: 1},
    )
    if edition == "classic":
        play(game, GatherGold())
    play(game, Destroy(3, "palace"))
    assert game.to_move == 2
    play(game, UseGraveyard(True))
    assert player(game, 2).hand == ["palace"]
    assert player(game, 2).gold == 0


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R7_graveyard_cannot_save_itself(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["warlord"]}, cities={1: ["graveyard"]}, gold={0: 4, 1: 5}
    )
    if edition == "classic":
        play(game, GatherGold())
    play(game, Destroy(1, "graveyard"))
    assert game.state.pending == []
    assert deck_bottom(game, 1) == ["graveyard"]


# --- R-8 Haunted City -------------------------------------------------------------------------


def _colours(edition: str, city: list[str], built: list[int]) -> int:
    game = position(
        edition,
        4,
        characters={1: ["king"]},
        cities={0: city},
        built={0: built},
        first_complete=1,
        round_no=3,
    )
    finish_round(game)
    assert game.is_over
    return game.result()[0].breakdown.colours


def test_R8_classic_haunted_city_from_an_earlier_round_counts() -> None:
    city = ["manor", "temple", "market", "keep", "haunted_city"]
    assert _colours("classic", city, [1, 1, 1, 2, 2]) == 3


def test_R8_classic_haunted_city_of_the_final_round_is_purple_only() -> None:
    city = ["manor", "temple", "market", "keep", "haunted_city"]
    assert _colours("classic", city, [1, 1, 1, 2, 3]) == 0


def test_R8_dezh_haunted_city_has_no_final_round_limit() -> None:
    city = ["manor", "temple", "market", "keep", "haunted_city"]
    assert _colours("dezh", city, [1, 1, 1, 2, 3]) == 3


def test_R8_haunted_city_counted_as_a_colour_stops_being_purple() -> None:
    # Counted as red it leaves purple missing: only one colour can be filled.
    assert _colours("classic", ["manor", "temple", "market", "haunted_city"], [1, 1, 1, 1]) == 0


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R8_haunted_city_never_counts_for_income(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["merchant"]}, cities={0: ["haunted_city", "market"]}
    )
    play(game, TakeIncome())
    assert player(game, 0).gold == 1


# --- R-9 School of Magic -------------------------------------------------------------------


def test_R9_school_of_magic_is_green_for_the_merchant() -> None:
    game = position(
        "classic", 4, characters={0: ["merchant"]}, cities={0: ["school_of_magic", "docks"]}
    )
    play(game, GatherGold(), TakeIncome())
    assert player(game, 0).gold == 2 + 1 + 2
    assert events(game, "income")[0]["gold"] == 2


def test_R9_school_of_magic_is_purple_for_the_colour_bonus() -> None:
    game = position(
        "classic",
        4,
        characters={1: ["king"]},
        cities={0: ["manor", "temple", "tavern", "school_of_magic"]},
        first_complete=1,
    )
    finish_round(game)
    assert game.result()[0].breakdown.colours == 0


# --- R-10 gather modifiers -----------------------------------------------------------------


def test_R10_library_and_observatory_classic_draw_three_keep_two() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["thief"]},
        cities={0: ["library", "observatory"]},
        deck_top=["temple", "manor", "fortress"],
    )
    assert [a for a in legal(game) if isinstance(a, GatherCards)] == [GatherCards(3)]
    play(game, GatherCards(3))
    assert KeepCards(("fortress", "temple")) in legal(game)
    play(game, KeepCards(("fortress", "temple")))
    assert sorted(player(game, 0).hand) == ["fortress", "temple"]
    assert deck_bottom(game, 1) == ["manor"]


@pytest.mark.parametrize("cities", [["library"], ["observatory"], ["library", "observatory"]])
def test_R10_smithy_draws_are_not_modified(cities: list[str]) -> None:
    game = position(
        "classic",
        4,
        characters={0: ["thief"]},
        cities={0: ["smithy", *cities]},
        gold={0: 2},
        deck_top=["manor", "castle", "palace", "temple"],
    )
    play(game, UseSmithy())
    assert game.state.pending == []
    assert sorted(player(game, 0).hand) == ["castle", "manor", "palace"]


def test_R10_architect_extras_are_not_modified() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["architect"]},
        cities={0: ["observatory"]},
        deck_top=["manor", "castle", "palace", "temple", "tavern"],
    )
    play(game, GatherCards(3), KeepCards(("castle",)))
    assert sorted(player(game, 0).hand) == ["castle", "tavern", "temple"]


def test_R10_gathering_gold_is_not_modified() -> None:
    game = position("classic", 4, characters={0: ["thief"]}, cities={0: ["library", "observatory"]})
    play(game, GatherGold())
    assert player(game, 0).gold == 2
    assert player(game, 0).hand == []


# --- R-11 once-per-turn districts --------------------------------------------------------------


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R11_laboratory_once_in_each_own_turn_with_two_characters(edition: str) -> None:
    game = position(
        edition,
        2,
        characters={0: ["thief", "king"], 1: ["bishop"]},
        cities={0: ["laboratory"]},
        hands={0: ["manor", "castle", "palace"]},
    )
    assert turn(game) == (0, "thief")
    play(game, UseLaboratory("manor"))
    assert not any(isinstance(a, UseLaboratory) for a in legal(game))
    end_turn_with_gold(game)
    assert turn(game) == (0, "king")
    play(game, UseLaboratory("castle"))
    assert player(game, 0).gold == 1 + 2 + 1
    assert player(game, 0).hand == ["palace"]
    end_turn_with_gold(game)
    assert turn(game) == (1, "bishop")
    assert not any(isinstance(a, UseLaboratory) for a in legal(game))


def test_R11_smithy_only_in_its_owners_turn() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["thief"], 1: ["king"]},
        cities={1: ["smithy"]},
        gold={0: 5, 1: 5},
    )
    assert UseSmithy() not in legal(game)
    end_turn_with_gold(game)
    assert UseSmithy() in legal(game)
    play(game, UseSmithy())
    assert UseSmithy() not in legal(game)


# --- R-20 end-game order -------------------------------------------------------------------


def test_R20_final_round_is_finished_before_scoring() -> None:
    seven = ["manor", "castle", "temple", "church", "tavern", "market", "watchtower"]
    game = position(
        "classic",
        4,
        crown=2,
        characters={0: ["assassin"], 1: ["king"], 2: ["merchant"], 3: ["architect"]},
        cities={2: seven, 3: ["temple"]},
        hands={2: ["palace"], 3: ["fortress", "cathedral"]},
        gold={2: 3, 3: 10},
    )
    play(game, Murder("king"), GatherGold(), EndTurn())
    play(game, GatherGold(), Build("palace"), EndTurn())
    assert game.state.first_complete == 2
    play(game, GatherGold(), Build("fortress"), Build("cathedral"), EndTurn())
    assert game.is_over
    kinds = [e["kind"] for e in events_all(game)]
    assert kinds.index("crown") < kinds.index("game_over")
    assert game.state.crown == 1
    result = game.result()
    assert result[3].breakdown.districts == 1 + 5 + 5
    assert result[2].breakdown.first_complete == 4


# --- R-27 crown ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_R27_king_takes_the_crown_when_revealed(edition: str) -> None:
    game = position(edition, 4, crown=0, characters={2: ["king"], 3: ["warlord"]})
    assert game.state.crown == 2
    crown_events = events(game, "crown", 1)
    assert [(e["seat"], e["from"]) for e in crown_events] == [(2, 0)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_R27_killed_king_takes_it_at_round_end(edition: str) -> None:
    game = position(edition, 4, crown=1, characters={0: ["assassin"], 2: ["king"]})
    play(game, Murder("king"), GatherGold(), EndTurn())
    assert game.state.crown == 2
    kinds = [e["kind"] for e in events_all(game)]
    assert kinds.index("murdered_revealed") < kinds.index("crown") < kinds.index("round_end")


def test_R27_no_king_revealed_crown_stays() -> None:
    game = position("dezh", 5, crown=4, characters={0: ["bishop"], 1: ["thief"]})
    finish_round(game)
    assert game.state.crown == 4
    assert events(game, "crown") == []


def test_R27_king_holder_already_crowned_keeps_it_silently() -> None:
    game = position("basic", 4, crown=2, characters={2: ["king"]})
    assert game.state.crown == 2
    assert events(game, "crown") == []


@pytest.mark.parametrize("players", [4, 5])
def test_R27_king_is_never_discarded_face_up(players: int) -> None:
    for seed in range(150):
        s = citadels.new_game("dezh", players, seed=seed).state
        assert "king" not in s.faceup


# --- R-29 Thief ----------------------------------------------------------------------------


def test_R29_basic_thief_names_ranks_three_to_eight_only() -> None:
    game = position("basic", 4, characters={0: ["thief"]})
    assert [a.character for a in legal(game) if isinstance(a, Rob)] == [
        "magician",
        "king",
        "bishop",
        "merchant",
        "architect",
        "warlord",
    ]


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_R29_thief_names_rank_two_up_but_never_rank_one(edition: str) -> None:
    game = position(edition, 4, characters={0: ["thief"]})
    named = [a.character for a in legal(game) if isinstance(a, Rob)]
    assert named == ["magician", "king", "bishop", "merchant", "architect", "warlord"]
    assert "assassin" not in named


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_nothing_happens_if_the_named_character_is_not_held(edition: str) -> None:
    game = position(edition, 4, characters={0: ["thief"], 1: ["king"]}, gold={0: 1, 1: 6})
    play(game, Rob("warlord"), GatherGold(), EndTurn())
    assert turn(game) == (1, "king")
    assert player(game, 1).gold == 6
    finish_round(game)
    assert events(game, "robbed") == []
    assert player(game, 0).gold == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_R29_thief_never_names_the_murdered_character(edition: str) -> None:
    game = position(edition, 4, characters={0: ["assassin"], 1: ["thief"]})
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert Rob("bishop") not in legal(game)
    assert Rob("king") in legal(game)


def test_R29_gold_moves_before_the_victim_gathers() -> None:
    game = position("dezh", 4, characters={0: ["thief"], 1: ["architect"]}, gold={0: 0, 1: 4})
    play(game, Rob("architect"), GatherGold(), EndTurn())
    assert turn(game) == (1, "architect")
    assert player(game, 1).gold == 0
    assert player(game, 0).gold == 6
    play(game, GatherGold())
    assert player(game, 1).gold == 2


# --- R-30 building limits -------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_R30_base_limit_is_one(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["king"]},
        hands={0: ["temple", "tavern"]},
        gold={0: 10},
    )
    play(game, GatherGold(), Build("temple"))
    assert Build("tavern") not in legal(game)
    assert game.view(0)["turn"]["build_limit"] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_R30_architect_limit_is_three(edition: str) -> None:
    game = position(edition, 4, characters={0: ["architect"]})
    assert game.view(0)["turn"]["build_limit"] == 3


@pytest.mark.parametrize("edition", EDITIONS)
def test_R30_no_duplicate_even_for_the_architect(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["architect"]},
        hands={0: ["manor", "manor", "tavern"]},
        gold={0: 10},
    )
    play(game, GatherGold(), Build("manor"))
    assert Build("manor") not in legal(game)
    play(game, Build("tavern"))
    assert player(game, 0).city == ["manor", "tavern"]
    assert player(game, 0).hand.count("manor") == 1


# --- R-33 classic tie-break ------------------------------------------------------------------


def _classic_tie(cities: dict[int, list[str]], gold: dict[int, int]) -> citadels.Outcome:
    game = position(
        "classic",
        4,
        characters={0: ["magician"], 1: ["bishop"]},
        cities={**cities, 3: EIGHT},
        gold=gold,
        first_complete=3,
    )
    finish_round(game)
    return game.result()


def test_R33_classic_tie_break_costs_then_gold_then_shared() -> None:
    costs = _classic_tie({0: ["university"], 1: ["palace", "manor"]}, {0: 9, 1: 0})
    assert costs[1].rank < costs[0].rank
    assert costs[0].tiebreak == "district_costs"
    gold = _classic_tie({0: ["palace", "church"], 1: ["castle", "monastery"]}, {0: 0, 1: 1})
    assert gold[1].rank < gold[0].rank
    assert gold[0].tiebreak == "gold"
    shared = _classic_tie({0: ["palace", "church"], 1: ["castle", "monastery"]}, {0: 1, 1: 1})
    assert shared[0].rank == shared[1].rank
    assert shared[0].tiebreak == "shared"
