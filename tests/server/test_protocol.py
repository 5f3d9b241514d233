"""The protocol of docs/protocol.md against a real server (uvicorn on loopback, SQLite)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from citadels.engine.game import new_game
from citadels.server import client as client_module
from citadels.server.client import PlayerClient, http
from citadels.server.storage import Store
from tests.server.conftest import config, running


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def make_table(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Anna")
    status, out = await http(base, "POST", "/api/tables", body)
    assert status == 201, out
    return dict(out)


async def wait_for(client: PlayerClient, pred: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        msg = await client.recv(timeout=30)
        if pred(msg):
            return msg
    raise AssertionError("the message never came")


def test_create_join_start_and_lobby(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            st, info = await http(base, "GET", "/api/info")
            assert st == 200 and info["protocol"] == 1
            assert {e["id"] for e in info["editions"]} == {"basic", "dezh", "classic", "2016"}
            assert set(info["bot_levels"]) == {"random", "easy", "medium", "hard"}

            made = await make_table(
                base, edition="classic", players=4, preset="dark_city", complete_at=7,
                bots={"3": "easy"}, timer=60,
            )  # fmt: skip
            code, host = made["code"], made["token"]
            assert re.fullmatch(r"([A-HJKMNP-Z2-9]{4}-){3}[A-HJKMNP-Z2-9]{4}", code)
            assert made["seat"] == 0
            # The code as a person may type it: any case, without its dashes, spaces around.
            for typed in (code.lower(), code.replace("-", ""), f" {code} "):
                st, same = await http(base, "GET", f"/api/tables/{typed}")
                assert st == 200 and same["code"] == code
            table = made["table"]
            assert table["status"] == "open" and table["timer"] == 60
            assert table["options"] == {"preset": "dark_city", "complete_at": 7}
            assert [s["kind"] for s in table["seats"]] == ["human", "empty", "empty", "bot"]
            assert "token" not in str(table) and host not in str(table)

            st, lobby = await http(base, "GET", "/api/tables")
            assert code in [t["code"] for t in lobby["tables"]]

            st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": " Ben "})
            assert st == 200 and joined["seat"] == 1
            assert joined["table"]["seats"][1]["name"] == "Ben"
            st, err = await http(base, "POST", f"/api/tables/{code.lower()}/join",
                                 {"name": "Cy", "seat": 1})  # fmt: skip
            assert st == 409 and err["error"]["code"] == "seat_taken"

            # Only the host starts, and only with every seat taken.
            st, err = await http(base, "POST", f"/api/tables/{code}/start", token=joined["token"])
            assert st == 403 and err["error"]["code"] == "not_host"
            st, err = await http(base, "POST", f"/api/tables/{code}/start")
            assert st == 401 and err["error"]["code"] == "unauthorized"
            st, err = await http(base, "POST", f"/api/tables/{code}/start", token=host)
            assert st == 409 and err["error"]["code"] == "seats_empty"
            assert "2" in err["error"]["message"]

            # The host gives seat 2 to a bot, cannot give a player's seat away.
            st, err = await http(base, "POST", f"/api/tables/{code}/seats/1/bot",
                                 {"level": "easy"}, token=host)  # fmt: skip
            assert st == 409 and err["error"]["code"] == "seat_taken"
            st, err = await http(base, "POST", f"/api/tables/{code}/seats/2/bot",
                                 {"level": "genius"}, token=host)  # fmt: skip
            assert st == 400 and err["error"]["code"] == "bad_level"
            st, t = await http(base, "POST", f"/api/tables/{code}/seats/2/bot",
                               {"level": "medium"}, token=host)  # fmt: skip
            assert st == 200 and t["seats"][2]["kind"] == "bot"

            st, lobby = await http(base, "GET", "/api/tables")
            assert code not in [t["code"] for t in lobby["tables"]]  # no free seat any more
            st, started = await http(base, "POST", f"/api/tables/{code}/start", token=host)
            assert st == 200 and started["status"] == "playing"
            st, err = await http(base, "POST", f"/api/tables/{code}/start", token=host)
            assert st == 409 and err["error"]["code"] == "already_started"
            st, err = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Late"})
            assert st == 409 and err["error"]["code"] == "already_started"
            st, playing = await http(base, "GET", "/api/tables?status=playing")
            assert code in [t["code"] for t in playing["tables"]]
            st, err = await http(base, "GET", "/api/tables/ZZZZZZ")
            assert st == 404 and err["error"]["code"] == "not_found"

    run(go())


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"players": 9}, "bad_setup", "players"),
        ({"edition": "chess"}, "bad_setup", "chess"),
        ({"players": 8}, "bad_setup", "rank-9"),
        ({"edition": "basic", "complete_at": 7}, "bad_setup", "complete_at"),
        ({"preset": "grand_tour"}, "bad_setup", "grand_tour"),
        ({"name": ""}, "bad_name", "empty"),
        ({"name": "x" * 40}, "bad_name", "24"),
        ({"timer": 3}, "bad_request", "timer"),
        ({"pace": -1}, "bad_request", "pace"),
        ({"pace": 10_001}, "bad_request", "pace"),
        ({"pace": 1.5}, "bad_request", "pace"),
        ({"pace": "slow"}, "bad_request", "pace"),
        ({"pace": True}, "bad_request", "pace"),
        ({"bots": {"0": "easy"}}, "bad_request", "seat"),
        ({"bots": {"1": "godlike"}}, "bad_level", "godlike"),
        ({"colour": "red"}, "malformed", "colour"),
    ],
)
def test_create_rejects_bad_setups(sqlite_url: str, body: dict[str, Any], code: str,
                                   words: str) -> None:  # fmt: skip
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            status, out = await http(base, "POST", "/api/tables", {"name": "Anna", **body})
            assert status == 400, out
            assert out["error"]["code"] == code
            assert words in out["error"]["message"]
            _, lobby = await http(base, "GET", "/api/tables")
            assert lobby["tables"] == []

    run(go())


def test_the_host_sets_a_table_pace_that_is_stored_and_shown_to_every_browser(
    sqlite_url: str,
) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _, info = await http(base, "GET", "/api/info")
            assert info["pace"] == {"min": 0, "max": 10_000, "default": 1000}
            slow = await make_table(base, players=3, bots={"1": "easy", "2": "easy"}, pace=2000)
            plain = await make_table(base, players=3)
            at_once = await make_table(base, players=3, pace=0)
            assert slow["table"]["pace"] == 2000
            assert plain["table"]["pace"] is None and at_once["table"]["pace"] == 0
            # Stored with the table: a fresh read, and the lobby's list, say the same.
            st, got = await http(base, "GET", f"/api/tables/{slow['code']}")
            assert st == 200 and got["pace"] == 2000
            st, _ = await http(base, "POST", f"/api/tables/{slow['code']}/start",
                               token=slow["token"])  # fmt: skip
            assert st == 200
            st, got = await http(base, "GET", f"/api/tables/{slow['code']}")
            assert got["status"] == "playing" and got["pace"] == 2000
            _, lobby = await http(base, "GET", "/api/tables?status=open")
            paces = {t["code"]: t["pace"] for t in lobby["tables"]}
            assert paces[plain["code"]] is None and paces[at_once["code"]] == 0
            # The websocket's snapshot carries the same table object.
            me = PlayerClient(base, slow["code"], slow["token"], seed=1)
            snap = await me.connect()
            assert snap["type"] == "snapshot" and snap["table"]["pace"] == 2000
            await me.close()
        # And a new process reads it back from the database.
        store = Store(sqlite_url)
        try:
            row = store.table_by_code(slow["code"])
            assert row is not None and row.pace == 2000
        finally:
            store.close()

    run(go())


def test_a_solo_game_against_bots_is_private_unless_the_host_lists_it(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            every_bot = {"1": "easy", "2": "easy", "3": "easy"}
            solo = await make_table(base, players=4, bots=every_bot)
            listed_solo = await make_table(base, players=4, bots=every_bot, public=True)
            friends = await make_table(base, players=4, bots={"3": "easy"})
            hidden = await make_table(base, players=4, bots={"3": "easy"}, public=False)
            assert solo["table"]["public"] is False and listed_solo["table"]["public"] is True
            assert friends["table"]["public"] is True and hidden["table"]["public"] is False
            for made in (solo, listed_solo):
                st, _ = await http(
                    base, "POST", f"/api/tables/{made['code']}/start", token=made["token"]
                )
                assert st == 200
            _, playing = await http(base, "GET", "/api/tables?status=playing")
            assert [t["code"] for t in playing["tables"]] == [listed_solo["code"]]
            _, open_ = await http(base, "GET", "/api/tables?status=open")
            assert [t["code"] for t in open_["tables"]] == [friends["code"]]
            # A private table is still reached by its code.
            st, info = await http(base, "GET", f"/api/tables/{solo['code']}")
            assert st == 200 and info["status"] == "playing"
            # Before the game ends nobody replays it, from a seat or as a spectator.
            for query in ("", "?seat=0", "?seat=1"):
                st, err = await http(base, "GET", f"/api/tables/{solo['code']}/replay{query}")
                assert st == 409 and err["error"]["code"] == "not_finished"
            for bad in ("yes", 1, "null"):
                st, err = await http(base, "POST", "/api/tables", {"name": "Anna", "public": bad})
                assert st == 400 and err["error"]["code"] == "bad_request"

    run(go())


def test_play_a_whole_game_with_bots_spectator_chat_and_replay(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            made = await make_table(base, edition="basic", players=4,
                                    bots={"1": "random", "2": "easy", "3": "medium"})  # fmt: skip
            code = made["code"]
            me = PlayerClient(base, code, made["token"], seed=3)
            spec = PlayerClient(base, code)
            snap = await me.connect()
            assert snap["type"] == "snapshot" and snap["protocol"] == 1
            assert snap["you"] == {"seat": 0, "host": True, "spectator": False, "name": "Anna"}
            assert snap["view"] is None and snap["legal"] == []
            assert (await spec.connect())["you"]["spectator"] is True

            st, _ = await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            assert st == 200
            snap = await wait_for(me, lambda m: m["type"] == "snapshot")
            assert snap["view"]["seat"] == 0 and "hand" in snap["view"]["players"][0]
            assert "log" not in snap["view"] and snap["events"][0]["n"] == 0
            assert all(isinstance(e["text"], str) and e["text"] for e in snap["events"])

            # The chat: players write, spectators read only; names and text are cleaned.
            await me.send({"type": "chat", "text": "  hello\u202e <b>all</b>  "})
            said = await wait_for(spec, lambda m: m["type"] == "chat")
            assert said["text"] == "hello <b>all</b>" and said["seat"] == 0
            assert said["name"] == "Anna"
            await spec.send({"type": "chat", "text": "me too"})
            err = await wait_for(spec, lambda m: m["type"] == "error")
            assert err["code"] == "forbidden"

            async def watch() -> None:
                while spec.result is None:
                    await spec.recv()

            await asyncio.gather(me.play(), watch())
            assert me.result is not None and spec.result == me.result
            assert me.scores is not None and len(me.scores) == 4
            assert [r["rank"] for r in me.scores] == sorted(r["rank"] for r in me.scores)
            assert all(r["text"] for r in me.scores)
            # Every version arrived, in order, one event list after another.
            versions = [m["version"] for m in spec.received if m["type"] == "update"]
            assert versions == list(range(1, me.version + 1))
            assert [e["n"] for e in spec.events] == list(range(len(spec.events)))
            assert me.errors == []

            # The replay: spectator views after every action.
            st, rep = await http(base, "GET", f"/api/tables/{code}/replay?from=0&count=500")
            assert st == 200 and rep["steps"] == me.version
            assert len(rep["frames"]) == min(500, me.version + 1)
            assert rep["frames"][0]["version"] == 0 and rep["frames"][0]["view"]["seat"] is None
            assert all("hand" not in p for f in rep["frames"] for p in f["view"]["players"])
            events = [e for f in rep["frames"] for e in f["events"]]
            assert [e["n"] for e in events] == list(range(len(events)))
            assert rep["result"] == me.result
            # The replay titles its score columns as the game's end did.
            ended = [m for m in me.received if m.get("score_headers")]
            assert ended and rep["score_headers"] == ended[-1]["score_headers"]
            st, page = await http(base, "GET", f"/api/tables/{code}/replay?from=5&count=2")
            assert [f["version"] for f in page["frames"]] == [5, 6]
            # From a seat: that seat's hand in every frame, nobody else's; the same steps.
            st, mine = await http(base, "GET", f"/api/tables/{code}/replay?seat=0&count=500")
            assert st == 200 and mine["seat"] == 0 and mine["steps"] == rep["steps"]
            assert all(f["view"]["seat"] == 0 for f in mine["frames"])
            assert all("hand" in f["view"]["players"][0] for f in mine["frames"])
            assert all("hand" not in p for f in mine["frames"] for p in f["view"]["players"][1:])
            mine_events = [e for f in mine["frames"] for e in f["events"]]
            assert [e["n"] for e in mine_events] == [e["n"] for e in events]
            # Seat 0's own picks are in its events, hidden in the spectator's.
            assert any(e.get("character") for e in mine_events if e["kind"] == "pick")
            assert not any(e.get("character") for e in events if e["kind"] == "pick")
            # The seat's token names the seat it holds (the browser replays from it); no
            # token, or a token of no seat, names none.
            assert rep["you"] is None and mine["you"] is None
            st, own = await http(
                base, "GET", f"/api/tables/{code}/replay?count=1", token=made["token"]
            )
            assert st == 200 and own["you"] == 0 and own["seat"] is None
            st, other = await http(base, "GET", f"/api/tables/{code}/replay?count=1", token="x")
            assert st == 200 and other["you"] is None
            for bad in ("4", "-1", "x"):
                st, err = await http(base, "GET", f"/api/tables/{code}/replay?seat={bad}")
                assert st == 400 and err["error"]["code"] == "bad_request"
            st, _ = await http(base, "GET", "/api/tables?status=finished")
            assert st == 200
            await me.close()
            await spec.close()

    run(go())


def test_act_errors_change_nothing(sqlite_url: str) -> None:
    """stale_version, not_your_turn, illegal_action (with the rule), forbidden, not_started."""

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            made = await make_table(base, edition="classic", players=2)
            code = made["code"]
            _st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
            a = PlayerClient(base, code, made["token"], lang="ru")
            b = PlayerClient(base, code, joined["token"])
            spec = PlayerClient(base, code)
            await a.connect()
            await b.connect()
            await spec.connect()
            await a.act({"type": "gather_gold"}, 0)
            err = await wait_for(a, lambda m: m["type"] == "error")
            assert err["code"] == "not_started" and err["ref"] == "a1"
            await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            await wait_for(a, lambda m: m["type"] == "snapshot")
            await wait_for(b, lambda m: m["type"] == "snapshot")
            mover, other = (a, b) if a.legal else (b, a)
            assert mover.legal and not other.legal
            before = mover.view

            await other.act(mover.legal[0]["action"])
            err = await wait_for(other, lambda m: m["type"] == "error")
            assert err["code"] == "not_your_turn" and err["version"] == 0
            await mover.act({"type": "build", "district": "palace"})
            err = await wait_for(mover, lambda m: m["type"] == "error")
            assert err["code"] == "illegal_action" and err["rule"] == "C-4"
            # Issue 11: the error in words, in the connection's language, naming its rule.
            words = {a: "Правило C-4: выбор персонажей.", b: "Rule C-4: choosing characters."}
            assert err["text"].endswith(words[mover]), err["text"]
            await mover.act({"type": "pick", "character": "no_such"})
            err = await wait_for(mover, lambda m: m["type"] == "error")
            assert err["code"] == "illegal_action"
            await mover.act({"type": "fly"})
            err = await wait_for(mover, lambda m: m["type"] == "error")
            assert err["code"] == "malformed"
            await mover.act(mover.legal[0]["action"], version=7)
            err = await wait_for(mover, lambda m: m["type"] == "error")
            assert err["code"] == "stale_version" and err["version"] == 0
            await spec.act({"type": "gather_gold"}, 0)
            err = await wait_for(spec, lambda m: m["type"] == "error")
            assert err["code"] == "forbidden"

            # Nothing changed: a fresh snapshot is the same view at version 0.
            await mover.send({"type": "sync", "since": 0})
            snap = await wait_for(mover, lambda m: m["type"] == "snapshot")
            assert snap["version"] == 0 and snap["view"] == before

            # The right action is accepted once; its duplicate is stale.
            action = mover.legal[0]["action"]
            ref = await mover.act(action, 0)
            upd = await wait_for(mover, lambda m: m["type"] == "update")
            assert upd["version"] == 1 and upd["ack"] == ref and upd["by"] == mover.seat
            other_upd = await wait_for(other, lambda m: m["type"] == "update")
            assert "ack" not in other_upd and other_upd["version"] == 1
            await mover.act(action, 0)
            err = await wait_for(mover, lambda m: m["type"] == "error")
            assert err["code"] == "stale_version" and err["version"] == 1

            for c in (a, b, spec):
                await c.close()

    run(go())


def test_reconnect_resumes_with_only_the_missed_events(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, grace=30)) as base:
            made = await make_table(base, edition="classic", players=3,
                                    bots={"1": "random", "2": "random"})  # fmt: skip
            code = made["code"]
            me = PlayerClient(base, code, made["token"], seed=5)
            await me.connect()
            await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            await wait_for(me, lambda m: m["type"] == "snapshot")
            for _ in range(3):  # play a few of my decisions
                while not me.legal:
                    await me.recv()
                await me.act(me.legal[0]["action"])
                await wait_for(me, lambda m: m["type"] == "update" and "ack" in m)
            view, events, count = me.view, list(me.events), me.event_count
            await me.close()

            again = PlayerClient(base, code, made["token"])
            again.events, again.event_count = events, count
            snap = await again.connect()
            assert snap["you"]["seat"] == 0
            assert all(e["n"] >= count for e in snap["events"])
            assert [e["n"] for e in again.events] == list(range(len(again.events)))
            if snap["version"] == me.version:
                assert snap["view"] == view and snap["events"] == []
            # The same seat from a second connection sees the same hand.
            twin = PlayerClient(base, code, made["token"])
            twin_snap = await twin.connect()
            assert twin_snap["view"]["players"][0]["hand"] == snap["view"]["players"][0]["hand"]
            await again.close()
            await twin.close()

    run(go())


def test_stand_in_bot_plays_for_a_player_who_left_until_they_return(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, grace=0.1)) as base:
            made = await make_table(base, edition="basic", players=2)
            code = made["code"]
            _st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
            watcher = PlayerClient(base, code, made["token"])
            await watcher.connect()
            await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            await wait_for(watcher, lambda m: m["type"] == "snapshot")
            # Ben never connects: his decisions are played for him, and he is away.
            seen_away = False
            acted = -1
            while watcher.version < 12:
                if watcher.legal and watcher.version != acted:
                    acted = watcher.version
                    await watcher.act(watcher.legal[0]["action"])
                msg = await watcher.recv()
                if msg["type"] == "table" and msg["table"]["seats"][1]["away"]:
                    seen_away = True
            assert seen_away
            ben = PlayerClient(base, code, joined["token"])
            snap = await ben.connect()
            assert snap["table"]["seats"][1]["away"] is False
            assert snap["table"]["seats"][1]["connected"] is True
            await ben.close()
            await watcher.close()

    run(go())


def test_turn_timer_hands_the_decision_to_the_stand_in(sqlite_url: str, monkeypatch: Any) -> None:
    import citadels.server.lobby as lobby

    monkeypatch.setattr(lobby, "TIMER_MIN", 1)

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            made = await make_table(base, edition="basic", players=2, bots={"1": "random"},
                                    timer=1)  # fmt: skip
            code = made["code"]
            me = PlayerClient(base, code, made["token"])
            await me.connect()
            await http(base, "POST", f"/api/tables/{code}/start", token=made["token"])
            snap = await wait_for(me, lambda m: m["type"] == "snapshot")
            if snap["legal"]:
                assert snap["deadline"] is not None
            # I never act: the stand-in plays my decisions once the deadline passes.
            mine = await wait_for(me, lambda m: m["type"] == "update" and m["by"] == 0)
            assert mine["version"] >= 1
            away = [m for m in me.received if m["type"] == "table"]
            assert any(m["table"]["seats"][0]["away"] for m in away)
            await me.close()

    run(go())


def test_pages_serve_the_client_or_say_it_is_missing(sqlite_url: str, tmp_path: Path) -> None:
    web = tmp_path / "web"

    async def go() -> None:
        async with (
            running(config(sqlite_url, web_dir=web)) as base,
            httpx.AsyncClient(base_url=base) as client,
        ):
            r = await client.get("/")
            assert r.status_code == 503 and "not installed" in r.text
            web.mkdir()
            (web / "index.html").write_text("<!doctype html><title>Citadels</title>")
            (web / "app.js").write_text("console.log(1)")
            for path in ("/", "/t/ABCDEF", "/replay/ABCDEF"):
                r = await client.get(path)
                assert r.status_code == 200 and "<title>Citadels</title>" in r.text
            assert (await client.get("/app.js")).text == "console.log(1)"
            assert (await client.get("/static/app.js")).status_code == 200
            assert (await client.get("/../pyproject.toml")).status_code == 404
            assert (await client.get("/static/%2e%2e/x")).status_code == 404
            assert (await client.get("/healthz")).json() == {"ok": True, "protocol": 1}

    run(go())


def test_names_are_cleaned(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            made = await make_table(base, name="An\u0000na\u202e\u200c  K")
            assert made["table"]["seats"][0]["name"] == "Anna\u200c K"
            st, err = await http(base, "POST", f"/api/tables/{made['code']}/join",
                                 {"name": "\u0007\u202e"})  # fmt: skip
            assert st == 400 and err["error"]["code"] == "bad_name"

    run(go())


def test_a_table_survives_in_storage(sqlite_url: str) -> None:
    """What the server stored replays to the game its clients saw."""

    async def go() -> tuple[str, dict[str, Any]]:
        async with running(config(sqlite_url)) as base:
            made = await make_table(base, edition="dezh", players=3,
                                    bots={"1": "random", "2": "random"})  # fmt: skip
            me = PlayerClient(base, made["code"], made["token"], seed=1)
            await me.connect()
            await http(base, "POST", f"/api/tables/{made['code']}/start", token=made["token"])
            await me.play(timeout=60)
            assert me.view is not None
            return made["code"], me.view

    code, last_view = run(go())
    store = Store(sqlite_url)
    row = store.table_by_code(code)
    assert row is not None and row.status == "finished" and row.result is not None
    game = new_game(row.edition, row.players, seed=row.seed, **row.options)
    for _seat, action in store.actions(row.id):
        game.apply_json(action)
    assert game.is_over and game.result().to_json() == row.result
    expected = game.view(0)
    expected.pop("log")
    assert expected == last_view
    store.close()


def test_cards_endpoint_gives_every_card_with_its_colour_in_words(sqlite_url: str) -> None:
    """Card texts for hover/tap: every card of the edition, colours as symbol and word."""

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            status, out = await http(base, "GET", "/api/cards/classic?lang=en")
            assert status == 200
            ids = {c["id"] for c in out["cards"]}
            assert {"assassin", "warlord", "market", "haunted_city", "queen"} <= ids
            market = next(c for c in out["cards"] if c["id"] == "market")
            assert market["cost"] == 2 and market["colour_word"] and market["colour_symbol"]
            assassin = next(c for c in out["cards"] if c["id"] == "assassin")
            assert assassin["rank"] == 1 and assassin["power"]
            assert all(set(v) == {"symbol", "word", "letter"} for v in out["colours"].values())
            status, out = await http(base, "GET", "/api/cards/chess")
            assert status == 404 and out["error"]["code"] == "not_found"
            status, out = await http(base, "GET", "/api/cards/basic?lang=<script>")
            assert status == 400 and out["error"]["code"] == "bad_request"

    run(go())


def test_info_names_the_presets_and_a_seed_fixes_the_deal(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _, info = await http(base, "GET", "/api/info")
            classic = next(e for e in info["editions"] if e["id"] == "classic")
            assert set(classic["preset_titles"]) == set(classic["presets"])
            assert classic["preset_titles"]["dark_city"].startswith("Dark City: Wizard")
            await make_table(base, edition="basic", players=3, seed=12345)
            status, out = await http(base, "POST", "/api/tables", {"name": "Anna", "seed": "12345"})
            assert status == 400 and "seed" in out["error"]["message"]
            status, out = await http(base, "POST", "/api/tables", {"name": "Anna", "seed": -1})
            assert status == 400 and out["error"]["code"] == "bad_setup"

    run(go())
    store = Store(sqlite_url)
    try:
        assert [t.seed for t in store.list_tables("open")] == [12345]
    finally:
        store.close()


def test_a_remote_search_bot_plays_from_what_the_protocol_sends(sqlite_url: str) -> None:
    """A search bot over the protocol: the view and the events it was sent, with the table's
    options, are all it needs (no game record, no sampler of the live game)."""
    from citadels.bots import ISMCTSBot
    from citadels.engine.actions import action_from_json

    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            made = await make_table(
                base, edition="classic", players=3, preset="dark_city",
                bots={"1": "medium", "2": "hard"},
            )  # fmt: skip
            bot = ISMCTSBot(5, iterations=8)
            bot.options = dict(made["table"]["options"])
            searched = []

            def choose(legal: list[dict[str, Any]], _view: dict[str, Any]) -> dict[str, Any]:
                view = me.whole_view()
                assert view is not None
                action = bot.choose(view, [action_from_json(x["action"]) for x in legal])
                searched.append(bot.last_iterations)
                return action.to_json()  # type: ignore[no-any-return]

            me = PlayerClient(base, made["code"], made["token"], choose=choose)
            await me.connect()
            start = f"/api/tables/{made['code']}/start"
            st, _ = await http(base, "POST", start, token=made["token"])
            assert st == 200
            await me.play(timeout=300)
            assert me.result is not None and me.errors == []
            assert sum(1 for n in searched if n == 8) > 10  # real searches, not forced moves
            await me.close()

    run(go())


class _FakeSocket:
    """Hands out queued server messages and keeps what the client sends."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self._raw = [json.dumps(m) for m in messages]
        self.sent: list[dict[str, Any]] = []

    async def recv(self) -> str:
        return self._raw.pop(0)

    async def send(self, data: str) -> None:
        self.sent.append(json.loads(data))


