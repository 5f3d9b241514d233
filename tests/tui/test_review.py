"""Issue 27 in the terminal game: "Review my game" on the end screen (computed in a thread with
its progress, then the curve, the mistakes and the key moments in the game's language) and the
hint key (F5) during play, at the smallest terminal, 80×24."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from citadels.bots import make_bot
from citadels.engine.game import new_game, replay
from citadels.present.review import key_moment_lines, label_text
from citadels.review import hint, review_game
from citadels.sim import play_game
from citadels.tui import PlayApp
from citadels.tui.review import (
    EIGHTHS,
    LABEL_STYLES,
    HintScreen,
    ReviewScreen,
    chance_chart,
    review_body,
    sparkline,
)
from citadels.tui.screens import EndScreen
from citadels.tui.table import make_words
from tests.tui.harness import (
    play_out,
    random_key,
    screen_text,
    session,
    settle,
    shot,
    wait_until,
    words,
)
from tests.tui.test_languages import english_on

SMALL = (80, 24)
BUDGET = 40


def test_the_chart_draws_each_decision_in_eighths_of_a_cell() -> None:
    lines = chance_chart([0.0, 0.5, 1.0], ["green3"] * 3, 11, rows=2, rounds=[1, 1, 2])
    scale, axis = [str(line) for line in lines[:2]], str(lines[2])
    # Three decisions in 11 cells less the scale ("100%" and a bar): two cells each.
    assert scale[0] == "100%│" + " " * 4 + EIGHTHS[8] * 2  # 1.0 fills the top row too
    assert scale[1] == "  0%│" + EIGHTHS[0] * 2 + EIGHTHS[8] * 4  # 0.5 fills the bottom one
    quarter = str(chance_chart([0.25], ["green3"], 11, rows=1)[0])
    assert quarter == "100%│" + EIGHTHS[2] * 3  # a quarter: two eighths (three cells at most)
    assert axis.endswith("└1   2 ")  # each round numbered where it starts
    # More decisions than cells: a column shows the worst label among its decisions.
    many = chance_chart([0.3] * 40, ["green3"] * 39 + [LABEL_STYLES["blunder"]], 25, rows=1)
    assert len(many) == 1
    styles = [span.style for span in many[0].spans]
    assert styles[-1] == LABEL_STYLES["blunder"] and styles.count(LABEL_STYLES["blunder"]) == 1
    assert sparkline([0.0, 0.5, 1.0]) == "▁▅█"


def reviewed_game() -> Any:
    game = new_game("basic", 3, seed=4)
    play_game(game, [make_bot("medium", seed=s) for s in range(3)])
    return review_game(game, 1, budget=8)


@pytest.mark.parametrize("lang", ["fa", "ru", "ko", "vi"])
def test_the_review_reads_in_every_language(lang: str) -> None:
    review = reviewed_game()
    w = make_words("basic", lang, [None, None, None])
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(review_body(review, w, 78))
    text = console.export_text()
    assert not english_on(text), english_on(text)
    for line in key_moment_lines(review, lang, list(w.names)):
        assert words(line) in words(text)
    assert label_text("good", lang) in text


async def _to_the_end(app: PlayApp, pilot: Pilot[Any]) -> None:
    await play_out(app, pilot, random_key(3))
    await settle(pilot)
    assert isinstance(app.screen, EndScreen)


@pytest.mark.asyncio
async def test_review_my_game_from_the_end_screen_at_80x24() -> None:
    s = session("classic", 4, seed=5, bots=["medium"], names=["Ada"])
    app = PlayApp(s, pace=0, review_budget=BUDGET)
    async with app.run_test(size=SMALL) as pilot:
        await _to_the_end(app, pilot)
        text = screen_text(app)
        shot(app, "review-end-80x24")
        # The key is on screen however long the scores are.
        assert "v: review my game" in text and "r: play again" in text
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        # While it runs (in a thread), the progress shows and the keys answer: → shows the
        # next seat's review at once (started then), ← comes back.
        seen: list[str] = []
        # The progress line is drawn while the review runs (sampled until it is seen: a busy
        # machine may draw it only after the first positions are done, and a fast one may end
        # the review before a frame is drawn; a failed review is reported below with its error).
        await wait_until(
            pilot,
            lambda: (
                seen.append(screen_text(app))
                or any("Reviewing Ada's game:" in t and " positions" in t for t in seen)
                or screen.job.finished
            ),
        )
        assert screen.job.error is None, screen.job.error
        await pilot.press("right")
        await settle(pilot)
        assert screen.seat == 1 and "Seat 1" in screen_text(app)
        await pilot.press("left")
        await settle(pilot)
        assert screen.seat == 0
        await wait_until(pilot, lambda: screen.job.finished, 20000)
        await pilot.pause(0.5)
        text = screen_text(app)
        shot(app, "review-80x24")
        review = screen.job.review
        assert review is not None and screen.job.error is None
        # The same review as the library's (deterministic, from the seat's view).
        assert review.to_json() == review_game(replay(s.game.record()), 0, budget=BUDGET).to_json()
        assert "Review of Ada's game" in text
        assert "Ada's estimated win chance after each decision" in text
        assert "100%│" in text and "  0%│" in text and "└1" in text
        # Scrolled down: the labels, the key moments and the decisions that lost chances.
        whole = text
        for _ in range(6):
            await pilot.press("pagedown")
            await settle(pilot)
            whole += screen_text(app)
        counts = review.counts()
        assert f"good {counts['good']}" in whole
        for line in key_moment_lines(review, "en", list(app._words.names)):
            assert words(line)[:40] in words(whole)
        assert "Key moments" in whole
        # Back to the scores, and again: the review is kept, not computed again.
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        job = app._reviews.jobs[0] if app._reviews else None
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen) and app.screen.job is job
        await pilot.press("escape", "q")


@pytest.mark.asyncio
async def test_f5_shows_the_best_actions_from_the_seats_view_at_80x24() -> None:
    s = session("classic", 4, seed=2, bots=["medium"])
    app = PlayApp(s, pace=0, hint_budget=60)
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        await settle(pilot)
        assert "F5 hint" in screen_text(app)
        await play_out(app, pilot, random_key(1), stop=lambda: s.game.round >= 2)
        await wait_until(pilot, lambda: app._prompted)
        game = s.game
        seat = game.to_move
        assert seat == 0
        expected = hint(game.view(seat), seat, 60, options=game.record()["options"])
        await pilot.press("f5")
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
        screen = app.screen
        assert isinstance(screen, HintScreen)
        await wait_until(pilot, lambda: screen.lines is not None, 5000)
        await settle(pilot)
        text = screen_text(app)
        shot(app, "hint-80x24")
        assert screen.lines is not None
        assert [h.estimate for h in screen.lines] == expected
        assert "Hint for Seat 0" in text
        for h in screen.lines:
            assert h.label[:30] in text
            assert app._entries[h.number - 1].action == h.estimate.action
        # Enter: back to the menu with the best choice highlighted; nothing was played.
        moves = len(game.actions)
        await pilot.press("enter")
        await settle(pilot)
        assert app._prompted and len(game.actions) == moves
        best = app._highlighted_entry()
        assert best is not None and best.action == expected[0].action
        # Asked again at the same moment: shown at once.
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(app.screen, HintScreen) and app.screen.lines == screen.lines
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HintScreen)
