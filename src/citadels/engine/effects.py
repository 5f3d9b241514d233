"""Effects shared by several cards: the crown, costs, building, districts leaving a city.

Each function applies one rule wherever it is triggered from, so a card module never
re-implements it: the crown's move (C-23, R-17 Throne Room), current cost (R-1), the build
price (C-8, R-13 Factory), duplicate names (C-8, R-12 Quarry, R-30 Wizard), what a build
triggers (C-14, R-18), and what a district takes with it when it leaves a city (R-1, R-14,
R-19).
"""

from __future__ import annotations

from citadels.cards import PURPLE
from citadels.engine.state import GameState, Pending, Turn


def take_crown(s: GameState, seat: int) -> None:
    """Move the crown to ``seat``. A real change of holder pays the Throne Room's owner 1 gold
    (R-17); nothing happens if the crown is already there."""
    if s.crown == seat:
        return
    s.log_event("crown", seat, {"from": s.crown})
    s.crown = seat
    for p in s.players:
        if "throne_room" in p.city:
            p.gold += 1
            s.log_event("throne_room", p.seat, {"gold": 1})


def current_cost(s: GameState, seat: int, district: str) -> int:
    """Printed cost, +1 once beautified by the Artist (R-1). Used for score, destroy cost,
    exchange difference and the tie-break; never for the build price. With two copies of a
    name (Quarry, Wizard) and one beautified, this is the unbeautified copy's cost: it is the
    one that leaves first (``leave_city``); ``scoring.district_costs`` counts every copy."""
    cost = s.cards.cost[district] or 0
    p = s.players[seat]
    if district in p.beautified and p.beautified.count(district) >= p.city.count(district):
        cost += 1
    return cost


def city_costs(s: GameState, seat: int) -> list[int]:
    """The current cost of every district of a city, one entry per card: a beautified copy
    counts 1 more (R-1), the other copies of its name do not."""
    p = s.players[seat]
    table = s.edition.districts
    costs = []
    gilded = list(p.beautified)
    for d in p.city:
        cost = table[d].cost or 0
        if d in gilded:
            gilded.remove(d)
            cost += 1
        costs.append(cost)
    return costs


def build_price(s: GameState, seat: int, district: str) -> int | None:
    """Gold to pay to build ``district`` (``None``: it can never be built). The Factory takes
    1 off the owner's other purple districts (R-13)."""
    price = s.cards.cost[district]
    if (
        price
        and district != "factory"
        and s.cards.district_colour[district] == PURPLE
        and "factory" in s.players[seat].city
    ):
        price -= 1
    return price


def may_build_name(s: GameState, t: Turn, seat: int, district: str) -> bool:
    """C-8: no second district of a name, unless the Wizard's turn allows it (R-30) or the
    Quarry does (R-12: one duplicated name at a time, never three copies, in `classic`)."""
    city = s.players[seat].city
    if district not in city or t.duplicates:
        return True
    if "quarry" not in city:
        return False
    if not s.edition.quarry_limit:
        return True
    p = s.players[seat]
    standing = p.quarry_duplicate
    if standing is not None and city.count(standing) >= 2:
        return False
    return city.count(district) == 1


def buildable(s: GameState, t: Turn, district: str) -> bool:
    """Name and Monument limits of a build (C-8, R-12, R-30, T7 Monument)."""
    city = s.players[t.seat].city
    if district in city and not may_build_name(s, t, t.seat, district):
        return False
    return not (district == "monument" and len(city) > 4)


