"""The purple districts' powers, each readable in one place.

Passive districts are read where their rule applies: the Keep and the Great Wall by the
Warlord (``characters``), the Haunted City, School of Magic, Dragon Gate and University here,
by the scoring and income code.
"""

from __future__ import annotations

from typing import Final

from citadels.cards import PURPLE
from citadels.engine.actions import (
    Action,
    GatherCards,
    GatherGold,
    UseLaboratory,
    UseSmithy,
    cached,
)
from citadels.engine.shared import cached_one, distinct_sorted
from citadels.engine.state import GameState, Turn

# --- gather modifiers: Observatory and Library (R-10) ------------------------------------


_GATHER_GOLD: Final = cached(GatherGold)
_DRAW_2: Final = cached(GatherCards, 2)
_DRAW_3: Final = cached(GatherCards, 3)


def gather_actions(s: GameState, seat: int, out: list[Action]) -> None:
    """The gather choices (C-7): 2 gold, or draw; the Observatory draws 3 (optional in
    `dezh`, T2; the rule in `classic`, T3). Drawing is not offered from an empty deck."""
    out.append(_GATHER_GOLD)
    if not s.deck:
        return
    if "observatory" in s.players[seat].city:
        if s.edition.observatory_optional:
            out.append(_DRAW_2)
        out.append(_DRAW_3)
    else:
        out.append(_DRAW_2)


def keep_count(s: GameState, seat: int, drawn: int) -> int:
    """How many drawn cards the gatherer keeps: 1; the Library keeps 2 (`2016`: all) (R-10)."""
    if "library" not in s.players[seat].city:
        return min(1, drawn)
    return drawn if s.edition.library_keeps_all else min(2, drawn)


# --- once-per-turn districts: Laboratory and Smithy (R-11) -------------------------------

#: The districts with a power their owner may use in his turn (here and in
#: ``bonus_districts``): a city without any has no district action to list.
TURN_POWERS: Final = frozenset({"laboratory", "smithy", "armory", "museum"})
#: ``lacks_turn_powers(city)``: whether no district of ``city`` is one of ``TURN_POWERS``
#: (the bound method, looked up once).
lacks_turn_powers: Final = TURN_POWERS.isdisjoint


def turn_actions(s: GameState, t: Turn, out: list[Action]) -> None:
    """The once-per-own-turn district powers still available to the player on turn."""
    p = s.players[t.seat]
    city = p.city
    if "laboratory" in city and "laboratory" not in t.used and p.hand:
        for d in distinct_sorted(p.hand):
            out.append(cached_one(UseLaboratory, d))
    if "smithy" in city and "smithy" not in t.used and p.gold >= 2 and s.deck:
        out.append(cached(UseSmithy))


def use_laboratory(s: GameState, t: Turn, district: str) -> None:
    """Laboratory: discard a card from hand (to the deck bottom, C-11) for 1 gold."""
    p = s.players[t.seat]
    p.hand.remove(district)
    s.to_bottom([district])
    gold = s.edition.laboratory_gold
    p.gold += gold
    t.used += ("laboratory",)
    s.log_event("laboratory", t.seat, {"gold": gold}, {"district": district}, (t.seat,))


def use_smithy(s: GameState, t: Turn) -> None:
    """Smithy: pay 2 gold, draw 3 cards (fewer if the deck runs short)."""
    p = s.players[t.seat]
    p.gold -= 2
    drawn = s.draw(3)
    p.hand.extend(drawn)
    t.used += ("smithy",)
    s.log_event("smithy", t.seat, {"count": len(drawn)}, {"districts": drawn}, (t.seat,))


# --- scoring: Dragon Gate, University, Haunted City (R-2, R-8) ----------------------------


def bonus_points(s: GameState, seat: int) -> int:
    """Points printed on districts on top of their cost (R-2)."""
    districts = s.edition.districts
    return sum(districts[d].bonus for d in s.players[seat].city)


#: Districts whose type is chosen at final scoring (R-8).
HAUNTED = ("haunted_city", "haunted_quarter")


def scoring_choices(s: GameState, seat: int, final_round: int) -> list[dict[str, int]]:
    """The ways a city can be counted at final scoring: districts per type.

    The Haunted City / Haunted Quarter may count as any one type instead of purple (R-8),
    except in `classic` when built in the final round; counted as another type it stops being
    purple (Wishing Well, Ivory Tower, Capitol). The Monument counts once here (R-22). The
    scorer takes the owner's best choice.
    """
    p = s.players[seat]
    table = s.edition.districts
    types: dict[str, int] = {}
    haunted = False
    for d, built in zip(p.city, p.built_round, strict=True):
        if d in HAUNTED and not (s.edition.haunted_city_final_round and built == final_round):
            haunted = True
        colour = table[d].colour
        types[colour] = types.get(colour, 0) + 1
    if not haunted:
        return [types]
    choices = [types]
    for colour in s.edition.colours:
        if colour != PURPLE:
            alt = dict(types)
            alt[PURPLE] -= 1
            alt[colour] = alt.get(colour, 0) + 1
            choices.append(alt)
    return choices


def income_count(s: GameState, seat: int, colour: str) -> int:
    """Districts paying income to a character of ``colour`` (C-9); the School of Magic
    counts as that colour (R-9), the Haunted City never does (R-8)."""
    colours = s.cards.district_colour
    count = 0
    for d in s.players[seat].city:
        if colours[d] == colour or d == "school_of_magic":
            count += 1
    return count
