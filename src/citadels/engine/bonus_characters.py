"""The ten Dark City bonus characters of the `classic` edition (K-7, CARDS.md T5b).

One class per character, its whole power in one place. The Witch's resumption of the
bewitched turn is driven by ``rules`` (it is part of the calling order); her naming is here.
"""

from __future__ import annotations

from citadels.editions import ANY_TIME, END_OF_TURN
from citadels.engine.actions import (
    Action,
    Beautify,
    Bewitch,
    ExchangeDistrict,
    GiveCrown,
    LookAtHand,
    NavigatorGain,
    PayTribute,
    TakeCard,
    TakeFromRichest,
    cached,
)
from citadels.engine.characters import (
    CharacterPower,
    great_wall_surcharge,
    protected_seat,
    targetable_characters,
)
from citadels.engine.effects import (
    build_price,
    check_completion,
    current_cost,
    move_district,
    paid_build,
    take_crown,
)
from citadels.engine.state import GameState, Pending, Turn


class Witch(CharacterPower):
    """Rank 1. After gathering she names a character to bewitch and her turn pauses (no
    build). When it is called, its holder only gathers; she then plays the rest of that turn
    as that character, with her own hand, gold and city (R-26). ``rules`` runs the turn."""

    id = "witch"
    handles = (Bewitch,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        if not t.gathered:
            return
        for c in targetable_characters(s, self.id, 2):
            out.append(cached(Bewitch, c))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Bewitch)
        s.bewitched = action.character
        s.witch = t.seat
        t.power_used = True
        t.ending = True
        s.log_event("bewitch", t.seat, {"character": action.character})


class TaxCollector(CharacterPower):
    """Rank 2. From his reveal, any other player who built in a turn pays him 1 gold at that
    turn's end (if he has any); a player who built in an earlier turn this round pays on the
    reveal (R-25). The collection at each turn's end is in ``rules.finish_turn``."""

    id = "tax_collector"

    def on_start(self, s: GameState, t: Turn) -> None:
        s.tax_collector = t.seat
        for seat in s.builders:
            collect_tax(s, seat)


def collect_tax(s: GameState, seat: int) -> None:
    """R-25: 1 gold from ``seat`` to the Tax Collector, if ``seat`` has any and is not he."""
    collector = s.tax_collector
    if collector is None or seat == collector:
        return
    payer = s.players[seat]
    if payer.gold > 0:
        payer.gold -= 1
        s.players[collector].gold += 1
        s.log_event("tax", seat, {"collector": collector, "gold": 1})


class Wizard(CharacterPower):
    """Rank 3. Looks at another player's hand and takes 1 card: keeps it, or pays to build it
    at once, outside his building limit. This turn he may build names he already has (R-30)."""

    id = "wizard"
    handles = (LookAtHand,)

    def on_start(self, s: GameState, t: Turn) -> None:
        t.duplicates = True

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        for p in s.players:
            if p.seat != t.seat and p.hand:
                out.append(cached(LookAtHand, p.seat))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, LookAtHand)
        t.power_used = True
        hand = sorted(s.players[action.seat].hand)
        s.log_event("look_at_hand", t.seat, {"target": action.seat}, {"hand": hand}, (t.seat,))
        s.pending.append(Pending("wizard", t.seat, [], target=action.seat))


def wizard_choices(s: GameState, pending: Pending) -> list[Action]:
    """Every card of the victim's hand, to keep, or to build at once if affordable."""
    wizard = s.players[pending.seat]
    out: list[Action] = []
    for d in sorted(set(s.players[pending.target].hand)):
        out.append(cached(TakeCard, d, False))
        price = build_price(s, pending.seat, d)
        # the Monument's size test applies to the immediate build too.
        small = d != "monument" or len(wizard.city) <= 4
        if price is not None and price <= wizard.gold and small:
            out.append(cached(TakeCard, d, True))
    return out


def wizard_take(s: GameState, pending: Pending, action: TakeCard) -> None:
    victim = s.players[pending.target]
    victim.hand.remove(action.district)
    s.log_event(
        "take_card",
        pending.seat,
        {"from": pending.target, "built": action.build},
        {"district": action.district},
        (pending.seat, pending.target),
    )
    if action.build:
        price = build_price(s, pending.seat, action.district)
        assert price is not None and s.turn is not None
        s.players[pending.seat].gold -= price
        # a build for tax, the Magistrate, the Lighthouse and the Alchemist.
        paid_build(s, s.turn, action.district, price)
    else:
        s.players[pending.seat].hand.append(action.district)


