"""Big tables and busy connections over the protocol: a 6- and an 8-player game played to
the end by clients and bots, and players and spectators reconnecting again and again while
bots play (bounded in count and time). Every client is strict (conftest.strict_clients)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from starlette.applications import Starlette

from citadels.engine.game import new_game
from citadels.server import create_app
from citadels.server.client import PlayerClient, http
from citadels.server.limits import Limits
from tests.server.conftest import config, hub_of, running


def _replayed(app: Starlette, code: str) -> dict[str, Any]:
    store = hub_of(app).store
    row = store.table_by_code(code)
    assert row is not None and row.status == "finished"
    game = new_game(row.edition, row.players, seed=row.seed, **row.options)
    for _seat, action in store.actions(row.id):
        game.apply_json(action)
    assert game.is_over and game.result().to_json() == row.result
    return game.result().to_json()


def _flags_agree(app: Starlette, code: str) -> None:
    """Memory and database hold the same away flag for every seat."""
    hub = hub_of(app)
    live = next(t for t in hub.tables.tables() if t.row.code == code)
    stored = hub.store.table_by_code(code)
    assert stored is not None
    assert [s.away for s in stored.seats] == [s.away for s in live.row.seats]


async def _table(base: str, edition: str, players: int, humans: list[str],
                 bots: dict[str, str], **setup: Any) -> tuple[str, list[str]]:  # fmt: skip
    """A table with these humans (the first one the host) and bots, started; returns its code
    and the humans' tokens."""
    status, made = await http(base, "POST", "/api/tables",
                              {"name": humans[0], "edition": edition, "players": players,
                               "bots": bots, "seed": 2027, **setup})  # fmt: skip
    assert status == 201, made
    code = made["code"]
    tokens = [made["token"]]
    for name in humans[1:]:
        status, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": name})
        assert status == 200, joined
        tokens.append(joined["token"])
    return code, tokens


@pytest.mark.parametrize(
    ("edition", "players", "setup"),
    [("2016", 6, {}), ("classic", 8, {"preset": "imperial_court"})],
)
def test_a_big_table_plays_to_the_end(
    sqlite_url: str, edition: str, players: int, setup: dict[str, Any]
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, grace=30)
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            humans = ["Anna", "Ben", "Cy"]
            levels = ["random", "easy", "medium"]
            bots = {str(s): levels[s % 3] for s in range(len(humans), players)}
            code, tokens = await _table(base, edition, players, humans, bots, **setup)
            clients = [PlayerClient(base, code, tok, seed=i) for i, tok in enumerate(tokens)]
            spec = PlayerClient(base, code)
            for c in (*clients, spec):
                await c.connect()
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=tokens[0])
            assert status == 200

            async def watch() -> None:
                while spec.result is None:
                    await spec.recv()

            await asyncio.wait_for(
                asyncio.gather(*(c.play(timeout=240) for c in clients), watch()), 300
            )
            result = _replayed(app, code)
            for c in (*clients, spec):
                assert c.result == result
                assert [e["n"] for e in c.events] == list(range(len(c.events)))
                assert not [e for e in c.errors if e["code"] != "stale_version"]
                assert c.scores is not None and len(c.scores) == players
            versions = [m["version"] for m in spec.received if m["type"] == "update"]
            assert versions == list(range(1, spec.version + 1))
            # Nobody left, so no stand-in ever played.
            assert not any(
                s["away"]
                for m in spec.received
                if m["type"] == "table"
                for s in m["table"]["seats"]
            )
            for c in (*clients, spec):
                await c.close()

    asyncio.run(go())


#: Reconnections of the player who keeps coming and going, and of each spectator.
PLAYER_VISITS, SPECTATORS, SPECTATOR_VISITS = 30, 3, 8


def test_players_and_spectators_reconnect_again_and_again_while_bots_play(
    sqlite_url: str,
) -> None:
    async def go() -> None:
        # Every client of this test shares one address: the per-address limits (tested in
        # test_limits.py) would refuse a crowd that reconnects this often.
        cfg = config(sqlite_url, grace=0.05, bot_delay=0.002, limits=Limits(throttle=False))
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, (anna_token, ben_token) = await _table(
                base, "classic", 5, ["Anna", "Ben"], {"2": "random", "3": "easy", "4": "medium"}
            )
            anna = PlayerClient(base, code, anna_token, seed=1)
            await anna.connect()
            status, _ = await http(base, "POST", f"/api/tables/{code}/start", token=anna_token)
            assert status == 200
            ben = PlayerClient(base, code, ben_token, seed=2)
            rng = random.Random(3)
            snapshots: list[dict[str, Any]] = []

            async def coming_and_going() -> None:
                """Ben connects from where he was, plays a little, leaves; again."""
                for _ in range(PLAYER_VISITS):
                    if anna.result is not None:
                        return
                    snap = await ben.connect()
                    assert snap["type"] == "snapshot"
                    snapshots.append(snap)
                    acted = -1
                    for _ in range(rng.randint(0, 4)):
                        if ben.legal and ben.version != acted and ben.view is not None:
                            acted = ben.version
                            await ben.act(ben.choose(ben.legal, ben.view))
                        if ben.result is not None:
                            break
                        await ben.recv(timeout=30)
                    await ben.close()
                # Then he stays to the end.
                await ben.connect()
                await ben.play(timeout=180)

            async def watching(n: int) -> None:
                for _ in range(SPECTATOR_VISITS):
                    spec = PlayerClient(base, code, seed=n)
                    snap = await spec.connect()
                    assert snap["type"] == "snapshot" and snap["you"]["spectator"]
                    assert [e["n"] for e in spec.events] == list(range(len(spec.events)))
                    for _ in range(rng.randint(0, 6)):
                        if spec.result is not None:
                            break
                        await spec.recv(timeout=30)
                    await spec.close()

            await asyncio.wait_for(
                asyncio.gather(
                    anna.play(timeout=180),
                    coming_and_going(),
                    *(watching(n) for n in range(SPECTATORS)),
                ),
                240,
            )
            result = _replayed(app, code)
            assert anna.result == result and ben.result == result
            for c in (anna, ben):
                assert [e["n"] for e in c.events] == list(range(len(c.events)))
                assert not [e for e in c.errors if e["code"] not in ("stale_version",)]
            # Ben's seat was his own again in every snapshot after he came back.
            assert all(s["table"]["seats"][1]["away"] is False for s in snapshots)
            live = next(t for t in hub_of(app).tables.tables() if t.row.code == code)
            await live.presence.settled()
            _flags_agree(app, code)
            await anna.close()
            await ben.close()

    asyncio.run(go())
