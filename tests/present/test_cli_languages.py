"""Issue 26: no English left in the output of any command of the command line, in any language:
every command's help (typer's words and placeholders included), `demo`, `simulate` (per seat and
as a tournament), `bench`, `editions`, `cards`, `replay`, `review` (its table, JSON key moments
and errors), and the usage and setup errors."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from citadels.cli import main
from citadels.editions import EDITIONS
from citadels.sim.tournament import BACKENDS
from tests.present.test_render_languages import english_words

LANGS = ("fa", "ru", "ko", "vi")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")


@lru_cache(maxsize=1)
def codes() -> set[str]:
    """Words the output may keep in Latin letters: ids and option names a person types back,
    command names, and the names of programs, formats and systems."""
    words = {"citadels", *BACKENDS, "random", "heuristic", "ismcts", "easy", "medium", "hard"}
    for edition in EDITIONS.values():
        words |= {edition.id, *edition.characters, *edition.districts, *edition.presets}
        words |= set(edition.options)
    words |= {"demo", "simulate", "bench", "editions", "cards", "replay", "review", "serve"}
    words |= {"play", "help"}
    words |= {"accounts", "create", "list", "reset", "password", "bot", "ratings"}  # accounts
    words |= {"JSON", "CSV", "PNG", "Ray", "Redis", "SQLite", "Markdown", "URL", "ID", "IDs"}
    words |= {"Python", "CPython", "Linux", "x86_64", "aarch64", "mypyc", "timeit", "matplotlib"}
    words |= {"pip", "docs", "protocol", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "UTF"}
    words |= {"Enter", "Space", "Tab", "Ctrl", "Dezh", "Citadels", "Citadel", "Capitol", "token"}
    words |= {"summary", "games", "csv", "json", "sqlite3", "local", "share", "iterations"}
    words |= {"legal_actions", "apply", "copy", "view", "Game", "seat", "log_from", "log_size"}
    words |= {"help", "version", "hotseat", "seed", "mid", "fa_IR"}  # option names, a locale
    words |= {"abc", "nothing", "like"}  # the values typed below, said back
    words |= {"bonus"}  # seed 004's own loanword («Thẻ Bonus», «nhân vật bonus»)
    return {w.lower() for w in words}


def english_left(text: str, lang: str, tmp: Path) -> set[str]:
    """The English words of a command's output: in Persian, Russian and Korean any Latin
    word that is not a code; in Vietnamese (written in Latin letters) a word of the English
    msgids."""
    text = text.replace(str(tmp), " ")
    text = re.sub(r"--?[\w-]+|\S+\.(?:py|md|json|csv|png)\b|\S+/\S+", " ", text)
    found = {w for w in LATIN_WORD.findall(text) if w.lower() not in codes()}
    if lang == "vi":
        found = {w for w in found if w.lower() in english_words()}
    return found


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A command's whole output (stdout and stderr), as ``citadels`` prints it."""
    with pytest.raises(SystemExit):
        main(list(args))
    out = capsys.readouterr()
    return out.out + out.err


COMMANDS: list[tuple[str, ...]] = [
    ("--help",),
    *((name, "--help") for name in
      ("demo", "simulate", "bench", "editions", "cards", "replay", "review", "serve", "play")),
    ("demo", "-e", "classic", "--preset", "imperial_court", "-p", "6", "-s", "7"),
    ("demo", "-e", "dezh", "-p", "4", "-s", "3"),
    ("simulate", "-g", "2", "-s", "1", "-p", "3"),
    ("simulate", "-g", "2", "-s", "1", "--bots", "random,heuristic", "-e", "2016"),
    ("bench", "-g", "1", "--seconds", "0.02"),
    ("bench", "-g", "1", "--seconds", "0.02", "--markdown"),
    ("editions",),
    ("cards", "-e", "classic"),
    ("cards", "warlord", "-e", "classic"),
    ("cards", "-e", "2016"),
    ("demo", "-p", "9"),
    ("demo", "-p", "abc"),
    ("demo", "--bogus"),
    ("demo", "--seed"),
    ("simulate", "--json=1"),
    ("cards", "nothing-like-it"),
    ("replay",),
    ("review",),
    ("simulate", "-g", "0"),
    ("bench", "--seconds", "0"),
    ("serve", "--port", "0"),
    ("play",),
    ("accounts", "--help"),
    ("accounts", "reset-password", "--help"),
    ("accounts", "create", "--help"),
    ("accounts", "bot-ratings", "--help"),
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_no_command_leaves_english_in_its_output(
    lang: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.chdir(tmp_path)  # a short path: a long one is wrapped across lines
    problems = {}
    reviews = [("review", "g.json", "--budget", "8"), ("review", "g.json", "--seat", "9")]
    saved = [("demo", "-s", "5", "--save", "g.json"), ("replay", "g.json"), *reviews]
    for args in [*COMMANDS, *saved]:
        out = run(capsys, *args, "--lang", lang)
        assert out.strip(), args
        left = english_left(out, lang, tmp_path)
        if left:
            problems[" ".join(args)] = sorted(left)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