def _update(first: int, count: int, version: int) -> dict[str, Any]:
    events = [{"kind": "x", "seat": None, "n": n, "text": ""} for n in range(first, count)]
    return {"type": "update", "version": version, "event_count": count, "view": {},
            "legal": [], "events": events, "by": 0}  # fmt: skip


def test_player_client_asks_for_a_sync_when_an_update_is_out_of_step() -> None:
    # The protocol (docs/protocol.md, update): an update that does not start at the client's
    # event count means it missed something; the client sends sync and keeps nothing of it.
    client = PlayerClient("http://127.0.0.1:1", "ABCDEF", "token", strict=False)
    fake = _FakeSocket([_update(0, 3, 1), _update(5, 7, 3), _update(3, 5, 2)])
    client._ws = fake

    async def run() -> None:
        await client.recv()
        assert [e["n"] for e in client.events] == [0, 1, 2] and fake.sent == []
        await client.recv()  # events 5-6 while the client holds 3: a gap
        assert fake.sent == [{"type": "sync", "since": 3}]
        assert [e["n"] for e in client.events] == [0, 1, 2] and client.version == 1
        await client.recv()  # the late one fits and is kept
        assert [e["n"] for e in client.events] == [0, 1, 2, 3, 4] and client.version == 2

    asyncio.run(run())


