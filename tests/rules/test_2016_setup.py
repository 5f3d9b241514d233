"""Setting up the `2016` edition: one character per rank from 27 (N-1), 14 of the 30 unique
districts (N-1), 2–8 players (N-2, N-3), city size (N-4), tie-break (N-5), the T8 presets and
their substitutions, the face-up rule (C-3), and the markers' hidden information (C-10, N-7).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import citadels
from citadels import PickCharacter, PutAsideCharacter
from citadels.engine.characters_2016 import POWERS_2016
from tests.helpers import characters_2016, pick_first, play, position

E2016 = citadels.EDITIONS["2016"]

#: CARDS.md T6: the 27 characters by rank.
T6 = {
    1: {"assassin", "witch", "magistrate"},
    2: {"thief", "spy", "blackmailer"},
    3: {"magician", "wizard", "seer"},
    4: {"king", "emperor", "patrician"},
    5: {"bishop", "abbot", "cardinal"},
    6: {"merchant", "alchemist", "trader"},
    7: {"architect", "navigator", "scholar"},
    8: {"warlord", "diplomat", "marshal"},
    9: {"queen", "artist", "tax_collector"},
}

#: CARDS.md T7: the 30 unique districts and their costs.
T7 = {
    "armory": 3,
    "basilica": 4,
    "capitol": 5,
    "dragon_gate": 6,
    "factory": 5,
    "framework": 3,
    "gold_mine": 6,
    "great_wall": 6,
    "haunted_quarter": 2,
    "imperial_treasury": 5,
    "ivory_tower": 5,
    "keep": 3,
    "laboratory": 5,
    "library": 6,
    "map_room": 5,
    "monument": 4,
    "museum": 4,
    "necropolis": 5,
    "observatory": 4,
    "park": 6,
    "poor_house": 4,
    "quarry": 5,
    "school_of_magic": 6,
    "secret_vault": None,
    "smithy": 5,
    "stables": 2,
    "statue": 3,
    "theater": 6,
    "thieves_den": 6,
    "wishing_well": 5,
}

#: CARDS.md T8: the presets (characters of ranks 1–8, rank 9, unique districts).
T8 = {
    "first_game": (
        "assassin thief magician king bishop merchant architect warlord",
        "",
        "dragon_gate factory haunted_quarter imperial_treasury keep laboratory library "
        "map_room quarry school_of_magic smithy statue thieves_den wishing_well",
    ),
    "ambitious_aristocrats": (
        "magistrate thief wizard patrician bishop trader architect marshal",
        "queen",
        "capitol factory framework great_wall haunted_quarter keep necropolis park "
        "poor_house quarry school_of_magic stables statue thieves_den",
    ),
    "cunning_agents": (
        "witch blackmailer magician emperor abbot alchemist architect warlord",
        "tax_collector",
        "armory basilica dragon_gate gold_mine keep monument museum necropolis park "
        "poor_house quarry secret_vault smithy theater",
    ),
    "illustrious_emissaries": (
        "witch spy seer emperor bishop merchant scholar diplomat",
        "artist",
        "factory framework great_wall haunted_quarter ivory_tower keep library museum "
        "observatory park poor_house quarry school_of_magic smithy",
    ),
    "devious_dignitaries": (
        "magistrate blackmailer wizard king abbot alchemist navigator marshal",
        "queen",
        "dragon_gate factory framework haunted_quarter laboratory necropolis park "
        "poor_house secret_vault smithy stables theater thieves_den wishing_well",
    ),
    "tenacious_delegates": (
        "assassin spy seer king cardinal trader scholar diplomat",
        "artist",
        "basilica capitol haunted_quarter imperial_treasury laboratory library map_room "
        "observatory school_of_magic secret_vault smithy stables statue wishing_well",
    ),
    "vicious_nobles": (
        "assassin thief magician patrician cardinal merchant navigator warlord",
        "tax_collector",
        "armory basilica dragon_gate gold_mine imperial_treasury ivory_tower laboratory "
        "map_room monument museum school_of_magic statue thieves_den wishing_well",
    ),
}

FOURTEEN = T8["first_game"][2].split()


def all_cards(game: citadels.Game) -> Counter[str]:
    """Every district card of the game: deck, hands, cities, Museums, open decisions."""
    s = game.state
    cards = Counter(s.deck)
    for p in s.players:
        cards.update(p.hand)
        cards.update(p.city)
        cards.update(p.museum)
    for pending in s.pending:
        cards.update(pending.cards)
    return cards


# --- N-1: characters and districts -----------------------------------------------------------


class TestCards:
    def test_N1_twenty_seven_characters_three_per_rank(self) -> None:
        by_rank: dict[int, set[str]] = {}
        for c, card in E2016.characters.items():
            by_rank.setdefault(card.rank, set()).add(c)
        assert by_rank == T6
        colours = {c: card.colour for c, card in E2016.characters.items() if card.colour}
        assert colours == {
            "king": "yellow",
            "emperor": "yellow",
            "patrician": "yellow",
            "bishop": "blue",
            "abbot": "blue",
            "cardinal": "blue",
            "merchant": "green",
            "trader": "green",
            "warlord": "red",
            "diplomat": "red",
            "marshal": "red",
        }
        # the Tax Collector is rank 9 here, rank 2 in `classic`.
        assert E2016.rank("tax_collector") == 9
        assert citadels.EDITIONS["classic"].rank("tax_collector") == 2

    def test_N1_thirty_unique_districts(self) -> None:
        unique = {d: c.cost for d, c in E2016.districts.items() if c.colour == "purple"}
        assert unique == T7
        assert dict(E2016.purple_pool) == dict.fromkeys(T7, 1)
        for gone in ("graveyard", "university", "lighthouse", "bell_tower", "hospital"):
            assert gone not in E2016.districts

    def test_N1_T1_deck_is_fifty_four_coloured_with_barracks_plus_fourteen(self) -> None:
        game = citadels.new_game("2016", 4, seed=3)
        cards = all_cards(game)
        assert sum(cards.values()) == 54 + 14
        assert cards["barracks"] == 3 and "battlefield" not in cards
        unique = sorted(d for d in cards if E2016.districts[d].colour == "purple")
        assert unique == sorted(FOURTEEN)
        colours = Counter()
        for d, n in cards.items():
            colours[E2016.districts[d].colour] += n
        assert colours == {"yellow": 12, "blue": 11, "green": 20, "red": 11, "purple": 14}

    def test_N1_districts_option_chooses_the_fourteen(self) -> None:
        chosen = sorted(T7)[:14]
        game = citadels.new_game("2016", 4, seed=1, districts=chosen)
        cards = all_cards(game)
        assert sorted(d for d in cards if E2016.districts[d].colour == "purple") == chosen
        assert sum(cards.values()) == 68

    @pytest.mark.parametrize(
        ("districts", "message"),
        [
            (sorted(T7)[:13], "exactly 14"),
            (sorted(T7)[:15], "exactly 14"),
            ([*sorted(T7)[:13], "graveyard"], "not a purple district"),
            ([*sorted(T7)[:13], "manor"], "not a purple district"),
            ([*sorted(T7)[:13], "armory"], "twice"),
        ],
    )
    def test_N1_districts_option_errors(self, districts: list[str], message: str) -> None:
        with pytest.raises(ValueError, match=message):
            citadels.new_game("2016", 4, districts=districts)

    def test_N1_one_character_per_rank(self) -> None:
        game = citadels.new_game("2016", 4, characters=characters_2016("witch", "cardinal"))
        assert game.state.characters == (
            "witch",
            "thief",
            "magician",
            "king",
            "cardinal",
            "merchant",
            "architect",
            "warlord",
        )
        with pytest.raises(ValueError, match="two characters of rank 1"):
            citadels.new_game("2016", 4, characters=[*characters_2016(), "magistrate"])
        with pytest.raises(ValueError, match="no character of rank 5"):
            citadels.new_game("2016", 4, characters=[c for c in characters_2016() if c != "bishop"])

    def test_N1_eight_players_need_rank_nine(self) -> None:
        with pytest.raises(ValueError, match="8 players need a rank-9"):
            citadels.new_game("2016", 8, characters=characters_2016())
        game = citadels.new_game("2016", 8, characters=characters_2016("tax_collector"))
        assert game.state.characters[-1] == "tax_collector"
        with pytest.raises(ValueError, match="2 to 8 players"):
            citadels.new_game("2016", 9, characters=characters_2016("artist"))
        with pytest.raises(ValueError, match="2 to 8 players"):
            citadels.new_game("2016", 1)


# --- N-2, N-3: two and three players ---------------------------------------------------------


class TestFewPlayers:
    def test_N2_emperor_not_with_two_players(self) -> None:
        with pytest.raises(ValueError, match="Emperor"):
            citadels.new_game("2016", 2, characters=characters_2016("emperor"))
        assert citadels.new_game("2016", 3, characters=characters_2016("emperor")).num_players == 3

    @pytest.mark.parametrize("preset", ["cunning_agents", "illustrious_emissaries"])
    def test_N2_presets_swap_the_emperor_for_the_king_with_two_players(self, preset: str) -> None:
        two = citadels.new_game("2016", 2, seed=0, preset=preset).state.characters
        assert "king" in two and "emperor" not in two
        three = citadels.new_game("2016", 3, seed=0, preset=preset).state.characters
        assert "emperor" in three

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_N2_R28_queen_needs_five_players(self, players: int) -> None:
        with pytest.raises(ValueError, match="Queen needs 5"):
            citadels.new_game("2016", players, characters=characters_2016("queen"))
        for preset in ("ambitious_aristocrats", "devious_dignitaries"):
            chars = citadels.new_game("2016", players, seed=0, preset=preset).state.characters
            assert chars[-1] == "artist"

    def test_N2_queen_kept_from_five_players(self) -> None:
        for players in (5, 8):
            game = citadels.new_game("2016", players, seed=0, preset="ambitious_aristocrats")
            assert game.state.characters[-1] == "queen"

    def test_N2_K2_two_players_keep_and_put_aside(self) -> None:
        game = citadels.new_game("2016", 2, seed=4)
        s = game.state
        a = s.crown
        kinds = [(seat == a, kind) for seat, kind in s.steps]
        assert kinds == [
            (True, "pick"),
            (False, "pick"),
            (False, "put_aside"),
            (True, "pick"),
            (True, "put_aside"),
            (False, "pick"),
            (False, "put_aside"),
        ]
        assert len(s.pool) == 7 and s.faceup == []
        while s.steps:
            action = game.legal_actions()[0]
            assert isinstance(action, PickCharacter | PutAsideCharacter)
            play(game, action)
        assert [len(p.characters) for p in s.players] == [2, 2]

    def test_N3_K3_three_players_hold_two_characters_each(self) -> None:
        game = citadels.new_game("2016", 3, seed=2)
        assert game.state.faceup == []
        pick_first(game)
        assert [len(p.characters) for p in game.state.players] == [2, 2, 2]
        assert len(game.state.facedown) == 2


# --- C-3: face-up characters -----------------------------------------------------------------


class TestFaceUp:
    @pytest.mark.parametrize("rank4", ["king", "emperor", "patrician"])
    def test_C3_no_rank4_character_is_put_aside_face_up(self, rank4: str) -> None:
        for seed in range(40):
            game = citadels.new_game(
                "2016", 4, seed=seed, characters=characters_2016(rank4, "artist")
            )
            s = game.state
            assert len(s.faceup) == 3
            assert rank4 not in s.faceup

    @pytest.mark.parametrize(
        ("players", "nine", "faceup"),
        [
            *[(4, False, 2), (5, False, 1), (6, False, 0), (7, False, 0)],
            *[(4, True, 3), (5, True, 2), (6, True, 1), (7, True, 0), (8, True, 0)],
        ],
    )
    def test_C3_faceup_table_in_2016(self, players: int, nine: bool, faceup: int) -> None:
        extra = ("tax_collector",) if nine else ()
        game = citadels.new_game("2016", players, seed=1, characters=characters_2016(*extra))
        assert len(game.state.faceup) == faceup and len(game.state.facedown) == 1


# --- N-4: city size ---------------------------------------------------------------------------


class TestCitySize:
    @pytest.mark.parametrize(
        ("players", "size"), [(2, 8), (3, 8), (4, 7), (5, 7), (6, 7), (7, 7), (8, 7)]
    )
    def test_N4_city_completes_at_seven_or_eight(self, players: int, size: int) -> None:
        game = citadels.new_game("2016", players, seed=0, characters=characters_2016("artist"))
        assert game.state.complete_at == size
        assert game.view(0)["complete_at"] == size

    @pytest.mark.parametrize("players", [2, 4, 6])
    def test_N4_option_eight_always(self, players: int) -> None:
        game = citadels.new_game("2016", players, seed=0, complete_at=8)
        assert game.state.complete_at == 8
        assert game.view(None)["complete_at"] == 8

    def test_N4_other_sizes_rejected(self) -> None:
        with pytest.raises(ValueError, match="complete_at"):
            citadels.new_game("2016", 4, complete_at=6)

    def test_N4_C14_seventh_district_ends_the_game_after_the_round(self) -> None:
        six = ["manor", "temple", "church", "tavern", "market", "prison"]
        game = position(
            "2016",
            4,
            characters={0: ["king"], 1: ["bishop"]},
            cities={0: six},
            hands={0: ["castle"]},
            gold={0: 2},
        )
        play(game, citadels.GatherGold(), citadels.Build("castle"))
        assert game.state.first_complete == 0 and not game.is_over
        play(game, citadels.EndTurn(), citadels.GatherGold(), citadels.EndTurn())
        assert game.is_over
        assert game.result()[0].breakdown.first_complete == 4


# --- N-5: tie-break ---------------------------------------------------------------------------


class TestTieBreak:
    def test_N5_R2_district_costs_first(self) -> None:
        game = position(
            "2016",
            4,
            characters={0: ["warlord"], 1: ["assassin"]},
            cities={0: ["dragon_gate"], 1: ["palace", "manor"]},
            gold={0: 9},
        )
        result = game.result()
        assert result[0].score == result[1].score == 8
        # Dragon Gate counts 6 for the cost step: the Palace and Manor's 8 win.
        assert (result[0].rank, result[1].rank) == (2, 1)
        assert result[1].tiebreak == "district_costs"

    def test_N5_gold_second(self) -> None:
        game = position(
            "2016",
            4,
            characters={0: ["warlord"], 1: ["assassin"]},
            cities={0: ["palace"], 1: ["castle", "temple"]},
            gold={0: 1, 1: 2},
        )
        result = game.result()
        assert result[0].score == result[1].score == 5
        assert (result[0].rank, result[1].rank) == (2, 1)
        assert result[1].tiebreak == "gold"

    def test_N5_highest_character_rank_in_the_last_round_third(self) -> None:
        game = position(
            "2016",
            4,
            characters={0: ["thief"], 1: ["king"]},
            cities={0: ["palace"], 1: ["castle", "temple"]},
            gold={0: 2, 1: 2},
        )
        result = game.result()
        assert (result[0].rank, result[1].rank) == (2, 1)
        assert result[1].tiebreak == "character_rank"
        assert result.winners == (1,)
        assert result.tiebreak_order == ("district_costs", "gold", "character_rank")


# --- T8: presets ------------------------------------------------------------------------------


class TestPresets:
    def test_T8_presets_match_the_rulebook(self) -> None:
        assert set(E2016.presets) == set(T8)
        for name, (chars, rank9, districts) in T8.items():
            p = E2016.presets[name]
            assert p.characters == tuple(chars.split()) + ((rank9,) if rank9 else ()), name
            assert sorted(p.districts) == sorted(districts.split()), name
            assert len(p.districts) == 14

    def test_T8_default_setup_is_the_first_game(self) -> None:
        game = citadels.new_game("2016", 4, seed=0)
        assert game.state.characters == tuple(T8["first_game"][0].split())

    def test_T8_first_game_with_eight_players_takes_the_queen(self) -> None:
        """(*) The rulebook's first game has no rank 9; with 8 players the Queen joins."""
        game = citadels.new_game("2016", 8, seed=0, preset="first_game")
        assert game.state.characters[-1] == "queen"
        game = citadels.new_game("2016", 8, seed=0)
        assert game.state.characters[-1] == "queen"
        assert len(citadels.new_game("2016", 7, seed=0).state.characters) == 8

    def test_T8_preset_deck_holds_its_fourteen_districts(self) -> None:
        for name, (_, _, districts) in T8.items():
            game = citadels.new_game("2016", 5, seed=0, preset=name)
            cards = all_cards(game)
            unique = sorted(d for d in cards if E2016.districts[d].colour == "purple")
            assert unique == sorted(districts.split()), name
            assert sum(cards.values()) == 68

    @pytest.mark.parametrize("preset", sorted(T8))
    @pytest.mark.parametrize("players", range(2, 9))
    def test_T8_preset_plays_to_the_end(self, preset: str, players: int) -> None:
        game = citadels.new_game("2016", players, seed=players, preset=preset)
        full = all_cards(game)
        rng = random.Random(f"{preset}-{players}")
        for _ in range(20000):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            s = game.state
            assert all(p.gold >= 0 for p in s.players) and s.tax_token >= 0
            assert all_cards(game) == full
        assert game.is_over
        assert len(game.result()) == players and game.result().winners
        assert game.state.complete_at == (8 if players <= 3 else 7)
        # C-14: the game ended because a city was completed (it may have shrunk since, e.g.
        # by sacrificing its own Armory).
        assert game.state.first_complete is not None


