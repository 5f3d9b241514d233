"""Issue 25: the terminal game at every terminal size from 80×24, in English and Persian.

Whole games driven through the interface (Textual's pilot, the real app at the real size):
at each of the person's decisions, every seat's name and gold are on screen, the newest
event the seat may know is on screen, no line is wider than the terminal and nothing is cut
(no ellipsis, the highlighted choice and the newest event read whole).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from citadels import present
from citadels.engine.actions import Build
from citadels.tui import PlayApp
from citadels.tui.screens import EndScreen
from tests.tui.harness import (
    number_keys,
    play_out,
    random_key,
    region_text,
    screen_text,
    session,
    settle,
    shot,
    words,
)

pytestmark = pytest.mark.asyncio

SIZES = [(80, 24), (100, 30), (120, 40), (160, 50)]


def builder(seed: int) -> Callable[[PlayApp], list[str]]:
    """Chooses by number like a person who builds when he can (else at random, seeded), so
    a game ends in a dozen rounds."""
    rng = random.Random(seed)

    def choose(app: PlayApp) -> list[str]:
        count = len(app._legal)
        builds = [i for i, a in enumerate(app._legal) if isinstance(a, Build)]
        pick = rng.choice(builds) if builds and rng.random() < 0.8 else rng.randrange(count)
        return number_keys(pick + 1, count)

    return choose


def check_decision(app: PlayApp, checked: list[int]) -> None:
    """What a person must see at a decision, whatever the terminal's size."""
    game = app.session.game
    seat = game.to_move
    assert seat is not None
    w = app._words
    tr = w.tr
    width, height = app.size
    text = screen_text(app)
    screen = text.split("\n")
    assert len(screen) >= height
    for line in screen:
        assert cell_len(line) <= width, line
    assert "…" not in text, "something is cut"
    view = game.view(seat)
    # Every seat's row: its name, then its gold, on one line of the table.
    table = [words(line) for line in region_text(app, "#table", text)]
    for p in view["players"]:
        name = words(w.name(p["seat"]))
        gold = tr.number(p["gold"])
        rows = [line for line in table if name in line]
        assert rows, (name, table)
        assert any(f" {gold} " in line.split(name, 1)[1] + " " for line in rows), (name, rows)
    # The newest event this seat may know, whole, in the log panel.
    log = words(" ".join(region_text(app, "#log", text)))
    newest = words(present.render_event(w.edition, view["log"][-1], w.lang, list(w.names)))
    assert log.endswith(newest), (newest, log[-200:])
    # The highlighted choice reads whole in the menu.
    entry = app._highlighted_entry()
    assert entry is not None
    menu = words(" ".join(region_text(app, "#menu", text)))
    assert words(entry.label) in menu, (entry.label, menu)
    checked.append(seat)


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_whole_game_at_every_size(width: int, height: int, lang: str) -> None:
    # The smallest terminal plays the longest game (four players, full cities); the larger
    # ones shorter games, so the suite stays quick.
    small = width == 80
    s = session(
        "classic",
        4 if small else 3,
        seed=width + height,
        bots=["medium"],
        **({} if small else {"complete_at": 6}),
    )
    s.lang = lang
    app = PlayApp(s, pace=0)
    checked: list[int] = []
    async with app.run_test(size=(width, height)) as pilot:
        await play_out(
            app,
            pilot,
            builder(width),
            on_decision=lambda a: check_decision(a, checked),
        )
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        shot(app, f"size-{width}x{height}-{lang}-end")
        assert "…" not in text
        for line in text.split("\n"):
            assert cell_len(line) <= width
        for row in s.game.view(None)["result"]["seats"]:
            assert words(app._words.name(row["seat"])) in words(text)
    assert len(checked) > 20


async def test_resizing_keeps_every_seat_and_the_newest_event() -> None:
    s = session("classic", 6, seed=8, bots=["medium"])
    app = PlayApp(s, pace=0)
    checked: list[int] = []
    sizes = iter(SIZES * 10)

    async def resize_and_check(a: PlayApp) -> Any:
        await pilot.resize_terminal(*next(sizes))
        await pilot.pause()
        await pilot.pause()
        check_decision(a, checked)

    async with app.run_test(size=(120, 40)) as pilot:
        await play_out(
            app,
            pilot,
            random_key(1),
            on_decision=resize_and_check,
            stop=lambda: len(checked) >= 12,
        )
    assert len(checked) >= 12


def newest_in_log(app: PlayApp) -> bool:
    """Whether the log panel ends with the newest event the player may know, whole."""
    game = app.session.game
    view = game.view(app.viewer)
    w = app._words
    log = words(" ".join(region_text(app, "#log")))
    return log.endswith(
        words(present.render_event(w.edition, view["log"][-1], w.lang, list(w.names)))
    )


async def test_the_newest_event_stays_in_sight_when_the_log_gets_shorter() -> None:
    # Seen in tmux at 120×40: a city on the table wrapped onto one more line at a decision,
    # the log panel got one line shorter and its newest line went under the border.
    s = session("classic", 4, seed=11, bots=["easy"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_out(app, pilot, random_key(3), stop=lambda: s.game.state.round >= 3)
        await settle(pilot)
        assert newest_in_log(app)
        # The table gets taller (as when a city wraps): the log panel gets shorter.
        table = app.query_one("#table", Static)
        tall = app.query_one("#log").size.height
        assert app._view is not None
        table.update(Group(app._table_panel(app._view, 120, 40), Text("\n" * 3)))
        await settle(pilot)
        assert app.query_one("#log").size.height < tall
        assert newest_in_log(app)
        # The terminal gets shorter.
        await pilot.resize_terminal(120, 32)
        await settle(pilot)
        assert newest_in_log(app)
        # Scrolled back on purpose, the log stays where the player put it.
        await pilot.press("pageup")
        await settle(pilot)
        assert not newest_in_log(app)
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert not newest_in_log(app)
