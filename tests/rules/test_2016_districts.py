"""The 30 unique districts of the `2016` edition (CARDS.md T7), one class per card.

Positions place the cards directly (``tests.helpers.position``), so no ``districts=`` option
is needed; the deck, where it matters, is stacked with ``deck_top``. End-of-game points are
read from ``Game.result()``, which scores the position as if the game ended now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citadels import (
    Build,
    Destroy,
    EndTurn,
    Game,
    GatherCards,
    GatherGold,
    KeepCards,
    Murder,
    TakeIncome,
    UseLaboratory,
    UseSmithy,
)
from citadels.engine.actions import (
    Beautify,
    BuildFree,
    BuildWithLoan,
    ExchangeDistrict,
    LookAtHand,
    PayRemainder,
    PayWithCard,
    Seize,
    TakeCard,
    UseArmory,
    UseMuseum,
    UseTheater,
)
from tests.helpers import (
    characters_2016,
    deck_bottom,
    events,
    legal,
    of_type,
    pick_first,
    play,
    player,
    position,
    refused,
    turn,
)

SIX = ["manor", "temple", "church", "tavern", "market", "prison"]


def new16(players: int = 4, chosen: Sequence[str] = (), **kwargs: Any) -> Game:
    """A `2016` position; ``chosen`` characters are swapped into the character set."""
    options = {"characters": characters_2016(*chosen), **kwargs.pop("options", {})}
    return position("2016", players, options=options, **kwargs)


def bonus(game: Game, seat: int) -> int:
    """The bonus part (C-15e) of a seat's score if the game ended now."""
    return game.result()[seat].breakdown.bonus


def scored(city: Sequence[str], **kwargs: Any) -> Game:
    """A position in which seat 0 has ``city``, to read its score."""
    return new16(4, characters={1: ["king"]}, cities={0: list(city)}, **kwargs)


class TestArmory:
    def test_R15_armory_destroys_in_any_city_own_included(self) -> None:
        game = new16(
            4,
            characters={0: ["king"], 1: ["bishop"]},
            cities={0: ["armory", "manor"], 2: ["castle"]},
        )
        assert {(a.seat, a.district) for a in of_type(game, UseArmory)} == {
            (0, "manor"),
            (2, "castle"),
        }
        play(game, UseArmory(0, "manor"))
        assert player(game, 0).city == []
        assert deck_bottom(game, 2) == ["manor", "armory"]
        assert player(game, 0).gold == 0
        assert not of_type(game, UseArmory)

    def test_R15_armory_ignores_keep_bishop_great_wall_not_completed_cities(self) -> None:
        game = new16(
            4,
            characters={0: ["bishop"], 1: ["merchant"]},
            cities={
                0: ["temple"],
                1: ["armory"],
                2: ["keep", "great_wall"],
                3: ["monument", *SIX[:5]],
            },
        )
        play(game, GatherGold(), EndTurn())
        assert turn(game) == (1, "merchant")
        targets = {(a.seat, a.district) for a in of_type(game, UseArmory)}
        # The Bishop's temple, the Keep and the Great Wall: yes. The Monument city (5 + 2 =
        # 7 districts, completed): no.
        assert targets == {(0, "temple"), (2, "keep"), (2, "great_wall")}
        play(game, UseArmory(2, "keep"))
        assert player(game, 2).city == ["great_wall"] and player(game, 1).gold == 0


class TestBasilica:
    def test_T7_R1_basilica_scores_the_odd_current_costs(self) -> None:
        game = scored(
            ["basilica", "temple", "manor", "castle", "church"], beautified={0: ["castle"]}
        )
        # temple 1, manor 3, beautified castle 5: +3; basilica 4 and church 2 are even.
        assert bonus(game, 0) == 3
        assert game.result()[0].breakdown.districts == 4 + 1 + 3 + 5 + 2

    def test_R1_R22_basilica_counts_a_beautified_monument_once(self) -> None:
        game = new16(
            4,
            ["artist"],
            characters={0: ["artist"]},
            cities={0: ["basilica", "monument", "temple"]},
            gold={0: 1},
        )
        play(game, Beautify("monument"))
        # Monument 5 (odd, counted once) and temple 1.
        assert bonus(game, 0) == 2


