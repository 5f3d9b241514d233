"""The unique districts new to the 2016 edition (CARDS.md T7).

Active powers and alternative ways to build are here, one group per card. Passive rules read
elsewhere at one place: the Monument's double count (``GameState.city_size``), the Gold Mine
(``rules`` gather), the Stables' and Trader's builds outside the limit (``rules.build``), the
Secret Vault's missing cost (``effects.build_price``).
"""

from __future__ import annotations

from citadels.cards import PURPLE
from citadels.engine.actions import (
    Action,
    BuildFree,
    PayRemainder,
    PayWithCard,
    UseTheater,
    cached,
)
from citadels.engine.effects import city_costs
from citadels.engine.state import GameState, Pending, Turn

# --- Theater: at the end of selection, swap characters with an opponent blind (R-31) --------


def theater_owner(s: GameState) -> int | None:
    for p in s.players:
        if "theater" in p.city:
            return p.seat
    return None


def theater_choices(s: GameState, pending: Pending) -> list[Action]:
    """Keep, or name an opponent (and, with 2–3 players, which own character to give)."""
    me = s.players[pending.seat]
    out: list[Action] = [cached(UseTheater, -1, "")]
    for p in s.players:
        if p.seat == pending.seat or not p.characters:
            continue
        if len(me.characters) == 1:
            out.append(cached(UseTheater, p.seat, ""))
        else:
            for c in sorted(me.characters, key=s.characters.index):
                out.append(cached(UseTheater, p.seat, c))
    return out


def use_theater(s: GameState, pending: Pending, action: UseTheater) -> None:
    owner = pending.seat
    if action.seat < 0:
        s.log_event("theater", owner, {"with": None})
        return
    me, other = s.players[owner], s.players[action.seat]
    give = action.character or me.characters[0]
    take = other.characters[s.randbelow(len(other.characters))]
    me.characters[me.characters.index(give)] = take
    other.characters[other.characters.index(take)] = give
    s.holders[give] = action.seat
    s.holders[take] = owner
    s.log_event(
        "theater", owner, {"with": action.seat}, {"gave": give, "got": take}, (owner, action.seat)
    )


# --- Framework and Necropolis: build by destroying instead of paying --------------------------


def free_builds(s: GameState, t: Turn, candidates: list[str], out: list[Action]) -> None:
    """``candidates``: the hand's buildable names. The Framework builds any of them by being
    destroyed; the Necropolis is built by destroying any district of the own city."""
    city = s.players[t.seat].city
    for d in candidates:
        if d == "necropolis":
            for sacrifice in sorted(set(city)):
                out.append(cached(BuildFree, d, sacrifice))
        elif "framework" in city and d != "framework":
            out.append(cached(BuildFree, d, "framework"))


# --- Thieves' Den: any part of its price paid with cards from hand ---------------------------


def thieves_den_affordable(s: GameState, seat: int, price: int) -> bool:
    p = s.players[seat]
    return p.gold + len(p.hand) - 1 >= price


def thieves_den_choices(s: GameState, pending: Pending) -> list[Action]:
    p = s.players[pending.seat]
    out: list[Action] = []
    if pending.keep > 0:
        out.extend(cached(PayWithCard, d) for d in sorted(set(p.hand)))
    if pending.keep <= p.gold:
        out.append(cached(PayRemainder))
    return out


# --- end-of-game points ----------------------------------------------------------------------


def end_points(s: GameState, seat: int, types: dict[str, int], hand_known: bool = True) -> int:
    """Basilica, Capitol, Ivory Tower, Statue and the Secret Vault in hand (R-23; counted only
    when ``hand_known``). ``types`` counts the city's districts per type as scored (Haunted
    Quarter's choice, R-8; the Monument counts once, R-22)."""
    p = s.players[seat]
    city = p.city
    points = 0
    if "basilica" in city:
        points += sum(1 for cost in city_costs(s, seat) if cost % 2 == 1)
    if "capitol" in city and max(types.values(), default=0) >= 3:
        points += 3
    if "ivory_tower" in city and types.get(PURPLE, 0) == 1:
        points += 5
    if "statue" in city and s.crown == seat:
        points += 5
    if hand_known:
        points += 3 * p.hand.count("secret_vault")
    return points
