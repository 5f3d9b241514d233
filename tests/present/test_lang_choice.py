"""Issue 11: the language of the command line comes from ``--lang`` or the locale environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English otherwise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citadels.cli import app
from citadels.present.i18n import env_lang, normalize_lang

runner = CliRunner()
NO_LOCALE: dict[str, str | None] = {
    "LANGUAGE": None,
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANG": None,
}


def invoke(*args: str, **env: str) -> Any:
    return runner.invoke(
        app, list(args), env={**NO_LOCALE, "NO_COLOR": "1", "COLUMNS": "120", **env}
    )


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "fa_IR.UTF-8"}, "fa"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "ko_KR.UTF-8", "LC_MESSAGES": "vi_VN.UTF-8"}, "vi"),
        ({"LANG": "ko_KR.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "de:ru", "LANG": "fa_IR.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_names_the_language(environ: dict[str, str], lang: str) -> None:
    assert env_lang(environ) == lang


def test_locale_names_are_read_loosely() -> None:
    assert normalize_lang("fa_IR.UTF-8") == "fa"
    assert normalize_lang("ru-RU") == "ru"
    assert normalize_lang("KO") == "ko"
    assert normalize_lang("vi_VN@latin") == "vi"
    assert normalize_lang("pt_BR") is None


def test_cards_speak_the_environments_language_and_lang_overrides_it() -> None:
    result = invoke("cards", "king", "--edition", "basic", LANG="fa_IR.UTF-8")
    assert result.exit_code == 0, result.output
    assert "شاه" in result.stdout and "شخصیت شمارهٔ ۴" in result.stdout
    result = invoke("cards", "--lang", "ru", "--edition", "classic", LANG="fa_IR.UTF-8")
    assert result.exit_code == 0, result.output
    assert "Персонажи издания classic" in result.stdout and "Кондотьер" in result.stdout
    result = invoke("cards", "Кондо", "--lang", "ru")  # a card found by its Russian name
    assert result.exit_code == 0 and "Кондотьер (warlord)" in result.stdout
    result = invoke("cards", "king", "--edition", "basic")
    assert "Character of rank 4" in result.stdout


def test_an_unknown_language_is_refused_on_one_line() -> None:
    result = invoke("cards", "--lang", "xx")
    assert result.exit_code == 2
    assert "--lang must be one of en, fa, ru, ko, vi" in result.output


def test_replay_narrates_in_the_chosen_language(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = invoke("demo", "--seed", "7", "--save", str(record), "--lang", "vi")
    assert result.exit_code == 0, result.output
    assert "Vòng 1" in result.stdout and "Kết quả" in result.stdout
    json.loads(record.read_text(encoding="utf-8"))
    result = invoke("replay", str(record), LANG="ko_KR.UTF-8")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1라운드" in out and "결과" in out and "게임 시작" in out
    assert "Round" not in out and "Result" not in out


def test_errors_of_replay_and_play_are_in_the_chosen_language(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.json"
    result = invoke("replay", str(missing), "--lang", "ru")
    assert result.exit_code == 2
    assert f"ошибка: не удаётся прочитать {missing}" in result.output
    result = invoke("play", "--pace", "-1", LANG="vi_VN.UTF-8")
    assert result.exit_code == 2 and "lỗi: --pace phải từ 0 giây trở lên" in result.output
