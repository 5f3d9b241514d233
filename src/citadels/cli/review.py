"""The output of ``citadels review``: Rich tables of the decisions and the curves, and a PNG of
the curves (matplotlib, the ``plots`` extra), in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from citadels.present import seat_label, translator
from citadels.present.review import (
    action_text,
    chance_text,
    key_moment_lines,
    label_text,
    loss_text,
)
from citadels.review import LABELS, Review

#: The colour of each label in the table.
LABEL_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}


#: The column of the finished game's true win shares in the table by round.
END = 0


def _curve_by_seat(review: Review) -> dict[int, dict[int, float]]:
    """Each seat's estimate at its first point of each round, and under :data:`END` its win
    share in the finished game."""
    out: dict[int, dict[int, float]] = {s: {} for s in range(review.players)}
    for p in review.curve:
        out[p.seat].setdefault(END if p.final else p.round, p.chance)
    return out


def review_tables(
    review: Review, lang: str = "en", names: Sequence[str] | None = None
) -> RenderableType:
    """The decisions of the reviewed seat (its choice, the best ones, the loss and the label),
    a summary of the labels, every seat's estimate by round, and the key moments."""
    tr = translator(lang)
    who = seat_label(review.seat, names, lang)
    table = Table(
        title=tr.gettext(
            "Review of {seat}: {budget} search iterations per decision, seed {seed}",
            seat=who,
            budget=review.budget,
            seed=str(review.seed),
        ),
        title_style="bold",
        header_style="bold",
    )
    table.add_column(tr.gettext("Round"), justify="right")
    table.add_column(tr.gettext("Choice"))
    table.add_column(tr.gettext("Win chance"), justify="right")
    table.add_column(tr.gettext("Best choices"))
    table.add_column(tr.gettext("Loss"), justify="right")
    table.add_column(tr.gettext("Verdict"))
    for d in review.decisions:
        best = "\n".join(
            f"{chance_text(e.chance, lang)}  {action_text(d, e, lang, names)}" for e in d.best
        )
        style = LABEL_STYLES[d.label]
        table.add_row(
            tr.number(d.round),
            action_text(d, d.chosen, lang, names),
            chance_text(d.chosen.chance, lang),
            best,
            loss_text(d.loss, lang),
            Text(label_text(d.label, lang), style=style),
        )
    counts = review.counts()
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    for name in LABELS:
        summary.add_row(
            Text(label_text(name, lang), style=LABEL_STYLES[name]), tr.number(counts[name])
        )
    summary.add_row(
        tr.gettext("mean loss per decision (points)"), loss_text(review.mean_loss(), lang)
    )
    curve = Table(
        title=tr.gettext("Estimated win chance by round, each seat from its own view"),
        title_style="bold",
        header_style="bold",
    )
    by_seat = _curve_by_seat(review)
    rounds = sorted({p.round for p in review.curve if not p.final})
    if review.over:
        rounds.append(END)
    curve.add_column(tr.gettext("Seat"))
    for r in rounds:
        curve.add_column(tr.number(r) if r != END else tr.gettext("End"), justify="right")
    for s in range(review.players):
        cells = [chance_text(by_seat[s][r], lang) if r in by_seat[s] else "" for r in rounds]
        curve.add_row(seat_label(s, names, lang), *cells, style="bold" if s == review.seat else "")
    moments = Group(
        Text(tr.gettext("Key moments"), style="bold"),
        *(Text("• " + line) for line in key_moment_lines(review, lang, names)),
    )
    return Group(table, Text(), summary, Text(), curve, Text(), moments)


def write_curves(
    review: Review, path: str, lang: str = "en", names: Sequence[str] | None = None
) -> None:
    """Draw every seat's estimated win chance over the game into the PNG ``path``, the
    reviewed seat's decisions marked by their label. Needs matplotlib (``ImportError``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tr = translator(lang)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    for s in range(review.players):
        points = [p for p in review.curve if p.seat == s]
        mine = s == review.seat
        ax.plot(
            [p.move for p in points],
            [100 * p.chance for p in points],
            marker="o",
            markersize=3,
            linewidth=2.4 if mine else 1.2,
            label=seat_label(s, names, lang),
        )
    colours = {"inaccuracy": "gold", "mistake": "darkorange", "blunder": "red"}
    for name, colour in colours.items():
        marked = [d for d in review.decisions if d.label == name]
        if marked:
            ax.scatter(
                [d.move for d in marked],
                [100 * d.chosen.chance for d in marked],
                color=colour,
                marker="v",
                s=40,
                zorder=3,
                label=label_text(name, lang),
            )
    ax.set_ylim(0, 100)
    ax.set_xlabel(tr.gettext("Move of the game"))
    ax.set_ylabel(tr.gettext("Estimated win chance (%)"))
    ax.set_title(
        tr.gettext(
            "Review of {seat}: {budget} search iterations per decision, seed {seed}",
            seat=seat_label(review.seat, names, lang),
            budget=review.budget,
            seed=str(review.seed),
        ),
        fontsize=10,
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
