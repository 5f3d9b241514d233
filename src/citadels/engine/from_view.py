"""Determinization from a seat's view alone: no live game needed.

:func:`state_from_view` rebuilds a complete :class:`~citadels.engine.state.GameState` from what
``game.view(seat)`` shows (with its whole log) and the game's setup options, which every
player knows. Each hidden part is filled arbitrarily but consistently: the other seats' hands
and the deck are dealt from the cards the seat has not seen (the setup's deck minus every card
it can see), the characters nobody showed go wherever the counts allow. The internal counters
the view does not list (who robbed, the next character to call, the cards built this turn, …)
are read back from the log, where every one of them left a public trace.

The rebuilt state shows the seat exactly its view (:func:`state_from_view` checks it and raises
``ValueError`` otherwise), so the hidden-part resamplers of :mod:`citadels.engine.determinize`
(each of which reads only what the seat may know) deal from it the same worlds, with the same
``rng``, as from the live game: :meth:`InformationSet.from_view
<citadels.engine.determinize.InformationSet.from_view>` and :func:`determinize_view` are the
game-free faces of :class:`~citadels.engine.determinize.InformationSet` and
:func:`~citadels.engine.determinize.determinize`.

What the view does not carry is the setup options (the preset, the chosen characters and
purple districts decide which cards the deck holds): they are an argument here, and a client
knows them from the table it joined.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from citadels.editions import END_OF_TURN, canonical_options, get_edition, resolve_setup
from citadels.engine import districts, effects, rules, views
from citadels.engine.state import (
    BEWITCHED,
    EMPEROR_TAKES,
    GATHER_ONLY,
    NO_TRIBUTE,
    RECEIVER_PAYS,
    SELECTION,
    Event,
    GameState,
    Pending,
    Turn,
)

#: The secret fields of each kind of event (the ones its viewers alone see, C-10).
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "deal": ("districts",),
    "put_aside": ("character",),
    "look_facedown": ("character",),
    "pick": ("character", "offered"),
    "income": ("districts",),
    "gather_cards": ("districts",),
    "keep": ("districts",),
    "redraw": ("discarded", "drawn"),
    "extra_cards": ("districts",),
    "laboratory": ("district",),
    "smithy": ("districts",),
    "lighthouse": ("district",),
    "museum": ("district",),
    "park": ("districts",),
    "give_card": ("district",),
    "warrants": ("signed",),
    "threats": ("flowered",),
    "spy": ("hand", "drawn"),
    "tribute": ("district",),
    "study": ("districts",),
    "seer_take": ("district",),
    "seer_give": ("district",),
    "take_card": ("district",),
    "look_at_hand": ("hand",),
    "theater": ("gave", "got"),
}

#: Events whose secret a second seat sees too: the public field that names it.
SECOND_VIEWER: dict[str, str] = {
    "give_card": "to",
    "seer_give": "to",
    "seer_take": "from",
    "take_card": "from",
    "theater": "with",
    "tribute": "emperor",
}

#: Once-per-turn district powers, by the event their use logs (``Turn.used``).
ONCE_PER_TURN = ("laboratory", "smithy", "armory", "museum")

#: Events announcing that the next build is not paid in gold (Framework, Necropolis).
FREE_BUILDS = ("sacrifice",)


def event_from_view(ev: dict[str, Any], seat: int, edition: str) -> Event:
    """The engine event behind one entry of ``seat``'s log view: its secret part split off
    again when the seat was shown it (with the seats it was shown to)."""
    kind = ev["kind"]
    who = ev["seat"]
    fields = SECRET_FIELDS.get(kind, ())
    data = {k: v[:] if type(v) is list else v for k, v in ev.items() if k not in ("kind", "seat")}
    if not fields or not any(k in data for k in fields):
        return Event(kind, who, data)
    secret = {k: data.pop(k) for k in fields if k in data}
    other = SECOND_VIEWER.get(kind)
    viewers: tuple[int, ...] = (who,)
    if other is not None:
        second = data[other]
        assert type(second) is int
        # The 2016 Emperor takes the tribute card himself: he is its event's first viewer.
        flip = kind == "tribute" and edition == "2016"
        viewers = (second, who) if flip else (who, second)
    if seat not in viewers:
        raise ValueError(f"a {kind} event shows seat {seat} a secret it was not shown")
    return Event(kind, who, data, secret, viewers)


def _current_round(log: list[Event]) -> int:
    return next((i for i in range(len(log) - 1, -1, -1) if log[i].kind == "round"), 0)


def _selection_steps_done(events: list[Event], total: int) -> int:
    """How many selection steps this round's events account for (as ``_SelectionModel``
    counts them: a pick is a step; a put-aside is one unless it is the C-5 chooser's swap or
    a card left over once the steps are done)."""
    done = 0
    look_seat: int | None = None
    chooser_picked = False
    swapped = False
    for ev in events:
        if ev.kind == "look_facedown":
            look_seat = ev.seat
        elif ev.kind == "pick":
            if ev.seat == look_seat and done == total - 1:
                chooser_picked = True
            done += 1
        elif ev.kind == "put_aside":
            if ev.seat == look_seat and chooser_picked and not swapped:
                swapped = True
            elif done < total:
                done += 1
    return done


def _fill_turn(s: GameState, view: dict[str, Any], events: list[Event]) -> None:
    """The turn being played: what the view lists, and the counters read from its events."""
    tv = view.get("turn")
    if tv is None:
        s.turn = None
        return
    t = Turn(tv["seat"], tv["character"], tv["build_limit"])
    t.builds = tv["builds"]
    t.gathered = tv["gathered"]
    t.income_taken = tv["income_taken"]
    t.power_used = tv["power_used"]
    t.mode = tv["mode"]
    start = 0
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if ev.kind in ("reveal", "witch_resumes") and ev.data.get("character") == t.character:
            start = i
            break
    used: list[str] = []
    free_build = False
    for ev in events[start + 1 :]:
        kind = ev.kind
        if kind == "build" and ev.seat == t.seat:
            t.built += 1
            t.build_gold += ev.data.get("paid", 0)
            if not free_build:
                t.paid_builds += 1
            free_build = False
        elif kind in FREE_BUILDS and ev.seat == t.seat:
            free_build = True
        elif kind == "confiscate":
            t.paid_builds += 1
        elif kind in ONCE_PER_TURN and ev.seat == t.seat:
            used.append(kind)
        elif kind == "beautify" and ev.seat == t.seat:
            t.artist += 1
        elif kind == "bewitch" and ev.seat == t.seat:
            t.ending = True  # the Witch's turn pauses once she has bewitched
        elif kind in ("destroy", "exchange_district") and ev.seat == t.seat:
            # K-4: in `classic` the Warlord's (and Diplomat's) power ends the turn.
            t.ending = t.ending or s.edition.warlord_timing == END_OF_TURN
    pending = view.get("pending")
    if pending is not None and pending["kind"] == "confiscate":
        t.paid_builds += 1  # the build the Magistrate is deciding on
    if t.gathered and t.mode in (GATHER_ONLY, BEWITCHED):
        t.ending = True  # such a turn is only a gather
    t.used = tuple(used)
    if t.character == "wizard" and t.mode != BEWITCHED:
        # the Wizard's turn allows duplicate names from its start (its power says so
        # on start; it touches nothing but the turn).
        rules.power_of(s, "wizard").on_start(s, t)
    s.turn = t


def state_from_view(view: dict[str, Any], options: dict[str, Any] | None = None) -> GameState:
    """A complete state that shows the view's seat exactly ``view`` (taken with its whole
    log, ``log_from=0``), its hidden parts filled arbitrarily but consistently.

    ``options`` are the game's setup options (as given to ``new_game``; ``None``: none).
    ``ValueError`` if the view is not a seat's view with its whole log, or if no state of
    this setup shows it.
    """
    seat = view.get("seat")
    if type(seat) is not int:
        raise ValueError("a seat's view is needed (a spectator's view hides too much)")
    log_view = view["log"]
    if not log_view or log_view[0]["kind"] != "setup":
        raise ValueError("the view must carry its whole log (view(seat), not log_from=…)")
    edition = get_edition(view["edition"])
    n = len(view["players"])
    opts = canonical_options(edition, dict(options or {}))
    chosen = resolve_setup(edition, n, opts)
    s = GameState(edition, n, opts, 0)
    s.characters = tuple(view["characters_in_play"])
    if set(s.characters) != set(chosen.characters):
        raise ValueError("the view's characters are not the ones these options set up")
    s.base_complete_at = chosen.complete_at
    s.complete_at = view["complete_at"]
    s.log = [event_from_view(ev, seat, edition.id) for ev in log_view]
    for key in ("round", "phase", "crown", "first_complete", "bell_tower", "murdered", "robbed"):
        setattr(s, key, view[key])
    s.bewitched = view["bewitched"]
    s.tax_collector = view["tax_collector"]
    s.tax_token = view["tax_token"]
    s.extra_first = view["extra_first"][:]
    s.faceup = view["faceup_removed"][:]
    s.revealed = dict(view["revealed"])

    start = _current_round(s.log)
    events = s.log[start:]
    # Round-level facts from the round's events.
    counts = [0] * n
    own_order: list[str] = []
    builders: list[int] = []
    built_in_turn: dict[int, int] = {}
    for ev in events:
        kind = ev.kind
        if kind == "pick" and ev.seat is not None:
            counts[ev.seat] += 1
            if ev.seat == seat and ev.secret is not None:
                own_order.append(ev.secret["character"])
        elif kind in ("call", "reveal"):
            s.next_call = max(s.next_call, s.characters.index(ev.data["character"]) + 1)
            if kind == "reveal" and ev.seat is not None:
                built_in_turn[ev.seat] = 0
        elif kind == "witch_resumes" and ev.seat is not None:
            built_in_turn[ev.seat] = 0
        elif kind == "build" and ev.seat is not None and ev.seat in built_in_turn:
            built_in_turn[ev.seat] += 1
        elif kind == "end_turn" and ev.seat is not None:
            if built_in_turn.pop(ev.seat, 0):
                builders.append(ev.seat)
        elif kind == "theater" and ev.secret is not None:
            # the swapped characters trade places; a seat that took part saw both.
            mine, theirs = (
                (ev.secret["gave"], ev.secret["got"])
                if ev.seat == seat
                else (ev.secret["got"], ev.secret["gave"])
            )
            own_order = [theirs if c == mine else c for c in own_order]
        elif kind == "rob":
            s.robber = ev.seat
        elif kind == "bewitch":
            s.witch = ev.seat
        elif kind == "warrants":
            s.magistrate = ev.seat
        elif kind == "threats":
            s.blackmailer = ev.seat
    s.builders = builders
    # Who holds which character: own ones in pick order, revealed ones where they are, the
    # rest anywhere the counts allow (the resampler deals them again).
    me = view["players"][seat]
    own = me["characters"]
    if sorted(own_order) != sorted(own):
        raise ValueError("the seat's characters are not the ones its log shows it picked")
    if view["phase"] == "over":
        counts = [len(p["characters"]) for p in view["players"]]
    counts[seat] = len(own_order)
    shown = {p["seat"]: list(p["characters"]) for p in view["players"] if p["seat"] != seat}
    known = set(own_order) | set(view["known_facedown"])
    known.update(c for cs in shown.values() for c in cs)
    free = [c for c in s.characters if c not in known and c not in s.faceup]
    selection = view.get("selection")
    remaining = selection["remaining"] if selection is not None else 0
    offered = [c for c in (selection or {}).get("offered", ()) if c in free]
    pool = offered if offered else free[len(free) - remaining :]
    free = [c for c in free if c not in pool]
    held: list[list[str]] = [[] for _ in range(n)]
    held[seat] = own_order[:]
    for other, cs in shown.items():
        held[other] = cs  # revealed ones (every one once the game is over)
    for p in view["players"]:
        other = p["seat"]
        if other == seat:
            continue
        while len(held[other]) < counts[other]:
            held[other].append(free.pop(0))
    facedown = list(view["known_facedown"])
    while len(facedown) < view["facedown_count"]:
        facedown.append(free.pop(0))
    s.facedown = facedown
    s.pool = sorted(pool, key=s.characters.index)
    if free or len(pool) != remaining:
        raise ValueError("the view's character counts do not add up")
    for p in s.players:
        p.characters = held[p.seat]
    s.holders = {c: p.seat for p in s.players for c in p.characters}
    if s.phase == SELECTION:
        total = rules.selection_steps(s)
        s.steps = total[_selection_steps_done(events, len(total)) :]
    # The 2016 markers: which one is signed or flowered is dealt again unless the seat knows.
    signed = view.get("signed_warrant")
    warrants = view["warrants"]
    s.warrants = {c: c == (signed or warrants[0]) for c in warrants}
    threats = view["threats"]
    flowered = view.get("flowered_threat", threats[0] if threats else None)
    s.threats = {c: c == flowered for c in threats}
    _fill_turn(s, view, events)
    # The cards: the seat's own, every city, and the rest dealt from what it has not seen.
    _fill_cards(s, view, chosen.deck)
    _check(s, view)
    return s


def _cities(s: GameState) -> tuple[dict[int, list[tuple[str, int]]], dict[int, str]]:
    """Every city as its events built it: per seat, each district with the round it was
    built in (builds and confiscations add one; the Diplomat's exchange and the 2016
    Warlord's seizure move one with its round; destructions, the Armory and a Framework's
    sacrifice take one out, the first of its name, as the engine does); and the name each
    seat's Quarry last allowed a second copy of (R-12)."""
    cities: dict[int, list[tuple[str, int]]] = {p.seat: [] for p in s.players}
    quarry: dict[int, str] = {}
    round_no = 0
    wizard: int | None = None

    def leave(seat: int, district: str) -> tuple[str, int] | None:
        entries = cities[seat]
        k = next((k for k, e in enumerate(entries) if e[0] == district), None)
        return entries.pop(k) if k is not None else None

    def move(source: int, dest: int, district: str) -> None:
        entry = leave(source, district)
        if entry is not None:
            cities[dest].append(entry)

    for ev in s.log:
        kind = ev.kind
        who = ev.seat
        data = ev.data
        if kind == "round":
            round_no = data["round"]
        elif kind in ("reveal", "witch_resumes"):
            wizard = who if data.get("character") == "wizard" else None
        elif kind == "build" and who is not None:
            d = data["district"]
            names = [e[0] for e in cities[who]]
            if d in names and "quarry" in names and wizard != who:
                quarry[who] = d
            cities[who].append((d, round_no))
        elif kind == "confiscate" and who is not None:
            cities[who].append((data["district"], round_no))
        elif kind == "exchange_district" and who is not None:
            move(who, data["target"], data["give"])
            move(data["target"], who, data["take"])
        elif kind == "seize" and who is not None:
            move(data["target"], who, data["district"])
        elif kind == "destroy":
            leave(data["target"], data["district"])
        elif kind == "armory" and who is not None:
            leave(who, "armory")
            leave(data["target"], data["district"])
        elif kind == "sacrifice" and who is not None:
            leave(who, data["district"])
    return cities, quarry


