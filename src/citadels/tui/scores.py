"""The final score table, from the presentation layer's score lines."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from citadels import present
from citadels.tui.table import Words


def score_table(w: Words, result: dict[str, Any], extra: Text | None = None) -> RenderableType:
    """The score table — each part of the score (C-15), the rank and how a tie was broken —
    the winners named above it, then the keys to go on."""
    tr = w.tr
    lines = present.score_lines(result, w.lang, list(w.names))
    headers = present.score_headers(w.lang)
    table = Table(box=box.ROUNDED, header_style="bold", pad_edge=True)
    numeric = {1, 2, 3, 4, 5, 6, 7}
    for i, header in enumerate(headers):
        table.add_column(header, justify="right" if i in numeric else "left")
    for line in lines:
        style = "bold yellow" if line.winner else ""
        table.add_row(
            line.name,
            str(line.score),
            str(line.city),
            str(line.colours),
            str(line.first),
            str(line.complete),
            str(line.bonus),
            str(line.rank),
            "★" if line.winner else "",
            line.tiebreak,
            style=style,
        )
    winners = [line.name for line in lines if line.winner]
    title = Text(tr.gettext("The game is over"), "bold underline")
    won = Text(
        tr.ngettext("Winner: {names}", "Winners: {names}", len(winners),
                    names=", ".join(winners)),
        "bold yellow",
    )
    keys = Text(tr.gettext("r: play again with the same setup   q: quit"), "dim")
    parts: list[RenderableType] = [title, Text(""), won, table]
    if extra is not None:
        parts += [extra]
    parts += [Text(""), keys]
    return Group(*parts)
