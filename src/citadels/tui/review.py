"""The game review and the hints in the terminal game (:mod:`citadels.review`).

:class:`ReviewJobs` runs one seat's review in a thread of its own (the interface keeps
answering keys; a stop flag ends it between two positions when the game is left) and keeps
each finished review. :class:`ReviewScreen`, from the end screen, shows a seat's progress,
then its win-chance curve drawn in block characters, every seat's estimate by round, the
labels, the key moments and each decision that lost chances, in the game's language.
:class:`HintScreen` shows the best few actions of the seat to move with their estimated
chances. Every estimate is made from the seat's view alone (see docs/review.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import ProgressBar, Static

from citadels.engine.game import Game, replay
from citadels.present import translator
from citadels.present.review import (
    action_text,
    chance_text,
    key_moment_lines,
    label_text,
    loss_text,
)
from citadels.review import DEFAULT_BUDGET, LABELS, Estimate, Review, review_game
from citadels.tui.table import Words

#: The colour of each label (of the 256 colours: a theme does not turn them alike).
LABEL_STYLES = {
    "good": "green3",
    "inaccuracy": "gold1",
    "mistake": "dark_orange",
    "blunder": "red1",
}

#: The eighths of a cell, from empty to full (a bar's top).
EIGHTHS = " ▁▂▃▄▅▆▇█"

#: A sparkline's levels: the lowest still shows (a chance of 0 is a line, not a gap).
SPARKS = "▁▂▃▄▅▆▇█"

#: How many rows the chart of the reviewed seat's chance has (eight levels each).
CHART_ROWS = 5


def sparkline(values: Sequence[float]) -> str:
    """Each value (0 to 1) as one block character, the higher the taller."""
    top = len(SPARKS) - 1
    return "".join(SPARKS[max(0, min(top, round(v * top)))] for v in values)


def chance_chart(
    chances: Sequence[float],
    styles: Sequence[str],
    width: int,
    *,
    rounds: Sequence[int] = (),
    rows: int = CHART_ROWS,
    lang: str = "en",
) -> list[Text]:
    """A bar chart of ``chances`` (0 to 1, one per decision) in at most ``width`` cells: a
    column per decision (up to three cells wide when there is room; several decisions share a
    column when there is not, drawn with the first one's chance and the worst style among
    them), ``rows`` rows of eight levels each, the scale at the left; given each decision's
    round in ``rounds``, a last line numbers the rounds where they start (as room allows)."""
    if not chances:
        return []
    scale = [chance_text(1.0, lang), chance_text(0.5, lang), chance_text(0.0, lang)]
    margin = max(cell_len(s) for s in scale) + 1
    room = max(1, width - margin)
    n = len(chances)
    if n <= room:
        cells = max(1, min(3, room // n))
        spans = [(i, i + 1) for i in range(n) for _ in range(cells)]
    else:
        spans = [(j * n // room, max(j * n // room + 1, (j + 1) * n // room)) for j in range(room)]
    columns = [(chances[lo], max(styles[lo:hi], key=_severity)) for lo, hi in spans]
    lines: list[Text] = []
    for row in range(rows - 1, -1, -1):
        if row == rows - 1:
            mark = scale[0]
        elif row == rows // 2:
            mark = scale[1]
        elif row == 0:
            mark = scale[2]
        else:
            mark = ""
        line = Text()
        line.append(mark.rjust(margin - 1) + "│", "dim")
        for value, style in columns:
            level = max(0, min(8, round(value * rows * 8) - row * 8))
            line.append(EIGHTHS[level], style or "cyan")
        lines.append(line)
    if len(rounds) == n:
        axis = [" "] * len(spans)
        last, free = None, 0
        for j, (lo, _hi) in enumerate(spans):
            r = rounds[lo]
            label = localize(r, lang)
            if r != last and j >= free and j + cell_len(label) <= len(spans):
                axis[j : j + cell_len(label)] = list(label)
                free = j + cell_len(label) + 1
            last = r
        lines.append(Text(" " * (margin - 1) + "└" + "".join(axis), "dim"))  # all dim
    return lines


def localize(number: int, lang: str) -> str:
    """A whole number in the digits of ``lang``."""
    return translator(lang).number(number)


def _severity(style: str) -> int:
    for i, name in enumerate(LABELS):
        if LABEL_STYLES[name] == style:
            return i
    return -1


@dataclass
class ReviewJob:
    """One seat's review in progress or done: ``done`` of ``total`` positions analysed, then
    its ``review`` (or the ``error`` that stopped it)."""

    seat: int
    total: int = 0
    done: int = 0
    review: Review | None = None
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def finished(self) -> bool:
        """Whether the review is done (or failed)."""
        return self.review is not None or self.error is not None


class _Stopped(Exception):
    """The review was stopped (the game left or replaced)."""


class ReviewJobs:
    """The reviews of one finished game, each seat's computed once, in a daemon thread (a
    stop flag, checked after every position, ends one early; leaving never waits for it)."""

    def __init__(self, game: Game, budget: int = DEFAULT_BUDGET) -> None:
        # A copy of its own: the session may replace its game (a rematch) meanwhile.
        self.game = replay(game.record())
        self.budget = budget
        self.jobs: dict[int, ReviewJob] = {}

    def start(self, seat: int) -> ReviewJob:
        """The review of ``seat``: the one already started, else a new one, started now."""
        job = self.jobs.get(seat)
        if job is not None:
            return job
        job = ReviewJob(seat)
        self.jobs[seat] = job
        job.thread = threading.Thread(
            target=self._run, args=(job,), name=f"citadels-review-{seat}", daemon=True
        )
        job.thread.start()
        return job

    def _run(self, job: ReviewJob) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            if job.stop.is_set():
                raise _Stopped

        try:
            job.review = review_game(self.game, job.seat, budget=self.budget, on_progress=progress)
        except _Stopped:
            job.error = "stopped"
        except Exception as exc:  # a failed review must never end the game
            job.error = f"{type(exc).__name__}: {exc}"

    def stop_all(self) -> None:
        """Ask every review still running to stop."""
        for job in self.jobs.values():
            job.stop.set()


def review_body(review: Review, words: Words, width: int) -> RenderableType:
    """A finished review in words: the seat's chart, every seat by round, the labels, the key
    moments and the decisions that lost chances (worst label first in colour)."""
    tr = words.tr
    lang = words.lang
    names = list(words.names)
    seat = review.seat
    parts: list[RenderableType] = []
    chances = [d.chosen.chance for d in review.decisions]
    styles = [LABEL_STYLES[d.label] for d in review.decisions]
    parts.append(
        Text(
            tr.gettext("{name}'s estimated win chance after each decision", name=words.name(seat)),
            "bold",
        )
    )
    if chances:
        at_round = [d.round for d in review.decisions]
        parts.extend(chance_chart(chances, styles, width, rounds=at_round, lang=lang))
        legend = Text("  ")
        for name in LABELS:
            legend.append("█ ", LABEL_STYLES[name])
            legend.append(label_text(name, lang) + "   ")
        parts.append(legend)
    parts.append(Text(""))
    parts.append(
        Text(tr.gettext("Estimated win chance by round, each seat from its own view"), "bold")
    )
    by_seat: dict[int, list[float]] = {s: [] for s in range(review.players)}
    rounds: dict[int, set[int]] = {s: set() for s in range(review.players)}
    final: dict[int, float] = {}
    for p in review.curve:
        if p.final:
            final[p.seat] = p.chance
        elif p.round not in rounds[p.seat]:
            rounds[p.seat].add(p.round)
            by_seat[p.seat].append(p.chance)
    pad = max(cell_len(words.name(s)) for s in range(review.players)) + 2
    for s in range(review.players):
        name = words.name(s)
        line = Text()
        line.append(name + " " * (pad - cell_len(name)), "bold" if s == seat else "")
        spark = "".join(c * 2 for c in sparkline(by_seat[s]))  # two cells a round
        line.append(spark, "bold cyan" if s == seat else "cyan")
        if s in final:
            line.append("  " + tr.gettext("End") + " " + chance_text(final[s], lang), "dim")
        parts.append(line)
    parts.append(Text(""))
    counts = review.counts()
    summary = Text()
    for name in LABELS:
        summary.append(label_text(name, lang), LABEL_STYLES[name])
        summary.append(" " + tr.number(counts[name]) + "   ")
    summary.append(
        tr.gettext("mean loss per decision (points)") + " " + loss_text(review.mean_loss(), lang),
        "dim",
    )
    parts.append(summary)
    parts.append(Text(""))
    parts.append(Text(tr.gettext("Key moments"), "bold"))
    parts.extend(Text("• " + line) for line in key_moment_lines(review, lang, names))
    marked = [d for d in review.decisions if d.label != "good"]
    if marked:
        parts.append(Text(""))
        parts.append(Text(tr.gettext("Every decision that lost chances"), "bold"))
        for d in marked:
            line = Text("• ")
            line.append(label_text(d.label, lang), LABEL_STYLES[d.label])
            line.append(" · ")
            line.append(
                tr.gettext(
                    "round {round}, {loss} points: “{chosen}” {left}; best “{better}” {kept}",
                    round=tr.number(d.round),
                    loss=loss_text(d.loss, lang),
                    chosen=action_text(d, d.chosen, lang, names),
                    left=chance_text(d.chosen.chance, lang),
                    better=action_text(d, d.best[0], lang, names),
                    kept=chance_text(d.best[0].chance, lang),
                )
            )
            parts.append(line)
    parts.append(Text(""))
    parts.append(
        Text(
            tr.gettext(
                "A search's estimates from what {name} knew at each moment, not a truth "
                "({budget} iterations per position).",
                name=words.name(seat),
                budget=tr.number(review.budget),
            ),
            "dim italic",
        )
    )
    return Group(*parts)


class ReviewScreen(Screen[None]):
    """The review of a seat's game, from the end screen: the progress while it is computed
    (in a thread; the keys still answer), then the review; ``←`` ``→`` another seat (the game
    is over, every seat may be looked at), Escape back to the scores."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
        Binding("v", "close", show=False),
        Binding("left", "turn(-1)", show=False),
        Binding("right", "turn(1)", show=False),
    ]

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen #review-box { width: 110; max-width: 100%; height: 100%;
                               border: double $accent; padding: 0 1; }
    ReviewScreen #review-head { height: auto; text-style: bold; }
    ReviewScreen #review-bar { height: 1; }
    ReviewScreen #review-bar.hidden { display: none; }
    ReviewScreen #review-scroll { height: 1fr; }
    ReviewScreen #review-keys { height: auto; color: $text-muted; }
    """

    def __init__(self, words: Words, jobs: ReviewJobs, seat: int) -> None:
        super().__init__()
        self.words = words
        self.jobs = jobs
        self.seat = seat
        self._shown: tuple[int, bool, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="review-box"):
            yield Static(id="review-head")
            yield ProgressBar(id="review-bar", show_eta=False, show_percentage=False)
            with VerticalScroll(id="review-scroll"):
                yield Static(id="review-text")
            yield Static(id="review-keys")

    def on_mount(self) -> None:
        tr = self.words.tr
        self.query_one("#review-keys", Static).update(
            tr.gettext("↑↓ PgUp/PgDn scroll · ← → another player · Escape: back to the scores")
        )
        self.jobs.start(self.seat)
        self.set_interval(0.2, self._poll)
        self._poll()
        self.query_one("#review-scroll", VerticalScroll).focus()

    def on_resize(self, _event: object) -> None:
        self._shown = None
        self._poll()

    @property
    def job(self) -> ReviewJob:
        """The review of the seat shown."""
        return self.jobs.start(self.seat)

    def _poll(self) -> None:
        """Draw the progress, or the review once it is done (each only when it changed)."""
        job = self.job
        tr = self.words.tr
        name = self.words.name(self.seat)
        state = (self.seat, job.finished, job.done)
        if state == self._shown:
            return
        self._shown = state
        head = self.query_one("#review-head", Static)
        bar = self.query_one("#review-bar", ProgressBar)
        text = self.query_one("#review-text", Static)
        if not job.finished:
            head.update(
                tr.gettext(
                    "Reviewing {name}'s game: {done} of {total} positions",
                    name=name,
                    done=tr.number(job.done),
                    total=tr.number(job.total) if job.total else "…",
                )
            )
            bar.remove_class("hidden")
            bar.update(total=job.total or None, progress=job.done)
            text.update(
                Text(
                    tr.gettext(
                        "The search weighs each decision of {name} from what that seat knew then.",
                        name=name,
                    ),
                    "dim",
                )
            )
            return
        bar.add_class("hidden")
        head.update(tr.gettext("Review of {name}'s game", name=name))
        if job.review is None:
            text.update(
                Text(tr.gettext("The review failed: {error}", error=job.error or ""), "red")
            )
            return
        width = max(20, self.query_one("#review-scroll").content_region.width - 2)
        text.update(review_body(job.review, self.words, width))

    def action_turn(self, step: int) -> None:
        """The review of the next (or the previous) seat."""
        self.seat = (self.seat + step) % self.jobs.game.num_players
        self._poll()
        self.query_one("#review-scroll", VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        """Back to the scores (a review still running goes on, and is there next time)."""
        self.dismiss(None)


@dataclass(frozen=True)
class HintLine:
    """One action a hint proposes: its number in the menu, its words and its estimate."""

    number: int
    label: str
    estimate: Estimate


class HintScreen(ModalScreen[int | None]):
    """The best few actions of the seat to move with their estimated win chances (F5): shown
    as "thinking" until :meth:`show` gives them. Enter closes it with the best one highlighted
    in the menu; Escape closes it as it was."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close(False)", show=False),
        Binding("f5", "close(False)", show=False),
        Binding("enter", "close(True)", show=False),
    ]

    DEFAULT_CSS = """
    HintScreen { align: center middle; }
    HintScreen #hint-box { width: 90%; max-width: 90; height: auto; max-height: 90%;
                           border: round $accent; padding: 1 2; background: $surface; }
    """

    def __init__(self, words: Words, name: str) -> None:
        super().__init__()
        self.words = words
        self.seat_name = name
        self.lines: list[HintLine] | None = None
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="hint-box"):
            yield Static(self._text(), id="hint-text")

    def show(self, lines: list[HintLine] | None, error: str | None = None) -> None:
        """The hint is ready (or failed with ``error``)."""
        self.lines = lines
        self.error = error
        if self.is_mounted:
            self.query_one("#hint-text", Static).update(self._text())

    def _text(self) -> Text:
        tr = self.words.tr
        text = Text()  # a style given here would be every span's
        text.append(tr.gettext("Hint for {name}", name=self.seat_name), "bold underline")
        text.append("\n\n")
        if self.error is not None:
            text.append(tr.gettext("The hint failed: {error}", error=self.error), "red")
        elif self.lines is None:
            text.append(tr.gettext("Thinking…"), "italic")
        elif not self.lines:
            text.append(tr.gettext("There is only one choice here: nothing to compare."))
        else:
            width = len(tr.number(max((h.number for h in self.lines), default=1)))
            for i, h in enumerate(self.lines):
                chance = tr.percent(h.estimate.chance, 1)
                text.append(chance.rjust(6) + "  ", "bold cyan")
                text.append(tr.number(h.number).rjust(width) + " ", "bold")
                text.append(h.label, "bold" if i == 0 else "")
                text.append("\n")
            text.append(
                "\n"
                + tr.gettext(
                    "Estimated win chances from what you know now: a search's estimate, "
                    "not a truth."
                ),
                "dim italic",
            )
        text.append(
            "\n\n" + tr.gettext("Enter: highlight the best in the menu · Escape: back"), "dim"
        )
        return text

    def action_close(self, pick: bool) -> None:
        """Back to the menu; with ``pick``, the best choice's menu number (from 1)."""
        if pick and self.lines:
            self.dismiss(self.lines[0].number)
        else:
            self.dismiss(None)


def run_hint(
    compute: Callable[[], list[HintLine]],
    done: Callable[[list[HintLine] | None, str | None], None],
) -> threading.Thread:
    """``compute()`` in a daemon thread, then ``done(lines, error)`` (from that thread)."""

    def work() -> None:
        try:
            lines: list[HintLine] | None = compute()
            error: str | None = None
        except Exception as exc:  # a failed hint must never end the game
            lines, error = None, f"{type(exc).__name__}: {exc}"
        done(lines, error)

    thread = threading.Thread(target=work, name="citadels-hint", daemon=True)
    thread.start()
    return thread