class TestCapitol:
    def test_T7_capitol_three_districts_of_one_type_once(self) -> None:
        assert bonus(scored(["capitol", "manor", "castle", "palace"]), 0) == 3
        assert bonus(scored(["capitol", "manor", "castle", "temple"]), 0) == 0
        # Unique counts as a type; two types at 3+ still score once.
        city = ["capitol", "keep", "statue", "manor", "castle", "palace"]
        assert bonus(scored(city), 0) == 3

    def test_R8_R22_capitol_counts_a_haunted_quarter_choice_and_the_monument_once(self) -> None:
        assert bonus(scored(["capitol", "manor", "castle", "haunted_quarter"]), 0) == 3
        assert bonus(scored(["capitol", "monument", "manor"]), 0) == 0


class TestDragonGate:
    def test_R2_dragon_gate_scores_two_bonus_points(self) -> None:
        result = scored(["dragon_gate"]).result()[0]
        assert (result.breakdown.districts, result.breakdown.bonus) == (6, 2)


class TestFactory:
    def test_R13_factory_takes_one_off_unique_builds_thieves_den_included(self) -> None:
        game = new16(
            4,
            characters={0: ["architect"]},
            cities={0: ["factory"]},
            hands={0: ["keep", "thieves_den", "manor"]},
            gold={0: 6},
            deck_top=["temple", "church"],
        )
        play(game, GatherGold(), Build("keep"))
        assert player(game, 0).gold == 8 - 2
        play(game, Build("thieves_den"))
        # The Den's price is 5, paid in cards and/or gold.
        assert game.view(0)["pending"]["price_left"] == 5
        play(game, PayWithCard("temple"), PayRemainder())
        assert player(game, 0).gold == 6 - 4
        # Coloured districts cost what they cost.
        assert sorted(player(game, 0).hand) == ["church", "manor"]
        refused(game, Build("manor"))

    def test_R13_factory_changes_neither_score_nor_destroy_cost(self) -> None:
        game = new16(
            4,
            characters={1: ["warlord"]},
            cities={0: ["factory", "keep", "statue"]},
            gold={1: 1},
        )
        assert game.result()[0].breakdown.districts == 5 + 3 + 3
        assert not of_type(game, Destroy)
        game.state.players[1].gold = 2
        game._legal = None
        assert {a.district for a in of_type(game, Destroy)} == {"statue"}

    def test_R13_cardinal_shortfall_uses_the_factory_price(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={0: ["cardinal"]},
            cities={0: ["factory"]},
            hands={0: ["library", "manor", "castle", "palace"]},
            gold={0: 0, 2: 9},
        )
        play(game, GatherGold(), BuildWithLoan("library", 2))
        # Library 6 - 1 = 5; he has 2: 3 gold borrowed, 3 cards owed.
        assert player(game, 2).gold == 6
        assert game.state.pending[-1].keep == 3


class TestFramework:
    def test_T7_framework_is_destroyed_to_build_a_district(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["framework"]},
            hands={0: ["palace", "temple"]},
            gold={0: 0},
        )
        play(game, GatherGold())
        free = of_type(game, BuildFree)
        assert set(free) == {BuildFree("palace", "framework"), BuildFree("temple", "framework")}
        play(game, BuildFree("palace", "framework"))
        assert player(game, 0).city == ["palace"]
        assert deck_bottom(game, 1) == ["framework"]
        assert player(game, 0).gold == 2
        # It used the building limit.
        assert not of_type(game, Build)

    def test_R23_framework_never_builds_the_secret_vault(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["framework"]},
            hands={0: ["secret_vault"]},
        )
        play(game, GatherGold())
        assert not of_type(game, BuildFree)
        refused(game, BuildFree("secret_vault", "framework"))


class TestGoldMine:
    def test_R10_gold_mine_adds_one_when_gathering_gold_only(self) -> None:
        game = new16(
            4, characters={0: ["king"], 1: ["bishop"]}, cities={0: ["gold_mine"], 1: ["gold_mine"]}
        )
        play(game, GatherGold())
        assert player(game, 0).gold == 3
        play(game, EndTurn(), GatherCards())
        play(game, KeepCards((game.state.pending[-1].cards[0],)))
        assert player(game, 1).gold == 0


