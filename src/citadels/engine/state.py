"""The game state and its parts, with a cheap hand-written ``copy()``.

The state is plain mutable data; the rules modules change it. Nothing here knows the rules
except the few helpers that every rule needs (drawing, shuffling, the district count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from citadels import rng
from citadels.editions import Edition
from citadels.engine.actions import Build, KeepCards, PickCharacter, cached

if TYPE_CHECKING:
    from citadels.engine.characters import CharacterPower
    from citadels.engine.events import RenderedLog

SELECTION: Final = "selection"
TURNS: Final = "turns"
OVER: Final = "over"

#: Turn modes (see ``Turn.mode``).
NORMAL: Final = "normal"
GATHER_ONLY: Final = "gather_only"
BEWITCHED: Final = "bewitched"
WITCH: Final = "witch"
THREATENED: Final = "threatened"

#: ``Pending.keep`` of a "give_crown" decision: who settles the Emperor's tribute
#: (`classic`: the receiver; `2016`: the Emperor; a killed 2016 Emperor: nobody, R-27).
RECEIVER_PAYS: Final = 0
EMPEROR_TAKES: Final = 1
NO_TRIBUTE: Final = 2


class Event:
    """Something that happened. ``data`` is public; ``secret`` is seen only by ``viewers``.

    Never changed once logged (copies of a game share their events). A plain class with
    slots, not a named tuple: compiled with mypyc (``citadels.compiled``) it is built at C
    speed, where a tuple subclass costs a Python-level call per event; in pure Python both
    cost the same. Two events are equal when their five fields are."""

    __slots__ = ("data", "kind", "seat", "secret", "viewers")

    def __init__(
        self,
        kind: str,
        seat: int | None,
        data: dict[str, Any],
        secret: dict[str, Any] | None = None,
        viewers: tuple[int, ...] = (),
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.data = data
        self.secret = secret
        self.viewers = viewers

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.seat == other.seat
            and self.data == other.data
            and self.secret == other.secret
            and self.viewers == other.viewers
        )

    __hash__ = None  # type: ignore[assignment]  # mutable dicts inside: unhashable

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, seat={self.seat!r}, data={self.data!r}, "
            f"secret={self.secret!r}, viewers={self.viewers!r})"
        )


# A note on ``__new__``: the ``copy()`` methods build an instance without running
# ``__init__`` (``Player.__new__(Player)``), then set every attribute. Compiled with mypyc
# (``citadels.compiled``), that call runs ``__init__`` unless the class spells out a
# ``__new__`` returning ``object.__new__(cls)``, so the classes copied this way do. Their
# ``__init__`` must not raise: mypyc loses an exception raised in an ``__init__`` of a class
# with its own ``__new__``.


class CardFacts:
    """The printed facts of an edition's cards, as plain dicts, and the shared actions that
    name one card: read at every decision (a build's price, a district's colour, a
    character's rank and income colour, the builds and picks on offer), where the edition's
    read-only mappings of card records cost more. One per edition, shared."""

    __slots__ = (
        "automatic_income",
        "build",
        "character_colour",
        "cost",
        "district_colour",
        "edition_id",
        "free_order",
        "keep",
        "pick",
        "powers",
        "rank",
    )

    def __init__(self, edition: Edition) -> None:
        self.edition_id: str = edition.id
        """The edition's id (read where the rules vary by edition, without the edition's
        slower attribute access)."""
        self.automatic_income: bool = edition.automatic_income
        """The edition's ``automatic_income`` (B-1), read at every turn."""
        self.free_order: bool = edition.free_order
        """The edition's ``free_order``, read at every turn's legal actions."""
        self.powers: dict[str, CharacterPower] = {}
        """Character id -> its power as the edition plays it: filled by ``rules.power_of``
        (from ``rules.POWERS_BY_EDITION``) when first asked."""
        self.cost: dict[str, int | None] = {d: c.cost for d, c in edition.districts.items()}
        """District id -> printed cost (``None``: can never be built)."""
        self.district_colour: dict[str, str] = {d: c.colour for d, c in edition.districts.items()}
        self.rank: dict[str, int] = {c: ch.rank for c, ch in edition.characters.items()}
        self.character_colour: dict[str, str | None] = {
            c: ch.colour for c, ch in edition.characters.items()
        }
        """Character id -> the colour it collects income for (``None``: none)."""
        self.build: dict[str, Build] = {d: cached(Build, d) for d in edition.districts}
        """District id -> the shared ``Build`` action (in nearly every turn's legal actions)."""
        self.keep: dict[str, KeepCards] = {d: cached(KeepCards, (d,)) for d in edition.districts}
        """District id -> the shared ``KeepCards`` action keeping that one card (C-7)."""
        self.pick: dict[str, PickCharacter] = {
            c: cached(PickCharacter, c) for c in edition.characters
        }
        """Character id -> the shared ``PickCharacter`` action."""


