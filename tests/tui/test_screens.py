"""The main screens, checked by their text and kept as SVG screenshots in out/tui/."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from citadels import present
from citadels.tui import PlayApp
from citadels.tui.screens import EndScreen, HelpScreen
from tests.tui.harness import (
    SIZE,
    number_keys,
    play_out,
    screen_text,
    session,
    settle,
    shot,
    wait_until,
)

pytestmark = pytest.mark.asyncio

NAMES = ["Anna", "Boris", "Clara", "Dmitri"]


async def _first_prompt(app: PlayApp, pilot) -> str:  # type: ignore[no-untyped-def]
    await wait_until(pilot, lambda: app._prompted)
    await settle(pilot)
    return screen_text(app)


async def test_the_draft_shows_the_offered_characters_with_their_powers() -> None:
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        text = await _first_prompt(app, pilot)
        shot(app, "draft")
        view = s.game.view(0)
        offered = view["selection"]["offered"]
        assert "choose your character" in text
        for i, character in enumerate(offered[:3]):
            info = present.card_info("classic", character)
            assert f"{i + 1} Pick the {info.name}" in text
            assert info.power[:30] in text.replace("\n", " ") or info.power.split()[0] in text
        # Face-up removed characters are marked on the table.
        for character in view["faceup_removed"]:
            assert f"✗ {s.game.edition.characters[character].rank}" in text


async def test_the_table_reads_at_a_glance() -> None:
    s = session("classic", 4, seed=3, bots=["medium"], names=["Ada"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _first_prompt(app, pilot)
        await pilot.press(*number_keys(1, len(app._legal)))
        text = await _first_prompt(app, pilot)
        shot(app, "turn")
        view = s.game.view(0)
        # Players with gold and hand sizes, the crown, who is to move.
        assert "Ada (you)" in text
        assert "♔ crown" in text
        assert "is to move" in text
        for p in view["players"]:
            assert str(p["gold"]) in text
        # Your hand: colour symbol, word, cost and name.
        for card in view["players"][0]["hand"]:
            info = present.card_info("classic", card)
            label = present.colour_label(info.colour_id or "")
            assert info.name in text
            assert label.symbol in text and label.word in text
        # A legend pairs each colour with its symbol and letter (never colour alone).
        for colour in ("yellow", "blue", "green", "red", "purple"):
            label = present.colour_label(colour)
            assert f"{label.symbol}{label.letter} {label.word}" in text
        # The narration shows what happened, in the presentation layer's words.
        assert "What happened" in text
        assert "since your last decision" in text
        # The revealed characters are named with their seat.
        for character, seat in view["revealed"].items():
            assert f"{s.game.edition.characters[character].rank} " in text
            assert f"({app._words.name(seat)})" in text


async def test_help_explains_the_card_under_the_cursor() -> None:
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _first_prompt(app, pilot)
        await pilot.press("down")
        action = app._legal[1]
        character = action.character  # type: ignore[attr-defined]
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        shot(app, "help-character")
        info = present.card_info("classic", character)
        assert info.name in text
        assert info.power.split(".")[0][:40] in text.replace("\n", " ")
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)
        # Tab moves to the hand; F1 there explains the highlighted district.
        await pilot.press("tab", "tab")
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "hand"
        await pilot.press("f1")
        await settle(pilot)
        first = s.game.view(0)["players"][0]["hand"][0]
        dinfo = present.card_info("classic", first)
        text = screen_text(app)
        shot(app, "help-district")
        assert dinfo.name in text
        assert f"costs {dinfo.cost} gold" in text


async def test_the_end_screen_has_the_breakdown_and_tie_break_columns() -> None:
    s = session("basic", 2, seed=21, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        shot(app, "end")
        for header in present.score_headers():
            assert header in text
        for line in present.score_lines(s.game.view(None)["result"], names=app._words.names):
            assert line.name in text
            if line.tiebreak:
                assert line.tiebreak in text
        assert "r: play again" in text


async def test_no_color_keeps_every_symbol_and_word(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    assert app.no_color
    async with app.run_test(size=SIZE) as pilot:
        text = await _first_prompt(app, pilot)
        shot(app, "no-color")
        for colour in ("yellow", "blue", "green", "red", "purple"):
            label = present.colour_label(colour)
            assert f"{label.symbol}{label.letter} {label.word}" in text


async def test_the_waiting_line_names_the_seat_the_title_bar_names() -> None:
    # Seen in tmux with a pace of 1 s: while a bot's move stayed on screen, the title bar
    # already named the next seat to move and the menu's box still waited for the bot that
    # had just moved ("Boris is thinking…").
    from textual.widgets import Static

    s = session("classic", 4, seed=5, bots=["random"], seat=3, names=NAMES)
    app = PlayApp(s, pace=0.2)
    seen: list[tuple[str, str]] = []
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3000):
            await pilot.pause(0.01)
            if len(seen) >= 12:
                break
            if app._prompted:
                await pilot.press(*number_keys(1, len(app._legal)))
                continue
            if app._pause is None:
                continue  # only the pause after a bot's move: its move and who is next
            game = s.game
            nxt = game.to_move
            assert nxt is not None
            title = str(app.query_one("#title", Static).render())
            prompt = str(app.query_one("#prompt", Static).render())
            status = str(app.query_one("#status", Static).render())
            assert NAMES[nxt] in title, title
            if s.is_human(nxt):
                assert "Waiting" not in prompt and "thinking" not in status, (prompt, status)
            else:
                assert prompt == f"Waiting for {NAMES[nxt]}", (title, prompt)
                assert "thinking" not in status, status  # the bot has not started yet
            pair = (title, prompt)
            if not seen or seen[-1] != pair:
                seen.append(pair)
    assert len(seen) >= 3


async def test_a_card_power_in_the_hand_panel_wraps_under_its_indent() -> None:
    # Seen in tmux at 120×40: only the first line of a power was indented, the next ones
    # began at the panel's border and ran up to the other one.
    from tests.tui.harness import region_text, words

    s = session("classic", 4, seed=3, bots=["random"], names=NAMES)
    hand = s.game.view(0)["players"][0]["hand"]
    powers = [present.card_info(s.game.edition, c, "en").power for c in hand]
    powers = [p for p in powers if p]
    assert powers, "a hand with a power to show"
    app = PlayApp(s, pace=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        await settle(pilot)
        lines = [line.rstrip() for line in region_text(app, "#hand")]
        width = app.query_one("#hand").scrollable_content_region.width
        under = [line for line in lines if line.startswith(" ")]
        assert len(under) > len(powers)  # each power wraps onto more than one line
        for line in under:
            assert line.startswith("    "), lines
        for power in powers:
            assert words(power) in words(" ".join(under)), (power, lines)
        assert all(len(line) < width for line in lines), lines  # a cell from the border


async def test_the_table_redraws_under_a_dialog() -> None:
    """A menu highlight or a redraw while a dialog is on top draws on the table's own screen.

    ``App.query_one`` searches only the screen on top; under load a highlight could arrive
    while the card's help was open and fail with ``NoMatches '#table'``.
    """
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _first_prompt(app, pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        menu = app._table_screen().query_one("#menu", OptionList)
        menu.highlighted = 1  # posts OptionHighlighted while the help is on top
        await settle(pilot)
        app.refresh_table()
        app._check_size(50, 10)  # too small: the table's screen, not the dialog, says so
        assert app._table_screen().has_class("small")
        assert not app.screen.has_class("small")
        app._check_size(*SIZE)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)
        assert not app.screen.has_class("small")


async def test_a_highlight_after_the_table_is_gone_is_ignored() -> None:
    """A highlight handled after the app began closing (the table taken down) redraws
    nothing and raises nothing (seen once under load as ``NoMatches '#table'``)."""
    s = session("classic", 4, seed=3, bots=["medium"])
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _first_prompt(app, pilot)
        await app._table_screen().query_one("#table").remove()
        app._table_screen().query_one("#menu", OptionList).highlighted = 1
        await settle(pilot)
        assert app.is_running
