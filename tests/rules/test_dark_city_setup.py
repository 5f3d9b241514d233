"""Setting up `classic` with Dark City cards: character sets (K-7), the face-up table with a
rank-9 character and 8 players (C-3, C-5, R-33), the ``districts=`` option (K-1) and the
presets."""

from __future__ import annotations

import random

import pytest

import citadels
from citadels import Build, PickCharacter
from tests.helpers import classic_characters, events, play

CLASSIC = citadels.EDITIONS["classic"]


def new(players: int, *bonus: str, seed: int = 0, **options: object) -> citadels.Game:
    return citadels.new_game(
        "classic", players, seed=seed, characters=classic_characters(*bonus), **options
    )


# --- K-7 character sets ----------------------------------------------------------------------


class TestCharacterSets:
    def test_K7_two_characters_of_one_rank_rejected(self) -> None:
        chars = [*classic_characters(), "witch"]
        with pytest.raises(ValueError, match="two characters of rank 1"):
            citadels.new_game("classic", 4, characters=chars)
        with pytest.raises(ValueError, match="two characters of rank 9"):
            citadels.new_game("classic", 5, characters=[*classic_characters("queen"), "artist"])

    def test_K7_every_rank_from_one_to_eight_needed(self) -> None:
        chars = [c for c in classic_characters() if c != "bishop"]
        with pytest.raises(ValueError, match="no character of rank 5"):
            citadels.new_game("classic", 4, characters=chars)

    def test_K7_unknown_or_malformed_character_sets_rejected(self) -> None:
        with pytest.raises(ValueError, match="unknown character"):
            citadels.new_game("classic", 4, characters=[*classic_characters()[:7], "marshal"])
        with pytest.raises(ValueError, match="list of character ids"):
            citadels.new_game("classic", 4, characters="witch")

    def test_K7_bonus_characters_replace_their_rank(self) -> None:
        game = new(4, "witch", "navigator")
        assert game.state.characters == (
            "witch",
            "thief",
            "magician",
            "king",
            "bishop",
            "merchant",
            "navigator",
            "warlord",
        )
        assert game.view(0)["characters_in_play"] == list(game.state.characters)

    def test_K7_eight_players_need_a_rank_nine_character(self) -> None:
        with pytest.raises(ValueError, match="8 players need a rank-9"):
            citadels.new_game("classic", 8)
        with pytest.raises(ValueError, match="8 players need a rank-9"):
            new(8, "witch")
        assert new(8, "artist").num_players == 8
        with pytest.raises(ValueError, match="2 to 8 players"):
            new(9, "artist")

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_K7_queen_needs_five_players(self, players: int) -> None:
        with pytest.raises(ValueError, match="Queen needs 5"):
            new(players, "queen")
        assert new(5, "queen").state.characters[-1] == "queen"


# --- C-3, C-5, R-33: nine characters ---------------------------------------------------------


class TestNineCharacters:
    @pytest.mark.parametrize(("players", "faceup"), [(4, 3), (5, 2), (6, 1), (7, 0), (8, 0)])
    def test_C3_R33_faceup_count_with_a_rank_nine_character(
        self, players: int, faceup: int
    ) -> None:
        for seed in range(12):
            game = new(players, "artist", seed=seed)
            s = game.state
            assert len(s.faceup) == faceup
            assert len(s.facedown) == 1
            assert not any(CLASSIC.rank(c) == 4 for c in s.faceup)
            assert len(s.pool) == 9 - 1 - faceup
            assert game.view(None)["faceup_removed"] == s.faceup

    @pytest.mark.parametrize(("players", "faceup"), [(4, 2), (5, 1), (6, 0), (7, 0)])
    def test_C3_faceup_count_with_eight_characters(self, players: int, faceup: int) -> None:
        assert len(new(players, "witch").state.faceup) == faceup

    def test_C3_R27_emperor_is_never_put_aside_face_up(self) -> None:
        for seed in range(40):
            game = new(4, "emperor", "artist", seed=seed)
            assert "emperor" not in game.state.faceup

    def test_C5_R33_eighth_player_sees_the_facedown_card(self) -> None:
        game = new(8, "artist", seed=5)
        s = game.state
        hidden = s.facedown[0]
        while len(s.steps) > 1:
            play(game, game.legal_actions()[0])
        last = s.steps[0][0]
        assert last == (s.crown + 7) % 8
        offered = {a.character for a in game.legal_actions()}
        assert len(offered) == 2 and hidden in offered
        assert len(s.pool) == 1
        # Only the last chooser sees which card it is (C-10).
        assert events(game, "look_facedown", last)[0]["character"] == hidden
        assert game.view(last)["known_facedown"] == [hidden]
        for seat in (*(x for x in range(8) if x != last), None):
            assert "character" not in events(game, "look_facedown", seat)[0]
            assert game.view(seat)["known_facedown"] == []
        other = s.pool[0]
        play(game, PickCharacter(hidden))
        assert s.holders[hidden] == last
        assert other in s.facedown and hidden not in s.facedown
        assert sorted(len(p.characters) for p in s.players) == [1] * 8

    def test_C5_seven_players_with_nine_characters_choose_from_two(self) -> None:
        game = new(7, "artist", seed=2)
        s = game.state
        while len(s.steps) > 1:
            play(game, game.legal_actions()[0])
        # Two cards reach the seventh player: a normal choice, no look at the face-down card.
        assert len(game.legal_actions()) == 2
        assert events(game, "look_facedown") == []
        play(game, game.legal_actions()[0])
        assert len(s.facedown) == 2


