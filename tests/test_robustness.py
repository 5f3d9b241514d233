"""Bad input gets the project's own error with a clear message and changes nothing.

Mistyped actions, handed-out data that must not alias the game, malformed arguments, and
(with hypothesis) random malformed actions and random mutations of saves.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citadels
from citadels import (
    ACTION_TYPES,
    Action,
    Build,
    CitadelsError,
    CorruptState,
    Destroy,
    ExchangeHands,
    GatherCards,
    InvalidArgument,
    InvalidSetup,
    KeepCards,
    MalformedAction,
    PickCharacter,
    TakeIncome,
    UseGraveyard,
    action_from_json,
)


def played(
    edition: str = "classic", players: int = 4, seed: int = 3, steps: int = 60
) -> citadels.Game:
    """A game after ``steps`` random legal actions."""
    game = citadels.new_game(edition, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def frozen(game: citadels.Game) -> str:
    """Everything about a game, as text: its save (state and record)."""
    return json.dumps(game.to_json(), sort_keys=True)


# --- 1. actions are strictly typed ---------------------------------------------------------

MISTYPED: list[Callable[[], Action]] = [
    lambda: GatherCards(2.0),  # type: ignore[arg-type]
    lambda: GatherCards(True),
    lambda: TakeIncome(cards=0.0),  # type: ignore[arg-type]
    lambda: TakeIncome(cards=False),
    lambda: ExchangeHands(True),
    lambda: ExchangeHands(1.0),  # type: ignore[arg-type]
    lambda: Destroy(0.0, "manor"),  # type: ignore[arg-type]
    lambda: Destroy(10**5000, "manor"),
    lambda: PickCharacter(None),  # type: ignore[arg-type]
    lambda: Build(["x"]),  # type: ignore[arg-type]
    lambda: KeepCards(["manor"]),  # type: ignore[arg-type]
    lambda: KeepCards(("manor", 2)),  # type: ignore[arg-type]
    lambda: UseGraveyard(1),  # type: ignore[arg-type]
    lambda: Action(),
]


@pytest.mark.parametrize("build", MISTYPED)
def test_a_mistyped_action_cannot_be_built(build: Callable[[], Action]) -> None:
    with pytest.raises(MalformedAction) as err:
        build()
    assert err.value.code == "malformed_action"
    message = str(err.value)
    assert "must be" in message or "base class" in message
    assert len(message) < 300


def test_a_well_typed_action_still_equals_the_shared_legal_one() -> None:
    game = citadels.new_game("classic", 4, seed=1)
    for action in game.legal_actions():
        rebuilt = type(action)(*[getattr(action, f.name) for f in dataclasses.fields(action)])
        assert rebuilt == action and game.is_legal(rebuilt)


def test_is_legal_and_apply_refuse_what_is_not_an_action() -> None:
    game = citadels.new_game("classic", 4, seed=1)
    before = frozen(game)
    for bad in ("pick king", None, {"type": "gather_gold"}, [[[]]]):
        with pytest.raises(MalformedAction):
            game.is_legal(bad)  # type: ignore[arg-type]
        with pytest.raises(MalformedAction):
            game.apply(bad)  # type: ignore[arg-type]
    assert frozen(game) == before


@pytest.mark.parametrize("seat", ["0", 0.0, True, [0], 10**5000], ids=range(5))
def test_apply_refuses_a_seat_that_is_not_a_seat_number(seat: Any) -> None:
    game = citadels.new_game("classic", 4, seed=1)
    before = frozen(game)
    action = game.legal_actions()[0]
    with pytest.raises(CitadelsError) as err:
        game.apply(action, seat=seat)
    if type(seat) is not int:
        assert isinstance(err.value, MalformedAction)
        assert "seat must be an integer" in str(err.value)
    assert frozen(game) == before


# --- 2. nothing handed out aliases the game ------------------------------------------------


def test_a_view_shares_no_list_with_the_game() -> None:
    game = played()
    before = frozen(game)
    record = json.dumps(game.record())
    seat = game.to_move
    for viewer in (None, seat):
        view = game.view(viewer)
        for event in view["log"]:
            for value in event.values():
                if isinstance(value, list):
                    value.append("palace")
        for player in view["players"]:
            player["city"].append("palace")
            player["characters"].append("king")
        view["revealed"]["king"] = 0
        view["extra_first"].append(1)
    assert frozen(game) == before
    assert json.dumps(game.record()) == record
    assert game.view(seat) == game.copy().view(seat)


def test_a_save_shares_nothing_with_the_game() -> None:
    game = played("classic", 5, steps=80)
    before = frozen(game)
    saved = game.to_json()
    for event in saved["state"]["log"]:
        for part in (event[2], event[3] or {}):
            for value in part.values():
                if isinstance(value, list):
                    value.append("palace")
            part["extra"] = 1
    saved["state"]["options"]["complete_at"] = 7
    saved["record"]["options"]["complete_at"] = 7
    assert frozen(game) == before


def test_record_options_are_a_copy_also_for_copies() -> None:
    chosen = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    game = citadels.new_game("classic", 4, seed=2, characters=chosen, districts=["keep", "museum"])
    twin = game.copy()
    before = frozen(game)
    record = game.record()
    record["options"]["characters"].append("queen")
    record["options"]["districts"].clear()
    record["options"]["complete_at"] = 7
    assert frozen(game) == before
    assert game.record() == twin.record()
    assert twin.record()["options"]["characters"] == chosen


def test_new_game_copies_the_lists_it_is_given() -> None:
    chosen = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    purple = ["keep", "museum"]
    game = citadels.new_game("classic", 4, seed=2, characters=chosen, districts=purple)
    before = frozen(game)
    chosen[3] = "emperor"
    purple.append("lighthouse")
    assert frozen(game) == before
    assert citadels.replay(game.record()).view(None) == game.view(None)


def test_a_loaded_game_keeps_no_list_of_what_it_was_loaded_from() -> None:
    game = played("classic", 4, steps=50)
    saved = json.loads(json.dumps(game.to_json()))
    loaded = citadels.game_from_json(saved)
    before = frozen(loaded)
    for event in saved["state"]["log"]:
        for part in (event[2], event[3] or {}):
            for value in part.values():
                if isinstance(value, list):
                    value.append("palace")
    saved["state"]["options"]["complete_at"] = 7
    saved["record"]["options"]["complete_at"] = 7
    for player in saved["state"]["players"]:
        player["hand"].append("palace")
    saved["record"]["actions"].clear()
    assert frozen(loaded) == before


# --- 4. malformed arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"districts": [["keep"]]}, "districts"),
        ({"characters": [["king"]]}, "characters"),
        ({"preset": ["base"]}, "preset"),
        ({"players": "4"}, "players"),
        ({"seed": True}, "seed"),
        ({"seed": 10**5000}, "seed"),
        ({"complete_at": 10**5000}, "complete_at"),
        ({"edition": [[["classic"]]]}, "edition"),
        ({"edition": 10**5000}, "edition"),
    ],
    ids=range(9),
)
def test_new_game_refuses_malformed_arguments_with_its_own_error(
    kwargs: dict[str, Any], match: str
) -> None:
    args = {"edition": "classic", "players": 4, "seed": 0, **kwargs}
    with pytest.raises(InvalidSetup, match=match) as err:
        citadels.new_game(**args)
    assert isinstance(err.value, ValueError)
    assert err.value.code == "invalid_setup"
    assert len(str(err.value)) < 300


@pytest.mark.parametrize(
    ("kwargs"),
    [
        {"seat": "0"},
        {"seat": True},
        {"seat": 9},
        {"log_from": "a"},
        {"log_from": -1},
        {"log_from": 1.0},
        {"log_from": None},
    ],
    ids=range(7),
)
def test_view_refuses_malformed_arguments(kwargs: dict[str, Any]) -> None:
    game = played(steps=10)
    with pytest.raises(InvalidArgument) as err:
        game.view(**kwargs)
    assert isinstance(err.value, ValueError) and err.value.code == "invalid_argument"
    assert len(str(err.value)) < 300


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


GARBAGE: list[Any] = [
    None,
    3,
    "build manor",
    _nested(100_000),
    {"type": _nested(100_000)},
    {"type": "build", "district": _nested(100_000)},
    {"type": "destroy", "seat": 10**5000, "district": "manor"},
    {"type": "build", "district": "manor", 1: 2},
    {"type": "build", "district": "manor", ("a",): 2},
    {"type": "build", "district": "x" * 100_000},
    {"type": "pick", "character": None},
    {"type": "keep", "districts": [["manor"]]},
    {"type": "take_income", "cards": 0.0},
    {"type": "exchange_hands", "seat": True},
    {(1, 2): "build"},
]


@pytest.mark.parametrize("obj", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_json_gets_a_clean_error_and_changes_nothing(obj: Any) -> None:
    game = played(steps=10)
    before = frozen(game)
    try:
        action = action_from_json(obj)
    except MalformedAction as exc:
        assert len(str(exc)) < 800
    else:
        with pytest.raises(CitadelsError):
            game.apply(action, seat=game.to_move)
    with pytest.raises(CitadelsError) as err:
        game.apply_json(obj, seat=game.to_move)
    assert len(str(err.value)) < 800
    assert frozen(game) == before


# --- 3. the save loader refuses anything inconsistent, naming the path --------------------


def _save(game: citadels.Game) -> dict[str, Any]:
    return json.loads(json.dumps(game.to_json()))


def _in_turns(edition: str = "classic", players: int = 4, seed: int = 5) -> citadels.Game:
    game = citadels.new_game(edition, players, seed=seed)
    rng = random.Random(seed)
    while game.state.turn is None:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _refused(save: dict[str, Any], path: str) -> CorruptState:
    with pytest.raises(CorruptState) as err:
        citadels.game_from_json(save)
    assert err.value.code == "corrupt_state"
    assert path in str(err.value), str(err.value)
    assert len(str(err.value)) < 300
    return err.value


def _index(save: dict[str, Any], kind: str) -> int:
    return next(i for i, ev in enumerate(save["state"]["log"]) if ev[0] == kind)


def test_a_log_event_missing_a_key_is_refused_by_path() -> None:
    save = _save(played(steps=40))
    i = _index(save, "deal")
    del save["state"]["log"][i][3]["districts"]
    _refused(save, f"state.log[{i}].secret.districts is missing")


@pytest.mark.parametrize(
    ("part", "key", "value"),
    [
        (2, "count", "4"),
        (2, "count", 4.0),
        (2, "gold", True),
        (3, "districts", "manor"),
        (3, "districts", [["manor"]]),
        (3, "districts", ["no_such_card"]),
    ],
    ids=range(6),
)
def test_a_log_event_of_the_wrong_type_is_refused_by_path(part: int, key: str, value: Any) -> None:
    save = _save(played(steps=40))
    i = _index(save, "deal")
    save["state"]["log"][i][part][key] = value
    where = "data" if part == 2 else "secret"
    _refused(save, f"state.log[{i}].{where}.{key}")


def test_log_events_of_unknown_kind_or_shape_are_refused() -> None:
    for mutate, path in (
        (lambda ev: ev.__setitem__(0, "teleport"), ".kind"),
        (lambda ev: ev.__setitem__(1, "0"), ".seat"),
        (lambda ev: ev.__setitem__(4, [9]), ".viewers[0]"),
        (lambda ev: ev.__setitem__(3, None), ".secret"),
        (lambda ev: ev[2].__setitem__("extra", 1), ".data.'extra'"),
        (lambda ev: ev.pop(), ""),
    ):
        save = _save(played(steps=40))
        i = _index(save, "deal")
        mutate(save["state"]["log"][i])
        _refused(save, f"state.log[{i}]{path}")


def test_record_actions_that_are_not_a_list_are_refused() -> None:
    save = _save(played(steps=5))
    save["record"]["actions"] = 5
    _refused(save, "record.actions must be a list")
    record = played(steps=5).record()
    record["actions"] = 5
    with pytest.raises(CorruptState, match=r"record\.actions"):
        citadels.replay(record)


def test_a_list_inside_options_characters_is_refused() -> None:
    save = _save(played(steps=5))
    save["record"]["options"]["characters"] = [["king"]]
    _refused(save, "record.options.characters[0]")
    record = played(steps=5).record()
    record["options"]["characters"] = [["king"]]
    with pytest.raises(CorruptState, match=r"record\.options\.characters\[0\]"):
        citadels.replay(record)


@pytest.mark.parametrize(
    "where",
    [
        ("record", "options", "preset"),
        ("record", "seed"),
        ("state", "deck"),
        ("state", "log"),
        ("state", "options", "districts"),
        ("record", "actions"),
    ],
    ids=range(6),
)
def test_deeply_nested_values_are_refused_without_recursion(where: tuple[str, ...]) -> None:
    save = _save(played(steps=5))
    target = save
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = _nested(100_000)
    with pytest.raises(CorruptState):
        citadels.game_from_json(save)
    record = played(steps=5).record()
    if where[0] == "record":
        target = record
        for key in where[1:-1]:
            target = target[key]
        target[where[-1]] = _nested(100_000)
        with pytest.raises(CorruptState):
            citadels.replay(record)


def test_huge_integers_are_refused() -> None:
    for key in ("seed", "rng", "tax_token", "round"):
        save = _save(played(steps=5))
        save["state"][key] = 10**5000
        _refused(save, f"state.{key}")
    save = _save(played(steps=5))
    save["record"]["seed"] = 10**5000
    with pytest.raises(CorruptState):
        citadels.game_from_json(save)


def test_a_face_down_character_also_held_is_refused() -> None:
    game = _in_turns()
    save = _save(game)
    held = save["state"]["players"][0]["characters"][0]
    save["state"]["facedown"].append(held)
    _refused(save, "state.facedown")


def test_a_murdered_character_not_in_play_is_refused() -> None:
    save = _save(_in_turns())
    save["state"]["murdered"] = "witch"  # a classic character, not in this game
    _refused(save, "state.murdered")
    save = _save(_in_turns())
    save["state"]["murdered"] = save["state"]["characters"][1]
    save["state"]["faceup"] = [save["state"]["characters"][1]]
    with pytest.raises(CorruptState):
        citadels.game_from_json(save)


def test_holders_that_do_not_match_the_seats_are_refused() -> None:
    save = _save(_in_turns())
    holders = save["state"]["holders"]
    c = next(iter(holders))
    holders[c] = (holders[c] + 1) % 4
    _refused(save, "state.holders")


def test_a_turn_seat_that_is_not_the_holder_is_refused() -> None:
    save = _save(_in_turns())
    turn = save["state"]["turn"]
    turn["seat"] = (turn["seat"] + 1) % 4
    _refused(save, "state.turn.seat")


def test_a_pending_decision_with_no_legal_action_is_refused() -> None:
    save = _save(_in_turns())
    seat = save["state"]["turn"]["seat"]
    save["state"]["pending"].append(
        {"kind": "keep", "seat": seat, "cards": [], "keep": 1, "target": -1, "seats": []}
    )
    _refused(save, "state.pending[0] leaves no legal action")


def test_state_options_must_match_the_record() -> None:
    save = _save(played(steps=5))
    save["state"]["options"]["complete_at"] = 7
    _refused(save, "state.options")


def test_every_position_of_real_games_still_loads() -> None:
    for edition, players, seed in (
        ("basic", 3, 1),
        ("dezh", 2, 2),
        ("classic", 6, 3),
        ("2016", 5, 4),
    ):
        game = citadels.new_game(edition, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            loaded = citadels.game_from_json(_save(game))
            assert frozen(loaded) == frozen(game)
            game.apply(rng.choice(game.legal_actions()))
        assert frozen(citadels.game_from_json(_save(game))) == frozen(game)


# --- 5. properties, with hypothesis ----------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.integers()
    | st.integers(2**63, 2**80)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["king", "manor", "palace", "gold", "assassin", "keep", "0", ""])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELD_NAMES = sorted({f.name for cls in ACTION_TYPES for f in dataclasses.fields(cls)})


@st.composite
def action_objects(draw: st.DrawFn) -> Any:
    """A JSON action that is often nearly right: a real type, some of its fields, odd values."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    cls = draw(st.sampled_from(ACTION_TYPES))
    obj: dict[Any, Any] = {"type": cls.type}
    for f in dataclasses.fields(cls):
        if draw(st.integers(0, 5)):
            obj[f.name] = draw(JSON)
    if draw(st.integers(0, 4)) == 0:
        obj[draw(st.sampled_from([*FIELD_NAMES, "type", "x"]) | st.integers())] = draw(JSON)
    return obj