class Emperor(CharacterPower):
    """Rank 4, yellow. When called he must move the crown from its holder to another player,
    never himself; the receiver gives him 1 gold or 1 card of his hand, the receiver's choice,
    or nothing if he has neither. Murdered: the crown stays (R-27)."""

    id = "emperor"

    def on_start(self, s: GameState, t: Turn) -> None:
        if crown_receivers(s, t.seat):
            s.pending.append(Pending("give_crown", t.seat, []))
        else:
            s.log_event("crown_stays", t.seat, {"crown": s.crown})


def crown_receivers(s: GameState, emperor: int) -> list[int]:
    return [p.seat for p in s.players if p.seat not in (emperor, s.crown)]


def give_crown(s: GameState, pending: Pending, action: GiveCrown) -> None:
    take_crown(s, action.seat)
    receiver = s.players[action.seat]
    if receiver.gold > 0 or receiver.hand:
        s.pending.append(Pending("tribute", action.seat, [], target=pending.seat))
    else:
        s.log_event("tribute", action.seat, {"emperor": pending.seat, "paid": "nothing"})


def tribute_choices(s: GameState, pending: Pending) -> list[Action]:
    receiver = s.players[pending.seat]
    out: list[Action] = [cached(PayTribute, "")] if receiver.gold > 0 else []
    out.extend(cached(PayTribute, d) for d in sorted(set(receiver.hand)))
    return out


def pay_tribute(s: GameState, pending: Pending, action: PayTribute) -> None:
    receiver = s.players[pending.seat]
    emperor = s.players[pending.target]
    if action.district:
        receiver.hand.remove(action.district)
        emperor.hand.append(action.district)
        s.log_event(
            "tribute",
            pending.seat,
            {"emperor": pending.target, "paid": "card"},
            {"district": action.district},
            (pending.seat, pending.target),
        )
    else:
        receiver.gold -= 1
        emperor.gold += 1
        s.log_event("tribute", pending.seat, {"emperor": pending.target, "paid": "gold"})


def richest(s: GameState) -> int | None:
    """The seat with strictly the most gold in stash, ``None`` on a tie for the top."""
    top = max(p.gold for p in s.players)
    seats = [p.seat for p in s.players if p.gold == top]
    return seats[0] if len(seats) == 1 else None


