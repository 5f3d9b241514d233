"""The legal actions as a menu a person reads: each with its wording, the seat it is aimed at,
whether it ends the turn and whether it harms the player's own city, in the order a menu shows
them.

The browser (through the server's ``legal`` entries) and the terminal game both build their
menus from ``menu_entries``, so both group and mark the same choices the same way:

1. the choices aimed at nobody (gather, build, a power on a character), as the engine lists
   them;
2. the choices aimed at a seat, one group per seat: the other seats in the order of play after
   the player, then the player himself (destroying one's own district is legal, and rarely
   wanted);
3. ending the turn.

A choice keeps its place inside its group, so the order is stable from one decision to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citadels.engine import actions as A
from citadels.engine.actions import Action
from citadels.engine.game import Game
from citadels.present.actions import describe_action

# The actions that name a seat whose city, hand, gold or crown they act on. ``seat`` -1 in
# ``TakeFromRichest`` (the richest, whoever it is) and ``UseTheater`` (no swap) names nobody.
_AIMED = (
    A.Destroy,
    A.ExchangeHands,
    A.LookAtHand,
    A.GiveCrown,
    A.TakeFromRichest,
    A.ExchangeDistrict,
    A.UseArmory,
    A.SpyOn,
    A.BuildWithLoan,
    A.Seize,
    A.UseTheater,
)


@dataclass(frozen=True)
class MenuEntry:
    """One legal action as a menu shows it.

    ``target``: the seat it is aimed at, or ``None``; ``ends_turn``: playing it ends (or, for
    the Witch, pauses) the turn (``Game.ends_turn``); ``harms_self``: it destroys a district of
    the player's own city, which a menu should confirm first."""

    action: Action
    label: str
    target: int | None
    ends_turn: bool
    harms_self: bool

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``legal`` entry: ``action``, ``label``, ``target``, ``ends_turn``,
        ``harms_self``."""
        return {
            "action": self.action.to_json(),
            "label": self.label,
            "target": self.target,
            "ends_turn": self.ends_turn,
            "harms_self": self.harms_self,
        }


def target_of(action: Action) -> int | None:
    """The seat ``action`` is aimed at, or ``None``."""
    if isinstance(action, _AIMED):
        seat = getattr(action, "seat", -1)
        if isinstance(seat, int) and seat >= 0:
            return seat
    return None


def menu_entries(
    game: Game,
    seat: int,
    view: dict[str, Any] | None = None,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> list[MenuEntry]:
    """The legal actions of ``seat`` (empty unless it is to move), worded from its view
    (``game.view(seat)`` unless given) and ordered as the module says."""
    if game.to_move != seat:
        return []
    if view is None:
        view = game.view(seat, log_from=game.log_size)
    players = game.num_players
    entries = []
    for action in game.legal_actions():
        target = target_of(action)
        entries.append(
            MenuEntry(
                action=action,
                label=describe_action(action, view, lang, names),
                target=target,
                ends_turn=game.ends_turn(action),
                harms_self=isinstance(action, A.Destroy) and action.seat == seat,
            )
        )

    def place(index: int) -> tuple[int, int, int]:
        entry = entries[index]
        if isinstance(entry.action, A.EndTurn):
            return (2, 0, index)
        if entry.target is None:
            return (0, 0, index)
        # Seats after the player in the order of play; the player himself last.
        distance = (entry.target - seat) % players or players
        return (1, distance, index)

    return [entries[i] for i in sorted(range(len(entries)), key=place)]
