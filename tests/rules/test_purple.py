"""The purple districts of `dezh` (CARDS.md T2) and `classic` (T3), one class per card."""

from __future__ import annotations

import pytest

from citadels import (
    Build,
    Destroy,
    EndTurn,
    GatherCards,
    GatherGold,
    IllegalAction,
    KeepCards,
    Murder,
    TakeIncome,
    UseGraveyard,
    UseLaboratory,
    UseSmithy,
)
from tests.helpers import (
    deck_bottom,
    deck_top,
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    play,
    player,
    position,
    snapshot,
    turn,
)

PURPLE_EDITIONS = ("dezh", "classic")


def _score_at_game_end(edition: str, city: list[str], built: list[int] | None = None) -> int:
    """Seat 0's colour bonus when the game ends after round 1 with ``city``."""
    game = position(
        edition,
        4,
        characters={1: ["king"]},
        cities={0: city},
        built={0: built} if built is not None else None,
        first_complete=1,
    )
    finish_round(game)
    assert game.is_over
    return game.result()[0].breakdown.colours


class TestHauntedCity:
    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_haunted_city_counts_as_the_missing_colour(self, edition: str) -> None:
        city = ["manor", "temple", "tavern", "keep", "haunted_city"]
        assert _score_at_game_end(edition, city) == 3

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_haunted_city_is_only_one_colour(self, edition: str) -> None:
        assert _score_at_game_end(edition, ["manor", "temple", "keep", "haunted_city"]) == 0

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_haunted_city_may_stay_purple(self, edition: str) -> None:
        city = ["manor", "temple", "tavern", "prison", "haunted_city"]
        assert _score_at_game_end(edition, city) == 3

    def test_haunted_city_built_in_the_final_round_is_purple_in_classic(self) -> None:
        city = ["manor", "temple", "tavern", "keep", "haunted_city"]
        assert _score_at_game_end("classic", city, [0, 0, 0, 0, 1]) == 0

    def test_haunted_city_built_in_the_final_round_still_counts_in_dezh(self) -> None:
        city = ["manor", "temple", "tavern", "keep", "haunted_city"]
        assert _score_at_game_end("dezh", city, [0, 0, 0, 0, 1]) == 3

    @pytest.mark.parametrize(("edition", "bonus"), [("classic", 0), ("dezh", 3)])
    def test_haunted_city_as_the_completing_build(self, edition: str, bonus: int) -> None:
        seven = ["manor", "temple", "tavern", "keep", "castle", "church", "market"]
        game = position(
            edition,
            3,
            characters={0: ["thief"]},
            cities={0: seven},
            hands={0: ["haunted_city"]},
            gold={0: 2},
        )
        assert game.state.complete_at == 8
        play(game, GatherGold(), Build("haunted_city"), EndTurn())
        assert game.is_over
        assert game.result()[0].breakdown.colours == bonus

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_haunted_city_gives_no_income(self, edition: str) -> None:
        for character in ("king", "bishop", "merchant", "warlord"):
            game = position(edition, 4, characters={0: [character]}, cities={0: ["haunted_city"]})
            assert TakeIncome() not in legal(game)

    def test_haunted_city_scores_its_cost(self) -> None:
        game = position("dezh", 4, characters={1: ["king"]}, cities={0: ["haunted_city"]})
        assert game.result()[0].breakdown.districts == 2


class TestKeep:
    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_keep_cannot_be_destroyed(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["warlord"]},
            cities={0: ["keep"], 1: ["keep", "temple"]},
            gold={0: 10},
        )
        play(game, GatherGold())
        targets = {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)}
        assert targets == {(1, "temple")}
        before = snapshot(game)
        with pytest.raises(IllegalAction) as err:
            game.apply(Destroy(1, "keep"))
        assert err.value.rule == "C-27"
        assert snapshot(game) == before

    def test_keep_two_copies_but_one_per_city(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"]},
            cities={0: ["keep"]},
            hands={0: ["keep"]},
            gold={0: 5},
        )
        play(game, GatherGold())
        assert Build("keep") not in legal(game)

    def test_keep_scores_its_cost(self) -> None:
        game = position("classic", 4, characters={1: ["king"]}, cities={0: ["keep", "manor"]})
        assert game.result()[0].breakdown.districts == 6


