"""Fixtures for the browser tests: a real ``citadels serve`` (uvicorn) on a free loopback port
with SQLite in a temporary folder, and Debian's Chromium driven by Playwright.

The tests skip when Chromium or Playwright is missing, unless CITADELS_REQUIRE_SERVICES=1
(CI sets it), in which case they fail."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
REQUIRE = os.environ.get("CITADELS_REQUIRE_SERVICES") == "1"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
#: An init script for pages that play whole games: other players' moves shown at once (the
#: pacing of js/pace.js has its own tests in test_story.py, driven by an injected clock).
AT_ONCE = "try { localStorage.setItem('citadels.pace', '0'); } catch (e) {}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): keep these tests on one xdist worker")


def _unavailable(message: str) -> None:
    if REQUIRE:
        pytest.fail(message + " (CITADELS_REQUIRE_SERVICES=1)")
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server process (uvicorn through ``citadels serve``).
    CITADELS_WEB_SERVER=http://127.0.0.1:PORT points the tests at a server already running."""
    external = os.environ.get("CITADELS_WEB_SERVER")
    if external:
        yield external.rstrip("/")
        return
    folder = tmp_path_factory.mktemp("webserver")
    port = free_port()
    instance = f"web-tests-{port}-{os.getpid()}"
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "citadels",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{folder / 'citadels.sqlite3'}",
            "--bot-workers",
            "1",
            "--grace",
            "30",
            "--no-throttle",  # every page of the tests comes from 127.0.0.1
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
        start_new_session=True,  # its bot workers share its process group, ended together
        # The health check below must be this process's, not another test server's that took
        # the same free port first.
        # Reviews and hints at tiny budgets (issue 27): the tests check what the page does
        # with them, in seconds; the budgets' cost is measured in benchmarks/review.py.
        env={
            **os.environ,
            "CITADELS_INSTANCE": instance,
            "CITADELS_REVIEW_BUDGET": "12",
            "CITADELS_HINT_BUDGET": "24",
        },
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(url + "/healthz", timeout=1)
                if r.status_code == 200 and r.json().get("instance") == instance:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                text = (folder / "server.log").read_text()
                raise RuntimeError("the server did not start:\n" + text)
            time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()


def launch_chromium(*extra_args: str) -> Iterator[Any]:
    """Headless Debian Chromium with ``extra_args``, closed when the generator ends (the body
    of every ``browser`` fixture)."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                *extra_args,
            ],
        )
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium, for one test module. Not for the session: while Playwright's
    synchronous API runs, its event loop counts as running in the worker's main thread, and
    every later test of that worker that calls ``asyncio.run`` would fail."""
    yield from launch_chromium()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    """A page of the test server at a laptop's size; any script error on it fails the test."""
    ctx = browser.new_context(viewport=LAPTOP, base_url=server, reduced_motion="reduce")
    p = ctx.new_page()
    p.set_default_timeout(20000)
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield p
    ctx.close()
    assert errors == []


def routed_sockets(page: Any) -> list[Any]:
    """Route ``page``'s table WebSockets through the test, so that it can cut one as a bad
    network would (``sockets[-1].close(code=4000)``): the list fills with every socket the
    page opens, newest last."""
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/ws/.*"), through)
    return sockets


def create_table(page: Any, name: str, *, players: int, bots: int, edition: str = "basic") -> str:
    """Fill in the lobby's create-table form on ``page`` and send it; answers the new code."""
    page.fill("#create-name", name)
    page.select_option("#create-edition", edition)
    page.select_option("#create-players", str(players))
    page.select_option("#create-bots", str(bots))
    page.click("[data-key=create-submit]")
    page.wait_for_url(re.compile(r"/t/(?:[A-Z0-9]{4}-){3}[A-Z0-9]{4}$"))
    page.wait_for_selector(".room .seat.mine")
    return str(page.url.rsplit("/", 1)[1])


@contextlib.contextmanager
def started_table(
    browser: Any,
    server: str,
    viewport: dict[str, int],
    *,
    edition: str = "basic",
    init: str = "",
    bypass_csp: bool = False,
) -> Iterator[Any]:
    """A page of ``viewport`` (``init`` run first, reduced motion) at a new table of four of
    ``edition``, three of them bots, started and at the player's first decision; the context
    closes after, and a script error on the page fails the test."""
    ctx = browser.new_context(
        viewport=viewport, base_url=server, reduced_motion="reduce", bypass_csp=bypass_csp
    )
    if init:
        ctx.add_init_script(init)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        page.wait_for_selector(f"#create-edition option[value='{edition}']", state="attached")
        create_table(page, "Ada", players=4, bots=3, edition=edition)
        page.click("[data-key=start]")
        page.wait_for_selector(".table-screen .tray .action:not([disabled])")
        yield page
    finally:
        ctx.close()
    assert errors == []


def serious(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def shot(page: Any, name: str) -> None:
    """Keep a screenshot of the page under out/screenshots/ (a test artefact, not committed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    # The fonts' slices load as the text needs them; shoot once they have all arrived.
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def token_key(code: str) -> str:
    """The localStorage key under which the page keeps a table's seat token (net.js: the
    code's letters and digits alone, upper case)."""
    return "citadels.token." + re.sub("[^A-Z0-9]", "", code.upper())


def server_state(server: str, page: Any, code: str) -> dict[str, Any]:
    """What the server holds for this page's seat: version, event count, legal actions."""
    from websockets.sync.client import connect

    token = page.evaluate("k => localStorage.getItem(k)", token_key(code))
    url = server.replace("http", "ws", 1) + f"/ws/{code}"
    with connect(url, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "lang": "en"}))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=5))
            if msg.get("type") == "snapshot":
                return {
                    "version": msg.get("version"),
                    "event_count": msg.get("event_count"),
                    "legal": [entry["label"] for entry in msg.get("legal") or []],
                }
    return {}


def page_state(page: Any) -> dict[str, Any]:
    """What the page holds: its version, event count and the actions its tray shows."""
    return dict(
        page.evaluate(
            "() => ({version: document.getElementById('app').dataset.version,"
            " events: document.getElementById('app').dataset.events,"
            " legal: [...document.querySelectorAll('.tray .action')].map(b => b.innerText.trim())})"
        )
    )
