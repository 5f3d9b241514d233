"""The final score table, from the presentation layer's score lines."""

from __future__ import annotations

import dataclasses
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from citadels import present
from citadels.tui.table import Flow, Words

#: Below this width the scores are one block per player instead of a table.
NARROW = 110


def score_table(
    w: Words,
    result: dict[str, Any],
    extra: Text | None = None,
    cities: RenderableType | None = None,
    *,
    width: int = 120,
) -> RenderableType:
    """The score table — each part of the score (C-15), the rank and how a tie was broken —
    the winners named above it (the keys to go on are :func:`end_keys`). Narrower than
    ``NARROW`` columns, each player's score is a block of ``part value`` pairs instead, so no
    title is cut."""
    tr = w.tr
    lines = present.score_lines(result, w.lang, list(w.names))
    headers = present.score_headers(w.lang)
    # The columns follow ScoreLine's fields after ``seat``, in the order of the headers.
    fields = [f.name for f in dataclasses.fields(present.ScoreLine)][1:]
    scores: RenderableType
    if width >= NARROW:
        table = Table(box=box.ROUNDED, header_style="bold", pad_edge=True)
        for field, header in zip(fields, headers, strict=False):
            table.add_column(header, justify="left" if field in ("name", "tiebreak") else "right")
        for line in lines:
            cells = [
                _cell(tr, getattr(line, field)) for field, _ in zip(fields, headers, strict=False)
            ]
            table.add_row(*cells, style="bold yellow" if line.winner else "")
        scores = table
    else:
        blocks: list[RenderableType] = []
        for line in lines:
            style = "bold yellow" if line.winner else ""
            head = Text(f"{tr.number(line.rank)}. {line.name}", style or "bold")
            if line.winner:
                head.append(" ★", "bold yellow")
            parts = []
            for field, header in zip(fields, headers, strict=False):
                value = getattr(line, field)
                if field in ("name", "rank", "winner") or value in ("", None):
                    continue
                parts.append(
                    Text(f"{header} {_cell(tr, value)}", "bold" if field == "score" else "")
                )
            blocks.append(Group(head, Padding(Flow(parts, gap=3), (0, 0, 0, 3))))
        scores = Group(*blocks)
    winners = [line.name for line in lines if line.winner]
    title = Text(tr.gettext("The game is over"), "bold underline")
    together = tr.gettext(", ").join(winners)
    won = Text(
        tr.ngettext("Winner: {names}", "Winners: {names}", len(winners), names=together),
        "bold yellow",
    )
    body: list[RenderableType] = [title, Text(""), won, scores]
    if cities is not None:
        body += [Text(tr.gettext("The final cities"), "bold"), cities]
    if extra is not None:
        body += [extra]
    return Group(*body)


def end_keys(w: Words, *, review: bool = False) -> Text:
    """The keys of the end screen: play again, leave and (``review``) review the game."""
    tr = w.tr
    keys = Text(tr.gettext("r: play again with the same setup   q: quit"), "dim")
    if review:
        keys = Text.assemble(
            (tr.gettext("v: review my game (where I gained and lost my chances)"), "bold"),
            "\n",
            keys,
        )
    return keys


def _cell(tr: present.Translator, value: object) -> str:
    if isinstance(value, bool):
        return "★" if value else ""
    return tr.number(value) if isinstance(value, int) else str(value)
