"""Card information for people: name, rank or cost, colour, power and rulings, by edition."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from citadels.editions import Edition
from citadels.present import card_texts
from citadels.present.i18n import translator
from citadels.present.labels import COLOUR_KINDS, UnknownCard, card_name, get_edition


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One card as this edition plays it, in words.

    ``colour`` is the district type (``"noble"``, ``"religious"``, ``"trade"``, ``"military"``,
    ``"unique"``) of a district, or of the districts a character collects income for;
    ``colour_id`` is the engine's id of the same colour (``"yellow"``…)."""

    id: str
    name: str
    kind: str
    rank: int | None
    cost: int | None
    colour: str | None
    power: str
    rulings: tuple[str, ...]
    colour_id: str | None = None
    bonus: int = 0


_T = TypeVar("_T")


def _pick(table: Mapping[str, Mapping[str, _T]], card_id: str, edition: str) -> _T | None:
    """The entry of ``card_id`` for ``edition``, else its ``"*"`` entry, else ``None``."""
    entry = table.get(card_id)
    if entry is None:
        return None
    if edition in entry:
        return entry[edition]
    return entry.get("*")


_AUTOMATIC = ("king", "bishop", "merchant", "architect", "warlord")


def card_info(edition: Edition | str, card_id: str, lang: str = "en") -> CardInfo:
    """Everything a player needs to know about one card of ``edition``: ``UnknownCard`` if the
    edition has no such card."""
    ed = get_edition(edition)
    tr = translator(lang)
    if card_id in ed.characters:
        c = ed.characters[card_id]
        power = _pick(card_texts.CHARACTER_POWERS, card_id, ed.id)
        rulings = _pick(card_texts.CHARACTER_RULINGS, card_id, ed.id) or ()
        if ed.automatic_income and card_id in _AUTOMATIC:
            rulings = (card_texts.INCOME_AUTOMATIC, *rulings)
        return CardInfo(
            id=card_id,
            name=card_name(ed, card_id, lang),
            kind="character",
            rank=c.rank,
            cost=None,
            colour=COLOUR_KINDS.get(c.colour) if c.colour else None,
            power=tr.pgettext(ed.id, power) if power else "",
            rulings=tuple(tr.pgettext(ed.id, r) for r in rulings),
            colour_id=c.colour,
        )
    if card_id in ed.districts:
        d = ed.districts[card_id]
        power = _pick(card_texts.DISTRICT_POWERS, card_id, ed.id) if d.colour == "purple" else None
        rulings = (_pick(card_texts.DISTRICT_RULINGS, card_id, ed.id) or ()) if power else ()
        return CardInfo(
            id=card_id,
            name=card_name(ed, card_id, lang),
            kind="district",
            rank=None,
            cost=d.cost,
            colour=COLOUR_KINDS.get(d.colour),
            power=tr.pgettext(ed.id, power) if power else "",
            rulings=tuple(tr.pgettext(ed.id, r) for r in rulings),
            colour_id=d.colour,
            bonus=d.bonus,
        )
    raise UnknownCard(
        tr.gettext("the {edition} edition has no card {card}", edition=ed.id, card=repr(card_id))
    )


def all_cards(edition: Edition | str, lang: str = "en") -> list[CardInfo]:
    """Every card of ``edition``: the characters by rank, then the districts by colour and
    cost (the bonus characters and districts a game may add included)."""
    ed = get_edition(edition)
    chars = sorted(ed.characters.values(), key=lambda c: (c.rank, c.id))
    order = {c: i for i, c in enumerate(COLOUR_KINDS)}
    districts = sorted(
        ed.districts.values(),
        key=lambda d: (order.get(d.colour, 9), d.cost if d.cost is not None else 99, d.id),
    )
    return [card_info(ed, c.id, lang) for c in chars] + [
        card_info(ed, d.id, lang) for d in districts
    ]
