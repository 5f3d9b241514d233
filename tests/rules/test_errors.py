"""Refused actions: each names its rule and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import citadels
from citadels import (
    Action,
    Build,
    Destroy,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    ExchangeHands,
    GameOver,
    GatherCards,
    GatherGold,
    IllegalAction,
    KeepCards,
    MalformedAction,
    Murder,
    NotYourTurn,
    PickCharacter,
    PutAsideCharacter,
    Rob,
    TakeIncome,
    UseGraveyard,
    UseLaboratory,
    UseSmithy,
    action_from_json,
)
from tests.helpers import end_turn_with_gold, finish_round, legal, play, position, snapshot


def refused(game: citadels.Game, action: Action, rule: str | None) -> IllegalAction:
    """Apply ``action``, expect ``IllegalAction`` naming ``rule``, and an unchanged game."""
    before = snapshot(game)
    legal_before = legal(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action, seat=game.to_move)
    assert err.value.rule == rule, str(err.value)
    if rule is not None:
        assert rule in str(err.value)
    assert snapshot(game) == before
    assert legal(game) == legal_before
    assert err.value.code == "illegal_action"
    return err.value


# --- a catalogue of positions and the action each refuses ----------------------------------


def _classic_thief(**kw: Any) -> citadels.Game:
    return position("classic", 4, characters={0: ["thief"], 1: ["king"]}, **kw)


def _after_gold(game: citadels.Game) -> citadels.Game:
    return play(game, GatherGold())


CASES: list[tuple[str, Callable[[], citadels.Game], Action | Callable[..., Action], str]] = [
    (
        "build_before_gathering",
        lambda: _classic_thief(hands={0: ["temple"]}, gold={0: 3}),
        Build("temple"),
        "C-8",
    ),
    (
        "build_duplicate",
        lambda: _after_gold(_classic_thief(hands={0: ["temple"]}, cities={0: ["temple"]})),
        Build("temple"),
        "C-8",
    ),
    (
        "build_unaffordable",
        lambda: _after_gold(_classic_thief(hands={0: ["palace"]})),
        Build("palace"),
        "C-8",
    ),
    (
        "build_not_in_hand",
        lambda: _after_gold(_classic_thief(hands={0: ["temple"]})),
        Build("manor"),
        "C-8",
    ),
    (
        "build_over_the_limit",
        lambda: play(
            _classic_thief(hands={0: ["temple", "tavern"]}, gold={0: 5}),
            GatherGold(),
            Build("temple"),
        ),
        Build("tavern"),
        "C-8",
    ),
    ("end_before_gathering", lambda: _classic_thief(), EndTurn(), "C-7"),
    ("gather_twice", lambda: _after_gold(_classic_thief()), GatherGold(), "C-7"),
    ("draw_after_gold", lambda: _after_gold(_classic_thief()), GatherCards(), "C-7"),
    (
        "draw_from_empty_deck",
        lambda: _classic_thief(deck=[]),
        GatherCards(),
        "C-7",
    ),
    ("draw_three_without_observatory", lambda: _classic_thief(), GatherCards(3), "R-10"),
    ("income_without_colour", lambda: _classic_thief(), TakeIncome(), "C-9"),
    (
        "income_without_districts",
        lambda: position("classic", 4, characters={0: ["king"]}),
        TakeIncome(),
        "C-9",
    ),
    (
        "income_twice",
        lambda: play(
            position("classic", 4, characters={0: ["king"]}, cities={0: ["manor"]}),
            TakeIncome(),
        ),
        TakeIncome(),
        "C-9",
    ),
    ("murder_by_the_thief", lambda: _classic_thief(), Murder("king"), "C-20"),
    (
        "murder_rank_one",
        lambda: position("classic", 4, characters={0: ["assassin"]}),
        Murder("assassin"),
        "C-20",
    ),
    (
        "murder_face_up",
        lambda: position("classic", 4, characters={0: ["assassin"]}, faceup=["king", "bishop"]),
        Murder("king"),
        "C-20",
    ),
    (
        "murder_twice",
        lambda: play(position("classic", 4, characters={0: ["assassin"]}), Murder("king")),
        Murder("bishop"),
        "C-9",
    ),
    ("rob_rank_one", lambda: _classic_thief(), Rob("assassin"), "C-21"),
    ("rob_himself", lambda: _classic_thief(), Rob("thief"), "C-21"),
    (
        "rob_rank_two_in_basic",
        lambda: position("basic", 4, characters={0: ["thief"]}),
        Rob("thief"),
        "C-21",
    ),
    (
        "rob_the_murdered",
        lambda: play(
            position("classic", 4, characters={0: ["assassin"], 1: ["thief"]}),
            Murder("king"),
            GatherGold(),
            EndTurn(),
        ),
        Rob("king"),
        "C-21",
    ),
    ("exchange_by_the_thief", lambda: _classic_thief(), ExchangeHands(1), "C-22"),
    (
        "exchange_with_himself",
        lambda: position("classic", 4, characters={0: ["magician"]}),
        ExchangeHands(0),
        "C-22",
    ),
    (
        "discard_a_card_not_held",
        lambda: position("classic", 4, characters={0: ["magician"]}, hands={0: ["manor"]}),
        DiscardCard("palace"),
        "C-22",
    ),
    (
        "discard_not_held_while_redrawing",
        lambda: play(
            position("classic", 4, characters={0: ["magician"]}, hands={0: ["manor"]}),
            DiscardCard("manor"),
        ),
        DiscardCard("manor"),
        "C-22",
    ),
    (
        "gold_while_redrawing",
        lambda: play(
            position("classic", 4, characters={0: ["magician"]}, hands={0: ["manor"]}),
            DiscardCard("manor"),
        ),
        GatherGold(),
        "C-22",
    ),
    (
        "keep_a_card_not_drawn",
        lambda: play(
            position("classic", 4, characters={0: ["thief"]}, deck_top=["manor", "castle"]),
            GatherCards(),
        ),
        KeepCards(("palace",)),
        "C-7",
    ),
    (
        "keep_both_without_library",
        lambda: play(
            position("classic", 4, characters={0: ["thief"]}, deck_top=["manor", "castle"]),
            GatherCards(),
        ),
        KeepCards(("castle", "manor")),
        "C-7",
    ),
    (
        "build_while_keeping",
        lambda: play(
            position(
                "dezh",
                4,
                characters={0: ["thief"]},
                hands={0: ["temple"]},
                deck_top=["manor", "castle"],
            ),
            GatherCards(),
        ),
        Build("temple"),
        "C-7",
    ),
    (
        "keep_without_a_draw",
        lambda: _classic_thief(),
        KeepCards(("manor",)),
        "C-7",
    ),
    (
        "replacements_without_discards",
        lambda: position("classic", 4, characters={0: ["magician"]}),
        DrawReplacements(),
        "C-7",
    ),
    (
        "graveyard_without_a_destruction",
        lambda: _classic_thief(),
        UseGraveyard(True),
        "C-7",
    ),
    (
        "destroy_by_the_thief",
        lambda: _after_gold(_classic_thief(cities={1: ["manor"]})),
        Destroy(1, "manor"),
        "C-27",
    ),
    (
        "basic_destroy_before_gathering",
        lambda: position("basic", 4, characters={0: ["warlord"]}, cities={1: ["temple"]}),
        Destroy(1, "temple"),
        "B-2",
    ),
    (
        "classic_destroy_before_gathering",
        lambda: position("classic", 4, characters={0: ["warlord"]}, cities={1: ["temple"]}),
        Destroy(1, "temple"),
        "K-4",
    ),
    (
        "destroy_a_keep",
        lambda: position("dezh", 4, characters={0: ["warlord"]}, cities={1: ["keep"]}),
        Destroy(1, "keep"),
        "C-27",
    ),
    (
        "destroy_in_a_completed_city",
        lambda: position(
            "dezh",
            4,
            characters={0: ["warlord"]},
            cities={1: ["manor", "castle", "palace", "temple", "church", "tavern", "market"]},
            first_complete=1,
        ),
        Destroy(1, "temple"),
        "C-27",
    ),
    (
        "destroy_a_missing_district",
        lambda: position("dezh", 4, characters={0: ["warlord"]}, cities={1: ["temple"]}),
        Destroy(1, "manor"),
        "C-27",
    ),
    (
        "destroy_in_a_missing_seat",
        lambda: position("dezh", 4, characters={0: ["warlord"]}),
        Destroy(7, "manor"),
        "C-27",
    ),
    (
        "destroy_the_bishops_district",
        lambda: play(
            position("dezh", 4, characters={0: ["bishop"], 1: ["warlord"]}, cities={0: ["temple"]}),
            GatherGold(),
            EndTurn(),
        ),
        Destroy(0, "temple"),
        "C-24",
    ),
    (
        "destroy_too_expensive",
        lambda: position("dezh", 4, characters={0: ["warlord"]}, cities={1: ["palace"]}),
        Destroy(1, "palace"),
        "R-5",
    ),
    (
        "destroy_twice",
        lambda: play(
            position(
                "dezh",
                4,
                characters={0: ["warlord"]},
                cities={1: ["temple", "tavern"]},
            ),
            Destroy(1, "temple"),
        ),
        Destroy(1, "tavern"),
        "C-9",
    ),
    (
        "laboratory_without_one",
        lambda: _classic_thief(hands={0: ["manor"]}),
        UseLaboratory("manor"),
        "R-11",
    ),
    (
        "laboratory_twice",
        lambda: play(
            _classic_thief(hands={0: ["manor", "castle"]}, cities={0: ["laboratory"]}),
            UseLaboratory("manor"),
        ),
        UseLaboratory("castle"),
        "R-11",
    ),
    (
        "laboratory_card_not_held",
        lambda: _classic_thief(cities={0: ["laboratory"]}, hands={0: ["manor"]}),
        UseLaboratory("palace"),
        "R-11",
    ),
    ("smithy_without_one", lambda: _classic_thief(gold={0: 5}), UseSmithy(), "R-11"),
    (
        "smithy_twice",
        lambda: play(_classic_thief(gold={0: 5}, cities={0: ["smithy"]}), UseSmithy()),
        UseSmithy(),
        "R-11",
    ),
    (
        "smithy_without_gold",
        lambda: _classic_thief(gold={0: 1}, cities={0: ["smithy"]}),
        UseSmithy(),
        "R-11",
    ),
    ("pick_during_the_turns", lambda: _classic_thief(), PickCharacter("king"), "C-4"),
    (
        "gold_during_selection",
        lambda: citadels.new_game("classic", 4, seed=1),
        GatherGold(),
        "C-4",
    ),
    (
        "put_aside_when_picking",
        lambda: citadels.new_game("dezh", 2, seed=1),
        PutAsideCharacter("king"),
        "C-4",
    ),
    (
        "pick_when_putting_aside",
        lambda: _to_put_aside(),
        PickCharacter("king"),
        "D-3",
    ),
    (
        "pick_a_removed_character",
        lambda: position("classic", 4, crown=0, seed=1),
        lambda game: PickCharacter(game.state.facedown[0]),
        "C-4",
    ),
    (
        "pick_a_face_up_character",
        lambda: position("classic", 4, crown=0, seed=1),
        lambda game: PickCharacter(game.state.faceup[0]),
        "C-4",
    ),
]


def _to_put_aside() -> citadels.Game:
    game = position("classic", 2, crown=0, seed=1)
    play(game, legal(game)[0])
    play(game, legal(game)[0])
    assert isinstance(legal(game)[0], PutAsideCharacter)
    return game


@pytest.mark.parametrize(("name", "make", "action", "rule"), CASES, ids=[c[0] for c in CASES])
def test_illegal_action_names_its_rule(
    name: str,
    make: Callable[[], citadels.Game],
    action: Action | Callable[..., Action],
    rule: str,
) -> None:
    game = make()
    if not isinstance(action, Action):
        action = action(game)
    refused(game, action, rule)


def test_C14_actions_after_the_game_are_refused() -> None:
    game = position(
        "classic",
        4,
        characters={0: ["king"]},
        cities={0: ["manor", "castle", "palace", "temple", "church", "tavern", "market", "docks"]},
        first_complete=0,
    )
    finish_round(game)
    assert game.is_over
    before = snapshot(game)
    for action in (GatherGold(), EndTurn(), PickCharacter("king")):
        with pytest.raises(GameOver) as err:
            game.apply(action)
        assert err.value.rule == "C-14"
        assert err.value.code == "game_over"
        with pytest.raises(GameOver):
            game.apply(action, seat=1)
    assert snapshot(game) == before


# --- not your turn -------------------------------------------------------------------------


def test_not_your_turn_for_a_legal_action() -> None:
    game = _classic_thief()
    before = snapshot(game)
    with pytest.raises(NotYourTurn) as err:
        game.apply(GatherGold(), seat=1)
    assert err.value.code == "not_your_turn"
    assert isinstance(err.value, IllegalAction)
    assert snapshot(game) == before
    play(game, GatherGold())


def test_not_your_turn_for_an_illegal_action() -> None:
    game = _classic_thief()
    before = snapshot(game)
    with pytest.raises(NotYourTurn):
        game.apply(Murder("king"), seat=2)
    assert snapshot(game) == before


def test_C4_not_your_turn_during_selection() -> None:
    game = citadels.new_game("basic", 4, seed=2)
    wrong = (game.state.crown + 1) % 4
    with pytest.raises(NotYourTurn):
        game.apply(legal(game)[0], seat=wrong)
    with pytest.raises(NotYourTurn):
        game.apply_json(legal(game)[0].to_json(), seat=wrong)
    assert game.state.holders == {}


def test_R7_graveyard_answer_belongs_to_its_owner() -> None:
    game = position(
        "dezh",
        4,
        characters={0: ["warlord"]},
        cities={2: ["graveyard"], 1: ["manor"]},
        gold={0: 5, 2: 2},
    )
    play(game, Destroy(1, "manor"))
    assert game.to_move == 2
    before = snapshot(game)
    with pytest.raises(NotYourTurn):
        game.apply(UseGraveyard(True), seat=0)
    assert snapshot(game) == before
    refused(game, EndTurn(), "R-7")
    game.apply(UseGraveyard(True), seat=2)
    assert game.state.players[2].hand == ["manor"]


def test_C7_keep_decision_refuses_other_actions() -> None:
    game = position("classic", 4, characters={0: ["thief"]}, deck_top=["manor", "castle"])
    play(game, GatherCards())
    refused(game, EndTurn(), "C-7")
    refused(game, Rob("king"), "C-7")


# --- malformed actions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "obj",
    [
        None,
        "build",
        ["build", "manor"],
        {},
        {"type": "fly"},
        {"type": 3},
        {"type": "build"},
        {"type": "build", "district": 3},
        {"type": "build", "district": "manor", "cost": 3},
        {"type": "destroy", "seat": "1", "district": "manor"},
        {"type": "destroy", "seat": True, "district": "manor"},
        {"type": "destroy", "seat": 1.0, "district": "manor"},
        {"type": "keep", "districts": "manor"},
        {"type": "keep", "districts": ["manor", 2]},
        {"type": "graveyard", "take": 1},
        {"type": "gather_cards", "count": "2"},
    ],
)
def test_malformed_json_is_refused(obj: Any) -> None:
    with pytest.raises(MalformedAction) as err:
        action_from_json(obj)
    assert err.value.code == "malformed_action"
    assert isinstance(err.value, ValueError)
    game = citadels.new_game("classic", 4, seed=0)
    before = snapshot(game)
    with pytest.raises(MalformedAction):
        game.apply_json(obj, seat=game.to_move)
    assert snapshot(game) == before


def test_well_formed_json_round_trips() -> None:
    for action in (
        Build("manor"),
        Destroy(2, "keep"),
        KeepCards(("manor", "castle")),
        GatherCards(3),
        UseGraveyard(False),
        PickCharacter("king"),
    ):
        assert action_from_json(action.to_json()) == action
    assert action_from_json({"type": "gather_cards"}) == GatherCards(2)


def test_apply_refuses_a_non_action() -> None:
    game = citadels.new_game("dezh", 3, seed=0)
    before = snapshot(game)
    with pytest.raises(MalformedAction):
        game.apply({"type": "gather_gold"})  # type: ignore[arg-type]
    assert snapshot(game) == before


# --- new_game arguments --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (("no_such_edition", 4), {}, "edition"),
        (("basic", 1), {}, "players"),
        (("basic", 8), {}, "players"),
        (("dezh", 8), {}, "players"),
        (("classic", 1), {}, "players"),
        (("classic", "4"), {}, "players"),
        (("classic", 4.0), {}, "players"),
        (("classic", True), {}, "players"),
        (("basic", 4), {"complete_at": 7}, "option"),
        (("dezh", 4), {"complete_at": 7}, "option"),
        (("classic", 4), {"colour": "red"}, "option"),
        (("classic", 4), {"complete_at": 5}, "K-6"),
        (("classic", 4), {"seed": "x"}, "seed"),
        (("classic", 4), {"seed": 1.5}, "seed"),
    ],
)
def test_new_game_refuses_bad_arguments(
    args: tuple[Any, ...], kwargs: dict[str, Any], match: str
) -> None:
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(ValueError, match=match):
        citadels.new_game(*args, **kwargs)


def test_new_game_accepts_every_edition_and_count() -> None:
    for edition in ("basic", "dezh", "classic"):
        for players in range(2, 8):
            game = citadels.new_game(edition, players, seed=players)
            assert game.num_players == players
            assert game.edition.id == edition


def test_C12_turn_of_a_murdered_seat_never_comes() -> None:
    game = position("classic", 4, characters={0: ["assassin"], 1: ["king"], 2: ["bishop"]})
    play(game, Murder("king"), GatherGold(), EndTurn())
    assert game.to_move == 2
    with pytest.raises(NotYourTurn):
        game.apply(GatherGold(), seat=1)
    end_turn_with_gold(game)
