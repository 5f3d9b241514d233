"""The common core, RULES.md §1 (C-1 … C-27), for `basic`, `dezh` and `classic`."""

from __future__ import annotations

from collections import Counter

import pytest

import citadels
from citadels import (
    Build,
    Destroy,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    ExchangeHands,
    GatherCards,
    GatherGold,
    KeepCards,
    Murder,
    PickCharacter,
    Rob,
    TakeIncome,
)
from citadels.engine.rules import start_round
from citadels.engine.state import GameState
from tests.helpers import (
    deck_bottom,
    deck_top,
    end_turn_with_gold,
    events,
    finish_round,
    legal,
    legal_types,
    pick_first,
    play,
    player,
    position,
    turn,
)

EDITIONS = ("basic", "dezh", "classic")
BASE = ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")


def events_all(game: citadels.Game) -> list[dict[str, object]]:
    """The whole log as a spectator sees it."""
    return list(game.view(None)["log"])


# --- C-1 setup -------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_C1_each_player_gets_four_cards_and_two_gold(edition: str, players: int) -> None:
    game = citadels.new_game(edition, players, seed=11)
    s = game.state
    total = sum(s.edition.deck.values())
    for p in s.players:
        assert len(p.hand) == 4
        assert p.gold == 2
        assert p.city == []
    assert len(s.deck) == total - 4 * players
    # Every card of the edition's deck is somewhere: in the deck or in a hand.
    everything = Counter(s.deck)
    for p in s.players:
        everything.update(p.hand)
    assert everything == Counter(s.edition.deck)


def test_C1_crown_is_drawn_from_the_seeded_generator() -> None:
    crowns = {citadels.new_game("classic", 5, seed=seed).state.crown for seed in range(40)}
    assert crowns == {0, 1, 2, 3, 4}
    again = [citadels.new_game("classic", 5, seed=seed).state.crown for seed in range(10)]
    assert again == [citadels.new_game("classic", 5, seed=seed).state.crown for seed in range(10)]


def test_C1_deck_is_shuffled_by_the_seed() -> None:
    a = citadels.new_game("dezh", 4, seed=1).state.deck
    b = citadels.new_game("dezh", 4, seed=2).state.deck
    assert a != b
    assert a == citadels.new_game("dezh", 4, seed=1).state.deck


def test_C1_bank_never_blocks_a_payment() -> None:
    game = position("classic", 4, characters={0: ["merchant"]}, gold={0: 10_000})
    play(game, GatherGold())
    assert player(game, 0).gold == 10_003


# --- C-2 rounds ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C2_round_is_removal_choice_calls_then_end(edition: str) -> None:
    game = citadels.new_game(edition, 4, seed=5)
    assert game.state.phase == "selection"
    pick_first(game)
    assert game.state.phase == "turns"
    finish_round(game)
    kinds = [e["kind"] for e in events_all(game)]
    first_round = kinds.index("round")
    first_pick = kinds.index("pick")
    first_call = min(i for i, k in enumerate(kinds) if k in ("call", "reveal"))
    round_end = kinds.index("round_end")
    second_round = kinds.index("round", first_round + 1)
    assert first_round < first_pick < first_call < round_end < second_round
    assert game.state.round == 2
    assert game.state.phase == "selection"


# --- C-3 removing characters ---------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("players", "faceup"), [(4, 2), (5, 1), (6, 0), (7, 0)])
def test_C3_faceup_table_for_eight_characters(edition: str, players: int, faceup: int) -> None:
    for seed in range(25):
        s = citadels.new_game(edition, players, seed=seed).state
        assert len(s.faceup) == faceup
        assert len(s.facedown) == 1
        assert len(s.pool) == 8 - 1 - faceup
        assert sorted(s.pool + s.faceup + s.facedown) == sorted(BASE)


def test_C3_king_is_never_put_aside_face_up() -> None:
    seen_faceup: Counter[str] = Counter()
    king_facedown = 0
    for seed in range(300):
        s = citadels.new_game("classic", 4, seed=seed).state
        assert "king" not in s.faceup
        seen_faceup.update(s.faceup)
        king_facedown += s.facedown == ["king"]
    # Every other character is put face up now and then; the King may still go face down.
    assert set(seen_faceup) == set(BASE) - {"king"}
    assert king_facedown > 0


PILE = ["thief", "magician", "bishop", "architect", "warlord", "merchant", "king", "assassin"]


@pytest.mark.skipif(
    citadels.engine.COMPILED,
    reason="patches GameState.shuffle, which the compiled engine calls directly; the pure "
    "run of the suite (CITADELS_PURE=1, as in CI) covers it",
)
def test_C3_king_drawn_face_up_is_replaced_and_shuffled_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = citadels.new_game("classic", 4, seed=0)
    s = game.state
    calls: list[list[str]] = []

    def stacked(self: GameState, items: list[str]) -> None:
        calls.append(items[:])
        if len(calls) == 1:
            # Top of the pile last: Assassin face down, then the King would be face up.
            items[:] = [*PILE]

    monkeypatch.setattr(GameState, "shuffle", stacked)
    s.round = 0
    start_round(s)
    assert s.facedown == ["assassin"]
    # Twice the King comes up for face up (the later shuffles here keep the order): each time
    # the next card replaces it and the King goes back into the pile, which is shuffled again.
    assert s.faceup == ["merchant", "warlord"]
    assert "king" in s.pool
    assert len(calls) == 3
    assert calls[1][-1] == "king" and calls[2][-1] == "king"