POSITIONS = [
    played("classic", 4, seed=3, steps=25),
    played("2016", 5, seed=4, steps=70),
    played("dezh", 2, seed=5, steps=40),
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=action_objects(), which=st.integers(0, len(POSITIONS) - 1), seat=st.none() | JSON)
def test_random_malformed_actions_get_a_clean_error_and_change_nothing(
    obj: Any, which: int, seat: Any
) -> None:
    game = POSITIONS[which].copy()
    before = frozen(game)
    legal = game.legal_actions()
    try:
        action = game.apply_json(obj, seat=seat)
    except CitadelsError as exc:
        assert 0 < len(str(exc)) < 800
        assert frozen(game) == before
    else:
        assert action in legal
        assert all(type(getattr(action, f.name)) is not float for f in dataclasses.fields(action))
        citadels.game_from_json(json.loads(json.dumps(game.to_json())))


@settings(max_examples=150, deadline=None)
@given(cls=st.sampled_from(ACTION_TYPES), values=st.lists(JSON, min_size=0, max_size=4))
def test_random_constructor_arguments_build_a_well_typed_action_or_fail_cleanly(
    cls: type[Action], values: list[Any]
) -> None:
    try:
        action = cls(*values)
    except MalformedAction:
        return
    except TypeError as exc:  # the wrong number of arguments: Python's own call check
        assert "argument" in str(exc)
        return
    assert action_from_json(action.to_json()) == action


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


