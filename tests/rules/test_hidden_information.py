"""Side channels (C-10, C-12): what a viewer sees must not depend on what it may not know.

The shape of every test here: two games that differ only in one hidden fact (whether a
murdered character is held, which warrant is signed, what a hand holds, …) are played with
the same actions, and every viewer who may not know the fact must get byte-identical views
(the whole view, log included, as JSON) at every step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

import pytest

from citadels import Game, Murder
from citadels.engine.state import TURNS
from tests.helpers import (
    characters_2016,
    classic_characters,
    end_turn_with_gold,
    play,
    position,
    turn,
)

Viewers = Sequence[int | None]


def _shown(game: Game, viewer: int | None, ignore: tuple[str, ...] = ()) -> str:
    """The viewer's whole view as JSON, log included, without the ``ignore`` keys."""
    view = game.view(viewer)
    for key in ignore:
        view.pop(key, None)
    return json.dumps(view, sort_keys=True)


def _round_over(game: Game, round_no: int, log_from: int) -> bool:
    """Whether the round has reached its end: the murdered holder is named at that point."""
    s = game.state
    if s.phase != TURNS or s.round != round_no:
        return True
    return any(ev.kind in ("murdered_revealed", "round_end") for ev in s.log[log_from:])


def assert_same_for(
    a: Game,
    b: Game,
    viewers: Viewers,
    *,
    seed: int,
    steps: int = 400,
    ignore: tuple[str, ...] = (),
) -> int:
    """Play the same random legal actions in ``a`` and ``b`` up to the end of the round;
    after every action each viewer's whole view (but the ``ignore`` keys) must be the same
    JSON in both games. Returns the number of actions played."""
    rng = random.Random(seed)
    round_no, log_from = a.state.round, len(a.state.log)
    played = 0
    for viewer in viewers:
        assert _shown(a, viewer, ignore) == _shown(b, viewer, ignore), (
            f"seat {viewer} tells them apart"
        )
    while played < steps and not _round_over(a, round_no, log_from):
        assert a.to_move == b.to_move
        action = rng.choice(a.legal_actions())
        assert action in b.legal_actions()
        play(a, action)
        play(b, action)
        played += 1
        if _round_over(a, round_no, log_from):
            break
        for viewer in viewers:
            assert _shown(a, viewer, ignore) == _shown(b, viewer, ignore), (
                f"seat {viewer} tells the games apart after {action.text()}"
            )
    return played


def _round_log(game: Game, viewer: int | None) -> list[str]:
    """The viewer's log of the current round up to its end (before the holder is named)."""
    out = []
    for ev in game.view(viewer)["log"]:
        if ev["kind"] in ("murdered_revealed", "round_end"):
            break
        out.append(json.dumps(ev, sort_keys=True))
    return out


# --- C-12: the murdered character's call ---------------------------------------------------

#: (edition, players, characters in play, seat -> characters held by the others, the seat
#: that holds the victim or nothing, the victim)
MURDER_CASES: list[tuple[str, int, list[str] | None, dict[int, list[str]], int, str]] = [
    ("basic", 4, None, {0: ["assassin"], 1: ["magician"], 2: ["warlord"]}, 3, "king"),
    ("basic", 4, None, {0: ["assassin"], 1: ["thief"], 2: ["architect"]}, 3, "merchant"),
    (
        "basic",
        3,
        None,
        {0: ["assassin", "bishop"], 1: ["thief"], 2: ["king", "warlord"]},
        1,
        "merchant",
    ),
    ("classic", 4, None, {0: ["assassin"], 1: ["magician"], 2: ["warlord"]}, 3, "bishop"),
    ("classic", 4, None, {0: ["assassin"], 1: ["thief"], 2: ["merchant"]}, 3, "king"),
    ("classic", 2, None, {0: ["assassin", "merchant"], 1: ["thief"]}, 1, "architect"),
    # the Queen beside a murdered rank-4 holder is paid only at the end of the round.
    (
        "classic",
        5,
        classic_characters("queen"),
        {0: ["assassin"], 1: ["thief"], 2: ["merchant"], 4: ["queen"]},
        3,
        "king",
    ),
    (
        "classic",
        4,
        classic_characters("tax_collector", "emperor"),
        {0: ["assassin"], 1: ["tax_collector"], 2: ["warlord"]},
        3,
        "emperor",
    ),
    ("2016", 4, None, {0: ["assassin"], 1: ["thief"], 2: ["warlord"]}, 3, "king"),
    (
        "2016",
        4,
        characters_2016("tax_collector"),
        {0: ["assassin"], 1: ["magician"], 2: ["tax_collector"]},
        3,
        "architect",
    ),
    (
        "2016",
        5,
        characters_2016("emperor", "queen"),
        {0: ["assassin"], 1: ["thief"], 2: ["bishop"], 4: ["queen"]},
        3,
        "emperor",
    ),
]


