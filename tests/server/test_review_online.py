"""Reviews and hints on the server (issue 27): who may ask, the queue and its limits, a
finished game's review computed once and reused, hints logged at a table with friends.

Budgets are tiny (a few iterations) so that every test runs in seconds; what they check does
not depend on the budget."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from citadels.server import reviews
from citadels.server.client import PlayerClient, http
from tests.server.conftest import config, running
from tests.server.test_hostile import next_error, started_table

FAST = {"review_budget": 4, "hint_budget": 8}


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def solo_table(base: str, seed: int = 5) -> tuple[str, str, PlayerClient]:
    """A 2-player basic game against an easy bot, started, its player connected."""
    _st, made = await http(base, "POST", "/api/tables", {
        "name": "Anna", "edition": "basic", "players": 2, "bots": {"1": "easy"}, "seed": seed,
    })  # fmt: skip
    code, token = made["code"], made["token"]
    st, _ = await http(base, "POST", f"/api/tables/{code}/start", token=token)
    assert st == 200
    c = PlayerClient(base, code, token)
    await c.connect()
    return code, token, c


async def friends_table(
    base: str, hints: bool
) -> tuple[str, list[str], PlayerClient, PlayerClient]:
    """Two people at a 2-player basic game (``hints``: the host's setting), started."""
    return await started_table(base, edition="basic", hints=hints, seed=3)


async def until_my_turn(c: PlayerClient) -> None:
    while not c.legal:
        await c.recv(timeout=30)


async def answer(c: PlayerClient, ref: str) -> dict[str, Any]:
    """The ``hint`` message or the error that answers ``ref``."""
    for _ in range(200):
        msg = await c.recv(timeout=30)
        if msg["type"] in ("hint", "error") and msg.get("ref") == ref:
            return msg
    raise AssertionError(f"nothing answered {ref}")


async def get_review(
    base: str, code: str, seat: Any, token: str | None = None, **extra: str
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        r = await client.get(
            f"/api/tables/{code}/review", params={"seat": seat, **extra}, headers=headers
        )
    return r.status_code, r.json()


def test_a_solo_game_has_hints_and_its_review_is_computed_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed: list[int] = []
    real = reviews.review_job

    def counting(record: dict[str, Any], seat: int, budget: int, seed: int) -> dict[str, Any]:
        computed.append(seat)
        return real(record, seat, budget, seed)

    monkeypatch.setattr(reviews, "review_job", counting)

    async def go() -> None:
        async with running(config(sqlite_url, **FAST)) as base:
            code, token, c = await solo_table(base)
            assert c.received[-1]["table"]["hints_allowed"] is True
            await until_my_turn(c)
            got = await answer(c, await c.hint())
            assert got["type"] == "hint" and got["seat"] == 0 and got["version"] == c.version
            assert got["budget"] == FAST["hint_budget"]
            legal = [entry["action"] for entry in c.legal]
            assert 1 <= len(got["best"]) <= 3
            for e in got["best"]:
                assert e["action"] in legal and e["label"]
                assert e["chance"] is None or 0 <= e["chance"] <= 1
            assert c.hints_used == []  # a solo game logs nothing
            await c.play()
            await c.close()
            # Anyone, without a token, once it has ended; twice at once: one computation.
            (st1, r1), (st2, r2) = await asyncio.gather(
                get_review(base, code, 1), get_review(base, code, 1, lang="ru")
            )
            assert st1 == st2 == 200, (r1, r2)
            assert computed == [1]
            assert r1["stored"] is False and r1["review"]["budget"] == FAST["review_budget"]
            st, again = await get_review(base, code, 1)
            assert st == 200 and again["stored"] is True and computed == [1]
            assert _numbers(again["review"]) == _numbers(r1["review"]) == _numbers(r2["review"])
            assert r2["lang"] == "ru" and r2["review"]["labels"]["good"] != "good"
            # Its own seat, by its player: computed once too, and every seat has a curve.
            st, mine = await get_review(base, code, 0, token)
            assert st == 200 and computed == [1, 0]
            review = mine["review"]
            assert review["seat"] == 0 and review["over"] is True
            assert {p["seat"] for p in review["curve"]} == {0, 1}
            assert len(review["decisions"]) > 5
            for d in review["decisions"]:
                assert d["chosen"]["text"] and d["label_text"] and d["best"][0]["text"]
                assert d["label"] in reviews.LABELS
            assert 1 <= len(review["key_moment_texts"]) <= 3
            assert mine["steps"] == max(p["move"] for p in review["curve"])

    run(go())


def _numbers(review: dict[str, Any]) -> Any:
    """A worded review without its words (the same review in any language)."""
    return [
        (d["move"], d["label"], d["loss"], d["chosen"]["chance"], [e["chance"] for e in d["best"]])
        for d in review["decisions"]
    ], review["curve"]


def test_who_may_ask_during_a_game_with_friends(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, **FAST)) as base:
            _st, made = await http(base, "POST", "/api/tables", {"name": "Zoe", "players": 2})
            st, err = await get_review(base, made["code"], 0, made["token"])
            assert st == 409 and err["error"]["code"] == "not_started"

            code, tokens, a, b = await friends_table(base, hints=False)
            assert a.received[-1]["table"]["hints_allowed"] is False
            spectator = PlayerClient(base, code)
            await spectator.connect()
            # A spectator of a live game: neither a hint nor a review of any seat.
            got = await answer(spectator, await spectator.hint())
            assert got["type"] == "error" and got["code"] == "forbidden", got
            for seat in (0, 1):
                st, err = await get_review(base, code, seat)
                assert st == 403 and err["error"]["code"] == "forbidden", err
            # A player: not another seat's review, and no hint nor review of their own here.
            st, err = await get_review(base, code, 1, tokens[0])
            assert st == 403 and err["error"]["code"] == "forbidden"
            st, err = await get_review(base, code, 0, tokens[0])
            assert st == 403 and err["error"]["code"] == "hints_off"
            mover = a if a.legal else b
            got = await answer(mover, await mover.hint())
            assert got["type"] == "error" and got["code"] == "hints_off", got
            # Hostile queries get the documented errors.
            for params, code_ in (({"seat": 7}, "bad_request"), ({"seat": "x"}, "bad_request"),
                                  ({"seat": -1}, "bad_request"), ({"seat": "1.5"}, "bad_request"),
                                  ({"seat": 0, "budget": "9999"}, "malformed")):  # fmt: skip
                seat = params.pop("seat")
                st, err = await get_review(base, code, seat, tokens[0], **params)
                assert st == 400 and err["error"]["code"] == code_, (seat, params, err)
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                r = await client.get(f"/api/tables/{code}/review")
                assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
                r = await client.get("/api/tables/NOPE/review?seat=0")
                assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
            for bad in ({"type": "hint"}, {"type": "hint", "version": "0"},
                        {"type": "hint", "version": 0, "budget": 10**6},
                        {"type": "hint", "version": True}):  # fmt: skip
                await mover.send(bad)
                assert (await next_error(mover))["code"] == "malformed", bad
            for c in (a, b, spectator):
                await c.close()

    run(go())


def test_a_hint_at_a_friends_table_is_logged_for_everyone(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, **FAST)) as base:
            code, tokens, a, b = await friends_table(base, hints=True)
            assert a.received[-1]["table"]["hints_allowed"] is True
            spectator = PlayerClient(base, code)
            await spectator.connect()
            mover, other = (a, b) if a.legal else (b, a)
            got = await answer(other, await other.hint())
            assert got["type"] == "error" and got["code"] == "not_your_turn"
            got = await answer(mover, await mover.hint(version=mover.version + 5))
            assert got["type"] == "error" and got["code"] == "stale_version"
            got = await answer(mover, await mover.hint())
            assert got["type"] == "hint" and got["best"]
            for c in (other, spectator):
                while not c.hints_used:
                    await c.recv(timeout=30)
            for c in (mover, other, spectator):
                assert [(u["seat"], u["kind"], u["version"]) for u in c.hints_used] == [
                    (mover.seat, "hint", mover.version)
                ]
                assert c.hints_used[0]["event_count"] == mover.event_count
            # A live review of one's own seat: only its own curve, and logged the same way.
            token = tokens[mover.seat or 0]
            st, live = await get_review(base, code, mover.seat, token)
            assert st == 200 and live["stored"] is False and live["review"]["over"] is False
            assert {p["seat"] for p in live["review"]["curve"]} <= {mover.seat}
            while len(other.hints_used) < 2:
                await other.recv(timeout=30)
            assert other.hints_used[1]["kind"] == "review"
            # Someone who connects later finds both in the snapshot, and so does the replay.
            late = PlayerClient(base, code)
            snap = await late.connect()
            assert [u["kind"] for u in snap["hints_used"]] == ["hint", "review"]
            for c in (a, b, spectator, late):
                await c.close()

    run(go())


