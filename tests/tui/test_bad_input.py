"""Bad input gets a clear message and changes nothing; a small terminal waits for a bigger one."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from citadels.tui import PlayApp
from tests.tui.harness import SIZE, screen_text, session, settle, wait_until

pytestmark = pytest.mark.asyncio


async def _typed(app: PlayApp, pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    app.query_one("#typed").focus()
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


def _status(app: PlayApp) -> str:
    return str(app.query_one("#status", Static).render())


async def test_typing_nonsense_names_the_problem_and_changes_nothing() -> None:
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        before = s.game.to_json()
        await _typed(app, pilot, "fly to the moon")
        assert "fly to the moon" in _status(app)
        assert "not an action" in _status(app)
        assert s.game.to_json() == before
        assert app._prompted
        # An ambiguous prefix names its candidates; still nothing changes.
        app.query_one("#typed").value = ""
        await _typed(app, pilot, "pick")
        assert "Pick the" in _status(app)
        assert s.game.to_json() == before
        # A number past the menu is refused too.
        app.query_one("#typed").value = ""
        await _typed(app, pilot, "99")
        assert s.game.to_json() == before
        assert _status(app)
        # And the game goes on with a good choice.
        app.query_one("#typed").value = ""
        await _typed(app, pilot, "1")
        await wait_until(pilot, lambda: len(s.game.actions) > 0)


async def test_keys_that_mean_nothing_do_nothing() -> None:
    s = session("basic", 3, seed=3, bots=["easy"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        before = s.game.to_json()
        await pilot.press("0", "f5", "ctrl+x", "pageup", "home", "escape", "!", "exclamation_mark")
        await settle(pilot)
        assert s.game.to_json() == before
        assert app._prompted and app.return_value is None


async def test_a_terminal_too_small_says_so_and_the_game_waits() -> None:
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(60, 16)) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        await settle(pilot)
        text = screen_text(app)
        assert "too small" in text and "60×16" in text and "80×24" in text
        before = s.game.to_json()
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        text = screen_text(app)
        assert "too small" not in text
        assert "choose your character" in text
        assert s.game.to_json() == before


async def test_the_smallest_terminal_still_shows_the_table() -> None:
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        await settle(pilot)
        text = screen_text(app)
        assert "too small" not in text
        assert "Pick the" in text and "Gold" in text
        from tests.tui.harness import shot

        shot(app, "smallest")