def _built_rounds(city: list[str], arrived: list[tuple[str, int]]) -> list[int]:
    """The round each district of ``city`` was built in, as its events tell."""
    if [e[0] for e in arrived] == city:
        return [e[1] for e in arrived]
    raise ValueError("the view's city is not the one its log built")


def _fill_cards(s: GameState, view: dict[str, Any], deck: dict[str, int]) -> None:
    seat = view["seat"]
    unseen: Counter[str] = Counter(deck)
    arrivals, quarry = _cities(s)
    for p, pv in zip(s.players, view["players"], strict=True):
        p.gold = pv["gold"]
        p.city = pv["city"][:]
        p.built_round = _built_rounds(p.city, arrivals[p.seat])
        p.beautified = pv["beautified"][:]
        p.quarry_duplicate = quarry.get(p.seat)
        unseen.subtract(p.city)
    me = s.players[seat]
    me.hand = list(view["players"][seat]["hand"])
    me.museum = list(view["players"][seat]["museum"])
    unseen.subtract(me.hand)
    unseen.subtract(me.museum)
    pv_pending = view.get("pending")
    pending_cards: list[str] = []
    shown_hand: tuple[int, list[str]] | None = None
    shown_deck: list[str] | None = None
    if pv_pending is not None:
        kind = pv_pending["kind"]
        shown = pv_pending.get("cards")
        if kind in ("wizard", "lighthouse"):
            # They show the victim's hand or the deck, not the decision's own cards.
            if shown is not None:
                unseen.subtract(shown)
                if kind == "wizard":
                    shown_hand = (pv_pending["target"], list(shown))
                else:
                    shown_deck = list(shown)
            shown = None
        if shown is None and kind == "cardinal":
            # The district built on the Cardinal's loan is named by the loan's event.
            loan = next(ev for ev in s.log[::-1] if ev.kind == "loan")
            shown = [loan.data["district"]]
        if shown is not None:
            pending_cards = list(shown)
            unseen.subtract(pending_cards)
    if any(v < 0 for v in unseen.values()):
        raise ValueError("the view shows cards this setup's deck does not hold")
    pool = sorted(unseen.elements())
    at = 0

    def take(k: int) -> list[str]:
        nonlocal at
        got = pool[at : at + k]
        at += k
        if len(got) != k:
            raise ValueError("the view holds more hidden cards than the deck has left")
        return got

    for p, pv in zip(s.players, view["players"], strict=True):
        if p.seat != seat:
            if shown_hand is not None and shown_hand[0] == p.seat:
                p.hand = shown_hand[1]
            else:
                p.hand = take(pv["hand_size"])
            p.museum = take(pv["museum_size"])
    s.deck = shown_deck if shown_deck is not None else take(view["deck_size"])
    # The cards left are out of play in the open decision the seat cannot see into (drawn
    # cards not yet kept, the Magician's discards, a Thieves' Den's payment).
    left = take(len(pool) - at)
    if pv_pending is not None:
        s.pending = [_pending(s, pv_pending, pending_cards or left)]
    if left and (pv_pending is None or pending_cards):
        raise ValueError(f"the view leaves {len(left)} cards of the setup's deck unaccounted")


