"""The terminal game's test harness: Textual's pilot, the screen as text, SVG screenshots."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from citadels.engine.game import new_game
from citadels.present.i18n import without_bidi_controls
from citadels.tui import PlayApp, Session, make_seats
from citadels.tui.screens import ConfirmScreen, EndScreen, PassScreen

#: Where screenshots go (git-ignored).
OUT = Path(__file__).resolve().parents[2] / "out" / "tui"

SIZE = (120, 36)


def session(
    edition: str = "classic",
    players: int = 4,
    *,
    seed: int = 1,
    bots: list[str] | None = None,
    seat: int = 0,
    hotseat: bool = False,
    names: list[str] | None = None,
    save: Path | None = None,
    **options: Any,
) -> Session:
    """A session as ``citadels play`` builds it."""
    game = new_game(edition, players, seed=seed, **options)
    return Session(game, make_seats(players, bots, seat, hotseat, names), hotseat, save)


def screen_text(app: PlayApp) -> str:
    """Everything the terminal shows now, as plain text (what a person could read)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text().replace("\u00a0", " ")


def shot(app: PlayApp, name: str) -> Path:
    """Save an SVG screenshot under ``out/tui/`` (looked at by people, never committed)."""
    OUT.mkdir(parents=True, exist_ok=True)
    return Path(app.save_screenshot(f"{name}.svg", path=str(OUT)))


async def wait_until(pilot: Pilot[Any], cond: Callable[[], bool], limit: int = 2000) -> None:
    """Let the app run until ``cond()`` holds (bots think in threads); fails after ``limit``
    short pauses, so a stuck interface fails the test instead of hanging it."""
    for _ in range(limit):
        if cond():
            return
        await pilot.pause(0.01)
    raise AssertionError("the interface did not get there")


async def settle(pilot: Pilot[Any]) -> None:
    """Let every pending message and redraw happen."""
    await pilot.pause()
    await pilot.pause()


def waiting_for_person(app: PlayApp) -> bool:
    """The app waits for a key: a menu, the pass screen or the end."""
    return app._prompted or isinstance(app.screen, PassScreen | EndScreen)


def at_menu(app: PlayApp) -> bool:
    """A person's menu is on screen and takes keys (no confirmation above it)."""
    return app._prompted and not isinstance(app.screen, ConfirmScreen)


def number_keys(number: int, count: int) -> list[str]:
    """The keys that choose the ``number``-th of ``count`` choices in the menu: its digits,
    then Enter when a longer number could start so (``1`` of 12 choices waits for a second
    digit)."""
    keys = list(str(number))
    return keys if number * 10 > count else [*keys, "enter"]


def random_key(seed: int) -> Callable[[PlayApp], list[str]]:
    """Presses the number of a choice at random (seeded), past nine too. Always pressing "1"
    can keep a game going for hundreds of rounds (taking gold and never building)."""
    rng = random.Random(seed)

    def choose(app: PlayApp) -> list[str]:
        count = len(app._legal)
        return number_keys(rng.randint(1, count), count)

    return choose


async def play_out(
    app: PlayApp,
    pilot: Pilot[Any],
    choose: Callable[[PlayApp], str | list[str]] | None = None,
    *,
    on_pass: Callable[[PlayApp], None] | None = None,
    on_decision: Callable[[PlayApp], Any] | None = None,
    max_decisions: int = 3000,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Answer every decision of the people (``choose`` gives the keys to press; a seeded
    random number by default; a confirmation is answered yes) until the end screen (or
    until ``stop()`` holds); ``on_decision`` looks at each decision's screen first (awaited
    when it is a coroutine). Returns the number of decisions made."""
    if choose is None:
        choose = random_key(0)
    decisions = 0
    while decisions < max_decisions:
        await wait_until(pilot, lambda: waiting_for_person(app))
        if isinstance(app.screen, EndScreen) or (stop is not None and stop()):
            return decisions
        if isinstance(app.screen, PassScreen):
            await pilot.pause()  # drawn
            if on_pass is not None:
                on_pass(app)
            await pilot.press("enter")
            await wait_until(pilot, lambda: not isinstance(app.screen, PassScreen))
            continue
        if on_decision is not None:
            await settle(pilot)
            looked = on_decision(app)
            if hasattr(looked, "__await__"):
                await looked
        before = len(app.session.game.actions)
        keys = choose(app)
        await pilot.press(*([keys] if isinstance(keys, str) and len(keys) == 1 else keys))
        await wait_until(
            pilot,
            lambda b=before: (
                len(app.session.game.actions) > b or isinstance(app.screen, ConfirmScreen)
            ),
        )
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("enter")
            await wait_until(pilot, lambda b=before: len(app.session.game.actions) > b)
        decisions += 1
    raise AssertionError("the game did not end")


def words(text: str) -> str:
    """``text`` as a run of words: bidi controls dropped, every run of spaces one space (a
    wrapped line joined again reads as the sentence it was)."""
    return " ".join(without_bidi_controls(text).split())


def crop(line: str, x: int, width: int) -> str:
    """The cells ``x`` to ``x + width`` of a screen line (wide characters take two cells,
    zero-width ones stay with the character before them)."""
    from rich.cells import cell_len

    out = []
    at = 0
    for char in line:
        size = cell_len(char)
        if x <= at < x + width or (size == 0 and out and at <= x + width):
            out.append(char)
        at += size
    return "".join(out)


def region_text(app: PlayApp, selector: str, screen: str | None = None) -> list[str]:
    """The lines a widget shows on ``screen`` (now, by default): its content, without
    borders or scrollbar."""
    region = app.query_one(selector).scrollable_content_region
    lines = (screen_text(app) if screen is None else screen).split("\n")
    return [crop(line, region.x, region.width) for line in lines[region.y : region.bottom]]
