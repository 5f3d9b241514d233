"""Determinization: sample a whole game consistent with everything one seat knows.

A seat knows what ``game.view(seat)`` shows (its hand, the public table, the log with its own
secrets). Everything else is *hidden* and is resampled here, one hidden part per function:

- :func:`redact_log` — the secret parts of the other seats' events (their dealt and drawn
  cards, their picks) are removed from the log, so a sample never carries the real ones;
- :func:`resample_characters` — who holds which unrevealed character, the face-down
  characters and the characters still on offer, consistent with every character the seat was
  offered, put aside, saw face down (C-5), saw called without an answer, or saw revealed;
- :func:`resample_cards` — the other seats' hands (same sizes), the cards of their pending
  decisions it cannot see (cards drawn but not yet kept, the Magician's discards) and the
  order of the deck, dealt from the cards the seat has not seen, the cards it knows are in
  another hand (:func:`known_hand_cards`) dealt there first;
- :func:`resample_warrants`, :func:`resample_threats` — which of the 2016 Magistrate's warrants
  is signed and which of the Blackmailer's threats is flowered, unless the seat placed them;
- :func:`reseed_generator` — a fresh seed, so a sample's future shuffles are not the real ones.

A later edition that adds hidden information (markers, face-down tokens) adds one function to
:data:`HIDDEN_PARTS`. Each part looks at the real state *once* and returns a resampler that
writes its part into a copy; a part reads only what the seat may know, in a canonical order,
so two games that show the seat the same view give the same samples for the same ``rng``
(tests/test_determinize.py checks it).

Cards the seat knows are in another hand (the hand it gave away with the Magician, a card it
took or saw taken, gave or was given, a card taken back with the Graveyard, a hand it looked
at) are read from the log as the seat sees it (:func:`track_hands`) and always dealt there.
Not tracked: the order of the deck's bottom (the cards the seat put back), the colours a
2016 Spy counted in a hand it did not see. Nor does a sample infer anything from how the
other seats played: it is uniform over what is consistent with the seat's view.

A bot that holds only its view (a worker process, a remote client) builds the same information
set from the view and its whole log with :meth:`InformationSet.from_view` (see
:mod:`citadels.engine.from_view`): it samples the same worlds for the same ``rng``.

A sampled game has no usable record (its actions are not kept: they would reveal the other
seats' choices) and its log keeps the other seats' secrets only for the current round's
character selection, rewritten to match the sample.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from citadels.engine import rules, views
from citadels.engine.game import Checked, Game, copy_options
from citadels.engine.state import OVER, SELECTION, TURNS, Event, GameState, Pending
from citadels.engine.views import known_facedown

#: Writes one hidden part into a (copied) state, drawing from ``rng``.
Resampler = Callable[[GameState, random.Random], None]
#: Looks at the real state for ``seat`` once; returns the part's resampler (``None``: nothing
#: of this part is hidden from the seat now).
HiddenPart = Callable[[GameState, int], Resampler | None]

#: Pending decisions whose cards every seat sees: the destroyed district offered back (R-7),
#: the district built under a warrant (R-24), the district built on the Cardinal's loan (its
#: ``loan`` event names it). The cards of the decision on top of the stack count as seen
#: whenever the seat's view shows them.
PUBLIC_PENDING_KINDS: set[str] = {"graveyard", "confiscate", "cardinal"}

_NEVER: Final = 1 << 30
"""The step of a character still on offer, or left over when the selection ends."""


# --- hidden part: the other seats' secrets in the log ----------------------------------


def redact_log(s: GameState, seat: int) -> Resampler:
    """The log without the secret part of every event the seat was not shown (C-10)."""
    redacted = [
        ev if ev.secret is None or seat in ev.viewers else Event(ev.kind, ev.seat, ev.data)
        for ev in s.log
    ]

    def resample(t: GameState, rng: random.Random) -> None:
        t.log = redacted[:]

    return resample


# --- hidden part: who holds which character ----------------------------------------------


class _Slot:
    """A place a character of this round can be: a seat's k-th pick, a face-down position,
    or the pool still on offer. ``step`` is the selection step at which the character left
    the pool (-1: never in it, the C-3 face-down card; ``_NEVER``: not left yet or left over).
    ``event`` is the log event that names it (shown to the seat that made it).
    """

    __slots__ = ("event", "index", "seat", "step", "where")

    def __init__(
        self, where: str, seat: int | None, index: int, step: int, event: int | None = None
    ) -> None:
        self.where = where
        self.seat = seat
        self.index = index
        self.step = step
        self.event = event


class _SelectionModel:
    """What the seat knows of this round's characters, as constraints on slots."""

    def __init__(self, s: GameState, seat: int) -> None:
        self.seat = seat
        self.slots: list[_Slot] = []
        self.observations: list[tuple[int, frozenset[str]]] = []
        """(step, characters on offer then) for each time the seat saw the pool."""
        self.unheld: set[str] = set()
        """Called characters nobody answered for."""
        self.seen_facedown: set[str] = set()
        """The C-3 card, seen by the seat as the last chooser (C-5)."""
        self.pins: dict[str, int] = {}
        """Characters whose slot the seat knows, as picked (from its own events)."""
        self.final_pins: dict[str, int] = {}
        """Characters whose slot the seat knows, after the Theater (its own, revealed ones)."""
        self.theater: tuple[int, int, int] | None = None
        """(owner, other seat, event) of this round's Theater swap (R-31), if any."""
        self.chooser: int | None = None
        """The slot of the C-5 last chooser's pick, once made."""
        self.swapped: bool | None = None
        """Whether the C-5 chooser took the face-down card: known to the chooser alone (his
        put-aside event's secret); ``None`` for the other seats, who sample both cases."""
        self.look_event: int | None = None
        self.swap_event: int | None = None
        self.structured = self._from_log(s)
        if not self.structured:
            self._from_state(s)
        self._pin_known(s)

    def _reset(self) -> None:
        self.slots = []
        self.observations = []
        self.pins = {}
        self.theater = None
        self.chooser = None
        self.swapped = None
        self.look_event = None
        self.swap_event = None
        self.seen_facedown = set()

    def _from_log(self, s: GameState) -> bool:
        """Slots and constraints from this round's events (see ``rules.apply_selection``);
        ``False`` if the log does not account for the state (a hand-built position)."""
        log = s.log
        start = next((i for i in range(len(log) - 1, -1, -1) if log[i].kind == "round"), None)
        if start is None:
            return False
        seat = self.seat
        slots = self.slots
        slots.append(_Slot("facedown", None, 0, -1))
        total = len(rules.selection_steps(s))
        facedown = 1
        picks = [0] * len(s.players)
        step = 0
        look_seat: int | None = None
        for i in range(start + 1, len(log)):
            ev = log[i]
            kind = ev.kind
            secret = ev.secret if seat in ev.viewers else None
            if kind == "look_facedown" and ev.seat is not None:
                look_seat = ev.seat
                self.look_event = i
                if secret is not None:
                    self.seen_facedown.add(secret["character"])
            elif kind == "put_aside" and ev.seat is not None:
                if ev.seat == look_seat and self.chooser is not None and self.swap_event is None:
                    # C-5: after his pick the chooser puts one of his two cards face down,
                    # in the C-3 card's place; only he knows which.
                    self.swap_event = i
                    if secret is not None:
                        self.swapped = secret["character"] not in self.seen_facedown
                        self.pins[secret["character"]] = 0
                    continue
                left_over = step >= total
                slots.append(_Slot("facedown", None, facedown, _NEVER if left_over else step, i))
                facedown += 1
                if not left_over:
                    step += 1
                if secret is not None:
                    self.pins[secret["character"]] = len(slots) - 1
            elif kind == "pick" and ev.seat is not None:
                slots.append(_Slot("seat", ev.seat, picks[ev.seat], step, i))
                picks[ev.seat] += 1
                if ev.seat == look_seat and step == total - 1:
                    self.chooser = len(slots) - 1
                if secret is not None:
                    self.pins[secret["character"]] = len(slots) - 1
                    offered = frozenset(secret["offered"]) - self.seen_facedown
                    self.observations.append((step, offered))
                step += 1
            elif kind == "theater" and ev.seat is not None and ev.data.get("with") is not None:
                self.theater = (ev.seat, ev.data["with"], i)
            elif (
                kind == "call"
                and not ev.data.get("answered", True)
                # C-12: a murdered character's silent call says nothing of its holder, except
                # in `dezh`, where a held one would have been turned face up.
                and (not ev.data.get("murdered") or s.edition.murdered_revealed_at_call)
            ):
                self.unheld.add(ev.data["character"])
        if picks != [len(p.characters) for p in s.players] or facedown > len(s.facedown):
            self._reset()
            return False
        for j in range(facedown, len(s.facedown)):
            slots.append(_Slot("facedown", None, j, _NEVER))
        for _ in s.pool:
            slots.append(_Slot("pool", None, 0, _NEVER))
        if s.phase == SELECTION and s.steps and s.steps[0][0] == seat:
            self.observations.append((step, frozenset(s.pool)))
        return True

    def _from_state(self, s: GameState) -> None:
        """Slots from the state's public shape alone (no selection history in the log)."""
        for j in range(len(s.facedown)):
            self.slots.append(_Slot("facedown", None, j, -1))
        for p in s.players:
            for k in range(len(p.characters)):
                self.slots.append(_Slot("seat", p.seat, k, -1))
        for _ in s.pool:
            self.slots.append(_Slot("pool", None, 0, _NEVER))
        if s.phase == SELECTION and s.steps and s.steps[0][0] == self.seat:
            self.observations.append((0, frozenset(s.pool)))
        for c in known_facedown(s, self.seat):
            j = s.facedown.index(c)
            self.pins[c] = next(
                i for i, sl in enumerate(self.slots) if sl.where == "facedown" and sl.index == j
            )

    def _seat_slot(self, seat: int, index: int) -> int:
        return next(
            i
            for i, sl in enumerate(self.slots)
            if sl.where == "seat" and sl.seat == seat and sl.index == index
        )

    def _pin_known(self, s: GameState) -> None:
        """The seat's own characters, in the order it picked them. The other seats' revealed
        characters are not pinned to a pick: the view lists them in rank order, so which of
        a seat's picks each was is hidden (``allowed`` keeps them with their seat)."""
        for k, c in enumerate(s.players[self.seat].characters):
            self.final_pins[c] = self._seat_slot(self.seat, k)

    def finals(self, s: GameState) -> list[tuple[list[int], tuple[int, int] | None]]:
        """Each way the Theater may have moved the picked characters: (final slot of each
        slot as picked, the two slots swapped). Without a swap, the identity alone."""
        identity = list(range(len(self.slots)))
        if self.theater is None:
            return [(identity, None)]
        owner, other, _ = self.theater
        out: list[tuple[list[int], tuple[int, int] | None]] = []
        for i in range(len(s.players[owner].characters)):
            for j in range(len(s.players[other].characters)):
                a, b = self._seat_slot(owner, i), self._seat_slot(other, j)
                final = identity[:]
                final[a], final[b] = b, a
                out.append((final, (a, b)))
        return out

    def steps(self, swapped: bool) -> list[int]:
        """The step each slot's character left the pool at (``swapped``: the C-5 chooser
        took the face-down card)."""
        steps = [sl.step for sl in self.slots]
        if swapped and self.chooser is not None:
            steps[0], steps[self.chooser] = steps[self.chooser], steps[0]
        return steps

    def swap_cases(self) -> list[bool]:
        """The C-5 cases the seat cannot tell apart."""
        if self.chooser is None:
            return [False]
        return [self.swapped] if self.swapped is not None else [False, True]

    def allowed(self, s: GameState, c: str, steps: list[int], final: list[int]) -> int:
        """The slots (as picked) ``c`` may occupy, as a bit mask; ``final`` maps them to
        where they are after the Theater."""
        pinned = self.pins.get(c)
        final_pinned = self.final_pins.get(c)
        taken = set(self.pins.values())
        final_taken = set(self.final_pins.values())
        revealer = s.revealed.get(c)
        mask = 0
        for j, sl in enumerate(self.slots):
            if pinned is not None and j != pinned:
                continue
            if final_pinned is not None and final[j] != final_pinned:
                continue
            if (pinned is None and j in taken) or (
                final_pinned is None and final[j] in final_taken
            ):
                continue
            at = self.slots[final[j]]
            if revealer is not None and (at.where != "seat" or at.seat != revealer):
                continue
            if c in self.unheld and sl.where == "seat":
                continue
            if c in self.seen_facedown and steps[j] != -1:
                continue
            if any((c in offered) != (steps[j] >= step) for step, offered in self.observations):
                continue
            mask |= 1 << j
        return mask


