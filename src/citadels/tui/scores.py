"""The final score table, from the presentation layer's score lines."""

from __future__ import annotations

import dataclasses
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from citadels import present
from citadels.tui.table import Words


def score_table(
    w: Words,
    result: dict[str, Any],
    extra: Text | None = None,
    cities: RenderableType | None = None,
) -> RenderableType:
    """The score table — each part of the score (C-15), the rank and how a tie was broken —
    the winners named above it, then the keys to go on."""
    tr = w.tr
    lines = present.score_lines(result, w.lang, list(w.names))
    headers = present.score_headers(w.lang)
    table = Table(box=box.ROUNDED, header_style="bold", pad_edge=True)
    # The columns follow ScoreLine's fields after ``seat``, in the order of the headers.
    fields = [f.name for f in dataclasses.fields(present.ScoreLine)][1:]
    for field, header in zip(fields, headers, strict=False):
        table.add_column(header, justify="left" if field in ("name", "tiebreak") else "right")
    for line in lines:
        cells = []
        for field, _ in zip(fields, headers, strict=False):
            value = getattr(line, field)
            if isinstance(value, bool):
                cells.append("★" if value else "")
            else:
                cells.append(tr.number(value) if isinstance(value, int) else str(value))
        table.add_row(*cells, style="bold yellow" if line.winner else "")
    winners = [line.name for line in lines if line.winner]
    title = Text(tr.gettext("The game is over"), "bold underline")
    together = tr.gettext(", ").join(winners)
    won = Text(
        tr.ngettext("Winner: {names}", "Winners: {names}", len(winners), names=together),
        "bold yellow",
    )
    keys = Text(tr.gettext("r: play again with the same setup   q: quit"), "dim")
    parts: list[RenderableType] = [title, Text(""), won, table]
    if cities is not None:
        parts += [Text(tr.gettext("The final cities"), "bold"), cities]
    if extra is not None:
        parts += [extra]
    parts += [Text(""), keys]
    return Group(*parts)
