"""Save at any time and on leaving; resume where the game stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from citadels.tui import PlayApp, load_session
from tests.tui.harness import SIZE, number_keys, play_out, screen_text, session, settle, wait_until

pytestmark = pytest.mark.asyncio


async def _decide(app: PlayApp, pilot, times: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        await wait_until(pilot, lambda: app._prompted)
        before = len(app.session.game.actions)
        await pilot.press(*number_keys(1, len(app._legal)))
        await wait_until(pilot, lambda b=before: len(app.session.game.actions) > b)


async def test_every_move_is_saved_and_ctrl_s_says_where(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    s = session("classic", 4, seed=6, bots=["medium"], save=path)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _decide(app, pilot, 3)
        await wait_until(pilot, lambda: app._prompted)
        assert load_session(path).game.record() == s.game.record()  # saved after each move
        path.unlink()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert path.exists()
        assert str(path) in " ".join(str(n.message) for n in app._notifications)


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+d", "ctrl+q"])
async def test_leaving_saves_and_resume_goes_on_from_there(tmp_path: Path, key: str) -> None:
    path = tmp_path / "game.json"
    s = session("basic", 3, seed=7, bots=["easy"], save=path)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _decide(app, pilot, 4)
        await wait_until(pilot, lambda: app._prompted)
        path.unlink()
        await pilot.press(key)
        await settle(pilot)
    assert app.return_value == "quit"
    assert app.saved_to == str(path)
    record = s.game.record()

    back = load_session(path)
    assert back.game.record() == record
    app2 = PlayApp(back, pace=0)
    async with app2.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app2._prompted)
        await settle(pilot)
        # The same decision waits, with the same menu.
        assert app2._legal == s.game.legal_actions()
        assert "Seat 0's hand" in screen_text(app2)
        if key != "ctrl+c":
            return
        # Once, the resumed game is played to its end.
        await play_out(app2, pilot)
        assert back.game.is_over
        assert back.game.actions[: len(record["actions"])] == s.game.actions
        await pilot.press("q")
    # The finished game is in the save file too.
    assert load_session(path).game.is_over


async def test_a_hangup_saves_before_leaving(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    s = session("basic", 2, seed=3, bots=["easy"], save=path)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await _decide(app, pilot, 2)
        path.unlink()
        app._on_signal()  # what SIGHUP and SIGTERM call
        await settle(pilot)
    assert app.return_value == "quit"
    assert load_session(path).game.record() == s.game.record()


async def test_resume_while_a_bot_is_to_move_lets_the_bot_play(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    s = session("classic", 4, seed=2, bots=["easy"], seat=3, save=path)
    while s.is_human(s.game.to_move) or s.game.to_move is None:
        s.game.apply(s.game.legal_actions()[0])
    s.save()
    back = load_session(path)
    assert not back.is_human(back.game.to_move)
    app = PlayApp(back, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app._prompted)
        assert back.game.to_move == 3


async def test_a_fault_of_the_interface_still_saves_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    s = session("basic", 2, seed=3, bots=["easy"], save=path)
    app = PlayApp(s, pace=0)

    def boom() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        async with app.run_test(size=SIZE) as pilot:
            await _decide(app, pilot, 1)
            path.unlink()
            monkeypatch.setattr(app, "action_help", boom)
            await pilot.press("f1")
            await settle(pilot)
    assert load_session(path).game.record() == s.game.record()