def _count_matchings(allowed: list[int]) -> list[int]:
    """``ways[mask]``: the ways to place characters ``popcount(mask)..`` in the slots not in
    ``mask``, one per slot (the number of consistent completions)."""
    k = len(allowed)
    full = (1 << k) - 1
    ways = [0] * (full + 1)
    ways[full] = 1
    for mask in range(full - 1, -1, -1):
        i = mask.bit_count()
        free = allowed[i] & ~mask
        total = 0
        while free:
            low = free & -free
            total += ways[mask | low]
            free ^= low
        ways[mask] = total
    return ways


def resample_characters(s: GameState, seat: int) -> Resampler | None:
    """Who holds which unrevealed character, the face-down ones and the pool on offer.

    Uniform over the assignments consistent with the seat's knowledge: a character it saw on
    offer at its pick can only be with a seat that picked after it, face down or still on
    offer; one it did not see was taken before, or is the C-3 face-down card; a character
    called without answer is face down (a murdered one only in `dezh`: elsewhere its silence
    shows nothing, C-12); a revealed one is with its seat. The other seats' selection events
    of this round are rewritten to match, and so is the Queen's pending pay (R-28), which
    depends on a holder.
    """
    if s.phase == OVER:
        return None  # every character of the last round is shown
    chars = [c for c in s.characters if c not in s.faceup]
    model = _SelectionModel(s, seat)
    slots = model.slots
    if len(slots) != len(chars):
        raise AssertionError(f"{len(chars)} characters for {len(slots)} places")
    variants: list[tuple[list[int], tuple[int, int] | None, list[int], list[int], list[int]]] = []
    for swapped in model.swap_cases():
        steps = model.steps(swapped)
        for final, swap in model.finals(s):
            allowed = [model.allowed(s, c, steps, final) for c in chars]
            ways = _count_matchings(allowed)
            if ways[0]:
                variants.append((final, swap, allowed, ways, steps))
    if not variants:
        raise AssertionError("no assignment of characters is consistent with the view")
    totals = [v[3][0] for v in variants]
    order = list(s.characters)
    queen = _queen_turn(s)
    left_over = [j for j, sl in enumerate(slots) if sl.where == "facedown" and sl.step == _NEVER]

    def resample(t: GameState, rng: random.Random) -> None:
        r = rng.randrange(sum(totals))
        v = 0
        while r >= totals[v]:
            r -= totals[v]
            v += 1
        final, swap, allowed, ways, steps = variants[v]
        place: list[str] = [""] * len(slots)
        mask = 0
        for i, c in enumerate(chars):
            free = allowed[i] & ~mask
            r = rng.randrange(ways[mask])
            while True:
                low = free & -free
                w = ways[mask | low]
                if r < w:
                    break
                r -= w
                free ^= low
            place[low.bit_length() - 1] = c
            mask |= low
        # The cards left over at the end of the selection lie face down in rank order.
        left = sorted((place[j] for j in left_over), key=order.index)
        for j, c in zip(left_over, left, strict=True):
            place[j] = c
        placed = [""] * len(slots)
        for j, c in enumerate(place):
            placed[final[j]] = c
        _write_characters(t, slots, placed, order)
        if model.structured:
            _rewrite_selection_events(t, model, place, steps, order, swap)
        if queen is not None:
            _queen_late(t, queen)

    return resample