class TestGreatWall:
    def test_R5_great_wall_adds_one_to_destroy_its_owners_other_districts(self) -> None:
        game = new16(
            4,
            characters={1: ["warlord"]},
            cities={2: ["great_wall", "watchtower", "manor"]},
            gold={1: 5},
        )
        costs = {a.district for a in of_type(game, Destroy)}
        # Watchtower 0 + 1, manor 2 + 1, the Wall itself 5.
        assert costs == {"watchtower", "manor", "great_wall"}
        play(game, Destroy(2, "manor"))
        assert player(game, 1).gold == 2


class TestHauntedQuarter:
    def test_R8_haunted_quarter_built_in_the_final_round_still_chooses_a_type(self) -> None:
        city = ["haunted_quarter", "manor", "tavern", "watchtower", "keep"]
        game = scored(city, built={0: [1, 0, 0, 0, 0]})
        assert game.state.round == 1
        # Counted as blue: five types, +3.
        assert game.result()[0].breakdown.colours == 3

    def test_R8_haunted_quarter_never_counts_for_income(self) -> None:
        game = new16(4, characters={0: ["bishop"]}, cities={0: ["haunted_quarter", "temple"]})
        play(game, TakeIncome())
        assert player(game, 0).gold == 1


class TestImperialTreasury:
    def test_T7_imperial_treasury_one_point_per_gold_in_stash(self) -> None:
        game = scored(["imperial_treasury", "manor"], gold={0: 7}, beautified={0: ["manor"]})
        assert bonus(game, 0) == 7


class TestIvoryTower:
    def test_T7_ivory_tower_five_if_the_only_unique(self) -> None:
        assert bonus(scored(["ivory_tower", "manor"]), 0) == 5
        assert bonus(scored(["ivory_tower", "keep"]), 0) == 0

    def test_R8_ivory_tower_with_a_haunted_quarter_counted_as_another_type(self) -> None:
        assert bonus(scored(["ivory_tower", "haunted_quarter", "manor"]), 0) == 5


class TestKeep:
    def test_R4_keep_no_rank8_ability_but_the_armory_destroys_it(self) -> None:
        for rank8 in ("warlord", "marshal"):
            game = new16(
                4,
                [rank8],
                characters={1: [rank8]},
                cities={1: ["tavern"], 2: ["keep", "watchtower"]},
                gold={1: 10},
            )
            attacks = [a for a in legal(game) if isinstance(a, (Destroy, Seize))]
            assert attacks and all(a.district != "keep" for a in attacks)
        game = new16(4, characters={1: ["king"]}, cities={1: ["armory"], 2: ["keep"]})
        assert UseArmory(2, "keep") in legal(game)


class TestLaboratory:
    def test_R11_laboratory_two_gold_for_a_card_once_per_turn(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["laboratory"]},
            hands={0: ["manor", "castle"]},
        )
        play(game, UseLaboratory("manor"))
        assert player(game, 0).gold == 2 and player(game, 0).hand == ["castle"]
        assert deck_bottom(game, 1) == ["manor"]
        assert not of_type(game, UseLaboratory)


class TestLibrary:
    def test_R10_library_keeps_every_card_drawn(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["library"]},
            deck_top=["manor", "castle"],
        )
        play(game, GatherCards())
        assert game.state.pending == [] and sorted(player(game, 0).hand) == ["castle", "manor"]

    def test_R10_library_with_observatory_keeps_three(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["library", "observatory"]},
            deck_top=["manor", "castle", "palace"],
        )
        assert GatherCards(2) not in legal(game)
        play(game, GatherCards(3))
        assert sorted(player(game, 0).hand) == ["castle", "manor", "palace"]


class TestMapRoom:
    def test_R23_map_room_counts_every_card_in_hand_secret_vault_included(self) -> None:
        game = scored(["map_room"], hands={0: ["manor", "secret_vault"]})
        # +2 for the hand, +3 for the Secret Vault itself.
        assert bonus(game, 0) == 2 + 3