def test_C3_removed_characters_are_not_offered() -> None:
    game = citadels.new_game("basic", 4, seed=9)
    s = game.state
    offered = {a.character for a in legal(game)}  # type: ignore[attr-defined]
    assert offered == set(s.pool)
    assert not offered & set(s.faceup + s.facedown)
    rounds = events(game, "round")
    assert rounds[-1]["faceup"] == s.faceup


# --- C-4 choosing --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C4_choosing_passes_left_from_the_crown(edition: str) -> None:
    game = position(edition, 5, crown=2, seed=4)
    s = game.state
    order = []
    offered_before: list[str] | None = None
    while s.phase == "selection":
        seat = game.to_move
        assert seat is not None
        order.append(seat)
        offered = [a.character for a in legal(game)]  # type: ignore[attr-defined]
        if offered_before is not None:
            assert len(offered) == len(offered_before) - 1
            assert set(offered) < set(offered_before)
        choice = offered[-1]
        play(game, PickCharacter(choice))
        offered_before = offered
        assert s.holders[choice] == seat
    assert order == [2, 3, 4, 0, 1]
    # 8 - 1 face down - 1 face up - 5 picked: the last card is put aside face down.
    assert len(s.facedown) == 2
    assert all(len(p.characters) == 1 for p in s.players)


def test_C4_crowned_player_chooses_first_each_round() -> None:
    game = citadels.new_game("classic", 4, seed=21)
    crown = game.state.crown
    assert game.to_move == crown


# --- C-5 the seven-player last chooser -----------------------------------------------------


def _seven_to_last_chooser(edition: str) -> citadels.Game:
    game = position(edition, 7, crown=3, seed=8)
    while len(game.state.steps) > 1:
        play(game, legal(game)[0])
    return game


@pytest.mark.parametrize("edition", EDITIONS)
def test_C5_seven_player_last_chooser_takes_the_facedown_card(edition: str) -> None:
    game = _seven_to_last_chooser(edition)
    s = game.state
    assert game.to_move == 2
    hidden = s.facedown[0]
    passed = s.pool[0]
    offered = {a.character for a in legal(game)}  # type: ignore[attr-defined]
    assert offered == {hidden, passed}
    play(game, PickCharacter(hidden))
    assert s.holders[hidden] == 2
    assert s.facedown == [passed]
    assert passed not in s.holders


def test_C5_seven_player_last_chooser_may_keep_the_passed_card() -> None:
    game = _seven_to_last_chooser("classic")
    s = game.state
    hidden, passed = s.facedown[0], s.pool[0]
    play(game, PickCharacter(passed))
    assert s.holders[passed] == 2
    assert s.facedown == [hidden]


def test_C5_six_players_last_chooser_sees_no_facedown_card() -> None:
    game = position("classic", 6, crown=0, seed=8)
    while len(game.state.steps) > 1:
        play(game, legal(game)[0])
    s = game.state
    assert len(legal(game)) == 2
    assert {a.character for a in legal(game)} == set(s.pool)  # type: ignore[attr-defined]
    assert events(game, "look_facedown", 5) == []


# --- C-6 calling ---------------------------------------------------------------------------


def test_C6_characters_are_called_in_rank_order() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["warlord"], 1: ["thief"], 2: ["king"], 3: ["merchant"]},
    )
    finish_round(game)
    reveals = [(e["seat"], e["character"]) for e in events(game, "reveal")]
    assert reveals == [(1, "thief"), (2, "king"), (3, "merchant"), (0, "warlord")]
    silent = [e["character"] for e in events(game, "call")]
    assert silent == ["assassin", "magician", "bishop", "architect"]


def test_C6_character_stays_secret_until_called() -> None:
    game = position("classic", 4, characters={0: ["thief"], 1: ["warlord"], 2: ["king"]})
    assert turn(game) == (0, "thief")
    assert game.view(2)["players"][1]["characters"] == []
    assert game.view(1)["players"][1]["characters"] == ["warlord"]
    end_turn_with_gold(game)
    assert game.view(1)["players"][2]["characters"] == ["king"]
    assert game.view(1)["revealed"] == {"thief": 0, "king": 2}


# --- C-7 gathering -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C7_gather_two_gold(edition: str) -> None:
    game = position(edition, 4, characters={0: ["magician"]}, gold={0: 1})
    play(game, GatherGold())
    assert player(game, 0).gold == 3
    assert GatherGold() not in legal(game)
    assert GatherCards() not in legal(game)


@pytest.mark.parametrize("edition", EDITIONS)
def test_C7_draw_two_keep_one_other_to_bottom(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["magician"]},
        hands={0: ["manor"]},
        deck_top=["palace", "temple"],
    )
    size = len(game.state.deck)
    play(game, GatherCards())
    assert legal(game) == [KeepCards(("palace",)), KeepCards(("temple",))]
    play(game, KeepCards(("temple",)))
    assert sorted(player(game, 0).hand) == ["manor", "temple"]
    assert deck_bottom(game, 1) == ["palace"]
    assert len(game.state.deck) == size - 1
    assert player(game, 0).gold == 0


