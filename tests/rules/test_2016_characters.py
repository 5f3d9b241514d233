"""The 27 characters of the `2016` edition (N-7, CARDS.md T6), one class per card.

Each test builds a `2016` position with ``tests.helpers.position`` and a character set in
which the cards under test replace the first-game character of their rank
(``characters_2016``). Characters shared with `classic` get a test showing they work in
`2016` and one per 2016 difference; the project decisions where the spec is silent are
marked (*).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

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
    Rob,
    TakeIncome,
    UseLaboratory,
    UseSmithy,
)
from citadels.engine.actions import (
    Beautify,
    Bewitch,
    BuildFree,
    BuildWithLoan,
    Confiscate,
    ExchangeDistrict,
    Foresee,
    GiveCard,
    GiveCrown,
    LookAtHand,
    NavigatorGain,
    PayRansom,
    PayRemainder,
    PayWithCard,
    PlaceWarrants,
    RevealThreat,
    Seize,
    SpyOn,
    Study,
    TakeCard,
    TakeFromRichest,
    TakeTribute,
    Threaten,
)
from tests.helpers import (
    characters_2016,
    deck_top,
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    legal_types,
    of_type,
    play,
    player,
    position,
    refused,
    turn,
)

GATHER = {"gather_gold", "gather_cards"}
COLOURS = {"yellow", "blue", "green", "red", "purple"}


def new16(players: int, chosen: Sequence[str] = (), **kwargs: Any) -> Game:
    """A `2016` position whose character set has the ``chosen`` characters swapped in."""
    options = {"characters": characters_2016(*chosen), **kwargs.pop("options", {})}
    return position("2016", players, options=options, **kwargs)


def pending_kind(game: Game) -> str | None:
    return game.state.pending[-1].kind if game.state.pending else None


# --- rank 1: Assassin, Witch, Magistrate -------------------------------------------------------


class TestAssassin:
    def test_C20_assassin_murders_in_2016_and_victim_misses_turn(self) -> None:
        game = new16(
            4,
            ["patrician"],
            characters={0: ["assassin"], 1: ["patrician"], 2: ["bishop"]},
            cities={1: ["manor"]},
            crown=3,
        )
        targets = {a.character for a in of_type(game, Murder)}
        # Every other character of rank 2 or more, the 2016 rank 4 included.
        assert targets == {
            "thief",
            "magician",
            "patrician",
            "bishop",
            "merchant",
            "architect",
            "warlord",
        }
        play(game, Murder("patrician"), GatherGold(), EndTurn())
        # The murdered Patrician is silent; the Bishop plays next.
        assert turn(game) == (2, "bishop")
        # Hidden until the round ends.
        assert game.view(None)["revealed"] == {"assassin": 0, "bishop": 2}
        assert player(game, 1).gold == 0 and player(game, 1).hand == []
        finish_round(game)
        assert events(game, "murdered_revealed")[0]["seat"] == 1


class TestWitch:
    def test_R26_witch_bewitches_patrician_who_still_takes_crown(self) -> None:
        game = new16(
            4,
            ["witch", "patrician"],
            crown=3,
            characters={0: ["witch"], 1: ["patrician"]},
            cities={0: ["manor", "castle"], 1: ["palace"]},
            deck_top=["temple", "church", "tavern"],
        )
        assert legal_types(game) == GATHER
        play(game, GatherGold())
        assert legal_types(game) == {"bewitch"}
        play(game, Bewitch("patrician"))
        # the bewitched Patrician still takes the crown himself.
        assert game.state.crown == 1
        assert legal_types(game) == GATHER
        play(game, GatherGold())
        # The Witch resumes as the Patrician: income in cards for HER two yellow districts.
        assert turn(game) == (0, "patrician")
        assert of_type(game, TakeIncome) == [TakeIncome(2)]
        play(game, TakeIncome(2))
        assert sorted(player(game, 0).hand) == ["church", "temple"]
        assert player(game, 1).hand == []
        play(game, EndTurn())
        assert game.state.crown == 1

    def test_R26_witch_does_not_use_the_victims_unique_districts(self) -> None:
        game = new16(
            4,
            ["witch"],
            characters={0: ["witch"], 1: ["merchant"]},
            cities={1: ["laboratory", "smithy"]},
            hands={0: ["temple"], 1: ["tavern"]},
            gold={1: 5},
        )
        play(game, GatherGold(), Bewitch("merchant"))
        assert turn(game) == (1, "merchant")
        # The bewitched holder only gathers: no Laboratory nor Smithy.
        assert legal_types(game) == GATHER
        play(game, GatherGold())
        assert turn(game) == (0, "merchant")
        assert not of_type(game, UseLaboratory) and not of_type(game, UseSmithy)
        assert player(game, 0).gold == 2 + 1  # the Merchant's +1 goes to her

    def test_R26_R3_N6_bewitched_bishop_shields_the_witch_city_from_marshal(self) -> None:
        game = new16(
            4,
            ["witch", "marshal"],
            characters={0: ["witch"], 1: ["bishop"], 2: ["marshal"]},
            cities={0: ["manor"], 1: ["temple"]},
            gold={2: 10},
        )
        play(game, GatherGold(), Bewitch("bishop"), GatherGold(), EndTurn())
        assert turn(game) == (2, "marshal")
        assert {(a.seat, a.district) for a in of_type(game, Seize)} == {(1, "temple")}
        refused(game, Seize(0, "manor"))


class TestMagistrate:
    def test_R24_N7_magistrate_places_three_warrants_one_signed(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            faceup=["bishop"],
        )
        warrants = of_type(game, PlaceWarrants)
        marked = {c for a in warrants for c in (a.signed, a.first, a.second)}
        # Rank 2 or more, not face up, three different characters.
        assert marked == {"thief", "magician", "king", "merchant", "architect", "warlord"}
        assert all(len({a.signed, a.first, a.second}) == 3 for a in warrants)
        # 6 choices of the signed one x C(5, 2) for the other two.
        assert len(warrants) == 6 * 10
        play(game, PlaceWarrants("king", "thief", "warlord"))
        # The marked characters are public; which is signed is the Magistrate's secret.
        for seat in (None, 0, 1, 2, 3):
            assert game.view(seat)["warrants"] == ["thief", "king", "warlord"]
        assert game.view(0)["signed_warrant"] == "king"
        for seat in (None, 1, 2, 3):
            assert "signed_warrant" not in game.view(seat)
            assert "signed" not in events(game, "warrants", seat)[0]
        assert events(game, "warrants", 0)[0]["signed"] == "king"

    def test_R24_magistrate_confiscates_first_paid_build(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["architect"]},
            hands={1: ["castle", "temple", "tavern", "watchtower"]},
            gold={1: 10},
            deck_top=["manor", "palace", "church", "market"],
        )
        play(game, GatherGold(), PlaceWarrants("architect", "thief", "king"), EndTurn())
        play(game, GatherGold(), Build("castle"))
        # The Magistrate decides; the builder's gold is already paid.
        assert game.to_move == 0
        assert pending_kind(game) == "confiscate"
        assert player(game, 1).gold == 12 - 4
        assert set(legal(game)) == {Confiscate(False), Confiscate(True)}
        play(game, Confiscate(True))
        assert player(game, 0).city == ["castle"]
        assert player(game, 1).city == []
        # Refunded, but the build is used: 2 of the Architect's 3 are left.
        assert player(game, 1).gold == 12
        assert turn(game) == (1, "architect")
        assert game.view(None)["turn"]["builds"] == 1
        assert [e["district"] for e in events(game, "confiscate")] == ["castle"]
        play(game, Build("temple"), Build("tavern"))
        assert player(game, 1).city == ["temple", "tavern"]
        assert not of_type(game, Build)
        assert refused(game, Build("watchtower")).rule == "C-8"

    def test_R24_magistrate_takes_only_the_first_paid_build(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["architect"]},
            hands={1: ["castle", "temple"]},
            gold={1: 10},
        )
        play(game, GatherGold(), PlaceWarrants("architect", "thief", "king"), EndTurn())
        play(game, GatherGold(), Build("castle"), Confiscate(False))
        assert player(game, 1).city == ["castle"]
        assert [e["builder"] for e in events(game, "warrant_passed")] == [1]
        play(game, Build("temple"))
        assert pending_kind(game) is None
        assert player(game, 1).city == ["castle", "temple"]

    def test_R24_magistrate_unsigned_warrant_gets_a_decision_that_cannot_confiscate(self) -> None:
        """(*) Every warrant asks the Magistrate, so the others cannot tell the signed one."""
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            hands={1: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("thief", "king", "bishop"), EndTurn())
        play(game, GatherGold(), Build("castle"))
        assert pending_kind(game) == "confiscate" and game.to_move == 0
        # Seen by everyone: a decision about the castle, whatever the warrant.
        assert game.view(2)["pending"] == {
            "kind": "confiscate",
            "seat": 0,
            "target": 1,
            "cards": ["castle"],
        }
        assert legal(game) == [Confiscate(False)]
        assert refused(game, Confiscate(True)).rule == "R-24"
        play(game, Confiscate(False))
        assert player(game, 1).city == ["castle"] and player(game, 0).city == []

    def test_R24_magistrate_no_decision_for_an_unwarranted_builder(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            hands={1: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("thief", "bishop", "warlord"), EndTurn())
        play(game, GatherGold(), Build("castle"))
        assert pending_kind(game) is None
        assert player(game, 1).city == ["castle"]

    def test_R24_magistrate_cannot_confiscate_a_name_he_has(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            cities={0: ["castle"]},
            hands={1: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        play(game, GatherGold(), Build("castle"))
        assert legal(game) == [Confiscate(False)]
        play(game, Confiscate(False))
        assert player(game, 1).city == ["castle"] and player(game, 0).city == ["castle"]

    def test_R24_R12_quarry_never_lets_the_magistrate_take_a_duplicate(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            cities={0: ["castle", "quarry"]},
            hands={1: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        play(game, GatherGold(), Build("castle"))
        assert legal(game) == [Confiscate(False)]

    @pytest.mark.parametrize("via", ["framework", "necropolis"])
    def test_R24_magistrate_unpaid_builds_not_confiscated_and_keep_the_chance(
        self, via: str
    ) -> None:
        hand = ["castle", "manor"] if via == "framework" else ["necropolis", "manor"]
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["architect"]},
            cities={1: ["framework"] if via == "framework" else ["temple"]},
            hands={1: hand},
            gold={1: 1},
            deck_top=["tavern", "market"],
        )
        play(game, GatherGold(), PlaceWarrants("architect", "thief", "king"), EndTurn())
        play(game, GatherGold())
        free = hand[0]
        play(game, BuildFree(free, "framework" if via == "framework" else "temple"))
        assert pending_kind(game) is None
        assert free in player(game, 1).city
        # The first PAID build is still the one the warrant bites.
        play(game, Build("manor"))
        assert pending_kind(game) == "confiscate"
        play(game, Confiscate(True))
        assert player(game, 0).city == ["manor"]

    def test_R24_magistrate_confiscated_thieves_den_refunds_gold_only(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            hands={1: ["thieves_den", "temple", "church", "tavern"]},
            gold={1: 1},
        )
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        play(game, GatherGold(), Build("thieves_den"))
        play(game, PayWithCard("temple"), PayWithCard("church"), PayWithCard("tavern"))
        play(game, PayRemainder())
        assert player(game, 1).gold == 0
        play(game, Confiscate(True))
        assert player(game, 0).city == ["thieves_den"]
        # 3 gold back, the three cards stay discarded.
        assert player(game, 1).gold == 3 and player(game, 1).hand == []
        assert events(game, "confiscate")[0]["refund"] == 3
        assert game.state.deck[:3] == ["temple", "church", "tavern"]

    def test_R24_R30_magistrate_confiscated_stables_leaves_the_builder_free(self) -> None:
        game = new16(
            4,
            ["magistrate"],
            characters={0: ["magistrate"], 1: ["king"]},
            hands={1: ["stables", "castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        play(game, GatherGold(), Build("stables"), Confiscate(True))
        assert player(game, 0).city == ["stables"] and player(game, 1).gold == 6
        play(game, Build("castle"))
        assert pending_kind(game) is None
        assert player(game, 1).city == ["castle"]

    def test_R24_R22_R25_confiscation_completes_city_and_magistrate_pays_tax(self) -> None:
        seven = ["temple", "church", "monastery", "tavern", "market", "docks"]
        game = new16(
            4,
            options={"characters": characters_2016("magistrate", "tax_collector")},
            characters={0: ["magistrate"], 1: ["king"]},
            cities={0: seven},
            hands={1: ["castle"]},
            gold={0: 0, 1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        assert player(game, 0).gold == 2
        play(game, GatherGold(), Build("castle"), Confiscate(True))
        assert game.state.first_complete == 0
        assert events(game, "city_complete")[0]["seat"] == 0
        # The Magistrate pays the Tax Collector's 1 gold, the builder nothing.
        assert (player(game, 0).gold, player(game, 1).gold, game.state.tax_token) == (1, 6, 1)

    def test_R24_R30_magistrate_wizard_immediate_build_is_a_paid_build(self) -> None:
        game = new16(
            4,
            ["magistrate", "wizard"],
            characters={0: ["magistrate"], 1: ["wizard"], 2: ["king"]},
            hands={2: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("wizard", "thief", "king"), EndTurn())
        play(game, GatherGold(), LookAtHand(2), TakeCard("castle", True))
        assert pending_kind(game) == "confiscate"
        play(game, Confiscate(True))
        assert player(game, 0).city == ["castle"]
        assert player(game, 1).city == [] and player(game, 1).gold == 6

    def test_R24_magistrate_alchemist_gets_no_second_refund(self) -> None:
        game = new16(
            4,
            ["magistrate", "alchemist"],
            characters={0: ["magistrate"], 1: ["alchemist"]},
            hands={1: ["castle"]},
            gold={1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("alchemist", "thief", "king"), EndTurn())
        play(game, GatherGold(), Build("castle"), Confiscate(True))
        assert player(game, 1).gold == 6
        play(game, EndTurn())
        assert player(game, 1).gold == 6
        assert events(game, "alchemist") == []

    def test_R24_magistrate_warrants_are_removed_at_round_end(self) -> None:
        game = new16(4, ["magistrate"], characters={0: ["magistrate"], 1: ["king"]})
        play(game, GatherGold(), PlaceWarrants("king", "thief", "bishop"), EndTurn())
        finish_round(game)
        assert game.state.round == 2
        assert game.view(None)["warrants"] == [] and "signed_warrant" not in game.view(0)


# --- rank 2: Thief, Spy, Blackmailer -----------------------------------------------------------


class TestThief:
    def test_R29_thief_in_2016_not_rank1_killed_or_bewitched(self) -> None:
        game = new16(
            4,
            ["witch"],
            characters={0: ["witch"], 1: ["thief"], 2: ["king"]},
            gold={2: 5},
        )
        play(game, GatherGold(), Bewitch("bishop"), GatherGold())
        assert turn(game) == (1, "thief")
        assert {a.character for a in of_type(game, Rob)} == {
            "magician",
            "king",
            "merchant",
            "architect",
            "warlord",
        }
        play(game, Rob("king"), EndTurn())
        # C-21: the King's holder loses his gold as he is revealed, before gathering.
        assert turn(game) == (2, "king")
        assert player(game, 2).gold == 0 and player(game, 1).gold == 2 + 5


class TestSpy:
    def test_N7_spy_offers_every_other_seat_and_type(self) -> None:
        game = new16(4, ["spy"], characters={1: ["spy"]}, hands={0: ["manor"]})
        assert turn(game) == (1, "spy")
        spies = {(a.seat, a.colour) for a in of_type(game, SpyOn)}
        assert spies == {(seat, c) for seat in (0, 2, 3) for c in COLOURS}

    def test_N7_spy_takes_gold_while_any_and_draws_per_matching_card(self) -> None:
        game = new16(
            4,
            ["spy"],
            characters={1: ["spy"]},
            hands={2: ["manor", "castle", "palace", "temple"]},
            gold={2: 2},
            deck_top=["tavern", "market", "docks", "harbor"],
        )
        play(game, GatherGold(), SpyOn(2, "yellow"))
        # 3 yellow cards: 3 cards drawn, but only the 2 gold he had.
        assert player(game, 2).gold == 0
        assert player(game, 1).gold == 2 + 2
        assert sorted(player(game, 1).hand) == ["docks", "market", "tavern"]
        assert len(player(game, 2).hand) == 4
        assert deck_top(game, 1) == ["harbor"]

    def test_N7_R23_secret_vault_in_hand_is_unique_for_the_spy(self) -> None:
        game = new16(
            4,
            ["spy"],
            characters={1: ["spy"]},
            hands={2: ["secret_vault", "keep", "manor"]},
            gold={2: 5},
        )
        play(game, GatherGold(), SpyOn(2, "purple"))
        assert events(game, "spy")[0]["matches"] == 2
        assert player(game, 2).gold == 3 and player(game, 1).gold == 4

    def test_N7_spy_without_matches_gets_nothing(self) -> None:
        game = new16(4, ["spy"], characters={1: ["spy"]}, hands={2: ["manor"]}, gold={2: 5})
        play(game, GatherGold(), SpyOn(2, "red"))
        assert player(game, 2).gold == 5 and player(game, 1).hand == []

    def test_C10_N7_spy_look_is_private(self) -> None:
        game = new16(
            4,
            ["spy"],
            characters={1: ["spy"]},
            hands={2: ["manor", "temple"]},
            deck_top=["tavern"],
        )
        play(game, GatherGold(), SpyOn(2, "yellow"))
        assert events(game, "spy", 1)[0]["hand"] == ["manor", "temple"]
        assert events(game, "spy", 1)[0]["drawn"] == ["tavern"]
        for seat in (None, 0, 3):
            event = events(game, "spy", seat)[0]
            assert "hand" not in event and "drawn" not in event
            # The target, colour and count are public.
            assert (event["target"], event["colour"], event["matches"]) == (2, "yellow", 1)
        # The victim never learns which cards the Spy drew.
        assert "drawn" not in events(game, "spy", 2)[0]


class TestBlackmailer:
    def test_N7_blackmailer_threats_not_rank1_killed_or_bewitched(self) -> None:
        game = new16(
            4,
            ["witch", "blackmailer"],
            characters={0: ["witch"], 1: ["blackmailer"], 2: ["king"]},
        )
        play(game, GatherGold(), Bewitch("bishop"), GatherGold())
        assert turn(game) == (1, "blackmailer")
        threats = of_type(game, Threaten)
        marked = {c for a in threats for c in (a.flowered, a.other)}
        assert marked == {"magician", "king", "merchant", "architect", "warlord"}
        assert all(a.flowered != a.other for a in threats)
        assert len(threats) == 5 * 4
        assert refused(game, Threaten("bishop", "king")).rule == "N-7"
        # Killed: the Assassin's victim cannot be threatened either.
        game = new16(
            4,
            ["blackmailer"],
            characters={0: ["assassin"], 1: ["blackmailer"], 2: ["king"]},
        )
        play(game, Murder("magician"), GatherGold(), EndTurn())
        marked = {c for a in of_type(game, Threaten) for c in (a.flowered, a.other)}
        assert "magician" not in marked and "king" in marked

    def test_R26_N7_witch_as_blackmailer_places_threats_and_collects(self) -> None:
        game = new16(
            4,
            ["witch", "blackmailer"],
            characters={0: ["witch"], 1: ["blackmailer"], 2: ["king"]},
            gold={2: 4},
        )
        play(game, GatherGold(), Bewitch("blackmailer"), GatherGold())
        assert turn(game) == (0, "blackmailer")
        play(game, Threaten("king", "merchant"), EndTurn())
        assert game.view(0)["flowered_threat"] == "king"
        assert "flowered_threat" not in game.view(1)
        play(game, GatherGold())
        assert game.to_move == 2
        play(game, PayRansom(False))
        assert game.to_move == 0
        play(game, RevealThreat(True))
        assert (player(game, 0).gold, player(game, 1).gold, player(game, 2).gold) == (8, 2, 0)

    def test_N7_C10_blackmailer_flowered_threat_is_secret_markers_public(self) -> None:
        game = new16(4, ["blackmailer"], characters={1: ["blackmailer"], 2: ["king"]})
        play(game, GatherGold(), Threaten("king", "merchant"))
        for seat in (None, 0, 1, 2, 3):
            assert game.view(seat)["threats"] == ["king", "merchant"]
        assert game.view(1)["flowered_threat"] == "king"
        for seat in (None, 0, 2, 3):
            assert "flowered_threat" not in game.view(seat)
            assert "flowered" not in events(game, "threats", seat)[0]

    def test_N7_blackmailer_victim_gathers_then_pays_half_rounded_down(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["merchant"]},
            cities={2: ["market"]},
            gold={2: 5},
        )
        play(game, GatherGold(), Threaten("merchant", "king"), EndTurn())
        assert turn(game) == (2, "merchant")
        # Only the gather action before the threat is settled.
        assert legal_types(game) == GATHER
        play(game, GatherGold())
        assert game.to_move == 2 and pending_kind(game) == "ransom"
        assert set(legal(game)) == {PayRansom(False), PayRansom(True)}
        # The Merchant's +1 is not given yet (*: extras come after the resolution).
        assert player(game, 2).gold == 7
        play(game, PayRansom(True))
        assert (player(game, 1).gold, player(game, 2).gold) == (2 + 3, 4 + 1)
        # Dropped unseen: no one learns whether it was the flowered one.
        assert game.view(None)["threats"] == ["king"]
        for seat in (None, 0, 2, 3):
            assert "flowered" not in events(game, "ransom", seat)[0]
        play(game, TakeIncome())
        assert player(game, 2).gold == 6

    def test_N7_blackmailer_ransom_with_one_gold_is_nothing(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["king"]},
            cities={2: ["observatory"]},
            deck_top=["manor", "castle", "palace"],
            gold={2: 1},
        )
        play(game, GatherGold(), Threaten("king", "merchant"), EndTurn())
        play(game, GatherCards(3), KeepCards(("palace",)), PayRansom(True))
        assert (player(game, 1).gold, player(game, 2).gold) == (2, 1)

    def test_N7_blackmailer_refused_flowered_threat_takes_all_gold(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["king"]},
            gold={2: 5},
        )
        play(game, GatherGold(), Threaten("king", "merchant"), EndTurn())
        play(game, GatherGold(), PayRansom(False))
        assert game.to_move == 1 and pending_kind(game) == "reveal_threat"
        play(game, RevealThreat(True))
        assert (player(game, 1).gold, player(game, 2).gold) == (2 + 7, 0)
        event = events(game, "threat_revealed", 3)[0]
        assert event["flowered"] is True and event["gold"] == 7
        assert turn(game) == (2, "king")
        assert "end_turn" in legal_types(game)

    def test_N7_blackmailer_refused_plain_threat_takes_nothing(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["king"]},
            gold={2: 5},
        )
        play(game, GatherGold(), Threaten("merchant", "king"), EndTurn())
        play(game, GatherGold(), PayRansom(False), RevealThreat(True))
        assert (player(game, 1).gold, player(game, 2).gold) == (2, 7)
        assert events(game, "threat_revealed", 0)[0]["flowered"] is False

    def test_N7_blackmailer_may_keep_the_threat_hidden(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["king"]},
            gold={2: 5},
        )
        play(game, GatherGold(), Threaten("king", "merchant"), EndTurn())
        play(game, GatherGold(), PayRansom(False), RevealThreat(False))
        assert (player(game, 1).gold, player(game, 2).gold) == (2, 7)
        assert events(game, "threat_kept")
        assert turn(game) == (2, "king") and "end_turn" in legal_types(game)

    def test_N7_R10_blackmailer_victim_has_only_gather_time_districts(self) -> None:
        game = new16(
            4,
            ["blackmailer"],
            characters={1: ["blackmailer"], 2: ["architect"]},
            cities={2: ["gold_mine", "laboratory", "smithy"]},
            hands={2: ["manor"]},
            gold={2: 4},
            deck_top=["temple", "church"],
        )
        play(game, GatherGold(), Threaten("architect", "king"), EndTurn())
        assert legal_types(game) == GATHER
        refused(game, UseLaboratory("manor"))
        refused(game, UseSmithy())
        play(game, GatherGold())
        # The Gold Mine is a gather-time district: 3 gold.
        assert player(game, 2).gold == 7
        # The Architect's 2 cards come only after the resolution (*).
        assert sorted(player(game, 2).hand) == ["manor"]
        assert legal_types(game) == {"pay_ransom"}
        play(game, PayRansom(True))
        assert player(game, 2).gold == 4
        assert sorted(player(game, 2).hand) == ["church", "manor", "temple"]
        assert {"laboratory", "smithy", "build"} <= legal_types(game)


# --- rank 3: Magician, Wizard, Seer ------------------------------------------------------------


class TestMagician:
    def test_C22_R23_magician_swaps_hands_secret_vault_included(self) -> None:
        game = new16(
            4,
            [],
            characters={0: ["magician"]},
            hands={0: ["manor"], 2: ["secret_vault", "temple"]},
        )
        play(game, GatherGold(), ExchangeHands(2))
        assert sorted(player(game, 0).hand) == ["secret_vault", "temple"]
        assert player(game, 2).hand == ["manor"]
        # still never buildable.
        assert refused(game, Build("secret_vault")).rule == "R-23"


class TestWizard:
    def test_R30_wizard_takes_a_card_and_builds_it_outside_the_limit(self) -> None:
        game = new16(
            4,
            ["wizard"],
            characters={0: ["wizard"]},
            cities={0: ["manor"]},
            hands={0: ["manor"], 2: ["castle", "temple"]},
            gold={0: 10},
        )
        play(game, GatherGold(), LookAtHand(2))
        assert TakeCard("castle", True) in legal(game)
        play(game, TakeCard("castle", True))
        assert player(game, 0).city == ["manor", "castle"]
        assert player(game, 2).hand == ["temple"]
        # Outside the limit, and this turn a name he already has may be built.
        play(game, Build("manor"))
        assert player(game, 0).city == ["manor", "castle", "manor"]
        assert player(game, 0).gold == 12 - 4 - 3

    def test_R30_R23_wizard_cannot_build_the_secret_vault(self) -> None:
        game = new16(
            4,
            ["wizard"],
            characters={0: ["wizard"]},
            hands={2: ["secret_vault"]},
            gold={0: 10},
        )
        play(game, GatherGold(), LookAtHand(2))
        assert legal(game) == [TakeCard("secret_vault", False)]


class TestSeer:
    def test_N7_seer_takes_a_random_card_from_each_then_gives_one_back(self) -> None:
        game = new16(
            5,
            ["seer"],
            characters={2: ["seer"]},
            hands={0: ["manor"], 1: ["temple", "church"], 3: [], 4: ["tavern"]},
        )
        play(game, GatherGold(), Foresee())
        # From his left, in seat order, skipping the empty hand: seats 4, 0, 1.
        assert [e["from"] for e in events(game, "seer_take")] == [4, 0, 1]
        hand = player(game, 2).hand
        assert len(hand) == 3 and "tavern" in hand and "manor" in hand
        assert game.view(2)["pending"]["seats"] == [4, 0, 1]
        assert game.to_move == 2 and legal_types(game) == {"give_card"}
        play(game, GiveCard("tavern"), GiveCard("manor"))
        given = [c for c in player(game, 2).hand]
        play(game, GiveCard(given[0]))
        assert player(game, 4).hand == ["tavern"]
        assert player(game, 0).hand == ["manor"]
        assert len(player(game, 1).hand) == 2 and player(game, 2).hand == []
        assert [e["to"] for e in events(game, "seer_give")] == [4, 0, 1]
        assert turn(game) == (2, "seer") and pending_kind(game) is None

    def test_C10_N7_seer_card_moves_seen_only_by_the_two_seats(self) -> None:
        game = new16(
            4,
            ["seer"],
            characters={0: ["seer"]},
            hands={1: ["manor"], 2: ["temple"]},
        )
        play(game, GatherGold(), Foresee(), GiveCard("temple"), GiveCard("manor"))
        for kind in ("seer_take", "seer_give"):
            for e in events(game, kind, 0):
                assert "district" in e
            for e in events(game, kind, None) + events(game, kind, 3):
                assert "district" not in e
        took_from_1 = [e for e in events(game, "seer_take", 1) if e["from"] == 1]
        assert took_from_1[0]["district"] == "manor"
        assert all("district" not in e for e in events(game, "seer_take", 2) if e["from"] == 1)

    def test_R30_seer_building_limit_is_two(self) -> None:
        game = new16(
            4,
            ["seer"],
            characters={0: ["seer"]},
            hands={0: ["temple", "tavern", "watchtower"]},
            gold={0: 5},
        )
        play(game, GatherGold(), Build("temple"), Build("tavern"))
        assert not of_type(game, Build)
        assert refused(game, Build("watchtower")).rule == "C-8"

    def test_N7_seer_needs_someone_with_cards(self) -> None:
        game = new16(4, ["seer"], characters={0: ["seer"]}, hands={0: ["manor"]})
        play(game, GatherGold())
        assert not of_type(game, Foresee)


# --- rank 4: King, Emperor, Patrician ----------------------------------------------------------


class TestKing:
    def test_C23_R27_king_takes_crown_and_yellow_gold_in_2016(self) -> None:
        game = new16(
            4,
            [],
            crown=3,
            characters={1: ["king"]},
            cities={1: ["manor", "castle", "temple"]},
        )
        assert game.state.crown == 1
        play(game, TakeIncome())
        assert player(game, 1).gold == 2

    def test_C23_R27_murdered_king_heir_takes_crown_at_round_end(self) -> None:
        game = new16(4, [], crown=3, characters={0: ["assassin"], 1: ["king"], 2: ["bishop"]})
        play(game, Murder("king"), GatherGold(), EndTurn())
        assert turn(game) == (2, "bishop") and game.state.crown == 3
        finish_round(game)
        assert game.state.crown == 1


class TestEmperor:
    def test_R27_emperor_gives_crown_then_takes_gold_or_card(self) -> None:
        game = new16(
            4,
            ["emperor"],
            crown=3,
            characters={1: ["emperor"]},
            cities={1: ["manor"]},
            gold={2: 3},
            hands={2: ["temple"]},
        )
        # Must: the crown decision comes first, never himself nor the holder.
        assert game.to_move == 1 and pending_kind(game) == "give_crown"
        assert {a.seat for a in of_type(game, GiveCrown)} == {0, 2}
        assert refused(game, GiveCrown(1)).rule == "R-27"
        play(game, GiveCrown(2))
        assert game.state.crown == 2
        # The Emperor chooses the resource (2016), not the receiver.
        assert game.to_move == 1
        assert set(legal(game)) == {TakeTribute("gold"), TakeTribute("card")}
        play(game, TakeTribute("gold"))
        assert (player(game, 1).gold, player(game, 2).gold) == (1, 2)
        assert turn(game) == (1, "emperor")
        play(game, TakeIncome())
        assert player(game, 1).gold == 2

    def test_R27_C10_emperor_takes_a_random_card_seen_by_the_two_seats(self) -> None:
        game = new16(
            4,
            ["emperor"],
            crown=3,
            characters={1: ["emperor"]},
            hands={0: ["temple", "manor", "castle"]},
        )
        assert legal(game) == [GiveCrown(0), GiveCrown(2)]
        play(game, GiveCrown(0))
        # No gold: only a card.
        assert legal(game) == [TakeTribute("card")]
        play(game, TakeTribute("card"))
        card = player(game, 1).hand[0]
        assert card in ("temple", "manor", "castle") and card not in player(game, 0).hand
        assert events(game, "tribute", 1)[0]["district"] == card
        assert events(game, "tribute", 0)[0]["district"] == card
        for seat in (None, 2, 3):
            assert "district" not in events(game, "tribute", seat)[0]

    def test_R27_emperor_takes_nothing_from_an_empty_receiver(self) -> None:
        game = new16(4, ["emperor"], crown=3, characters={1: ["emperor"]})
        play(game, GiveCrown(2))
        assert pending_kind(game) is None
        assert turn(game) == (1, "emperor") and legal_types(game) == GATHER

    def test_R27_killed_emperor_holder_moves_crown_at_round_end_taking_nothing(self) -> None:
        game = new16(
            4,
            ["emperor"],
            crown=3,
            characters={0: ["assassin"], 1: ["emperor"]},
            gold={2: 5},
        )
        play(game, Murder("emperor"), GatherGold(), EndTurn())
        # Nobody else plays: the round ends, and the killed Emperor's holder must move it.
        assert turn(game) is None and game.state.round == 1
        assert game.to_move == 1 and pending_kind(game) == "give_crown"
        assert {a.seat for a in legal(game)} == {0, 2}
        play(game, GiveCrown(2))
        assert game.state.crown == 2 and game.state.round == 2
        assert player(game, 1).gold == 0 and player(game, 2).gold == 5
        assert events(game, "tribute") == []

    def test_R26_R27_witch_as_emperor_moves_crown_and_takes_the_tribute(self) -> None:
        game = new16(
            4,
            ["witch", "emperor"],
            crown=3,
            characters={0: ["witch"], 1: ["emperor"]},
            gold={2: 1},
        )
        play(game, GatherGold(), Bewitch("emperor"), GatherGold())
        assert game.to_move == 0 and {a.seat for a in legal(game)} == {1, 2}
        play(game, GiveCrown(2), TakeTribute("gold"))
        assert (player(game, 0).gold, player(game, 2).gold) == (3, 0)


class TestPatrician:
    def test_T6_patrician_takes_crown_and_income_in_cards(self) -> None:
        game = new16(
            4,
            ["patrician"],
            crown=3,
            characters={1: ["patrician"]},
            cities={1: ["manor", "castle", "school_of_magic", "temple"]},
            deck_top=["tavern", "market", "docks"],
        )
        assert game.state.crown == 1
        # the School of Magic counts: 3 cards, never gold.
        assert of_type(game, TakeIncome) == [TakeIncome(3)]
        play(game, TakeIncome(3))
        assert sorted(player(game, 1).hand) == ["docks", "market", "tavern"]
        assert player(game, 1).gold == 0
        for seat in (None, 0):
            assert "districts" not in events(game, "income", seat)[0]

    def test_R27_killed_patrician_heir_takes_crown(self) -> None:
        game = new16(4, ["patrician"], crown=3, characters={0: ["assassin"], 1: ["patrician"]})
        play(game, Murder("patrician"), GatherGold(), EndTurn())
        finish_round(game)
        assert game.state.crown == 1


# --- rank 5: Bishop, Abbot, Cardinal -----------------------------------------------------------


class TestBishop:
    @pytest.mark.parametrize("rank8", ["warlord", "diplomat", "marshal"])
    def test_R3_N6_bishop_shields_from_every_rank8_ability(self, rank8: str) -> None:
        game = new16(
            4,
            [rank8],
            characters={1: ["bishop"], 2: [rank8]},
            cities={1: ["temple"], 2: ["tavern"], 3: ["church"]},
            gold={2: 10},
        )
        play(game, GatherGold(), EndTurn())
        assert turn(game) == (2, rank8)
        targets = {a.seat for a in legal(game) if isinstance(a, (Destroy, ExchangeDistrict, Seize))}
        assert 3 in targets and 1 not in targets
        action = {
            "warlord": Destroy(1, "temple"),
            "diplomat": ExchangeDistrict("tavern", 1, "temple"),
            "marshal": Seize(1, "temple"),
        }[rank8]
        refused(game, action)

    def test_R3_N6_murdered_bishop_protects_nothing(self) -> None:
        game = new16(
            4,
            ["marshal"],
            characters={0: ["assassin"], 1: ["bishop"], 2: ["marshal"]},
            cities={1: ["temple"]},
            gold={2: 10},
        )
        play(game, Murder("bishop"), GatherGold(), EndTurn())
        assert turn(game) == (2, "marshal")
        assert Seize(1, "temple") in legal(game)


class TestAbbot:
    def test_T6_abbot_declares_any_split_of_gold_and_cards(self) -> None:
        game = new16(
            4,
            ["abbot"],
            characters={1: ["abbot"]},
            cities={1: ["temple", "church", "school_of_magic"]},
            deck_top=["manor", "castle"],
        )
        assert of_type(game, TakeIncome) == [TakeIncome(k) for k in range(4)]
        play(game, TakeIncome(2))
        assert player(game, 1).gold == 1
        assert sorted(player(game, 1).hand) == ["castle", "manor"]

    def test_T6_abbot_takes_from_one_of_the_tied_richest(self) -> None:
        game = new16(
            4,
            ["abbot"],
            characters={1: ["abbot"]},
            gold={0: 6, 1: 1, 2: 6, 3: 3},
        )
        assert {a.seat for a in of_type(game, TakeFromRichest)} == {0, 2}
        play(game, TakeFromRichest(2))
        assert (player(game, 1).gold, player(game, 2).gold) == (2, 5)
        assert not of_type(game, TakeFromRichest)

    def test_T6_abbot_gets_nothing_while_among_the_richest(self) -> None:
        game = new16(
            4,
            ["abbot"],
            characters={1: ["abbot"]},
            hands={1: ["castle"]},
            gold={0: 6, 1: 4},
        )
        play(game, GatherGold())
        # 6 each: tied for richest, nothing.
        assert not of_type(game, TakeFromRichest)
        # "At some point in his turn": after building he is no longer the richest.
        play(game, Build("castle"))
        assert of_type(game, TakeFromRichest) == [TakeFromRichest(0)]


class TestCardinal:
    def test_T6_cardinal_income_in_cards(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={1: ["cardinal"]},
            cities={1: ["temple", "church"]},
            deck_top=["manor", "castle"],
        )
        assert of_type(game, TakeIncome) == [TakeIncome(2)]
        play(game, TakeIncome(2))
        assert player(game, 1).gold == 0 and len(player(game, 1).hand) == 2

    def test_T6_cardinal_borrows_exactly_the_missing_gold_and_pays_in_cards(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={1: ["cardinal"]},
            hands={1: ["palace", "temple", "tavern", "market"]},
            gold={0: 1, 1: 0, 2: 5, 3: 3},
        )
        play(game, GatherGold())
        # Palace 5, he has 2: 3 missing; lenders with 3 gold or more only.
        assert {(a.district, a.seat) for a in of_type(game, BuildWithLoan)} == {
            ("palace", 2),
            ("palace", 3),
        }
        play(game, BuildWithLoan("palace", 2))
        assert player(game, 2).gold == 2
        assert game.to_move == 1 and pending_kind(game) == "cardinal"
        play(game, GiveCard("temple"), GiveCard("tavern"))
        assert player(game, 1).city == []
        play(game, GiveCard("market"))
        assert player(game, 1).city == ["palace"] and player(game, 1).gold == 0
        assert sorted(player(game, 2).hand) == ["market", "tavern", "temple"]
        assert [e["to"] for e in events(game, "give_card", 0)] == [2, 2, 2]
        assert all("district" not in e for e in events(game, "give_card", 0))
        assert not of_type(game, Build)

    def test_T6_cardinal_needs_enough_cards_to_repay(self) -> None:
        game = new16(
            4,
            ["cardinal"],
            characters={1: ["cardinal"]},
            hands={1: ["palace", "temple"]},
            gold={2: 5},
        )
        play(game, GatherGold())
        assert not of_type(game, BuildWithLoan)

    def test_R24_cardinal_loan_build_is_a_paid_build(self) -> None:
        game = new16(
            4,
            ["magistrate", "cardinal"],
            characters={0: ["magistrate"], 1: ["cardinal"]},
            hands={1: ["castle", "temple", "tavern"]},
            gold={1: 0, 2: 5},
        )
        play(game, GatherGold(), PlaceWarrants("cardinal", "thief", "king"), EndTurn())
        play(game, GatherGold(), BuildWithLoan("castle", 2), GiveCard("temple"), GiveCard("tavern"))
        assert pending_kind(game) == "confiscate"
        play(game, Confiscate(True))
        assert player(game, 0).city == ["castle"]
        assert player(game, 1).gold == 4


# --- rank 6: Merchant, Alchemist, Trader -------------------------------------------------------


class TestMerchant:
    def test_C25_merchant_extra_gold_whatever_gathered_in_2016(self) -> None:
        game = new16(
            4,
            [],
            characters={1: ["merchant"]},
            cities={1: ["market", "tavern"]},
            deck_top=["manor", "castle"],
        )
        play(game, GatherCards(), KeepCards(("manor",)))
        assert player(game, 1).gold == 1
        play(game, TakeIncome())
        assert player(game, 1).gold == 3


class TestAlchemist:
    def test_R21_alchemist_refunds_build_gold_not_smithy_nor_tax(self) -> None:
        game = new16(
            4,
            ["alchemist"],
            options={"characters": characters_2016("alchemist", "tax_collector")},
            characters={1: ["alchemist"]},
            cities={1: ["smithy"]},
            hands={1: ["castle"]},
            gold={1: 6},
        )
        play(game, GatherGold(), UseSmithy(), Build("castle"))
        # 8 - 2 (Smithy) - 4 (castle) - 1 (tax) = 1.
        assert player(game, 1).gold == 1
        play(game, EndTurn())
        assert player(game, 1).gold == 5
        assert events(game, "alchemist")[0]["gold"] == 4

    def test_R21_poor_house_comes_before_the_alchemist_refund(self) -> None:
        game = new16(
            4,
            ["alchemist"],
            characters={1: ["alchemist"]},
            cities={1: ["poor_house"]},
            hands={1: ["castle"]},
            gold={1: 2},
        )
        play(game, GatherGold(), Build("castle"), EndTurn())
        assert player(game, 1).gold == 1 + 4
        assert [
            e["kind"] for e in game.view(None)["log"] if e["kind"] in ("poor_house", "alchemist")
        ] == [
            "poor_house",
            "alchemist",
        ]


class TestTrader:
    def test_R30_trader_green_builds_are_outside_the_limit(self) -> None:
        game = new16(
            4,
            ["trader"],
            characters={1: ["trader"]},
            cities={1: ["market"]},
            hands={1: ["tavern", "docks", "trading_post", "manor", "temple"]},
            gold={1: 20},
        )
        play(game, GatherGold(), TakeIncome())
        assert player(game, 1).gold == 23
        play(game, Build("tavern"), Build("docks"), Build("manor"), Build("trading_post"))
        assert player(game, 1).city == ["market", "tavern", "docks", "manor", "trading_post"]
        assert refused(game, Build("temple")).rule == "C-8"


# --- rank 7: Architect, Navigator, Scholar -----------------------------------------------------


class TestArchitect:
    def test_C26_architect_two_cards_and_three_builds_in_2016(self) -> None:
        game = new16(
            4,
            [],
            characters={1: ["architect"]},
            hands={1: ["temple", "tavern", "watchtower"]},
            gold={1: 3},
            deck_top=["manor", "castle", "palace"],
        )
        play(game, GatherGold())
        assert sorted(player(game, 1).hand) == ["castle", "manor", "tavern", "temple", "watchtower"]
        play(game, Build("temple"), Build("tavern"), Build("watchtower"))
        assert not of_type(game, Build)


class TestNavigator:
    def test_R30_navigator_takes_four_and_cannot_build_at_all(self) -> None:
        game = new16(
            4,
            ["navigator"],
            characters={1: ["navigator"]},
            cities={1: ["framework"]},
            hands={1: ["stables", "necropolis", "manor"]},
            gold={1: 10},
        )
        play(game, GatherGold())
        assert legal(game) == [NavigatorGain("cards"), NavigatorGain("gold")]
        play(game, NavigatorGain("gold"))
        assert player(game, 1).gold == 16
        assert not {"build", "build_free", "build_with_loan"} & legal_types(game)
        assert refused(game, Build("stables")).rule == "R-30"
        refused(game, BuildFree("manor", "framework"))


class TestScholar:
    def test_T6_R10_scholar_draws_seven_keeps_one_shuffles_the_rest_in(self) -> None:
        top = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern"]
        # the Library changes nothing for the Scholar's draw.
        game = new16(
            4, ["scholar"], characters={1: ["scholar"]}, cities={1: ["library"]}, deck_top=top
        )
        size = len(game.state.deck)
        play(game, GatherGold(), Study())
        assert game.to_move == 1 and pending_kind(game) == "scholar"
        assert {a.districts for a in legal(game)} == {(d,) for d in top}
        assert game.view(1)["pending"]["cards"] == top
        assert "cards" not in game.view(0)["pending"]
        play(game, KeepCards(("palace",)))
        assert player(game, 1).hand == ["palace"]
        assert len(game.state.deck) == size - 1
        assert sorted(game.state.deck).count("manor") == 5
        # Shuffled in, not left on top in order.
        assert deck_top(game, 6) != [d for d in top if d != "palace"]
        assert not of_type(game, Study)

    def test_R30_scholar_building_limit_is_two(self) -> None:
        game = new16(
            4,
            ["scholar"],
            characters={1: ["scholar"]},
            hands={1: ["temple", "tavern", "watchtower"]},
            gold={1: 5},
        )
        play(game, GatherGold(), Build("temple"), Build("tavern"))
        assert refused(game, Build("watchtower")).rule == "C-8"


# --- rank 8: Warlord, Diplomat, Marshal --------------------------------------------------------


class TestWarlord:
    def test_C27_N4_warlord_destroys_any_time_in_2016(self) -> None:
        game = new16(
            4,
            [],
            characters={1: ["warlord"]},
            cities={2: ["castle", "keep"], 3: ["great_wall", "temple"]},
            gold={1: 4},
        )
        # Before gathering (any time).
        assert turn(game) == (1, "warlord") and not game.state.turn.gathered
        targets = {(a.seat, a.district) for a in of_type(game, Destroy)}
        # Keep never; Great Wall: temple costs 0 + 1; the Wall itself 5 > 4.
        assert targets == {(2, "castle"), (3, "temple")}
        play(game, Destroy(3, "temple"))
        assert player(game, 1).gold == 3
        play(game, GatherGold())
        assert not of_type(game, Destroy)

    def test_R4_N4_monument_city_counts_as_complete_for_the_warlord(self) -> None:
        six = ["monument", "temple", "church", "tavern", "market", "manor"]
        game = new16(4, [], characters={1: ["warlord"]}, cities={2: six}, gold={1: 10})
        assert game.state.is_complete(2)
        assert not of_type(game, Destroy)


class TestDiplomat:
    def test_R4_diplomat_any_time_never_gives_nor_takes_the_keep(self) -> None:
        game = new16(
            4,
            ["diplomat"],
            characters={1: ["diplomat"]},
            cities={1: ["keep", "tavern"], 2: ["castle"], 3: ["keep", "watchtower"]},
            gold={1: 10},
        )
        exchanges = {(a.give, a.seat, a.take) for a in of_type(game, ExchangeDistrict)}
        # T7 (?): the Keep is neither given nor taken.
        assert exchanges == {("tavern", 2, "castle"), ("tavern", 3, "watchtower")}
        refused(game, ExchangeDistrict("keep", 2, "castle"))
        play(game, ExchangeDistrict("tavern", 2, "castle"))
        assert player(game, 1).gold == 10 - 3
        assert sorted(player(game, 1).city) == ["castle", "keep"]
        assert "gather_gold" in legal_types(game)

    def test_R4_diplomat_gives_from_his_completed_city_not_takes_from_one(self) -> None:
        seven = ["manor", "temple", "church", "tavern", "market", "docks", "prison"]
        game = new16(
            4,
            ["diplomat"],
            characters={1: ["diplomat"]},
            cities={1: seven, 2: ["castle"], 3: seven},
            gold={1: 10},
        )
        exchanges = of_type(game, ExchangeDistrict)
        assert exchanges and {a.seat for a in exchanges} == {2}
        assert ExchangeDistrict("tavern", 2, "castle") in exchanges

    def test_R6_diplomat_pays_one_more_behind_a_great_wall(self) -> None:
        game = new16(
            4,
            ["diplomat"],
            characters={1: ["diplomat"]},
            cities={1: ["tavern"], 2: ["great_wall", "castle"]},
            gold={1: 4},
        )
        play(game, ExchangeDistrict("tavern", 2, "castle"))
        assert (player(game, 1).gold, player(game, 2).gold) == (0, 4)


class TestMarshal:
    def test_R4_R6_marshal_seizes_cost_three_or_less_paying_the_owner(self) -> None:
        game = new16(
            4,
            ["marshal"],
            characters={1: ["marshal"]},
            cities={
                1: ["church"],
                2: ["manor", "castle", "church", "keep"],
                3: ["great_wall", "watchtower"],
            },
            gold={1: 3},
        )
        seizes = {(a.seat, a.district) for a in of_type(game, Seize)}
        # Not the castle (4), not the church he has, not the Keep; +1 behind the Great Wall.
        assert seizes == {(2, "manor"), (3, "watchtower")}
        play(game, Seize(3, "watchtower"))
        assert (player(game, 1).gold, player(game, 3).gold) == (1, 2)
        assert player(game, 1).city == ["church", "watchtower"]
        assert player(game, 3).city == ["great_wall"]

    def test_R4_marshal_needs_the_gold_and_no_completed_city(self) -> None:
        seven = ["manor", "temple", "church", "tavern", "market", "docks", "prison"]
        game = new16(
            4,
            ["marshal"],
            characters={1: ["marshal"]},
            cities={2: seven, 3: ["manor"]},
            gold={1: 2},
        )
        assert not of_type(game, Seize)
        refused(game, Seize(2, "temple"))

    def test_R22_marshal_completes_his_city_by_seizure(self) -> None:
        six = ["temple", "church", "tavern", "market", "docks", "prison"]
        game = new16(
            4,
            ["marshal"],
            characters={1: ["marshal"]},
            cities={1: six, 2: ["manor"]},
            gold={1: 3},
        )
        play(game, Seize(2, "manor"))
        assert game.state.first_complete == 1
        assert events(game, "city_complete")[0]["seat"] == 1

    def test_R1_R18_marshal_uses_current_cost_and_seized_monument_is_not_built(self) -> None:
        game = new16(
            4,
            ["marshal"],
            characters={1: ["marshal"]},
            cities={2: ["manor", "watchtower"]},
            beautified={2: ["manor"]},
            gold={1: 10},
        )
        assert {a.district for a in of_type(game, Seize)} == {"watchtower"}


# --- rank 9: Queen, Artist, Tax Collector ------------------------------------------------------


class TestQueen:
    @pytest.mark.parametrize("rank4", ["king", "emperor", "patrician"])
    def test_R28_queen_beside_any_rank4_holder(self, rank4: str) -> None:
        game = new16(
            5,
            [rank4, "queen"],
            crown=0,
            characters={3: [rank4], 4: ["queen"]},
        )
        finish_round_until(game, "queen")
        assert turn(game) == (4, "queen")
        assert player(game, 4).gold == 3

    def test_R28_queen_not_beside_gets_nothing(self) -> None:
        game = new16(5, ["queen"], characters={1: ["king"], 4: ["queen"]})
        finish_round_until(game, "queen")
        assert player(game, 4).gold == 0

    def test_R28_queen_beside_killed_patrician_is_paid_at_round_end(self) -> None:
        game = new16(
            5,
            ["patrician", "queen"],
            characters={0: ["assassin"], 3: ["patrician"], 4: ["queen"]},
        )
        play(game, Murder("patrician"), GatherGold(), EndTurn())
        assert turn(game) == (4, "queen")
        assert player(game, 4).gold == 0
        play(game, GatherGold(), EndTurn())
        assert player(game, 4).gold == 2 + 3
        assert game.state.crown == 3


def finish_round_until(game: Game, character: str) -> None:
    """Play turns with gold until ``character``'s turn starts (an Emperor crowns seat 1)."""
    while turn(game) is not None and turn(game)[1] != character:
        if pending_kind(game) == "give_crown":
            play(game, GiveCrown(1))
            continue
        end_turn_with_gold(game)


