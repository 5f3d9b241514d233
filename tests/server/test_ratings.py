"""Ratings, profiles, "my tables" and the leaderboard (issue 28, docs/accounts.md): a rated
game moves its accounts' ratings exactly as OpenSkill's Plackett–Luce model says, once per
game however often its finish is processed, in the transaction that records the result."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from citadels.server import create_app
from citadels.server.client import PlayerClient
from citadels.server.ratings import BOT_RATINGS, MU, SIGMA, display, fit, rate
from citadels.server.storage import Append, SeatRow, Store, WriteConflict, record_ratings
from tests.server.conftest import config, hub_of, running

PASSWORD = "correct horse battery"


def test_rate_is_the_library_on_fixed_results() -> None:
    model = PlackettLuce()
    players = [(25.0, 25 / 3), (30.0, 2.0), (20.0, 5.0), (25.0, 25 / 3)]
    ranks = [2, 1, 4, 2]  # a tie for second place
    expected = model.rate(
        [[model.rating(mu=m, sigma=s)] for m, s in players], ranks=[float(r) for r in ranks]
    )
    got = rate(players, ranks)
    for (mu, sigma), team in zip(got, expected, strict=True):
        assert mu == pytest.approx(team[0].mu) and sigma == pytest.approx(team[0].sigma)
    assert got[1][0] > 30.0 > got[2][0] and got[0] == pytest.approx(got[3])
    assert display(MU) == 1500


def test_a_fit_orders_players_that_always_finish_in_one_order() -> None:
    got = fit([["hard", "medium", "easy", "random"]] * 20)
    mus = [got[n][0] for n in ("hard", "medium", "easy", "random")]
    assert mus == sorted(mus, reverse=True)
    assert all(sigma < SIGMA for _mu, sigma in got.values())


_codes = iter(range(10**6))


def _stored_game(store: Store, accounts: list[int | None], bots: dict[int, str]) -> int:
    accounts = list(accounts)
    seats = []
    for seat in range(len(accounts) + len(bots)):
        if seat in bots:
            seats.append(SeatRow(seat, "bot", None, bots[seat]))
        else:
            seats.append(SeatRow(seat, "human", f"P{seat}", None, f"{seat}" * 64,
                                 account_id=accounts.pop(0)))  # fmt: skip
    table_id = store.create_table(
        code=f"T{next(_codes)}", edition="classic",
        players=len(seats), options={}, seed=1, timer=None, public=True,
        spectator_chat=False, seats=seats,
    )  # fmt: skip
    assert table_id is not None
    return table_id


def _result(ranks: list[int]) -> dict[str, Any]:
    return {"seats": [{"seat": s, "rank": r, "score": 10 - r} for s, r in enumerate(ranks)],
            "winners": [s for s, r in enumerate(ranks) if r == 1]}  # fmt: skip


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_finish_processed_twice_rates_once(kind: str, request: pytest.FixtureRequest) -> None:
    store = Store(request.getfixturevalue("sqlite_url" if kind == "sqlite" else "pg_url"))
    store.migrate()
    try:
        a = store.create_account("Anna", "anna", "x")
        b = store.create_account("Ben", "ben", "x")
        assert a is not None and b is not None
        table_id = _stored_game(store, [a, b], {2: "hard"})
        result = _result([2, 1, 3])
        with store.engine.begin() as conn:
            assert record_ratings(conn, table_id, result)
        with store.engine.begin() as conn:
            assert not record_ratings(conn, table_id, result)  # again: nothing
        expected = rate([(MU, SIGMA), (MU, SIGMA), BOT_RATINGS["hard"]], [2, 1, 3])
        got = store.ratings_of(a)["classic"], store.ratings_of(b)["classic"]
        assert got[0][:2] == pytest.approx(expected[0]) and got[0][2] == 1
        assert got[1][:2] == pytest.approx(expected[1]) and got[1][2] == 1
        # A second game starts from the ratings the first left.
        second = _stored_game(store, [b, a], {})
        with store.engine.begin() as conn:
            assert record_ratings(conn, second, _result([1, 2]))
        again = rate([got[1][:2], got[0][:2]], [1, 2])
        assert store.ratings_of(b)["classic"][:2] == pytest.approx(again[0])
        assert store.ratings_of(b)["classic"][2] == 2
        board = store.leaderboard("classic")
        assert [row[0] for row in board] == ["Ben", "Anna"]
        # Not rated: a guest at the table, or one account in two seats.
        for accounts in ([a, None], [a, a]):
            unrated = _stored_game(store, accounts, {})
            with store.engine.begin() as conn:
                assert not record_ratings(conn, unrated, _result([1, 2]))
        assert store.ratings_of(a)["classic"][2] == 2
    finally:
        store.close()


async def _sign_up(h: httpx.AsyncClient, base: str, name: str) -> dict[str, str]:
    r = await h.post("/api/accounts", json={"name": name, "password": PASSWORD},
                     headers={"Origin": base})  # fmt: skip
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"], "Origin": base}


@pytest.mark.asyncio
async def test_a_rated_game_with_a_bot_profiles_my_tables_and_the_leaderboard(
    sqlite_url: str,
) -> None:
    cfg = config(sqlite_url)
    app = create_app(cfg)
    async with (
        running(cfg, app=app) as base,
        httpx.AsyncClient(base_url=base, timeout=30) as anna,
        httpx.AsyncClient(base_url=base, timeout=30) as ben,
    ):
        pa = await _sign_up(anna, base, "Anna")
        pb = await _sign_up(ben, base, "Ben")
        body = {"name": "Anna", "players": 3, "bots": {"2": "random"}, "seed": 5}
        made = (await anna.post("/api/tables", json=body, headers=pa)).json()
        code = made["code"]
        joined = (await ben.post(f"/api/tables/{code}/join", json={"name": "Ben"},
                                 headers=pb)).json()  # fmt: skip
        mine = (await anna.get("/api/account/tables")).json()["tables"]
        assert [(t["table"]["code"], t["waits"]) for t in mine] == [(code, "open")]
        r = await anna.post(f"/api/tables/{code}/start",
                            headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip
        assert r.status_code == 200 and r.json()["rated"] is True
        a = PlayerClient(base, code, made["token"])
        b = PlayerClient(base, code, joined["token"])
        await a.connect()
        await b.connect()
        # My tables: whose turn it is, the player's own first.
        for h, seat in ((anna, 0), (ben, 1)):
            got = (await h.get("/api/account/tables")).json()["tables"][0]
            assert got["seat"] == seat and got["to_move"] is not None
            assert got["waits"] == ("you" if got["to_move"] == seat else "others")
        await asyncio.gather(a.play(), b.play())
        result = a.result
        assert result is not None
        await a.close()
        await b.close()
        ranks = [s["rank"] for s in result["seats"]]
        expected = rate([(MU, SIGMA), (MU, SIGMA), BOT_RATINGS["random"]], ranks)
        store = hub_of(app).store
        # The finish is processed again (another process's catch-up, a retry): no change.
        with store.engine.begin() as conn:
            table_id = store.table_by_code(code).id  # type: ignore[union-attr]
            assert not record_ratings(conn, table_id, result)
        prof = (await ben.get("/api/accounts/anna")).json()
        classic = prof["editions"]["classic"]
        assert classic["played"] == 1 and classic["won"] == (ranks[0] == 1)
        assert classic["rating"]["mu"] == pytest.approx(expected[0][0])
        assert classic["rating"]["rating"] == display(expected[0][0])
        game = prof["recent"][0]
        assert game["rated"] and game["rank"] == ranks[0] and game["replay"] == f"/replay/{code}"
        assert game["rating_before"] == 1500 and game["rating_after"] == display(expected[0][0])
        assert prof["you"] is False and (await anna.get("/api/accounts/Anna")).json()["you"]
        board = (await anna.get("/api/leaderboard?edition=classic")).json()
        names = [p["name"] for p in sorted(board["players"], key=lambda p: -p["mu"])]
        assert [p["name"] for p in board["players"]] == names and set(names) == {"Anna", "Ben"}
        assert board["bots"]["hard"] == display(BOT_RATINGS["hard"][0])
        assert (await anna.get("/api/account/tables")).json()["tables"] == []  # it is over
        info = (await anna.get("/api/info")).json()
        assert info["bot_ratings"] == board["bots"]
        for bad in ("/api/leaderboard?edition=chess", "/api/accounts/nobody"):
            r = await anna.get(bad)
            assert (r.status_code, r.json()["error"]["code"]) == (404, "not_found")
        r = await anna.get("/api/leaderboard?edition=classic&x=1")
        assert r.json()["error"]["code"] == "malformed"


@pytest.mark.asyncio
async def test_a_private_tables_code_shows_only_on_ones_own_profile(sqlite_url: str) -> None:
    cfg = config(sqlite_url)
    async with running(cfg) as base, httpx.AsyncClient(base_url=base, timeout=30) as h:
        proof = await _sign_up(h, base, "Solo")
        body = {"name": "Solo", "players": 2, "bots": {"1": "random"}, "public": False}
        made = (await h.post("/api/tables", json=body, headers=proof)).json()
        await h.post(f"/api/tables/{made['code']}/start",
                     headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip
        c = PlayerClient(base, made["code"], made["token"])
        await c.connect()
        await c.play()
        await c.close()
        own = (await h.get("/api/accounts/Solo")).json()["recent"][0]
        assert own["code"] == made["code"] and own["rated"]
        async with httpx.AsyncClient(base_url=base, timeout=30) as stranger:
            seen = (await stranger.get("/api/accounts/Solo")).json()["recent"][0]
        assert seen["code"] is None and seen["replay"] is None


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_finishing_move_and_the_ratings_are_one_write(
    kind: str, request: pytest.FixtureRequest
) -> None:
    """The result and the rating change are stored by the append of the last move, together;
    the same move stored again (a race lost, a retry) is refused and rates nothing more."""
    store = Store(request.getfixturevalue("sqlite_url" if kind == "sqlite" else "pg_url"))
    store.migrate()
    try:
        a = store.create_account("Anna", "anna", "x")
        b = store.create_account("Ben", "ben", "x")
        table_id = _stored_game(store, [a, b], {})
        assert store.start(table_id) == "started"
        result = _result([1, 2])
        store.append_action(table_id, 1, 0, {"type": "end_turn"}, result=result)
        with pytest.raises(WriteConflict):
            store.append_action(table_id, 1, 0, {"type": "end_turn"}, result=result)
        outcomes = store.append_actions([Append(table_id, 1, 0, {"type": "x"}, None, result)])
        assert isinstance(outcomes[0], WriteConflict)
        assert store.ratings_of(a)["classic"][2] == 1 and store.ratings_of(b)["classic"][2] == 1
        assert store.ratings_of(a)["classic"][0] > MU > store.ratings_of(b)["classic"][0]
        # A result without ranks: stored all the same, unrated (the game's end is never lost).
        other = _stored_game(store, [a, b], {})
        assert store.start(other) == "started"
        store.append_action(other, 1, 0, {"type": "end_turn"}, result={"seats": [{"x": 1}]})
        row = store.table_by_id(other)
        assert row is not None and row.status == "finished"
        assert store.ratings_of(a)["classic"][2] == 1
    finally:
        store.close()