def test_a_full_queue_answers_busy_and_a_table_its_limit(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    started: list[int] = []
    real = reviews.hint_job

    def held(view: dict[str, Any], options: dict[str, Any], budget: int, seed: int) -> Any:
        started.append(view["seat"])
        release.wait(30)
        return real(view, options, budget, seed)

    monkeypatch.setattr(reviews, "hint_job", held)

    async def go() -> None:
        cfg = config(sqlite_url, **FAST, review_queue=2, review_per_table=1, bot_workers=3)
        async with running(cfg) as base:
            tables = [await solo_table(base, seed) for seed in (1, 2, 3)]
            for _code, _token, c in tables:
                await until_my_turn(c)
            (_, _, first), (_, _, second), (_, _, third) = tables
            r1 = await first.hint()
            r1b = await first.hint()  # the same table again: its limit
            got = await answer(first, r1b)
            assert got["type"] == "error" and got["code"] == "table_busy", got
            r2 = await second.hint()  # another table: queued (hints run one at a time)
            for _ in range(100):
                if started:
                    break
                await asyncio.sleep(0.05)
            got = await answer(third, await third.hint())  # the queue is full
            assert got["type"] == "error" and got["code"] == "busy", got
            assert "try again" in got["message"] and got["text"]
            _info = (await http(base, "GET", "/api/info"))[1]
            assert _info["review"]["queue"] == 2 and _info["review"]["per_table"] == 1
            release.set()
            assert (await answer(first, r1))["type"] == "hint"
            assert (await answer(second, r2))["type"] == "hint"
            # Once the queue has room again, the third table is served.
            assert (await answer(third, await third.hint()))["type"] == "hint"
            for _code, _token, c in tables:
                await c.close()

    run(go())


def test_a_stored_review_is_read_back_whole() -> None:
    """``review_from_json`` (what the server words a stored review with) gives back the review
    it was made from, each decision with the seat's view at that moment."""
    from citadels import new_game
    from citadels.bots import make_bot
    from citadels.present.review import key_moment_lines
    from citadels.review import review_from_json, review_game
    from citadels.sim import play_game

    game = new_game("basic", 2, seed=4)
    play_game(game, [make_bot("easy", seed=s) for s in range(2)])
    review = review_game(game, 1, budget=4)
    again = review_from_json(review.to_json(), game)
    assert again.to_json() == review.to_json()
    assert [d.view for d in again.decisions] == [d.view for d in review.decisions]
    assert key_moment_lines(again, "fa") == key_moment_lines(review, "fa")
    with pytest.raises(ValueError):
        review_from_json({"format": "other"}, game)
