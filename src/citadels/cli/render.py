"""Rich renderings for the terminal: the narrated log, the result, editions, statistics."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citadels.editions import Edition, Setup
from citadels.engine.scoring import Outcome
from citadels.present import N_, render_event, seat_label, tiebreak_text, translator
from citadels.present import card_name as present_card_name
from citadels.present.i18n import localize_digits

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
    "crown_stays": "yellow",
    "tribute": "yellow",
    "throne_room": "yellow",
    "queen": "yellow",
    "take_from_richest": "yellow",
    "tax": "yellow",
    "bewitch": "bold magenta",
    "witch_resumes": "bold magenta",
    "take_card": "magenta",
    "exchange_district": "bold red",
    "armory": "bold red",
    "bell_tower_silenced": "bold yellow",
    "confiscate": "bold red",
    "seize": "bold red",
    "threat_revealed": "red",
    "theater": "magenta",
    "city_complete": "bold green",
    "end_turn": "dim",
    "round_end": "dim",
    "game_over": "bold",
}

# Events that belong to a character's turn are indented under its reveal (or under the line
# where the Witch takes over a bewitched turn).
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
        # Dark City characters.
        "bewitch",
        "tax",
        "look_at_hand",
        "take_card",
        "crown_stays",
        "tribute",
        "take_from_richest",
        "exchange_district",
        "queen",
        "beautify",
        "alchemist",
        # Dark City districts.
        "lighthouse",
        "bell_tower",
        "bell_tower_silenced",
        "armory",
        "museum",
        "poor_house",
        "park",
        "throne_room",
        # The 2016 characters and districts.
        "tax_token",
        "warrants",
        "warrant_passed",
        "confiscate",
        "threats",
        "ransom",
        "ransom_refused",
        "threat_revealed",
        "threat_kept",
        "spy",
        "seer_take",
        "seer_give",
        "give_card",
        "loan",
        "study",
        "seize",
        "sacrifice",
        "pay_with_cards",
    }
)

# Event fields that name a district, highlighted in the district's colour.
_DISTRICT_FIELDS = ("district", "give", "take", "for")
# Events whose ``character`` field is highlighted in the character's colour.
_CHARACTER_KINDS = frozenset({"reveal", "murder", "rob", "bewitch", "witch_resumes"})


def _card_style(edition: Edition, card_id: str) -> str:
    district = edition.districts.get(card_id)
    if district is not None:
        return COLOUR_STYLES.get(district.colour, "")
    character = edition.characters.get(card_id)
    if character is not None and character.colour is not None:
        return COLOUR_STYLES.get(character.colour, "")
    return ""


def card_name(edition: Edition, card_id: str, lang: str = "en") -> str:
    """The name of a district or character of ``edition`` in ``lang``."""
    return present_card_name(edition, card_id, lang)


def event_line(
    edition: Edition,
    event: dict[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Text:
    """One rendered event (from a view's ``log``) as a styled line of text in ``lang``, seats
    called by ``names`` when given."""
    kind = event.get("kind", "")
    style = _EVENT_STYLES.get(kind, "")
    if kind == "bell_tower":
        style = "bold green" if event.get("announce") else "dim"
    text = Text(render_event(edition, event, lang, names), style=style)
    if kind == "reveal":
        text.stylize("bold")
    if kind in _CHARACTER_KINDS:
        character = str(event.get("character", ""))
        if character in edition.characters:
            text.highlight_words(
                [card_name(edition, character, lang)],
                style=_card_style(edition, character) or "cyan",
            )
    for name in _DISTRICT_FIELDS:
        district = event.get(name)
        if isinstance(district, str) and district in edition.districts:
            colour = _card_style(edition, district)
            if colour:
                text.highlight_words([card_name(edition, district, lang)], style=f"bold {colour}")
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


def narration(
    edition: Edition,
    log: Sequence[dict[str, Any]],
    setup: RenderableType | None = None,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Iterator[RenderableType]:
    """The log as renderables in ``lang``: a header per round, then one line per event.
    ``setup``, when given, is shown under the first header (the characters and purple
    districts in play); ``names`` call the seats (default ``Seat N``)."""
    tr = translator(lang)
    for number, events in rounds(log):
        title = tr.gettext("Setup") if number == 0 else tr.gettext("Round {n}", n=number)
        crown = events[0].get("crown") if number else None
        if crown is not None:
            title += " · " + tr.gettext("crown: seat {seat}", seat=crown)
        yield Rule(Text(title, style="bold cyan"), align="left", style="cyan")
        if number == 0 and setup is not None:
            yield Padding(setup, (0, 0, 0, 2), expand=False)
        bewitched: str | None = None
        for event in events:
            kind = str(event.get("kind", ""))
            line = event_line(edition, event, lang, names)
            if kind == "bewitch":
                bewitched = str(event.get("character"))
            elif kind == "reveal" and bewitched is not None and event.get("character") == bewitched:
                # the bewitched holder only gathers; the Witch plays the rest of his turn.
                line.append(" " + tr.gettext("Bewitched: he only gathers."), style="magenta")
            yield Padding(line, (0, 0, 0, _indent(kind)), expand=False)


def print_narration(
    console: Console,
    edition: Edition,
    log: Sequence[dict[str, Any]],
    setup: RenderableType | None = None,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> None:
    """Print the narrated log in ``lang``, round by round (``setup`` under the first header),
    seats called by ``names`` when given."""
    for renderable in narration(edition, log, setup, lang, names):
        console.print(renderable)


def is_bonus_character(edition: Edition, character: str) -> bool:
    """Whether ``character`` is one of the edition's bonus characters (not a default one)."""
    return character not in edition.default_characters


def character_text(
    edition: Edition, characters: Iterable[str], *, ranks: bool = True, lang: str = "en"
) -> Text:
    """Characters as ``1 Assassin, 2 Thief, …``; bonus characters marked ``*`` in magenta."""
    tr = translator(lang)
    out = Text()
    for i, c in enumerate(characters):
        if i:
            out.append(tr.gettext(", "))
        card = edition.characters[c]
        name = card_name(edition, c, lang)
        label = f"{tr.number(card.rank)} {name}" if ranks else name
        if is_bonus_character(edition, c):
            out.append(label + "*", style="magenta")
        else:
            out.append(label)
    return out


def purple_ids(edition: Edition, deck: Mapping[str, int]) -> list[str]:
    """The purple district ids of a deck, in the edition's table order."""
    return [d for d in edition.districts if d in deck and edition.districts[d].colour == "purple"]


def ids_with_copies(ids: Iterable[str], copies: Mapping[str, int], lang: str = "en") -> str:
    """Ids or names joined as ``lang`` lists them, with ``×2`` after those in two copies (in
    Persian «، » and «×۲»)."""
    tr = translator(lang)
    return tr.gettext(", ").join(
        tr.gettext("{card} ×{n}", card=d, n=copies[d]) if copies.get(d, 1) > 1 else d for d in ids
    )


def setup_summary(edition: Edition, setup: Setup, lang: str = "en") -> RenderableType:
    """A game's characters (bonus ones marked) and the purple districts of its deck; in
    English the districts are named by id (what the options take), otherwise by name."""
    tr = translator(lang)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_row(
        tr.gettext("characters"),
        Columns(
            [character_text(edition, [c], lang=lang) for c in setup.characters], padding=(0, 2)
        ),
    )
    purple = purple_ids(edition, setup.deck)
    if edition.purple_pool or purple:
        shown = purple if lang == "en" else [card_name(edition, d, lang) for d in purple]
        copies = {shown[i]: setup.deck[d] for i, d in enumerate(purple)}
        grid.add_row(
            tr.gettext("purple"),
            Text(
                ids_with_copies(shown, copies, lang) or tr.gettext("none"),
                style=COLOUR_STYLES["purple"],
            ),
        )
    grid.add_row(tr.gettext("city size"), tr.number(setup.complete_at))
    return grid


def _tiebreak(value: str | None, lang: str = "en") -> str:
    if value is None:
        return "—"
    if lang == "en":
        return value.replace("_", " ")
    return tiebreak_text(value, lang)


_RESULT_CAPTION = N_(
    "City: district costs · Colours: +3, every colour built · "
    "First: +4, first complete city · Complete: +2, other complete cities · "
    "Bonus: printed and end-of-game district points"
)


def _seat_cell(seat: int, names: Sequence[str] | None, lang: str) -> str:
    """A seat in a table: its number, with its name when the game has names."""
    number = translator(lang).number(seat)
    if names and 0 <= seat < len(names) and names[seat] != seat_label(seat, None, lang):
        return f"{number} {names[seat]}"
    return number


def result_table(
    outcome: Outcome,
    *,
    final: bool = True,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Table:
    """The score table: each seat's score, its breakdown (C-15 a–e), rank and tie-break;
    seats by ``names`` when given, else by number."""
    tr = translator(lang)
    num = tr.number
    title = (
        tr.gettext("Result")
        if final
        else tr.gettext("Scores if the game ended now, from public information")
    )
    table = Table(
        title=title,
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        caption=localize_digits(tr.gettext(_RESULT_CAPTION), lang),
        caption_style="dim",
    )
    table.add_column(tr.gettext("Seat"), justify="right")
    table.add_column(tr.gettext("Score"), justify="right", style="bold")
    for name in (N_("City"), N_("Colours"), N_("First"), N_("Complete"), N_("Bonus")):
        table.add_column(tr.gettext(name), justify="right")
    table.add_column(tr.pgettext("score table", "Rank"), justify="right")
    table.add_column(tr.gettext("Tie-break"))
    for r in sorted(outcome, key=lambda r: (r.rank, r.seat)):
        b = r.breakdown
        table.add_row(
            _seat_cell(r.seat, names, lang),
            num(r.score),
            num(b.districts),
            num(b.colours),
            num(b.first_complete),
            num(b.complete),
            num(b.bonus),
            ("★ " + num(1) if r.rank == 1 and final else num(r.rank)),
            _tiebreak(r.tiebreak, lang),
            style="green" if r.rank == 1 and final else None,
        )
    return table


def cities_table(
    edition: Edition,
    view: dict[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Table:
    """Each seat's city, gold and hand size, from a view; seats by ``names`` when given."""
    tr = translator(lang)
    num = tr.number
    table = Table(title=tr.gettext("Cities"), title_style="bold", header_style="bold")
    table.add_column(tr.gettext("Seat"), justify="right")
    table.add_column(tr.gettext("Gold"), justify="right")
    table.add_column(tr.gettext("Hand"), justify="right")
    table.add_column(tr.gettext("City"))
    for player in view["players"]:
        city = Text()
        beautified = list(player.get("beautified", []))
        for i, district in enumerate(player["city"]):
            if i:
                city.append(tr.gettext(", "))
            city.append(card_name(edition, district, lang), style=_card_style(edition, district))
            if district in beautified:
                # the Artist's gold on it, worth 1 more.
                beautified.remove(district)
                city.append(" +" + num(1), style="bold yellow")
            if district == "museum" and player.get("museum_size"):
                city.append(
                    " " + tr.gettext("({n} beneath)", n=int(player["museum_size"])), style="dim"
                )
        table.add_row(
            _seat_cell(int(player["seat"]), names, lang),
            num(player["gold"]),
            num(player["hand_size"]),
            city,
        )
    caption = []
    if any(p.get("beautified") for p in view["players"]):
        caption.append(localize_digits(tr.gettext("+1: beautified by the Artist"), lang))
    if view.get("bell_tower") is not None:
        caption.append(
            tr.gettext(
                "Bell Tower of seat {seat}: {n} districts complete a city",
                seat=int(view["bell_tower"]),
                n=int(view["complete_at"]),
            )
        )
    if caption:
        table.caption = " · ".join(caption)
        table.caption_style = "dim"
    return table
