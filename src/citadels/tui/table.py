"""The table as Rich renderables, made from one seat's view and the presentation layer's words.

Nothing here reads the game: every function takes ``Game.view(seat)`` data (what that seat may
know). Every word comes from :mod:`citadels.present` (card names, colour labels, action and
event wording) or through its translator; a colour is never shown without its symbol and word
or letter, so the table reads the same in a monochrome terminal or under ``NO_COLOR``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from citadels import present
from citadels.editions import Edition, get_edition
from citadels.present import N_

#: How each bot level is named on the table (translated when shown).
BOT_LEVEL_WORDS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "random": N_("random"),
    "heuristic": N_("heuristic"),
    "ismcts": N_("search"),
}

#: The terminal style of each district colour (always shown with a symbol and a word/letter).
COLOUR_STYLES: dict[str, str] = {
    "yellow": "bold yellow",
    "blue": "bold dodger_blue1",
    "green": "bold green3",
    "red": "bold red1",
    "purple": "bold magenta",
}

# How each kind of event stands out in the narration (no words here: only styles).
EVENT_STYLES: dict[str, str] = {
    "setup": "bold",
    "round": "bold underline",
    "murder": "bold red1",
    "murdered_revealed": "red1",
    "rob": "red1",
    "robbed": "red1",
    "destroy": "bold red1",
    "armory": "bold red1",
    "seize": "bold red1",
    "confiscate": "bold red1",
    "exchange_district": "bold red1",
    "crown": "bold yellow",
    "reveal": "bold",
    "build": "green3",
    "city_complete": "bold green3",
    "bewitch": "bold magenta",
    "witch_resumes": "bold magenta",
    "game_over": "bold reverse",
    "call": "dim italic",
    "end_turn": "dim",
    "round_end": "dim",
    "deal": "dim",
    "put_aside": "dim",
    "look_facedown": "dim",
    "pick": "dim",
}


class Flow:
    """Items laid out left to right that wrap between two items, never inside one (a chip,
    a character with its rank and player)."""

    def __init__(self, items: Sequence[Text], gap: int = 2) -> None:
        self.items = [item for item in items if item.cell_len]
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text()
        for item in self.items:
            if line.cell_len and line.cell_len + self.gap + item.cell_len > width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(" " * self.gap)
            line.append_text(item)
        if line.cell_len:
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        if not self.items:
            return Measurement(0, 0)
        widest = max(item.cell_len for item in self.items)
        total = sum(item.cell_len for item in self.items) + self.gap * (len(self.items) - 1)
        return Measurement(min(widest, options.max_width), min(total, options.max_width))


@dataclass(frozen=True)
class Words:
    """What every rendering needs: the edition, the language and each seat's display name."""

    edition: Edition
    lang: str
    names: tuple[str, ...]
    bot_levels: tuple[str | None, ...] = ()

    @property
    def tr(self) -> present.Translator:
        """The translator of this language."""
        return present.translator(self.lang)

    def name(self, seat: int | None) -> str:
        """The display name of ``seat``."""
        if seat is None:
            return ""
        return self.names[seat]

    def card(self, card_id: str) -> str:
        """A card's name in this language."""
        return present.card_name(self.edition, card_id, self.lang)


def make_words(
    edition: Edition | str,
    lang: str,
    given: Sequence[str | None],
    bot_levels: Sequence[str | None] = (),
) -> Words:
    """Words for a table: given names where the players chose one, else the seat's label."""
    ed = edition if isinstance(edition, Edition) else get_edition(edition)
    names = tuple(
        name if name else present.seat_label(seat, None, lang) for seat, name in enumerate(given)
    )
    return Words(ed, lang, names, tuple(bot_levels))


def colour_style(colour: str | None) -> str:
    """The terminal style of a district colour."""
    return COLOUR_STYLES.get(colour or "", "")


def colour_tag(w: Words, colour: str | None, *, word: bool = True) -> Text:
    """The colour's symbol with its word (or letter), styled: ``♛ noble``."""
    if not colour:
        return Text("")
    label = present.colour_label(colour, w.lang, w.edition)
    return Text(f"{label.symbol} {label.word if word else label.letter}", colour_style(colour))