class TestObservatory:
    def test_observatory_dezh_drawing_three_is_a_choice(self) -> None:
        game = position(
            "dezh",
            4,
            characters={0: ["thief"]},
            cities={0: ["observatory"]},
            deck_top=["palace", "temple", "manor"],
        )
        assert GatherCards(2) in legal(game)
        assert GatherCards(3) in legal(game)
        play(game, GatherCards(3))
        assert legal(game) == [
            KeepCards(("manor",)),
            KeepCards(("palace",)),
            KeepCards(("temple",)),
        ]
        play(game, KeepCards(("temple",)))
        assert player(game, 0).hand == ["temple"]
        assert sorted(deck_bottom(game, 2)) == ["manor", "palace"]

    def test_observatory_dezh_may_draw_two(self) -> None:
        game = position(
            "dezh",
            4,
            characters={0: ["thief"]},
            cities={0: ["observatory"]},
            deck_top=["palace", "temple", "manor"],
        )
        play(game, GatherCards(2))
        assert len(legal(game)) == 2
        play(game, KeepCards(("palace",)))
        assert deck_top(game, 1) == ["manor"]

    def test_observatory_classic_draws_three(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"]},
            cities={0: ["observatory"]},
            deck_top=["palace", "temple", "manor", "castle"],
        )
        gathers = [a for a in legal(game) if isinstance(a, GatherCards)]
        assert gathers == [GatherCards(3)]
        play(game, GatherCards(3), KeepCards(("manor",)))
        assert player(game, 0).hand == ["manor"]
        assert deck_top(game, 1) == ["castle"]
        assert sorted(deck_bottom(game, 2)) == ["palace", "temple"]

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_observatory_helps_only_its_owner(self, edition: str) -> None:
        game = position(edition, 4, characters={0: ["thief"]}, cities={1: ["observatory"]})
        gathers = [a for a in legal(game) if isinstance(a, GatherCards)]
        assert gathers == [GatherCards(2)]

    def test_observatory_with_two_cards_left(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"]},
            cities={0: ["observatory"]},
            deck=["castle", "manor"],
        )
        play(game, GatherCards(3))
        assert legal(game) == [KeepCards(("castle",)), KeepCards(("manor",))]
        play(game, KeepCards(("castle",)))
        assert game.state.deck == ["manor"]


class TestGraveyard:
    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_graveyard_owner_buys_the_destroyed_district(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["warlord"]},
            cities={1: ["graveyard"], 2: ["market", "temple"]},
            gold={0: 5, 1: 3},
        )
        play(game, GatherGold(), Destroy(2, "market"))
        assert game.to_move == 1
        assert legal(game) == [UseGraveyard(False), UseGraveyard(True)]
        assert game.view(3)["pending"] == {"kind": "graveyard", "seat": 1, "cards": ["market"]}
        bottom = deck_bottom(game, 1)
        play(game, UseGraveyard(True))
        assert player(game, 1).hand == ["market"]
        assert player(game, 1).gold == 2
        assert player(game, 2).city == ["temple"]
        assert deck_bottom(game, 1) == bottom
        assert events(game, "graveyard", 2)[0]["take"] is True

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_graveyard_owner_may_let_it_go(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["warlord"]},
            cities={1: ["graveyard"], 2: ["market"]},
            gold={0: 5, 1: 3},
        )
        play(game, GatherGold(), Destroy(2, "market"), UseGraveyard(False))
        assert player(game, 1).hand == []
        assert player(game, 1).gold == 3
        assert deck_bottom(game, 1) == ["market"]

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_graveyard_needs_one_gold(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["warlord"]},
            cities={1: ["graveyard"], 2: ["market"]},
            gold={0: 5, 1: 0},
        )
        play(game, GatherGold(), Destroy(2, "market"))
        assert game.state.pending == []
        assert deck_bottom(game, 1) == ["market"]

    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_graveyard_cannot_save_itself(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["warlord"]},
            cities={1: ["graveyard", "manor"]},
            gold={0: 5, 1: 3},
        )
        play(game, GatherGold(), Destroy(1, "graveyard"))
        assert game.state.pending == []
        assert deck_bottom(game, 1) == ["graveyard"]
        assert player(game, 0).gold == 7 - 4

    def test_graveyard_dezh_warlord_owner_may_take_it_back(self) -> None:
        game = position(
            "dezh",
            4,
            characters={0: ["warlord"]},
            cities={0: ["graveyard"], 2: ["market"]},
            gold={0: 5},
        )
        play(game, Destroy(2, "market"))
        assert game.to_move == 0
        play(game, UseGraveyard(True))
        assert player(game, 0).hand == ["market"]
        assert player(game, 0).gold == 3

    def test_graveyard_classic_not_for_the_warlord_himself(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={0: ["graveyard"], 2: ["market"]},
            gold={0: 5},
        )
        play(game, GatherGold(), Destroy(2, "market"))
        assert game.state.pending == []
        assert player(game, 0).hand == []
        assert deck_bottom(game, 1) == ["market"]

    def test_graveyard_classic_turn_ends_after_the_answer(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={1: ["graveyard"], 2: ["market"]},
            gold={0: 5, 1: 1},
        )
        play(game, GatherGold(), Destroy(2, "market"))
        assert game.state.round == 1
        play(game, UseGraveyard(True))
        assert game.state.round == 2
        assert player(game, 1).gold == 0


