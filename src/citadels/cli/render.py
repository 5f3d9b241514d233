"""Rich renderings for the terminal: the narrated log, the result, editions, statistics."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citadels.bench import (
    GOAL_CLASSIC_GAMES_PER_SECOND,
    GOAL_COPY_MICROSECONDS,
    BenchReport,
)
from citadels.editions import Edition
from citadels.engine.scoring import Outcome
from citadels.sim import SimStats

#: Terminal style of each card colour.
COLOUR_STYLES: dict[str, str] = {
    "yellow": "yellow",
    "blue": "blue",
    "green": "green",
    "red": "red",
    "purple": "magenta",
}

# The style of each event kind's line; kinds not listed are printed plainly.
_EVENT_STYLES: dict[str, str] = {
    "setup": "bold",
    "deal": "dim",
    "put_aside": "dim",
    "look_facedown": "dim",
    "pick": "dim",
    "call": "dim italic",
    "murder": "bold red",
    "rob": "red",
    "robbed": "red",
    "destroy": "bold red",
    "murdered_revealed": "red",
    "crown": "bold yellow",
    "city_complete": "bold green",
    "end_turn": "dim",
    "round_end": "dim",
    "game_over": "bold",
}

# Events that belong to a character's turn are indented under its reveal.
_TURN_KINDS = frozenset(
    {
        "murder",
        "rob",
        "robbed",
        "crown",
        "income",
        "extra_gold",
        "extra_cards",
        "gather_gold",
        "gather_cards",
        "keep",
        "build",
        "city_complete",
        "exchange_hands",
        "redraw",
        "destroy",
        "graveyard",
        "laboratory",
        "smithy",
        "end_turn",
    }
)


def _card_style(edition: Edition, card_id: str) -> str:
    district = edition.districts.get(card_id)
    if district is not None:
        return COLOUR_STYLES.get(district.colour, "")
    character = edition.characters.get(card_id)
    if character is not None and character.colour is not None:
        return COLOUR_STYLES.get(character.colour, "")
    return ""


def card_name(edition: Edition, card_id: str) -> str:
    """The printed name of a district or character of ``edition``."""
    if card_id in edition.districts:
        return edition.districts[card_id].name
    if card_id in edition.characters:
        return edition.characters[card_id].name
    return card_id.replace("_", " ").title()


def event_line(edition: Edition, event: dict[str, Any]) -> Text:
    """One rendered event (from a view's ``log``) as a styled line of text."""
    kind = event.get("kind", "")
    text = Text(str(event.get("text", kind)), style=_EVENT_STYLES.get(kind, ""))
    if kind == "reveal":
        character = str(event.get("character", ""))
        text.stylize("bold")
        text.highlight_words(
            [card_name(edition, character)], style=_card_style(edition, character) or "cyan"
        )
    elif kind in ("build", "destroy", "graveyard"):
        district = str(event.get("district", ""))
        style = _card_style(edition, district)
        if style:
            text.highlight_words([card_name(edition, district)], style=f"bold {style}")
    return text


def _indent(kind: str) -> int:
    return 4 if kind in _TURN_KINDS else 2


def rounds(log: Iterable[dict[str, Any]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Split a log into ``(round, events)`` groups; events before round 1 are round 0."""
    current = 0
    events: list[dict[str, Any]] = []
    for event in log:
        if event.get("kind") == "round":
            if events:
                yield current, events
            current = int(event.get("round", current + 1))
            events = []
        events.append(event)
    if events:
        yield current, events


def narration(edition: Edition, log: Sequence[dict[str, Any]]) -> Iterator[RenderableType]:
    """The log as renderables: a header per round, then one line per event."""
    for number, events in rounds(log):
        title = "Setup" if number == 0 else f"Round {number}"
        crown = events[0].get("crown") if number else None
        if crown is not None:
            title += f" · crown: seat {crown}"
        yield Rule(Text(title, style="bold cyan"), align="left", style="cyan")
        for event in events:
            line = event_line(edition, event)
            yield Padding(line, (0, 0, 0, _indent(str(event.get("kind", "")))), expand=False)


def print_narration(console: Console, edition: Edition, log: Sequence[dict[str, Any]]) -> None:
    """Print the narrated log, round by round."""
    for renderable in narration(edition, log):
        console.print(renderable)


def _tiebreak(value: str | None) -> str:
    if value is None:
        return "—"
    return value.replace("_", " ")


def result_table(outcome: Outcome, *, final: bool = True) -> Table:
    """The score table: each seat's score, its breakdown (C-15 a–e), rank and tie-break."""
    title = "Result" if final else "Scores if the game ended now"
    table = Table(
        title=title,
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        caption="City: district costs · Colours: +3, every colour built · "
        "First: +4, first complete city · Complete: +2, other complete cities · "
        "Bonus: printed points",
        caption_style="dim",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Score", justify="right", style="bold")
    for name in ("City", "Colours", "First", "Complete", "Bonus"):
        table.add_column(name, justify="right")
    table.add_column("Rank", justify="right")
    table.add_column("Tie-break")
    for r in sorted(outcome, key=lambda r: (r.rank, r.seat)):
        b = r.breakdown
        table.add_row(
            str(r.seat),
            str(r.score),
            str(b.districts),
            str(b.colours),
            str(b.first_complete),
            str(b.complete),
            str(b.bonus),
            ("★ 1" if r.rank == 1 and final else str(r.rank)),
            _tiebreak(r.tiebreak),
            style="green" if r.rank == 1 and final else None,
        )
    return table


def cities_table(edition: Edition, view: dict[str, Any]) -> Table:
    """Each seat's city, gold and hand size, from a view."""
    table = Table(title="Cities", title_style="bold", header_style="bold")
    table.add_column("Seat", justify="right")
    table.add_column("Gold", justify="right")
    table.add_column("Hand", justify="right")
    table.add_column("City")
    for player in view["players"]:
        city = Text()
        for i, district in enumerate(player["city"]):
            if i:
                city.append(", ")
            city.append(card_name(edition, district), style=_card_style(edition, district))
        table.add_row(str(player["seat"]), str(player["gold"]), str(player["hand_size"]), city)
    return table


def _count_by_colour(edition: Edition) -> dict[str, int]:
    counts: dict[str, int] = {}
    for district_id, copies in edition.deck.items():
        colour = edition.districts[district_id].colour
        counts[colour] = counts.get(colour, 0) + copies
    return counts


def _players_range(edition: Edition) -> str:
    return f"{edition.min_players}–{edition.max_players}"


def _city_size(edition: Edition) -> str:
    if edition.city_size == edition.city_size_small:
        size = str(edition.city_size)
    else:
        size = f"{edition.city_size} ({edition.city_size_small} with 2–3 players)"
    if edition.city_size_options:
        size += "; option complete_at " + "/".join(map(str, edition.city_size_options))
    return size


_WARLORD_TIMING: dict[str, str] = {
    "after_gather": "Warlord destroys after gathering",
    "any_time": "Warlord destroys at any time of his turn",
    "end_of_turn": "Warlord destroys at the end of his turn",
}


def _rules(edition: Edition) -> str:
    parts = [
        "automatic income" if edition.automatic_income else "income taken as an action",
        "build before or after gathering" if edition.free_order else "gather before building",
        _WARLORD_TIMING.get(edition.warlord_timing, edition.warlord_timing),
        "tie-break: " + (", ".join(t.replace("_", " ") for t in edition.tiebreak) or "none"),
    ]
    return "; ".join(parts)


def editions_table(editions: Iterable[Edition]) -> RenderableType:
    """The editions: id, title, players, city size, characters, deck size and composition."""
    blocks: list[RenderableType] = []
    for ed in editions:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        characters = ", ".join(
            f"{ed.characters[c].rank} {ed.characters[c].name}" for c in ed.default_characters
        )
        composition = Text(f"{sum(ed.deck.values())} cards: ")
        for i, (colour, count) in enumerate(_count_by_colour(ed).items()):
            if i:
                composition.append(", ")
            composition.append(f"{count} {colour}", style=COLOUR_STYLES.get(colour, ""))
        purple = sorted(
            (d for d in ed.deck if ed.districts[d].colour == "purple"),
            key=lambda d: card_name(ed, d),
        )
        grid.add_row("players", _players_range(ed))
        grid.add_row("city size", _city_size(ed))
        grid.add_row("characters", characters)
        grid.add_row("deck", composition)
        if purple:
            grid.add_row(
                "purple",
                Text(", ".join(card_name(ed, d) for d in purple), style=COLOUR_STYLES["purple"]),
            )
        grid.add_row("rules", _rules(ed))
        title = Text.assemble((ed.id, "bold cyan"), " — ", ed.title)
        blocks.append(Group(Rule(title, align="left", style="cyan"), grid, Text()))
    return Group(*blocks)


def edition_summary(edition: Edition) -> dict[str, Any]:
    """The facts ``citadels editions --json`` prints for one edition."""
    return {
        "id": edition.id,
        "title": edition.title,
        "min_players": edition.min_players,
        "max_players": edition.max_players,
        "city_size": edition.city_size,
        "city_size_small": edition.city_size_small,
        "city_size_options": list(edition.city_size_options),
        "characters": list(edition.default_characters),
        "deck_size": sum(edition.deck.values()),
        "deck_by_colour": _count_by_colour(edition),
        "options": dict(edition.options),
    }


def sim_tables(stats: SimStats) -> RenderableType:
    """The summary of a simulation: speed, length, and per-seat win share and mean score."""
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    summary.add_row("games", str(stats.games))
    summary.add_row("games/s", f"{stats.games_per_second:,.1f}")
    summary.add_row("mean rounds per game", f"{stats.mean_rounds:.2f}")
    summary.add_row("mean decisions per game", f"{stats.mean_decisions:.1f}")
    seats = Table(title="Per seat", title_style="bold", header_style="bold")
    seats.add_column("Seat", justify="right")
    seats.add_column("Win share", justify="right")
    seats.add_column("Mean score", justify="right")
    for seat, (share, score) in enumerate(zip(stats.win_share, stats.mean_score, strict=True)):
        seats.add_row(str(seat), f"{share:.1%}", f"{score:.2f}")
    return Group(summary, Text(), seats)


def _mark(met: bool) -> Text:
    return Text("✓", style="bold green") if met else Text("✗", style="bold red")


def bench_table(report: BenchReport) -> RenderableType:
    """The benchmark figures per edition, with the goals beside them."""
    players = sorted({t.players for t in report.timings})
    table = Table(
        title=f"Random playouts on one core, {'/'.join(map(str, players))} players "
        f"({report.python}, {report.machine})",
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("Edition", style="bold cyan")
    table.add_column("Games", justify="right")
    table.add_column("Games/s", justify="right")
    table.add_column("Decisions/s", justify="right")
    table.add_column("µs/decision", justify="right")
    table.add_column("copy µs", justify="right")
    table.add_column("view µs", justify="right")
    for t in report.timings:
        games_cell = Text(f"{t.games_per_second:,.0f}")
        if t.edition == "classic":
            games_cell.append(" ")
            games_cell.append(_mark(t.games_per_second >= GOAL_CLASSIC_GAMES_PER_SECOND))
        copy_cell = Text(f"{t.copy_us:.1f} ")
        copy_cell.append(_mark(t.copy_us < GOAL_COPY_MICROSECONDS))
        table.add_row(
            t.edition,
            str(t.games),
            games_cell,
            f"{t.decisions_per_second:,.0f}",
            f"{t.decision_us:.1f}",
            copy_cell,
            f"{t.view_us:.0f}",
        )
    notes = Text.assemble(
        ("Goals: ", "bold"),
        f"≥ {GOAL_CLASSIC_GAMES_PER_SECOND:g} classic games/s, copy() < "
        f"{GOAL_COPY_MICROSECONDS:g} µs on a mid-game position.\n",
        ("µs/decision", "bold"),
        ": legal_actions() + apply(), replaying recorded games.\n",
        ("copy/view µs", "bold"),
        ": Game.copy() and Game.view(seat) on a mid-game position, median of 7 timeit runs "
        "(view renders the whole log).",
        style="dim",
    )
    return Group(table, notes)