def test_C7_with_one_card_left_draw_it() -> None:
    game = position("classic", 4, characters={0: ["magician"]}, deck=["castle"])
    play(game, GatherCards())
    assert player(game, 0).hand == ["castle"]
    assert game.state.deck == []
    assert game.state.turn is not None and game.state.turn.gathered


def test_C7_empty_deck_offers_only_gold() -> None:
    game = position("classic", 4, characters={0: ["magician"]}, deck=[])
    assert GatherGold() in legal(game)
    assert not any(isinstance(a, GatherCards) for a in legal(game))


@pytest.mark.parametrize("edition", EDITIONS)
def test_C7_gathering_is_mandatory_before_ending(edition: str) -> None:
    game = position(edition, 4, characters={0: ["magician"]})
    assert EndTurn() not in legal(game)
    play(game, GatherGold())
    assert EndTurn() in legal(game)


# --- C-8 building --------------------------------------------------------------------------


def test_C8_build_pays_the_cost() -> None:
    game = position("classic", 4, characters={0: ["thief"]}, hands={0: ["castle"]}, gold={0: 3})
    play(game, GatherGold(), Build("castle"))
    p = player(game, 0)
    assert p.city == ["castle"]
    assert p.hand == []
    assert p.gold == 1
    assert events(game, "build")[0]["paid"] == 4


def test_C8_one_district_per_turn() -> None:
    game = position(
        "classic", 4, characters={0: ["thief"]}, hands={0: ["temple", "tavern"]}, gold={0: 5}
    )
    play(game, GatherGold(), Build("temple"))
    assert not any(isinstance(a, Build) for a in legal(game))


def test_C8_no_two_districts_of_the_same_name() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["thief"]},
        hands={0: ["manor", "castle"]},
        cities={0: ["manor"]},
        gold={0: 10},
    )
    play(game, GatherGold())
    builds = [a for a in legal(game) if isinstance(a, Build)]
    assert builds == [Build("castle")]


def test_C8_unaffordable_district_is_not_offered() -> None:
    game = position("classic", 4, characters={0: ["thief"]}, hands={0: ["palace"]}, gold={0: 2})
    play(game, GatherGold())
    assert Build("palace") not in legal(game)
    assert player(game, 0).gold == 4


def test_C8_building_comes_after_gathering_in_classic() -> None:
    game = position("classic", 4, characters={0: ["thief"]}, hands={0: ["temple"]}, gold={0: 5})
    assert Build("temple") not in legal(game)
    play(game, GatherGold())
    assert Build("temple") in legal(game)


def test_C8_may_build_beyond_the_completing_count() -> None:
    city = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]
    game = position(
        "classic",
        4,
        characters={0: ["architect"]},
        cities={0: city},
        hands={0: ["docks", "harbor"]},
        gold={0: 20},
        first_complete=0,
    )
    play(game, GatherGold(), Build("docks"), Build("harbor"))
    assert len(player(game, 0).city) == 10


# --- C-9 character powers and income -------------------------------------------------------


def test_C9_income_before_building_pays_for_it() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["king"]},
        cities={0: ["manor", "castle"]},
        hands={0: ["palace"]},
        gold={0: 1},
    )
    play(game, GatherGold())
    assert Build("palace") not in legal(game)
    play(game, TakeIncome())
    assert player(game, 0).gold == 5
    play(game, Build("palace"))
    assert player(game, 0).gold == 0
    assert TakeIncome() not in legal(game)


def test_C9_income_after_building_counts_the_new_district() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["warlord"]},
        cities={0: ["prison"]},
        hands={0: ["fortress"]},
        gold={0: 3},
    )
    play(game, GatherGold(), Build("fortress"), TakeIncome())
    assert player(game, 0).gold == 2
    assert events(game, "income")[0]["gold"] == 2
    assert TakeIncome() not in legal(game)


def test_C9_income_not_offered_without_matching_districts() -> None:
    game = position("classic", 4, characters={0: ["bishop"]}, cities={0: ["manor"]})
    assert TakeIncome() not in legal(game)


def test_C9_powers_are_optional() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 1: ["king"]})
    assert Murder("king") in legal(game)
    play(game, GatherGold(), EndTurn())
    assert turn(game) == (1, "king")
    assert game.state.murdered is None


def test_C9_power_once_per_turn() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 1: ["king"], 2: ["thief"]})
    play(game, Murder("king"))
    assert not any(isinstance(a, Murder) for a in legal(game))


# --- C-10 hidden and open information ------------------------------------------------------


def test_C10_other_hands_are_never_shown() -> None:
    game = citadels.new_game("classic", 4, seed=3)
    pick_first(game)
    for viewer in range(4):
        view = game.view(viewer)
        for entry in view["players"]:
            if entry["seat"] == viewer:
                assert entry["hand"] == sorted(player(game, viewer).hand)
            else:
                assert "hand" not in entry
                assert entry["hand_size"] == len(player(game, entry["seat"]).hand)
    assert all("hand" not in e for e in game.view(None)["players"])


