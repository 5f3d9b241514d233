"""Property-based tests of every WebSocket message and HTTP body (issue 23, item 4): any JSON
value, any nesting, any type in any field gets a documented error (or its normal answer),
never a 500, never ``internal``, and never a socket dropped without a documented close code.
The HTTP API is also fuzzed by schemathesis from the OpenAPI document the server publishes."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from citadels.server import openapi, schema
from citadels.server.accounts import SignInLimits
from citadels.server.limits import Limits
from tests.server.conftest import CHEAP_ACCOUNTS, config, running

#: The error codes docs/protocol.md lists (the WebSocket's and the ones HTTP adds).
WS_CODES = {
    "malformed", "too_large", "hello_required", "unsupported_protocol", "unauthorized",
    "not_found", "forbidden", "not_started", "stale_version", "not_your_turn",
    "illegal_action", "game_over", "rate_limited", "bad_name", "bad_chat",
    "unsupported_language", "hints_off", "busy", "table_busy", "too_many_connections",
    "spectators_full",
}  # fmt: skip
HTTP_CODES = WS_CODES | {
    "bad_request", "bad_setup", "bad_level", "seat_taken", "table_full", "already_started",
    "seats_empty", "not_host", "not_finished", "method_not_allowed",
    # Accounts (docs/accounts.md).
    "bad_account_name", "bad_password", "name_taken", "wrong_password", "signin_throttled",
    "csrf_failed", "bad_origin", "signed_out", "weak_password", "same_password",
    "wrong_current_password",
    # Turn-based tables' "your turn" e-mails (docs/accounts.md).
    "bad_email",
}  # fmt: skip
#: The close codes docs/protocol.md lists.
CLOSE_CODES = {1003, 1009, 4400, 4401, 4404, 4408, 4413, 4429, 4430, 4431}

EXAMPLES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Live:
    """A server running in a thread of its own (hypothesis drives it synchronously), with a
    started two-seat table and an open three-seat one."""

    def __init__(self, db: str) -> None:
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.base = ""
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(db),), daemon=True)
        self._thread.start()
        if not self._ready.wait(60):
            raise RuntimeError("the server did not start")
        with httpx.Client(base_url=self.base, timeout=30) as h:
            made = h.post("/api/tables", json={"name": "Anna", "players": 2}).json()
            joined = h.post(f"/api/tables/{made['code']}/join", json={"name": "Ben"}).json()
            h.post(f"/api/tables/{made['code']}/start",
                   headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip
            self.code, self.tokens = made["code"], [made["token"], joined["token"]]
            lobby = h.post("/api/tables", json={"name": "Host", "players": 3}).json()
            self.open_code, self.host = lobby["code"], lobby["token"]
            signed = h.post("/api/accounts", json={"name": "Prop", "password": "prop's password"})
            self.cookie = signed.headers["set-cookie"].split(";")[0]
            self.csrf = signed.json()["csrf"]

    async def _serve(self, db: str) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        # The per-address buckets are off: this suite sends thousands of frames from one address
        # to test the schemas; tests/server/test_limits.py tests the buckets.
        cfg = config(
            db, limits=Limits(throttle=False),
            accounts=replace(CHEAP_ACCOUNTS, limits=SignInLimits(throttle=False)),
        )  # fmt: skip
        async with running(cfg) as base:
            self.base = base
            self._ready.set()
            await self._stop.wait()

    def close(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def ws(self, code: str | None = None) -> ClientConnection:
        url = self.base.replace("http://", "ws://") + f"/ws/{code or self.code}"
        return connect(url, max_size=2**24, open_timeout=30)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    db = tmp_path_factory.mktemp("props") / "citadels.sqlite3"
    server = Live(f"sqlite:///{db}")
    try:
        yield server
    finally:
        server.close()


# --- strategies ----------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=80)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                  max_size=4),
    max_leaves=12,
)  # fmt: skip


def _field_values(name: str, live_tokens: list[str]) -> st.SearchStrategy[Any]:
    """A field's value: often one of the right type, sometimes any JSON value."""
    plausible: dict[str, st.SearchStrategy[Any]] = {
        "protocol": st.sampled_from([1, 0, 2, True, 1.0, "1"]),
        "token": st.sampled_from([*live_tokens, "nope", None, ""]),
        "since": st.integers(min_value=-3, max_value=2**64),
        "lang": st.sampled_from(["en", "fa-IR", "ru_RU", "xx", "", "x" * 40]),
        "action": st.sampled_from(
            [{"type": "pick", "character": "king"}, {"type": "end_turn"}, {"type": "pick"}, {}]
        ),
        "version": st.integers(min_value=-2, max_value=3),
        "id": st.sampled_from(["a1", "x" * 64, "x" * 65, None]),
        "text": st.text(max_size=400),
    }
    return plausible.get(name, st.nothing()) | json_values