def _write_characters(t: GameState, slots: list[_Slot], place: list[str], order: list[str]) -> None:
    """Put the sampled characters in their places."""
    facedown: list[str] = [""] * len(t.facedown)
    pool: list[str] = []
    holders: dict[str, int] = {}
    held: list[list[str]] = [[""] * len(p.characters) for p in t.players]
    for sl, c in zip(slots, place, strict=True):
        if sl.where == "facedown":
            facedown[sl.index] = c
        elif sl.where == "pool":
            pool.append(c)
        else:
            assert sl.seat is not None
            held[sl.seat][sl.index] = c
            holders[c] = sl.seat
    t.facedown = facedown
    t.pool = sorted(pool, key=order.index)
    t.holders = holders
    for p in t.players:
        p.characters = held[p.seat]


def _rewrite_selection_events(
    t: GameState,
    model: _SelectionModel,
    place: list[str],
    steps: list[int],
    order: list[str],
    swap: tuple[int, int] | None,
) -> None:
    """The other seats' selection events of this round, as the sample has them."""
    seat = model.seat
    log = t.log

    def rewrite(i: int | None, secret: dict[str, Any]) -> None:
        if i is None:
            return
        ev = log[i]
        if ev.seat is not None and seat not in ev.viewers:
            log[i] = Event(ev.kind, ev.seat, ev.data, secret, (ev.seat,))

    first = place[steps.index(-1)]
    """The C-3 card as the last chooser saw it."""
    for j, (sl, c, step) in enumerate(zip(model.slots, place, steps, strict=True)):
        if sl.event is None:
            continue
        if sl.where == "seat":
            offered = [x for x, st in zip(place, steps, strict=True) if st >= step]
            if j == model.chooser:
                offered.append(first)
            rewrite(sl.event, {"character": c, "offered": sorted(offered, key=order.index)})
        else:
            rewrite(sl.event, {"character": c})
    rewrite(model.look_event, {"character": first})
    rewrite(model.swap_event, {"character": place[0]})
    if model.theater is not None and swap is not None:
        owner, other, i = model.theater
        ev = log[i]
        if seat not in ev.viewers:
            secret = {"gave": place[swap[0]], "got": place[swap[1]]}
            log[i] = Event(ev.kind, ev.seat, ev.data, secret, (owner, other))


