"""A player changes their own password (issue 28, docs/accounts.md): the current password,
checked and throttled as a sign-in is; a new one that is neither short nor weak; the CSRF
proof; every other session of the account ended, the one that changed it kept. The races with
a sign-in of the old password are run in a fixed order: one step held open, the other run."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio
from argon2 import PasswordHasher

from citadels.server import create_app
from citadels.server.accounts import COOKIE, Accounts, name_key
from citadels.server.errors import ServerError
from citadels.server.storage import Store
from tests.server.conftest import CHEAP_ACCOUNTS, Hold, config, running
from tests.server.test_accounts import PASSWORD, Site

NEW = "a longer secret, new"
PATH = "/api/account/password"


@pytest_asyncio.fixture
async def site(sqlite_url: str) -> AsyncIterator[Site]:
    app = create_app(config(sqlite_url))
    async with running(config(sqlite_url), app=app) as base:
        yield Site(base, app)


def _change(current: str = PASSWORD, new: str = NEW) -> dict[str, str]:
    return {"current_password": current, "new_password": new}


async def _signs_in(h: httpx.AsyncClient, name: str, password: str) -> int:
    r = await h.post("/api/session", json={"name": name, "password": password})
    return r.status_code


@pytest.mark.asyncio
async def test_a_change_keeps_this_session_and_ends_the_others(site: Site) -> None:
    async with site.browser() as here, site.browser() as phone, site.browser() as laptop:
        _, proof = await site.sign_up(here, "Anna")
        for other in (phone, laptop):
            assert await _signs_in(other, "Anna", PASSWORD) == 200
        r = await here.post(PATH, json=_change(), headers=proof)
        assert (r.status_code, r.json()) == (200, {"changed": True, "signed_out": 2})
        # This browser is still signed in, with the same proof; the two others are not.
        assert (await here.get("/api/session")).json() == {
            "account": {"name": "Anna"}, "csrf": proof["X-CSRF-Token"]
        }  # fmt: skip
        for other in (phone, laptop):
            assert (await other.get("/api/session")).json()["account"] is None
            r = await other.get("/api/account/tables")
            assert (r.status_code, r.json()["error"]["code"]) == (401, "signed_out")
    async with site.browser() as h:
        assert await _signs_in(h, "Anna", PASSWORD) == 401
        assert await _signs_in(h, "anna", NEW) == 200
    row = site.accounts.store.account_by_key("anna")
    assert row is not None and row.password_hash.startswith("$argon2id$")


@pytest.mark.asyncio
async def test_a_change_needs_a_session_and_its_proof(site: Site) -> None:
    async with site.browser() as h:
        _, proof = await site.sign_up(h, "Anna")
        token = proof["X-CSRF-Token"]
        refused = [
            ({"Origin": site.origin}, 403, "csrf_failed"),
            ({"X-CSRF-Token": "x" * 43, "Origin": site.origin}, 403, "csrf_failed"),
            ({"X-CSRF-Token": token}, 403, "bad_origin"),
            ({"X-CSRF-Token": token, "Origin": "https://evil.example"}, 403, "bad_origin"),
        ]
        for headers, status, code in refused:
            r = await h.post(PATH, json=_change(), headers=headers)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), headers
    async with site.browser() as nobody:
        r = await nobody.post(PATH, json=_change(), headers={"Origin": site.origin})
        assert (r.status_code, r.json()["error"]["code"]) == (401, "signed_out")
    async with site.browser() as h:  # nothing was changed
        assert await _signs_in(h, "Anna", PASSWORD) == 200


@pytest.mark.asyncio
async def test_a_wrong_current_password_and_weak_new_ones_are_refused(site: Site) -> None:
    async with site.browser() as h:
        _, proof = await site.sign_up(h, "Annabelle")
        cases = [
            (_change(current="not my password"), 403, "wrong_current_password"),
            (_change(new="short"), 400, "bad_password"),
            (_change(new=" " * 12), 400, "bad_password"),
            (_change(new="x" * 201), 400, "bad_password"),
            (_change(new="z" * 12), 400, "weak_password"),
            (_change(new="ANNABELLE"), 400, "weak_password"),
            (_change(new=PASSWORD), 400, "same_password"),
            ({"current_password": PASSWORD}, 400, "bad_password"),
            ({**_change(), "sessions": "keep"}, 400, "malformed"),
            ({"current_password": 12345678, "new_password": NEW}, 400, "bad_password"),
            ({"current_password": PASSWORD, "new_password": ["x"] * 9}, 400, "bad_password"),
            ({"current_password": "p" * 1001, "new_password": NEW}, 400, "bad_password"),
        ]
        for body, status, code in cases:
            r = await h.post(PATH, json=body, headers=proof)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
        r = await h.post(PATH, content=b"\xff{", headers=proof)
        assert r.json()["error"]["code"] == "malformed"
        # A sign-up is held to the same rules.
        for name, password in (("Zed_first", "ZED_FIRST"), ("Zed_two", "1" * 9)):
            r = await h.post("/api/accounts", json={"name": name, "password": password})
            assert (r.status_code, r.json()["error"]["code"]) == (400, "weak_password")
    async with site.browser() as h:
        assert await _signs_in(h, "Annabelle", PASSWORD) == 200


@pytest.mark.asyncio
async def test_wrong_current_passwords_are_throttled_with_the_sign_ins(site: Site) -> None:
    now = [1000.0]
    site.accounts.throttle.clock = lambda: now[0]
    async with site.browser() as h:
        _, proof = await site.sign_up(h, "Anna")
        for _ in range(5):
            r = await h.post(PATH, json=_change(current="wrong guess"), headers=proof)
            assert r.json()["error"]["code"] == "wrong_current_password"
        # The sixth is refused before the password is looked at, the right one too; and so
        # is a sign-in of the account: one bucket, however the password is guessed.
        r = await h.post(PATH, json=_change(), headers=proof)
        assert (r.status_code, r.json()["error"]["code"]) == (429, "signin_throttled")
        assert int(r.headers["retry-after"]) == 60
    async with site.browser() as other:
        r = await other.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.json()["error"]["code"] == "signin_throttled"
        now[0] += 60
        assert await _signs_in(other, "Anna", PASSWORD) == 200
        r = await other.post(PATH, json=_change(), headers={
            "X-CSRF-Token": (await other.get("/api/session")).json()["csrf"],
            "Origin": site.origin,
        })  # fmt: skip
        assert r.status_code == 200


@pytest.mark.asyncio
async def test_of_two_changes_checked_at_once_only_the_first_stored_counts(site: Site) -> None:
    async with site.browser() as one, site.browser() as two:
        _, proof_one = await site.sign_up(one, "Anna")
        assert await _signs_in(two, "Anna", PASSWORD) == 200
        proof_two = {"X-CSRF-Token": (await two.get("/api/session")).json()["csrf"],
                     "Origin": site.origin}  # fmt: skip
        # The first change has checked the current password; its write is held.
        held = Hold(site.accounts.store, "set_password")
        first = asyncio.create_task(one.post(PATH, json=_change(), headers=proof_one))
        await asyncio.wait_for(held.entered.wait(), 30)
        r = await two.post(PATH, json=_change(new="the second new one"), headers=proof_two)
        assert (r.status_code, r.json()["signed_out"]) == (200, 1)
        held.release()
        r = await first
        assert (r.status_code, r.json()["error"]["code"]) == (403, "wrong_current_password")
        assert (await one.get("/api/session")).json()["account"] is None  # ended by the second
    async with site.browser() as h:
        assert await _signs_in(h, "Anna", NEW) == 401
        assert await _signs_in(h, "Anna", "the second new one") == 200


@pytest.mark.asyncio
async def test_a_sign_in_with_the_old_password_does_not_outlive_the_change(site: Site) -> None:
    async with site.browser() as here, site.browser() as late:
        _, proof = await site.sign_up(here, "Anna")
        # The late sign-in has checked the old password; its session is not stored yet.
        held = Hold(site.accounts.store, "create_session")
        signing = asyncio.create_task(
            late.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        )
        await asyncio.wait_for(held.entered.wait(), 30)
        r = await here.post(PATH, json=_change(), headers=proof)
        assert (r.status_code, r.json()["signed_out"]) == (200, 0)
        held.release()
        r = await signing
        assert (r.status_code, r.json()["error"]["code"]) == (401, "wrong_password")
        assert COOKIE not in late.cookies
        assert (await late.get("/api/session")).json()["account"] is None


@pytest.mark.asyncio
async def test_a_hash_renewed_at_sign_in_does_not_undo_a_change(site: Site) -> None:
    """A sign-in renews a hash made at a lower cost; a change stored between its check and
    its renewal wins: the renewal writes nothing, and the sign-in makes no session."""
    store = site.accounts.store
    cheaper = PasswordHasher(time_cost=1, memory_cost=256, parallelism=1)
    account = store.create_account("Anna", name_key("Anna"), cheaper.hash(PASSWORD))
    assert account is not None
    accounts: Accounts = site.accounts
    token, csrf = await accounts.open_session(account)
    async with site.browser() as here, site.browser() as late:
        here.cookies.set(COOKIE, token)
        proof = {"X-CSRF-Token": csrf, "Origin": site.origin}
        held = Hold(store, "set_password")  # the renewal of the sign-in
        signing = asyncio.create_task(
            late.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        )
        await asyncio.wait_for(held.entered.wait(), 30)
        r = await here.post(PATH, json=_change(), headers=proof)
        assert r.status_code == 200
        held.release()
        r = await signing
        assert (r.status_code, r.json()["error"]["code"]) == (401, "wrong_password")
    async with site.browser() as h:
        assert await _signs_in(h, "Anna", PASSWORD) == 401
        assert await _signs_in(h, "Anna", NEW) == 200


def test_the_operator_reset_keeps_to_the_rules(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.migrate()
    try:
        accounts = Accounts(store, CHEAP_ACCOUNTS)
        accounts.create("Annabelle", PASSWORD)
        for weak in ("annabelle", "........"):
            with pytest.raises(ServerError) as got:
                accounts.reset_password("Annabelle", weak)
            assert got.value.code == "weak_password"
        with pytest.raises(ServerError) as got:
            accounts.create("Bobby", "bobby")
        assert got.value.code == "bad_password"
    finally:
        store.close()