def district_chip(w: Words, district: str, *, beautified: bool = False) -> Text:
    """A built district as a chip: symbol, letter, name and cost (``♛N Manor 3``)."""
    info = present.card_info(w.edition, district, w.lang)
    label = present.colour_label(info.colour_id, w.lang, w.edition) if info.colour_id else None
    cost = "" if info.cost is None else w.tr.number(info.cost + (1 if beautified else 0))
    head = f"{label.symbol}{label.letter}" if label else "·"
    text = Text(f"{head} {info.name} {cost}".rstrip(), colour_style(info.colour_id))
    if beautified:
        text.append("+", "bold")
    return text


def character_label(w: Words, character: str) -> str:
    """A character with its rank: ``4 King``."""
    rank = w.edition.characters[character].rank if character in w.edition.characters else None
    name = w.card(character)
    return f"{w.tr.number(rank)} {name}" if rank is not None else name


def header_line(
    w: Words, view: dict[str, Any], *, thinking: bool = False, compact: bool = False
) -> Text:
    """The title bar: edition, round, phase and who is to move (``compact``: round and who
    is to move only)."""
    tr = w.tr
    text = Text()
    if not compact:
        text.append(tr.gettext("Citadels"), "bold")
        text.append(f" · {tr.gettext(w.edition.title)} · ")
    text.append(tr.gettext("Round {n}", n=view["round"]), "bold")
    to_move = view.get("to_move")
    if to_move is not None:
        text.append(" · ")
        turn = view.get("turn")
        if turn and turn.get("seat") == to_move and turn.get("character"):
            who = tr.gettext(
                "{name} ({character}) is to move",
                name=w.name(to_move),
                character=w.card(turn["character"]),
            )
        elif view.get("phase") == "selection":
            who = tr.gettext("{name} chooses a character", name=w.name(to_move))
        else:
            who = tr.gettext("{name} is to move", name=w.name(to_move))
        text.append(("▶ " if not thinking else "… ") + who, "bold reverse")
    if compact:
        return text
    text.append(" · ")
    text.append(
        tr.ngettext("{n} card in the deck", "{n} cards in the deck", view["deck_size"]), "dim"
    )
    return text


def character_track(w: Words, view: dict[str, Any], *, legend: bool = True) -> RenderableType:
    """Every character of the game by rank, marked: out face up, revealed (by whom), murdered,
    robbed, bewitched, the one whose turn it is (with a legend of the marks)."""
    tr = w.tr
    items = [Text(tr.gettext("Characters") + ":", "bold")]
    revealed: dict[str, int] = view.get("revealed", {})
    faceup = set(view.get("faceup_removed", []))
    known_down = set(view.get("known_facedown", []))
    turn = view.get("turn") or {}
    ed = w.edition
    order = sorted(view["characters_in_play"], key=lambda c: ed.characters[c].rank)
    for c in order:
        label = character_label(w, c)
        if c in faceup:
            items.append(Text(f"✗ {label}", "dim strike"))
            continue
        style = ""
        marks = ""
        if turn.get("character") == c:
            marks += "▶"
            style = "bold reverse"
        if c == view.get("murdered"):
            marks += "†"
            style = style or "red1"
        if c == view.get("robbed"):
            marks += "$"
            style = style or "yellow"
        if c == view.get("bewitched"):
            marks += "⚘"
            style = style or "magenta"
        if c in known_down:
            marks += "▼"
            style = style or "dim"
        item = Text(f"{marks}{label}", style)
        if c in revealed:
            item.append(f" ({w.name(revealed[c])})", "bold")
        items.append(item)
    if not legend:
        return Flow(items)
    marks_legend = [
        tr.gettext("✗ out face up"),
        tr.gettext("▼ face down (seen)"),
        tr.gettext("† murdered"),
        tr.gettext("$ robbed"),
        tr.gettext("⚘ bewitched"),
        tr.gettext("▶ now"),
        tr.gettext("♔ crown"),
    ]
    return Group(Flow(items), Flow([Text(m, "dim") for m in marks_legend]))


def colour_legend(w: Words) -> RenderableType:
    """Each colour's symbol and letter with its word."""
    items = []
    for colour in ("yellow", "blue", "green", "red", "purple"):
        label = present.colour_label(colour, w.lang, w.edition)
        items.append(Text(f"{label.symbol}{label.letter} {label.word}", colour_style(colour)))
    return Flow(items)