def _queen_turn(s: GameState) -> int | None:
    """The seat whose Queen's turn has started this round (R-28), if any."""
    if "queen" not in s.characters or s.phase != TURNS:
        return None
    for i in range(len(s.log) - 1, -1, -1):
        ev = s.log[i]
        if ev.kind == "round":
            return None
        if ev.data.get("character") == "queen" and (
            (ev.kind == "reveal" and not ev.data.get("murdered") and s.bewitched != "queen")
            or ev.kind == "witch_resumes"
        ):
            return ev.seat
    return None


def _queen_late(t: GameState, queen: int) -> None:
    """R-28: the Queen beside a murdered rank-4 holder is paid at round end: who that holder
    is depends on the sample."""
    n = len(t.players)
    t.queen_late = None
    for c in t.characters:
        holder = t.holders.get(c)
        beside = (
            holder is not None and holder != queen and holder in ((queen + 1) % n, (queen - 1) % n)
        )
        if t.rank(c) == 4 and c == t.murdered and beside:
            t.queen_late = queen


# --- hidden part: hands, hidden pending cards, the deck ------------------------------------


def _pending_visible(p: Pending, seat: int) -> bool:
    return p.seat == seat or p.kind in PUBLIC_PENDING_KINDS


def resample_cards(s: GameState, seat: int) -> Resampler:
    """The other seats' hands and Museum cards (R-19), their pending cards the seat cannot
    see, and the deck order: a uniform deal of the cards the seat has not seen (the game's
    cards minus its hand, its Museum, every city and the pending cards it sees), every pile
    keeping its size, and every card the seat knows in another hand
    (:func:`known_hand_cards`) dealt to that hand first.

    What an open decision of the seat shows stays as it is: the victim's hand while the seat
    is the Wizard choosing a card (R-30), the deck's cards while it searches with the
    Lighthouse (only their order is dealt again).
    """
    cards = _Unseen(s, seat)
    known = {other: sorted(c.elements()) for other, c in cards.known(s, seat).items()}
    forced: Counter[str] = Counter()
    for held in known.values():
        forced.update(held)
    unseen = sorted((Counter(cards.unseen) - forced).elements()) if forced else cards.unseen
    hands = [(other, known.get(other, []), size) for other, size in cards.hands]
    museums = cards.museums
    hidden_pending = cards.hidden_pending
    deck_shown = cards.deck_shown
    deck = cards.deck

    def resample(t: GameState, rng: random.Random) -> None:
        dealt = unseen[:]
        rng.shuffle(dealt)
        at = 0
        for other, held, size in hands:
            rest = size - len(held)
            t.players[other].hand = held + dealt[at : at + rest]
            at += rest
        for other, size in museums:
            t.players[other].museum = dealt[at : at + size]
            at += size
        for i, size in hidden_pending:
            t.pending[i].cards = dealt[at : at + size]
            at += size
        if deck_shown:
            t.deck = deck[:]
            rng.shuffle(t.deck)
        else:
            t.deck = dealt[at:]

    return resample


