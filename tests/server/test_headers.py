"""Every HTTP response carries the security headers (issue 23, item 7): pages, the client's
files, the API, refusals and errors, a 500 included."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from citadels.server import create_app
from citadels.server.limits import Limits, Rate
from tests.server.conftest import config, hub_of, running

CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
}


def check(r: httpx.Response) -> None:
    h = r.headers
    assert h["x-content-type-options"] == "nosniff", r.url
    assert h["x-frame-options"] == "DENY", r.url
    assert h["referrer-policy"] == "no-referrer", r.url
    directives = {}
    for part in h["content-security-policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    host = r.request.headers["host"]
    assert directives.pop("connect-src") == ["'self'", f"ws://{host}", f"wss://{host}"]
    assert directives == CSP, r.url


def test_every_kind_of_response_has_the_security_headers(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def go() -> None:
        cfg = config(sqlite_url, limits=Limits(create=Rate(1e-6, 1)))
        app = create_app(cfg)
        async with running(cfg, app=app) as base, httpx.AsyncClient(base_url=base) as client:
            made = await client.post("/api/tables", json={"name": "Anna"})
            code = made.json()["code"]
            responses: list[tuple[str, int, Any]] = [
                ("/", 200, made),
                (f"/t/{code}", 200, None),
                ("/static/css/app.css", 200, None),
                ("/js/app.js", 200, None),
                ("/api/info", 200, None),
                (f"/api/tables/{code}", 200, None),
                ("/api/tables/QQQQQQ", 404, None),
                ("/static/no-such-file.js", 404, None),
            ]
            check(made)
            for path, status, _ in responses:
                r = await client.get(path)
                assert r.status_code == status, (path, r.status_code)
                check(r)
            # A wrong method, a refusal and a failure.
            r = await client.delete("/api/tables")
            assert r.status_code == 405
            check(r)
            r = await client.post("/api/tables", json={"name": "Ben"})
            assert r.status_code == 429
            check(r)

            async def broken(_code: str) -> Any:
                raise RuntimeError("a bug")

            monkeypatch.setattr(hub_of(app), "info", broken)
            r = await client.get(f"/api/tables/{code}")
            assert r.status_code == 500
            check(r)

    asyncio.run(go())


def test_a_host_header_that_is_no_host_is_not_named_in_the_policy() -> None:
    from citadels.server.headers import policy

    assert "ws://example.org:8000 wss://example.org:8000" in policy("example.org:8000")
    assert "ws://[::1]:80" in policy("[::1]:80")
    for bad in ("evil.org; script-src *", "a b", "", None):
        assert "connect-src 'self';" in policy(bad)
