"""Actions in words, and words back to actions (like ``parse_san`` in python-chess).

``describe_action`` gives the wording a menu shows (``"Build the Market (2 gold)"``);
``parse_action`` reads what a person typed: the full wording, any unique prefix of it, a card
name or id when only one legal action names that card, or the menu number (1-based), all
case-insensitive. Nothing here reads more than the view of the seat to move.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from citadels.editions import Edition
from citadels.engine import actions as A
from citadels.engine.actions import Action
from citadels.errors import CitadelsError
from citadels.present.i18n import Translator, translator
from citadels.present.labels import card_name, colour_label, get_edition, seat_label


class ParseError(CitadelsError, ValueError):
    """Typed text that names no legal action, or several: the message says which and why;
    ``candidates`` are the legal actions it could mean (empty when none)."""

    code = "parse_error"

    def __init__(self, message: str, candidates: Sequence[Action] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[Action, ...] = tuple(candidates)


class _Words:
    """What a wording needs: translator, edition, names and the seat's view."""

    def __init__(
        self, view: Mapping[str, Any], tr: Translator, names: Sequence[str] | None
    ) -> None:
        self.view = view
        self.tr = tr
        self.g = tr.gettext
        self.names = names
        self.edition: Edition = get_edition(str(view.get("edition", "classic")))

    def card(self, card_id: str) -> str:
        return card_name(self.edition, card_id, self.tr.lang)

    def seat(self, seat: int) -> str:
        return seat_label(seat, self.names, self.tr.lang)

    def me(self) -> Mapping[str, Any]:
        seat = self.view.get("seat")
        players = self.view.get("players") or []
        if isinstance(seat, int) and 0 <= seat < len(players):
            return players[seat]  # type: ignore[no-any-return]
        return {}

    def player(self, seat: int) -> Mapping[str, Any]:
        players = self.view.get("players") or []
        return players[seat] if 0 <= seat < len(players) else {}  # type: ignore[no-any-return]

    def build_price(self, district: str) -> int | None:
        card = self.edition.districts.get(district)
        if card is None or card.cost is None:
            return None
        price = card.cost
        if card.colour == "purple" and district != "factory" and "factory" in self.me().get(
            "city", []
        ):
            price = max(0, price - 1)
        return price

    def current_cost(self, seat: int, district: str) -> int:
        card = self.edition.districts.get(district)
        cost = card.cost if card is not None and card.cost is not None else 0
        return cost + (1 if district in self.player(seat).get("beautified", []) else 0)

    def wall(self, seat: int, district: str) -> int:
        return 1 if district != "great_wall" and "great_wall" in self.player(seat).get("city", []) else 0

    def pending_card(self) -> str | None:
        pending = self.view.get("pending") or {}
        cards = pending.get("cards") or []
        return str(cards[0]) if cards else None


def _build(w: _Words, a: A.Build) -> str:
    price = w.build_price(a.district)
    if price is None:
        return w.g("Build the {district}", district=w.card(a.district))
    return w.g("Build the {district} ({cost} gold)", district=w.card(a.district), cost=price)


def _keep(w: _Words, a: A.KeepCards) -> str:
    names = [w.g("the {district}", district=w.card(d)) for d in a.districts]
    if len(names) == 1:
        return w.g("Keep {cards}", cards=names[0])
    return w.g(
        "Keep {cards} and {last}", cards=w.g(", ").join(names[:-1]), last=names[-1]
    )


def _graveyard(w: _Words, a: A.UseGraveyard) -> str:
    card = w.pending_card()
    if a.take:
        if card:
            return w.g("Pay 1 gold to take the {district} into your hand (Graveyard)", district=w.card(card))
        return w.g("Pay 1 gold to take the destroyed district into your hand (Graveyard)")
    if card:
        return w.g("Let the {district} go (Graveyard)", district=w.card(card))
    return w.g("Let the destroyed district go (Graveyard)")


def _confiscate(w: _Words, a: A.Confiscate) -> str:
    card = w.pending_card()
    if a.take:
        if card:
            return w.g("Reveal the signed warrant and confiscate the {district}", district=w.card(card))
        return w.g("Reveal the signed warrant and confiscate the district")
    return w.g("Let the build stand")


def _theater(w: _Words, a: A.UseTheater) -> str:
    if a.seat < 0:
        return w.g("Keep your character (Theater)")
    if a.character:
        return w.g(
            "Swap your {character} with {seat} (Theater)",
            character=w.card(a.character),
            seat=w.seat(a.seat),
        )
    return w.g("Swap characters with {seat} (Theater)", seat=w.seat(a.seat))