# --- what the seat knows of the other hands ------------------------------------------------

#: Events that move one named card from a hand to another: kind -> (the field naming the
#: giver, the field naming the taker; ``"seat"`` is the event's seat). The card is the
#: secret ``district``, shown to the two seats alone.
HAND_TO_HAND: dict[str, tuple[str, str]] = {
    "take_card": ("from", "seat"),
    "seer_take": ("from", "seat"),
    "seer_give": ("seat", "to"),
    "give_card": ("seat", "to"),
    "tribute": ("seat", "emperor"),
}

#: Events that put cards into their seat's hand from the deck: kind -> the secret field that
#: names them (seen by that seat alone). A ``gather_cards`` draw is kept at once unless a
#: ``keep`` decision follows.
DRAWS: dict[str, str] = {
    "deal": "districts",
    "keep": "districts",
    "income": "districts",
    "extra_cards": "districts",
    "smithy": "districts",
    "park": "districts",
    "lighthouse": "district",
    "spy": "drawn",
}

#: Events that take cards out of their seat's hand unseen by the others: kind -> the secret
#: field that names them.
HIDDEN_DISCARDS: dict[str, str] = {
    "laboratory": "district",
    "museum": "district",
    "redraw": "discarded",
}


def _names(value: Any) -> list[str]:
    return [value] if type(value) is str else list(value)


def _drop(hand: Counter[str], cards: list[str]) -> None:
    """One copy of each card fewer, where there is one."""
    for c in cards:
        if hand[c] > 0:
            hand[c] -= 1
            if not hand[c]:
                del hand[c]