def test_C10_deal_log_shows_cards_to_the_owner_only() -> None:
    game = citadels.new_game("dezh", 3, seed=3)
    for viewer in (0, 1, 2, None):
        for e in events(game, "deal", viewer):
            if e["seat"] == viewer:
                assert sorted(e["districts"]) == sorted(player(game, viewer).hand)
            else:
                assert "districts" not in e


def test_C10_unrevealed_characters_are_not_listed() -> None:
    game = citadels.new_game("classic", 4, seed=12)
    pick_first(game)
    s = game.state
    for viewer in range(4):
        view = game.view(viewer)
        for entry in view["players"]:
            seat = entry["seat"]
            expected = [
                c for c in player(game, seat).characters if seat == viewer or c in s.revealed
            ]
            assert entry["characters"] == expected
        for e in events(game, "pick", viewer):
            assert ("character" in e) == (e["seat"] == viewer)
    spectator = game.view(None)
    assert "holders" not in spectator
    for e in events(game, "pick", None):
        assert "character" not in e


def test_C10_public_facts_are_shown_to_everyone() -> None:
    game = position(
        "classic",
        4,
        crown=2,
        characters={0: ["assassin"], 1: ["thief"], 3: ["king"]},
        faceup=["bishop", "warlord"],
        cities={3: ["manor"]},
        gold={1: 7},
        hands={2: ["temple", "tavern"]},
    )
    play(game, Murder("merchant"), GatherGold(), EndTurn(), Rob("king"))
    for viewer in (0, 1, 2, 3, None):
        view = game.view(viewer)
        assert view["crown"] == 2
        assert view["faceup_removed"] == ["bishop", "warlord"]
        assert view["murdered"] == "merchant"
        assert view["robbed"] == "king"
        assert view["revealed"] == {"assassin": 0, "thief": 1}
        assert view["players"][1]["gold"] == 7
        assert view["players"][2]["hand_size"] == 2
        assert view["players"][3]["city"] == ["manor"]


def test_C10_kept_and_bottomed_cards_stay_secret() -> None:
    game = position("classic", 4, characters={0: ["magician"]}, deck_top=["palace", "temple"])
    play(game, GatherCards())
    assert game.view(0)["pending"]["cards"] == ["palace", "temple"]
    assert "cards" not in game.view(1)["pending"]
    play(game, KeepCards(("palace",)))
    own = events(game, "keep", 0)[0]
    other = events(game, "keep", 1)[0]
    assert own["districts"] == ["palace"]
    assert "districts" not in other
    assert "districts" not in events(game, "gather_cards", 2)[0]
    assert "deck" not in game.view(1)


def test_C10_facedown_card_seen_only_by_the_seven_player_last_chooser() -> None:
    game = _seven_to_last_chooser("basic")
    s = game.state
    hidden = s.facedown[0]
    for viewer in range(7):
        view = game.view(viewer)
        looks = events(game, "look_facedown", viewer)
        assert len(looks) == 1
        if viewer == 2:
            assert looks[0]["character"] == hidden
            assert view["known_facedown"] == [hidden]
            assert hidden in view["selection"]["offered"]
        else:
            assert "character" not in looks[0]
            assert view["known_facedown"] == []
            assert "offered" not in view["selection"]
    for viewer in (2, 4):
        assert hidden not in str(game.view(viewer)["players"])
    assert "character" not in events(game, "look_facedown", None)[0]


def test_C10_earlier_choosers_never_see_the_facedown_card() -> None:
    game = position("classic", 7, crown=0, seed=2)
    hidden = game.state.facedown[0]
    while len(game.state.steps) > 1:
        seat = game.to_move
        assert hidden not in game.view(seat)["selection"]["offered"]
        assert game.view(seat)["known_facedown"] == []
        play(game, legal(game)[0])


# --- C-11 destroyed districts --------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C11_destroyed_district_goes_to_the_deck_bottom(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["warlord"]}, cities={1: ["market", "temple"]}, gold={0: 3}
    )
    size = len(game.state.deck)
    play(game, GatherGold(), Destroy(1, "market"))
    assert player(game, 1).city == ["temple"]
    assert deck_bottom(game, 1) == ["market"]
    assert len(game.state.deck) == size + 1
    assert player(game, 0).gold == 4


# --- C-12 murdered character ---------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C12_murdered_character_misses_the_whole_turn(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["assassin"], 1: ["merchant"], 2: ["warlord"]},
        cities={1: ["market", "docks"]},
        hands={1: ["tavern"]},
        gold={1: 4},
    )
    play(game, Murder("merchant"), GatherGold(), EndTurn())
    assert turn(game) == (2, "warlord")
    p = player(game, 1)
    assert (p.gold, p.hand, p.city) == (4, ["tavern"], ["market", "docks"])
    if edition == "dezh":
        # C-12 (`dezh`): the holder turns the card face up at the call; the turn ends.
        shown = [e for e in events(game, "reveal") if e["character"] == "merchant"]
        assert [(e["seat"], e["murdered"]) for e in shown] == [(1, True)]
        assert game.state.revealed["merchant"] == 1
        end_turn_with_gold(game)
        return
    silent = [e for e in events(game, "call") if e["character"] == "merchant"]
    assert silent and silent[0]["answered"] is False
    assert "merchant" not in game.state.revealed
    # The holder is named only when the round ends.
    assert events(game, "murdered_revealed") == []
    end_turn_with_gold(game)
    revealed = events(game, "murdered_revealed")
    assert [(e["seat"], e["character"]) for e in revealed] == [(1, "merchant")]


