"""The online game: an ASGI server for tables of friends and bots (``citadels serve``).

- :func:`create_app` builds the Starlette app from a :class:`ServerConfig`;
- :func:`serve` runs it on uvicorn;
- the protocol is ``docs/protocol.md`` (protocol 1), the deployment ``docs/deploy.md``.
"""

from __future__ import annotations

from citadels.server.app import ServerConfig, create_app, default_db_url
from citadels.server.hub import PROTOCOL

__all__ = ["PROTOCOL", "ServerConfig", "create_app", "default_db_url", "serve"]


def serve(
    config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, *, announce: bool = True
) -> None:
    """Run the server until interrupted, printing the URL to open."""
    import uvicorn

    from citadels.server.app import MESSAGE_MAX

    app = create_app(config)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if announce:
        print(f"Citadels server: open http://{shown}:{port}/ in your browser", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MESSAGE_MAX * 8,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=3,
    )