class Abbot(CharacterPower):
    """Rank 5, blue. The player with the most gold gives him 1; nothing if the top amount is
    tied or is his own. He chooses when in his turn to claim it."""

    id = "abbot"
    handles = (TakeFromRichest,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        seat = richest(s)
        if seat is not None and seat != t.seat:
            out.append(cached(TakeFromRichest))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        seat = richest(s)
        assert seat is not None
        t.power_used = True
        s.players[seat].gold -= 1
        s.players[t.seat].gold += 1
        s.log_event("take_from_richest", t.seat, {"from": seat, "gold": 1})


class Alchemist(CharacterPower):
    """Rank 6. At the end of his turn the gold he paid to build this turn comes back (not tax
    or other payments); the refund is in ``rules.finish_turn`` (R-21)."""

    id = "alchemist"


class Navigator(CharacterPower):
    """Rank 7. After gathering: 4 extra gold or 4 extra cards, his choice. He cannot build at
    all this turn (R-30)."""

    id = "navigator"
    build_limit = 0

    def extras(self, s: GameState, t: Turn) -> None:
        s.pending.append(Pending("navigator", t.seat, []))


def navigator_gain(s: GameState, pending: Pending, action: NavigatorGain) -> None:
    p = s.players[pending.seat]
    if action.resource == "gold":
        p.gold += 4
        s.log_event("extra_gold", pending.seat, {"gold": 4, "character": "navigator"})
    else:
        drawn = s.draw(4)
        p.hand.extend(drawn)
        s.log_event(
            "extra_cards",
            pending.seat,
            {"count": len(drawn)},
            {"districts": drawn},
            (pending.seat,),
        )


def navigator_choices() -> list[Action]:
    return [cached(NavigatorGain, "cards"), cached(NavigatorGain, "gold")]


class Diplomat(CharacterPower):
    """Rank 8, red. At the end of his turn he may exchange one of his districts for one in
    another player's city, paying that player the difference if the one taken costs more
    (R-6: +1 behind a Great Wall). Never the Keep (he may give his own), the Bishop's city or
    a completed city, and no duplicate name may result in either city (R-4)."""

    id = "diplomat"
    handles = (ExchangeDistrict,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        if s.edition.warlord_timing != ANY_TIME and not t.gathered:
            return
        me = s.players[t.seat]
        if not me.city:
            return
        gold = me.gold
        shielded = protected_seat(s)
        # T7 (2016): no rank-8 ability may target a Keep, so it cannot be given either.
        mine = sorted(d for d in set(me.city) if d != "keep" or not s.edition.keep_blocks_giving)
        found: list[ExchangeDistrict] = []
        for p in s.players:
            if p.seat == t.seat or p.seat == shielded or s.is_complete(p.seat):
                continue
            for take in sorted(set(p.city)):
                if take == "keep":
                    continue
                for give in mine:
                    # no duplicate name may result (a name for itself changes nothing).
                    if give == take or take in me.city or give in p.city:
                        continue
                    if exchange_price(s, t.seat, give, p.seat, take) <= gold:
                        found.append(cached(ExchangeDistrict, give, p.seat, take))
        found.sort(key=lambda a: (a.give, a.seat, a.take))
        out.extend(found)

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, ExchangeDistrict)
        t.power_used = True
        if s.edition.warlord_timing == END_OF_TURN:
            t.ending = True
        price = exchange_price(s, t.seat, action.give, action.seat, action.take)
        me, other = s.players[t.seat], s.players[action.seat]
        me.gold -= price
        other.gold += price
        was_complete = (s.is_complete(t.seat), s.is_complete(action.seat))
        move_district(s, t.seat, action.give, action.seat)
        move_district(s, action.seat, action.take, t.seat)
        s.log_event(
            "exchange_district",
            t.seat,
            {"give": action.give, "target": action.seat, "take": action.take, "paid": price},
        )
        # a Monument (2016) received in exchange may complete a city.
        check_completion(s, t.seat, was_complete[0])
        check_completion(s, action.seat, was_complete[1])


def exchange_price(s: GameState, seat: int, give: str, other: int, take: str) -> int:
    """R-6: max(0, taken − given) in current costs, +1 when taking from a Great Wall's owner
    (not the Wall itself)."""
    diff = current_cost(s, other, take) - current_cost(s, seat, give)
    return max(0, diff) + great_wall_surcharge(s, other, take)


class Queen(CharacterPower):
    """Rank 9, 5+ players. +3 gold if seated next to the holder of the rank-4 character; if
    that character was murdered, when its holder is revealed at round end (R-28)."""

    id = "queen"

    def on_start(self, s: GameState, t: Turn) -> None:
        n = len(s.players)
        for c in s.characters:
            if s.rank(c) != 4 or c not in s.holders:
                continue
            holder = s.holders[c]
            if holder not in ((t.seat + 1) % n, (t.seat - 1) % n) or holder == t.seat:
                continue
            if c == s.murdered:
                s.queen_late = t.seat
            else:
                s.players[t.seat].gold += 3
                s.log_event("queen", t.seat, {"gold": 3, "beside": holder})


class Artist(CharacterPower):
    """Rank 9. Beautifies up to 2 of his districts, 1 gold from his stash on each; a district
    holds only one gold, ever, and counts 1 more for score, destroy and exchange (R-1)."""

    id = "artist"
    handles = (Beautify,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        me = s.players[t.seat]
        if me.gold < 1:
            return
        for d in sorted(set(me.city)):
            if me.beautified.count(d) < me.city.count(d):
                out.append(cached(Beautify, d))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Beautify)
        me = s.players[t.seat]
        me.gold -= 1
        me.beautified.append(action.district)
        t.artist += 1
        t.power_used = t.artist >= 2
        s.log_event("beautify", t.seat, {"district": action.district})


#: The Dark City characters' powers, by id.
BONUS_POWERS: dict[str, CharacterPower] = {
    p.id: p
    for p in (
        Witch(),
        TaxCollector(),
        Wizard(),
        Emperor(),
        Abbot(),
        Alchemist(),
        Navigator(),
        Diplomat(),
        Queen(),
        Artist(),
    )
}