class TestArtist:
    def test_R1_artist_beautifies_two_districts_in_2016(self) -> None:
        game = new16(
            4,
            ["artist"],
            characters={1: ["artist"]},
            cities={1: ["manor", "temple", "tavern"]},
            gold={1: 3},
        )
        play(game, Beautify("manor"), Beautify("temple"))
        assert not of_type(game, Beautify)
        assert player(game, 1).gold == 1
        assert game.result()[1].breakdown.districts == 3 + 1 + 1 + 1 + 1


class TestTaxCollector:
    def tax_game(self, **kwargs: Any) -> Game:
        options = {"characters": characters_2016("tax_collector")}
        return position("2016", 4, options=options, **kwargs)

    def test_R25_tax_collector_one_gold_per_build_onto_the_token(self) -> None:
        game = self.tax_game(
            characters={1: ["architect"]},
            hands={1: ["temple", "tavern", "watchtower"]},
            gold={1: 4},
        )
        play(game, GatherGold(), Build("temple"))
        assert game.state.tax_token == 1 and player(game, 1).gold == 4
        play(game, Build("tavern"), Build("watchtower"))
        assert game.state.tax_token == 3 and player(game, 1).gold == 0
        assert game.view(None)["tax_token"] == 3

    def test_R25_tax_collector_builder_without_gold_pays_nothing(self) -> None:
        game = self.tax_game(characters={1: ["king"]}, hands={1: ["manor"]}, gold={1: 1})
        play(game, GatherGold(), Build("manor"))
        assert game.state.tax_token == 0 and events(game, "tax") == []

    @pytest.mark.parametrize("how", ["unchosen", "killed"])
    def test_R25_tax_collector_taxes_even_if_nobody_plays_him(self, how: str) -> None:
        held = {0: ["assassin"], 1: ["king"]}
        if how == "killed":
            held[2] = ["tax_collector"]
        game = self.tax_game(characters=held, hands={1: ["manor"]}, gold={1: 4})
        if how == "killed":
            play(game, Murder("tax_collector"))
        else:
            play(game, Murder("bishop"))
        play(game, GatherGold(), EndTurn(), GatherGold(), Build("manor"))
        assert game.state.tax_token == 1
        finish_round(game)
        # The token carries over to the next round.
        assert game.state.round == 2 and game.state.tax_token == 1

    def test_R25_tax_collector_unpaid_builds_are_taxed(self) -> None:
        game = self.tax_game(
            characters={1: ["king"]},
            cities={1: ["framework"]},
            hands={1: ["palace"]},
            gold={1: 0},
        )
        play(game, GatherGold(), BuildFree("palace", "framework"))
        assert game.state.tax_token == 1 and player(game, 1).gold == 1

    def test_R25_tax_collector_takes_the_token_at_turn_start_and_is_exempt(self) -> None:
        game = self.tax_game(
            characters={1: ["king"], 2: ["tax_collector"]},
            hands={1: ["manor"], 2: ["castle"]},
            gold={1: 4, 2: 2},
        )
        game.state.tax_token = 2
        play(game, GatherGold(), Build("manor"))
        assert game.state.tax_token == 3
        play(game, EndTurn())
        assert turn(game) == (2, "tax_collector")
        assert player(game, 2).gold == 2 + 3 and game.state.tax_token == 0
        play(game, GatherGold(), Build("castle"))
        assert game.state.tax_token == 0 and player(game, 2).gold == 3

    def test_R24_R25_magistrate_pays_tax_on_what_he_confiscates_from_the_tax_collector(
        self,
    ) -> None:
        """R-24: the Magistrate pays the tax on a confiscated district; R-25's exemption is
        the Tax Collector's own, not the Magistrate's, even in the Tax Collector's turn."""
        game = position(
            "2016",
            4,
            options={"characters": characters_2016("magistrate", "tax_collector")},
            characters={0: ["magistrate"], 1: ["tax_collector"]},
            hands={1: ["castle"]},
            gold={0: 3, 1: 4},
        )
        play(game, GatherGold(), PlaceWarrants("tax_collector", "king", "bishop"), EndTurn())
        play(game, GatherGold(), Build("castle"), Confiscate(True))
        assert player(game, 0).city == ["castle"]
        assert (game.state.tax_token, player(game, 0).gold, player(game, 1).gold) == (1, 4, 6)
        taxed = events(game, "tax")
        assert [(e["seat"], e["gold"]) for e in taxed] == [(0, 1)]

    def test_R25_tax_collector_holders_other_character_is_taxed(self) -> None:
        game = position(
            "2016",
            2,
            options={"characters": characters_2016("tax_collector")},
            characters={0: ["king", "tax_collector"], 1: ["bishop"]},
            hands={0: ["manor"]},
            gold={0: 3},
        )
        play(game, GatherGold(), Build("manor"))
        assert game.state.tax_token == 1

    def test_R25_no_tax_without_the_tax_collector_in_the_set(self) -> None:
        game = new16(4, [], characters={1: ["king"]}, hands={1: ["manor"]}, gold={1: 4})
        play(game, GatherGold(), Build("manor"))
        assert game.state.tax_token == 0 and player(game, 1).gold == 3
