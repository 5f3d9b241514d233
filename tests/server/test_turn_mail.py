""" "Your turn" e-mails at turn-based tables (issue 28, docs/accounts.md), caught by an SMTP
server on 127.0.0.1 (aiosmtpd): exactly one per turn, in the player's language; none
without an address or without SMTP; an SMTP server that is down loses no move. And the
account's address: set, changed and removed on /me, checked strictly."""

from __future__ import annotations

import asyncio
import email
import email.policy
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from starlette.applications import Starlette

from citadels.engine.game import new_game
from citadels.server import create_app
from citadels.server.client import PlayerClient
from citadels.server.limits import Limits
from citadels.server.mail import MailConfig
from citadels.server.storage import Store
from tests.server.conftest import config, free_port, hub_of, running
from tests.server.test_turn_based import DAY, FakeClock

PASSWORD = "correct horse battery"


@dataclass
class Catcher:
    """An SMTP server's handler that keeps every message it is given."""

    messages: list[EmailMessage] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        with self.lock:
            self.messages.append(msg)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp() -> Iterator[tuple[Catcher, int]]:
    catcher = Catcher()
    port = free_port()
    controller = Controller(catcher, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield catcher, port
    finally:
        controller.stop()


class Browser:
    """One signed-in browser: its cookies and the headers its page sends."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.h = httpx.AsyncClient(base_url=base, timeout=30)
        self.headers: dict[str, str] = {}

    async def sign_up(self, name: str) -> None:
        r = await self.h.post(
            "/api/accounts", json={"name": name, "password": PASSWORD},
            headers={"Origin": self.base},
        )  # fmt: skip
        assert r.status_code == 201, r.text
        self.headers = {"X-CSRF-Token": r.json()["csrf"], "Origin": self.base}

    async def post(self, path: str, body: Any) -> httpx.Response:
        return await self.h.post(path, json=body, headers=self.headers)


async def _players(
    base: str, emails: list[tuple[str | None, str]]
) -> tuple[str, list[str], list[Browser]]:
    """Two accounts (each with its address and language, or none) at a started two-seat
    turn-based table with a fixed seed: its code, the seats' tokens, the browsers."""
    browsers = []
    for i, (address, lang) in enumerate(emails):
        b = Browser(base)
        await b.sign_up(f"Player{i}")
        if address is not None:
            r = await b.post("/api/account/email", {"email": address, "lang": lang})
            assert r.status_code == 200 and r.json()["email"] == address, r.text
        browsers.append(b)
    r = await browsers[0].post(
        "/api/tables", {"name": "Anna", "players": 2, "seed": 5, "turn_timer": 86400}
    )
    assert r.status_code == 201, r.text
    code, host = r.json()["code"], r.json()["token"]
    r = await browsers[1].post(f"/api/tables/{code}/join", {"name": "Ben"})
    assert r.status_code == 200, r.text
    guest = r.json()["token"]
    r = await browsers[0].h.post(
        f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"}
    )
    assert r.status_code == 200, r.text
    return code, [host, guest], browsers


def _first_mover() -> int:
    mover = new_game("classic", 2, seed=5).to_move
    assert mover is not None
    return mover


async def _turns(base: str, code: str, app: Starlette, clock: FakeClock, days: int) -> None:
    """Let ``days`` turns run out, one after another (each a day)."""
    hub = hub_of(app)
    for _ in range(days):
        t = await hub.tables.by_code(code)
        version = t.version
        clock.advance(DAY)
        for _ in range(500):
            if t.version > version and t.game is not None and t.turn.deadline is not None:
                break
            await asyncio.sleep(0.01)
        assert t.version > version
    await hub.mailer.settled()


def test_one_mail_per_turn_in_the_players_language(
    smtp: tuple[Catcher, int], sqlite_url: str
) -> None:
    catcher, port = smtp
    db = sqlite_url

    async def go(db: str) -> None:
        clock = FakeClock()
        mail = MailConfig(
            host="127.0.0.1", port=port, security="none", sender="citadels@example.org",
            public_url="https://play.example.org",
        )  # fmt: skip
        cfg = config(db, clock=clock, mail=mail, limits=Limits(throttle=False))
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            code, tokens, browsers = await _players(
                base, [("anna@example.org", "ru"), ("ben@example.org", "vi")]
            )
            hub = hub_of(app)
            await hub.mailer.settled()
            a, b = ("anna@example.org", "ben@example.org")
            mover = _first_mover()
            first, second = (a, b) if mover == 0 else (b, a)
            assert (len(catcher.to(first)), len(catcher.to(second))) == (1, 0)
            [got] = catcher.to(first)
            lang = "ru" if first == a else "vi"
            assert got["Content-Language"] == lang
            subject, body = str(got["Subject"]), got.get_content()
            assert code in subject and f"https://play.example.org/t/{code}" in body
            if lang == "ru":
                assert "Ваш ход" in subject or "ваш ход" in subject
            # A reconnection storm of the player to move: still one mail.
            t = await hub.tables.by_code(code)
            for _ in range(5):
                c = PlayerClient(base, code, tokens[mover])
                await c.connect()
                await c.close()
                await asyncio.sleep(0.02)
            hub.turns.schedule(t)
            hub.turns.schedule(t)
            await hub.mailer.settled()
            assert len(catcher.to(first)) == 1
            # Two turns run out: the stand-in plays each whole turn (several decisions of
            # one seat in a row), and each new turn is mailed once.
            await _turns(base, code, app, clock, 1)
            assert (len(catcher.to(first)), len(catcher.to(second))) == (1, 1)
            await _turns(base, code, app, clock, 1)
            assert (len(catcher.to(first)), len(catcher.to(second))) == (2, 1)
            for br in browsers:
                await br.h.aclose()

    asyncio.run(go(db))


def _mailed(db: str) -> list[int | None]:
    store = Store(db)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT mailed_deadline FROM seats ORDER BY table_id, seat")
            ).all()
    finally:
        store.close()
    return [r[0] for r in rows]


