"""The docs stay true: every ```python block runs, and the reference tables cover the code.

- every ```python block of the docs and the README runs as it stands (each in a fresh
  namespace);
- docs/api.md lists every action class with a JSON and text form that the code agrees with,
  every view key, every pending decision and every log event kind;
- docs/editions.md names every ``Edition`` field, every edition and every preset;
- the command lines shown in docs/cli.md and docs/editions.md run, and the errors they show are
  the ones printed.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import citadels
from citadels.cli import app
from citadels.editions import Edition
from citadels.engine import serialize
from citadels.engine.actions import ACTION_TYPES, action_from_json
from citadels.engine.events import EVENT_KINDS

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.md"
DOCS = [API, ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOCS = list(dict.fromkeys(DOCS))
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks(path: Path) -> list[tuple[str, str]]:
    """``(id, code)`` for every ```python block of ``path``; the id names file and line."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append((f"{path.name}:{line}", match.group(1)))
    return blocks


BLOCKS = [block for path in DOCS for block in python_blocks(path)]


def test_the_docs_have_examples() -> None:
    assert len(python_blocks(API)) >= 12
    assert python_blocks(ROOT / "README.md")


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_example_runs(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})


# --- docs/api.md covers the code ------------------------------------------------------------

# A row of an action table: | `Class(fields)` | `{json}` | `text` [/ `text`] | when |
_ACTION_ROW = re.compile(r"^\| `(\w+)\(([^)]*)\)` \| `(\{.*?\})` \| (`[^|]*`) \|", re.MULTILINE)


def action_rows() -> list[tuple[str, str, str, list[str]]]:
    text = API.read_text(encoding="utf-8")
    return [
        (m.group(1), m.group(2), m.group(3), re.findall(r"`([^`]*)`", m.group(4)))
        for m in _ACTION_ROW.finditer(text)
    ]


def test_api_lists_every_action_class_once() -> None:
    documented = [name for name, *_ in action_rows()]
    assert sorted(documented) == sorted(cls.__name__ for cls in ACTION_TYPES)


@pytest.mark.parametrize("row", action_rows(), ids=lambda row: row[0])
def test_api_action_row_matches_the_code(row: tuple[str, str, str, list[str]]) -> None:
    name, signature, obj, texts = row
    action = action_from_json(json.loads(obj))
    assert type(action).__name__ == name
    assert action.to_json() == json.loads(obj), "the JSON column is not what to_json() gives"
    assert action.text() == texts[0], "the first text is the text of the JSON column's action"
    fields = [f.name for f in dataclasses.fields(action)]
    assert [p.split("=")[0].strip() for p in signature.split(",") if p.strip()] == fields


def _table_keys(section: str) -> set[str]:
    """The backticked first cells of the table rows of one ``## `` section of api.md."""
    text = API.read_text(encoding="utf-8")
    start = text.index(section)
    end = text.find("\n## ", start + 1)
    body = text[start : end if end > 0 else None]
    return set(re.findall(r"^\| `(\w+)` \|", body, re.MULTILINE))


def sample_views() -> list[dict[str, Any]]:
    """Views of every seat and a spectator along a few random games of every edition."""
    views = []
    for edition in citadels.EDITIONS.values():
        for players, seed in ((2, 1), (5, 2), (edition.max_players, 3)):
            options: dict[str, Any] = {}
            if edition.presets and players >= 5:
                options["preset"] = list(edition.presets)[seed % len(edition.presets)]
            game = citadels.new_game(edition.id, players, seed=seed, **options)
            rng = random.Random(seed)
            while not game.is_over:
                if len(game.actions) % 7 == 0:
                    views.append(game.view(game.to_move))
                    views.append(game.view(None))
                game.apply(rng.choice(game.legal_actions()))
            views.append(game.view(0))
    return views


def test_api_documents_every_view_key() -> None:
    documented = _table_keys("## Views")
    text = API.read_text(encoding="utf-8")
    views = sample_views()
    assert set().union(*(v.keys() for v in views)) <= documented
    player_keys = set().union(*(p.keys() for v in views for p in v["players"]))
    turn_keys = set().union(*(v["turn"].keys() for v in views if "turn" in v))
    pending_keys = set().union(*(v["pending"].keys() for v in views if "pending" in v))
    for key in player_keys | turn_keys | pending_keys:
        assert f"`{key}`" in text, key
    modes = {v["turn"]["mode"] for v in views if "turn" in v}
    for mode in modes:
        assert f'`"{mode}"`' in text, mode


def test_api_documents_every_pending_decision_and_event_kind() -> None:
    assert set(serialize.PENDING_KINDS) <= _table_keys("## Views")
    text = API.read_text(encoding="utf-8")
    missing = [kind for kind in EVENT_KINDS if f"`{kind}`" not in text]
    assert not missing, f"event kinds missing from docs/api.md: {missing}"


# --- docs/editions.md -----------------------------------------------------------------------


def test_editions_doc_names_every_field_edition_and_preset() -> None:
    text = (ROOT / "docs" / "editions.md").read_text(encoding="utf-8")
    for f in dataclasses.fields(Edition):
        assert f"`{f.name}`" in text, f.name
    for edition in citadels.EDITIONS.values():
        assert f"`{edition.id}`" in text, edition.id
        for preset in edition.presets:
            assert f"`{preset}`" in text, preset


# --- command lines shown in the docs ----------------------------------------------------------

runner = CliRunner()


def shell_examples(path: Path) -> list[tuple[str, list[str], str | None]]:
    """``(id, argv, error)`` for every ``citadels`` line of the non-Python code blocks of
    ``path``; ``error`` is the ``error:`` line printed under it, if the doc shows one."""
    text = path.read_text(encoding="utf-8")
    out = []
    for block in re.finditer(r"^```\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        lines = block.group(1).replace("\\\n", " ").splitlines()
        for i, line in enumerate(lines):
            command = line.removeprefix("$ ").split(" > ")[0]
            if not command.startswith("citadels ") or "[" in command or "FILE" in command:
                continue
            argv = shlex.split(command)[1:]
            following = lines[i + 1] if i + 1 < len(lines) else ""
            error = following if following.startswith("error: ") else None
            out.append((f"{path.name}: {command}", argv, error))
    return out


def _quick(argv: list[str]) -> list[str]:
    """The same command, cheaper: at most 2 games for ``simulate``."""
    argv = argv[:]
    if argv[0] == "simulate":
        if "--games" in argv:
            argv[argv.index("--games") + 1] = "2"
        else:
            argv += ["--games", "2"]
    return argv


SHELL = [
    example
    for name in ("cli.md", "editions.md")
    for example in shell_examples(ROOT / "docs" / name)
    if example[1][0] in ("demo", "simulate", "editions", "replay", "cards")
]


def test_the_docs_show_command_lines() -> None:
    assert len(SHELL) >= 10
    assert sum(1 for *_, error in SHELL if error) >= 5


@pytest.mark.parametrize(("where", "argv", "error"), SHELL, ids=[w for w, *_ in SHELL])
def test_shell_example_runs(
    where: str, argv: list[str], error: str | None, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    if argv[0] == "replay":
        record = citadels.new_game("classic", 4, seed=3).record()
        (tmp_path / argv[1]).write_text(json.dumps(record))
    result = runner.invoke(app, _quick(argv))
    if error is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert result.stderr.strip() == error
