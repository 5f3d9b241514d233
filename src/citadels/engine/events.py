"""Events as one viewer may see them: data only (kind, seat, fields), no words.

An event's public part is shown to everyone; its secret part only to the seats it names
(C-10). A seat never sees another seat's secret part, and a spectator sees none. Sentences are
made outside the engine, per viewer and per language (``citadels.present.render_event``).
"""

from __future__ import annotations

from typing import Any

from citadels.engine.state import Event

#: Every kind of event the engine logs (the presentation layer renders each of them).
EVENT_KINDS: tuple[str, ...] = (
    "setup",
    "deal",
    "round",
    "put_aside",
    "look_facedown",
    "pick",
    "call",
    "reveal",
    "robbed",
    "crown",
    "income",
    "extra_gold",
    "extra_cards",
    "gather_gold",
    "gather_cards",
    "keep",
    "build",
    "city_complete",
    "murder",
    "rob",
    "exchange_hands",
    "redraw",
    "destroy",
    "graveyard",
    "laboratory",
    "smithy",
    "end_turn",
    "murdered_revealed",
    "bewitch",
    "witch_resumes",
    "tax",
    "tax_token",
    "warrants",
    "warrant_passed",
    "confiscate",
    "threats",
    "ransom",
    "ransom_refused",
    "threat_revealed",
    "threat_kept",
    "spy",
    "seer_take",
    "seer_give",
    "give_card",
    "loan",
    "study",
    "seize",
    "sacrifice",
    "pay_with_cards",
    "theater",
    "look_at_hand",
    "take_card",
    "crown_stays",
    "tribute",
    "take_from_richest",
    "exchange_district",
    "queen",
    "beautify",
    "lighthouse",
    "bell_tower",
    "bell_tower_silenced",
    "armory",
    "museum",
    "poor_house",
    "park",
    "alchemist",
    "throne_room",
    "round_end",
    "game_over",
)


def event_view(event: Event, viewer: int | None) -> dict[str, Any]:
    """The event as ``viewer`` may see it: its kind, seat, public data, and the secret part
    only if the viewer is one of its viewers (``None``: a spectator, who sees no secret)."""
    # Lists are copied: what a client holds must never be the game's own log.
    out: dict[str, Any] = {"kind": event.kind, "seat": event.seat}
    for k, v in event.data.items():
        out[k] = v[:] if type(v) is list else v
    if event.secret and viewer is not None and viewer in event.viewers:
        for k, v in event.secret.items():
            out[k] = v[:] if type(v) is list else v
    return out
