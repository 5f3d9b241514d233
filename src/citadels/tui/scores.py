"""The final score table, from the presentation layer's score lines."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from citadels import present
from citadels.tui.table import Words


def score_table(w: Words, result: dict[str, Any], extra: Text | None = None) -> RenderableType:
    """The score table (breakdown and tie-break, in the presentation layer's words), then the
    keys to go on."""
    tr = w.tr
    title = Text(tr.gettext("The game is over"), "bold underline")
    lines = present.score_lines(result, w.edition, w.lang, list(w.names))
    body = Text("\n".join(str(line) for line in lines))
    keys = Text(tr.gettext("r: play again with the same setup   q: quit"), "dim")
    parts: list[RenderableType] = [title, Text(""), body, Text("")]
    if extra is not None:
        parts += [extra, Text("")]
    parts.append(keys)
    return Group(*parts)
