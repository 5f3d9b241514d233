"""Issue 25: saves that are also records. Every file ``citadels play`` writes replays with
``citadels replay`` and resumes with ``--resume``; a damaged one gets an error naming the
problem; the printed hints work when pasted into a shell in the project folder."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from citadels.bots import RandomBot
from citadels.cli.app import main
from citadels.tui import PlayApp, load_session
from citadels.tui.commands import MAKE_ENV, Commands, program
from tests.tui.harness import SIZE, play_out, session, wait_until

ROOT = Path(__file__).resolve().parents[2]
CITADELS = Path(sys.executable).with_name("citadels")


def replays(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``citadels replay FILE`` prints (it must succeed)."""
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(path)])
    out = capsys.readouterr()
    assert exc.value.code == 0, out.err
    return out.out


@pytest.mark.asyncio
async def test_every_file_the_game_writes_replays_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game-1.json"
    s = session("basic", 2, seed=1, bots=["easy"], save=path)
    app = PlayApp(s, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(app, pilot, stop=lambda: s.game.view(0)["round"] >= 3)
        middle = path.read_text()
        await play_out(app, pilot)
        await pilot.press("r")  # a rematch writes its own file
        await wait_until(pilot, lambda: app._prompted)
        rematch = app.session.save_path
        await pilot.press("ctrl+q")
    assert rematch is not None and rematch != path and rematch.exists()
    unfinished = tmp_path / "middle.json"
    unfinished.write_text(middle)
    for written in (path, unfinished, rematch):
        text = replays(written, capsys)
        assert "Seat 0" in text and "Seat 1" in text
        assert load_session(written).game.to_json() == json.loads(written.read_text())["game"]
    assert load_session(path).game.is_over
    assert not load_session(unfinished).game.is_over


def test_a_save_replays_with_the_names_its_players_chose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The names kept in a save call the seats in the narration, the cities and the scores;
    a seat without one stays ``Seat N``."""
    path = tmp_path / "named.json"
    s = session("basic", 3, seed=2, bots=["easy", "easy"], names=["Anna", "Boris"], save=path)
    bots = [RandomBot(seat) for seat in range(3)]
    while not s.game.is_over:
        seat = s.game.to_move
        assert seat is not None
        s.game.apply(bots[seat].choose(s.game.view(seat), s.game.legal_actions()))
    s.save()
    text = replays(path, capsys)
    narration, _, tables = text.partition("Cities")
    assert "Anna" in narration and "Boris" in narration and "Seat 2" in narration
    assert "Seat 0" not in narration and "Seat 1 " not in narration
    cities, _, scores = tables.partition("Result")
    for part in (cities, scores):
        assert "0 Anna" in part and "1 Boris" in part


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"format": "citadels.play/1", "game": {"format": "citadels.game/1"', "not valid JSON"),
        ('{"format": "citadels.play/1"}', "does not load"),
        ('{"format": "citadels.play/1", "game": {"format": "citadels.game/1"}}', "json"),
    ],
)
def test_a_damaged_save_is_named_by_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, problem: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(content)
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert str(path) in err and problem in err and "Traceback" not in err


def test_the_command_is_on_the_path_or_given_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(CITADELS), "play"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert program() == shlex.quote(str(CITADELS.resolve()))
    monkeypatch.setenv("PATH", f"{CITADELS.parent}:/usr/bin:/bin")
    assert program() == "citadels"
    monkeypatch.setattr(sys, "argv", ["-m"])  # python -m citadels
    assert program().endswith(" -m citadels")
    commands = Commands(program="/x/citadels", make=False)
    assert commands.resume("g.json") == f"/x/citadels play --resume {Path('g.json').absolute()}"
    assert commands.replay("g.json") == f"/x/citadels replay {Path('g.json').absolute()}"
    assert Commands(program="c", make=True).resume("/a b.json") == "make play RESUME='/a b.json'"


@pytest.mark.skipif(not CITADELS.exists(), reason="the citadels script is not installed")
def test_the_hints_work_pasted_into_a_shell_in_the_project_folder(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "saved game.json"
    s = session("basic", 2, seed=3, bots=["easy"], save=path)
    s.game.apply(s.game.legal_actions()[0])
    s.save()
    env = {k: v for k, v in os.environ.items() if k != MAKE_ENV}
    env["PATH"] = "/usr/bin:/bin"  # .venv/bin is not on the PATH of a new user's shell
    commands = Commands(program=program_for(CITADELS, env))
    # Replaying: the command as printed, run by a shell.
    done = subprocess.run(
        ["bash", "-c", commands.replay(path)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "Seat 0" in done.stdout
    # Going on: the game comes back on screen; Ctrl+Q leaves and prints the hint again.
    child = pexpect.spawn(
        "bash",
        ["-c", commands.resume(path)],
        cwd=str(ROOT),
        env={**env, "TERM": "xterm-256color"},
        dimensions=(24, 80),
        encoding="utf-8",
        codec_errors="replace",
        timeout=60,
    )
    try:
        child.expect("Your move")
        child.sendcontrol("q")
        child.expect("Go on with:")
        child.expect(pexpect.EOF)
        after = child.before
    finally:
        child.close(force=True)
    assert "--resume" in after
    # make play RESUME=FILE runs the same (dry run: the Makefile's command line).
    dry = subprocess.run(
        ["make", "-n", "play", f"RESUME={path}"], cwd=ROOT, capture_output=True, text=True
    )
    assert dry.returncode == 0, dry.stderr
    assert f'--resume "{path}"' in dry.stdout and f"{MAKE_ENV}=play" in dry.stdout


def program_for(script: Path, env: dict[str, str]) -> str:
    """The program part of a hint as the game prints it when started as ``script`` with
    ``env``'s PATH (the full path: ``citadels`` is not on it)."""
    import shutil

    assert shutil.which("citadels", path=env["PATH"]) is None
    return shlex.quote(str(script.resolve()))
