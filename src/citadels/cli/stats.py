"""The figures of ``citadels simulate`` and ``citadels bench`` as Rich tables, in the reader's
language (numbers grouped and with the decimal sign as the language writes them)."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from citadels.bench import GOAL_CLASSIC_GAMES_PER_SECOND, GOAL_COPY_MICROSECONDS, BenchReport
from citadels.editions import get_edition
from citadels.present import card_name, translator
from citadels.present.i18n import N_, Translator
from citadels.sim import SimStats
from citadels.sim.tournament import Rate, TournamentResult


def engine_name(engine: str, lang: str = "en") -> str:
    """Which engine ran (``BenchReport.engine``, one of ``bench.ENGINE_NAMES``), in ``lang``."""
    return translator(lang).gettext(engine or "pure Python")


def _head(tr: Translator, games: int, per_second: float, digits: int, rounds: float,
          decisions: float) -> Table:  # fmt: skip
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column(justify="right")
    head.add_row(tr.gettext("games"), tr.decimal(games))
    head.add_row(tr.gettext("games/s"), tr.decimal(per_second, digits))
    head.add_row(tr.gettext("mean rounds per game"), tr.decimal(rounds, 2))
    head.add_row(tr.gettext("mean decisions per game"), tr.decimal(decisions, 1))
    return head


def sim_tables(stats: SimStats, lang: str = "en") -> RenderableType:
    """The summary of a simulation: speed, length, and per-seat win share and mean score."""
    tr = translator(lang)
    summary = _head(
        tr, stats.games, stats.games_per_second, 1, stats.mean_rounds, stats.mean_decisions
    )
    seats = Table(title=tr.gettext("Per seat"), title_style="bold", header_style="bold")
    seats.add_column(tr.gettext("Seat"), justify="right")
    seats.add_column(tr.gettext("Win share"), justify="right")
    seats.add_column(tr.gettext("Mean score"), justify="right")
    for seat, (share, score) in enumerate(zip(stats.win_share, stats.mean_score, strict=True)):
        seats.add_row(tr.number(seat), tr.percent(share), tr.decimal(score, 2))
    return Group(summary, Text(), seats)


def _rate_row(tr: Translator, label: str, rate: Rate, extra: list[str] | None = None) -> list[str]:
    return [
        label,
        tr.percent(rate.rate),
        f"{tr.percent(rate.low)} – {tr.percent(rate.high)}",
        f"{tr.decimal(rate.wins, 1 if rate.wins % 1 else 0)}/{tr.number(rate.games)}",
        *(extra or []),
    ]


def tournament_tables(result: TournamentResult, lang: str = "en") -> RenderableType:
    """A tournament's report: speed and length, then win rates with 95% confidence intervals
    per bot, per seat and per character, and score statistics per bot."""
    tr = translator(lang)
    summary = result.summary()
    head = _head(
        tr,
        result.games,
        result.games_per_second,
        2,
        summary["mean_rounds"],
        summary["mean_decisions"],
    )
    tables: list[RenderableType] = [head]
    columns = (tr.gettext("Win rate"), tr.gettext("95% CI"), tr.gettext("Wins"))
    bots = Table(
        title=tr.gettext("Per bot (seats rotated)"), title_style="bold", header_style="bold"
    )
    bots.add_column(tr.gettext("Bot"))
    for c in (*columns, tr.gettext("Mean score"), tr.gettext("Score sd")):
        bots.add_column(c, justify="right")
    for i, (entry, rate) in enumerate(zip(result.entries, result.by_entry(), strict=True)):
        row = summary["bots"][i]
        bots.add_row(
            *_rate_row(
                tr,
                f"{tr.number(i)}: {entry.label}",
                rate,
                [tr.decimal(row["mean_score"], 2), tr.decimal(row["score_stdev"], 2)],
            )
        )
    seats = Table(title=tr.gettext("Per seat"), title_style="bold", header_style="bold")
    seats.add_column(tr.gettext("Seat"), justify="right")
    for c in columns:
        seats.add_column(c, justify="right")
    for seat, rate in enumerate(result.by_seat()):
        seats.add_row(*_rate_row(tr, tr.number(seat), rate))
    chars = Table(
        title=tr.gettext("Per character (the seat that picked it)"),
        title_style="bold",
        header_style="bold",
    )
    chars.add_column(tr.gettext("Character"))
    for c in columns:
        chars.add_column(c, justify="right")
    edition = get_edition(result.edition)
    for character, rate in result.by_character().items():
        label = character if lang == "en" else card_name(edition, character, lang)
        chars.add_row(*_rate_row(tr, label, rate))
    for table in (bots, seats, chars):
        tables.extend([Text(), table])
    return Group(*tables)


def _mark(met: bool) -> Text:
    return Text("✓", style="bold green") if met else Text("✗", style="bold red")


def bench_table(report: BenchReport, lang: str = "en") -> RenderableType:
    """The benchmark figures per edition, with the goals beside them, in ``lang``."""
    tr = translator(lang)
    players = sorted({t.players for t in report.timings})
    table = Table(
        title=tr.gettext(
            "Random playouts on one core, {players} players ({python}, {machine}; "
            "engine: {engine})",
            players="/".join(tr.number(p) for p in players),
            python=report.python,
            machine=report.machine,
            engine=engine_name(report.engine, lang),
        ),
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
    )
    table.add_column(tr.gettext("Edition"), style="bold cyan")
    table.add_column(tr.gettext("Games"), justify="right")
    for name in (N_("Games/s"), N_("Decisions/s"), N_("µs/decision"), N_("copy µs")):
        table.add_column(tr.gettext(name), justify="right")
    for name in (N_("view µs"), N_("no log")):
        table.add_column(tr.gettext(name), justify="right")
    for t in report.timings:
        games_cell = Text(tr.decimal(t.games_per_second))
        if t.edition == "classic":
            games_cell.append(" ")
            games_cell.append(_mark(t.games_per_second >= GOAL_CLASSIC_GAMES_PER_SECOND))
        copy_cell = Text(tr.decimal(t.copy_us, 1) + " ")
        copy_cell.append(_mark(t.copy_us < GOAL_COPY_MICROSECONDS))
        table.add_row(
            t.edition,
            tr.number(t.games),
            games_cell,
            tr.decimal(t.decisions_per_second),
            tr.decimal(t.decision_us, 1),
            copy_cell,
            tr.decimal(t.view_us),
            tr.decimal(t.tail_view_us),
        )
    notes = Text.assemble(
        (tr.gettext("Goals:") + " ", "bold"),
        tr.gettext(
            "≥ {games} classic games/s, copy() < {copy} µs on a mid-game position.",
            games=tr.decimal(GOAL_CLASSIC_GAMES_PER_SECOND),
            copy=tr.decimal(GOAL_COPY_MICROSECONDS),
        )
        + "\n",
        (tr.gettext("µs/decision"), "bold"),
        tr.gettext(": legal_actions() + apply(), replaying recorded games.") + "\n",
        (tr.gettext("copy/view µs"), "bold"),
        tr.gettext(
            ": Game.copy() and Game.view(seat) on a mid-game position, median of 7 timeit runs "
            "(view: the whole log, each event's rendering kept from the first view; no log: "
            "view(seat, log_from=log_size))."
        ),
        style="dim",
    )
    return Group(table, notes)
