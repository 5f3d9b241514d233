"""Hand-built positions for rule tests: stacked decks, given hands, cities and characters.

Tests may set the state directly (DESIGN.md, "Tests may stack decks"). Everything here goes
through ``citadels.new_game`` first, so the edition, options and generator are real; only the
parts a test names are overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import citadels
from citadels import Action, EndTurn, Game, GatherGold, PickCharacter
from citadels.engine import rules
from citadels.engine.state import SELECTION, TURNS
from citadels.errors import IllegalAction


def position(
    edition: str = "classic",
    players: int = 4,
    *,
    crown: int = 0,
    hands: Mapping[int, Sequence[str]] | None = None,
    cities: Mapping[int, Sequence[str]] | None = None,
    built: Mapping[int, Sequence[int]] | None = None,
    gold: Mapping[int, int] | None = None,
    deck_top: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    characters: Mapping[int, Sequence[str]] | None = None,
    faceup: Sequence[str] = (),
    complete_at: int | None = None,
    round_no: int = 1,
    first_complete: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    beautified: Mapping[int, Sequence[str]] | None = None,
    museum: Mapping[int, Sequence[str]] | None = None,
) -> Game:
    """A game of ``edition`` whose state is set from the arguments.

    Seats not named get an empty hand, an empty city and 0 gold. ``deck_top`` lists the next
    cards drawn, first drawn first; below them lie the rest of the edition's deck (minus every
    card placed elsewhere) in sorted order, or exactly ``deck`` (bottom first) when given.
    ``built`` gives the round each city district was built in (default 0, before the game).

    With ``characters`` (seat -> character ids) the calling phase starts at once, as after a
    selection in which those characters were chosen; otherwise round ``round_no`` starts with
    a real, seeded selection from the ``crown`` seat. ``options`` go to ``new_game``.
    ``beautified`` (seat -> districts holding the Artist's gold, R-1) and ``museum`` (seat ->
    cards tucked beneath the Museum, R-19) set those parts of the Dark City state.
    """
    game = citadels.new_game(edition, players, seed=seed, **(options or {}))
    s = game.state
    hands = hands or {}
    cities = cities or {}
    built = built or {}
    gold = gold or {}
    beautified = beautified or {}
    museum = museum or {}
    placed: list[str] = list(deck_top)
    for seat, p in enumerate(s.players):
        p.hand = list(hands.get(seat, ()))
        p.city = list(cities.get(seat, ()))
        p.built_round = list(built.get(seat, [0] * len(p.city)))
        assert len(p.built_round) == len(p.city), "built must match the city"
        p.gold = gold.get(seat, 0)
        p.characters = []
        p.beautified = list(beautified.get(seat, ()))
        p.museum = list(museum.get(seat, ()))
        placed += p.hand + p.city + p.museum
    if deck is not None:
        rest = list(deck)
    else:
        rest = [d for d in sorted(s.edition.deck) for _ in range(s.edition.deck[d])]
        for card in placed:
            if card in rest:
                rest.remove(card)
    s.deck = rest + list(reversed(deck_top))
    if complete_at is not None:
        s.complete_at = complete_at
    s.first_complete = first_complete
    s.crown = crown
    s.log = []
    if characters is None:
        s.round = round_no - 1
        rules.start_round(s)
    else:
        s.round = round_no
        start_calls(game, characters, faceup=faceup)
    game._legal = None
    return game


def classic_characters(*bonus: str) -> list[str]:
    """The 8 base characters of `classic` with the named Dark City characters swapped in for
    the base character of the same rank; a rank-9 character is added (K-7)."""
    table = citadels.EDITIONS["classic"].characters
    base = ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")
    by_rank = {table[c].rank: c for c in base}
    for c in bonus:
        by_rank[table[c].rank] = c
    return [by_rank[r] for r in sorted(by_rank)]


def characters_2016(*chosen: str) -> list[str]:
    """The `2016` first-game characters (ranks 1–8) with the named characters swapped in for
    the one of the same rank; a rank-9 character is added (N-1, CARDS.md T6)."""
    table = citadels.EDITIONS["2016"].characters
    base = ("assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord")
    by_rank = {table[c].rank: c for c in base}
    for c in chosen:
        by_rank[table[c].rank] = c
    return [by_rank[r] for r in sorted(by_rank)]


def start_calls(
    game: Game, characters: Mapping[int, Sequence[str]], *, faceup: Sequence[str] = ()
) -> Game:
    """Start calling characters (C-6) as if a selection just gave ``characters`` (seat ->
    ids); the characters nobody holds are out of the round face down (``faceup``: face up)."""
    s = game.state
    s.phase = TURNS
    s.steps = []
    s.pool = []
    s.holders = {}
    s.revealed = {}
    s.murdered = None
    s.robbed = None
    s.robber = None
    s.next_call = 0
    s.turn = None
    s.pending = []
    for p in s.players:
        p.characters = []
    for seat, chars in characters.items():
        for c in chars:
            assert c not in s.holders, f"{c} is held twice"
            s.holders[c] = seat
            s.players[seat].characters.append(c)
    s.faceup = list(faceup)
    s.facedown = [c for c in s.characters if c not in s.holders and c not in faceup]
    rules.advance_calls(s)
    game._legal = None
    return game


def play(game: Game, *actions: Action) -> Game:
    """Apply the actions in order, each for the seat to move."""
    for a in actions:
        game.apply(a, seat=game.to_move)
    return game


def legal(game: Game) -> list[Action]:
    return game.legal_actions()


def legal_types(game: Game) -> set[str]:
    """The JSON type names of the legal actions."""
    return {a.type for a in game.legal_actions()}


def turn(game: Game) -> tuple[int, str] | None:
    """(seat, character) of the turn being played, ``None`` outside a turn."""
    t = game.state.turn
    return None if t is None else (t.seat, t.character)


def player(game: Game, seat: int) -> Any:
    return game.state.players[seat]


def log(game: Game, seat: int | None = None) -> list[dict[str, Any]]:
    """The log as ``seat`` sees it (``None``: a spectator)."""
    return list(game.view(seat)["log"])


def events(game: Game, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    """The log events of one kind, as ``seat`` sees them."""
    return [e for e in log(game, seat) if e["kind"] == kind]


def deck_bottom(game: Game, n: int) -> list[str]:
    """The ``n`` bottom cards of the district deck, bottom first."""
    return game.state.deck[:n]


def deck_top(game: Game, n: int) -> list[str]:
    """The ``n`` next cards to be drawn, first drawn first."""
    return list(reversed(game.state.deck[-n:]))


def snapshot(game: Game) -> str:
    """The full state as a string, to prove that a refused action changed nothing."""
    return json.dumps(game.to_json(), sort_keys=True)


def end_turn_with_gold(game: Game) -> None:
    """Finish the current turn the simplest way: take 2 gold if not yet gathered, end."""
    t = game.state.turn
    assert t is not None
    if not t.gathered:
        play(game, GatherGold())
    if game.state.pending:
        raise AssertionError("a decision is pending")
    play(game, EndTurn())


def finish_round(game: Game) -> None:
    """Play every remaining turn of the round with gold and nothing else."""
    start = game.state.round
    while game.state.phase == TURNS and game.state.round == start:
        end_turn_with_gold(game)


def pick_first(game: Game) -> None:
    """Answer every selection step with the first legal choice until the calls begin."""
    while game.state.phase == SELECTION:
        play(game, game.legal_actions()[0])


def names(actions: Iterable[Action]) -> list[str]:
    """Actions as their short texts, for readable assertions."""
    return [a.text() for a in actions]


def of_type(game: Game, cls: type) -> list[Any]:
    """The legal actions of one class."""
    return [a for a in legal(game) if isinstance(a, cls)]


def refused(game: Game, action: Any) -> IllegalAction:
    """Apply an illegal ``action``; check the game did not change; return the error."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert snapshot(game) == before
    return err.value


def first_pick() -> tuple[Game, int]:
    """A 4-player `classic` game at the crowned seat's first pick, three seats still to pick."""
    game = citadels.new_game("classic", 4, seed=7)
    while not isinstance(game.legal_actions()[0], PickCharacter):
        game.apply(game.legal_actions()[0], game.to_move)
    seat = game.to_move
    assert seat is not None
    return game, seat


def tool(name: str) -> Any:
    """A script of ``tools/`` loaded as a module (``tool("web_i18n")``), once per session."""
    import importlib.util
    import sys
    from pathlib import Path

    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
