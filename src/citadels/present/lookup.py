"""Finding a card from what a person typed: its id, its name or a unique prefix of either."""

from __future__ import annotations

import difflib

from citadels.editions import EDITIONS, Edition
from citadels.present.cards import CardInfo, all_cards
from citadels.present.i18n import translator
from citadels.present.labels import UnknownCard, get_edition


def _key(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").casefold().split())


def _either(word: str, items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + word + items[-1]


def _has(edition: Edition, wanted: str) -> bool:
    """Whether ``edition`` has a card whose id or name is ``wanted`` (a ``_key``)."""
    names = [c.name for c in edition.characters.values()]
    names += [d.name for d in edition.districts.values()]
    ids = [*edition.characters, *edition.districts]
    return any(wanted == _key(x) for x in [*names, *ids])


def find_card(edition: Edition | str, text: str, lang: str = "en") -> CardInfo:
    """The card of ``edition`` that ``text`` names: its id or name, or a prefix of one that
    only one card has, case-, dash- and underscore-insensitive. ``UnknownCard`` says why not,
    with the candidates (ambiguous) or the nearest names (unknown)."""
    ed = get_edition(edition)
    tr = translator(lang)
    cards = all_cards(ed, lang)
    wanted = _key(text)
    if not wanted:
        raise UnknownCard(tr.gettext("name a card"))
    exact = [c for c in cards if wanted in (_key(c.id), _key(c.name))]
    if exact:
        return exact[0]
    prefixed = [
        c for c in cards if _key(c.id).startswith(wanted) or _key(c.name).startswith(wanted)
    ]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise UnknownCard(
            tr.gettext(
                "{text} could be: {cards}",
                text=repr(text),
                cards=tr.gettext(", ").join(c.name for c in prefixed),
            )
        )
    elsewhere = [e.id for e in EDITIONS.values() if e.id != ed.id and _has(e, wanted)]
    if elsewhere:
        raise UnknownCard(
            tr.gettext(
                "the {edition} edition has no card {text}; it is a card of {others} "
                "(--edition {first})",
                edition=ed.id,
                text=repr(text),
                others=", ".join(elsewhere),
                first=elsewhere[0],
            )
        )
    names = {_key(c.name): c.name for c in cards}
    near = difflib.get_close_matches(wanted, list(names), n=3, cutoff=0.6)
    if near:
        raise UnknownCard(
            tr.gettext(
                "the {edition} edition has no card {text}; did you mean {near}?",
                edition=ed.id,
                text=repr(text),
                near=_either(tr.gettext(" or "), [names[n] for n in near]),
            )
        )
    raise UnknownCard(
        tr.gettext(
            "the {edition} edition has no card {text}; `citadels cards --edition {edition}` "
            "lists them",
            edition=ed.id,
            text=repr(text),
        )
    )
