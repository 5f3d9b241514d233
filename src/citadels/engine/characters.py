"""The characters' powers: one class per character, its whole power in one place.

A power is asked at fixed moments of the turn (``on_reveal``, ``extras``), lists the actions
its power allows (``actions``) and applies them (``apply``). Income for districts of the
character's colour is common to every colour character and lives in ``rules``.
"""

from __future__ import annotations

from typing import ClassVar

from citadels.editions import AFTER_GATHER, END_OF_TURN
from citadels.engine.actions import (
    Action,
    DiscardCard,
    ExchangeHands,
    Murder,
    Rob,
    cached,
)
from citadels.engine.actions import Destroy as DestroyAction
from citadels.engine.state import GameState, Pending, Turn


class CharacterPower:
    """Hooks a character may fill in. The defaults do nothing."""

    id: ClassVar[str] = ""
    handles: ClassVar[tuple[type[Action], ...]] = ()
    build_limit: ClassVar[int] = 1

    def on_reveal(self, s: GameState, t: Turn) -> None:
        """When the character is revealed alive, before anything else of the turn."""

    def extras(self, s: GameState, t: Turn) -> None:
        """Extra gold or cards that come with the gather action (or at call in `basic`)."""

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        """Append the power's legal actions (called only while the power is unused)."""

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        """Apply one of the actions in ``handles``."""
        raise NotImplementedError


def targetable_characters(s: GameState, own: str, min_rank: int) -> list[str]:
    """Characters a naming power may name: not its own, rank ≥ ``min_rank``, not face up.

    A face-up character is known to be out of the round, so naming it could only waste the
    power; it is not offered (project decision, see docs/rules.md).
    """
    faceup = s.faceup
    edition = s.edition
    return [
        c
        for c in s.characters
        if c != own and edition.characters[c].rank >= min_rank and c not in faceup
    ]


class Assassin(CharacterPower):
    """C-20: name a character (never rank 1); its holder misses the whole turn (C-12)."""

    id = "assassin"
    handles = (Murder,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        for c in targetable_characters(s, self.id, s.edition.assassin_min_rank):
            out.append(cached(Murder, c))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Murder)
        s.murdered = action.character
        t.power_used = True
        s.log_event("murder", t.seat, {"character": action.character})


class Thief(CharacterPower):
    """C-21, R-29: name a character (not rank 1, not the murdered one); when it is revealed
    alive, all its holder's gold passes to the Thief's holder, before income."""

    id = "thief"
    handles = (Rob,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        murdered = s.murdered
        for c in targetable_characters(s, self.id, s.edition.thief_min_rank):
            if c != murdered:
                out.append(cached(Rob, c))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Rob)
        s.robbed = action.character
        s.robber = t.seat
        t.power_used = True
        s.log_event("rob", t.seat, {"character": action.character})


class Magician(CharacterPower):
    """C-22: exchange the whole hand with another player, or discard any number of cards to
    the bottom of the deck and draw as many (one ``DiscardCard`` at a time, then
    ``DrawReplacements``)."""

    id = "magician"
    handles = (ExchangeHands, DiscardCard)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        for p in s.players:
            if p.seat != t.seat:
                out.append(cached(ExchangeHands, p.seat))
        hand = s.players[t.seat].hand
        for d in sorted(set(hand)):
            out.append(cached(DiscardCard, d))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        t.power_used = True
        me = s.players[t.seat]
        if isinstance(action, ExchangeHands):
            other = s.players[action.seat]
            me.hand, other.hand = other.hand, me.hand
            s.log_event(
                "exchange_hands",
                t.seat,
                {"with": other.seat, "gave": len(other.hand), "got": len(me.hand)},
            )
            return
        assert isinstance(action, DiscardCard)
        me.hand.remove(action.district)
        s.pending.append(Pending("redraw", t.seat, [action.district]))


class King(CharacterPower):
    """C-23: takes the crown as soon as he is revealed (murdered: at round end, as heir)."""

    id = "king"

    def on_reveal(self, s: GameState, t: Turn) -> None:
        take_crown(s, t.seat)


class Bishop(CharacterPower):
    """C-24: while revealed alive, the rank-8 character cannot destroy his districts
    (checked by the Warlord's target list)."""

    id = "bishop"


class Merchant(CharacterPower):
    """C-25: 1 extra gold, whatever was gathered."""

    id = "merchant"

    def extras(self, s: GameState, t: Turn) -> None:
        s.players[t.seat].gold += 1
        s.log_event("extra_gold", t.seat, {"gold": 1, "character": self.id})


class Architect(CharacterPower):
    """C-26: 2 extra cards (no choice); may build up to 3 districts."""

    id = "architect"
    build_limit = 3

    def extras(self, s: GameState, t: Turn) -> None:
        drawn = s.draw(2)
        s.players[t.seat].hand.extend(drawn)
        s.log_event(
            "extra_cards", t.seat, {"count": len(drawn)}, {"districts": drawn}, (t.seat,)
        )


def protected_seat(s: GameState) -> int | None:
    """The seat whose city rank-8 powers may not touch: the revealed, living Bishop (C-24)."""
    return s.revealed.get("bishop")


def destroy_cost(s: GameState, seat: int, district: str) -> int:
    """R-5: current cost − 1 (never below 0), +1 behind another district's Great Wall."""
    city = s.players[seat].city
    cost = s.edition.districts[district].cost or 0
    price = cost - 1 if cost > 0 else 0
    if district != "great_wall" and "great_wall" in city:
        price += 1
    return price


class Warlord(CharacterPower):
    """C-27: may destroy one district for its cost − 1 (R-5), own city included; never in a
    completed city, the Bishop's city (C-24) or a Keep. Timing per edition (B-2, D-7, K-4)."""

    id = "warlord"
    handles = (DestroyAction,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        timing = s.edition.warlord_timing
        if timing in (AFTER_GATHER, END_OF_TURN) and not t.gathered:
            return
        gold = s.players[t.seat].gold
        shielded = protected_seat(s)
        for p in s.players:
            if p.seat == shielded or len(p.city) >= s.complete_at:
                continue
            for d in sorted(set(p.city)):
                if d != "keep" and destroy_cost(s, p.seat, d) <= gold:
                    out.append(cached(DestroyAction, p.seat, d))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, DestroyAction)
        t.power_used = True
        price = destroy_cost(s, action.seat, action.district)
        s.players[t.seat].gold -= price
        s.players[action.seat].remove_from_city(action.district)
        s.log_event(
            "destroy", t.seat, {"target": action.seat, "district": action.district, "paid": price}
        )
        if s.edition.warlord_timing == END_OF_TURN:
            t.ending = True
        offer_graveyard(s, t.seat, action.district)


def offer_graveyard(s: GameState, warlord: int, district: str) -> None:
    """R-7: a destroyed district may be bought back into hand by the Graveyard's owner."""
    excludes_warlord = s.edition.graveyard_excludes_warlord
    for p in s.players:
        if "graveyard" in p.city and p.gold >= 1 and not (excludes_warlord and p.seat == warlord):
            s.pending.append(Pending("graveyard", p.seat, [district]))
            return
    s.to_bottom([district])


def take_crown(s: GameState, seat: int) -> None:
    """Move the crown to ``seat`` (nothing happens if it is already there)."""
    if s.crown != seat:
        s.log_event("crown", seat, {"from": s.crown})
        s.crown = seat


#: Every character power, by character id.
POWERS: dict[str, CharacterPower] = {
    p.id: p
    for p in (Assassin(), Thief(), Magician(), King(), Bishop(), Merchant(), Architect(), Warlord())
}
