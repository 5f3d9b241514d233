"""Determinization from a seat's view alone (citadels.engine.from_view).

A search that holds only its seat's view (with the whole log) and the setup options must deal
the same worlds as the sampler built from the live game: the rebuilt state shows the seat its
exact view (legal actions included when it is to move), and with the same generator both
information sets give the very same samples, so their distributions are equal, not just close.
"""

from __future__ import annotations

import ast
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from citadels import new_game
from citadels.editions import get_edition
from citadels.engine import serialize
from citadels.engine.determinize import InformationSet, determinize
from citadels.engine.events import event_view
from citadels.engine.from_view import (
    SECOND_VIEWER,
    SECRET_FIELDS,
    determinize_view,
    event_from_view,
    state_from_view,
)
from citadels.engine.state import GameState
from tests.test_determinize import positions

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("basic", 2, {}),
    ("basic", 5, {}),
    ("dezh", 3, {}),
    ("dezh", 7, {}),
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 4, {"preset": "dark_city"}),
    ("classic", 5, {"preset": "artisans"}),
    ("classic", 3, {"preset": "witch_hunt"}),
    ("classic", 6, {"preset": "imperial_court"}),
    ("classic", 8, {"preset": "artisans"}),
    ("2016", 2, {}),
    ("2016", 4, {}),
    *[("2016", 5, {"preset": p}) for p in sorted(get_edition("2016").presets)],
]
IDS = [f"{e}-{n}-{o.get('preset', 'default')}" for e, n, o in SETUPS]


def canonical(s: GameState) -> dict[str, Any]:
    """The state as JSON, with the orders no view shows put in a canonical one: the cards in
    a hand or under a Museum (views list them sorted) and the beautified districts."""
    out = serialize.state_to_json(s)
    for p in out["players"]:
        for key in ("hand", "museum", "beautified"):
            p[key] = sorted(p[key])
    return out