def _pending(s: GameState, pv: dict[str, Any], cards: list[str]) -> Pending:
    """The open decision the view shows, with its count (``keep``) read from the rules."""
    kind = pv["kind"]
    who = pv["seat"]
    target = pv.get("target", -1)
    keep = 0
    if kind == "keep":
        keep = districts.keep_count(s, who, len(cards))
    elif kind == "confiscate":
        # The gold the builder paid (refunded if the Magistrate takes the district): its
        # price, less the cards a Thieves' Den was paid with.
        price = effects.build_price(s, target, cards[0]) or 0
        last = s.log[-1]
        if last.kind == "pay_with_cards" and last.seat == target:
            price -= last.data["cards"]
        keep = price
    elif kind == "cardinal":
        # The cards still to give the lender: the loan less those given since.
        at = next(i for i in range(len(s.log) - 1, -1, -1) if s.log[i].kind == "loan")
        given = sum(1 for ev in s.log[at:] if ev.kind == "give_card" and ev.seat == who)
        keep = s.log[at].data["gold"] - given
    elif kind == "scholar":
        keep = 1
    elif kind == "thieves_den":
        keep = pv["price_left"]
    elif kind == "give_crown":
        keep = RECEIVER_PAYS
        if s.edition.id == "2016":
            keep = EMPEROR_TAKES if s.turn is not None else NO_TRIBUTE
    return Pending(kind, who, cards, keep, target, list(pv.get("seats", ())))


def _check(s: GameState, view: dict[str, Any]) -> None:
    """``ValueError`` unless the rebuilt state shows the seat exactly ``view``."""
    seat = view["seat"]
    legal = rules.legal_actions(s) if rules.to_move(s) == seat else None
    if legal is not None and "legal_actions" not in view:
        legal = None
    again = views.player_view(s, seat, legal, 0)
    if "result" in view:
        # Once the game is over the final scores count the hands (the 2016 Secret Vault):
        # nothing is left to decide, so the other hands are not made to match them.
        again["result"] = view["result"]
    if again != view:
        diff = sorted(k for k in set(again) | set(view) if again.get(k) != view.get(k))
        raise ValueError(f"no state of this setup shows this view (differs in {diff})")


def determinize_view(
    view: dict[str, Any], rng: random.Random, *, options: dict[str, Any] | None = None
) -> Any:
    """A complete game consistent with ``view`` (a seat's view with its whole log), drawn
    from ``rng`` exactly as :func:`~citadels.engine.determinize.determinize` draws from the
    live game. ``options``: the game's setup options. To draw many samples, build
    ``InformationSet.from_view(view, options)`` once instead."""
    from citadels.engine.determinize import InformationSet

    return InformationSet.from_view(view, options).sample(rng)