def track_hands(s: GameState, seat: int) -> list[Counter[str]]:
    """For every seat (``seat`` included), the cards ``seat`` knows that seat holds, from
    the log as ``seat`` sees it (public data, and the secret part of its own events and of
    the events it was shown, C-10) and the open decision its view shows.

    The walk keeps, for each hand, a multiset of cards known to be in it, always part of the
    real hand: a card joins it when the seat sees it enter (its own draws; a card it saw
    taken, given or paid as tribute; the Graveyard's district, public, R-7; a hand it looked
    at with the Wizard, R-30, or the 2016 Spy); a Magician's exchange (C-22) swaps what the
    seat knew of the two hands; a build, public, removes one copy of the name; a loss the
    seat cannot see (a hidden discard or redraw, a card taken or given unseen, a Thieves'
    Den payment) forgets the whole hand. A position whose log does not account for the hands
    (a hand-built one) knows less, never wrong: the seat's own hand is only what the log
    shows it drawing.
    """
    n = len(s.players)
    known: list[Counter[str]] = [Counter() for _ in range(n)]
    # A build that did not come out of its builder's hand: the Wizard's immediate build of
    # the card he took (builder -> victim, and whether the seat saw the card), the 2016
    # Cardinal's loan (builder -> the district, left his hand with the ``loan`` event).
    taken_built: dict[int, tuple[int, bool]] = {}
    loaned: dict[int, str] = {}
    gathered: tuple[int, list[str]] | None = None

    def built(builder: int, district: str) -> None:
        if builder in taken_built:
            victim, seen = taken_built.pop(builder)
            if not seen:
                _drop(known[victim], [district])
        elif loaned.get(builder) == district:
            del loaned[builder]
        else:
            _drop(known[builder], [district])

    for ev in s.log:
        kind = ev.kind
        who = ev.seat
        data = ev.data
        secret = ev.secret if ev.secret is not None and seat in ev.viewers else None
        if gathered is not None:
            if kind != "keep" or who != gathered[0]:
                known[gathered[0]].update(gathered[1])
            gathered = None
        if who is None:
            continue
        if kind == "gather_cards":
            if secret is not None:
                gathered = (who, list(secret["districts"]))
        elif kind in DRAWS:
            if secret is not None:
                known[who].update(_names(secret[DRAWS[kind]]))
            if kind == "spy" and secret is not None:
                known[data["target"]] = Counter(secret["hand"])
        elif kind in HIDDEN_DISCARDS:
            if secret is None:
                known[who].clear()
            else:
                _drop(known[who], _names(secret[HIDDEN_DISCARDS[kind]]))
                if kind == "redraw":
                    known[who].update(secret["drawn"])
        elif kind in HAND_TO_HAND:
            if kind == "tribute" and data.get("paid") != "card":
                continue
            giver_field, taker_field = HAND_TO_HAND[kind]
            giver = who if giver_field == "seat" else data[giver_field]
            taker = who if taker_field == "seat" else data[taker_field]
            immediate = kind == "take_card" and bool(data.get("built"))
            if immediate:
                # built at once, named by its build (or confiscation) next.
                taken_built[taker] = (giver, secret is not None)
            if secret is not None:
                _drop(known[giver], [secret["district"]])
                if not immediate:
                    known[taker][secret["district"]] += 1
            elif not immediate:
                known[giver].clear()
        elif kind == "exchange_hands":
            other = data["with"]
            known[who], known[other] = known[other], known[who]
        elif kind == "graveyard":
            if data.get("take"):
                known[who][data["district"]] += 1
        elif kind == "look_at_hand":
            if secret is not None:
                known[data["target"]] = Counter(secret["hand"])
        elif kind == "loan":
            _drop(known[who], [data["district"]])
            loaned[who] = data["district"]
        elif kind == "pay_with_cards":
            known[who].clear()
        elif kind == "build":
            built(who, data["district"])
        elif kind == "confiscate":
            built(data["builder"], data["district"])
    # The open decision (the only one a view shows): cards out of a hand, not yet logged.
    top = s.pending[-1] if s.pending else None
    if gathered is not None and (top is None or top.kind != "keep" or top.seat != gathered[0]):
        known[gathered[0]].update(gathered[1])
    if top is not None:
        if top.kind in ("redraw", "thieves_den"):
            # C-22 discards, the Thieves' Den and its payment: only their owner sees them.
            if top.seat == seat:
                _drop(known[seat], top.cards)
            else:
                known[top.seat].clear()
        elif top.kind == "confiscate" and top.cards and top.target >= 0:
            built(top.target, top.cards[0])
    return known


