"""Whole games through the interface (Textual's pilot) against bots, in several editions."""

from __future__ import annotations

import pytest

from citadels.tui import PlayApp
from citadels.tui.screens import EndScreen
from tests.tui.harness import (
    SIZE,
    number_keys,
    play_out,
    random_key,
    screen_text,
    session,
    shot,
    wait_until,
)

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize(
    ("edition", "players", "options", "bots"),
    [
        ("basic", 3, {}, ["easy"]),
        ("classic", 4, {"preset": "dark_city"}, ["medium", "easy", "random"]),
        ("2016", 4, {}, ["medium"]),
    ],
)
async def test_a_person_finishes_a_game_against_bots(
    edition: str, players: int, options: dict[str, object], bots: list[str]
) -> None:
    s = session(edition, players, seed=11, bots=bots, seat=1, **options)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        decisions = await play_out(app, pilot, random_key(3))
        assert decisions > 5
        assert s.game.is_over
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        shot(app, f"end-{edition}")
        assert "The game is over" in text
        result = s.game.view(None)["result"]
        winners = [app._words.name(seat) for seat in result["winners"]]
        assert all(name in text for name in winners)
        # Every seat has its row with its score.
        for row in result["seats"]:
            assert app._words.name(row["seat"]) in text
            assert str(row["score"]) in text
        await pilot.press("q")
    assert app.return_value == "over"


async def test_a_rematch_starts_a_new_game_with_the_same_seats() -> None:
    s = session("basic", 2, seed=4, bots=["random"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert app.session is not s
        assert not app.session.game.is_over
        assert app.session.game.seed != s.game.seed
        assert [x.kind for x in app.session.seats] == [x.kind for x in s.seats]
        await wait_until(pilot, lambda: app._prompted)
        assert app._legal == app.session.game.legal_actions()
        assert app.session.game.view(0)["round"] == 1


async def test_typed_action_names_play_like_the_menu() -> None:
    """The input takes an action's name (parsed by present.parse_action)."""
    s = session("basic", 2, seed=2, bots=["random"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        legal = app._legal
        first = legal[0]
        name = first.character  # type: ignore[attr-defined]
        before = len(s.game.actions)
        # A letter in the menu starts typing; the rest goes to the input.
        await pilot.press(*app._words.card(name).lower())
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(s.game.actions) > before)
        assert s.game.actions[before] == first


async def test_bot_moves_are_paced_adjustably_and_skippable() -> None:
    """Bots play at the chosen pace (+ faster, - slower); Space skips the pauses until the
    next decision of a person; the interface answers keys while bots play."""
    s = session("classic", 4, seed=5, bots=["easy"])
    app = PlayApp(s, pace=1.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("plus")
        assert app.pace == 0.5
        await pilot.press("minus", "minus")
        assert app.pace == 1.5
        await wait_until(pilot, lambda: app._prompted)
        app.pace = 60.0  # a pause nobody would wait out
        before = len(s.game.actions)
        await pilot.press(*number_keys(1, len(app._legal)))
        await wait_until(pilot, lambda: len(s.game.actions) > before)
        assert s.game.to_move != 0
        # A bot moved and the next waits a minute: the table shows that move meanwhile.
        await wait_until(pilot, lambda: len(s.game.actions) > before + 1)
        await pilot.pause(0.3)
        assert not app._prompted and len(s.game.actions) == before + 2
        await pilot.press("space")
        # Without pauses the bots play up to the person's next decision (in seconds, not
        # minutes), and that decision ends the skip.
        await wait_until(pilot, lambda: app._prompted)
        assert not app.skipping
        assert len(s.game.actions) > before + 2
