"""The Dark City bonus purple districts of `classic` (CARDS.md T4).

Active powers are here, one function group per card. Rules that other code reads at one
place: the Factory's price and the Quarry's duplicate (``effects.build_price``,
``effects.may_build_name``), the Throne Room (``effects.take_crown``), the Hospital
(``rules.advance_calls``), the Lighthouse and Bell Tower triggers (``effects.put_in_city``).
The Ball Room is data only (R-32).
"""

from __future__ import annotations

from citadels.engine.actions import Action, AnnounceBellTower, SearchDeck, UseArmory, UseMuseum
from citadels.engine.actions import cached as _cached
from citadels.engine.effects import check_completion, discard_from_city
from citadels.engine.state import GameState, Pending, Turn

# --- Lighthouse: on build, take any card of the deck, then shuffle it ----------------------


def lighthouse_choices(s: GameState) -> list[Action]:
    return [_cached(SearchDeck, d) for d in sorted(set(s.deck))]


def lighthouse_search(s: GameState, pending: Pending, action: SearchDeck) -> None:
    s.deck.remove(action.district)
    s.players[pending.seat].hand.append(action.district)
    s.shuffle(s.deck)
    s.log_event("lighthouse", pending.seat, {}, {"district": action.district}, (pending.seat,))


# --- Bell Tower: on build, the owner may announce that 7 districts complete a city ---------


def bell_tower_choices() -> list[Action]:
    return [_cached(AnnounceBellTower, False), _cached(AnnounceBellTower, True)]


def announce_bell_tower(s: GameState, pending: Pending, action: AnnounceBellTower) -> None:
    """R-14: N becomes 7; everyone already at 7 scores as a first completer."""
    if not action.announce:
        s.log_event("bell_tower", pending.seat, {"announce": False})
        return
    s.bell_tower = pending.seat
    s.complete_at = 7
    s.log_event("bell_tower", pending.seat, {"announce": True, "complete_at": 7})
    already = [p.seat for p in s.players if s.city_size(p.seat) >= 7]
    for seat in already:
        if s.first_complete is None:
            check_completion(s, seat)
        elif seat != s.first_complete and seat not in s.extra_first:
            s.extra_first.append(seat)


# --- Armory and Museum: once-per-own-turn actions (R-11) ----------------------------------


def turn_actions(s: GameState, t: Turn, out: list[Action]) -> None:
    """The Armory's and Museum's actions available to the player on turn (both are in
    ``districts.TURN_POWERS``)."""
    me = s.players[t.seat]
    if "armory" in me.city:
        # another player's city (`2016`: any city), not a completed one; Keep, Bishop,
        # Great Wall ignored.
        own = s.edition.armory_own_city
        for p in s.players:
            if (p.seat == t.seat and not own) or s.is_complete(p.seat):
                continue
            for d in sorted(set(p.city)):
                if p.seat != t.seat or d != "armory":
                    out.append(_cached(UseArmory, p.seat, d))
    if "museum" in me.city and "museum" not in t.used and me.hand:
        for d in sorted(set(me.hand)):
            out.append(_cached(UseMuseum, d))


def use_armory(s: GameState, t: Turn, action: UseArmory) -> None:
    """R-15: the Armory and its target are both discarded; nothing is paid."""
    discard_from_city(s, t.seat, "armory")
    discard_from_city(s, action.seat, action.district)
    t.used += ("armory",)
    s.log_event("armory", t.seat, {"target": action.seat, "district": action.district})


def use_museum(s: GameState, t: Turn, action: UseMuseum) -> None:
    me = s.players[t.seat]
    me.hand.remove(action.district)
    me.museum.append(action.district)
    t.used += ("museum",)
    s.log_event(
        "museum", t.seat, {"tucked": len(me.museum)}, {"district": action.district}, (t.seat,)
    )


# --- Poor House and Park: at the end of the owner's turn (R-21) -----------------------------


def end_of_turn(s: GameState, seat: int) -> None:
    """Poor House: +1 gold with an empty stash. Park: 2 cards with an empty hand (taking them
    is always to the owner's advantage, so it is not asked)."""
    p = s.players[seat]
    if p.gold == 0 and "poor_house" in p.city:
        p.gold = 1
        s.log_event("poor_house", seat, {"gold": 1})
    if not p.hand and s.deck and "park" in p.city:
        drawn = s.draw(2)
        p.hand.extend(drawn)
        s.log_event("park", seat, {"count": len(drawn)}, {"districts": drawn}, (seat,))


# --- end-of-game points (R-20) --------------------------------------------------------------


def end_points(s: GameState, seat: int, purple_count: int) -> int:
    """Imperial Treasury (+1 per gold), Map Room (+1 per card in hand), Wishing Well (+1 per
    other purple district; ``purple_count`` counts the city's purple as scored, R-8) and
    Museum (+1 per tucked card, R-19)."""
    p = s.players[seat]
    city = p.city
    points = 0
    if "imperial_treasury" in city:
        points += p.gold
    if "map_room" in city:
        points += len(p.hand)
    if "wishing_well" in city:
        points += purple_count if s.edition.wishing_well_counts_itself else purple_count - 1
    if "museum" in city:
        points += len(p.museum)
    return points