class _Unseen:
    """The cards ``seat`` has not seen and where they may be: what :func:`resample_cards`
    deals, read from the real state once."""

    __slots__ = ("deck", "deck_shown", "hands", "hidden_pending", "museums", "unseen")

    def __init__(self, s: GameState, seat: int) -> None:
        me = s.players[seat]
        total: Counter[str] = Counter(s.deck)
        visible: Counter[str] = Counter(me.hand)
        visible.update(me.museum)
        shown_hands: set[int] = {seat}
        if s.phase == OVER:
            # The final scores show what a hand is worth (the 2016 Secret Vault); nothing is
            # left to decide, so the hands are kept.
            shown_hands.update(p.seat for p in s.players)
        for p in s.players:
            total.update(p.hand)
            total.update(p.city)
            total.update(p.museum)
            visible.update(p.city)
            if p.seat != seat and p.seat in shown_hands:
                visible.update(p.hand)
        districts = s.edition.districts
        self.hidden_pending: list[tuple[int, int]] = []
        deck_shown = False
        top = views.player_view(s, seat, None, len(s.log)).get("pending") or {}
        for i, pending in enumerate(s.pending):
            total.update(pending.cards)
            if i == len(s.pending) - 1 and Counter(top.get("cards", ())) == Counter(pending.cards):
                visible.update(pending.cards)
                continue
            victim = pending.target
            if pending.seat == seat and pending.kind == "wizard" and victim >= 0:
                if victim not in shown_hands:
                    visible.update(s.players[victim].hand)
                shown_hands.add(victim)
            if pending.seat == seat and pending.kind == "lighthouse":
                deck_shown = True
            if _pending_visible(pending, seat) or not all(c in districts for c in pending.cards):
                # Unknown kinds about something other than district cards are left as they are.
                visible.update(pending.cards)
            else:
                self.hidden_pending.append((i, len(pending.cards)))
        self.deck_shown = deck_shown
        self.deck = sorted(s.deck) if deck_shown else []
        if deck_shown:
            visible.update(self.deck)
        self.unseen = sorted((total - visible).elements())
        self.hands = [(p.seat, len(p.hand)) for p in s.players if p.seat not in shown_hands]
        self.museums = [(p.seat, len(p.museum)) for p in s.players if p.seat != seat and p.museum]

    def known(self, s: GameState, seat: int) -> dict[int, Counter[str]]:
        """What :func:`track_hands` knows of the hands dealt here, kept within the unseen
        cards (in seat order) and within each hand's size; a hand it cannot fit is left
        unknown."""
        tracked = track_hands(s, seat)
        pool: Counter[str] = Counter(self.unseen)
        out: dict[int, Counter[str]] = {}
        for other, size in self.hands:
            cards = tracked[other] & pool
            if cards and cards.total() <= size:
                pool -= cards
                out[other] = cards
        return out


def known_hand_cards(s: GameState, seat: int) -> dict[int, Counter[str]]:
    """For each other seat whose hand ``seat`` cannot see, the cards ``seat`` knows it holds
    (:func:`track_hands`), as the samples deal them: none that the seat can see elsewhere,
    never more than the hand holds. Seats it knows nothing of are left out."""
    return _Unseen(s, seat).known(s, seat)


# --- hidden parts: the 2016 markers ---------------------------------------------------------


def _round_events(s: GameState) -> list[Event]:
    start = next((i for i in range(len(s.log) - 1, -1, -1) if s.log[i].kind == "round"), 0)
    return s.log[start:]


def resample_warrants(s: GameState, seat: int) -> Resampler | None:
    """Which of the Magistrate's three warrants is signed (R-24): known to him only, and
    shown to the others only by a confiscation, which clears the warrants."""
    if not s.warrants or s.magistrate == seat:
        return None
    marked = sorted(s.warrants, key=s.characters.index)

    def resample(t: GameState, rng: random.Random) -> None:
        signed = marked[rng.randrange(len(marked))]
        t.warrants = {c: c == signed for c in marked}

    return resample


def resample_threats(s: GameState, seat: int) -> Resampler | None:
    """Which of the Blackmailer's two threats is flowered (T6): known to him only; a threat
    revealed in a turn shows whether it was (a threat bought off with a ransom shows nothing).
    """
    if not s.threats or s.blackmailer == seat:
        return None
    candidates: list[str] = []
    holder_character: dict[int, str] = {}
    for ev in _round_events(s):
        if ev.kind == "threats":
            candidates = list(ev.data["characters"])
        elif ev.kind in ("reveal", "witch_resumes") and ev.seat is not None:
            holder_character[ev.seat] = ev.data["character"]
        elif ev.kind == "threat_revealed":
            c = holder_character.get(ev.data["target"])
            if ev.data["flowered"]:
                candidates = [c] if c is not None else candidates
            elif c in candidates:
                candidates.remove(c)
    remaining = sorted(s.threats, key=s.characters.index)
    candidates = sorted(candidates or remaining, key=s.characters.index)

    def resample(t: GameState, rng: random.Random) -> None:
        flowered = candidates[rng.randrange(len(candidates))]
        t.threats = {c: c == flowered for c in remaining}

    return resample


# --- hidden part: the generator ---------------------------------------------------------


def reseed_generator(s: GameState, seat: int) -> Resampler:
    """A fresh generator state, so the sample's shuffles do not repeat the real game's."""

    def resample(t: GameState, rng: random.Random) -> None:
        t.rng = t.seed = rng.getrandbits(63)

    return resample