def test_C12_murder_of_an_unheld_character_changes_nothing() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 1: ["king"]}, gold={1: 1})
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert turn(game) == (1, "king")
    finish_round(game)
    assert events(game, "murdered_revealed") == []


# --- C-13 end of round ---------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C13_characters_return_and_are_reshuffled(edition: str) -> None:
    game = citadels.new_game(edition, 5, seed=6)
    setups = []
    for _ in range(4):
        pick_first(game)
        finish_round(game)
        s = game.state
        assert s.phase == "selection"
        assert all(p.characters == [] for p in s.players)
        assert s.holders == {} and s.revealed == {}
        assert sorted(s.pool + s.faceup + s.facedown) == sorted(BASE)
        setups.append((tuple(s.faceup), tuple(s.facedown)))
    assert len(set(setups)) > 1


# --- C-14 game end -------------------------------------------------------------------------


def test_C14_game_ends_after_the_round_of_the_nth_district() -> None:
    city = ["manor", "castle", "temple", "church", "tavern", "market", "watchtower"]
    game = position(
        "classic",
        4,
        characters={0: ["king"], 1: ["merchant"], 2: ["warlord"]},
        cities={0: city},
        hands={0: ["palace"]},
        gold={0: 3},
    )
    play(game, GatherGold(), Build("palace"))
    assert game.state.first_complete == 0
    assert [e["seat"] for e in events(game, "city_complete")] == [0]
    play(game, EndTurn())
    # The rest of the round is still played.
    assert turn(game) == (1, "merchant")
    end_turn_with_gold(game)
    assert turn(game) == (2, "warlord")
    end_turn_with_gold(game)
    assert game.is_over
    assert game.to_move is None
    assert game.legal_actions() == []
    assert events(game, "game_over")[0]["round"] == 1
    assert "result" in game.view(0)


def test_C14_game_goes_on_below_n_districts() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["king"]},
        cities={0: ["manor", "castle", "temple", "church", "tavern", "market"]},
        hands={0: ["palace"]},
        gold={0: 3},
    )
    play(game, GatherGold(), Build("palace"), EndTurn())
    assert not game.is_over
    assert game.state.round == 2
    assert game.state.first_complete is None


# --- C-15 scoring --------------------------------------------------------------------------


def test_C15_score_parts() -> None:
    first = ["manor", "temple", "tavern", "watchtower", "keep", "castle", "palace", "dragon_gate"]
    second = ["manor", "castle", "palace", "temple", "church", "monastery", "cathedral", "tavern"]
    game = position(
        "classic",
        4,
        characters={2: ["merchant"]},
        cities={0: first, 1: second, 2: ["manor", "church", "market"]},
        first_complete=0,
    )
    finish_round(game)
    assert game.is_over
    result = game.result()
    b0 = result[0].breakdown
    assert (b0.districts, b0.colours, b0.first_complete, b0.complete, b0.bonus) == (
        24,
        3,
        4,
        0,
        2,
    )
    assert result[0].score == 33
    b1 = result[1].breakdown
    assert (b1.districts, b1.colours, b1.first_complete, b1.complete, b1.bonus) == (
        24,
        0,
        0,
        2,
        0,
    )
    assert result[1].score == 26
    assert result[2].score == 7
    assert result[3].score == 0
    assert [r.rank for r in result] == [1, 2, 3, 4]
    assert game.view(3)["result"]["winners"] == [0]


# --- C-20 Assassin -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C20_assassin_names_any_rank_but_one(edition: str) -> None:
    game = position(edition, 4, characters={0: ["assassin"]})
    targets = [a.character for a in legal(game) if isinstance(a, Murder)]
    assert targets == list(BASE[1:])


def test_C20_face_up_characters_are_not_offered() -> None:
    game = position("classic", 4, characters={0: ["assassin"]}, faceup=["bishop", "architect"])
    targets = [a.character for a in legal(game) if isinstance(a, Murder)]
    assert targets == ["thief", "magician", "king", "merchant", "warlord"]


def test_C20_murder_is_announced() -> None:
    game = position("dezh", 4, characters={0: ["assassin"], 1: ["king"]})
    play(game, Murder("king"))
    assert events(game, "murder", 3)[0]["character"] == "king"
    assert game.view(1)["murdered"] == "king"


# --- C-21 Thief ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C21_thief_takes_all_gold_when_the_victim_is_revealed(edition: str) -> None:
    game = position(edition, 4, characters={0: ["thief"], 1: ["bishop"]}, gold={0: 1, 1: 5})
    play(game, Rob("bishop"), GatherGold(), EndTurn())
    assert turn(game) == (1, "bishop")
    assert player(game, 0).gold == 8
    assert player(game, 1).gold == 0
    robbed = events(game, "robbed", 2)[0]
    assert (robbed["seat"], robbed["thief"], robbed["gold"]) == (1, 0, 5)
    play(game, GatherGold())
    assert player(game, 1).gold == 2