def _income(w: _Words, a: A.TakeIncome) -> str:
    if a.cards:
        return w.tr.ngettext(
            "Take income, {n} of it as a card", "Take income, {n} of it as cards", a.cards
        )
    return w.g("Take income")


def _gather_gold(w: _Words, a: A.GatherGold) -> str:
    gold = 3 if "gold_mine" in w.me().get("city", []) else 2
    return w.g("Take {gold} gold", gold=gold)


def _destroy(w: _Words, a: A.Destroy) -> str:
    price = max(0, w.current_cost(a.seat, a.district) - 1) + w.wall(a.seat, a.district)
    return w.g(
        "Destroy the {district} of {seat} ({cost} gold)",
        district=w.card(a.district),
        seat=w.seat(a.seat),
        cost=price,
    )


def _seize(w: _Words, a: A.Seize) -> str:
    price = w.current_cost(a.seat, a.district) + w.wall(a.seat, a.district)
    return w.g(
        "Seize the {district} of {seat} ({cost} gold)",
        district=w.card(a.district),
        seat=w.seat(a.seat),
        cost=price,
    )


def _pay_remainder(w: _Words, a: A.PayRemainder) -> str:
    left = (w.view.get("pending") or {}).get("price_left")
    if isinstance(left, int):
        return w.g("Pay the rest in gold ({cost} gold)", cost=left)
    return w.g("Pay the rest in gold")


def _take_card(w: _Words, a: A.TakeCard) -> str:
    if a.build:
        price = w.build_price(a.district)
        return w.g(
            "Take and build the {district} ({cost} gold)",
            district=w.card(a.district),
            cost=price if price is not None else "?",
        )
    return w.g("Take the {district}", district=w.card(a.district))