#: Every hidden part, in the order they are resampled (the log first: the character part
#: rewrites some of its events).
HIDDEN_PARTS: list[HiddenPart] = [
    redact_log,
    resample_characters,
    resample_cards,
    resample_warrants,
    resample_threats,
    reseed_generator,
]

#: The parts :meth:`InformationSet.redeal` keeps: the log as redacted and rewritten, and who
#: holds which character.
CHARACTER_PARTS: tuple[HiddenPart, ...] = (redact_log, resample_characters)


# --- the public face ------------------------------------------------------------------------


class InformationSet:
    """What ``seat`` knows of a game at one moment; ``sample(rng)`` deals a full game from it.

    Built once (the costly part: reading the log, counting consistent assignments), then
    sampled many times (a copy and a few shuffles). It keeps no hidden part of the real game:
    its own template is already a sample.
    """

    __slots__ = ("_base", "_redealers", "_resamplers", "_setup", "seat")

    def __init__(self, game: Game, seat: Checked) -> None:
        n = game.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be an integer from 0 to {n - 1}, not {seat!r}")
        record = game.record()
        self._build(game.state, seat, {k: record[k] for k in ("edition", "players", "options")})

    def _build(self, real: GameState, seat: int, setup: dict[str, Any]) -> None:
        self.seat = seat
        resamplers = [part(real, seat) for part in HIDDEN_PARTS]
        self._resamplers = [r for r in resamplers if r is not None]
        self._redealers = [
            r
            for part, r in zip(HIDDEN_PARTS, resamplers, strict=True)
            if r is not None and part not in CHARACTER_PARTS
        ]
        self._setup = setup
        base = real.copy()
        for resample in self._resamplers:
            resample(base, random.Random(0))
        self._base = base

    @classmethod
    def from_view(
        cls, view: dict[str, Any], options: dict[str, Any] | None = None
    ) -> InformationSet:
        """What a seat knows, from its view alone (``game.view(seat)`` with the whole log)
        and the game's setup ``options``: no live game needed. It samples exactly the worlds
        the game-based information set samples, with the same ``rng``
        (:func:`citadels.engine.from_view.state_from_view` rebuilds a state that shows the
        seat this view; ``ValueError`` if none does)."""
        from citadels.engine.from_view import state_from_view

        state = state_from_view(view, options)
        setup = {"edition": state.edition.id, "players": len(state.players), "seed": state.seed}
        return cls(Game(state, {**setup, "options": state.options}), view["seat"])

    def sample(self, rng: random.Random) -> Game:
        """A full game consistent with the seat's view, drawn from ``rng``."""
        s = self._base.copy()
        for resample in self._resamplers:
            resample(s, rng)
        return Game(s, {**self._setup, "seed": s.seed})

    def redeal(self, world: GameState, rng: random.Random) -> GameState:
        """A copy of ``world`` (a state :meth:`sample` dealt) with every hidden part but the
        characters' placement (:data:`CHARACTER_PARTS`) dealt again from ``rng``: the cards,
        the 2016 markers, the generator. For a search that weighs the characters' placement
        of a pool of worlds (:class:`citadels.bots.model.WeightedWorlds`); what it returns is
        a world :meth:`sample` could deal."""
        s = world.copy()
        for resample in self._redealers:
            resample(s, rng)
        return s

    @property
    def options(self) -> dict[str, Any]:
        """The game's setup options (what :meth:`from_view` needs beside the view)."""
        return copy_options(self._setup.get("options") or {})

    def view(self, **kwargs: Any) -> dict[str, Any]:
        """The seat's view (the same as in the real game)."""
        return Game(self._base.copy(), {**self._setup, "seed": 0}).view(self.seat, **kwargs)


def determinize(game: Game, seat: Checked, rng: random.Random) -> Game:
    """A complete game consistent with everything ``seat`` knows: same ``view(seat)``, with
    the other hands, the deck order, the unrevealed and face-down characters, the other seats'
    hidden pending cards and the generator resampled from ``rng``.

    To draw many samples of one position, build an :class:`InformationSet` once instead.
    """
    return InformationSet(game, seat).sample(rng)


class SeatSampler:
    """Hands a search bot samples of a live game from one seat's knowledge, and nothing else.

    A game runner creates one per seat and gives it to the bot (``bot.attach(sampler)``);
    the bot asks :meth:`information_set` when it must decide. The real game stays private:
    everything this returns is a function of the seat's view.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    def information_set(self) -> InformationSet:
        """What the seat knows now, ready to be sampled."""
        return InformationSet(self._game, self.seat)

    def sample(self, rng: random.Random) -> Game:
        """One full game consistent with the seat's current view."""
        return determinize(self._game, self.seat, rng)