def put_in_city(s: GameState, t: Turn | None, seat: int, district: str, paid: int) -> None:
    """A district is built (by payment or the Wizard): into the city, its on-build powers
    (R-18: Lighthouse, Bell Tower), and the completion check (C-14)."""
    p = s.players[seat]
    if district in p.city and "quarry" in p.city and (t is None or not t.duplicates):
        p.quarry_duplicate = district
    was_complete = s.is_complete(seat)
    p.add_to_city(district, s.round)
    if t is not None:
        t.built += 1
        t.build_gold += paid
    s.log_event("build", seat, {"district": district, "paid": paid})
    check_completion(s, seat, was_complete)
    pay_tax_2016(s, seat, t)
    if district == "lighthouse" and s.deck:
        s.pending.append(Pending("lighthouse", seat, []))
    if district == "bell_tower" and s.base_complete_at == 8 and s.bell_tower is None:
        # under the short-game option the Bell Tower does nothing.
        s.pending.append(Pending("bell_tower", seat, []))


def pay_tax_2016(s: GameState, seat: int, t: Turn | None) -> None:
    """R-25 (`2016`): right after every build, the builder puts 1 of his gold (if any) on the
    Tax Collector's token, whenever the character set holds him, unpaid builds included.
    Builds in the Tax Collector's own turn are exempt."""
    if not s.edition.tax_per_build or "tax_collector" not in s.characters:
        return
    if t is not None and t.character == "tax_collector":
        return
    p = s.players[seat]
    if p.gold > 0:
        p.gold -= 1
        s.tax_token += 1
        s.log_event("tax", seat, {"collector": None, "gold": 1})


def paid_build(s: GameState, t: Turn, district: str, gold: int) -> None:
    """A paid build (gold already taken): the Magistrate's signed warrant may bite the first
    one of the turn (R-24), which the Magistrate decides; otherwise it enters the city."""
    first = t.paid_builds == 0
    t.paid_builds += 1
    magistrate = s.magistrate
    if first and t.character in s.warrants and magistrate is not None and magistrate != t.seat:
        s.pending.append(Pending("confiscate", magistrate, [district], keep=gold, target=t.seat))
        return
    put_in_city(s, t, t.seat, district, gold)


def check_completion(s: GameState, seat: int, was_complete: bool = False) -> None:
    """C-14: the first city to reach N districts ends the game after this round (R-22:
    however the district arrived). Later completions are logged too."""
    if was_complete or not s.is_complete(seat):
        return
    first = s.first_complete is None
    if first:
        s.first_complete = seat
    s.log_event("city_complete", seat, {"districts": s.city_size(seat), "first": first})


def leave_city(s: GameState, seat: int, district: str) -> tuple[int, bool, list[str]]:
    """Take a district out of a city (destroyed or exchanged). Returns the round it was
    built, whether it carried the Artist's gold, and the cards beneath it (a Museum's).

    If a standing Bell Tower leaves, N returns to 8 (R-14).
    """
    p = s.players[seat]
    built = p.remove_from_city(district)
    beautified = False
    if district in p.beautified and p.beautified.count(district) > p.city.count(district):
        p.beautified.remove(district)
        beautified = True
    tucked: list[str] = []
    if district == "museum":
        tucked, p.museum = p.museum, []
    if district == "bell_tower" and s.bell_tower == seat:
        s.bell_tower = None
        s.complete_at = s.base_complete_at
        s.log_event("bell_tower_silenced", seat, {"complete_at": s.complete_at})
    return built, beautified, tucked


def discard_from_city(s: GameState, seat: int, district: str) -> None:
    """A destroyed district leaves the city for the deck bottom (C-11); the Artist's gold goes
    to the bank (R-1) and a Museum's cards go with it (R-19)."""
    _, _, tucked = leave_city(s, seat, district)
    s.to_bottom([district, *tucked])


def move_district(s: GameState, source: int, district: str, dest: int) -> None:
    """Move a district between cities with what it carries: the Artist's gold (R-1) and the
    Museum's cards (R-19). It was not built, so no on-build power triggers (R-18)."""
    built, beautified, tucked = leave_city(s, source, district)
    receiver = s.players[dest]
    receiver.add_to_city(district, built)
    if beautified:
        receiver.beautified.append(district)
    if district == "museum":
        receiver.museum.extend(tucked)