class TestLaboratory:
    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_laboratory_discards_a_card_for_one_gold(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["thief"]},
            cities={0: ["laboratory"]},
            hands={0: ["manor", "palace"]},
        )
        labs = [a for a in legal(game) if isinstance(a, UseLaboratory)]
        assert labs == [UseLaboratory("manor"), UseLaboratory("palace")]
        play(game, UseLaboratory("palace"))
        assert player(game, 0).gold == 1
        assert player(game, 0).hand == ["manor"]
        assert deck_bottom(game, 1) == ["palace"]
        assert not any(isinstance(a, UseLaboratory) for a in legal(game))
        assert "district" not in events(game, "laboratory", 1)[0]
        assert events(game, "laboratory", 0)[0]["district"] == "palace"

    def test_laboratory_only_in_the_owners_turn(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"], 1: ["king"]},
            cities={1: ["laboratory"]},
            hands={0: ["manor"], 1: ["palace"]},
        )
        assert not any(isinstance(a, UseLaboratory) for a in legal(game))
        end_turn_with_gold(game)
        assert UseLaboratory("palace") in legal(game)

    def test_laboratory_needs_a_card_in_hand(self) -> None:
        game = position("dezh", 4, characters={0: ["thief"]}, cities={0: ["laboratory"]})
        assert not any(isinstance(a, UseLaboratory) for a in legal(game))


class TestSmithy:
    @pytest.mark.parametrize("edition", PURPLE_EDITIONS)
    def test_smithy_buys_three_cards_for_two_gold(self, edition: str) -> None:
        game = position(
            edition,
            4,
            characters={0: ["thief"]},
            cities={0: ["smithy"]},
            gold={0: 3},
            deck_top=["manor", "castle", "palace", "temple"],
        )
        play(game, UseSmithy())
        assert player(game, 0).gold == 1
        assert sorted(player(game, 0).hand) == ["castle", "manor", "palace"]
        assert deck_top(game, 1) == ["temple"]
        assert UseSmithy() not in legal(game)
        assert events(game, "smithy", 2)[0]["count"] == 3
        assert "districts" not in events(game, "smithy", 2)[0]

    def test_smithy_needs_two_gold(self) -> None:
        game = position(
            "classic", 4, characters={0: ["thief"]}, cities={0: ["smithy"]}, gold={0: 1}
        )
        assert UseSmithy() not in legal(game)
        play(game, GatherGold())
        assert UseSmithy() in legal(game)

    def test_smithy_with_a_short_deck(self) -> None:
        game = position(
            "dezh",
            4,
            characters={0: ["thief"]},
            cities={0: ["smithy"]},
            gold={0: 2},
            deck=["manor"],
        )
        play(game, UseSmithy())
        assert player(game, 0).hand == ["manor"]
        assert player(game, 0).gold == 0
        assert game.state.deck == []

    def test_smithy_not_offered_with_an_empty_deck(self) -> None:
        game = position(
            "dezh", 4, characters={0: ["thief"]}, cities={0: ["smithy"]}, gold={0: 5}, deck=[]
        )
        assert UseSmithy() not in legal(game)


class TestDragonGateAndUniversity:
    @pytest.mark.parametrize("district", ["dragon_gate", "university"])
    def test_dragon_gate_university_score_eight(self, district: str) -> None:
        game = position("classic", 4, characters={1: ["king"]}, cities={0: [district]})
        b = game.result()[0].breakdown
        assert (b.districts, b.bonus, b.total) == (6, 2, 8)

    def test_dragon_gate_costs_six_to_build(self) -> None:
        game = position(
            "classic", 4, characters={0: ["thief"]}, hands={0: ["dragon_gate"]}, gold={0: 4}
        )
        play(game, GatherGold())
        play(game, Build("dragon_gate"))
        assert player(game, 0).gold == 0

    def test_university_costs_five_to_destroy(self) -> None:
        game = position(
            "classic", 4, characters={0: ["warlord"]}, cities={1: ["university"]}, gold={0: 3}
        )
        play(game, GatherGold())
        play(game, Destroy(1, "university"))
        assert player(game, 0).gold == 0