_WORDS: dict[type[Action], Callable[[_Words, Any], str]] = {
    A.PickCharacter: lambda w, a: w.g("Pick the {character}", character=w.card(a.character)),
    A.PutAsideCharacter: lambda w, a: w.g(
        "Put the {character} aside face down", character=w.card(a.character)
    ),
    A.UseTheater: _theater,
    A.KeepCards: _keep,
    A.UseGraveyard: _graveyard,
    A.GiveCrown: lambda w, a: w.g("Give the crown to {seat}", seat=w.seat(a.seat)),
    A.PayTribute: lambda w, a: (
        w.g("Give the Emperor the {district}", district=w.card(a.district))
        if a.district
        else w.g("Give the Emperor 1 gold")
    ),
    A.TakeTribute: lambda w, a: (
        w.g("Take 1 gold from the new crown holder")
        if a.resource == "gold"
        else w.g("Take a random card from the new crown holder")
    ),
    A.TakeCard: _take_card,
    A.NavigatorGain: lambda w, a: (
        w.g("Take 4 extra gold") if a.resource == "gold" else w.g("Draw 4 extra cards")
    ),
    A.SearchDeck: lambda w, a: w.g(
        "Take the {district} from the deck (Lighthouse)", district=w.card(a.district)
    ),
    A.AnnounceBellTower: lambda w, a: (
        w.g("Announce that 7 districts complete a city (Bell Tower)")
        if a.announce
        else w.g("Stay silent (Bell Tower)")
    ),
    A.Confiscate: _confiscate,
    A.PayRansom: lambda w, a: (
        w.g("Pay the Blackmailer half your gold") if a.pay else w.g("Refuse to pay the Blackmailer")
    ),
    A.RevealThreat: lambda w, a: (
        w.g("Reveal the threat") if a.reveal else w.g("Keep the threat hidden")
    ),
    A.GiveCard: lambda w, a: w.g("Give the {district}", district=w.card(a.district)),
    A.PayWithCard: lambda w, a: w.g(
        "Pay 1 gold of the Thieves' Den with the {district}", district=w.card(a.district)
    ),
    A.PayRemainder: _pay_remainder,
    A.GatherGold: _gather_gold,
    A.GatherCards: lambda w, a: w.tr.ngettext("Draw {n} card", "Draw {n} cards", a.count),
    A.TakeIncome: _income,
    A.Murder: lambda w, a: w.g("Murder the {character}", character=w.card(a.character)),
    A.Bewitch: lambda w, a: w.g("Bewitch the {character}", character=w.card(a.character)),
    A.PlaceWarrants: lambda w, a: w.g(
        "Warrants on the {signed} (signed), the {first} and the {second}",
        signed=w.card(a.signed),
        first=w.card(a.first),
        second=w.card(a.second),
    ),
    A.Rob: lambda w, a: w.g("Rob the {character}", character=w.card(a.character)),
    A.Threaten: lambda w, a: w.g(
        "Threaten the {flowered} (flowered) and the {other}",
        flowered=w.card(a.flowered),
        other=w.card(a.other),
    ),
    A.SpyOn: lambda w, a: w.g(
        "Spy on {seat} for {colour} districts",
        seat=w.seat(a.seat),
        colour=colour_label(a.colour, w.tr.lang).word,
    ),
    A.ExchangeHands: lambda w, a: w.g("Exchange hands with {seat}", seat=w.seat(a.seat)),
    A.DiscardCard: lambda w, a: w.g(
        "Discard the {district} to draw again", district=w.card(a.district)
    ),
    A.DrawReplacements: lambda w, a: w.g("Stop discarding and draw as many"),
    A.LookAtHand: lambda w, a: w.g("Look at the hand of {seat}", seat=w.seat(a.seat)),
    A.Foresee: lambda w, a: w.g("Take a random card from each other player"),
    A.TakeFromRichest: lambda w, a: (
        w.g("Take 1 gold from {seat}", seat=w.seat(a.seat))
        if a.seat >= 0
        else w.g("Take 1 gold from the richest player")
    ),
    A.Study: lambda w, a: w.g("Draw 7 cards and keep 1"),
    A.Destroy: _destroy,
    A.ExchangeDistrict: lambda w, a: w.g(
        "Exchange your {give} for the {take} of {seat}",
        give=w.card(a.give),
        take=w.card(a.take),
        seat=w.seat(a.seat),
    ),
    A.Seize: _seize,
    A.Beautify: lambda w, a: w.g("Beautify the {district}", district=w.card(a.district)),
    A.Build: _build,
    A.BuildFree: lambda w, a: w.g(
        "Build the {district} by destroying the {sacrifice}",
        district=w.card(a.district),
        sacrifice=w.card(a.sacrifice),
    ),
    A.BuildWithLoan: lambda w, a: w.g(
        "Build the {district} with gold from {seat}",
        district=w.card(a.district),
        seat=w.seat(a.seat),
    ),
    A.UseLaboratory: lambda w, a: w.g(
        "Discard the {district} for {gold} gold (Laboratory)",
        district=w.card(a.district),
        gold=w.edition.laboratory_gold,
    ),
    A.UseSmithy: lambda w, a: w.g("Pay 2 gold to draw 3 cards (Smithy)"),
    A.UseArmory: lambda w, a: w.g(
        "Destroy the {district} of {seat} with the Armory",
        district=w.card(a.district),
        seat=w.seat(a.seat),
    ),
    A.UseMuseum: lambda w, a: w.g(
        "Tuck the {district} beneath the Museum", district=w.card(a.district)
    ),
    A.EndTurn: lambda w, a: w.g("End your turn"),
}