@st.composite
def messages(draw: st.DrawFn, tokens: list[str]) -> dict[str, Any]:
    """A message of one of the protocol's types (or another), each field right, wrong or
    absent, sometimes with fields no message has."""
    kind = draw(st.sampled_from([*schema.MESSAGES, "dance", ""]))
    model = schema.MESSAGES.get(kind)
    msg: dict[str, Any] = {"type": kind}
    for name in model.model_fields if model else ():
        if name != "type" and draw(st.booleans()):
            msg[name] = draw(_field_values(name, tokens))
    if draw(st.integers(0, 4)) == 0:
        msg.update(draw(st.dictionaries(st.text(max_size=10), json_values, max_size=2)))
    if draw(st.integers(0, 6)) == 0:
        msg["type"] = draw(json_values)
    return msg


def _nested(depth: int, opener: str) -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return '{"a":' * depth + "1" + closer * depth
    return opener * depth + closer * depth


frames = st.one_of(
    json_values.map(json.dumps),
    st.builds(_nested, st.integers(1, 4000), st.sampled_from("[{")),
    st.builds(
        lambda d: '{"type": "act", "version": 0, "action": ' + "[" * d + "]" * d + "}",
        st.integers(1, 3000),
    ),
    st.text(max_size=200),
    st.sampled_from(
        [
            '"\\ud800"',
            '{"type": "chat", "text": "\\udfff"}',
            "NaN",
            "[1e999]",
            '{"type": "ping", "type": 3}',
            "\ufeff{}",
            '{"type":"sync","since":1e2}',
        ]
    ),
    st.binary(max_size=64),
)


# --- the WebSocket --------------------------------------------------------------------------


def _answers(ws: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """What comes back until the answer to a ping sent now (``pong``, or before hello the
    error that refers to it): the messages, and the close code if the server closed the
    connection instead."""
    got: list[dict[str, Any]] = []
    try:
        ws.send(json.dumps({"type": "ping", "id": "probe"}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            got.append(msg)
            if msg["type"] == "pong" or (msg["type"] == "error" and msg["ref"] == "probe"):
                return got, None
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, f"the socket was dropped without a close frame: {got}"
        return got, exc.rcvd.code


def _check(got: list[dict[str, Any]], closed: int | None, what: Any) -> None:
    for msg in got:
        if msg["type"] == "error":
            assert msg["code"] in WS_CODES, (what, msg)
            assert isinstance(msg["message"], str) and msg["message"]
    if closed is not None:
        assert closed in CLOSE_CODES, (what, closed, got)


@pytest.mark.parametrize("who", ["before_hello", "player", "spectator"])
def test_any_message_gets_a_documented_answer(live: Live, who: str) -> None:
    @EXAMPLES
    @given(st.one_of(messages(live.tokens), frames.map(lambda f: ("raw", f))))
    def check(sent: Any) -> None:
        with live.ws() as ws:
            if who != "before_hello":
                hello = {"type": "hello", "protocol": 1, "since": 10**6}
                if who == "player":
                    hello["token"] = live.tokens[0]
                ws.send(json.dumps(hello))
                assert json.loads(ws.recv(timeout=20))["type"] == "snapshot"
            if isinstance(sent, tuple):
                ws.send(sent[1])
            else:
                ws.send(json.dumps(sent))
            got, closed = _answers(ws)
            _check(got, closed, sent)

    check()


def test_a_storm_of_bad_frames_on_one_connection_ends_with_a_close_code(live: Live) -> None:
    """Many bad frames on one connection: every answer documented, and when the server
    closes (twenty malformed in a row, or flooding) it says why."""

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.one_of(messages(live.tokens).map(json.dumps), frames), min_size=1,
                    max_size=40))  # fmt: skip
    def check(batch: list[Any]) -> None:
        with live.ws() as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "token": live.tokens[1]}))
            for frame in batch:
                try:
                    ws.send(frame)
                except ConnectionClosed:
                    break
            got, closed = _answers(ws)
            _check(got, closed, batch)

    check()


# --- HTTP bodies ----------------------------------------------------------------------------


