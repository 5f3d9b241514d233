"""Events rendered for one viewer: JSON fields plus a sentence in plain English.

An event's public part is shown to everyone; its secret part only to the seats it names
(C-10). A seat never sees another seat's secret part, and a spectator sees none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from citadels.editions import Edition
from citadels.engine.state import Event


def _card(edition: Edition, card_id: str) -> str:
    if card_id in edition.districts:
        return edition.districts[card_id].name
    if card_id in edition.characters:
        return edition.characters[card_id].name
    return card_id.replace("_", " ").title()


def _cards(edition: Edition, ids: list[str]) -> str:
    return ", ".join(_card(edition, i) for i in ids) if ids else "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_Text = Callable[[Edition, int | None, dict[str, Any], bool], str]


def _who(seat: int | None) -> str:
    return f"Seat {seat}"


def _murdered(edition: Edition, d: dict[str, Any]) -> str:
    """The end of a reveal's sentence: a murdered holder reveals at the call only in `dezh`
    (C-12) or as the owner of a Hospital (R-16)."""
    if not d.get("murdered"):
        return "."
    if edition.murdered_revealed_at_call:
        return ", murdered: the card is turned face up and the turn ends."
    return ", murdered, and gathers thanks to the Hospital."


_TEXTS: dict[str, _Text] = {
    "setup": lambda e, s, d, _: (
        f"A game of {e.title} for {d['players']} players begins; seat {d['crown']} has the crown."
    ),
    "deal": lambda e, s, d, secret: (
        f"{_who(s)} is dealt 4 cards and 2 gold"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "round": lambda e, s, d, _: (
        f"Round {d['round']} begins"
        + (f"; face up: {_cards(e, d['faceup'])}." if d["faceup"] else ".")
    ),
    "put_aside": lambda e, s, d, secret: (
        f"{_who(s)} puts a character aside face down"
        + (f" ({_card(e, d['character'])})." if secret else ".")
    ),
    "look_facedown": lambda e, s, d, secret: (
        f"{_who(s)} looks at the face-down character"
        + (f": the {_card(e, d['character'])}." if secret else ".")
    ),
    "pick": lambda e, s, d, secret: (
        f"{_who(s)} picks a character"
        + (
            f": the {_card(e, d['character'])} (offered: {_cards(e, d['offered'])})."
            if secret
            else "."
        )
    ),
    "call": lambda e, s, d, _: (
        f"The murdered {_card(e, d['character'])} is called: no answer."
        if d.get("murdered")
        else f"The {_card(e, d['character'])} is called: nobody answers."
    ),
    "reveal": lambda e, s, d, _: f"{_who(s)} is the {_card(e, d['character'])}{_murdered(e, d)}",
    "robbed": lambda e, s, d, _: (
        f"The Thief (seat {d['thief']}) takes {_plural(d['gold'], 'gold')} from seat {s}."
    ),
    "crown": lambda e, s, d, _: f"{_who(s)} takes the crown.",
    "income": lambda e, s, d, _: (
        f"{_who(s)} takes {d['gold']} gold"
        + (f" and {_plural(d['cards'], 'card')}" if d.get("cards") else "")
        + f" for {d['colour']} districts."
    ),
    "extra_gold": lambda e, s, d, _: f"{_who(s)} takes {d['gold']} extra gold.",
    "extra_cards": lambda e, s, d, secret: (
        f"{_who(s)} draws {_plural(d['count'], 'extra card')}"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "gather_gold": lambda e, s, d, _: f"{_who(s)} takes 2 gold.",
    "gather_cards": lambda e, s, d, secret: (
        f"{_who(s)} draws {_plural(d['count'], 'card')}"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "keep": lambda e, s, d, secret: (
        f"{_who(s)} keeps {_plural(d['kept'], 'card')}"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "build": lambda e, s, d, _: (
        f"{_who(s)} builds the {_card(e, d['district'])} for {d['paid']} gold."
    ),
    "city_complete": lambda e, s, d, _: (
        f"{_who(s)} completes a city of {d['districts']} districts"
        + (" first." if d.get("first") else ".")
    ),
    "murder": lambda e, s, d, _: f"The Assassin murders the {_card(e, d['character'])}.",
    "rob": lambda e, s, d, _: f"The Thief will rob the {_card(e, d['character'])}.",
    "exchange_hands": lambda e, s, d, _: (
        f"{_who(s)} exchanges hands with seat {d['with']} ({d['gave']} cards for {d['got']})."
    ),
    "redraw": lambda e, s, d, secret: (
        f"{_who(s)} discards {_plural(d['count'], 'card')} and draws as many"
        + (f" (out: {_cards(e, d['discarded'])}; in: {_cards(e, d['drawn'])})." if secret else ".")
    ),
    "destroy": lambda e, s, d, _: (
        f"{_who(s)} destroys the {_card(e, d['district'])} of seat {d['target']} "
        f"for {d['paid']} gold."
    ),
    "graveyard": lambda e, s, d, _: (
        f"{_who(s)} pays 1 gold to take the {_card(e, d['district'])} into hand (Graveyard)."
        if d["take"]
        else f"{_who(s)} lets the {_card(e, d['district'])} go (Graveyard)."
    ),
    "laboratory": lambda e, s, d, secret: (
        f"{_who(s)} discards a card for 1 gold (Laboratory)"
        + (f": {_card(e, d['district'])}." if secret else ".")
    ),
    "smithy": lambda e, s, d, secret: (
        f"{_who(s)} pays 2 gold for {_plural(d['count'], 'card')} (Smithy)"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "end_turn": lambda e, s, d, _: f"{_who(s)} ends the turn.",
    "murdered_revealed": lambda e, s, d, _: (
        f"{_who(s)} held the murdered {_card(e, d['character'])}."
    ),
    "bewitch": lambda e, s, d, _: f"The Witch bewitches the {_card(e, d['character'])}.",
    "witch_resumes": lambda e, s, d, _: (
        f"The Witch (seat {s}) takes over the turn of the {_card(e, d['character'])}."
    ),
    "tax": lambda e, s, d, _: (
        f"{_who(s)} puts 1 gold on the Tax Collector's token."
        if d["collector"] is None
        else f"{_who(s)} pays 1 gold to the Tax Collector (seat {d['collector']})."
    ),
    "tax_token": lambda e, s, d, _: (
        f"{_who(s)} takes the {d['gold']} gold on the Tax Collector's token."
    ),
    "warrants": lambda e, s, d, secret: (
        f"The Magistrate puts warrants on the {_cards(e, d['characters'])}"
        + (f"; the signed one is on the {_card(e, d['signed'])}." if secret else ".")
    ),
    "warrant_passed": lambda e, s, d, _: f"The Magistrate lets seat {d['builder']}'s build stand.",
    "confiscate": lambda e, s, d, _: (
        f"{_who(s)} reveals the signed warrant and confiscates the {_card(e, d['district'])} "
        f"of seat {d['builder']}, who gets {d['refund']} gold back."
    ),
    "threats": lambda e, s, d, secret: (
        f"The Blackmailer threatens the {_cards(e, d['characters'])}"
        + (f"; the flowered threat is on the {_card(e, d['flowered'])}." if secret else ".")
    ),
    "ransom": lambda e, s, d, _: (
        f"{_who(s)} pays the Blackmailer (seat {d['blackmailer']}) {d['gold']} gold."
    ),
    "ransom_refused": lambda e, s, d, _: f"{_who(s)} refuses to pay the Blackmailer.",
    "threat_revealed": lambda e, s, d, _: (
        f"The Blackmailer reveals a flowered threat and takes {d['gold']} gold from seat "
        f"{d['target']}."
        if d["flowered"]
        else f"The Blackmailer reveals an empty threat against seat {d['target']}."
    ),
    "threat_kept": lambda e, s, d, _: "The Blackmailer keeps the threat hidden.",
    "spy": lambda e, s, d, secret: (
        f"{_who(s)} spies on seat {d['target']} for {d['colour']}: {d['matches']} matching, "
        f"{d['gold']} gold taken" + (f"; the hand: {_cards(e, d['hand'])}." if secret else ".")
    ),
    "seer_take": lambda e, s, d, secret: (
        f"{_who(s)} takes a random card from seat {d['from']}"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "seer_give": lambda e, s, d, secret: (
        f"{_who(s)} gives a card to seat {d['to']}"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "give_card": lambda e, s, d, secret: (
        f"{_who(s)} gives a card to seat {d['to']}"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "loan": lambda e, s, d, _: (
        f"{_who(s)} takes {d['gold']} gold from seat {d['from']} to build the "
        f"{_card(e, d['district'])}."
    ),
    "study": lambda e, s, d, secret: (
        f"{_who(s)} draws {_plural(d['count'], 'card')} to keep one"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "seize": lambda e, s, d, _: (
        f"{_who(s)} seizes the {_card(e, d['district'])} of seat {d['target']}, paying "
        f"{d['paid']} gold."
    ),
    "sacrifice": lambda e, s, d, _: (
        f"{_who(s)} destroys the {_card(e, d['district'])} to build the {_card(e, d['for'])}."
    ),
    "pay_with_cards": lambda e, s, d, _: (
        f"{_who(s)} pays {_plural(d['cards'], 'card')} toward the Thieves' Den."
    ),
    "theater": lambda e, s, d, secret: (
        f"{_who(s)} keeps the characters (Theater)."
        if d["with"] is None
        else f"{_who(s)} swaps characters with seat {d['with']} (Theater)"
        + (f": gave the {_card(e, d['gave'])}, got the {_card(e, d['got'])}." if secret else ".")
    ),
    "look_at_hand": lambda e, s, d, secret: (
        f"{_who(s)} looks at the hand of seat {d['target']}"
        + (f": {_cards(e, d['hand'])}." if secret else ".")
    ),
    "take_card": lambda e, s, d, secret: (
        f"{_who(s)} takes "
        + (f"the {_card(e, d['district'])}" if secret else "a card")
        + f" from seat {d['from']}"
        + (" and builds it at once." if d["built"] else ".")
    ),
    "crown_stays": lambda e, s, d, _: "The crown cannot move: it stays where it is.",
    "tribute": lambda e, s, d, secret: (
        f"{_who(s)} gives the Emperor nothing."
        if d["paid"] == "nothing"
        else f"{_who(s)} gives the Emperor 1 gold."
        if d["paid"] == "gold"
        else f"{_who(s)} gives the Emperor a card"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "take_from_richest": lambda e, s, d, _: f"{_who(s)} takes 1 gold from seat {d['from']}.",
    "exchange_district": lambda e, s, d, _: (
        f"{_who(s)} exchanges the {_card(e, d['give'])} for the {_card(e, d['take'])} of "
        f"seat {d['target']}, paying {d['paid']} gold."
    ),
    "queen": lambda e, s, d, _: f"{_who(s)} takes 3 gold beside the rank-4 holder (Queen).",
    "beautify": lambda e, s, d, _: f"{_who(s)} beautifies the {_card(e, d['district'])}.",
    "lighthouse": lambda e, s, d, secret: (
        f"{_who(s)} takes a card from the deck (Lighthouse)"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "bell_tower": lambda e, s, d, _: (
        f"{_who(s)} announces that 7 districts now complete a city (Bell Tower)."
        if d["announce"]
        else f"{_who(s)} does not announce the Bell Tower."
    ),
    "bell_tower_silenced": lambda e, s, d, _: (
        f"The Bell Tower leaves seat {s}'s city: {d['complete_at']} districts complete a city."
    ),
    "armory": lambda e, s, d, _: (
        f"{_who(s)} sacrifices the Armory to destroy the {_card(e, d['district'])} of seat "
        f"{d['target']}."
    ),
    "museum": lambda e, s, d, secret: (
        f"{_who(s)} tucks a card beneath the Museum"
        + (f": the {_card(e, d['district'])}." if secret else ".")
    ),
    "poor_house": lambda e, s, d, _: f"{_who(s)} takes 1 gold (Poor House).",
    "park": lambda e, s, d, secret: (
        f"{_who(s)} draws {_plural(d['count'], 'card')} (Park)"
        + (f": {_cards(e, d['districts'])}." if secret else ".")
    ),
    "alchemist": lambda e, s, d, _: f"{_who(s)} gets back {d['gold']} gold (Alchemist).",
    "throne_room": lambda e, s, d, _: f"{_who(s)} takes 1 gold (Throne Room).",
    "round_end": lambda e, s, d, _: f"Round {d['round']} ends.",
    "game_over": lambda e, s, d, _: f"The game ends after round {d['round']}.",
}


def render(edition: Edition, event: Event, viewer: int | None) -> dict[str, Any]:
    """The event as ``viewer`` may see it: its kind, seat, public data, the secret part if
    the viewer is one of its viewers, and a ``text`` sentence."""
    sees = viewer is not None and viewer in event.viewers
    # Lists are copied: what a client holds must never be the game's own log.
    data = {k: v[:] if type(v) is list else v for k, v in event.data.items()}
    if sees and event.secret:
        for k, v in event.secret.items():
            data[k] = v[:] if type(v) is list else v
    out: dict[str, Any] = {"kind": event.kind, "seat": event.seat, **data}
    text = _TEXTS.get(event.kind)
    out["text"] = text(edition, event.seat, data, sees) if text else event.kind
    return out