def describe_action(
    action: Action,
    view: Mapping[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> str:
    """The wording of ``action`` for the seat whose ``view`` it is: ``"Murder the Bishop"``,
    ``"Build the Market (2 gold)"``, with seat names from ``names`` (default ``"Seat N"``)."""
    words = _WORDS.get(type(action))
    if words is None:
        raise TypeError(f"not an action: {action!r}")
    return words(_Words(view, translator(lang), names), action)


# --- parsing -------------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")
_PAREN = re.compile(r"\s*\([^)]*\)\s*$")


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text.strip().casefold()).rstrip(".!")


def _card_fields(action: Action) -> list[str]:
    out = []
    for name in ("character", "district", "give", "take", "signed", "first", "second",
                 "flowered", "other", "sacrifice"):
        value = getattr(action, name, None)
        if isinstance(value, str) and value:
            out.append(value)
    out.extend(getattr(action, "districts", ()) or ())
    return out


def parse_action(
    text: str,
    legal: Sequence[Action],
    view: Mapping[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> Action:
    """The legal action that ``text`` names: its wording (``describe_action``) or any unique
    prefix of it, its wording without the price in brackets, the engine's short text
    (``"build market"``), a card's name or id when one legal action alone names that card, or
    its number in the menu (1-based), all case-insensitive.

    ``ParseError`` says why otherwise: nothing typed, several candidates (it names them), or
    nothing legal matches (it says what is possible now)."""
    tr = translator(lang)
    if not isinstance(text, str):
        raise ParseError(tr.gettext("type an action as text, not {kind}", kind=type(text).__name__))
    wanted = _norm(text)
    legal = list(legal)
    seat = view.get("seat")
    if not legal:
        to_move = view.get("to_move")
        if view.get("phase") == "over":
            raise ParseError(tr.gettext("the game is over: there is nothing to do"))
        if to_move is not None and to_move != seat:
            raise ParseError(
                tr.gettext(
                    "it is not your turn: {who} is to move",
                    who=seat_label(to_move, names, lang),
                )
            )
        raise ParseError(tr.gettext("there is nothing to do now"))
    if not wanted:
        raise ParseError(tr.gettext("type an action, or its number from 1 to {n}", n=len(legal)))
    wordings = [describe_action(a, view, lang, names) for a in legal]
    if wanted.isdigit():
        index = int(wanted)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise ParseError(
            tr.gettext("there is no choice {index}: choose from 1 to {n}", index=index, n=len(legal))
        )
    normed = [_norm(w) for w in wordings]
    for tier in (
        [i for i, w in enumerate(normed) if w == wanted],
        [i for i, w in enumerate(normed) if _norm(_PAREN.sub("", w)) == wanted],
        [i for i, a in enumerate(legal) if _norm(a.text()) == wanted],
    ):
        if len(tier) == 1:
            return legal[tier[0]]
        if len(tier) > 1:
            _ambiguous(tr, text, [legal[i] for i in tier], [wordings[i] for i in tier])
    prefixed = [i for i, w in enumerate(normed) if w.startswith(wanted)]
    prefixed += [
        i for i, a in enumerate(legal) if i not in prefixed and _norm(a.text()).startswith(wanted)
    ]
    if len(prefixed) == 1:
        return legal[prefixed[0]]
    if len(prefixed) > 1:
        _ambiguous(tr, text, [legal[i] for i in prefixed], [wordings[i] for i in prefixed])
    edition = get_edition(str(view.get("edition", "classic")))
    named = [
        i
        for i, a in enumerate(legal)
        if any(
            wanted in (_norm(c), _norm(c.replace("_", " ")), _norm(card_name(edition, c, lang)))
            for c in _card_fields(a)
        )
    ]
    if len(named) == 1:
        return legal[named[0]]
    if len(named) > 1:
        _ambiguous(tr, text, [legal[i] for i in named], [wordings[i] for i in named])
    raise ParseError(_why_not(tr, text, wanted, legal, wordings, view, edition, lang))


def _ambiguous(
    tr: Translator, text: str, candidates: list[Action], wordings: list[str]
) -> None:
    raise ParseError(
        tr.gettext(
            "{text} could mean: {candidates}; type more of it",
            text=repr(text.strip()),
            candidates=tr.gettext("; ").join(wordings),
        ),
        candidates,
    )


def _why_not(
    tr: Translator,
    text: str,
    wanted: str,
    legal: list[Action],
    wordings: list[str],
    view: Mapping[str, Any],
    edition: Edition,
    lang: str,
) -> str:
    """Why nothing legal matches ``text``: a card it names that cannot be used now, or the
    list of what is possible."""
    possible = tr.gettext("possible now: {choices}", choices=tr.gettext("; ").join(wordings))
    seat = view.get("seat")
    players = view.get("players") or []
    me = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else {}
    words = wanted.split(" ")
    for card_id, card in list(edition.districts.items()) + list(edition.characters.items()):
        name = _norm(card_name(edition, card_id, lang))
        if wanted in (name, card_id) or (len(words) > 1 and wanted.endswith(" " + name)):
            if card_id in edition.districts:
                district = edition.districts[card_id]
                if card_id not in me.get("hand", []) and card_id not in me.get("city", []):
                    return tr.gettext(
                        "no legal action uses the {card}: it is not in your hand; {possible}",
                        card=card_name(edition, card_id, lang),
                        possible=possible,
                    )
                if (
                    card_id in me.get("hand", [])
                    and district.cost is not None
                    and district.cost > int(me.get("gold", 0))
                    and wanted.startswith(_norm(tr.gettext("Build")))
                ):
                    return tr.gettext(
                        "you cannot build the {card} now: it costs {cost} gold and you have "
                        "{gold}; {possible}",
                        card=card_name(edition, card_id, lang),
                        cost=district.cost,
                        gold=me.get("gold", 0),
                        possible=possible,
                    )
            return tr.gettext(
                "no legal action uses the {card} now; {possible}",
                card=card_name(edition, card_id, lang),
                possible=possible,
            )
    return tr.gettext(
        "{text} is not a legal action now; {possible}", text=repr(text.strip()), possible=possible
    )
