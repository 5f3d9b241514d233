"""Accounts (issue 28, docs/accounts.md): sign-up, sign-in and out, the session cookie, CSRF
and origin checks on every state-changing request a session authorises, the throttle on
wrong passwords, claiming a guest's seats, hostile headers, and the operator's commands."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from starlette.applications import Starlette

from citadels.server import create_app
from citadels.server.accounts import COOKIE, Accounts, SignInLimits
from citadels.server.storage import Store
from tests.server.conftest import CHEAP_ACCOUNTS, config, running

PASSWORD = "correct horse battery"


class Site:
    """A running server, its app, and helpers to talk to it as one browser."""

    def __init__(self, base: str, app: Starlette) -> None:
        self.base = base
        self.app = app
        self.origin = base  # the browser's Origin header on this site

    @property
    def accounts(self) -> Accounts:
        got: Accounts = self.app.state.server["accounts"]
        return got

    def browser(self) -> httpx.AsyncClient:
        """A client that keeps cookies, as a browser does."""
        return httpx.AsyncClient(base_url=self.base, timeout=30)

    async def sign_up(
        self, h: httpx.AsyncClient, name: str, **extra: Any
    ) -> tuple[httpx.Response, dict[str, str]]:
        """Sign up; the response and the headers a signed-in page sends."""
        r = await h.post(
            "/api/accounts", json={"name": name, "password": PASSWORD, **extra},
            headers={"Origin": self.origin},
        )  # fmt: skip
        assert r.status_code == 201, r.text
        return r, {"X-CSRF-Token": r.json()["csrf"], "Origin": self.origin}


@pytest_asyncio.fixture
async def site(sqlite_url: str) -> AsyncIterator[Site]:
    app = create_app(config(sqlite_url))
    async with running(config(sqlite_url), app=app) as base:
        yield Site(base, app)


def _set_cookie(r: httpx.Response) -> str:
    cookies = [v for k, v in r.headers.multi_items() if k.lower() == "set-cookie"]
    assert len(cookies) == 1, cookies
    return cookies[0]


@pytest.mark.asyncio
async def test_sign_up_sets_a_cookie_scripts_cannot_read_nor_other_sites_send(site: Site) -> None:
    async with site.browser() as h:
        r, _ = await site.sign_up(h, "Anna")
        cookie = _set_cookie(r)
        flags = [p.strip().lower() for p in cookie.split(";")]
        assert flags[0].startswith(COOKIE + "=")
        assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
        assert "secure" not in flags  # plain http: a Secure cookie would never come back
        assert r.json()["account"] == {"name": "Anna"} and r.json()["claimed"] == []
        me = (await h.get("/api/session")).json()
        assert me == {"account": {"name": "Anna"}, "csrf": r.json()["csrf"]}
    async with site.browser() as other:  # another browser: nobody
        assert (await other.get("/api/session")).json() == {"account": None, "csrf": None}


@pytest.mark.asyncio
async def test_the_cookie_is_secure_over_https(site: Site) -> None:
    async with site.browser() as h:
        # uvicorn trusts the proxy headers of 127.0.0.1: the request came over https.
        r = await h.post(
            "/api/accounts", json={"name": "Sec", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )  # fmt: skip
        assert r.status_code == 201
        assert "secure" in [p.strip().lower() for p in _set_cookie(r).split(";")]


@pytest.mark.asyncio
async def test_names_passwords_and_taken_names(site: Site) -> None:
    async with site.browser() as h:
        await site.sign_up(h, "Anna")
        for name in ("anna", "ANNA", "Ａｎｎａ"):  # case and width do not make another name
            r = await h.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert (r.status_code, r.json()["error"]["code"]) == (409, "name_taken")
        for name in ("ab", "x" * 25, "a b c", "<b>x</b>", "\u202eabc", "", "An\nna"):
            r = await h.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert r.json()["error"]["code"] == "bad_account_name", name
        for password in ("short", " " * 12, "x" * 201, "x" * 2000):
            r = await h.post("/api/accounts", json={"name": "Ben", "password": password})
            assert r.json()["error"]["code"] == "bad_password"
        for body in ({"name": "Ben"}, {"name": 3, "password": PASSWORD}, [1], {"x": 1}):
            r = await h.post("/api/accounts", json=body)
            assert r.status_code == 400
            assert r.json()["error"]["code"] in ("bad_account_name", "bad_password", "malformed")


@pytest.mark.asyncio
async def test_sign_in_and_out(site: Site) -> None:
    async with site.browser() as h:
        await site.sign_up(h, "Anna")
    async with site.browser() as h:
        for name, password in (("Anna", "wrong password"), ("Nobody", PASSWORD)):
            r = await h.post("/api/session", json={"name": name, "password": password})
            assert (r.status_code, r.json()["error"]["code"]) == (401, "wrong_password")
        r = await h.post("/api/session", json={"name": "anna", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["account"] == {"name": "Anna"}
        csrf = r.json()["csrf"]
        assert (await h.get("/api/session")).json()["account"] == {"name": "Anna"}
        # Signing out is a change the cookie authorises: CSRF token and origin needed.
        r = await h.delete("/api/session", headers={"Origin": site.origin})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "csrf_failed")
        r = await h.delete("/api/session", headers={"X-CSRF-Token": "x" * 43,
                                                    "Origin": site.origin})  # fmt: skip
        assert r.json()["error"]["code"] == "csrf_failed"
        r = await h.delete("/api/session", headers={"X-CSRF-Token": csrf})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "bad_origin")
        for origin in ("https://evil.example", "null", "not a url"):
            r = await h.delete("/api/session", headers={"X-CSRF-Token": csrf, "Origin": origin})
            assert r.json()["error"]["code"] == "bad_origin", origin
        # A Referer of the site stands in for a missing Origin.
        cookie = h.cookies.get(COOKIE)
        r = await h.delete(
            "/api/session", headers={"X-CSRF-Token": csrf, "Referer": site.base + "/me"}
        )
        assert r.status_code == 200 and r.json() == {"account": None, "csrf": None}
        assert (await h.get("/api/session")).json()["account"] is None
    async with site.browser() as h:  # the old cookie is no session any more
        h.cookies.set(COOKIE, cookie or "")
        assert (await h.get("/api/session")).json()["account"] is None
        r = await h.get("/api/account/tables")
        assert (r.status_code, r.json()["error"]["code"]) == (401, "signed_out")


@pytest.mark.asyncio
async def test_sign_in_from_another_site_is_refused(site: Site) -> None:
    async with site.browser() as h:
        await site.sign_up(h, "Anna")
    async with site.browser() as h:
        for path, name in (("/api/session", "Anna"), ("/api/accounts", "Eve")):
            r = await h.post(path, json={"name": name, "password": PASSWORD},
                             headers={"Origin": "https://evil.example"})  # fmt: skip
            assert (r.status_code, r.json()["error"]["code"]) == (403, "bad_origin")
        assert COOKIE not in h.cookies


@pytest.mark.asyncio
async def test_a_table_made_signed_in_needs_the_csrf_proof(site: Site) -> None:
    async with site.browser() as h:
        _, proof = await site.sign_up(h, "Anna")
        body = {"name": "Anna", "players": 3, "bots": {"1": "easy", "2": "hard"}}
        r = await h.post("/api/tables", json=body, headers={"Origin": site.origin})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "csrf_failed")
        r = await h.post("/api/tables", json=body, headers={"X-CSRF-Token": proof["X-CSRF-Token"]})
        assert r.json()["error"]["code"] == "bad_origin"
        r = await h.post("/api/tables", json=body, headers=proof)
        assert r.status_code == 201
        table = r.json()["table"]
        assert table["seats"][0]["account"] == "Anna" and table["rated"] is True
        # Joining, signed in, is the same.
        open_t = (await h.post("/api/tables", json={"name": "Anna", "players": 2},
                               headers=proof)).json()  # fmt: skip
    async with site.browser() as h2:
        _, proof2 = await site.sign_up(h2, "Ben")
        r = await h2.post(f"/api/tables/{open_t['code']}/join", json={"name": "Ben"})
        assert r.json()["error"]["code"] == "csrf_failed"
        r = await h2.post(f"/api/tables/{open_t['code']}/join", json={"name": "Ben"},
                          headers=proof2)  # fmt: skip
        assert r.status_code == 200
        assert [s["account"] for s in r.json()["table"]["seats"]] == ["Anna", "Ben"]
        assert r.json()["table"]["rated"] is True
    # A guest (no cookie) plays as before, with no proof at all: an unrated table.
    async with site.browser() as guest:
        r = await guest.post("/api/tables", json=body)
        assert r.status_code == 201 and r.json()["table"]["rated"] is False
        assert r.json()["table"]["seats"][0]["account"] is None


@pytest.mark.asyncio
async def test_a_guest_claims_their_seats_when_signing_up_or_in(site: Site) -> None:
    async with site.browser() as guest:
        made = (await guest.post("/api/tables", json={"name": "Gus", "players": 2})).json()
        other = (await guest.post("/api/tables", json={"name": "Gus", "players": 2})).json()
        joined = (await guest.post(f"/api/tables/{made['code']}/join",
                                   json={"name": "Ida"})).json()  # fmt: skip
        seats = [
            {"code": made["code"].lower().replace("-", ""), "token": made["token"]},
            {"code": made["code"], "token": "not-a-token"},
            {"code": "NOPE-NOPE-NOPE-NOPE", "token": made["token"]},
            {"code": "?", "token": ""},
        ]
        r, proof = await site.sign_up(guest, "Gus", seats=seats)
        claimed = r.json()["claimed"]
        assert [c["claimed"] for c in claimed] == [True, False, False, False]
        assert claimed[0] == {"code": made["code"], "seat": 0, "claimed": True}
        info = (await guest.get(f"/api/tables/{made['code']}")).json()
        assert info["seats"][0]["account"] == "Gus" and info["seats"][1]["account"] is None
        # Later, signed in: the claim endpoint, which needs the proof.
        body = {"seats": [{"code": other["code"], "token": other["token"]}]}
        r = await guest.post("/api/account/claim", json=body)
        assert r.json()["error"]["code"] == "csrf_failed"
        r = await guest.post("/api/account/claim", json=body, headers=proof)
        assert r.json()["claimed"][0]["claimed"] is True
    async with site.browser() as h:
        # Another account cannot take a seat an account holds, even with its token.
        body = {"seats": [{"code": made["code"], "token": made["token"]},
                          {"code": made["code"], "token": joined["token"]}]}  # fmt: skip
        r, _ = await site.sign_up(h, "Ida", **body)
        assert [c["claimed"] for c in r.json()["claimed"]] == [False, True]
        r = await h.post("/api/account/claim", json=body)  # signed in, no proof
        assert r.json()["error"]["code"] == "csrf_failed"
    async with site.browser() as nobody:
        r = await nobody.post("/api/account/claim", json=body, headers={"Origin": site.origin})
        assert (r.status_code, r.json()["error"]["code"]) == (401, "signed_out")
        # Signing in claims too.
        r = await nobody.post("/api/session", json={"name": "Gus", "password": PASSWORD,
                                                    "seats": body["seats"][:1]})  # fmt: skip
        assert r.json()["claimed"][0]["claimed"] is True  # already Gus's: still his


@pytest.mark.asyncio
async def test_wrong_passwords_are_throttled_per_account_and_per_address(site: Site) -> None:
    now = [1000.0]
    site.accounts.throttle.clock = lambda: now[0]
    async with site.browser() as h:
        for name in ("Anna", "Ben"):
            await site.sign_up(h, name)
    async with site.browser() as h:
        for _ in range(5):
            r = await h.post("/api/session", json={"name": "Anna", "password": "wrong guess"})
            assert r.json()["error"]["code"] == "wrong_password"
        # The sixth attempt is refused before the password is looked at, the right one too.
        r = await h.post("/api/session", json={"name": "ANNA", "password": PASSWORD})
        assert (r.status_code, r.json()["error"]["code"]) == (429, "signin_throttled")
        assert int(r.headers["retry-after"]) == 60
        # Another account is not concerned.
        r = await h.post("/api/session", json={"name": "Ben", "password": PASSWORD})
        assert r.status_code == 200
        now[0] += 60  # a minute later one more attempt is allowed
        r = await h.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 200
        # Per address: 20 wrong passwords for any names (the bucket is full again after the
        # minute), then nothing from this address.
        for i in range(20):
            r = await h.post("/api/session", json={"name": f"n{i}", "password": "wrong guess"})
            assert r.json()["error"]["code"] == "wrong_password"
        r = await h.post("/api/session", json={"name": "Ben", "password": PASSWORD})
        assert r.json()["error"]["code"] == "signin_throttled"
        now[0] += 10
        r = await h.post("/api/session", json={"name": "Ben", "password": PASSWORD})
        assert r.status_code == 200


@pytest.mark.asyncio
async def test_the_throttle_can_be_turned_off(sqlite_url: str) -> None:
    cfg = config(sqlite_url, accounts=replace(CHEAP_ACCOUNTS,
                                              limits=SignInLimits(throttle=False)))  # fmt: skip
    async with running(cfg) as base, httpx.AsyncClient(base_url=base, timeout=30) as h:
        for i in range(30):
            r = await h.post("/api/session", json={"name": f"x{i}", "password": "wrong guess"})
            assert r.json()["error"]["code"] == "wrong_password"
        for i in range(15):
            r = await h.post("/api/accounts", json={"name": f"user{i}", "password": PASSWORD})
            assert r.status_code == 201


@pytest.mark.asyncio
async def test_new_accounts_per_address_are_limited(site: Site) -> None:
    site.accounts.throttle.clock = lambda: 5.0
    async with site.browser() as h:
        for i in range(10):
            r = await h.post("/api/accounts", json={"name": f"user{i}", "password": PASSWORD})
            assert r.status_code == 201
        r = await h.post("/api/accounts", json={"name": "user10", "password": PASSWORD})
        assert (r.status_code, r.json()["error"]["code"]) == (429, "signin_throttled")


#: Header values no text is: non-ASCII Latin-1, invalid UTF-8, and UTF-8 of non-ASCII.
ODD = [b"\xff\xfe", b"caf\xc3\xa9", "é€".encode(), b"Bearer \xff", b"\x80" * 300]


@pytest.mark.asyncio
async def test_headers_with_any_bytes_get_a_coded_answer(site: Site) -> None:
    async with site.browser() as h:
        _, proof = await site.sign_up(h, "Anna")
        cookie = h.cookies.get(COOKIE) or ""
    made = (await httpx.AsyncClient(base_url=site.base).post(
        "/api/tables", json={"name": "Gus", "players": 2})).json()  # fmt: skip
    requests = [
        ("GET", "/api/session", None), ("POST", "/api/session", {"name": "Anna",
         "password": PASSWORD}), ("DELETE", "/api/session", None),
        ("POST", "/api/accounts", {"name": "Zed", "password": PASSWORD}),
        ("GET", "/api/accounts/Anna", None), ("GET", "/api/account/tables", None),
        ("POST", "/api/account/claim", {"seats": []}), ("GET", "/api/leaderboard", None),
        ("POST", "/api/tables", {"name": "X", "players": 2}),
        ("POST", f"/api/tables/{made['code']}/join", {"name": "Y"}),
        ("POST", f"/api/tables/{made['code']}/start", None),
        ("GET", f"/api/tables/{made['code']}/replay", None),
    ]  # fmt: skip
    async with httpx.AsyncClient(base_url=site.base, timeout=30) as raw:
        for method, path, body in requests:
            for odd in ODD:
                for name in ("authorization", "cookie", "x-csrf-token", "origin", "referer"):
                    headers: list[tuple[bytes, bytes]] = [(name.encode(), odd)]
                    if name != "cookie":  # the other odd headers beside a live session
                        headers.append((b"cookie", f"{COOKIE}={cookie}".encode()))
                    if name not in ("x-csrf-token", "cookie"):
                        headers.append((b"x-csrf-token", proof["X-CSRF-Token"].encode()))
                    r = await raw.request(method, path, json=body, headers=headers)
                    assert r.status_code < 500, (method, path, name, odd, r.text)
                    assert r.headers["content-type"].startswith("application/json")
                    if r.status_code >= 400:
                        assert r.json()["error"]["code"], (method, path, name, r.text)
                # A cookie of the right name with odd bytes is no session.
                r = await raw.request(
                    method, path, json=body, headers=[(b"cookie", COOKIE.encode() + b"=" + odd)]
                )
                assert r.status_code < 500


def test_the_operator_creates_lists_and_resets(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.migrate()
    try:
        accounts = Accounts(store, CHEAP_ACCOUNTS)
        accounts.create("Anna", PASSWORD)
        assert [a.name for a in store.accounts()] == ["Anna"]
        row = store.account_by_key("anna")
        assert row is not None
        token, _csrf = asyncio.run(accounts.open_session(row.id))
        from citadels.server.accounts import _hash

        assert store.session(_hash(token)) is not None
        accounts.reset_password("ANNA", "a brand new one")
        assert store.session(_hash(token)) is None  # a reset ends the account's sessions
        new = store.account_by_key("anna")
        assert new is not None and accounts._verify(new.password_hash, "a brand new one")
        assert not accounts._verify(new.password_hash, PASSWORD)
        with pytest.raises(Exception, match="no account"):
            accounts.reset_password("nobody", "whatever123")
    finally:
        store.close()


def test_the_operator_commands(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ops.sqlite3'}"

    def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "citadels", "accounts", *args, "--db", db],
            input=stdin, capture_output=True, text=True, timeout=120,
            env={**os.environ, "LANGUAGE": "en"},
        )  # fmt: skip

    made = cli("create", "Anna", "--password-stdin", stdin=PASSWORD + "\n")
    assert made.returncode == 0 and "Account Anna created." in made.stdout, made.stderr
    assert cli("create", "anna", "--password-stdin", stdin=PASSWORD + "\n").returncode == 2
    assert cli("create", "Bo", "--password-stdin", stdin=PASSWORD + "\n").returncode == 2
    listed = cli("list")
    assert listed.returncode == 0 and listed.stdout.split("\t")[0] == "Anna"
    reset = cli("reset-password", "ANNA", "--password-stdin", stdin="a new password\n")
    assert reset.returncode == 0 and "is reset" in reset.stdout
    missing = cli("reset-password", "Nobody", "--password-stdin", stdin="a new password\n")
    assert missing.returncode == 2 and "no account" in missing.stderr
    store = Store(db)
    try:
        row = store.account_by_key("anna")
        assert row is not None
        assert Accounts(store, CHEAP_ACCOUNTS)._verify(row.password_hash, "a new password")
    finally:
        store.close()


@pytest.mark.asyncio
async def test_a_hash_made_at_a_lower_cost_is_renewed_at_sign_in(sqlite_url: str) -> None:
    async with running(config(sqlite_url)) as base, httpx.AsyncClient(base_url=base) as h:
        r = await h.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 201
    dearer = replace(CHEAP_ACCOUNTS, time_cost=2)
    async with (
        running(config(sqlite_url, accounts=dearer)) as base,
        httpx.AsyncClient(base_url=base) as h,
    ):
        r = await h.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 200
    store = Store(sqlite_url)
    try:
        row = store.account_by_key("anna")
        assert row is not None and row.password_hash.startswith("$argon2id$")
        assert ",t=2," in row.password_hash
    finally:
        store.close()