def test_C21_thief_may_not_name_the_murdered_character() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 1: ["thief"], 2: ["king"]})
    play(game, Murder("king"), GatherGold(), EndTurn())
    targets = [a.character for a in legal(game) if isinstance(a, Rob)]
    assert "king" not in targets
    assert "assassin" not in targets and "thief" not in targets
    assert targets == ["magician", "bishop", "merchant", "architect", "warlord"]


def test_C21_robbery_happens_before_the_victims_income() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["thief"], 1: ["merchant"]},
        cities={1: ["market"]},
        gold={1: 3},
    )
    play(game, Rob("merchant"), GatherGold(), EndTurn())
    assert player(game, 1).gold == 0
    play(game, GatherGold(), TakeIncome())
    assert player(game, 1).gold == 4
    assert player(game, 0).gold == 5


# --- C-22 Magician -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C22_exchange_whole_hands_even_with_an_empty_hand(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["magician"]}, hands={2: ["manor", "castle", "temple"]}
    )
    assert [a.seat for a in legal(game) if isinstance(a, ExchangeHands)] == [1, 2, 3]
    play(game, ExchangeHands(2))
    assert sorted(player(game, 0).hand) == ["castle", "manor", "temple"]
    assert player(game, 2).hand == []
    assert not any(isinstance(a, (ExchangeHands, DiscardCard)) for a in legal(game))


def test_C22_discard_to_the_bottom_and_draw_as_many() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["magician"]},
        hands={0: ["temple", "tavern", "palace"]},
        deck_top=["fortress", "cathedral", "harbor"],
    )
    play(game, DiscardCard("temple"))
    assert legal(game) == [DiscardCard("palace"), DiscardCard("tavern"), DrawReplacements()]
    play(game, DiscardCard("tavern"), DrawReplacements())
    assert sorted(player(game, 0).hand) == ["cathedral", "fortress", "palace"]
    assert deck_bottom(game, 2) == ["temple", "tavern"]
    assert deck_top(game, 1) == ["harbor"]
    redraw_other = events(game, "redraw", 1)[0]
    assert redraw_other["count"] == 2 and "discarded" not in redraw_other
    assert not any(isinstance(a, (ExchangeHands, DiscardCard)) for a in legal(game))


# --- C-23 King -----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C23_king_takes_the_crown_when_called(edition: str) -> None:
    game = position(edition, 4, crown=3, characters={0: ["thief"], 2: ["king"]})
    assert game.state.crown == 3
    end_turn_with_gold(game)
    assert turn(game) == (2, "king")
    assert game.state.crown == 2
    assert events(game, "crown")[0]["seat"] == 2
    finish_round(game)
    assert game.to_move == 2


def test_C23_crown_stays_when_nobody_holds_the_king() -> None:
    game = position("classic", 4, crown=1, characters={0: ["thief"], 2: ["warlord"]})
    finish_round(game)
    assert game.state.crown == 1
    assert game.to_move == 1


def test_C23_murdered_king_takes_the_crown_at_round_end() -> None:
    game = position("classic", 4, crown=0, characters={0: ["assassin"], 3: ["king"], 1: ["bishop"]})
    play(game, Murder("king"), GatherGold(), EndTurn())
    assert turn(game) == (1, "bishop")
    assert game.state.crown == 0
    end_turn_with_gold(game)
    assert game.state.crown == 3
    assert game.state.round == 2
    assert game.to_move == 3


