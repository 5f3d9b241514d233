"""Names and labels: editions, seats, card names and colour labels (never a colour alone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from citadels.editions import EDITIONS, Edition
from citadels.errors import CitadelsError
from citadels.present.i18n import N_, NC_, translator


class UnknownCard(CitadelsError, KeyError):
    """A card id or name that the edition does not know."""

    code = "unknown_card"

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownEdition(CitadelsError, ValueError):
    """An edition id that is not one of ``citadels.EDITIONS``."""

    code = "unknown_edition"


def get_edition(edition: Edition | str) -> Edition:
    """The ``Edition`` itself, or the one with this id; ``UnknownEdition`` names the known ones."""
    if isinstance(edition, Edition):
        return edition
    if isinstance(edition, str):
        found = EDITIONS.get(edition) or EDITIONS.get(edition.strip().lower())
        if found is not None:
            return found
    tr = translator("en")
    raise UnknownEdition(
        tr.gettext(
            "unknown edition {edition}; known editions: {known}",
            edition=repr(edition),
            known=", ".join(EDITIONS),
        )
    )


def card_name(edition: Edition | str, card_id: str, lang: str = "en") -> str:
    """The name of a character or district of ``edition`` in ``lang`` (``"Market"``): the
    name the edition's own rulebook gives, where the catalog has one in the edition's context
    (``names.EDITION_NAMES``), else the card's one name. An id the edition does not know is
    shown in title case rather than failing."""
    ed = get_edition(edition)
    tr = translator(lang)
    card = ed.districts.get(card_id) or ed.characters.get(card_id)
    if card is not None:
        return tr.pgettext(ed.id, card.name)
    return str(card_id).replace("_", " ").title()


def seat_label(seat: int | None, names: Sequence[str] | None = None, lang: str = "en") -> str:
    """The display name of a seat: ``names[seat]`` when given, else ``"Seat 2"``;
    ``None`` is the table itself (spectator)."""
    tr = translator(lang)
    if seat is None:
        return tr.gettext("Spectator")
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return tr.gettext("Seat {n}", n=seat)


class ColourLabel(NamedTuple):
    """How a card colour is shown: a symbol, a word and a letter, so colour is never alone."""

    symbol: str
    word: str
    letter: str


# Engine colour id -> (symbol, word, letter); the words are marked for translation.
_COLOURS: dict[str, tuple[str, str, str]] = {
    "yellow": ("♛", N_("noble"), N_("N")),
    "blue": ("✝", N_("religious"), N_("R")),
    "green": ("⚖", N_("trade"), N_("T")),
    "red": ("⚔", N_("military"), N_("M")),
    "purple": ("★", N_("unique"), N_("U")),
}
# The purple type as an edition's rulebook words it, in the edition's context: the classic
# rulebooks say "purple" (ru seed 002 «Фиолетовый»), 2016 says "unique".
_EDITION_PURPLE: dict[str, tuple[str, str]] = {
    "classic": (NC_("classic", "unique"), NC_("classic", "U")),
    "dezh": (NC_("dezh", "unique"), NC_("dezh", "U")),
}
#: The kind words (the contract's names) for each engine colour id, and back.
COLOUR_KINDS: dict[str, str] = {
    "yellow": "noble",
    "blue": "religious",
    "green": "trade",
    "red": "military",
    "purple": "unique",
}
_BY_KIND = {kind: colour for colour, kind in COLOUR_KINDS.items()}


def colour_id(colour: str) -> str:
    """The engine's colour id (``"yellow"``) of a colour given as id or kind (``"noble"``)."""
    key = colour.strip().lower()
    if key in _COLOURS:
        return key
    if key in _BY_KIND:
        return _BY_KIND[key]
    if key == "special":
        return "purple"
    raise ValueError(
        translator("en").gettext(
            "unknown colour {colour}; known colours: {known}",
            colour=repr(colour),
            known=", ".join(list(_COLOURS) + list(_BY_KIND)),
        )
    )


def colour_label(
    colour: str, lang: str = "en", edition: Edition | str | None = None
) -> ColourLabel:
    """The symbol, word and letter of a district colour, given as the engine's id
    (``"yellow"``) or as its kind (``"noble"``): ``("♛", "noble", "N")``. With ``edition``,
    the words its rulebook uses (the purple type of ``classic`` is «фиолетовый» in Russian,
    2016's «уникальный»)."""
    symbol, word, letter = _COLOURS[colour_id(colour)]
    tr = translator(lang)
    if edition is None:
        return ColourLabel(symbol, tr.gettext(word), tr.gettext(letter))
    context = get_edition(edition).id
    return ColourLabel(symbol, tr.pgettext(context, word), tr.pgettext(context, letter))