def _murder_pair(
    edition: str,
    players: int,
    chars: list[str] | None,
    others: Mapping[int, list[str]],
    holder: int,
    victim: str,
) -> tuple[Game, Game]:
    """The same position twice: the victim held by ``holder``, or face down."""
    options = {"characters": chars} if chars else None
    hands = {seat: ["temple", "tavern", "manor", "watchtower"] for seat in range(players)}
    cities = {seat: ["market", "church"] for seat in range(players)}
    gold = {seat: 3 + seat for seat in range(players)}
    games = []
    for held in (True, False):
        characters = {seat: list(c) for seat, c in others.items()}
        characters[holder] = characters.get(holder, []) + ([victim] if held else [])
        game = position(
            edition,
            players,
            characters=characters,
            hands=hands,
            cities=cities,
            gold=gold,
            options=options,
            seed=5,
        )
        play(game, Murder(victim))
        games.append(game)
    return games[0], games[1]


@pytest.mark.parametrize(
    ("edition", "players", "chars", "others", "holder", "victim"),
    MURDER_CASES,
    ids=[f"{c[0]}-{c[1]}p-{c[5]}" for c in MURDER_CASES],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_C12_C10_murdered_call_looks_the_same_held_or_not(
    edition: str,
    players: int,
    chars: list[str] | None,
    others: dict[int, list[str]],
    holder: int,
    victim: str,
    seed: int,
) -> None:
    """C-12: until the end of the round nothing public may show whether anyone holds the
    murdered character: every other seat and the spectator see byte-identical views."""
    held, unheld = _murder_pair(edition, players, chars, others, holder, victim)
    viewers: list[int | None] = [v for v in range(players) if v != holder]
    viewers.append(None)
    assert victim in held.view(holder)["players"][holder]["characters"]  # he knows
    # A hand-built position leaves the unheld victim face down beside the usual cards; in a
    # real game the count would be the same, so only that count is left out of the views.
    played = assert_same_for(held, unheld, viewers, seed=seed, ignore=("facedown_count",))
    assert played > 0
    called = [e["kind"] for e in held.view(None)["log"] if e.get("character") == victim]
    assert "call" in called, "the murdered character was called"
    for viewer in viewers:
        assert _round_log(held, viewer) == _round_log(unheld, viewer)
    # At the end of the round everyone knows.
    murdered = [e for e in held.view(None)["log"] if e["kind"] == "murdered_revealed"]
    assert [(e["seat"], e["character"]) for e in murdered] == [(holder, victim)]
    assert not [e for e in unheld.view(None)["log"] if e["kind"] == "murdered_revealed"]


def test_C12_murdered_call_event_is_the_same_held_or_not() -> None:
    """C-12: the call event itself, as every viewer gets it, in both cases."""
    held, unheld = _murder_pair(
        "classic", 4, None, {0: ["assassin"], 1: ["magician"], 2: ["warlord"]}, 3, "king"
    )
    for game in (held, unheld):
        play(game, *[a for a in game.legal_actions() if a.type == "gather_gold"][:1])
        play(game, *[a for a in game.legal_actions() if a.type == "end_turn"])
        play(game, *[a for a in game.legal_actions() if a.type == "gather_gold"][:1])
        play(game, *[a for a in game.legal_actions() if a.type == "end_turn"])
    for viewer in (0, 1, 2, None):
        calls_held = [e for e in held.view(viewer)["log"] if e["kind"] == "call"]
        calls_unheld = [e for e in unheld.view(viewer)["log"] if e["kind"] == "call"]
        king = [e for e in calls_held if e["character"] == "king"]
        assert king == [e for e in calls_unheld if e["character"] == "king"]
        assert king[0]["murdered"] is True and king[0]["answered"] is False


# --- C-10: the provisional score counts only what the seat knows ----------------------------


def _result(game: Game, seat: int | None) -> str:
    return json.dumps(game.provisional_result(seat).to_json(), sort_keys=True)


def test_R23_C10_provisional_score_leaves_out_a_secret_vault_in_another_hand() -> None:
    """R-23: a Secret Vault in hand scores 3 at the end, but while the game runs only its
    holder knows it is there: nobody else's provisional score may change with it."""
    games = [
        position(
            "2016",
            4,
            options={"preset": "cunning_agents"},
            characters={0: ["witch"], 1: ["magician"]},
            hands={1: [card, "temple"]},
            cities={0: ["manor", "castle"], 1: ["palace", "market"]},
        )
        for card in ("secret_vault", "tavern")
    ]
    vault, plain = games
    for viewer in (0, 2, 3, None):
        assert _result(vault, viewer) == _result(plain, viewer)
        assert vault.provisional_result(viewer)[1].breakdown.bonus == 0
    assert vault.provisional_result(1)[1].breakdown.bonus == 3
    assert plain.provisional_result(1)[1].breakdown.bonus == 0
    # result() is the analyst's whole truth: it does count the hidden card.
    assert vault.result()[1].score == plain.result()[1].score + 3


def test_D5_C10_provisional_tiebreak_counts_only_characters_the_seat_has_seen() -> None:
    """D-5: ties go to the highest character of the last round, but an unrevealed one is known
    to its holder only: the others see an unbroken tie."""
    games = [
        position(
            "dezh",
            4,
            characters={0: ["assassin"], 1: ["king"], 2: [hidden]},
            cities={1: ["manor", "temple"], 2: ["manor", "temple"]},
        )
        for hidden in ("warlord", "thief")
    ]
    high, low = games
    assert high.result().winners == (2,) and low.result().winners == (1,)
    for viewer in (0, 1, 3, None):
        assert _result(high, viewer) == _result(low, viewer)
    for viewer in (0, 3, None):
        assert high.provisional_result(viewer).winners == (1, 2)
        assert high.provisional_result(viewer)[1].tiebreak == "shared"
    # Each of the two tied seats knows its own character, not the other's.
    assert high.provisional_result(1).winners == (1,)
    assert high.provisional_result(2).winners == (2,)
    assert low.provisional_result(2).winners == (2,)
    with pytest.raises(ValueError, match="seat"):
        high.provisional_result(4)


def test_C10_provisional_result_is_the_result_once_the_game_is_over() -> None:
    from citadels import new_game

    game = new_game("2016", 4, seed=3, preset="cunning_agents")
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    final = json.dumps(game.result().to_json(), sort_keys=True)
    for viewer in (0, 1, 2, 3, None):
        assert _result(game, viewer) == final


@pytest.mark.parametrize(
    ("edition", "players", "options"),
    [
        ("dezh", 4, {}),
        ("dezh", 3, {}),
        ("2016", 4, {"preset": "cunning_agents"}),
        ("2016", 3, {"preset": "devious_dignitaries"}),
    ],
)
def test_C10_provisional_result_depends_only_on_the_view(
    edition: str, players: int, options: dict[str, str]
) -> None:
    """Resampling everything a seat cannot see (determinization) never changes the seat's
    provisional result; the full result() does change, which this checks has teeth."""
    from citadels import new_game
    from citadels.engine.determinize import determinize

    rng = random.Random(11)
    changed = 0
    for seed in range(4):
        game = new_game(edition, players, seed=seed, **options)
        step = 0
        while not game.is_over and step < 600:
            game.apply(rng.choice(game.legal_actions()))
            step += 1
            if step % 23:
                continue
            for seat in range(players):
                sample = determinize(game, seat, random.Random(step))
                assert _result(sample, seat) == _result(game, seat)
                changed += sample.result().to_json() != game.result().to_json()
    assert changed > 0


# --- C-4, C-10: the order of a seat's picks ------------------------------------------------


@pytest.mark.parametrize("edition", ["basic", "dezh", "classic", "2016"])
def test_C4_C10_revealed_characters_do_not_show_the_order_they_were_picked(
    edition: str,
) -> None:
    """With 2–3 players a seat holds two characters; once both are revealed (or the game is
    over) the others must not learn which one it picked first."""
    games = [
        position(edition, 3, characters={0: pair, 1: ["thief"], 2: ["magician"]})
        for pair in (["king", "warlord"], ["warlord", "king"])
    ]
    for game in games:
        while turn(game) != (0, "warlord"):
            end_turn_with_gold(game)
        assert game.view(None)["players"][0]["characters"] == ["king", "warlord"]
    for viewer in (0, 1, 2, None):
        assert _shown(games[0], viewer) == _shown(games[1], viewer)
