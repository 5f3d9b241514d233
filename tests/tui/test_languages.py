"""Issue 11: the terminal game speaks the player's language (a whole game in Korean against
bots, the table in Persian digits) and ``--lang``/``LANG`` choose it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot

from citadels.tui import PlayApp, Session
from citadels.tui.screens import EndScreen
from tests.present.test_render_languages import english_words
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

HANGUL = re.compile("[\uac00-\ud7a3]")
#: Words the screen may show in Latin letters: keys, and the engine's ids of nothing else.
KEYS = {"Enter", "Tab", "Ctrl", "Space", "Escape", "Esc", "PgUp", "PgDn"}


def english_on(text: str) -> set[str]:
    """Words of the screen that are words of the English msgids (keys aside)."""
    return {w for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() in english_words()} - KEYS


def game_in(lang: str, edition: str, players: int, seed: int) -> tuple[Session, PlayApp]:
    """A person at seat 0 against easy bots, in ``lang``."""
    s = session(edition, players, seed=seed, bots=["easy"], seat=0)
    s.lang = lang
    return s, PlayApp(s, pace=0)


async def first_decision(app: PlayApp, pilot: Pilot[Any], name: str) -> str:
    """The screen when the person is first asked to decide (kept as a screenshot)."""
    await wait_until(pilot, lambda: app._prompted)
    await pilot.pause()  # the menu is drawn after the prompt is set: let the screen refresh
    shot(app, name)
    return screen_text(app)


async def test_a_person_plays_a_whole_game_in_korean() -> None:
    s, app = game_in("ko", "basic", 3, 5)
    async with app.run_test(size=SIZE) as pilot:
        text = await first_decision(app, pilot, "ko-start")
        for words in ("테이블", "내 캐릭터", "내 차례", "1라운드", "고르기", "시타델", "금화 2"):
            assert words in text, words
        assert not english_on(text), english_on(text)
        await play_out(app, pilot, random_key(7), stop=lambda: s.game.view(0)["round"] >= 2)
        text = screen_text(app)
        assert "2라운드" in text and not english_on(text), english_on(text)
        await play_out(app, pilot, random_key(7))
        assert s.game.is_over and isinstance(app.screen, EndScreen)
        text = screen_text(app)
        shot(app, "ko-end")
        assert "게임이 끝났습니다" in text and "승자" in text
        assert len(HANGUL.findall(text)) > 50
        assert not english_on(text), english_on(text)
        await pilot.press("q")
    assert app.return_value == "over"


async def test_the_persian_table_writes_numbers_in_persian_digits() -> None:
    _s, app = game_in("fa", "dezh", 4, 3)
    async with app.run_test(size=SIZE) as pilot:
        text = await first_decision(app, pilot, "fa-start")
        assert "دور ۱" in text and "شخصیت‌های شما" in text and "۴۵ کارت در دسته" in text
        assert "آدمکش" in text or "شاه" in text  # the seed's character names in the menu
        assert not english_on(text), english_on(text)


async def test_f3_switches_the_language_at_any_time_log_included() -> None:
    s, app = game_in("en", "classic", 4, 9)
    async with app.run_test(size=SIZE) as pilot:
        text = await first_decision(app, pilot, "en-start")
        assert "Round 1 begins" in text and "The table" in text
        await pilot.press("f3")
        await pilot.pause()
        assert s.lang == "fa"
        text = screen_text(app)
        assert "دور ۱ آغاز می‌شود" in text and "میز" in text and "Round" not in text
        for _ in range(3):
            await pilot.press("f3")
        await pilot.pause()
        assert s.lang == "vi"
        text = screen_text(app)
        shot(app, "vi-switched")
        assert "Vòng 1 bắt đầu" in text and "Bàn chơi" in text and "Chọn " in text
        assert not english_on(text) - {"Citadels"}, english_on(text)
        await pilot.press(*number_keys(1, len(app._legal)))  # the menu plays, in the language
        await wait_until(pilot, lambda: len(s.game.actions) > 0)
        await pilot.press("f3")
        await pilot.pause()
        assert s.lang == "en" and "Round 1 begins" in screen_text(app)


@pytest.mark.parametrize(("lang", "edition"), [("fa", "2016"), ("ru", "classic"), ("vi", "2016")])
async def test_no_english_word_on_the_table_or_in_the_card_help(lang: str, edition: str) -> None:
    _s, app = game_in(lang, edition, 5, 2)
    async with app.run_test(size=SIZE) as pilot:
        text = await first_decision(app, pilot, f"{lang}-{edition}")
        assert not english_on(text) - {"Citadels"}, english_on(text)
        await pilot.press("f1")  # the card under the cursor, explained
        await pilot.pause()
        help_text = screen_text(app)
        assert help_text != text and not english_on(help_text) - {"Citadels"}
        await pilot.press("escape")
