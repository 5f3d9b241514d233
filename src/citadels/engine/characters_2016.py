"""The characters new to the 2016 edition, and the 2016 versions of shared ones (T6).

One class per character, its whole power in one place. Characters that play as in `classic`
(Witch, Wizard, Navigator, Alchemist, Diplomat, Queen, Artist) are reused from
``bonus_characters``; rule switches they read are fields of the edition.
"""

from __future__ import annotations

from citadels.cards import FIVE_COLOURS
from citadels.engine.actions import (
    Action,
    BuildWithLoan,
    Foresee,
    GiveCard,
    PlaceWarrants,
    Seize,
    SpyOn,
    Study,
    TakeFromRichest,
    TakeTribute,
    Threaten,
    cached,
)
from citadels.engine.bonus_characters import crown_receivers
from citadels.engine.characters import (
    CharacterPower,
    great_wall_surcharge,
    protected_seat,
    targetable_characters,
)
from citadels.engine.effects import (
    build_price,
    buildable,
    check_completion,
    current_cost,
    move_district,
    take_crown,
)
from citadels.engine.state import EMPEROR_TAKES, GameState, Pending, Turn

# --- rank 1 ----------------------------------------------------------------------------------


class Magistrate(CharacterPower):
    """Rank 1. Puts three face-down warrants on three characters, one signed. On the signed
    character's first paid build of a turn he may reveal it: the district goes into his city
    for free, the builder gets his gold back and has used that build (R-24). The
    confiscation decision is in ``rules.build``; which warrant is signed stays secret."""

    id = "magistrate"
    handles = (PlaceWarrants,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        targets = targetable_characters(s, self.id, 2)
        for signed in targets:
            others = [c for c in targets if c != signed]
            for i, first in enumerate(others):
                for second in others[i + 1 :]:
                    out.append(cached(PlaceWarrants, signed, first, second))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, PlaceWarrants)
        t.power_used = True
        s.warrants = {action.signed: True, action.first: False, action.second: False}
        s.magistrate = t.seat
        marked = sorted(s.warrants, key=s.characters.index)
        s.log_event(
            "warrants", t.seat, {"characters": marked}, {"signed": action.signed}, (t.seat,)
        )


# --- rank 2 ----------------------------------------------------------------------------------


class Blackmailer(CharacterPower):
    """Rank 2. Puts two face-down threats on two characters (not rank 1, the murdered or the
    bewitched one), one flowered. A threatened player gathers, then may pay half his gold
    (rounded down) to drop the threat unseen; if he refuses, the Blackmailer may reveal it and
    a flowered threat takes all his gold. The resolution is in ``rules``."""

    id = "blackmailer"
    handles = (Threaten,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        targets = [
            c for c in targetable_characters(s, self.id, 2) if c not in (s.murdered, s.bewitched)
        ]
        for flowered in targets:
            for other in targets:
                if other != flowered:
                    out.append(cached(Threaten, flowered, other))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Threaten)
        t.power_used = True
        s.threats = {action.flowered: True, action.other: False}
        s.blackmailer = t.seat
        marked = sorted(s.threats, key=s.characters.index)
        s.log_event(
            "threats", t.seat, {"characters": marked}, {"flowered": action.flowered}, (t.seat,)
        )


class Spy(CharacterPower):
    """Rank 2. Names another player and a district type, looks at his hand, and for each card
    of that type takes 1 of his gold (while he has any) and draws 1 card."""

    id = "spy"
    handles = (SpyOn,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        for p in s.players:
            if p.seat != t.seat:
                for colour in sorted(FIVE_COLOURS):
                    out.append(cached(SpyOn, p.seat, colour))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, SpyOn)
        t.power_used = True
        me, victim = s.players[t.seat], s.players[action.seat]
        table = s.edition.districts
        matches = sum(1 for d in victim.hand if table[d].colour == action.colour)
        gold = min(matches, victim.gold)
        victim.gold -= gold
        me.gold += gold
        drawn = s.draw(matches)
        me.hand.extend(drawn)
        s.log_event(
            "spy",
            t.seat,
            {"target": action.seat, "colour": action.colour, "matches": matches, "gold": gold},
            {"hand": sorted(victim.hand), "drawn": drawn},
            (t.seat,),
        )


# --- rank 3 ----------------------------------------------------------------------------------