SAVES = [_save(game) for game in POSITIONS] + [_save(_in_turns("classic", 6, seed=8))]
SAVE_PATHS = [[p for p in _paths(save) if p] for save in SAVES]


def _retype(value: Any) -> Any:
    if type(value) is bool:
        return int(value)
    if type(value) is int:
        return [str(value), float(value), value + 1, value - 1, True][value % 5]
    if type(value) is str:
        return [value]
    if isinstance(value, list):
        return tuple(value) if not value else {"0": value[0]}
    if isinstance(value, dict):
        return list(value.values())
    return 0


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(SAVES) - 1),
    where=st.integers(0, 10**6),
    how=st.sampled_from(["delete", "replace", "retype"]),
    new=JSON,
)
def test_random_mutations_of_a_save_load_consistently_or_are_refused(
    which: int, where: int, how: str, new: Any
) -> None:
    save = copy.deepcopy(SAVES[which])
    path = SAVE_PATHS[which][where % len(SAVE_PATHS[which])]
    parent = save
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "replace":
        parent[key] = new
    else:
        parent[key] = _retype(parent[key])
    try:
        game = citadels.game_from_json(save)
    except CorruptState as exc:
        assert 0 < len(str(exc)) < 800
        return
    # Whatever loads is a game that works: every view, every legal action, its own save.
    for seat in [None, *range(game.num_players)]:
        json.dumps(game.view(seat))
    assert game.is_over or game.legal_actions()
    for action in game.legal_actions()[:8]:
        twin = game.copy()
        twin.apply(action)
        twin.view(twin.to_move)
    again = citadels.game_from_json(json.loads(json.dumps(game.to_json())))
    assert frozen(again) == frozen(game)