def test_player_client_asks_once_for_a_run_of_out_of_step_updates() -> None:
    # One sync for every update already on its way before the snapshot: one per update could
    # spend the connection's message budget (the server answers rate_limited), as seen under
    # load in test_processes.
    client = PlayerClient("http://127.0.0.1:1", "ABCDEF", "token", strict=False)
    late = [_update(5 + k, 6 + k, 2 + k) for k in range(40)]
    snapshot = {**_update(0, 45, 42), "type": "snapshot", "you": {"seat": 0}, "chat": []}
    fake = _FakeSocket([_update(0, 2, 1), *late, snapshot, _update(50, 51, 43)])
    client._ws = fake

    async def run() -> None:
        for _ in range(42):
            await client.recv()
        assert fake.sent == [{"type": "sync", "since": 2}]
        assert client.version == 42 and [e["n"] for e in client.events] == list(range(45))
        await client.recv()  # in step again, so the next gap asks at once
        assert fake.sent[-1] == {"type": "sync", "since": 45}

    asyncio.run(run())


def test_player_client_asks_again_when_a_sync_goes_unanswered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = iter([100.0, 101.0, 100.0 + client_module.SYNC_RETRY + 0.5])

    class Clock:
        """The client's ``time`` module: each reading is the next of ``readings``."""

        @staticmethod
        def perf_counter() -> float:
            return next(readings)

        @staticmethod
        def monotonic() -> float:  # the pace of play() (not used here)
            return 0.0

    monkeypatch.setattr("citadels.server.client.time", Clock)
    client = PlayerClient("http://127.0.0.1:1", "ABCDEF", "token", strict=False)
    fake = _FakeSocket([_update(5, 6, 2), _update(6, 7, 3), _update(7, 8, 4)])
    client._ws = fake

    async def run() -> None:
        for _ in range(3):
            await client.recv()

    asyncio.run(run())
    assert fake.sent == [{"type": "sync", "since": 0}] * 2