# --- K-1: the districts option and the Diplomat ----------------------------------------------


class TestDistrictsOption:
    def test_K1_districts_option_sets_the_purple_part_of_the_deck(self) -> None:
        chosen = ["museum", "quarry", "keep", "library"]
        game = citadels.new_game("classic", 4, seed=1, districts=chosen)
        deck = game.state.deck + [d for p in game.state.players for d in p.hand]
        purple = sorted(d for d in deck if CLASSIC.districts[d].colour == "purple")
        assert purple == ["keep", "keep", "library", "museum", "quarry"]
        assert len(deck) == 54 + 5

    @pytest.mark.parametrize(
        ("districts", "message"),
        [
            ("museum", "must be a list"),
            (["museum", "flying_castle"], "not a purple district"),
            (["manor"], "not a purple district"),
            (["museum", "museum"], "twice"),
        ],
    )
    def test_K1_districts_option_errors(self, districts: object, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            citadels.new_game("classic", 4, districts=districts)

    def test_K7_diplomat_in_the_set_removes_the_graveyard(self) -> None:
        assert "graveyard" in citadels.new_game("classic", 4, seed=1).state.deck
        for options in ({}, {"districts": ["graveyard", "museum"]}):
            game = new(4, "diplomat", seed=1, **options)
            cards = game.state.deck + [d for p in game.state.players for d in p.hand]
            assert "graveyard" not in cards
        kept = new(4, "witch", seed=1, districts=["graveyard", "museum"])
        cards = kept.state.deck + [d for p in kept.state.players for d in p.hand]
        assert "graveyard" in cards


# --- presets ---------------------------------------------------------------------------------


def _preset_cases() -> list[tuple[str, int]]:
    return [
        (name, n)
        for name, preset in CLASSIC.presets.items()
        for n in range(preset.min_players, preset.max_players + 1)
    ]


class TestPresets:
    @pytest.mark.parametrize(("preset", "players"), _preset_cases())
    def test_K7_preset_plays_to_the_end(self, preset: str, players: int) -> None:
        game = citadels.new_game("classic", players, seed=players, preset=preset)
        p = CLASSIC.presets[preset]
        assert game.state.characters == tuple(sorted(p.characters, key=lambda c: CLASSIC.rank(c)))
        rng = random.Random(f"{preset}-{players}")
        for _ in range(5000):
            if game.is_over:
                break
            actions = game.legal_actions()
            builds = [a for a in actions if isinstance(a, Build)]
            game.apply(rng.choice(builds or actions))
        assert game.is_over
        assert len(game.result()) == players
        assert game.result().winners

    def test_K7_preset_deck_holds_its_purple_districts(self) -> None:
        for name, p in CLASSIC.presets.items():
            game = citadels.new_game("classic", max(p.min_players, 4), seed=0, preset=name)
            cards = game.state.deck + [d for q in game.state.players for d in q.hand]
            purple = {d for d in cards if CLASSIC.districts[d].colour == "purple"}
            expected = set(p.districts) - ({"graveyard"} if "diplomat" in p.characters else set())
            assert purple == expected, name

    def test_K7_presets_with_the_queen_need_five_players(self) -> None:
        for name, p in CLASSIC.presets.items():
            if "queen" in p.characters:
                assert p.min_players == 5
                with pytest.raises(ValueError, match="Queen"):
                    citadels.new_game("classic", 4, preset=name)

    def test_K7_presets_reach_eight_players_only_with_rank_nine(self) -> None:
        for name, p in CLASSIC.presets.items():
            has_nine = any(CLASSIC.rank(c) == 9 for c in p.characters)
            assert (p.max_players == 8) is has_nine, name
            if not has_nine:
                with pytest.raises(ValueError):
                    citadels.new_game("classic", 8, preset=name)

    def test_K7_unknown_preset_rejected(self) -> None:
        with pytest.raises(ValueError, match="unknown preset"):
            citadels.new_game("classic", 4, preset="nope")

    def test_K7_explicit_characters_override_the_preset(self) -> None:
        game = citadels.new_game(
            "classic", 4, preset="dark_city", characters=classic_characters("abbot")
        )
        assert "abbot" in game.state.characters and "wizard" not in game.state.characters
        assert "museum" in game.state.deck + [d for p in game.state.players for d in p.hand]
