"""The 14 Dark City bonus purple districts of `classic` (CARDS.md T4), one class per card.

Positions place the cards directly (``tests.helpers.position``), so no ``districts=`` option
is needed; the deck, where it matters, is given explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import citadels
from citadels import (
    Build,
    Destroy,
    EndTurn,
    ExchangeHands,
    Game,
    GatherCards,
    GatherGold,
    KeepCards,
    Murder,
)
from citadels.engine.actions import (
    AnnounceBellTower,
    Beautify,
    ExchangeDistrict,
    GiveCrown,
    LookAtHand,
    SearchDeck,
    TakeCard,
    UseArmory,
    UseMuseum,
)
from tests.helpers import (
    classic_characters,
    deck_bottom,
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    of_type,
    play,
    player,
    position,
    refused,
    turn,
)

SEVEN = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern"]
SIX = SEVEN[:6]
DECK = ["palace", "temple", "church", "manor", "castle", "tavern", "market", "docks", "harbor"]


def classic(players: int = 4, bonus: Sequence[str] = (), **kwargs: Any) -> Game:
    """A `classic` position; ``bonus`` characters are swapped into the character set."""
    if bonus:
        kwargs["options"] = {"characters": classic_characters(*bonus), **kwargs.get("options", {})}
    return position("classic", players, **kwargs)


def kinds(game: Game, *wanted: str) -> list[str]:
    """The kinds of the logged events among ``wanted``, in log order."""
    return [e["kind"] for e in game.view(None)["log"] if e["kind"] in wanted]


def final(game: Game) -> citadels.Outcome:
    """Play the rest of the round with gold only and return the result."""
    finish_round(game)
    return game.result()


# --- Lighthouse --------------------------------------------------------------------------


class TestLighthouse:
    def _built(self, deck: Sequence[str] = DECK) -> Game:
        game = classic(characters={0: ["king"]}, hands={0: ["lighthouse"]}, gold={0: 1}, deck=deck)
        play(game, GatherGold(), Build("lighthouse"))
        return game

    def test_R18_lighthouse_takes_any_card_of_the_deck_then_shuffles_it(self) -> None:
        game = self._built()
        assert game.to_move == 0
        assert legal(game) == [SearchDeck(d) for d in sorted(DECK)]
        before = game.state.deck[:]
        # The bottom card is as reachable as any.
        play(game, SearchDeck("palace"))
        assert player(game, 0).hand == ["palace"]
        rest = before[1:]
        assert sorted(game.state.deck) == sorted(rest)
        assert game.state.deck != rest
        assert legal(game)[-1] == EndTurn()

    def test_C10_lighthouse_search_shows_the_deck_only_to_its_owner(self) -> None:
        game = self._built()
        assert game.view(0)["pending"]["cards"] == sorted(DECK)
        for seat in (1, 2, None):
            assert game.view(seat)["pending"] == {"kind": "lighthouse", "seat": 0}
        play(game, SearchDeck("harbor"))
        assert events(game, "lighthouse", 0)[0]["district"] == "harbor"
        for seat in (1, None):
            assert "district" not in events(game, "lighthouse", seat)[0]

    def test_R18_lighthouse_with_an_empty_deck_searches_nothing(self) -> None:
        game = self._built(deck=[])
        assert not game.state.pending
        assert player(game, 0).city == ["lighthouse"]

    def test_R18_lighthouse_after_the_wizard_immediate_build(self) -> None:
        game = classic(
            bonus=["wizard"],
            characters={0: ["wizard"]},
            hands={2: ["lighthouse"]},
            gold={0: 3},
            deck=DECK,
        )
        play(game, LookAtHand(2), TakeCard("lighthouse", True))
        assert game.to_move == 0
        assert legal(game) == [SearchDeck(d) for d in sorted(DECK)]
        play(game, SearchDeck("docks"))
        assert player(game, 0).hand == ["docks"]
        assert player(game, 0).city == ["lighthouse"]


# --- Armory -------------------------------------------------------------------------------


class TestArmory:
    def test_R15_armory_destroys_a_district_and_both_are_discarded(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["armory", "manor"], 1: ["palace", "temple"]},
        )
        assert UseArmory(1, "palace") in legal(game)
        play(game, UseArmory(1, "palace"))
        assert player(game, 0).city == ["manor"]
        assert player(game, 1).city == ["temple"]
        assert sorted(deck_bottom(game, 2)) == ["armory", "palace"]
        # Nothing is paid.
        assert player(game, 0).gold == 0
        assert not of_type(game, UseArmory)

    def test_R15_armory_ignores_keep_bishop_and_great_wall(self) -> None:
        game = classic(
            characters={1: ["bishop"], 0: ["merchant"]},
            cities={0: ["armory"], 1: ["keep", "great_wall", "temple"]},
        )
        end_turn_with_gold(game)
        assert turn(game) == (0, "merchant")
        targets = {(a.seat, a.district) for a in of_type(game, UseArmory)}
        assert targets == {(1, "keep"), (1, "great_wall"), (1, "temple")}
        play(game, UseArmory(1, "keep"))
        assert player(game, 1).city == ["great_wall", "temple"]
        assert player(game, 0).gold == 0

    def test_R7_R15_armory_does_not_wake_the_graveyard(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["armory"], 1: ["manor"], 2: ["graveyard"]},
            gold={2: 5},
        )
        play(game, UseArmory(1, "manor"))
        assert not game.state.pending
        assert player(game, 2).hand == [] and player(game, 2).gold == 5
        assert "manor" in deck_bottom(game, 2)

    def test_R15_armory_spares_its_own_city_and_completed_cities(self) -> None:
        eight = [*SEVEN, "market"]
        game = classic(
            characters={0: ["king"]},
            cities={0: ["armory", "manor"], 1: eight, 2: ["temple"]},
        )
        assert {(a.seat, a.district) for a in of_type(game, UseArmory)} == {(2, "temple")}
        assert refused(game, UseArmory(1, "manor")).rule == "R-15"
        assert refused(game, UseArmory(0, "manor")).rule == "R-15"


# --- Museum -------------------------------------------------------------------------------


class TestMuseum:
    def test_R11_R19_museum_tucks_one_card_per_turn(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["museum"]},
            hands={0: ["temple", "manor"]},
        )
        assert {a.district for a in of_type(game, UseMuseum)} == {"temple", "manor"}
        play(game, UseMuseum("temple"))
        assert player(game, 0).hand == ["manor"]
        assert player(game, 0).museum == ["temple"]
        assert not of_type(game, UseMuseum)
        assert refused(game, UseMuseum("manor")).rule == "R-19"

    def test_R19_museum_cards_score_one_each_and_are_not_in_hand_for_the_map_room(
        self,
    ) -> None:
        game = classic(
            characters={1: ["king"]},
            cities={0: ["museum", "map_room"]},
            museum={0: ["temple", "church"]},
            hands={0: ["manor"]},
        )
        assert game.view(0)["players"][0]["hand_size"] == 1
        assert final(game)[0].breakdown.bonus == 2 + 1

    def test_R19_magician_exchange_leaves_the_museum_cards(self) -> None:
        game = classic(
            characters={1: ["magician"]},
            cities={0: ["museum"]},
            museum={0: ["temple"]},
            hands={0: ["manor"], 1: ["castle"]},
        )
        play(game, ExchangeHands(0))
        assert player(game, 1).hand == ["manor"]
        assert player(game, 0).hand == ["castle"]
        assert player(game, 0).museum == ["temple"]

    def test_R19_museum_destroyed_by_the_warlord_takes_its_cards_along(self) -> None:
        game = classic(
            characters={1: ["warlord"]},
            cities={0: ["museum", "manor"]},
            museum={0: ["temple", "church"]},
            gold={1: 1},
        )
        play(game, GatherGold(), Destroy(0, "museum"))
        assert player(game, 0).museum == []
        assert sorted(deck_bottom(game, 3)) == ["church", "museum", "temple"]
        assert player(game, 1).hand == []

    def test_R19_museum_destroyed_by_the_armory_takes_its_cards_along(self) -> None:
        game = classic(
            characters={1: ["king"]},
            cities={0: ["museum"], 1: ["armory"]},
            museum={0: ["temple"]},
        )
        play(game, UseArmory(0, "museum"))
        assert player(game, 0).museum == []
        assert sorted(deck_bottom(game, 3)) == ["armory", "museum", "temple"]
        assert final(game)[0].breakdown.bonus == 0

    def test_C10_museum_cards_are_seen_only_by_their_owner(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["museum"]},
            museum={0: ["church"]},
            hands={0: ["temple"]},
        )
        play(game, UseMuseum("temple"))
        assert game.view(0)["players"][0]["museum"] == ["church", "temple"]
        for seat in (1, None):
            entry = game.view(seat)["players"][0]
            assert entry["museum_size"] == 2 and "museum" not in entry
            assert "district" not in events(game, "museum", seat)[0]
        assert events(game, "museum", 0)[0]["district"] == "temple"


# --- Imperial Treasury, Map Room ---------------------------------------------------------


class TestImperialTreasury:
    def test_imperial_treasury_scores_one_per_gold_in_the_stash(self) -> None:
        game = classic(characters={1: ["king"]}, cities={0: ["imperial_treasury"]}, gold={0: 7})
        r = final(game)[0]
        assert (r.breakdown.districts, r.breakdown.bonus) == (4, 7)

    def test_R1_imperial_treasury_ignores_the_artist_gold(self) -> None:
        game = classic(
            bonus=["artist"],
            characters={0: ["artist"]},
            cities={0: ["imperial_treasury", "manor"]},
            gold={0: 3},
        )
        play(game, Beautify("manor"))
        r = game.result()[0]
        assert (r.breakdown.districts, r.breakdown.bonus) == (4 + 4, 2)


class TestMapRoom:
    def test_map_room_scores_one_per_card_in_hand(self) -> None:
        game = classic(
            characters={1: ["king"]},
            cities={0: ["map_room"]},
            hands={0: ["manor", "temple", "temple"]},
        )
        assert final(game)[0].breakdown.bonus == 3

    def test_map_room_with_an_empty_hand_scores_nothing_extra(self) -> None:
        game = classic(characters={1: ["king"]}, cities={0: ["map_room"]})
        assert final(game)[0].breakdown.bonus == 0


# --- Wishing Well --------------------------------------------------------------------------


class TestWishingWell:
    def test_wishing_well_counts_the_other_purple_districts_not_itself(self) -> None:
        game = classic(
            characters={1: ["king"]},
            cities={0: ["wishing_well", "keep", "library", "manor"]},
        )
        assert final(game)[0].breakdown.bonus == 2
        alone = classic(characters={1: ["king"]}, cities={0: ["wishing_well"]})
        assert final(alone)[0].breakdown.bonus == 0

    def test_R8_wishing_well_haunted_city_as_a_colour_stops_being_purple(self) -> None:
        # No red: counting the Haunted City as red gives +3 and loses 1 Wishing Well point.
        city = ["manor", "temple", "tavern", "keep", "wishing_well", "haunted_city"]
        game = classic(characters={1: ["king"]}, cities={0: city})
        b = final(game)[0].breakdown
        assert (b.colours, b.bonus) == (3, 1)

    def test_R8_wishing_well_haunted_city_stays_purple_when_that_scores_more(self) -> None:
        city = ["manor", "temple", "tavern", "prison", "wishing_well", "haunted_city"]
        game = classic(characters={1: ["king"]}, cities={0: city})
        b = final(game)[0].breakdown
        assert (b.colours, b.bonus) == (3, 1)

    def test_R8_wishing_well_haunted_city_built_in_the_final_round_is_purple(self) -> None:
        city = ["manor", "temple", "tavern", "keep", "wishing_well", "haunted_city"]
        game = classic(
            characters={1: ["king"]},
            cities={0: city, 2: [*SEVEN, "market"]},
            built={0: [0, 0, 0, 0, 0, 1]},
            first_complete=2,
        )
        b = final(game)[0].breakdown
        assert game.is_over
        assert (b.colours, b.bonus) == (0, 2)


# --- Quarry --------------------------------------------------------------------------------


class TestQuarry:
    def test_R12_quarry_allows_building_a_name_already_in_the_city(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["quarry", "manor"]},
            hands={0: ["manor"]},
            gold={0: 1},
        )
        play(game, GatherGold(), Build("manor"))
        assert player(game, 0).city == ["quarry", "manor", "manor"]
        plain = classic(
            characters={0: ["king"]}, cities={0: ["manor"]}, hands={0: ["manor"]}, gold={0: 1}
        )
        play(plain, GatherGold())
        assert refused(plain, Build("manor")).rule == "C-8"

    def test_R12_quarry_one_duplicate_at_a_time_and_never_three_copies(self) -> None:
        game = classic(
            3,
            characters={0: ["king", "architect"]},
            cities={0: ["quarry", "manor", "temple"]},
            hands={0: ["manor", "manor", "temple"]},
            gold={0: 10},
        )
        play(game, GatherGold(), Build("manor"), EndTurn())
        assert turn(game) == (0, "architect")
        play(game, GatherGold())
        # The Manor is already doubled: no third Manor, and no second duplicate either.
        assert not {"manor", "temple"} & {a.district for a in of_type(game, Build)}
        assert refused(game, Build("manor")).rule == "C-8"
        assert refused(game, Build("temple")).rule == "C-8"

    def test_R12_quarry_allowance_returns_when_the_duplicate_leaves(self) -> None:
        game = classic(
            3,
            characters={0: ["king", "architect"], 1: ["merchant"]},
            cities={0: ["quarry", "manor", "temple"], 1: ["armory"]},
            hands={0: ["manor", "temple"]},
            gold={0: 10},
        )
        play(game, GatherGold(), Build("manor"), EndTurn())
        assert turn(game) == (1, "merchant")
        play(game, UseArmory(0, "manor"))
        end_turn_with_gold(game)
        assert turn(game) == (0, "architect")
        play(game, GatherGold())
        assert Build("temple") in legal(game)
        play(game, Build("temple"))
        assert sorted(player(game, 0).city) == ["manor", "quarry", "temple", "temple"]

    def test_R12_quarry_allowance_is_not_used_by_wizard_duplicates(self) -> None:
        game = classic(
            3,
            bonus=["wizard"],
            characters={0: ["wizard", "king"]},
            cities={0: ["quarry", "manor", "temple"]},
            hands={0: ["temple", "manor", "temple"]},
            gold={0: 10},
        )
        play(game, GatherGold(), Build("temple"), EndTurn())
        assert turn(game) == (0, "king")
        play(game, GatherGold())
        builds = {a.district for a in of_type(game, Build)}
        # A Manor duplicate is still allowed; a third Temple never is.
        assert builds == {"manor"}
        play(game, Build("manor"))
        assert sorted(player(game, 0).city) == ["manor", "manor", "quarry", "temple", "temple"]

    def test_R4_R12_quarry_gives_the_diplomat_no_duplicate(self) -> None:
        game = classic(
            bonus=["diplomat"],
            characters={0: ["diplomat"]},
            cities={0: ["quarry", "manor", "temple"], 1: ["manor"]},
            gold={0: 9},
        )
        play(game, GatherGold())
        assert ExchangeDistrict("temple", 1, "manor") not in legal(game)

    def test_R1_R12_quarry_duplicate_artist_gold_sits_on_one_copy(self) -> None:
        game = classic(
            bonus=["artist"],
            characters={1: ["warlord"], 0: ["artist"]},
            cities={0: ["quarry", "manor", "manor"]},
            beautified={0: ["manor"]},
            gold={1: 0},
        )
        assert game.result()[0].breakdown.districts == 5 + 3 + 3 + 1
        play(game, GatherGold())
        # The unbeautified copy leaves first: it costs 3 - 1 = 2 to destroy.
        assert Destroy(0, "manor") in legal(game)
        play(game, Destroy(0, "manor"))
        assert player(game, 1).gold == 0
        assert player(game, 0).city == ["quarry", "manor"]
        assert player(game, 0).beautified == ["manor"]
        assert game.result()[0].breakdown.districts == 5 + 4

    def test_R1_R12_artist_may_beautify_the_second_quarry_copy(self) -> None:
        game = classic(
            bonus=["artist"],
            characters={0: ["artist"]},
            cities={0: ["quarry", "manor", "manor"]},
            beautified={0: ["manor"]},
            gold={0: 2},
        )
        assert {a.district for a in of_type(game, Beautify)} == {"manor", "quarry"}
        play(game, Beautify("manor"))
        assert {a.district for a in of_type(game, Beautify)} == {"quarry"}
        assert game.result()[0].breakdown.districts == 5 + 4 + 4


# --- Poor House ----------------------------------------------------------------------------


class TestPoorHouse:
    def test_R21_poor_house_gives_one_gold_to_an_empty_stash(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["poor_house"]},
            hands={0: ["manor"]},
            gold={0: 1},
        )
        play(game, GatherGold(), Build("manor"))
        assert player(game, 0).gold == 0
        play(game, EndTurn())
        assert player(game, 0).gold == 1
        assert [e["seat"] for e in events(game, "poor_house")] == [0]

    def test_poor_house_gives_nothing_to_a_stash_with_gold(self) -> None:
        game = classic(characters={0: ["king"]}, cities={0: ["poor_house"]})
        play(game, GatherGold(), EndTurn())
        assert player(game, 0).gold == 2
        assert events(game, "poor_house") == []

    def test_R21_R25_poor_house_pays_after_the_tax(self) -> None:
        game = classic(
            bonus=["tax_collector"],
            characters={1: ["tax_collector"], 0: ["king"]},
            cities={0: ["poor_house"]},
            hands={0: ["manor"]},
            gold={0: 2},
        )
        end_turn_with_gold(game)
        play(game, GatherGold(), Build("manor"), EndTurn())
        assert player(game, 0).gold == 1
        assert player(game, 1).gold == 3
        assert kinds(game, "tax", "poor_house") == ["tax", "poor_house"]


# --- Bell Tower ----------------------------------------------------------------------------


class TestBellTower:
    def _game(self, city: Sequence[str] = ("manor", "temple"), **kwargs: Any) -> Game:
        kwargs.setdefault("characters", {0: ["king"]})
        cities = {0: list(city), **kwargs.pop("cities", {})}
        hands = {0: ["bell_tower"], **kwargs.pop("hands", {})}
        gold = {0: 3, **kwargs.pop("gold", {})}
        return classic(cities=cities, hands=hands, gold=gold, **kwargs)

    def test_R14_bell_tower_announced_when_built_sets_n_to_seven(self) -> None:
        game = self._game()
        play(game, GatherGold(), Build("bell_tower"))
        assert game.to_move == 0
        assert legal(game) == [AnnounceBellTower(False), AnnounceBellTower(True)]
        play(game, AnnounceBellTower(True))
        assert game.state.complete_at == 7
        view = game.view(1)
        assert (view["complete_at"], view["bell_tower"]) == (7, 0)

    def test_R14_bell_tower_not_announced_keeps_n_at_eight_for_good(self) -> None:
        game = self._game()
        play(game, GatherGold(), Build("bell_tower"), AnnounceBellTower(False))
        assert game.state.complete_at == 8
        assert not of_type(game, AnnounceBellTower)
        assert game.view(0)["bell_tower"] is None

    def test_R14_bell_tower_all_at_seven_score_as_first(self) -> None:
        game = self._game(
            SIX,
            characters={0: ["king"], 3: ["merchant"]},
            cities={2: SEVEN, 3: SIX},
            hands={3: ["market"]},
            gold={3: 1},
        )
        play(game, GatherGold(), Build("bell_tower"), AnnounceBellTower(True))
        assert game.state.first_complete == 0
        assert game.view(None)["extra_first"] == [2]
        play(game, EndTurn())
        assert turn(game) == (3, "merchant")
        play(game, GatherGold(), Build("market"), EndTurn())
        assert game.is_over
        r = game.result()
        assert (r[0].breakdown.first_complete, r[0].breakdown.complete) == (4, 0)
        assert (r[2].breakdown.first_complete, r[2].breakdown.complete) == (4, 0)
        assert (r[3].breakdown.first_complete, r[3].breakdown.complete) == (0, 2)
        assert (r[1].breakdown.first_complete, r[1].breakdown.complete) == (0, 0)

    def test_R14_bell_tower_makes_seven_districts_a_protected_completed_city(self) -> None:
        game = self._game(
            characters={0: ["king"], 1: ["warlord"]},
            cities={2: SEVEN, 3: SIX},
            gold={1: 9},
        )
        play(game, GatherGold(), Build("bell_tower"), AnnounceBellTower(True), EndTurn())
        assert turn(game) == (1, "warlord")
        play(game, GatherGold())
        assert {s for s in (a.seat for a in of_type(game, Destroy))} == {0, 3}
        assert refused(game, Destroy(2, "manor")).rule == "C-27"

    def test_R14_bell_tower_leaving_returns_n_to_eight_and_the_game_end_stands(self) -> None:
        game = self._game(
            characters={0: ["king"], 1: ["warlord"]},
            cities={2: SEVEN},
            gold={1: 2},
        )
        play(game, GatherGold(), Build("bell_tower"), AnnounceBellTower(True), EndTurn())
        assert game.state.first_complete == 2
        play(game, GatherGold(), Destroy(0, "bell_tower"))
        assert game.state.complete_at == 8
        assert game.view(None)["bell_tower"] is None
        assert len(events(game, "bell_tower_silenced")) == 1
        finish_round(game)
        assert game.is_over
        assert game.result()[2].breakdown.first_complete == 4

    @pytest.mark.parametrize("short", [7, 6])
    def test_R14_bell_tower_does_nothing_in_a_short_game(self, short: int) -> None:
        game = self._game(options={"complete_at": short})
        play(game, GatherGold(), Build("bell_tower"))
        assert not game.state.pending
        assert game.state.complete_at == short
        assert not of_type(game, AnnounceBellTower)


# --- Factory -------------------------------------------------------------------------------


class TestFactory:
    def test_R13_factory_takes_one_off_other_purple_districts(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["factory"]},
            hands={0: ["smithy", "palace"]},
            gold={0: 2},
        )
        play(game, GatherGold())
        builds = {a.district for a in of_type(game, Build)}
        assert builds == {"smithy"}
        play(game, Build("smithy"))
        assert player(game, 0).gold == 0
        assert [e["paid"] for e in events(game, "build")] == [4]

    def test_R5_R13_factory_changes_neither_score_nor_destroy_cost(self) -> None:
        for gold, allowed in ((3, True), (2, False)):
            game = classic(
                characters={1: ["warlord"]},
                cities={0: ["factory", "library"]},
                gold={1: gold},
            )
            assert game.result()[0].breakdown.districts == 12
            play(game, GatherGold())
            # The Library costs 6 - 1 = 5 to destroy, Factory or not.
            assert (Destroy(0, "library") in legal(game)) is allowed


# --- Park ----------------------------------------------------------------------------------


class TestPark:
    def test_park_draws_two_when_the_hand_is_empty_at_turn_end(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["park"]},
            hands={0: ["temple"]},
            gold={0: 1},
            deck_top=["manor", "castle", "palace"],
        )
        play(game, GatherGold(), Build("temple"), EndTurn())
        assert player(game, 0).hand == ["manor", "castle"]
        assert events(game, "park", 0)[0]["districts"] == ["manor", "castle"]
        assert "districts" not in events(game, "park", 1)[0]

    def test_park_draws_nothing_while_cards_are_in_hand(self) -> None:
        game = classic(characters={0: ["king"]}, cities={0: ["park"]}, hands={0: ["palace"]})
        play(game, GatherGold(), EndTurn())
        assert player(game, 0).hand == ["palace"]
        assert events(game, "park") == []

    def test_R21_park_comes_after_the_poor_house(self) -> None:
        game = classic(
            characters={0: ["king"]},
            cities={0: ["park", "poor_house"]},
            hands={0: ["manor"]},
            gold={0: 1},
        )
        play(game, GatherGold(), Build("manor"), EndTurn())
        assert player(game, 0).gold == 1 and len(player(game, 0).hand) == 2
        assert kinds(game, "poor_house", "park") == ["poor_house", "park"]


# --- Hospital ------------------------------------------------------------------------------


class TestHospital:
    def test_R16_C24_murdered_bishop_revealed_by_his_hospital_protects_nothing(self) -> None:
        game = classic(
            characters={0: ["assassin"], 1: ["bishop"], 2: ["warlord"]},
            cities={1: ["hospital", "temple"]},
            gold={2: 5},
        )
        play(game, Murder("bishop"), GatherGold(), EndTurn())
        assert turn(game) == (1, "bishop")
        assert game.state.revealed["bishop"] == 1
        play(game, GatherGold())
        assert turn(game) == (2, "warlord")
        play(game, GatherGold())
        assert Destroy(1, "temple") in legal(game)

    def test_R16_murdered_hospital_owner_only_gathers(self) -> None:
        game = classic(
            characters={1: ["assassin"], 0: ["merchant"]},
            cities={0: ["hospital", "market", "armory", "laboratory"], 2: ["manor"]},
            hands={0: ["temple"]},
            gold={0: 3},
        )
        play(game, Murder("merchant"), GatherGold(), EndTurn())
        assert turn(game) == (0, "merchant")
        assert game.view(None)["revealed"]["merchant"] == 0
        assert {a.type for a in legal(game)} == {"gather_gold", "gather_cards"}
        assert refused(game, Build("temple")).rule == "R-16"
        assert refused(game, UseArmory(2, "manor")).rule == "R-16"
        play(game, GatherGold())
        # No Merchant +1, no green income; the turn is over.
        assert player(game, 0).gold == 5
        assert game.state.round == 2

    @pytest.mark.parametrize("district", ["poor_house", "park"])
    def test_R16_R21_end_of_turn_districts_still_apply_to_a_murdered_hospital_owner(
        self, district: str
    ) -> None:
        game = classic(
            characters={1: ["assassin"], 0: ["merchant"]},
            cities={0: ["hospital", district]},
            deck_top=["manor", "castle", "palace", "temple"],
        )
        play(game, Murder("merchant"), GatherGold(), EndTurn())
        if district == "poor_house":
            play(game, GatherCards(2), KeepCards(("manor",)))
            assert player(game, 0).gold == 1
        else:
            play(game, GatherGold())
            assert player(game, 0).hand == ["manor", "castle"]
        assert len(events(game, district)) == 1

    def test_R16_murdered_king_with_a_hospital_takes_the_crown_at_round_end(self) -> None:
        game = classic(
            crown=2,
            characters={0: ["assassin"], 1: ["king"]},
            cities={1: ["hospital", "manor"]},
        )
        play(game, Murder("king"), GatherGold(), EndTurn())
        assert turn(game) == (1, "king")
        play(game, GatherGold())
        assert player(game, 1).gold == 2
        assert game.state.round == 2
        assert game.state.crown == 1
        assert kinds(game, "murdered_revealed", "crown") == ["murdered_revealed", "crown"]

    def test_R16_R21_murdered_owner_without_hospital_has_no_turn(self) -> None:
        game = classic(
            characters={1: ["assassin"], 0: ["merchant"]},
            cities={0: ["poor_house"]},
        )
        play(game, Murder("merchant"), GatherGold(), EndTurn())
        assert game.state.round == 2
        assert player(game, 0).gold == 0
        assert events(game, "poor_house") == []


# --- Throne Room ---------------------------------------------------------------------------


class TestThroneRoom:
    @pytest.mark.parametrize("owner", [2, 1])
    def test_R17_throne_room_pays_when_the_king_takes_the_crown(self, owner: int) -> None:
        game = classic(crown=0, characters={1: ["king"]}, cities={owner: ["throne_room"]})
        assert game.state.crown == 1
        assert player(game, owner).gold == 1
        assert [e["seat"] for e in events(game, "throne_room")] == [owner]

    def test_R17_throne_room_pays_nothing_when_the_holder_stays(self) -> None:
        game = classic(crown=1, characters={1: ["king"]}, cities={2: ["throne_room"]})
        assert game.state.crown == 1
        assert player(game, 2).gold == 0
        finish_round(game)
        assert player(game, 2).gold == 0

    def test_R17_throne_room_pays_for_an_emperor_move(self) -> None:
        game = classic(
            bonus=["emperor"],
            crown=0,
            characters={1: ["emperor"]},
            cities={3: ["throne_room"]},
        )
        play(game, GiveCrown(2))
        assert player(game, 3).gold == 1

    def test_R17_throne_room_pays_for_a_murdered_king_heir(self) -> None:
        game = classic(
            crown=0,
            characters={2: ["assassin"], 1: ["king"]},
            cities={3: ["throne_room"]},
        )
        play(game, Murder("king"))
        assert player(game, 3).gold == 0
        play(game, GatherGold(), EndTurn())
        assert game.state.crown == 1
        assert player(game, 3).gold == 1


# --- Ball Room -----------------------------------------------------------------------------


class TestBallRoom:
    def test_R32_ball_room_is_in_no_default_deck_nor_preset(self) -> None:
        classic_edition = citadels.EDITIONS["classic"]
        assert "ball_room" not in classic_edition.deck
        assert classic_edition.purple_pool["ball_room"] == 1
        for preset in classic_edition.presets.values():
            assert "ball_room" not in preset.districts
            game = citadels.new_game("classic", max(preset.min_players, 5), preset=preset.id)
            assert "ball_room" not in game.state.deck
        assert "ball_room" not in citadels.new_game("classic", 4, seed=1).state.deck

    def test_R32_ball_room_added_by_choice_is_a_six_cost_purple_without_effect(self) -> None:
        game = citadels.new_game("classic", 4, seed=3, districts=["ball_room", "keep"])
        assert game.state.deck.count("ball_room") == 1
        card = game.edition.district("ball_room")
        assert (card.colour, card.cost) == ("purple", 6)
        with_room = classic(
            crown=0,
            characters={0: ["king"], 1: ["bishop"]},
            cities={0: ["ball_room"]},
            hands={1: ["temple"]},
        )
        without = classic(
            crown=0,
            characters={0: ["king"], 1: ["bishop"]},
            hands={1: ["temple"]},
        )
        for g in (with_room, without):
            end_turn_with_gold(g)
            assert turn(g) == (1, "bishop")
        assert legal(with_room) == legal(without)
        assert with_room.result()[0].breakdown.districts == 6