class TestLibrary:
    def test_library_keeps_both_drawn_cards(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"]},
            cities={0: ["library"]},
            deck_top=["manor", "castle"],
        )
        bottom = deck_bottom(game, 3)
        play(game, GatherCards())
        assert game.state.pending == []
        assert sorted(player(game, 0).hand) == ["castle", "manor"]
        assert deck_bottom(game, 3) == bottom

    def test_library_with_observatory_draws_three_keeps_two(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["thief"]},
            cities={0: ["library", "observatory"]},
            deck_top=["manor", "castle", "palace"],
        )
        play(game, GatherCards(3))
        choices = legal(game)
        assert len(choices) == 3
        assert all(isinstance(a, KeepCards) and len(a.districts) == 2 for a in choices)
        play(game, KeepCards(("castle", "palace")))
        assert sorted(player(game, 0).hand) == ["castle", "palace"]
        assert deck_bottom(game, 1) == ["manor"]

    def test_library_does_not_change_the_architect_extras(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["architect"]},
            cities={0: ["library"]},
            deck_top=["manor", "castle", "palace", "temple", "tavern"],
        )
        play(game, GatherCards())
        assert sorted(player(game, 0).hand) == ["castle", "manor", "palace", "temple"]
        assert deck_top(game, 1) == ["tavern"]


class TestGreatWall:
    def test_great_wall_adds_one_to_other_districts(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={1: ["great_wall", "temple", "manor"], 2: ["tavern"]},
            gold={0: 0},
        )
        play(game, GatherGold())
        targets = {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)}
        # Temple 1 and Manor 3 behind the wall; the wall itself 5; the Tavern elsewhere free.
        assert targets == {(1, "temple"), (2, "tavern")}
        play(game, Destroy(1, "temple"))
        assert player(game, 0).gold == 1

    def test_great_wall_itself_costs_five(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={1: ["great_wall", "manor"]},
            gold={0: 3},
        )
        play(game, GatherGold(), Destroy(1, "great_wall"))
        assert player(game, 0).gold == 0
        assert player(game, 1).city == ["manor"]

    def test_great_wall_manor_costs_three(self) -> None:
        game = position(
            "classic",
            4,
            characters={0: ["warlord"]},
            cities={1: ["great_wall", "manor"]},
            gold={0: 1},
        )
        play(game, GatherGold())
        assert Destroy(1, "manor") in legal(game)
        play(game, Destroy(1, "manor"))
        assert player(game, 0).gold == 0


class TestSchoolOfMagic:
    @pytest.mark.parametrize(
        ("character", "district", "extra"),
        [
            ("king", "manor", 0),
            ("bishop", "temple", 0),
            ("merchant", "market", 1),
            ("warlord", "prison", 0),
        ],
    )
    def test_school_of_magic_counts_for_any_income_colour(
        self, character: str, district: str, extra: int
    ) -> None:
        game = position(
            "classic",
            4,
            characters={0: [character]},
            cities={
                0: [district, "school_of_magic", "castle" if district != "manor" else "tavern"]
            },
        )
        play(game, GatherGold(), TakeIncome())
        assert player(game, 0).gold == 2 + extra + 2

    def test_school_of_magic_alone_still_pays(self) -> None:
        game = position("classic", 4, characters={0: ["bishop"]}, cities={0: ["school_of_magic"]})
        assert TakeIncome() in legal(game)
        play(game, TakeIncome())
        assert player(game, 0).gold == 1

    def test_school_of_magic_is_purple_for_scoring(self) -> None:
        assert _score_at_game_end("classic", ["manor", "temple", "tavern", "school_of_magic"]) == 0
        full = ["manor", "temple", "tavern", "prison", "school_of_magic"]
        assert _score_at_game_end("classic", full) == 3

    def test_school_of_magic_no_income_for_colourless_characters(self) -> None:
        game = position("classic", 4, characters={0: ["assassin"]}, cities={0: ["school_of_magic"]})
        assert TakeIncome() not in legal(game)
        play(game, Murder("king"))
        assert turn(game) == (0, "assassin")
