"""Log events rendered as sentences, per viewer and per language.

An event is one entry of ``Game.view(seat)["log"]``: its ``kind``, ``seat`` and data. The secret
fields (the cards drawn, the character picked, …) are in it only when the view's seat may see
them, so a sentence names a card only if the event data given to it names that card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from citadels.editions import Edition
from citadels.present.i18n import N_, NP_, Translator, translator
from citadels.present.labels import card_name, colour_label, get_edition, seat_label


class _Ctx:
    """What one rendering needs: the translator, the edition and the seat names."""

    def __init__(self, edition: Edition, tr: Translator, names: Sequence[str] | None) -> None:
        self.edition = edition
        self.tr = tr
        self.names = names

    def g(self, message: str, **fields: Any) -> str:
        """``message`` translated, in the edition's context first (its rulebook's names)."""
        return self.tr.pgettext(self.edition.id, message, **fields)

    def n(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """A plural pair translated for ``n``, in the edition's context first."""
        return self.tr.npgettext(self.edition.id, singular, plural, n, **fields)

    def seat(self, seat: Any) -> str:
        return seat_label(seat if isinstance(seat, int) else None, self.names, self.tr.lang)

    def card(self, card_id: Any) -> str:
        return card_name(self.edition, str(card_id), self.tr.lang)

    def cards(self, ids: Iterable[Any]) -> str:
        return self.listing([self.card(i) for i in ids])

    def listing(self, names: list[str]) -> str:
        """Names as a list inside a sentence: ``A, B, C`` in English; the last joined as the
        language joins it (Persian «الف، ب و پ», Russian «А, Б и В»); ``nothing`` when empty."""
        if not names:
            return self.g("nothing")
        if len(names) == 1:
            return names[0]
        last = self.tr.pgettext("before the last item of a list", ", ")
        return self.g(", ").join(names[:-1]) + last + names[-1]

    def characters(self, ids: Iterable[Any]) -> str:
        """A list of characters, each written as the language writes one name inside a
        sentence (Russian quotes each: «Аббат», «Сборщик налогов»)."""
        names = [self.tr.pgettext("name in a list", "{name}", name=self.card(i)) for i in ids]
        return self.listing(names)

    def colour(self, colour: Any) -> str:
        try:
            return colour_label(str(colour), self.tr.lang, self.edition).word
        except ValueError:
            return str(colour)


_Render = Callable[[_Ctx, Any, Mapping[str, Any]], str]