# --- C-10, N-7: the markers' secrets --------------------------------------------------------


class TestHiddenMarkers:
    @pytest.mark.parametrize("preset", ["ambitious_aristocrats", "devious_dignitaries"])
    def test_C10_N7_signed_warrant_and_flowered_threat_never_leak(self, preset: str) -> None:
        for seed in range(6):
            game = citadels.new_game("2016", 5, seed=seed, preset=preset)
            rng = random.Random(seed)
            seen_warrants = seen_threats = False
            while not game.is_over:
                s = game.state
                for seat in (None, *range(5)):
                    view = game.view(seat)
                    assert view["warrants"] == sorted(s.warrants, key=s.characters.index)
                    assert view["threats"] == sorted(s.threats, key=s.characters.index)
                    if seat is not None and seat == s.magistrate and s.warrants:
                        signed = [c for c, v in s.warrants.items() if v]
                        assert view["signed_warrant"] == signed[0]
                        seen_warrants = True
                    else:
                        assert "signed_warrant" not in view
                    if seat is not None and seat == s.blackmailer and s.threats:
                        seen_threats = True
                        assert view["flowered_threat"] in (*s.threats, None)
                    else:
                        assert "flowered_threat" not in view
                    for e in view["log"]:
                        if e["kind"] == "warrants":
                            assert ("signed" in e) == (seat == e["seat"])
                        if e["kind"] == "threats":
                            assert ("flowered" in e) == (seat == e["seat"])
                game.apply(rng.choice(game.legal_actions()))
            assert seen_warrants and seen_threats == ("blackmailer" in game.state.characters)


