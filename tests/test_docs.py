"""Every ```python block of the docs runs as it stands (each in a fresh namespace)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "api.md", ROOT / "README.md"]
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
    assert len(python_blocks(ROOT / "docs" / "api.md")) >= 10
    assert python_blocks(ROOT / "README.md")


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_example_runs(where: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})
