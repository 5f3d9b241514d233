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
from citadels.present.i18n import Translator, translator, without_bidi_controls
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
        self.names = names
        self.edition: Edition = get_edition(str(view.get("edition", "classic")))

    def g(self, message: str, **fields: Any) -> str:
        """``message`` translated, in the edition's context first (its rulebook's names)."""
        return self.tr.pgettext(self.edition.id, message, **fields)

    def card(self, card_id: str) -> str:
        return card_name(self.edition, card_id, self.tr.lang)

    def seat(self, seat: int) -> str:
        return seat_label(seat, self.names, self.tr.lang)

    def me(self) -> Mapping[str, Any]:
        seat = self.view.get("seat")
        return self.player(seat) if isinstance(seat, int) else {}

    def player(self, seat: int) -> Mapping[str, Any]:
        players = self.view.get("players") or []
        if 0 <= seat < len(players) and isinstance(players[seat], Mapping):
            found: Mapping[str, Any] = players[seat]
            return found
        return {}

    def build_price(self, district: str) -> int | None:
        card = self.edition.districts.get(district)
        if card is None or card.cost is None:
            return None
        price = card.cost
        if (
            card.colour == "purple"
            and district != "factory"
            and "factory" in self.me().get("city", [])
        ):
            price = max(0, price - 1)
        return price

    def current_cost(self, seat: int, district: str) -> int:
        card = self.edition.districts.get(district)
        cost = card.cost if card is not None and card.cost is not None else 0
        return cost + (1 if district in self.player(seat).get("beautified", []) else 0)

    def wall(self, seat: int, district: str) -> int:
        return (
            1
            if district != "great_wall" and "great_wall" in self.player(seat).get("city", [])
            else 0
        )

    def pending_target(self) -> int | None:
        """The other seat of the open decision (the lender, the new crown holder), if any."""
        target = (self.view.get("pending") or {}).get("target")
        return target if isinstance(target, int) and target >= 0 else None

    def hand_size(self, seat: int) -> int | None:
        size = self.player(seat).get("hand_size")
        return size if isinstance(size, int) else None

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
    return w.g("Keep {cards} and {last}", cards=w.g(", ").join(names[:-1]), last=names[-1])


def _graveyard(w: _Words, a: A.UseGraveyard) -> str:
    card = w.pending_card()
    if a.take:
        if card:
            return w.g(
                "Pay 1 gold to take the {district} into your hand (Graveyard)",
                district=w.card(card),
            )
        return w.g("Pay 1 gold to take the destroyed district into your hand (Graveyard)")
    if card:
        return w.g("Let the {district} go (Graveyard)", district=w.card(card))
    return w.g("Let the destroyed district go (Graveyard)")


def _confiscate(w: _Words, a: A.Confiscate) -> str:
    card = w.pending_card()
    if a.take:
        if card:
            return w.g(
                "Reveal the signed warrant and confiscate the {district}", district=w.card(card)
            )
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
    character = (w.view.get("turn") or {}).get("character")
    card = w.edition.characters.get(character) if isinstance(character, str) else None
    if card is None or card.colour is None:
        if a.cards:
            return w.tr.ngettext(
                "Take income, {n} of it as a card", "Take income, {n} of it as cards", a.cards
            )
        return w.g("Take income")
    colour = colour_label(card.colour, w.tr.lang, w.edition).word
    if a.cards:
        return w.tr.ngettext(
            "Take income for your {colour} districts, {n} of it as a card",
            "Take income for your {colour} districts, {n} of it as cards",
            a.cards,
            colour=colour,
        )
    return w.g("Take income for your {colour} districts", colour=colour)


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


def _take_tribute(w: _Words, a: A.TakeTribute) -> str:
    holder = w.pending_target()
    if holder is None:
        crown = w.view.get("crown")
        holder = crown if isinstance(crown, int) else None
    if holder is None:
        if a.resource == "gold":
            return w.g("Take 1 gold from the new crown holder")
        return w.g("Take a random card from the new crown holder")
    if a.resource == "gold":
        return w.g("Take 1 gold from {seat}", seat=w.seat(holder))
    return w.g("Take a random card from {seat}", seat=w.seat(holder))