class TestMonument:
    def test_N4_monument_buildable_only_with_four_districts_or_fewer(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: SIX[:5]},
            hands={0: ["monument"]},
            gold={0: 4},
        )
        play(game, GatherGold())
        assert not of_type(game, Build)
        refused(game, Build("monument"))
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: SIX[:4]},
            hands={0: ["monument"]},
            gold={0: 4},
        )
        play(game, GatherGold(), Build("monument"))
        assert game.state.city_size(0) == 6

    def test_N4_R22_monument_counts_two_toward_completion_one_for_scoring(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["monument", *SIX[:4]]},
            hands={0: ["prison"]},
            gold={0: 2},
        )
        play(game, GatherGold(), Build("prison"))
        # 6 cards, 7 toward N: the first completed city.
        assert game.state.first_complete == 0
        result = game.result()[0]
        assert result.breakdown.districts == 4 + 3 + 1 + 2 + 1 + 2
        assert result.breakdown.first_complete == 4
        assert game.view(None)["players"][0]["complete"] is True

    def test_R18_wizard_immediate_build_follows_the_monument_size_test(self) -> None:
        game = new16(
            4,
            ["wizard"],
            characters={0: ["wizard"]},
            cities={0: SIX[:5]},
            hands={2: ["monument"]},
            gold={0: 10},
        )
        play(game, GatherGold(), LookAtHand(2))
        assert legal(game) == [TakeCard("monument", False)]

    def test_R18_R22_monument_arriving_by_exchange_still_counts_two(self) -> None:
        game = new16(
            4,
            ["diplomat"],
            characters={1: ["diplomat"]},
            cities={1: ["tavern", *SIX[:5]], 2: ["monument"]},
            gold={1: 10},
        )
        # The Diplomat has 6 districts: taking the Monument completes his city.
        play(game, ExchangeDistrict("tavern", 2, "monument"))
        assert game.state.first_complete == 1


class TestMuseum:
    def test_R11_R19_museum_tucks_once_per_turn_one_point_each(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["museum"]},
            hands={0: ["manor", "castle"]},
            museum={0: ["temple"]},
        )
        play(game, UseMuseum("manor"))
        assert player(game, 0).museum == ["temple", "manor"]
        assert not of_type(game, UseMuseum)
        assert bonus(game, 0) == 2
        assert game.view(1)["players"][0]["museum_size"] == 2
        assert "museum" not in game.view(1)["players"][0]

    def test_R19_museum_cards_move_with_it_on_exchange(self) -> None:
        game = new16(
            4,
            ["diplomat"],
            characters={1: ["diplomat"]},
            cities={1: ["castle"], 2: ["museum"]},
            museum={2: ["temple", "manor"]},
            gold={1: 0},
        )
        play(game, ExchangeDistrict("castle", 2, "museum"))
        assert player(game, 1).city == ["museum"] and player(game, 1).museum == ["temple", "manor"]
        assert player(game, 2).museum == []
        assert bonus(game, 1) == 2


class TestNecropolis:
    def test_T7_necropolis_built_by_destroying_an_own_district(self) -> None:
        game = new16(
            4,
            options={"characters": characters_2016("tax_collector")},
            characters={0: ["king"]},
            cities={0: ["manor", "temple"]},
            hands={0: ["necropolis"]},
            gold={0: 0},
        )
        play(game, GatherGold())
        assert set(of_type(game, BuildFree)) == {
            BuildFree("necropolis", "manor"),
            BuildFree("necropolis", "temple"),
        }
        play(game, BuildFree("necropolis", "manor"))
        assert player(game, 0).city == ["temple", "necropolis"]
        assert deck_bottom(game, 1) == ["manor"]
        # Taxed, not paid.
        assert player(game, 0).gold == 1 and game.state.tax_token == 1


class TestObservatory:
    def test_R10_observatory_draws_three_keeps_one(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["observatory"]},
            deck_top=["manor", "castle", "palace"],
        )
        assert [a for a in legal(game) if isinstance(a, GatherCards)] == [GatherCards(3)]
        play(game, GatherCards(3))
        assert len(legal(game)) == 3
        play(game, KeepCards(("castle",)))
        assert player(game, 0).hand == ["castle"]
        assert sorted(deck_bottom(game, 2)) == ["manor", "palace"]


class TestPark:
    def test_R21_park_two_cards_when_the_hand_is_empty_at_turn_end(self) -> None:
        game = new16(
            4,
            characters={0: ["king"], 1: ["bishop"]},
            cities={0: ["park"], 1: ["park"]},
            hands={0: ["temple"], 1: ["church", "manor"]},
            gold={0: 1},
            deck_top=["palace", "castle"],
        )
        play(game, GatherGold(), Build("temple"), EndTurn())
        assert sorted(player(game, 0).hand) == ["castle", "palace"]
        play(game, GatherGold(), EndTurn())
        assert len(player(game, 1).hand) == 2


