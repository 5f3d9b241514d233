"""The eight base characters' powers: one class per character, its whole power in one place.

A power is asked at fixed moments (``on_reveal``, ``on_start``, ``extras``), lists the actions
its power allows (``actions``) and applies them (``apply``). Income for districts of the
character's colour is common to every colour character and lives in ``rules``. The Dark City
characters are in ``bonus_characters``.
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
)
from citadels.engine.actions import Destroy as DestroyAction
from citadels.engine.effects import current_cost, leave_city, take_crown
from citadels.engine.shared import cached_one, cached_pair, distinct_sorted
from citadels.engine.state import GameState, Pending, Turn


class CharacterPower:
    """Hooks a character may fill in. The defaults do nothing."""

    id: ClassVar[str] = ""
    handles: ClassVar[tuple[type[Action], ...]] = ()
    build_limit: ClassVar[int] = 1
    income_in_cards: ClassVar[str] = "none"
    """How colour income is paid: ``"none"`` (gold), ``"all"`` (cards), ``"split"`` (any)."""

    def on_reveal(self, s: GameState, seat: int) -> None:
        """When its holder reveals it alive, even bewitched (the King's crown, R-26)."""

    def on_start(self, s: GameState, t: Turn) -> None:
        """When the turn played as this character starts (by its holder, or by the Witch
        resuming it): the Emperor's crown, the Queen's gold, the Tax Collector's tax."""

    def extras(self, s: GameState, t: Turn) -> None:
        """Extra gold or cards that come with the gather action (or at call in `basic`)."""

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        """Append the power's legal actions (called only while the power is unused)."""

    def build_actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        """Append extra ways to build this character has (the Cardinal's loan)."""

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        """Apply one of the actions in ``handles``."""
        raise NotImplementedError


def targetable_characters(s: GameState, own: str, min_rank: int) -> list[str]:
    """Characters a naming power may name: not its own, rank ≥ ``min_rank``, not face up.

    A face-up character is known to be out of the round, so naming it could only waste the
    power; it is not offered (project decision, see docs/rules.md).
    """
    faceup = s.faceup
    rank = s.cards.rank
    return [c for c in s.characters if c != own and rank[c] >= min_rank and c not in faceup]


class Assassin(CharacterPower):
    """C-20: name a character (never rank 1); its holder misses the whole turn (C-12)."""

    id = "assassin"
    handles = (Murder,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        for c in targetable_characters(s, self.id, s.edition.assassin_min_rank):
            out.append(cached_one(Murder, c))

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
        # never the murdered character, the Witch or the bewitched one.
        excluded = (s.murdered, s.bewitched, "witch")
        for c in targetable_characters(s, self.id, s.edition.thief_min_rank):
            if c not in excluded:
                out.append(cached_one(Rob, c))

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
                out.append(cached_one(ExchangeHands, p.seat))
        hand = s.players[t.seat].hand
        for d in distinct_sorted(hand):
            out.append(cached_one(DiscardCard, d))

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

    def on_reveal(self, s: GameState, seat: int) -> None:
        take_crown(s, seat)


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
        s.log_event("extra_cards", t.seat, {"count": len(drawn)}, {"districts": drawn}, (t.seat,))


def protected_seat(s: GameState) -> int | None:
    """The seat whose city rank-8 powers may not touch: the revealed, living Bishop (C-24,
    R-3); when the Bishop is bewitched, the Witch's city instead (R-3, R-26). A murdered Bishop
    protects nothing, even once revealed (C-24; `dezh` C-12, Hospital R-16)."""
    if s.murdered == "bishop":
        return None
    seat = s.revealed.get("bishop")
    if seat is not None and s.bewitched == "bishop" and s.witch is not None:
        return s.witch
    return seat


def great_wall_surcharge(s: GameState, seat: int, district: str) -> int:
    """R-5, R-6: +1 against a district of a Great Wall's owner, other than the Wall itself."""
    return 1 if district != "great_wall" and "great_wall" in s.players[seat].city else 0


def destroy_cost(s: GameState, seat: int, district: str) -> int:
    """R-5: current cost − 1 (never below 0), +1 behind another district's Great Wall."""
    cost = current_cost(s, seat, district)
    return max(0, cost - 1) + great_wall_surcharge(s, seat, district)


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
        costs = s.cards.cost
        for p in s.players:
            if p.seat == shielded or s.is_complete(p.seat):
                continue
            # In a city without the Artist's gold or a Great Wall, every district costs just
            # that least price, so passing the test below is enough.
            plain = not p.beautified and "great_wall" not in p.city
            # The printed cost − 1 is the least a destruction can cost: a district
            # beyond it is out of reach without working out the rest (nor sorting it).
            reach = [d for d in p.city if d != "keep" and (costs[d] or 0) - 1 <= gold]
            for d in reach if len(reach) < 2 else distinct_sorted(reach):
                if plain or destroy_cost(s, p.seat, d) <= gold:
                    out.append(cached_pair(DestroyAction, p.seat, d))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, DestroyAction)
        t.power_used = True
        price = destroy_cost(s, action.seat, action.district)
        s.players[t.seat].gold -= price
        _, _, tucked = leave_city(s, action.seat, action.district)
        s.to_bottom(tucked)
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


#: Every character power, by character id.
POWERS: dict[str, CharacterPower] = {
    p.id: p
    for p in (Assassin(), Thief(), Magician(), King(), Bishop(), Merchant(), Architect(), Warlord())
}
