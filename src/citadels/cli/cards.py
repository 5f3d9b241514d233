"""``citadels cards``: the cards of an edition, or one card's full text, in words."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from citadels.editions import Edition
from citadels.present import CardInfo, all_cards, colour_label, translator

#: Terminal style of each colour kind (always shown with its symbol and word too).
KIND_STYLES: dict[str, str] = {
    "noble": "yellow",
    "religious": "blue",
    "trade": "green",
    "military": "red",
    "unique": "magenta",
}


def colour_text(kind: str | None, lang: str = "en", edition: Edition | None = None) -> Text:
    """A colour as its symbol and word (as ``edition``'s rulebook words it), styled in that
    colour (never colour alone)."""
    if kind is None:
        return Text("–", style="dim")
    label = colour_label(kind, lang, edition)
    return Text(f"{label.symbol} {label.word}", style=KIND_STYLES.get(kind, ""))


def _name_cell(card: CardInfo) -> Text:
    """The card's name in bold with its id beneath, dimmed (the id the options take)."""
    cell = Text(card.name, style="bold")
    cell.append("\n" + card.id, style="dim")
    return cell


def cards_table(edition: Edition, lang: str = "en") -> RenderableType:
    """Every card of ``edition``: characters by rank, then districts, with a short power."""
    tr = translator(lang)
    cards = all_cards(edition, lang)
    chars = Table(
        title=tr.gettext("Characters of {edition}", edition=edition.id),
        box=box.SIMPLE_HEAD,
        header_style="bold",
        title_style="bold",
    )
    chars.add_column(tr.gettext("Rank"), justify="right")
    chars.add_column(tr.gettext("Card (id)"), no_wrap=True)
    chars.add_column(tr.gettext("Income"), no_wrap=True)
    chars.add_column(tr.gettext("Power"), ratio=1)
    districts = Table(
        title=tr.gettext("Districts of {edition}", edition=edition.id),
        box=box.SIMPLE_HEAD,
        header_style="bold",
        title_style="bold",
    )
    districts.add_column(tr.gettext("Cost"), justify="right")
    districts.add_column(tr.gettext("Card (id)"), no_wrap=True)
    districts.add_column(tr.gettext("Type"), no_wrap=True)
    districts.add_column(tr.gettext("Copies"), justify="right")
    districts.add_column(tr.gettext("Power"), ratio=1)
    for card in cards:
        if card.kind == "character":
            chars.add_row(
                tr.number(card.rank or 0),
                _name_cell(card),
                colour_text(card.colour, lang, edition),
                card.power,
            )
        else:
            copies = edition.deck.get(card.id, 0)
            districts.add_row(
                "–" if card.cost is None else tr.number(card.cost),
                _name_cell(card),
                colour_text(card.colour, lang, edition),
                tr.number(copies) if copies else tr.gettext("optional"),
                card.power or Text("–", style="dim"),
            )
    return Group(chars, districts)


def card_panel(edition: Edition, card: CardInfo, lang: str = "en") -> RenderableType:
    """One card's whole text: what it is, its power and this edition's rulings."""
    tr = translator(lang)
    body = Text()
    if card.kind == "character":
        body.append(tr.gettext("Character of rank {rank}", rank=card.rank), style="bold")
        if card.colour:
            # The colour keeps its style inside the translated sentence, wherever it stands.
            before, _, after = tr.gettext("; income from {colour} districts").partition("{colour}")
            body.append(before)
            body.append_text(colour_text(card.colour, lang, edition))
            body.append(after)
    else:
        body.append(tr.gettext("District"), style="bold")
        body.append(" · ")
        body.append_text(colour_text(card.colour, lang, edition))
        body.append(" · ")
        if card.cost is None:
            body.append(tr.gettext("can never be built"))
        else:
            body.append(tr.gettext("cost {cost}", cost=card.cost))
        if card.bonus:
            body.append(tr.gettext(" · {bonus} bonus points", bonus=card.bonus))
    body.append("\n\n")
    body.append(card.power or tr.gettext("No special power."))
    if card.rulings:
        body.append("\n\n")
        body.append(tr.gettext("Rulings in this edition:"), style="bold")
        for ruling in card.rulings:
            body.append("\n • " + ruling)
    title = Text(f"{card.name} ({card.id}) · {edition.id}", style="bold")
    return Panel(body, title=title, title_align="left", expand=False, width=80)