def _deal(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if "districts" in d:
        return c.g(
            "{who} is dealt {count} cards and {gold} gold: {cards}.",
            who=c.seat(s),
            count=d.get("count", 4),
            gold=d.get("gold", 2),
            cards=c.cards(d["districts"]),
        )
    return c.g(
        "{who} is dealt {count} cards and {gold} gold.",
        who=c.seat(s),
        count=d.get("count", 4),
        gold=d.get("gold", 2),
    )


def _round(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("faceup"):
        return c.g(
            "Round {round} begins; face up: {cards}.", round=d["round"], cards=c.cards(d["faceup"])
        )
    return c.g("Round {round} begins.", round=d["round"])


def _with_secret(plain: str, secret: str, key: str, other: str = "") -> _Render:
    """A sentence with a secret card under ``key`` (``{card}``), and one without it; ``other``
    names the field of another seat (``{other}``)."""

    def render(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
        fields = {k: v for k, v in d.items() if k not in ("kind", "seat")}
        fields["who"] = c.seat(s)
        if other:
            fields["other"] = c.seat(d.get(other))
        if key in d:
            fields["card"] = c.card(d[key])
            return c.g(secret, **_safe(fields))
        return c.g(plain, **_safe(fields))

    return render


def _safe(fields: dict[str, Any]) -> dict[str, Any]:
    # Only plain values are passed on as placeholders (lists and dicts are not shown raw).
    return {k: v for k, v in fields.items() if not isinstance(v, (list, dict, tuple))}


def _pick(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if "character" in d:
        return c.g(
            "{who} picks a character: the {character} (offered: {offered}).",
            who=c.seat(s),
            character=c.card(d["character"]),
            offered=c.cards(d.get("offered", [])),
        )
    return c.g("{who} picks a character.", who=c.seat(s))


def _reveal(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    fields = {"who": c.seat(s), "character": c.card(d["character"])}
    if not d.get("murdered"):
        return c.g("{who} is the {character}.", **fields)
    # C-12: in `dezh` the murdered holder shows the card at the call and stops; elsewhere a
    # murdered holder is revealed at the call only as the owner of a Hospital.
    if getattr(c.edition, "murdered_revealed_at_call", c.edition.id == "dezh"):
        return c.g(
            "{who} is the {character}, murdered: the card is turned face up and the turn ends.",
            **fields,
        )
    return c.g("{who} is the {character}, murdered, and gathers thanks to the Hospital.", **fields)


def _exchange_hands(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    # The count given decides the plural ("1 card for 4", "4 cards for 1").
    return c.n(
        "{who} exchanges hands with {other} ({n} card for {got}).",
        "{who} exchanges hands with {other} ({n} cards for {got}).",
        int(d.get("gave") or 0),
        who=c.seat(s),
        other=c.seat(d.get("with")),
        got=d.get("got"),
    )


def _call(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("murdered"):
        return c.g(
            "The murdered {character} is called: no answer.", character=c.card(d["character"])
        )
    return c.g("The {character} is called: nobody answers.", character=c.card(d["character"]))


def _income(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    cards = int(d.get("cards") or 0)
    colour = c.colour(d.get("colour", ""))
    if cards and d.get("gold"):
        return c.n(
            "{who} takes {gold} gold and {n} card for {colour} districts.",
            "{who} takes {gold} gold and {n} cards for {colour} districts.",
            cards,
            who=c.seat(s),
            gold=d["gold"],
            colour=colour,
        )
    if cards:
        return c.n(
            "{who} takes {n} card for {colour} districts.",
            "{who} takes {n} cards for {colour} districts.",
            cards,
            who=c.seat(s),
            colour=colour,
        )
    return c.g(
        "{who} takes {gold} gold for {colour} districts.",
        who=c.seat(s),
        gold=d.get("gold", 0),
        colour=colour,
    )


def _counted_cards(plain: tuple[str, str], secret: tuple[str, str]) -> _Render:
    """``{who} draws {n} card(s)``, naming them (``{cards}``) when the viewer may see them;
    each argument is a (singular, plural) pair."""

    def render(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
        n = int(d.get("count", d.get("kept", len(d.get("districts", [])))))
        if "districts" in d:
            return c.n(*secret, n, who=c.seat(s), cards=c.cards(d["districts"]))
        return c.n(*plain, n, who=c.seat(s))

    return render


def _redraw(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    n = int(d.get("count", 0))
    if "discarded" in d:
        return c.n(
            "{who} discards {n} card and draws as many (out: {out}; in: {into}).",
            "{who} discards {n} cards and draws as many (out: {out}; in: {into}).",
            n,
            who=c.seat(s),
            out=c.cards(d["discarded"]),
            into=c.cards(d.get("drawn", [])),
        )
    return c.n(
        "{who} discards {n} card and draws as many.",
        "{who} discards {n} cards and draws as many.",
        n,
        who=c.seat(s),
    )


def _graveyard(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("take"):
        return c.g(
            "{who} pays 1 gold to take the {district} into hand (Graveyard).",
            who=c.seat(s),
            district=c.card(d["district"]),
        )
    return c.g(
        "{who} lets the {district} go (Graveyard).", who=c.seat(s), district=c.card(d["district"])
    )


def _tax(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("collector") is None:
        return c.g("{who} puts 1 gold on the Tax Collector's token.", who=c.seat(s))
    return c.g(
        "{who} pays 1 gold to the Tax Collector ({collector}).",
        who=c.seat(s),
        collector=c.seat(d["collector"]),
    )


def _threat_revealed(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("flowered"):
        return c.g(
            "The Blackmailer reveals a flowered threat and takes {gold} gold from {target}.",
            gold=d.get("gold", 0),
            target=c.seat(d.get("target")),
        )
    return c.g(
        "The Blackmailer reveals an empty threat against {target}.", target=c.seat(d.get("target"))
    )


def _spy(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    fields = {
        "who": c.seat(s),
        "target": c.seat(d.get("target")),
        "colour": c.colour(d.get("colour", "")),
        "matches": d.get("matches", 0),
        "gold": d.get("gold", 0),
    }
    if "hand" in d:
        return c.g(
            "{who} spies on {target} for {colour}: {matches} matching, {gold} gold taken; "
            "the hand: {cards}.",
            cards=c.cards(d["hand"]),
            **fields,
        )
    return c.g(
        "{who} spies on {target} for {colour}: {matches} matching, {gold} gold taken.", **fields
    )


def _theater(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("with") is None:
        return c.g("{who} keeps the characters (Theater).", who=c.seat(s))
    if "gave" in d:
        return c.g(
            "{who} swaps characters with {other} (Theater): gave the {gave}, got the {got}.",
            who=c.seat(s),
            other=c.seat(d["with"]),
            gave=c.card(d["gave"]),
            got=c.card(d.get("got", "")),
        )
    return c.g(
        "{who} swaps characters with {other} (Theater).", who=c.seat(s), other=c.seat(d["with"])
    )


def _take_card(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    built = bool(d.get("built"))
    fields = {"who": c.seat(s), "other": c.seat(d.get("from"))}
    if "district" in d:
        fields["district"] = c.card(d["district"])
        if built:
            return c.g("{who} takes the {district} from {other} and builds it at once.", **fields)
        return c.g("{who} takes the {district} from {other}.", **fields)
    if built:
        return c.g("{who} takes a card from {other} and builds it at once.", **fields)
    return c.g("{who} takes a card from {other}.", **fields)


def _tribute(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    paid = d.get("paid")
    if paid == "nothing":
        return c.g("{who} gives the Emperor nothing.", who=c.seat(s))
    if paid == "gold":
        return c.g("{who} gives the Emperor 1 gold.", who=c.seat(s))
    if "district" in d:
        return c.g(
            "{who} gives the Emperor a card: the {district}.",
            who=c.seat(s),
            district=c.card(d["district"]),
        )
    return c.g("{who} gives the Emperor a card.", who=c.seat(s))


def _bell_tower(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("announce"):
        return c.g(
            "{who} announces that 7 districts now complete a city (Bell Tower).", who=c.seat(s)
        )
    return c.g("{who} does not announce the Bell Tower.", who=c.seat(s))


def _city_complete(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    if d.get("first"):
        return c.g(
            "{who} completes a city of {n} districts first.", who=c.seat(s), n=d.get("districts")
        )
    return c.g("{who} completes a city of {n} districts.", who=c.seat(s), n=d.get("districts"))


def _crown(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
    return c.g("{who} takes the crown.", who=c.seat(s))


def _simple(msgid: str, **cards: str) -> _Render:
    """A sentence whose placeholders are the event's fields; ``cards`` maps a placeholder to
    the field holding a card id, ``who`` is the event's seat, ``seat:<field>`` a seat field."""

    def render(c: _Ctx, s: Any, d: Mapping[str, Any]) -> str:
        fields: dict[str, Any] = _safe({k: v for k, v in d.items() if k not in ("kind", "seat")})
        fields["who"] = c.seat(s)
        for name, source in cards.items():
            if source.startswith("seat:"):
                fields[name] = c.seat(d.get(source[5:]))
            elif source.startswith("cards:"):
                fields[name] = c.cards(d.get(source[6:], []))
            else:
                fields[name] = c.card(d.get(source, ""))
        return c.g(msgid, **fields)

    return render


# The msgids below are literals so that Babel finds them; each renderer fills them.
_RENDER: dict[str, _Render] = {
    "setup": lambda c, s, d: c.g(
        "A game of {edition} for {players} players begins; {crown} has the crown.",
        edition=c.g(c.edition.title),
        players=d.get("players"),
        crown=c.seat(d.get("crown")),
    ),
    "deal": _deal,
    "round": _round,
    "put_aside": _with_secret(
        N_("{who} puts a character aside face down."),
        N_("{who} puts a character aside face down ({card})."),
        "character",
    ),
    "look_facedown": _with_secret(
        N_("{who} looks at the face-down character."),
        N_("{who} looks at the face-down character: the {card}."),
        "character",
    ),
    "pick": _pick,
    "call": _call,
    "reveal": _reveal,
    "robbed": _simple(N_("The Thief ({thief}) takes {gold} gold from {who}."), thief="seat:thief"),
    "crown": _crown,
    "income": _income,
    "extra_gold": _simple(N_("{who} takes {gold} extra gold.")),
    "extra_cards": _counted_cards(
        NP_("{who} draws {n} extra card.", "{who} draws {n} extra cards."),
        NP_("{who} draws {n} extra card: {cards}.", "{who} draws {n} extra cards: {cards}."),
    ),
    "gather_gold": _simple(N_("{who} takes {gold} gold.")),
    "gather_cards": _counted_cards(
        NP_("{who} draws {n} card.", "{who} draws {n} cards."),
        NP_("{who} draws {n} card: {cards}.", "{who} draws {n} cards: {cards}."),
    ),
    "keep": _counted_cards(
        NP_("{who} keeps {n} card.", "{who} keeps {n} cards."),
        NP_("{who} keeps {n} card: {cards}.", "{who} keeps {n} cards: {cards}."),
    ),
    "build": _simple(N_("{who} builds the {district} for {paid} gold."), district="district"),
    "city_complete": _city_complete,
    "murder": _simple(N_("The Assassin murders the {character}."), character="character"),
    "rob": _simple(N_("The Thief will rob the {character}."), character="character"),
    "exchange_hands": _exchange_hands,
    "redraw": _redraw,
    "destroy": _simple(
        N_("{who} destroys the {district} of {target} for {paid} gold."),
        district="district",
        target="seat:target",
    ),
    "graveyard": _graveyard,
    "laboratory": _with_secret(
        N_("{who} discards a card for {gold} gold (Laboratory)."),
        N_("{who} discards a card for {gold} gold (Laboratory): the {card}."),
        "district",
    ),
    "smithy": _counted_cards(
        NP_(
            "{who} pays 2 gold for {n} card (Smithy).", "{who} pays 2 gold for {n} cards (Smithy)."
        ),
        NP_(
            "{who} pays 2 gold for {n} card (Smithy): {cards}.",
            "{who} pays 2 gold for {n} cards (Smithy): {cards}.",
        ),
    ),
    "end_turn": _simple(N_("{who} ends the turn.")),
    "murdered_revealed": _simple(N_("{who} held the murdered {character}."), character="character"),
    "bewitch": _simple(N_("The Witch bewitches the {character}."), character="character"),
    "witch_resumes": _simple(
        N_("The Witch ({who}) takes over the turn of the {character}."), character="character"
    ),
    "tax": _tax,
    "tax_token": _simple(N_("{who} takes the {gold} gold on the Tax Collector's token.")),
    "warrants": lambda c, s, d: (
        c.g(
            "The Magistrate puts warrants on the {characters}; the signed one is on the {signed}.",
            characters=c.characters(d.get("characters", [])),
            signed=c.card(d["signed"]),
        )
        if "signed" in d
        else c.g(
            "The Magistrate puts warrants on the {characters}.",
            characters=c.characters(d.get("characters", [])),
        )
    ),
    "warrant_passed": _simple(
        N_("The Magistrate lets the build of {builder} stand."), builder="seat:builder"
    ),
    "confiscate": _simple(
        N_(
            "{who} reveals the signed warrant and confiscates the {district} of {builder}, who "
            "gets {refund} gold back."
        ),
        district="district",
        builder="seat:builder",
    ),
    "threats": lambda c, s, d: (
        c.g(
            "The Blackmailer threatens the {characters}; the flowered threat is on the {flowered}.",
            characters=c.characters(d.get("characters", [])),
            flowered=c.card(d["flowered"]),
        )
        if "flowered" in d
        else c.g(
            "The Blackmailer threatens the {characters}.",
            characters=c.characters(d.get("characters", [])),
        )
    ),
    "ransom": _simple(
        N_("{who} pays the Blackmailer ({blackmailer}) {gold} gold."),
        blackmailer="seat:blackmailer",
    ),
    "ransom_refused": _simple(N_("{who} refuses to pay the Blackmailer.")),
    "threat_revealed": _threat_revealed,
    "threat_kept": _simple(N_("The Blackmailer keeps the threat hidden.")),
    "spy": _spy,
    "seer_take": _with_secret(
        N_("{who} takes a random card from {other}."),
        N_("{who} takes a random card from {other}: the {card}."),
        "district",
        "from",
    ),
    "seer_give": _with_secret(
        N_("{who} gives a card to {other}."),
        N_("{who} gives a card to {other}: the {card}."),
        "district",
        "to",
    ),
    "give_card": _with_secret(
        N_("{who} gives a card to {other}."),
        N_("{who} gives a card to {other}: the {card}."),
        "district",
        "to",
    ),
    "loan": _simple(
        N_("{who} takes {gold} gold from {other} to build the {district}."),
        other="seat:from",
        district="district",
    ),
    "study": _counted_cards(
        NP_("{who} draws {n} card to keep one.", "{who} draws {n} cards to keep one."),
        NP_(
            "{who} draws {n} card to keep one: {cards}.",
            "{who} draws {n} cards to keep one: {cards}.",
        ),
    ),
    "seize": _simple(
        N_("{who} seizes the {district} of {target}, paying {paid} gold."),
        district="district",
        target="seat:target",
    ),
    "sacrifice": _simple(
        N_("{who} destroys the {district} to build the {new}."), district="district", new="for"
    ),
    "pay_with_cards": lambda c, s, d: c.n(
        "{who} pays {n} card toward the Thieves' Den.",
        "{who} pays {n} cards toward the Thieves' Den.",
        int(d.get("cards", 0)),
        who=c.seat(s),
    ),
    "theater": _theater,
    "look_at_hand": lambda c, s, d: (
        c.g(
            "{who} looks at the hand of {target}: {cards}.",
            who=c.seat(s),
            target=c.seat(d.get("target")),
            cards=c.cards(d["hand"]),
        )
        if "hand" in d
        else c.g(
            "{who} looks at the hand of {target}.", who=c.seat(s), target=c.seat(d.get("target"))
        )
    ),
    "take_card": _take_card,
    "crown_stays": _simple(N_("The crown cannot move: it stays where it is.")),
    "tribute": _tribute,
    "take_from_richest": _simple(N_("{who} takes 1 gold from {other}."), other="seat:from"),
    "exchange_district": _simple(
        N_("{who} exchanges the {give} for the {take} of {target}, paying {paid} gold."),
        give="give",
        take="take",
        target="seat:target",
    ),
    "queen": _simple(N_("{who} takes {gold} gold beside the rank-4 holder (Queen).")),
    "beautify": _simple(N_("{who} beautifies the {district}."), district="district"),
    "lighthouse": _with_secret(
        N_("{who} takes a card from the deck (Lighthouse)."),
        N_("{who} takes a card from the deck (Lighthouse): the {card}."),
        "district",
    ),
    "bell_tower": _bell_tower,
    "bell_tower_silenced": _simple(
        N_("The Bell Tower leaves the city of {who}: {complete_at} districts complete a city.")
    ),
    "armory": _simple(
        N_("{who} sacrifices the Armory to destroy the {district} of {target}."),
        district="district",
        target="seat:target",
    ),
    "museum": _with_secret(
        N_("{who} tucks a card beneath the Museum."),
        N_("{who} tucks a card beneath the Museum: the {card}."),
        "district",
    ),
    "poor_house": _simple(N_("{who} takes {gold} gold (Poor House).")),
    "park": _counted_cards(
        NP_("{who} draws {n} card (Park).", "{who} draws {n} cards (Park)."),
        NP_("{who} draws {n} card (Park): {cards}.", "{who} draws {n} cards (Park): {cards}."),
    ),
    "alchemist": _simple(N_("{who} gets back {gold} gold (Alchemist).")),
    "throne_room": _simple(N_("{who} takes {gold} gold (Throne Room).")),
    "round_end": _simple(N_("Round {round} ends.")),
    "game_over": _simple(N_("The game ends after round {round}.")),
}

#: The event kinds this layer renders (a test checks it is every kind the engine logs).
RENDERED_KINDS = frozenset(_RENDER)


def render_event(
    edition: Edition | str,
    event: Mapping[str, Any],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> str:
    """One log event (an entry of ``Game.view(seat)["log"]``) as a sentence in ``lang``.

    It names only what the event data holds: a viewer's own secret fields are in his view's
    events and nobody else's. An unknown kind is shown as the kind itself."""
    ed = get_edition(edition)
    ctx = _Ctx(ed, translator(lang), names)
    kind = str(event.get("kind", ""))
    render = _RENDER.get(kind)
    if render is None:
        return kind
    return render(ctx, event.get("seat"), event)


def render_log(
    edition: Edition | str,
    events: Iterable[Mapping[str, Any]],
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> list[str]:
    """Every event of a view's log as a sentence (see :func:`render_event`)."""
    ed = get_edition(edition)
    return [render_event(ed, e, lang, names) for e in events]
