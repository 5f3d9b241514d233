"""Events as one viewer may see them: data only (kind, seat, fields), no words.

An event's public part is shown to everyone; its secret part only to the seats it names
(C-10). A seat never sees another seat's secret part, and a spectator sees none. Sentences are
made outside the engine, per viewer and per language (``citadels.present.render_event``).
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from typing import Any

from citadels.engine.state import Event, GameState

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


class RenderedLog:
    """One viewer's rendering of a game's log, event by event, kept so that a view copies it
    instead of rendering every event again. It is never handed out: :meth:`copy` gives a
    copy that shares no dict or list with it (nor with the game). :func:`log_view` holds a
    lock while it brings one up to date and copies it, so views read by several threads at
    once never see one half-built."""

    __slots__ = ("events", "keys", "list_at", "list_keys", "rendered", "viewer")

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self.events: list[Event] = []
        """The events rendered so far: a prefix of the log."""
        self.rendered: list[dict[str, Any]] = []
        """``event_view(event, viewer)`` of each of ``events``."""
        self.list_at: list[int] = []
        """Indices of the renderings holding lists (copied one by one), in order."""
        self.list_keys: list[tuple[str, ...]] = []
        """For each of ``list_at``, the keys whose values are lists."""
        self.keys: list[tuple[str, ...]] = []
        """For each rendering, the keys whose values are lists (mostly none): a viewer that
        borrows the spectator's rendering of an event borrows these too."""

    def sync(self, log: list[Event], public: RenderedLog | None = None) -> None:
        """Bring the rendering up to ``log``: render the events added since, or start again
        if the events rendered so far are no longer the log's first events. ``public``, the
        spectator's rendering of the same log, lends its rendering of every event whose
        secret this viewer may not see (it is the same data), so that the viewers of a game
        share them."""
        events = self.events
        n = len(events)
        if n > len(log) or (n and (log if n == len(log) else log[:n]) != events):
            events.clear()
            self.rendered.clear()
            self.list_at.clear()
            self.list_keys.clear()
            self.keys.clear()
            n = 0
        if n == len(log):
            return
        viewer = self.viewer
        rendered = self.rendered
        all_keys = self.keys
        shown = public.rendered if public is not None else None
        shown_keys = public.keys if public is not None else None
        for i in range(n, len(log)):
            ev = log[i]
            if shown is None or shown_keys is None or (ev.secret and viewer in ev.viewers):
                out = event_view(ev, viewer)
                keys = tuple([k for k, v in out.items() if type(v) is list])
            else:
                out = shown[i]
                keys = shown_keys[i]
            if keys:
                self.list_at.append(i)
                self.list_keys.append(keys)
            events.append(ev)
            rendered.append(out)
            all_keys.append(keys)

    def copy(self, start: int = 0) -> list[dict[str, Any]]:
        """Fresh copies of the renderings from event ``start`` on."""
        rendered = self.rendered
        out = list(map(dict.copy, rendered[start:] if start else rendered))
        list_at = self.list_at
        list_keys = self.list_keys
        for j in range(bisect_left(list_at, start), len(list_at)):
            d = out[list_at[j] - start]
            for k in list_keys[j]:
                d[k] = d[k][:]
        return out


def log_view(s: GameState, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
    """``[event_view(ev, viewer) for ev in s.log[start:]]``, the same data, from the
    renderings the state keeps (rendering only the events logged since the last view)."""
    log = s.log
    if start >= len(log):
        return []
    with _LOCK:
        cache = s.rendered
        if cache is None:
            cache = s.rendered = {}
        public = cache.get(None)
        if public is None:
            public = cache[None] = RenderedLog(None)
        public.sync(log)
        if viewer is None:
            return public.copy(start)
        rendering = cache.get(viewer)
        if rendering is None:
            rendering = cache[viewer] = RenderedLog(viewer)
        rendering.sync(log, public)
        return rendering.copy(start)


#: Views read from several threads at once take turns to bring a rendering up to date.
_LOCK = threading.Lock()