def _give_card(w: _Words, a: A.GiveCard) -> str:
    pending = w.view.get("pending") or {}
    lender = w.pending_target()
    if pending.get("kind") == "cardinal" and lender is not None:
        return w.g(
            "Give the {district} to {seat}", district=w.card(a.district), seat=w.seat(lender)
        )
    return w.g("Give the {district}", district=w.card(a.district))


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
    A.TakeTribute: _take_tribute,
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
        w.g(
            "Pay the Blackmailer half your gold ({gold} gold)", gold=int(w.me().get("gold", 0)) // 2
        )
        if a.pay
        else w.g("Refuse to pay the Blackmailer")
    ),
    A.RevealThreat: lambda w, a: (
        w.g("Reveal the threat") if a.reveal else w.g("Keep the threat hidden")
    ),
    A.GiveCard: _give_card,
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
        colour=colour_label(a.colour, w.tr.lang, w.edition).word,
    ),
    A.ExchangeHands: lambda w, a: w.tr.ngettext(
        "Exchange hands with {seat} ({n} card)",
        "Exchange hands with {seat} ({n} cards)",
        w.hand_size(a.seat) or 0,
        seat=w.seat(a.seat),
    ),
    A.DiscardCard: lambda w, a: w.g(
        "Discard the {district} to draw again", district=w.card(a.district)
    ),
    A.DrawReplacements: lambda w, a: w.g("Stop discarding and draw as many"),
    A.LookAtHand: lambda w, a: w.tr.ngettext(
        "Look at the hand of {seat} ({n} card)",
        "Look at the hand of {seat} ({n} cards)",
        w.hand_size(a.seat) or 0,
        seat=w.seat(a.seat),
    ),
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
    return _SPACES.sub(" ", without_bidi_controls(text).strip().casefold()).rstrip(".!")