@pytest.mark.parametrize("players", [2, 3])
def test_N4_seven_accepted_with_two_or_three_players(players: int) -> None:
    """N-4: 8 districts with 2–3 players is the default (the published rule), but seed 004
    reads the 2–3 player game as the normal one, so ``complete_at=7`` is accepted."""
    assert citadels.new_game("2016", players, seed=0).state.complete_at == 8
    game = citadels.new_game("2016", players, seed=0, complete_at=7)
    assert game.state.complete_at == 7
    assert game.view(None)["complete_at"] == 7
    assert citadels.replay(game.record()).state.complete_at == 7


def test_N4_city_size_options_are_seven_and_eight() -> None:
    assert citadels.new_game("2016", 5, complete_at=8).state.complete_at == 8
    assert citadels.new_game("2016", 5, complete_at=7).state.complete_at == 7
    for bad in (6, 9):
        with pytest.raises(ValueError, match=r"complete_at must be one of 7, 8 \(N-4\)"):
            citadels.new_game("2016", 3, complete_at=bad)


def test_R34_classic_passages_of_seed_004_give_way_to_2016_rules() -> None:
    """R-34: where seed 004 repeats classic text, the 2016 rule is played."""
    edition = citadels.EDITIONS["2016"]
    # Library + Observatory keep every card drawn (3), not 2.
    game = position(
        "2016",
        4,
        characters={0: ["merchant"]},
        cities={0: ["library", "observatory"]},
        deck_top=["manor", "temple", "tavern"],
        options={"preset": "illustrious_emissaries"},
    )
    hand = list(game.state.players[0].hand)
    play(game, citadels.GatherCards(3))
    assert sorted(game.state.players[0].hand) == sorted([*hand, "manor", "temple", "tavern"])
    # The Quarry has no limit on duplicates; the Emperor chooses his tribute and a
    # killed Emperor still moves the crown; the Patrician's income is in cards (T6).
    assert edition.quarry_limit is False
    assert edition.characters["patrician"].colour == "yellow"
    assert POWERS_2016["patrician"].income_in_cards == "all"
    # No Bell Tower and no Graveyard in the 2016 card pool.
    assert "bell_tower" not in edition.districts and "graveyard" not in edition.districts
    # Warlord timing and city size stay as RULES.md sets them.
    assert edition.warlord_timing == "any_time"
    assert edition.completion_size(4) == 7 and edition.completion_size(3) == 8