def city_summary(w: Words, player: dict[str, Any], goal: int | None) -> Text:
    """A city in one short piece: built of the goal, then each colour's symbol with how many
    districts of that colour (``5/8 ♛2 ✝1 ★2``; the colour legend names the symbols)."""
    built = player["city"]
    tr = w.tr
    text = Text(tr.number(f"{len(built)}/{goal}" if goal else len(built)), "bold")
    if player.get("complete"):
        text.append(" ✓", "bold")
    counts: dict[str, int] = {}
    for district in built:
        colour = present.card_info(w.edition, district, w.lang).colour_id or ""
        counts[colour] = counts.get(colour, 0) + 1
    for colour in (*COLOUR_STYLES, ""):
        if counts.get(colour):
            label = present.colour_label(colour, w.lang) if colour else None
            text.append("  ")
            text.append(
                f"{label.symbol if label else '·'}{tr.number(counts[colour])}", colour_style(colour)
            )
    if player.get("museum_size"):
        text.append("  ")
        text.append(
            tr.ngettext(
                "({n} card in the Museum)", "({n} cards in the Museum)", player["museum_size"]
            ),
            "dim",
        )
    return text


def city_chips(w: Words, player: dict[str, Any], goal: int | None) -> Flow:
    """A city in full: built of the goal, then every district as a chip with its cost."""
    built = player["city"]
    tr = w.tr
    count = tr.number(f"{len(built)}/{goal}" if goal else len(built))
    chips = [Text(count + (" ✓" if player.get("complete") else ""), "bold")]
    beautified = set(player.get("beautified", []))
    chips += [district_chip(w, d, beautified=d in beautified) for d in built]
    if player.get("museum_size"):
        chips.append(
            Text(
                tr.ngettext(
                    "({n} card in the Museum)", "({n} cards in the Museum)", player["museum_size"]
                ),
                "dim",
            )
        )
    return Flow(chips)


def players_table(
    w: Words,
    view: dict[str, Any],
    *,
    compact: bool = False,
    expanded: Collection[int] | None = None,
) -> Table:
    """One row per seat: who is to move, the crown, name, gold, cards in hand, known
    characters, and the city. A seat in ``expanded`` (every seat when ``None``) shows its
    city as coloured chips with names and costs, the others in one short summary
    (``5/8 ♛2 ✝1``), so every row stays on screen in a small terminal. ``compact`` (a
    narrow terminal) leaves out the bots' levels."""
    tr = w.tr
    table = Table(
        box=None,
        expand=True,
        pad_edge=False,
        padding=(0, 1),
        header_style="bold dim",
    )
    table.add_column("", width=2, no_wrap=True)
    table.add_column(tr.gettext("Player"), min_width=8, max_width=16 if compact else 24)
    table.add_column(tr.gettext("Gold"), justify="right", no_wrap=True)
    table.add_column(tr.gettext("Cards"), justify="right", no_wrap=True)
    table.add_column(tr.gettext("Character"), min_width=6, max_width=14 if compact else 18)
    table.add_column(tr.gettext("City"), ratio=1, min_width=12)
    me = view.get("seat")
    goal = view.get("complete_at")
    for p in view["players"]:
        seat = p["seat"]
        mark = Text()
        mark.append("▶" if view.get("to_move") == seat else " ", "bold")
        mark.append("♔" if view.get("crown") == seat else " ", "bold yellow")
        name = Text(w.name(seat), "bold" if seat == me else "")
        if seat == me:
            name.append(" " + tr.gettext("(you)"), "italic")
        elif seat < len(w.bot_levels) and w.bot_levels[seat] and not compact:
            level = tr.gettext(BOT_LEVEL_WORDS.get(w.bot_levels[seat] or "", "bot"))
            name.append(" · " + tr.gettext("{level} bot", level=level), "dim")
        chars = Text()
        for c in p.get("characters", []):
            if chars:
                chars.append("\n")
            chars.append(character_label(w, c), "bold" if seat == me else "")
        city: RenderableType
        if expanded is None or seat in expanded:
            city = city_chips(w, p, goal)
        else:
            city = city_summary(w, p, goal)
        table.add_row(
            mark,
            name,
            tr.number(p["gold"]),
            tr.number(p["hand_size"]),
            chars,
            city,
            style="on grey15" if view.get("to_move") == seat else None,
        )
    return table


def hand_line(w: Words, view: dict[str, Any]) -> RenderableType:
    """The viewer's hand in one flowing line of chips (``Your hand: ⚔M Battlefield 3 …``),
    for a terminal without room for the hand's panel; nothing for a hidden hand."""
    me = view.get("seat")
    if me is None:
        return Text("")
    cards = view["players"][me].get("hand", [])
    label = Text(w.tr.gettext("Your hand") + ":", "bold")
    if not cards:
        return Flow([label, Text(w.tr.gettext("(no cards)"), "dim")])
    return Flow([label, *(district_chip(w, d) for d in cards)])