def dump(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


@pytest.mark.parametrize(("edition", "players", "options"), SETUPS, ids=IDS)
def test_view_alone_deals_the_games_samples(
    edition: str, players: int, options: dict[str, Any]
) -> None:
    """(a) A game dealt from the view shows the seat that very view, legal actions included;
    (b) with the same generator, the view-based and the game-based information sets give the
    same samples (so the same distribution of who holds which character and which cards)."""
    checked = 0
    for game, seat in positions(edition, players, players * 13 + 5, 4 * players, **options):
        view = game.view(seat)
        # Through JSON, as a remote client receives it.
        alone = InformationSet.from_view(json.loads(dump(view)), options)
        for k in range(2):
            shown = alone.sample(random.Random(k)).view(seat)
            if game.is_over:
                # Nothing is left to decide; the final scores count hands (a 2016 Secret
                # Vault) that the rebuilt state does not try to match.
                shown["result"] = view["result"]
            assert dump(shown) == dump(view)
        if game.is_over:
            continue
        live = InformationSet(game, seat)
        for k in range(2):
            ours = canonical(alone.sample(random.Random(k)).state)
            theirs = canonical(live.sample(random.Random(k)).state)
            assert ours == theirs
        checked += 1
    assert checked >= 10


def test_sample_frequencies_match_over_many_draws() -> None:
    """The distributions over a few fixed views, counted: who holds which character and each
    seat's hand, over 200 samples from one generator seed per draw (identical counts)."""
    done = 0
    for game, seat in positions("classic", 5, 3, 30):
        if game.is_over or done == 5:
            break
        alone, live = InformationSet.from_view(game.view(seat)), InformationSet(game, seat)
        counts: list[Counter[tuple[Any, ...]]] = [Counter(), Counter()]
        for info, counter in zip((alone, live), counts, strict=True):
            for k in range(200):
                s = info.sample(random.Random(k)).state
                counter[tuple(sorted(s.holders.items()))] += 1
                counter[tuple(tuple(sorted(p.hand)) for p in s.players)] += 1
        assert counts[0] == counts[1]
        assert len(counts[0]) > 20  # many worlds, not one
        done += 1
    assert done == 5


def test_determinize_view_matches_determinize() -> None:
    game = new_game("classic", 4, seed=21, preset="dark_city")
    rng = random.Random(21)
    for _ in range(120):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    for seat in range(4):
        options = {"preset": "dark_city"}
        ours = determinize_view(game.view(seat), random.Random(seat), options=options)
        theirs = determinize(game, seat, random.Random(seat))
        assert canonical(ours.state) == canonical(theirs.state)
        assert ours.record()["options"] == {"preset": "dark_city"}
        while not ours.is_over:  # a sample plays on to the end
            ours.apply(ours.legal_actions()[0])


def test_the_rebuilt_state_keeps_nothing_hidden_from_the_real_game() -> None:
    """Two games that show a seat the same view rebuild to the same state."""
    game = new_game("dezh", 4, seed=8)
    rng = random.Random(8)
    for _ in range(90):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    seat = 2
    other = determinize(game, seat, random.Random(1))
    assert [p.hand for p in other.state.players] != [p.hand for p in game.state.players]
    a = serialize.state_to_json(state_from_view(game.view(seat)))
    b = serialize.state_to_json(state_from_view(other.view(seat)))
    assert a == b


def test_events_are_rebuilt_with_their_secrets_and_viewers() -> None:
    """Every event a seat was shown comes back whole (secret and viewers); the others come
    back as the seat saw them, public part only."""
    kinds: set[str] = set()
    for edition, players, options in SETUPS[::3]:
        for game, seat in positions(edition, players, 2, 400, **options):
            for ev in game.state.log:
                back = event_from_view(event_view(ev, seat), seat, edition)
                if ev.secret and seat in ev.viewers:
                    assert back == ev
                    kinds.add(ev.kind)
                else:
                    assert (back.kind, back.seat, back.data, back.secret) == (
                        ev.kind,
                        ev.seat,
                        ev.data,
                        None,
                    )
    assert {"deal", "pick", "put_aside", "gather_cards", "keep"} <= kinds


def test_every_secret_the_engine_logs_is_known() -> None:
    """Each ``log_event`` of the engine with a secret part names only fields listed in
    SECRET_FIELDS for its kind, and one shown to two seats names the second in the data."""
    engine = Path(__file__).resolve().parents[1] / "src" / "citadels" / "engine"
    found = 0
    for path in engine.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", None) == "log_event"
                and len(node.args) >= 4
            ):
                continue
            kind = node.args[0]
            assert isinstance(kind, ast.Constant)
            secret = node.args[3]
            if isinstance(secret, ast.IfExp):
                secret = secret.body
            assert isinstance(secret, ast.Dict), f"{path.name}:{node.lineno}"
            keys = {k.value for k in secret.keys if isinstance(k, ast.Constant)}
            assert keys == set(SECRET_FIELDS[kind.value]), f"{path.name}:{node.lineno}"
            viewers = node.args[4] if len(node.args) > 4 else None
            if isinstance(viewers, ast.IfExp):
                viewers = viewers.body
            assert isinstance(viewers, ast.Tuple), f"{path.name}:{node.lineno}"
            assert len(viewers.elts) == (2 if kind.value in SECOND_VIEWER else 1)
            found += 1
    assert found >= 25


def test_views_it_cannot_rebuild_are_refused() -> None:
    game = new_game("classic", 4, seed=2, preset="dark_city")
    seat = 1
    with pytest.raises(ValueError, match="seat's view"):
        state_from_view(game.view(None))
    with pytest.raises(ValueError, match="whole log"):
        state_from_view(game.view(seat, log_from=game.log_size))
    with pytest.raises(ValueError):
        # Without its options, the view shows cards the default deck does not hold, or its
        # characters are not the default ones.
        state_from_view(game.view(seat))
    rebuilt = state_from_view(game.view(seat), {"preset": "dark_city"})
    assert rebuilt.options == {"preset": "dark_city"}