@st.composite
def bodies(draw: st.DrawFn, model: type[schema.Body]) -> Any:
    """A body for ``model``: its fields right, wrong or absent, or anything at all."""
    if draw(st.integers(0, 5)) == 0:
        return draw(json_values)
    body: dict[str, Any] = {}
    plausible: dict[str, st.SearchStrategy[Any]] = {
        "name": st.sampled_from(["Anna", "", " ", "x" * 30, "\u202e"]),
        "edition": st.sampled_from(["classic", "basic", "2016", "chess"]),
        "players": st.integers(0, 10),
        "bots": st.dictionaries(
            st.sampled_from(["0", "1", "2", "9", "x"]),
            st.sampled_from(["easy", "hard", "godlike"]) | json_values,
            max_size=3,
        ),
        "level": st.sampled_from(["easy", "random", None, "godlike"]),
        "seat": st.integers(-1, 9),
        "timer": st.sampled_from([None, 5, 10, 90, 601]),
        "turn_timer": st.sampled_from([None, 3599, 3600, 86400, 14 * 86400, 14 * 86400 + 1]),
        "on_timeout": st.sampled_from([None, "stand_in", "skip", "pass"]),
        "email": st.sampled_from([None, "", "anna@example.org", "not an address", "a@b"]),
        "lang": st.sampled_from(["en", "fa", "vi-VN", "xx", ""]),
        "seed": st.integers(-1, 2**63),
        "password": st.sampled_from(["p" * 12, "short", " " * 10, "x" * 300]),
        "current_password": st.sampled_from(["wrong guess!", "short", "x" * 300]),
        "new_password": st.sampled_from(["p" * 12, "prop", "a new password", "x" * 300]),
        "seats": st.lists(
            st.fixed_dictionaries(
                {
                    "code": st.sampled_from(["ABCDEF", "", "x" * 70]),
                    "token": st.sampled_from(["t", "x" * 300]),
                }
            )
            | json_values,
            max_size=3,
        ),
    }
    for name in model.model_fields:
        if draw(st.booleans()):
            body[name] = draw(plausible.get(name, st.nothing()) | json_values)
    if draw(st.integers(0, 4)) == 0:
        body.update(draw(st.dictionaries(st.text(max_size=10), json_values, max_size=2)))
    return body


def _http_ok(r: httpx.Response, what: Any) -> None:
    assert r.status_code < 500, (what, r.status_code, r.text[:200])
    assert r.headers["content-type"].startswith("application/json"), (what, r.text[:200])
    if r.status_code >= 400:
        schema.Error.model_validate(r.json())
        assert r.json()["error"]["code"] in HTTP_CODES, (what, r.json())


@pytest.mark.parametrize(
    "endpoint",
    ["create", "join", "bot", "signup", "signin", "claim", "claim_guest", "email", "password"],
)
def test_any_http_body_gets_a_documented_answer(live: Live, endpoint: str) -> None:
    model, path = {
        "create": (schema.CreateTable, "/api/tables"),
        "join": (schema.JoinTable, f"/api/tables/{live.open_code}/join"),
        "bot": (schema.SeatBot, f"/api/tables/{live.open_code}/seats/2/bot"),
        "signup": (schema.SignUp, "/api/accounts"),
        "signin": (schema.SignIn, "/api/session"),
        "claim": (schema.Claim, "/api/account/claim"),
        "claim_guest": (schema.Claim, "/api/account/claim"),
        "email": (schema.SetEmail, "/api/account/email"),
        "password": (schema.ChangePassword, "/api/account/password"),
    }[endpoint]
    headers = {"Authorization": f"Bearer {live.host}", "Content-Type": "application/json"}
    if endpoint in ("claim", "email", "password"):  # signed in, with the proof a page sends
        headers |= {"Cookie": live.cookie, "X-CSRF-Token": live.csrf, "Origin": live.base}

    @EXAMPLES
    @given(st.one_of(bodies(model).map(json.dumps), frames.map(lambda f: f)))
    def check(raw: str | bytes) -> None:
        with httpx.Client(base_url=live.base, timeout=30) as h:
            r = h.post(path, content=raw, headers=headers)
        _http_ok(r, raw)
        if r.status_code < 300:
            # Nothing about a well-formed body is refused by the schema.
            schema.body(json.loads(raw), model)

    check()


# --- schemathesis against the published OpenAPI document ------------------------------------

API = schemathesis.openapi.from_dict(
    json.loads((Path(__file__).resolve().parents[2] / "docs/schema/openapi.json").read_text())
)


@pytest.fixture(scope="module")
def base_url(live: Live) -> str:
    return live.base


@API.parametrize()
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_http_api_keeps_to_its_openapi_document(case: Any, base_url: str) -> None:
    """Every check but one: a body the schema allows may still be refused, since a set-up's
    validity (an edition's player range and presets, a name that is empty once cleaned, a
    seat the table has) depends on the engine and the table, which no JSON Schema says."""
    response = case.call_and_validate(base_url=base_url, excluded_checks=[positive_data_acceptance])
    assert response.status_code < 500


def test_the_published_document_is_the_one_the_server_makes() -> None:
    assert API.raw_schema == openapi.document()