def _card_fields(action: Action) -> list[str]:
    out = []
    for name in (
        "character",
        "district",
        "give",
        "take",
        "signed",
        "first",
        "second",
        "flowered",
        "other",
        "sacrifice",
    ):
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

    ``ParseError`` says why otherwise: nothing typed, several candidates (it names them and
    carries them in ``candidates``), or nothing legal matches (it says why the action meant is
    not possible now when it can tell, and what is possible)."""
    tr = translator(lang)
    if not isinstance(text, str):
        raise ParseError(tr.gettext("type an action as text, not {kind}", kind=type(text).__name__))
    wanted = _norm(text)
    legal = list(legal)
    if not legal:
        raise ParseError(_nothing_to_do(tr, view, names, lang))
    if not wanted:
        raise ParseError(tr.gettext("type an action, or its number from 1 to {n}", n=len(legal)))
    if wanted.isdigit():
        index = int(wanted)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise ParseError(
            tr.gettext(
                "there is no choice {index}: choose from 1 to {n}", index=index, n=len(legal)
            )
        )
    wordings = [describe_action(a, view, lang, names) for a in legal]
    found = _match(wanted, legal, wordings, view, lang, names)
    if len(found) == 1:
        return legal[found[0]]
    if found:
        raise ParseError(
            tr.gettext(
                "{text} could mean: {candidates}; type more of it",
                text=repr(text.strip()),
                candidates=tr.gettext("; ").join(wordings[i] for i in found),
            ),
            [legal[i] for i in found],
        )
    raise ParseError(_why_not(tr, text, wanted, wordings, view, lang, names))


def _match(
    wanted: str,
    actions: Sequence[Action],
    wordings: Sequence[str],
    view: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None = None,
) -> list[int]:
    """Indexes of the actions ``wanted`` names, by the first rule that matches any."""
    normed = [_norm(w) for w in wordings]
    short = [_norm(a.text()) for a in actions]
    bare = [_norm(_PAREN.sub("", w)) for w in wordings]
    rules: list[Callable[[int], bool]] = [
        lambda i: normed[i] == wanted,
        lambda i: bare[i] == wanted,
        lambda i: short[i] == wanted,
        lambda i: normed[i].startswith(wanted) or short[i].startswith(wanted),
    ]
    for rule in rules:
        found = [i for i in range(len(actions)) if rule(i)]
        if found:
            return found
    edition = get_edition(str(view.get("edition", "classic")))

    def card_keys(action: Action) -> list[str]:
        keys = []
        for c in _card_fields(action):
            keys += [_norm(c), _norm(c.replace("_", " ")), _norm(card_name(edition, c, lang))]
        return keys

    keys = [card_keys(a) for a in actions]
    found = [i for i in range(len(actions)) if wanted in keys[i]]
    if not found:
        found = [i for i in range(len(actions)) if any(k.startswith(wanted) for k in keys[i])]
    if not found:
        found = [i for i in range(len(actions)) if _words_prefix(wanted, normed[i])]
    if not found and lang != "en":
        # The documented English verbs with the cards' names in the game's language
        # ("build کاخ", "destroy عمارت boris"): the English wording, each card's English
        # name followed by its name in the language.
        english = [
            _with_local_cards(a, _norm(describe_action(a, view, "en", names)), edition, lang)
            for a in actions
        ]
        found = [i for i in range(len(actions)) if _words_prefix(wanted, english[i])]
    return found


def _with_local_cards(action: Action, wording: str, edition: Edition, lang: str) -> str:
    """``wording`` (normalized English) with each card name of ``action`` followed by its
    name in ``lang``."""
    for c in _card_fields(action):
        english = _norm(card_name(edition, c, "en"))
        wording = wording.replace(english, f"{english} {_norm(card_name(edition, c, lang))}", 1)
    return wording


def _words_prefix(wanted: str, wording: str) -> bool:
    """Whether each typed word starts a word of ``wording``, in order (``"bui mar"`` is
    ``"build the market (2 gold)"``)."""
    words = re.findall(r"[^\s()]+", wording)
    i = 0
    for typed in wanted.split(" "):
        while i < len(words) and not words[i].startswith(typed):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def _nothing_to_do(
    tr: Translator, view: Mapping[str, Any], names: Sequence[str] | None, lang: str
) -> str:
    to_move = view.get("to_move")
    if view.get("phase") == "over":
        return tr.gettext("the game is over: there is nothing to do")
    if isinstance(to_move, int) and to_move != view.get("seat"):
        return tr.gettext(
            "it is not your turn: {who} is to move", who=seat_label(to_move, names, lang)
        )
    return tr.gettext("there is nothing to do now")


def _hypothetical(view: Mapping[str, Any]) -> list[Action]:
    """Actions a player might mean at some point of a game, built from the view: used only to
    explain why what he typed is not legal now."""
    edition = get_edition(str(view.get("edition", "classic")))
    seat = view.get("seat")
    players = view.get("players") or []
    me = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else {}
    hand = list(me.get("hand", []))
    out: list[Action] = [A.GatherGold(), A.GatherCards(2), A.TakeIncome(), A.EndTurn()]
    for c in edition.characters:
        out += [A.PickCharacter(c), A.Murder(c), A.Rob(c), A.Bewitch(c)]
    for d in hand:
        out += [A.Build(d), A.DiscardCard(d), A.UseLaboratory(d), A.UseMuseum(d)]
    for p in players:
        other = p.get("seat")
        if isinstance(other, int) and other != seat:
            out += [A.ExchangeHands(other), A.LookAtHand(other), A.GiveCrown(other)]
            out += [A.Destroy(other, d) for d in p.get("city", [])]
    out += [A.Destroy(seat, d) for d in me.get("city", []) if isinstance(seat, int)]
    out += [A.UseSmithy(), A.DrawReplacements(), A.Foresee(), A.Study()]
    return out


def _why_not(
    tr: Translator,
    text: str,
    wanted: str,
    wordings: Sequence[str],
    view: Mapping[str, Any],
    lang: str,
    names: Sequence[str] | None,
) -> str:
    """Why nothing legal matches ``text``: the reason the action it means is not possible now
    when the view shows one, and always what is possible."""
    possible = tr.gettext("possible now: {choices}", choices=tr.gettext("; ").join(wordings))
    others = _hypothetical(view)
    other_words = [describe_action(a, view, lang, names) for a in others]
    found = _match(wanted, others, other_words, view, lang, names)
    if not found:
        return tr.gettext(
            "{text} is not an action; {possible}", text=repr(text.strip()), possible=possible
        )
    meant = others[found[0]]
    reason = _reason(tr, meant, view, lang) if len(found) == 1 else None
    what = other_words[found[0]] if len(found) == 1 else repr(text.strip())
    if reason:
        return tr.gettext(
            "{what} is not possible now ({reason}); {possible}",
            what=what,
            reason=reason,
            possible=possible,
        )
    return tr.gettext("{what} is not possible now; {possible}", what=what, possible=possible)


def _reason(tr: Translator, action: Action, view: Mapping[str, Any], lang: str) -> str | None:
    """A reason the view shows for ``action`` not being legal, or ``None``."""
    edition = get_edition(str(view.get("edition", "classic")))
    seat = view.get("seat")
    players = view.get("players") or []
    me = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else {}
    turn = view.get("turn") or {}
    selecting = view.get("phase") == "selection"
    if isinstance(action, A.PickCharacter):
        if not selecting:
            return tr.gettext("characters are chosen at the start of a round")
        offered = (view.get("selection") or {}).get("offered") or []
        if action.character not in offered:
            return tr.gettext(
                "the {card} is not among the characters offered to you",
                card=card_name(edition, action.character, lang),
            )
        return None
    if selecting:
        return tr.gettext("characters are being chosen")
    if turn.get("seat") != seat:
        return tr.gettext("it is not your turn")
    if isinstance(action, A.Build):
        district = edition.districts[action.district]
        if district.cost is None:
            return tr.gettext("the {card} can never be built", card=district.name)
        if action.district in me.get("city", []):
            return tr.gettext(
                "your city already has a {card}", card=card_name(edition, action.district, lang)
            )
        if not turn.get("gathered") and not edition.free_order:
            return tr.gettext("gather first: take gold or draw cards")
        limit = turn.get("build_limit")
        if isinstance(limit, int) and turn.get("builds", 0) >= limit:
            return tr.ngettext(
                "you may build only {n} district this turn",
                "you may build only {n} districts this turn",
                limit,
            )
        gold = me.get("gold", 0)
        if isinstance(gold, int) and district.cost > gold:
            return tr.gettext(
                "it costs {cost} gold and you have {gold}", cost=district.cost, gold=gold
            )
        return None
    if isinstance(action, (A.GatherGold, A.GatherCards)) and turn.get("gathered"):
        return tr.gettext("you have already gathered this turn")
    if isinstance(action, A.TakeIncome):
        if turn.get("income_taken"):
            return tr.gettext("you have already taken your income this turn")
        character = edition.characters.get(str(turn.get("character")))
        if character is not None and character.colour is None:
            return tr.gettext(
                "the {card} has no income", card=card_name(edition, character.id, lang)
            )
        if edition.automatic_income:
            return tr.gettext("in this edition the income comes by itself when called")
    if isinstance(action, (A.Murder, A.Rob, A.Bewitch)):
        character = turn.get("character")
        needed = {A.Murder: "assassin", A.Rob: "thief", A.Bewitch: "witch"}[type(action)]
        if character != needed:
            return tr.gettext("only the {card} can do that", card=card_name(edition, needed, lang))
        if turn.get("power_used"):
            return tr.gettext("you have already used your power this turn")
    if isinstance(action, A.EndTurn) and not turn.get("gathered"):
        return tr.gettext("gather first: take gold or draw cards")
    return None
