"""``citadels play`` on the command line: bad options and bad save files get one line, no
traceback, and leave the file alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citadels.cli.app import main


class TestCommandLine:
    """``citadels play`` refuses bad options and bad save files with one line, no traceback."""

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (["--bots", "wizard"], "unknown bot 'wizard'"),
            (["--players", "9"], "plays with 2 to 8 players"),
            (["--seat", "7"], "--seat must be from 0 to 3"),
            (["--hotseat", "--players", "2", "--bots", "easy"], "at least 2 people"),
            (["--preset", "nowhere"], "nowhere"),
            (["--pace", "-1"], "--pace must be 0 or more"),
        ],
    )
    def test_bad_options(
        self, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        with pytest.raises(SystemExit) as exc:
            main(["play", *args])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert message in err
        assert "Traceback" not in err

    def test_a_corrupt_save_is_named_and_left_alone(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        path.write_text('{"format": "citadels.play/1", "game": {"format": "citadels.game/1"')
        before = path.read_bytes()
        with pytest.raises(SystemExit) as exc:
            main(["play", "--resume", str(path)])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "not a readable save file" in err and "left as it is" in err
        assert "Traceback" not in err
        assert path.read_bytes() == before

    def test_a_save_of_another_kind_is_refused(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "record.json"
        path.write_text(json.dumps({"format": "citadels.record/1"}))
        with pytest.raises(SystemExit):
            main(["play", "--resume", str(path)])
        assert "not a Citadels save file" in capsys.readouterr().err

    def test_without_a_terminal_it_says_so(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exc:
            main(["play", "--players", "2", "--seed", "1"])
        assert exc.value.code == 2
        assert "needs a terminal" in capsys.readouterr().err