class TestPoorHouse:
    def test_R21_poor_house_one_gold_for_an_empty_stash(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["poor_house"]},
            hands={0: ["manor"]},
            gold={0: 1},
        )
        play(game, GatherGold(), Build("manor"), EndTurn())
        assert player(game, 0).gold == 1
        assert [e["seat"] for e in events(game, "poor_house")] == [0]


class TestQuarry:
    def test_R12_quarry_allows_any_number_of_duplicates(self) -> None:
        game = new16(
            4,
            characters={0: ["architect"]},
            cities={0: ["quarry", "manor", "temple"]},
            hands={0: ["manor", "manor", "temple"]},
            gold={0: 10},
            deck_top=["docks", "harbor"],
        )
        play(game, GatherGold(), Build("manor"), Build("temple"), Build("manor"))
        assert player(game, 0).city.count("manor") == 3
        assert player(game, 0).city.count("temple") == 2

    def test_R12_quarry_gives_the_marshal_no_duplicate(self) -> None:
        game = new16(
            4,
            ["marshal"],
            characters={1: ["marshal"]},
            cities={1: ["quarry", "manor"], 2: ["manor"]},
            gold={1: 10},
        )
        assert Seize(2, "manor") not in legal(game)


class TestSchoolOfMagic:
    def test_R9_school_of_magic_counts_as_the_income_type(self) -> None:
        game = new16(
            4,
            ["abbot"],
            characters={0: ["king"], 1: ["abbot"]},
            cities={0: ["school_of_magic", "manor"], 1: ["school_of_magic", "temple"]},
        )
        play(game, TakeIncome())
        assert player(game, 0).gold == 2
        play(game, GatherGold(), EndTurn())
        assert of_type(game, TakeIncome) == [TakeIncome(0), TakeIncome(1), TakeIncome(2)]

    def test_R9_school_of_magic_pays_a_card_to_the_cardinal(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={0: ["cardinal"]},
            cities={0: ["school_of_magic"]},
            deck_top=["manor"],
        )
        assert of_type(game, TakeIncome) == [TakeIncome(1)]
        play(game, TakeIncome(1))
        assert player(game, 0).hand == ["manor"] and player(game, 0).gold == 0

    def test_R9_school_of_magic_is_unique_for_scoring(self) -> None:
        result = scored(["school_of_magic", "manor", "temple", "tavern", "prison"]).result()[0]
        assert result.breakdown.colours == 3


class TestSecretVault:
    def test_R23_secret_vault_is_never_built(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={0: ["cardinal"]},
            hands={0: ["secret_vault", "manor", "castle"]},
            gold={0: 0, 1: 9},
        )
        play(game, GatherGold())
        assert not {a for a in legal(game) if getattr(a, "district", "") == "secret_vault"}
        assert refused(game, Build("secret_vault")).rule == "R-23"
        refused(game, BuildWithLoan("secret_vault", 1))

    def test_R23_secret_vault_in_hand_scores_three(self) -> None:
        game = new16(4, characters={1: ["king"]}, hands={0: ["secret_vault"], 2: ["manor"]})
        assert bonus(game, 0) == 3 and bonus(game, 2) == 0


class TestSmithy:
    def test_R11_smithy_three_cards_for_two_gold_once_per_turn(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            cities={0: ["smithy"]},
            gold={0: 4},
            deck_top=["manor", "castle", "palace"],
        )
        play(game, UseSmithy())
        assert sorted(player(game, 0).hand) == ["castle", "manor", "palace"]
        assert player(game, 0).gold == 2
        assert not of_type(game, UseSmithy)


class TestStables:
    def test_R30_stables_is_outside_the_building_limit(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            hands={0: ["stables", "manor"]},
            gold={0: 4},
        )
        play(game, GatherGold(), Build("manor"), Build("stables"))
        assert player(game, 0).city == ["manor", "stables"]


class TestStatue:
    def test_T7_statue_five_with_the_crown(self) -> None:
        game = new16(4, crown=2, characters={1: ["bishop"]}, cities={0: ["statue"], 2: ["statue"]})
        assert bonus(game, 0) == 0 and bonus(game, 2) == 5

    def test_R20_statue_scores_the_crown_as_it_stands_after_the_final_round(self) -> None:
        game = new16(
            4,
            crown=2,
            characters={0: ["assassin"], 1: ["king"], 3: ["bishop"]},
            cities={1: ["statue", *SIX]},
            first_complete=1,
        )
        play(game, Murder("king"), GatherGold(), EndTurn(), GatherGold(), EndTurn())
        # The murdered King's heir takes the crown at the end of the final round.
        assert game.is_over and game.state.crown == 1
        assert bonus(game, 1) == 5


