"""C-10: the log a view shows is rendered once per viewer and kept, and what it shows is
exactly what rendering every event afresh shows (``event_view``), for every seat and a
spectator, in random games of every edition, whatever ``log_from`` and however the views
are interleaved with the play. Nothing a view returns is the kept rendering.
"""

from __future__ import annotations

import json
import random
import sys
import threading
from typing import Any

import pytest

from citadels import Action, Game, new_game
from citadels.conformance import random_setup
from citadels.editions import EDITIONS
from citadels.engine.events import event_view
from citadels.engine.state import Event


def _fresh(game: Game, viewer: int | None, start: int = 0) -> str:
    """The log from ``start`` as ``viewer`` sees it, every event rendered afresh."""
    return json.dumps([event_view(ev, viewer) for ev in game.state.log[start:]])


def _games() -> list[tuple[str, int, int, dict[str, Any]]]:
    """Seeded random setups: each edition at a few player counts, some with random
    character sets and decks (the Dark City and 2016 characters with their secrets)."""
    rng = random.Random(12)
    out: list[tuple[str, int, int, dict[str, Any]]] = []
    for ed in EDITIONS.values():
        counts = sorted({ed.min_players, 4, 5, ed.max_players})
        for i, players in enumerate(counts):
            options = random_setup(ed.id, players, rng) if ed.presets and i % 2 else {}
            out.append((ed.id, players, rng.getrandbits(32), options))
    return out


GAMES = _games()


@pytest.mark.parametrize(
    ("edition", "players", "seed", "options"), GAMES, ids=[f"{g[0]}-{g[1]}p" for g in GAMES]
)
def test_C10_kept_log_rendering_is_the_fresh_rendering(
    edition: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    game = new_game(edition, players, seed=seed, **options)
    viewers: list[int | None] = [None, *range(players)]
    while not game.is_over:
        # A random viewer reads its view, whole or from a random event on (as clients do).
        viewer = rng.choice(viewers)
        start = rng.choice([0, game.log_size, rng.randrange(game.log_size + 1)])
        log = game.view(viewer, log_from=start)["log"]
        assert json.dumps(log) == _fresh(game, viewer, start)
        # What the client does with its copy changes nothing for the next view.
        for event in log:
            event["kind"] = "changed"
            for value in event.values():
                if isinstance(value, list):
                    value.append("palace")
        legal = game.legal_actions()
        # Each kind's own to_json (listed in views) is the generic form, key order included.
        assert [json.dumps(a.to_json()) for a in legal] == [
            json.dumps(Action.to_json(a)) for a in legal
        ]
        game.apply(legal[rng.randrange(len(legal))])
    for viewer in viewers:
        assert json.dumps(game.view(viewer)["log"]) == _fresh(game, viewer)
        assert game.view(viewer) == game.copy().view(viewer)


def test_C10_a_rewritten_log_is_rendered_again() -> None:
    """A log whose events were replaced (as a determinized sample's are) is not shown from
    the rendering of the old events."""
    rng = random.Random(3)
    game = new_game("classic", 4, seed=3)
    for _ in range(60):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    s = game.state
    for viewer in (None, 0, 1):
        game.view(viewer)
    i = next(i for i, ev in enumerate(s.log) if ev.secret and 0 not in ev.viewers)
    ev = s.log[i]
    s.log[i] = Event(ev.kind, ev.seat, ev.data, ev.secret, (0,))
    for viewer in (None, 0, 1):
        assert json.dumps(game.view(viewer)["log"]) == _fresh(game, viewer)
    assert game.view(0)["log"][i] != game.view(1)["log"][i]
    s.log = s.log[:10]
    for viewer in (None, 0, 1):
        assert json.dumps(game.view(viewer)["log"]) == _fresh(game, viewer)


def test_C10_views_read_by_several_threads_are_the_fresh_rendering() -> None:
    """Threads reading views of one game at once (a server's spectators, say) each get the
    whole log as it is, never a rendering another thread has half brought up to date."""
    rng = random.Random(5)
    game = new_game("2016", 6, seed=5)
    errors: list[str] = []

    def read(viewer: int | None) -> None:
        for _ in range(30):
            if json.dumps(game.view(viewer)["log"]) != _fresh(game, viewer):
                errors.append(f"viewer {viewer}")

    while not game.is_over:
        for _ in range(40):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        game.state.rendered = None  # every thread starts from no rendering at all
        threads = [threading.Thread(target=read, args=(v,)) for v in (None, 0, 0, 1, 1, 2)]
        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # switch threads as often as possible
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            sys.setswitchinterval(interval)
    assert errors == []
