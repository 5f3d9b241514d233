"""A fixed-size numeric encoding of one seat's view, and a text form of it.

The encoding reads ``Game.view(seat)`` and nothing else, so it holds exactly what the seat
may know (C-10). Seats are *relative*: block 0 is the viewer, block 1 the next seat
clockwise, and so on, so a policy plays every seat alike. Every entry is a count, a gold
amount or a 0/1 flag, as a ``float32``; :attr:`ObservationEncoder.layout` names each block
(``docs/rl.md`` lists them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from citadels.rl.actions import ActionSpace

PHASES = ("selection", "turns", "over")
SELECTION_KINDS = ("pick", "put_aside")
TURN_MODES = ("normal", "gather_only", "bewitched", "witch", "threatened")
#: Kinds of decision that interrupt the flow (``view["pending"]["kind"]``).
PENDING_KINDS = (
    "keep",
    "redraw",
    "graveyard",
    "wizard",
    "give_crown",
    "tribute",
    "take_tribute",
    "navigator",
    "lighthouse",
    "bell_tower",
    "confiscate",
    "ransom",
    "reveal_threat",
    "seer",
    "cardinal",
    "scholar",
    "thieves_den",
    "theater",
)
#: Per character, the flags of the character table, in order; then who revealed it.
CHARACTER_FLAGS = (
    "faceup_removed",
    "known_facedown",
    "murdered",
    "robbed",
    "bewitched",
    "warrant",
    "threat",
    "signed_warrant",
    "flowered_threat",
    "offered",
    "mine",
    "on_turn",
)
#: Per seat, the scalars of its block, in order; then its city, then its shown characters.
SEAT_SCALARS = ("gold", "hand_size", "complete", "beautified", "museum_size", "city_size")


class ObservationEncoder:
    """Encodes views of one setup (the one of ``space``) into vectors of :attr:`size`."""

    def __init__(self, space: ActionSpace) -> None:
        self.space = space
        n = self.players = space.players
        chars = self.characters = space.characters
        dists = self.districts = space.districts
        self._char = {c: i for i, c in enumerate(chars)}
        self._dist = {d: i for i, d in enumerate(dists)}
        nc, nd = len(chars), len(dists)
        self.char_width = len(CHARACTER_FLAGS) + n
        self.seat_width = len(SEAT_SCALARS) + nd + nc
        blocks: list[tuple[str, int, str]] = [
            ("round", 1, "the round number"),
            ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
            ("crown", n, "one-hot relative seat of the crown"),
            ("to_move", n, "one-hot relative seat to move (all 0 once over)"),
            ("deck_size", 1, "cards in the district deck"),
            ("complete_at", 1, "districts that complete a city"),
            ("first_complete", n, "one-hot relative seat that completed first"),
            ("facedown_count", 1, "characters face down out of the round"),
            ("tax_token", 1, "gold on the Tax Collector's token"),
            ("tax_collector", n, "one-hot relative seat collecting the tax"),
            ("bell_tower", n, "one-hot relative seat whose Bell Tower announcement stands"),
            ("extra_first", n, "relative seats also scoring as first completers"),
            (
                "characters",
                nc * self.char_width,
                f"per character in rank order: {', '.join(CHARACTER_FLAGS)}, then one-hot "
                "relative seat that revealed it",
            ),
            (
                "seats",
                n * self.seat_width,
                f"per relative seat: {', '.join(SEAT_SCALARS)}, city counts per district id, "
                "characters shown",
            ),
            ("hand", nd, "the viewer's hand: counts per district id"),
            ("museum", nd, "the viewer's cards under his Museum: counts per district id"),
            ("selection_seat", n, "one-hot relative seat choosing a character"),
            ("selection_kind", len(SELECTION_KINDS), "one-hot: " + ", ".join(SELECTION_KINDS)),
            ("selection_remaining", 1, "characters still on offer"),
            ("turn_seat", n, "one-hot relative seat whose turn it is"),
            ("turn_character", nc, "one-hot character whose turn it is"),
            (
                "turn_flags",
                5,
                "gathered, income_taken, power_used, builds, build_limit",
            ),
            ("turn_mode", len(TURN_MODES), "one-hot: " + ", ".join(TURN_MODES)),
            ("pending_kind", len(PENDING_KINDS), "one-hot: " + ", ".join(PENDING_KINDS)),
            ("pending_seat", n, "one-hot relative seat that must answer"),
            ("pending_target", n, "one-hot relative seat the decision is about"),
            ("pending_cards", nd, "cards shown by the decision: counts per district id"),
            ("pending_seats", n, "relative seats the decision involves (the Seer's)"),
            ("pending_price_left", 1, "gold still owed (the Thieves' Den)"),
        ]
        self.layout: tuple[tuple[str, int, str], ...] = tuple(blocks)
        """The blocks of the vector in order: (name, length, meaning)."""
        self.offsets: dict[str, int] = {}
        """Where each block of :attr:`layout` starts."""
        at = 0
        for name, width, _ in blocks:
            self.offsets[name] = at
            at += width
        self.size = at
        """The length of every encoding."""

    def encode(self, view: dict[str, Any]) -> npt.NDArray[np.float32]:
        """The vector of ``view`` (a seat's view, as ``Game.view(seat)`` returns it)."""
        out = [0.0] * self.size
        o = self.offsets
        n = self.players
        if view["seat"] is None:
            raise ValueError("the encoding is of a seat's view, not a spectator's")
        me: int = view["seat"]

        def rel(seat: int) -> int:
            return (seat - me) % n

        def one_hot_seat(block: str, seat: int | None) -> None:
            if seat is not None and seat >= 0:
                out[o[block] + rel(seat)] = 1.0

        char = self._char
        dist = self._dist
        out[o["round"]] = float(view["round"])
        out[o["phase"] + PHASES.index(view["phase"])] = 1.0
        one_hot_seat("crown", view["crown"])
        one_hot_seat("to_move", view["to_move"])
        out[o["deck_size"]] = float(view["deck_size"])
        out[o["complete_at"]] = float(view["complete_at"])
        one_hot_seat("first_complete", view["first_complete"])
        out[o["facedown_count"]] = float(view["facedown_count"])
        out[o["tax_token"]] = float(view["tax_token"])
        one_hot_seat("tax_collector", view["tax_collector"])
        one_hot_seat("bell_tower", view["bell_tower"])
        for seat in view["extra_first"]:
            one_hot_seat("extra_first", seat)

        cbase = o["characters"]
        cwidth = self.char_width

        def flag(c: str | None, i: int) -> None:
            if c:
                out[cbase + char[c] * cwidth + i] = 1.0

        for c in view["faceup_removed"]:
            flag(c, 0)
        for c in view["known_facedown"]:
            flag(c, 1)
        flag(view["murdered"], 2)
        flag(view["robbed"], 3)
        flag(view["bewitched"], 4)
        for c in view["warrants"]:
            flag(c, 5)
        for c in view["threats"]:
            flag(c, 6)
        flag(view.get("signed_warrant"), 7)
        flag(view.get("flowered_threat"), 8)
        selection = view.get("selection")
        if selection is not None:
            for c in selection.get("offered", ()):
                flag(c, 9)
        flags = len(CHARACTER_FLAGS)
        for c, seat in view["revealed"].items():
            out[cbase + char[c] * cwidth + flags + rel(seat)] = 1.0
        turn = view.get("turn")
        if turn is not None:
            flag(turn["character"], 11)

        base = o["seats"]
        width = self.seat_width
        nd = len(self.districts)
        for p in view["players"]:
            at = base + rel(p["seat"]) * width
            out[at] = float(p["gold"])
            out[at + 1] = float(p["hand_size"])
            out[at + 2] = 1.0 if p["complete"] else 0.0
            out[at + 3] = float(len(p["beautified"]))
            out[at + 4] = float(p["museum_size"])
            city = p["city"]
            out[at + 5] = float(len(city))
            at += len(SEAT_SCALARS)
            for d in city:
                out[at + dist[d]] += 1.0
            at += nd
            for c in p["characters"]:
                out[at + char[c]] = 1.0
            if p["seat"] == me:
                for c in p["characters"]:
                    flag(c, 10)
                for d in p["hand"]:
                    out[o["hand"] + dist[d]] += 1.0
                for d in p["museum"]:
                    out[o["museum"] + dist[d]] += 1.0

        if selection is not None:
            one_hot_seat("selection_seat", selection["seat"])
            out[o["selection_kind"] + SELECTION_KINDS.index(selection["kind"])] = 1.0
            out[o["selection_remaining"]] = float(selection["remaining"])
        if turn is not None:
            one_hot_seat("turn_seat", turn["seat"])
            out[o["turn_character"] + char[turn["character"]]] = 1.0
            at = o["turn_flags"]
            out[at] = 1.0 if turn["gathered"] else 0.0
            out[at + 1] = 1.0 if turn["income_taken"] else 0.0
            out[at + 2] = 1.0 if turn["power_used"] else 0.0
            out[at + 3] = float(turn["builds"])
            out[at + 4] = float(turn["build_limit"])
            out[o["turn_mode"] + TURN_MODES.index(turn["mode"])] = 1.0
        pending = view.get("pending")
        if pending is not None:
            out[o["pending_kind"] + PENDING_KINDS.index(pending["kind"])] = 1.0
            one_hot_seat("pending_seat", pending["seat"])
            one_hot_seat("pending_target", pending.get("target"))
            for d in pending.get("cards", ()):
                out[o["pending_cards"] + dist[d]] += 1.0
            for seat in pending.get("seats", ()):
                one_hot_seat("pending_seats", seat)
            out[o["pending_price_left"]] = float(pending.get("price_left", 0))
        return np.asarray(out, dtype=np.float32)

    def describe(self) -> list[str]:
        """One line per block: offset, length, name and meaning (for docs and debugging)."""
        return [
            f"{self.offsets[name]:5d} {width:5d}  {name}: {meaning}"
            for name, width, meaning in self.layout
        ]


def _names(ids: Sequence[str]) -> str:
    return ", ".join(i.replace("_", " ") for i in ids) if ids else "-"


def view_text(view: dict[str, Any], space: ActionSpace | None = None) -> str:
    """A plain-text account of a seat's view (for debugging and language-model agents);
    with ``space``, the legal actions are listed with their numbers."""
    me = view["seat"]
    lines = [
        f"Citadels ({view['edition']}), round {view['round']}, phase {view['phase']}; "
        f"you are seat {me}; the crown is at seat {view['crown']}; "
        f"{view['deck_size']} cards in the deck; {view['complete_at']} districts complete "
        "a city.",
    ]
    if view["faceup_removed"]:
        lines.append(f"Face up, out of the round: {_names(view['faceup_removed'])}.")
    if view["known_facedown"]:
        lines.append(f"Face down, seen by you: {_names(view['known_facedown'])}.")
    for key, label in (("murdered", "Murdered"), ("robbed", "Robbed"), ("bewitched", "Bewitched")):
        if view[key]:
            lines.append(f"{label}: {_names([view[key]])}.")
    for p in view["players"]:
        who = "you" if p["seat"] == me else f"seat {p['seat']}"
        line = (
            f"- {who}: {p['gold']} gold, {p['hand_size']} cards in hand; city: "
            f"{_names(p['city'])}; characters shown: {_names(p['characters'])}"
        )
        if p["seat"] == me:
            line += f"; hand: {_names(p['hand'])}"
        lines.append(line + ".")
    selection = view.get("selection")
    if selection is not None:
        line = f"Selection: seat {selection['seat']} must {selection['kind'].replace('_', ' ')}"
        if "offered" in selection:
            line += f" one of {_names(selection['offered'])}"
        lines.append(line + ".")
    turn = view.get("turn")
    if turn is not None:
        done = [k.replace("_", " ") for k in ("gathered", "income_taken", "power_used") if turn[k]]
        lines.append(
            f"Turn: seat {turn['seat']} as {_names([turn['character']])}; built "
            f"{turn['builds']} of {turn['build_limit']}; done: {', '.join(done) or 'nothing'}."
        )
    pending = view.get("pending")
    if pending is not None:
        line = f"Waiting for seat {pending['seat']}: {pending['kind'].replace('_', ' ')}"
        if pending.get("cards"):
            line += f" ({_names(pending['cards'])})"
        lines.append(line + ".")
    if view["phase"] == "over" and "result" in view:
        result = view["result"]
        scores = ", ".join(f"seat {r['seat']} {r['score']}" for r in result["seats"])
        winners = ", ".join(str(w) for w in result["winners"])
        lines.append(f"Game over. Scores: {scores}. Won by seat {winners}.")
    legal = view.get("legal_actions")
    if legal:
        from citadels.engine.actions import action_from_json

        lines.append("Your legal actions:")
        for obj in legal:
            action = action_from_json(obj)
            number = f"[{space.action_to_index(action)}] " if space is not None else ""
            lines.append(f"  {number}{action.text()}")
    return "\n".join(lines)
