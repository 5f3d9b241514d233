"""The security headers of every HTTP response (docs/protocol.md, "Headers").

:class:`SecurityHeaders` wraps the whole application, outside Starlette's own error handler,
so that pages, the client's files, the API, refusals (``429``) and errors (``404``, ``500``)
all carry them. A header the response already has is left as it is.

The Content-Security-Policy lets the page load scripts, styles, fonts and images from its own
origin only (images also as ``data:`` URLs: the page's icon), run no inline script or style
attribute, connect only to its own origin, be framed by nobody and post forms nowhere else.
``connect-src 'self'`` covers the WebSocket of the same host in browsers that follow CSP 3;
Safari before 16 does not, so the WebSocket origins of the request's own ``Host`` are named
as well.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The policy, without the WebSocket origins (added per request).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'{ws}; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)

#: The headers besides the policy.
STATIC: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Invite links hold the table's code: no page sends its address to another site.
    (b"referrer-policy", b"no-referrer"),
]

#: A Host header fit to be named in the policy (a name or an address, and a port).
_HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")


def policy(host: str | None) -> str:
    """The Content-Security-Policy of a response to a request for ``host``."""
    ws = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return CSP.format(ws=ws)


class SecurityHeaders:
    """The ASGI middleware that adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = None
        for name, value in scope.get("headers", ()):
            if name == b"host":
                host = value.decode("latin-1")
                break
        extra = [(b"content-security-policy", policy(host).encode()), *STATIC]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {name.lower() for name, _value in headers}
                headers += [(n, v) for n, v in extra if n not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