#: ``CardFacts`` by edition (the edition is kept with them: ids of live objects only).
_FACTS: Final[dict[int, tuple[Edition, CardFacts]]] = {}


def card_facts(edition: Edition) -> CardFacts:
    """The shared ``CardFacts`` of ``edition``."""
    known = _FACTS.get(id(edition))
    if known is None or known[0] is not edition:
        known = _FACTS[id(edition)] = (edition, CardFacts(edition))
    return known[1]


class Player:
    """One seat: gold, hand, city and the characters held this round."""

    __slots__ = (
        "beautified",
        "built_round",
        "characters",
        "city",
        "gold",
        "hand",
        "museum",
        "quarry_duplicate",
        "seat",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> Player:
        # See the note above ``Player``.
        return object.__new__(cls)

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.gold = 0
        self.hand: list[str] = []
        self.city: list[str] = []
        self.built_round: list[int] = []
        """For each district of ``city``, the round in which it was built or arrived."""
        self.characters: list[str] = []
        self.beautified: list[str] = []
        """Districts of the city holding the Artist's gold (R-1), one entry per district."""
        self.museum: list[str] = []
        """Cards tucked beneath the Museum, face down (R-19)."""
        self.quarry_duplicate: str | None = None
        """The name the Quarry allowed a second copy of (R-12: one at a time in `classic`)."""

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.seat = self.seat
        p.gold = self.gold
        p.hand = self.hand[:]
        p.city = self.city[:]
        p.built_round = self.built_round[:]
        p.characters = self.characters[:]
        p.beautified = self.beautified[:]
        p.museum = self.museum[:]
        p.quarry_duplicate = self.quarry_duplicate
        return p

    def add_to_city(self, district: str, round_no: int) -> None:
        self.city.append(district)
        self.built_round.append(round_no)

    def remove_from_city(self, district: str) -> int:
        """Take one copy of ``district`` out of the city; returns the round it was built."""
        i = self.city.index(district)
        del self.city[i]
        return self.built_round.pop(i)


class Turn:
    """The turn being played: who, as which character, and what has been done so far."""

    __slots__ = (
        "artist",
        "build_gold",
        "build_limit",
        "builds",
        "built",
        "character",
        "duplicates",
        "ending",
        "gathered",
        "income_taken",
        "mode",
        "paid_builds",
        "power_used",
        "seat",
        "used",
    )

    def __new__(cls, seat: int = 0, character: str = "", build_limit: int = 0) -> Turn:
        # See the note above ``Player``. The arguments of ``__init__`` spelled out, not
        # ``*args, **kwargs``: compiled, every turn would build a tuple and a dict for them.
        return object.__new__(cls)

    def __init__(self, seat: int, character: str, build_limit: int) -> None:
        self.seat = seat
        self.character = character
        self.build_limit = build_limit
        self.builds = 0
        self.gathered = False
        self.income_taken = False
        self.power_used = False
        self.ending = False
        """Set when an action ends the turn by itself (the classic Warlord's destroy, K-4)."""
        self.used: tuple[str, ...] = ()
        """Once-per-turn district powers already used this turn."""
        self.mode = NORMAL
        """``NORMAL``; ``GATHER_ONLY`` (murdered owner of a Hospital, R-16); ``BEWITCHED``
        (the bewitched holder, R-26); ``WITCH`` (the Witch before she bewitches, R-26);
        ``THREATENED`` (a threatened player before the threat is resolved, T6 Blackmailer)."""
        self.built = 0
        """Districts built this turn, inside or outside the limit (tax, R-25)."""
        self.build_gold = 0
        """Gold paid to build this turn (the Alchemist's refund)."""
        self.duplicates = False
        """Whether names already in the city may be built this turn (Wizard, R-30)."""
        self.artist = 0
        """Districts beautified this turn (Artist: up to 2)."""
        self.paid_builds = 0
        """Builds paid in gold this turn (the Magistrate's warrant bites the first, R-24)."""

    def copy(self) -> Turn:
        t = Turn.__new__(Turn)
        t.seat = self.seat
        t.character = self.character
        t.build_limit = self.build_limit
        t.builds = self.builds
        t.gathered = self.gathered
        t.income_taken = self.income_taken
        t.power_used = self.power_used
        t.ending = self.ending
        t.used = self.used
        t.mode = self.mode
        t.built = self.built
        t.build_gold = self.build_gold
        t.duplicates = self.duplicates
        t.artist = self.artist
        t.paid_builds = self.paid_builds
        return t


class Pending:
    """A decision that interrupts the flow: keep drawn cards, the Magician's discards, the
    Graveyard offer. ``cards`` are the cards it is about (drawn, discarded, destroyed)."""

    __slots__ = ("cards", "keep", "kind", "seat", "seats", "target")

    def __init__(
        self,
        kind: str,
        seat: int,
        cards: list[str],
        keep: int = 0,
        target: int = -1,
        seats: list[int] | None = None,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.cards = cards
        """Cards out of play while the decision is open (drawn, discarded, destroyed, paid)."""
        self.keep = keep
        """A count: cards to keep, gold still to pay, cards still to give."""
        self.target = target
        """Another seat the decision is about (the Wizard's victim, the Emperor, a payee)."""
        self.seats = seats if seats is not None else []
        """Seats still waiting (the Seer's gifts)."""

    def copy(self) -> Pending:
        return Pending(self.kind, self.seat, self.cards[:], self.keep, self.target, self.seats[:])


class GameState:
    """Everything about one game. Mutated in place by the rules; ``copy()`` is cheap."""

    __slots__ = (
        "base_complete_at",
        "bell_tower",
        "bewitched",
        "blackmailer",
        "builders",
        "cards",
        "characters",
        "complete_at",
        "crown",
        "deck",
        "edition",
        "extra_first",
        "facedown",
        "faceup",
        "first_complete",
        "holders",
        "log",
        "magistrate",
        "murdered",
        "next_call",
        "options",
        "pending",
        "phase",
        "players",
        "pool",
        "queen_late",
        "rendered",
        "revealed",
        "rng",
        "robbed",
        "robber",
        "round",
        "seed",
        "steps",
        "tax_collector",
        "tax_token",
        "threats",
        "turn",
        "warrants",
        "witch",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> GameState:
        # See the note above ``Player``.
        return object.__new__(cls)

    def __init__(self, edition: Edition, players: int, options: dict[str, Any], seed: int) -> None:
        self.edition = edition
        self.cards = card_facts(edition)
        """The edition's card facts as plain dicts (``CardFacts``)."""
        self.options = options
        self.seed = seed
        self.rng = rng.seed_state(seed)
        self.players = [Player(i) for i in range(players)]
        self.deck: list[str] = []
        """The district deck; the top card is the last element."""
        self.characters: tuple[str, ...] = ()
        """The game's character set, ordered by rank."""
        self.complete_at = 8
        """N, the districts that complete a city now (7 after a Bell Tower, R-14)."""
        self.base_complete_at = 8
        """N as set up for the game."""
        self.bell_tower: int | None = None
        """The seat whose Bell Tower announcement stands (R-14)."""
        self.extra_first: list[int] = []
        """Seats that also score as first completers (Bell Tower announcement, R-14)."""
        self.crown = 0
        self.round = 0
        self.phase = SELECTION
        self.first_complete: int | None = None
        # Round state.
        self.pool: list[str] = []
        """Characters still on offer during selection."""
        self.faceup: list[str] = []
        self.facedown: list[str] = []
        """Characters out of the round face down: the C-3 card, put-asides, the last card."""
        self.steps: list[tuple[int, str]] = []
        """Remaining selection steps: (seat, "pick" | "put_aside")."""
        self.holders: dict[str, int] = {}
        self.revealed: dict[str, int] = {}
        self.murdered: str | None = None
        self.robbed: str | None = None
        self.robber: int | None = None
        """The seat of the Thief who named ``robbed``."""
        self.next_call = 0
        """Index into ``characters`` of the next character to call."""
        self.bewitched: str | None = None
        self.witch: int | None = None
        """The Witch's seat while her bewitchment stands (R-26)."""
        self.tax_collector: int | None = None
        """The seat collecting the Tax Collector's tax this round (R-25)."""
        self.builders: list[int] = []
        """Seats that built, one entry per finished turn with a build, this round."""
        self.queen_late: int | None = None
        """The Queen's seat owed 3 gold when the murdered rank-4 holder is revealed (R-28)."""
        self.warrants: dict[str, bool] = {}
        """The Magistrate's warrants: character -> signed (R-24). Which is signed is secret."""
        self.magistrate: int | None = None
        self.threats: dict[str, bool] = {}
        """The Blackmailer's threats: character -> flowered. Which is flowered is secret."""
        self.blackmailer: int | None = None
        self.tax_token = 0
        """Gold on the 2016 Tax Collector's token (R-25); it carries over between rounds."""
        self.turn: Turn | None = None
        self.pending: list[Pending] = []
        self.log: list[Event] = []
        self.rendered: dict[int | None, RenderedLog] | None = None
        """Each viewer's rendering of ``log``, kept by the views (not part of the game: a
        copy starts without it)."""

    # --- copy -----------------------------------------------------------------------------

    def copy(self) -> GameState:
        """An independent copy (events are immutable and shared)."""
        s = GameState.__new__(GameState)
        s.edition = self.edition
        s.cards = self.cards
        s.options = self.options
        s.seed = self.seed
        s.rng = self.rng
        s.players = [p.copy() for p in self.players]
        s.deck = self.deck[:]
        s.characters = self.characters
        s.complete_at = self.complete_at
        s.base_complete_at = self.base_complete_at
        s.bell_tower = self.bell_tower
        s.extra_first = self.extra_first[:]
        s.crown = self.crown
        s.round = self.round
        s.phase = self.phase
        s.first_complete = self.first_complete
        s.pool = self.pool[:]
        s.faceup = self.faceup[:]
        s.facedown = self.facedown[:]
        s.steps = self.steps[:]
        s.holders = self.holders.copy()
        s.revealed = self.revealed.copy()
        s.murdered = self.murdered
        s.robbed = self.robbed
        s.robber = self.robber
        s.next_call = self.next_call
        s.bewitched = self.bewitched
        s.witch = self.witch
        s.tax_collector = self.tax_collector
        s.builders = self.builders[:]
        s.queen_late = self.queen_late
        s.warrants = self.warrants.copy()
        s.magistrate = self.magistrate
        s.threats = self.threats.copy()
        s.blackmailer = self.blackmailer
        s.tax_token = self.tax_token
        s.turn = self.turn.copy() if self.turn is not None else None
        s.pending = [p.copy() for p in self.pending]
        s.log = self.log[:]
        s.rendered = None
        return s

    # --- randomness -----------------------------------------------------------------------

    def randbelow(self, n: int) -> int:
        """A random integer in ``range(n)`` from the game's own generator."""
        self.rng, bits = rng.next_state(self.rng)
        return bits % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle in place (Fisher–Yates) with the game's own generator."""
        self.rng = rng.shuffle(self.rng, items)

    # --- cards ----------------------------------------------------------------------------

    def draw(self, n: int) -> list[str]:
        """Take up to ``n`` cards from the top of the deck (fewer if it runs short, C-7)."""
        deck = self.deck
        if n <= 0:
            # ``deck[-0:]`` would be the whole deck (the Spy with no matching card).
            return []
        if n >= len(deck):
            drawn = deck[::-1]
            deck.clear()
            return drawn
        drawn = deck[-n:]
        del deck[-n:]
        drawn.reverse()
        return drawn

    def to_bottom(self, cards: list[str]) -> None:
        """Put cards face down on the bottom of the deck (C-7, C-11)."""
        self.deck[0:0] = cards

    def log_event(
        self,
        kind: str,
        seat: int | None,
        data: dict[str, Any],
        secret: dict[str, Any] | None = None,
        viewers: tuple[int, ...] = (),
    ) -> None:
        self.log.append(Event(kind, seat, data, secret, viewers))

    # --- derived facts --------------------------------------------------------------------

    def rank(self, character: str) -> int:
        return self.cards.rank[character]

    def city_size(self, seat: int) -> int:
        """Districts counted toward N: the Monument counts as two (N-4, R-22)."""
        city = self.players[seat].city
        return len(city) + 1 if "monument" in city else len(city)

    def is_complete(self, seat: int) -> bool:
        """Whether the seat's city is completed (C-14: at least N districts)."""
        return self.city_size(seat) >= self.complete_at
