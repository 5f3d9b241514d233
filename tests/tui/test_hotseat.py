"""Friends at one screen: the "pass to <name>" guard stands between two people's turns."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from citadels.tui import PlayApp
from citadels.tui.screens import PassScreen
from tests.tui.harness import SIZE, play_out, screen_text, session, settle, shot, wait_until

pytestmark = pytest.mark.asyncio


def _hand_cards(app: PlayApp, seat: int) -> list[str]:
    """The names of the cards in ``seat``'s hand (from the engine, for the check)."""
    hand = app.session.game.view(seat)["players"][seat]["hand"]
    return [app._words.card(card) for card in hand]


async def test_the_guard_shows_nothing_of_the_next_hand_before_confirmation() -> None:
    s = session("basic", 2, seed=8, hotseat=True, names=["Anna", "Ben"])
    app = PlayApp(s, pace=0)
    handovers = 0

    def check_guard(app: PlayApp) -> None:
        nonlocal handovers
        screen = app.screen
        assert isinstance(screen, PassScreen)
        seat = app.session.game.to_move
        assert seat is not None and screen.seat == seat
        text = screen_text(app)
        assert f"Pass the keyboard to {app._words.name(seat)}" in text
        # Not one card of the next hand (nor of anybody's) is on the screen.
        for other in range(2):
            for card in _hand_cards(app, other):
                assert card not in text, f"{card} of seat {other} shows on the pass screen"
        # Under the guard, the table itself holds no hand either.
        assert app.viewer is None
        assert app.query_one("#hand", OptionList).option_count == 0
        if handovers == 0:
            shot(app, "hotseat-guard")
        handovers += 1

    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        await settle(pilot)
        check_guard(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app._prompted)
        await settle(pilot)
        # After the confirmation the person sees his own hand, and only his.
        seat = s.game.to_move
        assert app.viewer == seat
        text = screen_text(app)
        assert "Anna's hand" in text
        for card in _hand_cards(app, 0):
            assert card in text
        shot(app, "hotseat-after-confirm")
        await play_out(app, pilot, on_pass=check_guard)
        assert s.game.is_over
    assert handovers > 10


async def test_hotseat_with_a_bot_hides_hands_while_the_bot_plays() -> None:
    s = session("basic", 3, seed=5, hotseat=True, bots=["easy"], names=["Anna", "Ben"])
    app = PlayApp(s, pace=0)
    seen_viewers: set[int | None] = set()

    def note(app: PlayApp) -> None:
        seen_viewers.add(app.viewer)

    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot, on_pass=note, stop=lambda: s.game.round > 2)
    assert s.game.round > 2
    assert seen_viewers == {None}
    assert [seat.kind for seat in s.seats] == ["human", "human", "easy"]
