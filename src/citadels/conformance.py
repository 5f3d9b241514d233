"""Conformance checks run over random games: the engine's invariants, checked from outside.

Used by the test suite (a few thousand games) and by ``python -m citadels.soak`` (the long
soak). Each check raises ``ConformanceError`` with the edition, seed and decision number, so a
failure can be replayed.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from citadels.editions import get_edition
from citadels.engine import serialize
from citadels.engine.actions import ACTION_TYPES, Action, action_from_json, sort_key
from citadels.engine.game import Game, game_from_json, new_game, replay
from citadels.errors import CitadelsError, IllegalAction

#: Most decisions a random game may take before it counts as endless.
MAX_DECISIONS = 20_000


class ConformanceError(AssertionError):
    """An invariant of the engine does not hold."""


@dataclass
class Stats:
    """What a run of checked games covered."""

    games: int = 0
    decisions: int = 0
    illegal_checked: int = 0
    deep_checks: int = 0
    action_types: Counter[str] = field(default_factory=Counter)


def _fail(game: Game, where: str, message: str) -> ConformanceError:
    setup = game.record()
    return ConformanceError(
        f"{setup['edition']} players={setup['players']} seed={setup['seed']} "
        f"options={setup['options']} at {where}: {message}"
    )


def _snapshot(game: Game) -> str:
    return json.dumps(serialize.state_to_json(game.state), sort_keys=True)


def check_cards_and_gold(game: Game, deck: Counter[str], where: str) -> None:
    """District cards are conserved (C-11) and no seat's gold is negative."""
    if serialize.card_counts(game.state) != deck:
        raise _fail(game, where, "district cards are not conserved")
    for p in game.state.players:
        if p.gold < 0:
            raise _fail(game, where, f"seat {p.seat} has negative gold {p.gold}")


def check_sorted(game: Game, legal: list[Action], where: str) -> None:
    """Legal actions come in canonical order, without duplicates."""
    rank = game.edition.rank
    keys = [sort_key(a, rank) for a in legal]
    if keys != sorted(keys):
        raise _fail(game, where, f"legal actions are not sorted: {[str(a) for a in legal]}")
    if len(set(legal)) != len(legal):
        raise _fail(game, where, "legal actions contain duplicates")
    if game.to_move is not None and not legal:
        raise _fail(game, where, "a seat is to move but has no legal action")


def check_views(game: Game, where: str) -> None:
    """C-10: no view shows another seat's hand, an unrevealed character of another seat, or
    the secret part of an event it may not see; every view is JSON-serialisable."""
    s = game.state
    n = len(s.players)
    for viewer in [None, *range(n)]:
        view = game.view(viewer)
        json.dumps(view)
        for entry in view["players"]:
            seat = entry["seat"]
            if seat != viewer and "hand" in entry:
                raise _fail(game, where, f"view of {viewer} shows the hand of seat {seat}")
            if seat != viewer and s.phase != "over":
                for c in entry["characters"]:
                    if s.revealed.get(c) != seat:
                        raise _fail(game, where, f"view of {viewer} leaks {c} of seat {seat}")
        if viewer is None and view["known_facedown"]:
            raise _fail(game, where, "a spectator sees a face-down character")
        for ev, rendered in zip(s.log, view["log"], strict=True):
            if ev.secret and viewer not in ev.viewers:
                leaked = set(ev.secret) - set(ev.data)
                if leaked & set(rendered):
                    raise _fail(game, where, f"view of {viewer} leaks the secret of {ev.kind}")
        if "signed_warrant" in view and viewer != s.magistrate:
            raise _fail(game, where, f"view of {viewer} shows the signed warrant")
        if "flowered_threat" in view and viewer != s.blackmailer:
            raise _fail(game, where, f"view of {viewer} shows the flowered threat")
        if "legal_actions" in view and viewer != game.to_move:
            raise _fail(game, where, f"view of {viewer} lists actions it may not take")
        pending = view.get("pending")
        if (
            pending
            and "cards" in pending
            and pending["kind"] not in ("graveyard", "confiscate")
            and pending["seat"] != viewer
        ):
            raise _fail(game, where, f"view of {viewer} shows another seat's drawn cards")


def candidate_actions(game: Game, rng: random.Random, count: int) -> Iterator[Action]:
    """Random well-formed actions of every type, most of them illegal now."""
    s = game.state
    pools: dict[str, list[Any]] = {
        "character": list(game.edition.characters),
        "district": list(game.edition.districts),
        "give": list(game.edition.districts),
        "take": list(game.edition.districts),
        "resource": ["gold", "cards", "card", "points"],
        "colour": ["yellow", "blue", "green", "red", "purple", "pink"],
        "signed": list(game.edition.characters),
        "first": list(game.edition.characters),
        "second": list(game.edition.characters),
        "flowered": list(game.edition.characters),
        "other": list(game.edition.characters),
        "sacrifice": list(game.edition.districts),
        "seat": list(range(-1, len(s.players) + 1)),
        "count": [1, 2, 3, 4],
    }
    for _ in range(count):
        cls = ACTION_TYPES[rng.randrange(len(ACTION_TYPES))]
        args: list[Any] = []
        for f in dataclasses.fields(cls):
            if f.type == "bool":
                args.append(rng.random() < 0.5)
            elif f.name == "districts":
                args.append(tuple(sorted(rng.sample(pools["district"], rng.randrange(1, 3)))))
            elif f.name in ("district", "character") and f.default == "":
                args.append(rng.choice(["", *pools[f.name]]))
            elif f.type == "int" and f.name == "cards":
                args.append(rng.randrange(0, 4))
            else:
                args.append(rng.choice(pools[f.name]))
        yield cls(*args)


