"""docs/rules.md lets a reader look up every rule ID: the spec's and the ones the code names.

The specification (RULES.md, CARDS.md) lives outside the repository, so its IDs are listed
here; when the spec is present beside the project (``/work/shared/rules`` or
``CITADELS_RULES``), the list is checked against it too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"

#: Every ID the specification defines (``**X-N`` in RULES.md and CARDS.md).
SPEC_IDS = """
    C-1 C-2 C-3 C-4 C-5 C-6 C-7 C-8 C-9 C-10 C-11 C-12 C-13 C-14 C-15 C-20 C-21 C-22 C-23 C-24
    C-25 C-26 C-27
    B-1 B-2 B-3 B-4 B-5 B-6
    D-1 D-2 D-3 D-4 D-5 D-6 D-7
    K-1 K-2 K-3 K-4 K-5 K-6 K-7
    N-1 N-2 N-3 N-4 N-5 N-6 N-7
    R-1 R-2 R-3 R-4 R-5 R-6 R-7 R-8 R-9 R-10 R-11 R-12 R-13 R-14 R-15 R-16 R-17 R-18 R-19 R-20
    R-21 R-22 R-23 R-24 R-25 R-26 R-27 R-28 R-29 R-30 R-31 R-32 R-33 R-34
""".split()  # noqa: SIM905 - a block is easier to compare with the spec

_ID = re.compile(r"\b([BCDKNR]-[0-9]+)[a-z]?\b")
_LINE = re.compile(r"^- \*\*([A-Z]-?[0-9]+)\*\* \S", re.MULTILINE)


def indexed() -> set[str]:
    """The IDs that docs/rules.md gives a line of their own."""
    return set(_LINE.findall(RULES_DOC.read_text(encoding="utf-8")))


def spec_folder() -> Path | None:
    folder = Path(os.environ.get("CITADELS_RULES", "/work/shared/rules"))
    return folder if (folder / "RULES.md").exists() else None


def test_every_spec_id_has_a_line_in_docs_rules() -> None:
    missing = [i for i in SPEC_IDS if i not in indexed()]
    assert not missing, f"docs/rules.md has no line for {missing}"


def test_every_id_the_source_names_has_a_line_in_docs_rules() -> None:
    named = {
        m.group(1)
        for path in (ROOT / "src" / "citadels").rglob("*.py")
        for m in _ID.finditer(path.read_text(encoding="utf-8"))
    }
    assert {"C-4", "K-7", "R-28"} <= named
    missing = sorted(named - indexed())
    assert not missing, f"the source names {missing}, which docs/rules.md does not list"


def test_the_index_lists_the_card_tables_and_no_unknown_id() -> None:
    lines = indexed()
    assert {f"T{i}" for i in range(1, 9)} <= lines
    assert lines - {f"T{i}" for i in range(1, 9)} == set(SPEC_IDS)


def test_the_listed_ids_match_the_spec_when_it_is_present() -> None:
    folder = spec_folder()
    if folder is None:
        pytest.skip("the rules specification is not beside this checkout")
    text = "".join((folder / n).read_text(encoding="utf-8") for n in ("RULES.md", "CARDS.md"))
    assert sorted(set(re.findall(r"\*\*([A-Z]+-[0-9]+)", text))) == sorted(SPEC_IDS)