class Seer(CharacterPower):
    """Rank 3. Takes 1 random card from each other player who has cards, then gives each of
    them 1 card of his choice. Building limit 2."""

    id = "seer"
    handles = (Foresee,)
    build_limit = 2

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        if any(p.hand for p in s.players if p.seat != t.seat):
            out.append(cached(Foresee))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        t.power_used = True
        n = len(s.players)
        me = s.players[t.seat]
        victims = []
        for i in range(1, n):
            p = s.players[(t.seat + i) % n]
            if p.hand:
                card = p.hand.pop(s.randbelow(len(p.hand)))
                me.hand.append(card)
                victims.append(p.seat)
                s.log_event(
                    "seer_take", t.seat, {"from": p.seat}, {"district": card}, (t.seat, p.seat)
                )
        s.pending.append(Pending("seer", t.seat, [], seats=victims))


def give_card_choices(s: GameState, pending: Pending) -> list[Action]:
    """Any card of the giver's hand: the Seer's gifts, the Cardinal's payment."""
    return [cached(GiveCard, d) for d in sorted(set(s.players[pending.seat].hand))]


def seer_give(s: GameState, pending: Pending, action: GiveCard) -> None:
    to = pending.seats.pop(0)
    s.players[pending.seat].hand.remove(action.district)
    s.players[to].hand.append(action.district)
    s.log_event(
        "seer_give", pending.seat, {"to": to}, {"district": action.district}, (pending.seat, to)
    )


# --- rank 4 ----------------------------------------------------------------------------------


class Patrician(CharacterPower):
    """Rank 4, yellow, income in cards. Takes the crown like the King (R-27)."""

    id = "patrician"
    income_in_cards = "all"

    def on_reveal(self, s: GameState, seat: int) -> None:
        take_crown(s, seat)


class Emperor2016(CharacterPower):
    """Rank 4, yellow. Must move the crown from its holder to another player (never
    himself) and takes 1 gold or 1 random card from him, his choice. Killed: he moves it at
    round end and takes nothing (R-27). Not with 2 players (N-2)."""

    id = "emperor"

    def on_start(self, s: GameState, t: Turn) -> None:
        if crown_receivers(s, t.seat):
            s.pending.append(Pending("give_crown", t.seat, [], keep=EMPEROR_TAKES))
        else:
            s.log_event("crown_stays", t.seat, {"crown": s.crown})


def tribute_choices_2016(s: GameState, pending: Pending) -> list[Action]:
    receiver = s.players[pending.target]
    out: list[Action] = []
    if receiver.hand:
        out.append(cached(TakeTribute, "card"))
    if receiver.gold > 0:
        out.append(cached(TakeTribute, "gold"))
    return out


def take_tribute(s: GameState, pending: Pending, action: TakeTribute) -> None:
    emperor, receiver = s.players[pending.seat], s.players[pending.target]
    if action.resource == "gold":
        receiver.gold -= 1
        emperor.gold += 1
        s.log_event("tribute", pending.target, {"emperor": pending.seat, "paid": "gold"})
    else:
        card = receiver.hand.pop(s.randbelow(len(receiver.hand)))
        emperor.hand.append(card)
        s.log_event(
            "tribute",
            pending.target,
            {"emperor": pending.seat, "paid": "card"},
            {"district": card},
            (pending.seat, pending.target),
        )


# --- rank 5 ----------------------------------------------------------------------------------


class Abbot2016(CharacterPower):
    """Rank 5, blue: each blue district pays 1 gold or 1 card, split as he declares. If at
    some point of his turn he is not the richest, a richest player (his pick among tied ones)
    gives him 1 gold; nothing while he is tied for richest."""

    id = "abbot"
    handles = (TakeFromRichest,)
    income_in_cards = "split"

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        top = max(p.gold for p in s.players)
        if s.players[t.seat].gold < top:
            for p in s.players:
                if p.gold == top:
                    out.append(cached(TakeFromRichest, p.seat))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, TakeFromRichest)
        t.power_used = True
        s.players[action.seat].gold -= 1
        s.players[t.seat].gold += 1
        s.log_event("take_from_richest", t.seat, {"from": action.seat, "gold": 1})