@pytest.mark.parametrize("case", ["no_address", "no_smtp", "smtp_down"])
def test_no_mail_without_an_address_or_smtp_and_a_dead_smtp_loses_nothing(
    case: str, smtp: tuple[Catcher, int], sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    catcher, port = smtp

    async def go() -> None:
        clock = FakeClock()
        mail = {
            "no_address": MailConfig(host="127.0.0.1", port=port, security="none"),
            "no_smtp": MailConfig(),
            # Nothing listens there: every delivery fails.
            "smtp_down": MailConfig(host="127.0.0.1", port=free_port(), security="none"),
        }[case]
        cfg = config(sqlite_url, clock=clock, mail=mail, limits=Limits(throttle=False))
        app = create_app(cfg)
        async with running(cfg, app=app) as base:
            address = None if case == "no_address" else "anna@example.org"
            emails = [(address, "en"), (None if case == "no_address" else "ben@example.org", "ko")]
            code, tokens, browsers = await _players(base, emails)
            hub = hub_of(app)
            await hub.mailer.settled()
            # Three turns run out one after another, and a player moves: nothing is lost.
            await _turns(base, code, app, clock, 3)
            t = await hub.tables.by_code(code)
            assert len(t.timeouts) == 3
            mover = t.game.to_move if t.game is not None else None
            assert mover is not None
            player = PlayerClient(base, code, tokens[mover])
            await player.connect()
            version = player.version
            await player.act(player.legal[0]["action"])
            await _until_version(player, version + 1)
            await player.close()
            for br in browsers:
                await br.h.aclose()
        assert catcher.messages == []
        mailed = _mailed(sqlite_url)
        if case == "smtp_down":
            # Each turn was claimed once and given up: no backlog floods the player later.
            assert all(m is not None for m in mailed)
            assert "was not sent" in caplog.text
        else:
            assert mailed == [None, None]

    with caplog.at_level(logging.WARNING, logger="citadels.server"):
        asyncio.run(go())


async def _until_version(client: PlayerClient, version: int) -> None:
    while client.version < version:
        await client.recv(timeout=30)


BAD_EMAILS: list[tuple[Any, str]] = [
    ({"email": "not an address", "lang": "en"}, "bad_email"),
    ({"email": "a@b", "lang": "en"}, "bad_email"),
    ({"email": "a@@example.org"}, "bad_email"),
    ({"email": "anna@example.org\r\nBcc: x@example.org"}, "bad_email"),
    ({"email": "x" * 250 + "@example.org"}, "bad_email"),
    ({"email": 5}, "bad_email"),
    ({"email": ["a@example.org"]}, "bad_email"),
    ({}, "bad_email"),
    ({"email": "anna@example.org", "lang": "xx"}, "unsupported_language"),
    ({"email": "anna@example.org", "lang": 1}, "unsupported_language"),
    ({"email": "anna@example.org", "cc": "b@example.org"}, "malformed"),
    ([], "malformed"),
]


def test_the_address_is_set_changed_and_removed_and_checked_strictly(sqlite_url: str) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, limits=Limits(throttle=False))
        async with running(cfg) as base:
            async with httpx.AsyncClient(base_url=base, timeout=30) as guest:
                r = await guest.get("/api/account/email")
                assert r.status_code == 401 and r.json()["error"]["code"] == "signed_out"
            b = Browser(base)
            await b.sign_up("Mailer")
            r = await b.h.get("/api/account/email")
            assert r.json() == {"email": None, "lang": None, "enabled": False}
            for body, code in BAD_EMAILS:
                r = await b.post("/api/account/email", body)
                assert r.status_code == 400 and r.json()["error"]["code"] == code, (body, r.text)
            # Without the CSRF proof a page sends: refused, nothing changed.
            r = await b.h.post("/api/account/email", json={"email": "x@example.org"})
            assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
            assert (await b.h.get("/api/account/email")).json()["email"] is None
            r = await b.post("/api/account/email", {"email": " anna@example.org ", "lang": "fa"})
            assert r.json() == {"email": "anna@example.org", "lang": "fa", "enabled": False}
            r = await b.post("/api/account/email", {"email": "anna.b@example.org", "lang": "vi-VN"})
            assert r.json()["email"] == "anna.b@example.org" and r.json()["lang"] == "vi"
            r = await b.post("/api/account/email", {"email": None})
            assert r.json() == {"email": None, "lang": None, "enabled": False}
            await b.h.aclose()

    asyncio.run(go())


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (["--smtp-host", "127.0.0.1", "--smtp-security", "tls"], {}, "--smtp-security"),
        (["--smtp-host", "127.0.0.1", "--smtp-port", "0"], {}, "--smtp-port"),
        (["--smtp-host", "127.0.0.1"], {"CITADELS_SMTP_USER": "u"}, "CITADELS_SMTP_PASSWORD"),
    ],
)
def test_serve_refuses_mail_settings_that_cannot_work(
    args: list[str], env: dict[str, str], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``citadels serve`` checks its SMTP options (and the environment's) before it starts."""
    from typer.testing import CliRunner

    from citadels.cli import app

    for name in ("CITADELS_SMTP_USER", "CITADELS_SMTP_PASSWORD", "CITADELS_SMTP_SECURITY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    got = CliRunner().invoke(app, ["--lang", "en", "serve", "--port", "1", *args])
    assert got.exit_code == 2, got.output
    assert says in got.output
