"""Final scoring (C-15) with a per-part breakdown, ranks and each edition's tie-break."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citadels.cards import PURPLE
from citadels.editions import TIE_CHARACTER_RANK, TIE_DISTRICT_COSTS, TIE_GOLD
from citadels.engine import bonus_districts, districts, districts_2016
from citadels.engine.effects import city_costs
from citadels.engine.state import OVER, GameState


@dataclass(frozen=True, slots=True)
class Breakdown:
    """The parts of a score (C-15 a–e)."""

    districts: int
    """(a) the sum of the costs of the districts in the city."""
    colours: int
    """(b) +3 for a district of every colour of the edition."""
    first_complete: int
    """(c) +4 for the first player to complete a city."""
    complete: int
    """(d) +2 for every other player with a completed city."""
    bonus: int
    """(e) bonus points printed on districts."""

    @property
    def total(self) -> int:
        return self.districts + self.colours + self.first_complete + self.complete + self.bonus

    def to_json(self) -> dict[str, int]:
        return {
            "districts": self.districts,
            "colours": self.colours,
            "first_complete": self.first_complete,
            "complete": self.complete,
            "bonus": self.bonus,
        }


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome. ``tiebreak`` names the criterion that separated it from the seats
    with the same score (``"shared"`` if none did, ``None`` if no other seat had its score)."""

    seat: int
    score: int
    breakdown: Breakdown
    rank: int
    tiebreak: str | None
    gold: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "score": self.score,
            "breakdown": self.breakdown.to_json(),
            "rank": self.rank,
            "tiebreak": self.tiebreak,
            "gold": self.gold,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: one ``SeatResult`` per seat, in seat order."""

    seats: tuple[SeatResult, ...]
    tiebreak_order: tuple[str, ...] = field(default=())

    def __getitem__(self, seat: int) -> SeatResult:
        return self.seats[seat]

    def __iter__(self) -> Any:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (several only when the tie could not be broken)."""
        return tuple(r.seat for r in self.seats if r.rank == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [r.to_json() for r in self.seats],
            "winners": list(self.winners),
            "tiebreak_order": list(self.tiebreak_order),
        }


def district_costs(s: GameState, seat: int) -> int:
    """C-15a: the sum of the current costs of the city's districts (R-1: the Artist's +1;
    R-2: no bonus points). Each district holding the Artist's gold adds 1, duplicates too."""
    return sum(city_costs(s, seat))


def breakdown(s: GameState, seat: int, hand_known: bool = True) -> Breakdown:
    """The score parts of one seat at the end of the game (R-20). Without ``hand_known`` the
    cards in the seat's hand count only by their number (a Secret Vault there is unseen)."""
    wanted = s.edition.colours
    best_colours = best_points = -1
    for types in districts.scoring_choices(s, seat, s.round):
        colour_bonus = 3 if all(types.get(c, 0) > 0 for c in wanted) else 0
        points = bonus_districts.end_points(s, seat, types.get(PURPLE, 0))
        points += districts_2016.end_points(s, seat, types, hand_known)
        if colour_bonus + points > best_colours + best_points:
            best_colours, best_points = colour_bonus, points
    complete = s.is_complete(seat)
    first = s.first_complete == seat or seat in s.extra_first
    return Breakdown(
        districts=district_costs(s, seat),
        colours=best_colours,
        first_complete=4 if first else 0,
        complete=2 if complete and not first else 0,
        bonus=districts.bonus_points(s, seat) + best_points,
    )


def tiebreak_value(
    s: GameState, seat: int, criterion: str, characters: list[str] | None = None
) -> int:
    """One tie-break criterion's value for ``seat``; ``characters``: the characters of the
    last round to count for the rank criterion (default: every one the seat held)."""
    if criterion == TIE_DISTRICT_COSTS:
        return district_costs(s, seat)
    if criterion == TIE_GOLD:
        return s.players[seat].gold
    if criterion == TIE_CHARACTER_RANK:
        # D-5: the highest rank among the characters the seat held in the last round.
        held = s.players[seat].characters if characters is None else characters
        return max((s.rank(c) for c in held), default=0)
    raise ValueError(f"unknown tie-break {criterion!r}")


def score(s: GameState) -> Outcome:
    """Score every seat (C-15) and rank them with the edition's tie-break (B-6, D-5, K-5).

    Before the game ends this counts hidden things too (a Secret Vault in hand, unrevealed
    characters in the rank tie-break): for analysis, never for a client; a client asks for
    :func:`provisional_score` instead."""
    parts = [breakdown(s, p.seat) for p in s.players]
    return _ranked(s, parts, [None] * len(s.players))


def provisional_score(s: GameState, viewer: int | None) -> Outcome:
    """The score as ``viewer`` (``None``: a spectator) can count it from what it may know
    (C-10): cities, gold, hand sizes, the crown and completions are public; a Secret Vault
    counts only in the viewer's own hand (R-23); the rank tie-break (D-5, N-5) counts only the
    characters the viewer has seen: its own and the revealed ones. Once the game is over
    everything is shown and this is :func:`score`."""
    if s.phase == OVER:
        return score(s)
    parts = [breakdown(s, p.seat, hand_known=p.seat == viewer) for p in s.players]
    seen: list[list[str] | None] = [
        [c for c in p.characters if p.seat == viewer or s.revealed.get(c) == p.seat]
        for p in s.players
    ]
    return _ranked(s, parts, seen)


def _ranked(s: GameState, parts: list[Breakdown], characters: list[list[str] | None]) -> Outcome:
    order = s.edition.tiebreak
    keys = [
        (parts[p.seat].total, *[tiebreak_value(s, p.seat, c, characters[p.seat]) for c in order])
        for p in s.players
    ]
    results = []
    for p in s.players:
        key = keys[p.seat]
        rank = 1 + sum(1 for k in keys if k > key)
        rivals = [k for i, k in enumerate(keys) if i != p.seat and k[0] == key[0]]
        tiebreak: str | None = None
        if rivals:
            depth = 0
            for k in rivals:
                level = next((i for i in range(1, len(key)) if k[i] != key[i]), None)
                if level is None:
                    depth = -1
                    break
                depth = max(depth, level)
            tiebreak = "shared" if depth == -1 else order[depth - 1]
        results.append(
            SeatResult(p.seat, key[0], parts[p.seat], rank, tiebreak, s.players[p.seat].gold)
        )
    return Outcome(tuple(results), order)
