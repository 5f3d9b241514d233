"""The online game: an ASGI server for tables of friends and bots (``citadels serve``).

- :func:`create_app` builds the Starlette app from a :class:`ServerConfig`;
- :func:`serve` runs it on uvicorn;
- the protocol is ``docs/protocol.md`` (protocol 1), the deployment ``docs/deploy.md``.
"""

from __future__ import annotations

from citadels.server.app import ServerConfig, create_app, default_db_url
from citadels.server.messages import PROTOCOL

__all__ = ["PROTOCOL", "ServerConfig", "browser_url", "create_app", "default_db_url", "serve"]


#: The cyclic garbage collector's thresholds in a server process (``gc.set_threshold``). With
#: Python's default (700 allocations) a loaded server collected its youngest generation
#: several times a second and its oldest every few seconds, a quarter of its CPU in all
#: (docs/deploy.md, "Load"); a server allocates fast and makes little cyclic garbage.
GC_THRESHOLDS = (20_000, 20, 20)

#: Seconds a thread holds the interpreter before another waiting for it may take it
#: (``sys.setswitchinterval``; Python's default is 5 ms). The thread that writes a batch of
#: moves (group commit) gives the interpreter up around every SQLite call and must take it
#: back from a busy event loop each time; at 5 ms a batch took tens of milliseconds and
#: every table waited for it (docs/deploy.md, "Load": SQLite's throughput more than doubled).
SWITCH_INTERVAL = 0.0005


def tune_process() -> None:
    """Tune the interpreter for serving: :data:`SWITCH_INTERVAL`, :data:`GC_THRESHOLDS`, and
    what the start-up allocated (modules, catalogues, the app) moved out of the collector's
    sight (``gc.freeze``): it lives as long as the process."""
    import gc
    import sys

    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class _Stopped(Exception):
    """SIGTERM (or SIGINT) asked the server to stop."""


def _stop(signum: int, _frame: object) -> None:
    raise _Stopped(signum)


def browser_url(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}/"


def serve(
    config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, *, announce: bool = True
) -> None:
    """Run the server, printing the URL to open (unless ``announce`` is false), until Ctrl+C,
    SIGINT or SIGTERM stops it: it then shuts down in order (uvicorn's graceful shutdown, the
    tables closed, the bot workers stopped) and returns normally, with no traceback."""
    import signal

    import uvicorn

    from citadels.server.session import MESSAGE_MAX

    # uvicorn catches both signals while it runs and raises the one it caught again once it has
    # shut down: these handlers turn that into a plain return (the default of SIGTERM would kill
    # the process, that of SIGINT raise KeyboardInterrupt through the caller).
    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        app = create_app(config)
        tune_process()
        if announce:
            print(f"Citadels server: open {browser_url(host, port)} in your browser", flush=True)
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
    except (_Stopped, KeyboardInterrupt):
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
