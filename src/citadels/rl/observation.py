"""A fixed-size numeric encoding of one seat's view, and a text form of it.

The encoding reads ``Game.view(seat)`` and nothing else, so it holds exactly what the seat
may know (C-10). Seats are *relative*: block 0 is the viewer, block 1 the next seat
clockwise, and so on, so a policy plays every seat alike. Every entry is a count, a gold
amount or a 0/1 flag, as a ``float32``; :attr:`ObservationEncoder.layout` names each block
(``docs/rl.md`` lists them).
"""

from __future__ import annotations

import struct
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
        self._packer = struct.Struct(f"={at}f")
        self._relative = [[(seat - me) % n for seat in range(n)] for me in range(n)]
        self._rows = {
            c: self.offsets["characters"] + i * self.char_width for c, i in self._char.items()
        }

    def encode(self, view: dict[str, Any]) -> npt.NDArray[np.float32]:
        """The vector of ``view`` (a seat's view, as ``Game.view(seat)`` returns it)."""
        me = view["seat"]
        if me is None:
            raise ValueError("the encoding is of a seat's view, not a spectator's")
        out = [0.0] * self.size
        o = self.offsets
        rel = self._relative[me]  # seat -> its block: 0 for the viewer, then clockwise
        char = self._char
        dist = self._dist

        out[o["round"]] = float(view["round"])
        out[o["phase"] + PHASES.index(view["phase"])] = 1.0
        for block in ("crown", "to_move", "first_complete", "tax_collector", "bell_tower"):
            seat = view[block]
            if seat is not None and seat >= 0:
                out[o[block] + rel[seat]] = 1.0
        for key in ("deck_size", "complete_at", "facedown_count", "tax_token"):
            out[o[key]] = float(view[key])
        at = o["extra_first"]
        for seat in view["extra_first"]:
            out[at + rel[seat]] = 1.0

        # The character table: one row of flags per character, then who revealed it.
        rows = self._rows
        for i, key in enumerate(("faceup_removed", "known_facedown")):
            for c in view[key]:
                out[rows[c] + i] = 1.0
        for i, key in ((2, "murdered"), (3, "robbed"), (4, "bewitched")):
            c = view[key]
            if c:
                out[rows[c] + i] = 1.0
        for c in view["warrants"]:
            out[rows[c] + 5] = 1.0
        for c in view["threats"]:
            out[rows[c] + 6] = 1.0
        for i, key in ((7, "signed_warrant"), (8, "flowered_threat")):
            c = view.get(key)
            if c:
                out[rows[c] + i] = 1.0
        selection = view.get("selection")
        if selection is not None:
            for c in selection.get("offered", ()):
                out[rows[c] + 9] = 1.0
        flags = len(CHARACTER_FLAGS)
        for c, seat in view["revealed"].items():
            out[rows[c] + flags + rel[seat]] = 1.0
        turn = view.get("turn")
        if turn is not None:
            out[rows[turn["character"]] + 11] = 1.0

        # One block per seat, the viewer's first; then the viewer's hand and museum.
        base = o["seats"]
        width = self.seat_width
        scalars = len(SEAT_SCALARS)
        nd = len(self.districts)
        for p in view["players"]:
            at = base + rel[p["seat"]] * width
            city = p["city"]
            out[at] = float(p["gold"])
            out[at + 1] = float(p["hand_size"])
            out[at + 2] = 1.0 if p["complete"] else 0.0
            out[at + 3] = float(len(p["beautified"]))
            out[at + 4] = float(p["museum_size"])
            out[at + 5] = float(len(city))
            at += scalars
            for d in city:
                out[at + dist[d]] += 1.0
            at += nd
            for c in p["characters"]:
                out[at + char[c]] = 1.0
            if p["seat"] == me:
                for c in p["characters"]:
                    out[rows[c] + 10] = 1.0
                at = o["hand"]
                for d in p["hand"]:
                    out[at + dist[d]] += 1.0
                at = o["museum"]
                for d in p["museum"]:
                    out[at + dist[d]] += 1.0

        if selection is not None:
            out[o["selection_seat"] + rel[selection["seat"]]] = 1.0
            out[o["selection_kind"] + SELECTION_KINDS.index(selection["kind"])] = 1.0
            out[o["selection_remaining"]] = float(selection["remaining"])
        if turn is not None:
            out[o["turn_seat"] + rel[turn["seat"]]] = 1.0
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
            out[o["pending_seat"] + rel[pending["seat"]]] = 1.0
            target = pending.get("target")
            if target is not None and target >= 0:
                out[o["pending_target"] + rel[target]] = 1.0
            at = o["pending_cards"]
            for d in pending.get("cards", ()):
                out[at + dist[d]] += 1.0
            at = o["pending_seats"]
            for seat in pending.get("seats", ()):
                out[at + rel[seat]] = 1.0
            out[o["pending_price_left"]] = float(pending.get("price_left", 0))
        # Packing the list is three times faster than np.asarray(out, np.float32).
        buffer = bytearray(self._packer.size)
        self._packer.pack_into(buffer, 0, *out)
        return np.frombuffer(buffer, dtype=np.float32)

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
