"""Accounts: optional names with passwords, sessions in cookies, and what they unlock
(docs/accounts.md).

- **Passwords** are hashed with argon2id (``argon2-cffi``); a hash made with weaker
  parameters than the server's is renewed at the next sign-in.
- **Sessions**: a random token in the ``citadels_session`` cookie (HttpOnly, SameSite=Lax,
  Secure when the request came over https), stored as its SHA-256; with a CSRF token of its
  own that the page reads from ``GET /api/session`` and sends back in ``X-CSRF-Token``.
- **Every state-changing request the cookie authorises** (any ``POST``/``DELETE`` that
  carries a live session) needs that header AND an ``Origin`` (or, without one, a
  ``Referer``) of the server's own host: :meth:`Accounts.authorise`. A cross-site page can
  neither read the token nor forge the origin.
- **Wrong passwords are throttled** per account and per client address (token buckets that
  only failures empty): ``429 signin_throttled`` with ``Retry-After``.

Everything that reads a header decodes it as Latin-1 and checks its shape: a header with any
bytes is a missing or a bad one (``400``/``401``/``403`` with a code), never a failure.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.requests import Request
from starlette.responses import Response

from citadels.server.errors import ServerError
from citadels.server.limits import Rate, client_key
from citadels.server.storage import AccountRow, SessionRow, Store, now

#: The session cookie's name.
COOKIE = "citadels_session"
#: The header that carries the session's CSRF token.
CSRF_HEADER = "x-csrf-token"
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 200
#: What a session token looks like (``secrets.token_urlsafe(32)``).
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
_NAME_EXTRA = set("_-.")
#: Password hashes (or checks) one process computes at once.
HASHING_MAX = 4
#: Methods that change state.
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass(frozen=True)
class SignInLimits:
    """The throttle on wrong passwords and on new accounts. ``throttle=False`` turns it off
    (a test suite whose clients all share one address)."""

    throttle: bool = True
    #: Wrong passwords for one account: 5 at once, then one a minute.
    per_account: Rate = field(default_factory=lambda: Rate(1 / 60, 5.0))
    #: Wrong passwords from one client address (any accounts): 20 at once, then one in 10 s.
    per_address: Rate = field(default_factory=lambda: Rate(0.1, 20.0))
    #: New accounts from one client address: 10 at once, then one a minute.
    signups: Rate = field(default_factory=lambda: Rate(1 / 60, 10.0))


@dataclass(frozen=True)
class AccountConfig:
    """How accounts work on a server (``ServerConfig.accounts``)."""

    limits: SignInLimits = field(default_factory=SignInLimits)
    #: argon2id's cost: passes, memory in KiB, lanes (argon2-cffi's defaults: RFC 9106's
    #: second recommendation).
    time_cost: int = 3
    memory_cost: int = 65536
    parallelism: int = 4
    #: Days a session lasts.
    session_days: int = 30
    #: ``True``/``False``: always/never mark the cookie ``Secure``; ``None``: when the request
    #: came over https (behind a proxy: as uvicorn's ``--proxy-headers`` reports it).
    secure_cookies: bool | None = None
    #: Origins besides the request's own host that may send cookie-authorised requests
    #: (``https://play.example.org``).
    origins: tuple[str, ...] = ()


def name_key(name: str) -> str:
    """The form in which account names are compared."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_account_name(name: str) -> str:
    """An account's name (NFKC, trimmed): 3 to 24 letters, digits, ``_``, ``-`` or ``.``;
    ``ServerError("bad_account_name")`` otherwise."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ServerError("bad_account_name", f"a name has {NAME_MIN} to {NAME_MAX} characters")
    if not all(ch.isalnum() or ch in _NAME_EXTRA for ch in name):
        raise ServerError("bad_account_name", "a name holds only letters, digits, '_', '-' and '.'")
    return name


def check_password(password: str, name: str | None = None) -> str:
    """A new password: 8 to 200 characters, not only spaces (``bad_password`` otherwise), and
    not one that anybody tries first: one character repeated, or the account's ``name``
    (compared as names are) (``weak_password``)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX or not password.strip():
        raise ServerError(
            "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
        )
    if len(set(password)) == 1:
        raise ServerError("weak_password", "a password is not one character repeated")
    if name is not None and name_key(password.strip()) == name_key(name.strip()):
        raise ServerError("weak_password", "a password is not the account's name")
    return password


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Throttle:
    """Token buckets that only failures take from (wrong passwords, new accounts)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._state: dict[tuple[str, str], tuple[float, float]] = {}

    def _level(self, key: tuple[str, str], rate: Rate) -> float:
        got = self._state.get(key)
        if got is None:
            return rate.burst
        tokens, last = got
        return min(rate.burst, tokens + (self.clock() - last) * rate.per_second)

    def wait(self, checks: list[tuple[tuple[str, str], Rate]]) -> float:
        """Seconds until every bucket holds a token again (0: now)."""
        wait = 0.0
        for key, rate in checks:
            level = self._level(key, rate)
            if level < 1.0:
                wait = max(wait, (1.0 - level) / rate.per_second)
        return wait

    def take(self, checks: list[tuple[tuple[str, str], Rate]]) -> None:
        """Take a token from each bucket."""
        for key, rate in checks:
            self._state[key] = (max(0.0, self._level(key, rate) - 1.0), self.clock())
        if len(self._state) > 100_000:  # full buckets are the same as none: forget them
            self._state = {
                k: v for k, v in self._state.items() if v[0] < 1.0 or self.clock() - v[1] < 600
            }


def _header(request: Request, name: str) -> str | None:
    """A request header as text (Latin-1, as HTTP's bytes are), or ``None``."""
    value: str | None = request.headers.get(name)
    return None if value is None else value.strip()


def _cookie(request: Request) -> str | None:
    """The session token of the request's ``Cookie`` header, if it has one of the right
    shape (any other bytes there are no session)."""
    for name, value in request.scope.get("headers", ()):
        if name != b"cookie":
            continue
        text: str = bytes(value).decode("latin-1")
        for part in text.split(";"):
            key, _, got = part.strip().partition("=")
            token = got.strip('"')
            if key == COOKIE and _TOKEN.match(token):
                return token
    return None


def _host_of(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return None
        return parts.netloc.lower()
    except ValueError:
        return None


class Accounts:
    """The server's accounts: sign-up, sign-in and out, sessions, CSRF and origin checks."""

    def __init__(self, store: Store, config: AccountConfig | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.store = store
        self.config = config or AccountConfig()
        self.hasher = PasswordHasher(
            time_cost=self.config.time_cost,
            memory_cost=self.config.memory_cost,
            parallelism=self.config.parallelism,
        )
        self.throttle = Throttle(clock)
        # Each hash takes ``memory_cost`` KiB: a burst of sign-ins waits here instead of
        # taking that much memory per request at once.
        self._hashing = asyncio.Semaphore(HASHING_MAX)
        # A hash to verify against when the account does not exist (the same work either way).
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    # --- origin and CSRF ----------------------------------------------------------------

    def _own_origin(self, request: Request, value: str) -> bool:
        host = _header(request, "host")
        got = _host_of(value)
        if got is None:
            return False
        if host and got == host.lower():
            return True
        return any(_host_of(o) == got for o in self.config.origins)

    def check_origin(self, request: Request, *, required: bool) -> None:
        """``Origin`` (else ``Referer``) names this server: ``403 bad_origin`` otherwise;
        without either header, refused only when ``required``."""
        origin = _header(request, "origin")
        if origin is None or origin == "null":
            origin = _header(request, "referer") or origin
        if origin is None:
            if required:
                raise ServerError(
                    "bad_origin", "a request the session authorises needs an Origin header", 403
                )
            return
        if not self._own_origin(request, origin):
            raise ServerError("bad_origin", "the request comes from another site", 403)

    async def current(self, request: Request) -> SessionRow | None:
        """The request's live session, or ``None``."""
        token = _cookie(request)
        if token is None:
            return None
        return await asyncio.to_thread(self.store.session, _hash(token))

    async def authorise(self, request: Request) -> SessionRow | None:
        """The session of a state-changing request, checked: its CSRF token in
        ``X-CSRF-Token`` and its origin; ``None`` when it carries no live session (a guest)."""
        got = await self.current(request)
        if got is None:
            return None
        sent = _header(request, CSRF_HEADER) or ""
        if not hmac.compare_digest(sent.encode("latin-1", "replace"), got.csrf.encode()):
            raise ServerError("csrf_failed", "the session's X-CSRF-Token header is missing "
                              "or wrong (GET /api/session gives it)", 403)  # fmt: skip
        self.check_origin(request, required=True)
        return got

    async def signed_in(self, request: Request) -> SessionRow:
        """The request's session (checked as :meth:`authorise` for a state-changing method),
        or ``401 signed_out``."""
        got = await (self.authorise(request) if request.method in UNSAFE else self.current(request))
        if got is None:
            raise ServerError("signed_out", "this needs an account's session: sign in", 401)
        return got

    # --- sign-up, sign-in, sign-out -----------------------------------------------------

    def _retry(self, wait: float, what: str) -> ServerError:
        retry = max(1, int(wait + 0.999))
        return ServerError(
            "signin_throttled", f"too many {what}; try again in {retry} s", 429,
            retry_after=retry,
        )  # fmt: skip

    async def sign_up(self, request: Request, name: str, password: str) -> tuple[int, str]:
        """A new account (``409 name_taken`` if its name is); its id and name."""
        self.check_origin(request, required=False)
        name = clean_account_name(name)
        check_password(password, name)
        limits = self.config.limits
        checks = [(("signup", client_key(request.scope)), limits.signups)]
        if limits.throttle:
            wait = self.throttle.wait(checks)
            if wait > 0:
                raise self._retry(wait, "new accounts from this address")
        async with self._hashing:
            hashed = await asyncio.to_thread(self.hasher.hash, password)
        account = await asyncio.to_thread(self.store.create_account, name, name_key(name), hashed)
        if account is None:
            raise ServerError("name_taken", f"the name {name!r} is taken", 409)
        if limits.throttle:
            self.throttle.take(checks)
        return account, name

    async def sign_in(self, request: Request, name: str, password: str) -> AccountRow:
        """The account with this name and password (with its password's hash as stored now,
        for :meth:`open_session`); ``401 wrong_password`` (also for a name no account has),
        ``429 signin_throttled``."""
        self.check_origin(request, required=False)
        key = name_key(name.strip())[:200]
        row, ok = await self._check(request, key, password)
        if row is None or not ok:
            raise ServerError("wrong_password", "no account has this name and password", 401)
        if self.hasher.check_needs_rehash(row.password_hash):
            async with self._hashing:
                hashed = await asyncio.to_thread(self.hasher.hash, password)
            # Only over the hash just checked: a change of the password meanwhile stays.
            done = await asyncio.to_thread(
                self.store.set_password, row.id, hashed, sign_out=False,
                expected=row.password_hash,
            )  # fmt: skip
            if done is not None:
                row = replace(row, password_hash=hashed)
        return row

    async def _check(
        self, request: Request, key: str, password: str
    ) -> tuple[AccountRow | None, bool]:
        """The account whose name compares as ``key``, and whether ``password`` is its own,
        behind the throttle on wrong passwords (per account and per client address; a wrong
        one, or a name no account has, takes from both buckets): ``429 signin_throttled``
        when either is empty, the password not even looked at."""
        limits = self.config.limits
        checks = [
            (("account", key), limits.per_account),
            (("address", client_key(request.scope)), limits.per_address),
        ]
        if limits.throttle:
            wait = self.throttle.wait(checks)
            if wait > 0:
                raise self._retry(wait, "wrong passwords")
        row = await asyncio.to_thread(self.store.account_by_key, key)
        async with self._hashing:
            ok = await asyncio.to_thread(self._verify, row.password_hash if row else None, password)
        if (row is None or not ok) and limits.throttle:
            self.throttle.take(checks)
        return row, ok

    def _verify(self, hashed: str | None, password: str) -> bool:
        try:
            self.hasher.verify(hashed or self._dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return hashed is not None

    async def open_session(self, account: int, password_hash: str | None = None) -> tuple[str, str]:
        """A new session for ``account``: its token (for :meth:`set_cookie`) and its CSRF
        token. ``password_hash``: the hash a sign-in checked the password against; if the
        password changed since (a change ends every other session, and this one would
        outlive it), no session: ``401 wrong_password``."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        expires = now() + dt.timedelta(days=self.config.session_days)
        made = await asyncio.to_thread(
            self.store.create_session, account, _hash(token), csrf, expires, password_hash
        )
        if not made:
            raise ServerError("wrong_password", "the account's password was changed meanwhile",
                              401)  # fmt: skip
        return token, csrf

    def set_cookie(self, request: Request, response: Response, token: str) -> None:
        """The session cookie on ``response``: HttpOnly, SameSite=Lax, Secure over https."""
        secure = self.config.secure_cookies
        if secure is None:
            secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, token, max_age=self.config.session_days * 86400, path="/", httponly=True,
            samesite="lax", secure=secure,
        )  # fmt: skip

    async def sign_out(self, request: Request, response: Response) -> None:
        """End the request's session (checked as :meth:`authorise`) and clear its cookie."""
        await self.signed_in(request)
        token = _cookie(request)
        if token is not None:
            await asyncio.to_thread(self.store.delete_session, _hash(token))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    async def change_password(self, request: Request, current: str, new: str) -> int:
        """The signed-in player's own password change (checked as :meth:`authorise`): the
        ``current`` password, throttled as a sign-in is (the same buckets: a stolen session
        does not make guessing it cheaper), and a ``new`` one as :func:`check_password` wants
        it, not the current one (``same_password``). Every other session of the account ends;
        this one stays. How many ended.

        ``403 wrong_current_password`` for a wrong current password, and also when the
        password was changed (or reset) meanwhile, after this request checked it: the hash
        is replaced only if it is still the one the current password was checked against."""
        got = await self.signed_in(request)
        check_password(new, got.name)
        if new == current:
            raise ServerError("same_password", "the new password is the current one")
        row, ok = await self._check(request, name_key(got.name), current)
        if row is None or not ok:
            raise ServerError("wrong_current_password", "the current password is wrong", 403)
        async with self._hashing:
            hashed = await asyncio.to_thread(self.hasher.hash, new)
        token = _cookie(request)
        ended = await asyncio.to_thread(
            self.store.set_password, row.id, hashed, sign_out=True,
            keep=_hash(token) if token else None, expected=row.password_hash,
        )  # fmt: skip
        if ended is None:
            raise ServerError("wrong_current_password", "the password was changed meanwhile", 403)
        return ended

    # --- the operator's commands --------------------------------------------------------

    def reset_password(self, name: str, password: str) -> None:
        """Set an account's password (and end its sessions): ``citadels accounts
        reset-password``; ``ServerError("not_found")`` for an unknown name."""
        row = self.store.account_by_key(name_key(name.strip()))
        if row is None:
            raise ServerError("not_found", f"no account is named {name!r}", 404)
        check_password(password, row.name)
        self.store.set_password(row.id, self.hasher.hash(password), sign_out=True)

    def create(self, name: str, password: str) -> int:
        """A new account, from the command line."""
        name = clean_account_name(name)
        check_password(password, name)
        account = self.store.create_account(name, name_key(name), self.hasher.hash(password))
        if account is None:
            raise ServerError("name_taken", f"the name {name!r} is taken", 409)
        return account


def account_json(session: SessionRow | None, csrf: str | None = None) -> dict[str, Any]:
    """``GET /api/session``'s answer."""
    if session is None:
        return {"account": None, "csrf": None}
    return {"account": {"name": session.name}, "csrf": csrf or session.csrf}