def check_illegal(game: Game, legal: list[Action], rng: random.Random, where: str) -> int:
    """Sampled illegal actions raise ``IllegalAction`` and leave the game unchanged."""
    before = _snapshot(game)
    checked = 0
    for action in candidate_actions(game, rng, 6):
        if action in legal:
            continue
        try:
            game.apply(action)
        except IllegalAction:
            checked += 1
        else:
            raise _fail(game, where, f"illegal {action} was accepted")
        if _snapshot(game) != before:
            raise _fail(game, where, f"refused {action} changed the game")
    return checked


def check_deep(game: Game, legal: list[Action], rng: random.Random, where: str) -> None:
    """Every legal action applies on a copy; copy and JSON round-trips are exact; the copy is
    independent of the original; action JSON round-trips."""
    before = _snapshot(game)
    for action in legal:
        if action_from_json(json.loads(json.dumps(action.to_json()))) != action:
            raise _fail(game, where, f"{action} does not round-trip through JSON")
        clone = game.copy()
        try:
            clone.apply(action)
        except CitadelsError as exc:
            raise _fail(game, where, f"legal {action} raised {exc}") from None
        clone.legal_actions()
    if _snapshot(game) != before:
        raise _fail(game, where, "applying actions to copies changed the original")
    loaded = game_from_json(json.loads(json.dumps(game.to_json())))
    if _snapshot(loaded) != before or loaded.legal_actions() != legal:
        raise _fail(game, where, "the JSON round-trip is not exact")
    if game.copy().legal_actions() != legal:
        raise _fail(game, where, "the copy offers different actions")


def play_checked(
    edition: str,
    players: int,
    seed: int,
    *,
    deep_every: int = 40,
    views_every: int = 25,
    stats: Stats | None = None,
    **options: Any,
) -> Game:
    """Play one random game with every invariant checked; returns the finished game."""
    stats = stats if stats is not None else Stats()
    rng = random.Random(seed)
    game = new_game(edition, players, seed=seed, **options)
    deck = Counter(game.state.deck)
    for p in game.state.players:
        deck.update(p.hand)
    decisions = 0
    while not game.is_over:
        where = f"decision {decisions}"
        legal = game.legal_actions()
        check_sorted(game, legal, where)
        check_cards_and_gold(game, deck, where)
        if decisions % views_every == 0:
            check_views(game, where)
            stats.illegal_checked += check_illegal(game, legal, rng, where)
        if decisions % deep_every == 0:
            check_deep(game, legal, rng, where)
            stats.deep_checks += 1
        action = legal[rng.randrange(len(legal))]
        stats.action_types[action.type] += 1
        game.apply(action)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise _fail(game, where, "the game does not end")
    check_cards_and_gold(game, deck, "the end")
    check_views(game, "the end")
    result = game.result()
    if sorted(r.rank for r in result)[0] != 1:
        raise _fail(game, "the end", "nobody is ranked first")
    if _snapshot(replay(json.loads(json.dumps(game.record())))) != _snapshot(game):
        raise _fail(game, "the end", "the record does not replay to the same game")
    stats.games += 1
    stats.decisions += decisions
    return game


def random_setup(edition: str, players: int, rng: random.Random) -> dict[str, Any]:
    """Random legal options for an edition with choices: any character set (one per rank, a
    rank 9 for 8 players, the Queen only with 5+, no 2016 Emperor with 2) and any purple deck
    (`classic`: K-1, K-7; `2016`: 14 unique districts, N-1)."""
    ed = get_edition(edition)
    if not ed.presets:
        return {}
    by_rank: dict[int, list[str]] = {}
    for c in ed.characters.values():
        by_rank.setdefault(c.rank, []).append(c.id)
    two_player_ban = "emperor" if players == 2 and edition == "2016" else ""
    chars = [
        rng.choice([c for c in sorted(by_rank[r]) if c != two_player_ban]) for r in range(1, 9)
    ]
    if players == 8 or rng.random() < 0.5:
        nines = [c for c in sorted(by_rank[9]) if players >= 5 or c != "queen"]
        chars.append(rng.choice(nines))
    pool = sorted(ed.purple_pool)
    size = ed.unique_districts or rng.randrange(len(pool) + 1)
    purple = rng.sample(pool, size)
    return {"characters": chars, "districts": purple}