# --- C-24 Bishop ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C24_bishop_districts_are_safe_from_the_warlord(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={1: ["bishop"], 2: ["warlord"]},
        cities={1: ["temple", "manor"], 3: ["tavern"]},
        gold={2: 5},
    )
    end_turn_with_gold(game)
    play(game, GatherGold())
    targets = {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {(3, "tavern")}


@pytest.mark.parametrize("edition", EDITIONS)
def test_C24_murdered_bishop_gives_no_protection(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["assassin"], 1: ["bishop"], 2: ["warlord"]},
        cities={1: ["temple", "manor"]},
        gold={2: 5},
    )
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert turn(game) == (2, "warlord")
    play(game, GatherGold())
    targets = {(a.seat, a.district) for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {(1, "temple"), (1, "manor")}


# --- C-25 Merchant -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_C25_merchant_gets_one_extra_gold_with_gold(edition: str) -> None:
    game = position(edition, 4, characters={0: ["merchant"]}, cities={0: ["market", "docks"]})
    play(game, GatherGold())
    assert player(game, 0).gold == 3
    play(game, TakeIncome())
    assert player(game, 0).gold == 5


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_C25_merchant_gets_one_extra_gold_with_cards(edition: str) -> None:
    game = position(edition, 4, characters={0: ["merchant"]}, deck_top=["manor", "castle"])
    play(game, GatherCards(), KeepCards(("manor",)))
    assert player(game, 0).gold == 1
    assert events(game, "extra_gold")[0]["gold"] == 1


# --- C-26 Architect ------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_C26_architect_draws_two_extra_cards(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["architect"]},
        deck_top=["manor", "castle", "palace", "temple"],
    )
    play(game, GatherCards(), KeepCards(("castle",)))
    # The two next cards come without choice; the other drawn card went to the bottom.
    assert sorted(player(game, 0).hand) == ["castle", "palace", "temple"]
    assert deck_bottom(game, 1) == ["manor"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_C26_architect_builds_up_to_three(edition: str) -> None:
    game = position(
        edition,
        4,
        characters={0: ["architect"]},
        hands={0: ["temple", "tavern", "watchtower", "church"]},
        gold={0: 10},
    )
    play(game, GatherGold(), Build("temple"), Build("tavern"), Build("watchtower"))
    assert not any(isinstance(a, Build) for a in legal(game))
    assert player(game, 0).city == ["temple", "tavern", "watchtower"]
    assert player(game, 0).gold == 9


# --- C-27 Warlord --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_C27_warlord_pays_cost_minus_one(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["warlord"]}, cities={1: ["palace", "temple"]}, gold={0: 2}
    )
    play(game, GatherGold())
    assert Destroy(1, "palace") in legal(game)
    play(game, Destroy(1, "palace"))
    assert player(game, 0).gold == 0
    assert player(game, 1).city == ["temple"]
    assert events(game, "destroy", 3)[0]["paid"] == 4


@pytest.mark.parametrize("edition", EDITIONS)
def test_C27_cost_one_district_is_free(edition: str) -> None:
    game = position(edition, 4, characters={0: ["warlord"]}, cities={1: ["temple"]})
    play(game, GatherGold(), Destroy(1, "temple"))
    assert player(game, 0).gold == 2
    assert player(game, 1).city == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_C27_warlord_may_destroy_in_his_own_city(edition: str) -> None:
    game = position(edition, 4, characters={0: ["warlord"]}, cities={0: ["market", "manor"]})
    play(game, GatherGold())
    assert Destroy(0, "market") in legal(game)
    play(game, Destroy(0, "market"))
    assert player(game, 0).city == ["manor"]
    assert player(game, 0).gold == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_C27_completed_city_cannot_be_attacked(edition: str) -> None:
    full = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern", "market"]
    game = position(
        edition,
        4,
        characters={0: ["warlord"]},
        cities={1: full, 2: full[:6]},
        gold={0: 10},
        complete_at=8,
    )
    play(game, GatherGold())
    targets = {a.seat for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {2}


def test_C27_destroy_needs_enough_gold() -> None:
    game = position("classic", 4, characters={0: ["warlord"]}, cities={1: ["palace", "manor"]})
    play(game, GatherGold())
    targets = {a.district for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {"manor"}


@pytest.mark.parametrize("edition", ["dezh", "classic"])
def test_C27_warlord_never_destroys_a_keep(edition: str) -> None:
    game = position(
        edition, 4, characters={0: ["warlord"]}, cities={1: ["keep", "manor"]}, gold={0: 9}
    )
    play(game, GatherGold())
    targets = {a.district for a in legal(game) if isinstance(a, Destroy)}
    assert targets == {"manor"}


def test_C27_warlord_destroys_only_once_per_turn() -> None:
    game = position(
        "dezh", 4, characters={0: ["warlord"]}, cities={1: ["temple", "tavern"]}, gold={0: 9}
    )
    play(game, Destroy(1, "temple"))
    assert not any(isinstance(a, Destroy) for a in legal(game))
    assert legal_types(game) >= {"gather_gold", "gather_cards"}


def test_C27_warlord_income_for_red_districts() -> None:
    game = position(
        "classic", 4, characters={0: ["warlord"]}, cities={0: ["prison", "fortress", "manor"]}
    )
    play(game, TakeIncome())
    assert player(game, 0).gold == 2


def test_C10_only_the_seat_to_move_sees_legal_actions() -> None:
    game = position("classic", 4, characters={0: ["magician"]}, hands={0: ["manor"]})
    assert [a["type"] for a in game.view(0)["legal_actions"]][:1] == ["gather_gold"]
    for viewer in (1, 2, 3, None):
        assert "legal_actions" not in game.view(viewer)


def test_C10_nobody_knows_the_removed_facedown_card() -> None:
    """C-3's face-down card stays unseen; the card left after the last pick (C-4) is known
    only to the last chooser, who saw it."""
    game = citadels.new_game("dezh", 5, seed=14)
    last = (game.state.crown + 4) % 5
    pick_first(game)
    removed, left = game.state.facedown
    for viewer in (*range(5), None):
        view = game.view(viewer)
        assert removed not in view["known_facedown"]
        assert view["known_facedown"] == ([left] if viewer == last else [])
        assert view["facedown_count"] == len(game.state.facedown) == 2
        assert "facedown" not in view


def test_C10_put_aside_card_known_to_its_owner_only() -> None:
    game = position("classic", 2, crown=0, seed=3)
    play(game, legal(game)[0])
    play(game, legal(game)[0])
    aside = legal(game)[0]
    play(game, aside)
    assert game.view(1)["known_facedown"] == [aside.character]  # type: ignore[attr-defined]
    assert game.view(0)["known_facedown"] == []
    assert game.view(None)["known_facedown"] == []


def test_C10_murdered_holder_hidden_until_round_end() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 2: ["bishop"], 3: ["warlord"]})
    play(game, Murder("bishop"), GatherGold(), EndTurn())
    assert turn(game) == (3, "warlord")
    for viewer in (0, 1, 3, None):
        assert game.view(viewer)["players"][2]["characters"] == []
    assert game.view(2)["players"][2]["characters"] == ["bishop"]
    assert all(e["seat"] is None for e in events(game, "call"))


