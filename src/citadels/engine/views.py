"""``player_view``: exactly what one seat (or a spectator) may know, as JSON-ready data.

This is the only thing that leaves the engine for clients: bots, the terminal, the browser
and RL environments all read views, never the state (C-10).
"""

from __future__ import annotations

from typing import Any

from citadels.engine import rules
from citadels.engine.actions import Action
from citadels.engine.events import log_view
from citadels.engine.state import OVER, SELECTION, GameState


def known_facedown(s: GameState, viewer: int | None) -> list[str]:
    """Face-down characters of this round the viewer has seen: the ones he put aside, and
    the C-3 card if he was the last chooser (C-5)."""
    if viewer is None or s.phase == OVER:
        return []
    seen: list[str] = []
    log = s.log
    for i in range(len(log) - 1, -1, -1):  # not reversed(): mypyc fails on it here
        ev = log[i]
        if ev.kind == "round":
            break
        if ev.kind in ("put_aside", "look_facedown") and viewer in ev.viewers and ev.secret:
            c = ev.secret["character"]
            if c in s.facedown and c not in seen:
                seen.append(c)
    return seen


def player_view(
    s: GameState,
    viewer: int | None,
    legal: list[Action] | None = None,
    log_from: int = 0,
) -> dict[str, Any]:
    """The view of seat ``viewer`` (``None``: a spectator). ``legal`` are the legal actions,
    included only when the viewer is to move. ``log_from`` skips the first events."""
    to_move = rules.to_move(s)
    over = s.phase == OVER
    order = s.characters.index
    players = []
    for p in s.players:
        own = viewer == p.seat
        shown = [c for c in p.characters if own or over or s.revealed.get(c) == p.seat]
        entry: dict[str, Any] = {
            "seat": p.seat,
            "gold": p.gold,
            "hand_size": len(p.hand),
            "city": p.city[:],
            # In rank order: the order of the picks is the seat's secret (C-4, C-10).
            "characters": sorted(shown, key=order) if len(shown) > 1 else shown,
            "complete": s.is_complete(p.seat),
            "beautified": sorted(p.beautified),
            "museum_size": len(p.museum),
        }
        if own:
            entry["hand"] = sorted(p.hand)
            entry["museum"] = sorted(p.museum)
        players.append(entry)
    view: dict[str, Any] = {
        "edition": s.edition.id,
        "seat": viewer,
        "round": s.round,
        "phase": s.phase,
        "crown": s.crown,
        "to_move": to_move,
        "deck_size": len(s.deck),
        "complete_at": s.complete_at,
        "first_complete": s.first_complete,
        "characters_in_play": list(s.characters),
        "faceup_removed": s.faceup[:],
        "facedown_count": len(s.facedown),
        "known_facedown": known_facedown(s, viewer),
        "revealed": dict(s.revealed),
        "murdered": s.murdered,
        "robbed": s.robbed,
        "bewitched": s.bewitched,
        "tax_collector": s.tax_collector,
        "bell_tower": s.bell_tower,
        "extra_first": s.extra_first[:],
        "warrants": sorted(s.warrants, key=s.characters.index),
        "threats": sorted(s.threats, key=s.characters.index),
        "tax_token": s.tax_token,
        "players": players,
    }
    # Which warrant is signed and which threat flowered: their owners only (N-7).
    if viewer is not None and viewer == s.magistrate and s.warrants:
        view["signed_warrant"] = next(c for c, signed in s.warrants.items() if signed)
    if viewer is not None and viewer == s.blackmailer and s.threats:
        flowered = [c for c, f in s.threats.items() if f]
        view["flowered_threat"] = flowered[0] if flowered else None
    if s.phase == SELECTION and s.steps:
        seat, kind = s.steps[0]
        selection: dict[str, Any] = {"seat": seat, "kind": kind, "remaining": len(s.pool)}
        if viewer == seat:
            offered = rules.selection_actions(s)
            selection["offered"] = [getattr(a, "character", "") for a in offered]
        view["selection"] = selection
    t = s.turn
    if t is not None:
        view["turn"] = {
            "seat": t.seat,
            "character": t.character,
            "gathered": t.gathered,
            "income_taken": t.income_taken,
            "power_used": t.power_used,
            "builds": t.builds,
            "build_limit": t.build_limit,
            "mode": t.mode,
        }
    if s.pending:
        pending = s.pending[-1]
        entry = {"kind": pending.kind, "seat": pending.seat}
        if pending.target >= 0:
            entry["target"] = pending.target
        if pending.kind == "graveyard" or viewer == pending.seat:
            entry["cards"] = pending.cards[:]
        if viewer == pending.seat and pending.kind == "wizard":
            entry["cards"] = sorted(s.players[pending.target].hand)
        if viewer == pending.seat and pending.kind == "lighthouse":
            entry["cards"] = sorted(s.deck)
        if pending.kind == "confiscate" or (viewer == pending.seat and pending.kind == "scholar"):
            entry["cards"] = pending.cards[:]
        if pending.kind == "thieves_den":
            entry["price_left"] = pending.keep
        if pending.kind == "seer":
            entry["seats"] = pending.seats[:]
        view["pending"] = entry
    if viewer is not None and viewer == to_move and legal is not None:
        view["legal_actions"] = [a.to_json() for a in legal]
    view["log"] = log_view(s, viewer, log_from)
    return view