class TestTheater:
    def test_R31_theater_swaps_with_an_opponent_after_the_last_pick(self) -> None:
        game = new16(4, crown=0, cities={2: ["theater"]})
        pick_first(game)
        assert game.to_move == 2 and turn(game) is None
        assert legal(game) == [
            UseTheater(-1, ""),
            UseTheater(0, ""),
            UseTheater(1, ""),
            UseTheater(3, ""),
        ]
        mine, theirs = player(game, 2).characters[0], player(game, 0).characters[0]
        play(game, UseTheater(0, ""))
        assert player(game, 2).characters == [theirs]
        assert player(game, 0).characters == [mine]
        assert game.state.holders[theirs] == 2 and game.state.holders[mine] == 0
        # Each of the two sees the swap; nobody else does.
        for seat in (0, 2):
            event = events(game, "theater", seat)[0]
            assert (event["gave"], event["got"]) == (mine, theirs)
        for seat in (None, 1, 3):
            assert "got" not in events(game, "theater", seat)[0]
        assert turn(game) is not None

    def test_R31_theater_may_keep(self) -> None:
        game = new16(4, crown=0, cities={2: ["theater"]})
        pick_first(game)
        before = [p.characters[:] for p in game.state.players]
        play(game, UseTheater(-1, ""))
        assert [p.characters for p in game.state.players] == before

    def test_R31_theater_with_two_players_gives_a_chosen_one_takes_a_random_one(self) -> None:
        game = new16(2, crown=0, cities={1: ["theater"]})
        pick_first(game)
        mine = player(game, 1).characters[:]
        theirs = player(game, 0).characters[:]
        assert set(legal(game)) == {UseTheater(-1, "")} | {UseTheater(0, c) for c in mine}
        play(game, UseTheater(0, mine[1]))
        got = [c for c in player(game, 1).characters if c not in mine]
        assert len(got) == 1 and got[0] in theirs
        assert mine[0] in player(game, 1).characters
        assert mine[1] in player(game, 0).characters


class TestThievesDen:
    def test_T7_thieves_den_paid_partly_with_cards_which_are_discarded(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            hands={0: ["thieves_den", "manor", "temple", "castle"]},
            gold={0: 1},
        )
        play(game, GatherGold())
        # 3 gold + 3 other cards = 6.
        play(game, Build("thieves_den"))
        assert game.view(0)["pending"]["price_left"] == 6
        assert PayRemainder() not in legal(game)
        play(game, PayWithCard("manor"), PayWithCard("temple"), PayWithCard("castle"))
        assert legal(game) == [PayRemainder()]
        play(game, PayRemainder())
        assert player(game, 0).city == ["thieves_den"]
        assert player(game, 0).gold == 0 and player(game, 0).hand == []
        assert deck_bottom(game, 3) == ["manor", "temple", "castle"]

    def test_T7_thieves_den_not_offered_without_enough_gold_and_cards(self) -> None:
        game = new16(
            4,
            characters={0: ["king"]},
            hands={0: ["thieves_den", "manor"]},
            gold={0: 2},
        )
        play(game, GatherGold())
        assert Build("thieves_den") not in legal(game)


class TestWishingWell:
    def test_R8_wishing_well_one_per_unique_itself_included(self) -> None:
        assert bonus(scored(["wishing_well"]), 0) == 1
        assert bonus(scored(["wishing_well", "keep", "statue", "manor"]), 0) == 3
        # A Haunted Quarter counted as blue is no longer unique (colour bonus +3 instead).
        city = ["wishing_well", "haunted_quarter", "manor", "tavern", "prison"]
        result = scored(city).result()[0]
        assert (result.breakdown.colours, result.breakdown.bonus) == (3, 1)


def test_T7_every_unique_district_is_covered() -> None:
    import citadels

    ids = {d for d, c in citadels.EDITIONS["2016"].districts.items() if c.colour == "purple"}
    names = {name[4:].lower() for name in globals() if name.startswith("Test")}
    camel = {d.replace("_", "") for d in ids}
    assert len(ids) == 30 and camel <= names