def test_C10_secret_parts_reach_only_their_viewers() -> None:
    game = citadels.new_game("classic", 4, seed=31)
    rounds = 0
    while not game.is_over and rounds < 3:
        acts = legal(game)
        builds = [a for a in acts if isinstance(a, Build)]
        gathers = [a for a in acts if isinstance(a, GatherCards)]
        play(game, builds[0] if builds else gathers[0] if gathers else acts[-1])
        rounds = game.state.round - 1
    secret_events = [ev for ev in game.state.log if ev.secret]
    assert {ev.kind for ev in secret_events} >= {"deal", "pick", "gather_cards", "keep"}
    for viewer in (*range(4), None):
        rendered = game.view(viewer)["log"]
        assert len(rendered) == len(game.state.log)
        for ev, shown in zip(game.state.log, rendered, strict=True):
            if not ev.secret:
                continue
            for key, value in ev.secret.items():
                if viewer in ev.viewers:
                    assert shown[key] == value
                else:
                    assert key not in shown


def test_C12_two_player_seat_still_plays_its_other_character() -> None:
    game = position(
        "dezh",
        2,
        characters={0: ["assassin", "bishop"], 1: ["king", "warlord"]},
        gold={1: 1},
    )
    play(game, Murder("king"), GatherGold(), EndTurn())
    assert turn(game) == (0, "bishop")
    end_turn_with_gold(game)
    assert turn(game) == (1, "warlord")
    assert player(game, 1).gold == 1
    end_turn_with_gold(game)
    assert game.state.crown == 1
    assert [e["seat"] for e in events(game, "murdered_revealed")] == [1]


def _builder_policy(game: citadels.Game) -> None:
    """Build when possible; gather cards when the hand has nothing new, else gold; end."""
    acts = legal(game)
    t = game.state.turn
    builds = [a for a in acts if isinstance(a, Build)]
    if builds:
        play(game, builds[-1])
    elif t is not None and not t.gathered and GatherGold() in acts:
        me = player(game, t.seat)
        draws = [a for a in acts if isinstance(a, GatherCards)]
        fresh = [d for d in me.hand if d not in me.city]
        play(game, draws[0] if draws and not fresh else GatherGold())
    elif EndTurn() in acts:
        play(game, EndTurn())
    else:
        play(game, acts[0])


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_C14_seeded_games_end_after_a_completed_city(edition: str, players: int) -> None:
    game = citadels.new_game(edition, players, seed=players * 7)
    while not game.is_over:
        _builder_policy(game)
        assert game.state.round < 80
    s = game.state
    first = s.first_complete
    assert first is not None
    assert len(s.players[first].city) >= s.complete_at
    kinds = [e["kind"] for e in events_all(game)]
    assert kinds[-2:] == ["round_end", "game_over"]
    completed = [e["seat"] for e in events(game, "city_complete")]
    assert completed[0] == first
    result = game.result()
    assert result[first].breakdown.first_complete == 4
    for r in result:
        assert r.score == r.breakdown.total
        others_complete = r.seat != first and len(s.players[r.seat].city) >= s.complete_at
        assert r.breakdown.complete == (2 if others_complete else 0)


def test_C5_other_seats_cannot_tell_which_card_the_last_chooser_kept() -> None:
    """C-5: the last chooser puts one of his two cards face down unseen; the log shows the
    same events to everyone else whether he kept his card or took the face-down one."""
    game = citadels.new_game("classic", 7, seed=21)
    while len(game.state.steps) > 1:
        play(game, legal(game)[0])
    chooser = game.to_move
    assert chooser is not None
    kept, took = game.copy(), game.copy()
    pool_card = game.state.pool[0]
    facedown_card = game.state.facedown[0]
    play(kept, PickCharacter(pool_card))
    play(took, PickCharacter(facedown_card))
    assert kept.state.facedown[0] == facedown_card and took.state.facedown[0] == pool_card

    def selection_log(g: citadels.Game, viewer: int) -> list[dict[str, object]]:
        out = []
        for e in g.view(viewer)["log"]:
            if e["kind"] in ("call", "reveal"):
                break
            out.append(e)
        return out

    for viewer in range(7):
        if viewer != chooser:
            assert selection_log(kept, viewer) == selection_log(took, viewer)
    assert selection_log(kept, chooser) != selection_log(took, chooser)
    for g, aside in ((kept, facedown_card), (took, pool_card)):
        assert g.view(chooser)["known_facedown"] == [aside]