def table_panel(
    w: Words,
    view: dict[str, Any],
    *,
    compact: bool = False,
    expanded: Collection[int] | None = None,
    legend: bool = True,
    marks: bool = True,
    hand: bool = False,
) -> RenderableType:
    """The whole public table: characters (with the legend of their ``marks``), the players
    (cities of ``expanded`` seats in full), the colour ``legend`` and, with ``hand``, the
    viewer's hand as chips."""
    parts: list[RenderableType] = [
        character_track(w, view, legend=marks),
        players_table(w, view, compact=compact, expanded=expanded),
    ]
    if hand:
        parts.append(hand_line(w, view))
    if legend:
        parts.append(colour_legend(w))
    return Group(*parts)


def hand_entry(w: Words, district: str) -> RenderableType:
    """A card of the hand: symbol and colour word, cost, name, and its power if it has one
    (under the name, every line of it indented, a cell short of the panel's border)."""
    info = present.card_info(w.edition, district, w.lang)
    text = Text()
    tag = colour_tag(w, info.colour_id)
    width = max(len(present.colour_label(c, w.lang, w.edition).word) for c in COLOUR_STYLES) + 2
    tag.pad_right(width - tag.cell_len)
    text.append_text(tag)
    cost = w.tr.number(info.cost) if info.cost is not None else "-"
    text.append(f" {cost:>2}  ", "bold")
    text.append(info.name, "bold")
    if not info.power:
        return text
    power = Table.grid()
    power.add_column(width=4, no_wrap=True)
    power.add_column(ratio=1)
    power.add_column(width=1, no_wrap=True)
    power.add_row("", Text(info.power, "italic"), "")
    return Group(text, power)


def character_entry(w: Words, character: str, *, with_power: bool = True) -> Text:
    """A character: rank and name in bold, then its power."""
    info = present.card_info(w.edition, character, w.lang)
    text = Text()
    text.append(character_label(w, character), "bold")
    if info.colour_id:
        text.append("  ")
        text.append_text(colour_tag(w, info.colour_id))
    if with_power and info.power:
        text.append("\n    " + info.power, "italic")
    return text


def my_characters(w: Words, view: dict[str, Any]) -> Text:
    """The viewer's characters this round (and the face-down ones he has seen)."""
    tr = w.tr
    me = view.get("seat")
    text = Text()
    if me is None:
        return text
    mine = view["players"][me].get("characters", [])
    text.append(tr.gettext("Your characters") + ": ", "bold")
    if mine:
        text.append(tr.gettext(", ").join(character_label(w, c) for c in mine), "bold")
    else:
        text.append(tr.gettext("none yet"), "dim")
    seen = view.get("known_facedown", [])
    if seen:
        text.append("  ")
        cards = tr.gettext(", ").join(w.card(c) for c in seen)
        text.append(
            tr.gettext("seen face down: {cards}", cards=cards),
            "dim",
        )
    return text


def event_line(w: Words, event: dict[str, Any]) -> Text:
    """One narrated event, styled by its kind."""
    line = present.render_event(w.edition, event, w.lang, list(w.names))
    style = EVENT_STYLES.get(str(event.get("kind")), "")
    return Text(line, style)


def action_card(w: Words, action: Any, view: dict[str, Any]) -> str | None:
    """The card an action is about (for the help key): the character or district it names,
    else the purple district whose power it uses, else the acting character."""
    ed = w.edition
    for name in ("character", "district", "take", "give", "signed", "flowered", "sacrifice"):
        value = getattr(action, name, None)
        if isinstance(value, str) and (value in ed.characters or value in ed.districts):
            return value
    districts = getattr(action, "districts", None)
    if isinstance(districts, tuple) and districts and isinstance(districts[0], str):
        return districts[0]
    own = _POWER_CARDS.get(type(action).__name__)
    if own is not None and own in ed.districts:
        return own
    turn = view.get("turn") or {}
    character = turn.get("character")
    return character if isinstance(character, str) else None


# The purple district whose power an action uses, when the action names no card.
_POWER_CARDS: dict[str, str] = {
    "UseSmithy": "smithy",
    "UseLaboratory": "laboratory",
    "UseGraveyard": "graveyard",
    "UseArmory": "armory",
    "UseMuseum": "museum",
    "UseTheater": "theater",
    "SearchDeck": "lighthouse",
    "AnnounceBellTower": "bell_tower",
}