class Cardinal(CharacterPower):
    """Rank 5, blue, income in cards. To build a district he cannot afford, he takes exactly
    the missing gold from one player (who cannot refuse), gives him 1 card per gold, and must
    then build it."""

    id = "cardinal"
    handles = (BuildWithLoan,)
    income_in_cards = "all"

    def build_actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        me = s.players[t.seat]
        for d in sorted(set(me.hand)):
            price = build_price(s, t.seat, d)
            if price is None or price <= me.gold or not buildable(s, t, d):
                continue
            missing = price - me.gold
            if len(me.hand) - 1 < missing:
                continue
            for p in s.players:
                if p.seat != t.seat and p.gold >= missing:
                    out.append(cached(BuildWithLoan, d, p.seat))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, BuildWithLoan)
        me, lender = s.players[t.seat], s.players[action.seat]
        price = build_price(s, t.seat, action.district)
        assert price is not None
        missing = price - me.gold
        lender.gold -= missing
        me.gold += missing
        me.hand.remove(action.district)
        s.log_event(
            "loan", t.seat, {"from": action.seat, "gold": missing, "district": action.district}
        )
        s.pending.append(Pending("cardinal", t.seat, [action.district], missing, action.seat))


# --- rank 6 and 7 ----------------------------------------------------------------------------


class Trader(CharacterPower):
    """Rank 6, green. Green districts he builds are outside his building limit (R-30; the
    limit is counted in ``rules.build``)."""

    id = "trader"


class Scholar(CharacterPower):
    """Rank 7. Draws 7 cards, keeps 1 and shuffles the other 6 into the deck. Building
    limit 2."""

    id = "scholar"
    handles = (Study,)
    build_limit = 2

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        if s.deck:
            out.append(cached(Study))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        t.power_used = True
        drawn = s.draw(7)
        s.log_event("study", t.seat, {"count": len(drawn)}, {"districts": drawn}, (t.seat,))
        s.pending.append(Pending("scholar", t.seat, drawn, keep=1))


# --- rank 8 ----------------------------------------------------------------------------------


class Marshal(CharacterPower):
    """Rank 8, red. Takes a district of current cost 3 or less from another player's city
    into his own, paying its owner that cost (+1 behind a Great Wall, R-6). Never from a
    completed city or the Bishop's, never the Keep, never a name he has (R-4)."""

    id = "marshal"
    handles = (Seize,)

    def actions(self, s: GameState, t: Turn, out: list[Action]) -> None:
        me = s.players[t.seat]
        shielded = protected_seat(s)
        for p in s.players:
            if p.seat in (t.seat, shielded) or s.is_complete(p.seat):
                continue
            for d in sorted(set(p.city)):
                if d == "keep" or d in me.city:
                    continue
                cost = current_cost(s, p.seat, d)
                if cost <= 3 and cost + great_wall_surcharge(s, p.seat, d) <= me.gold:
                    out.append(cached(Seize, p.seat, d))

    def apply(self, s: GameState, t: Turn, action: Action) -> None:
        assert isinstance(action, Seize)
        t.power_used = True
        price = current_cost(s, action.seat, action.district) + great_wall_surcharge(
            s, action.seat, action.district
        )
        s.players[t.seat].gold -= price
        s.players[action.seat].gold += price
        was_complete = s.is_complete(t.seat)
        move_district(s, action.seat, action.district, t.seat)
        s.log_event(
            "seize", t.seat, {"target": action.seat, "district": action.district, "paid": price}
        )
        check_completion(s, t.seat, was_complete)


# --- rank 9 ----------------------------------------------------------------------------------


class TaxCollector2016(CharacterPower):
    """Rank 9. Whenever the character set holds him, every build by another character puts 1
    of the builder's gold (if any) on his token (``effects.pay_tax_2016``); in his turn he
    takes all of it (R-25). The token carries over between rounds."""

    id = "tax_collector"

    def on_start(self, s: GameState, t: Turn) -> None:
        gold = s.tax_token
        if gold:
            s.tax_token = 0
            s.players[t.seat].gold += gold
            s.log_event("tax_token", t.seat, {"gold": gold})


#: The 2016 powers that differ from or add to the `classic` ones, by id.
POWERS_2016: dict[str, CharacterPower] = {
    p.id: p
    for p in (
        Magistrate(),
        Blackmailer(),
        Spy(),
        Seer(),
        Patrician(),
        Emperor2016(),
        Abbot2016(),
        Cardinal(),
        Trader(),
        Scholar(),
        Marshal(),
        TaxCollector2016(),
    )
}
