"""Actions: small frozen values named after the rulebook's verbs, with a JSON and a text form.

Every decision a player makes is one action. ``legal_actions()`` hands out shared instances
(see :func:`cached`), so a list of legal actions costs no allocation on the hot path; an action
built by hand or read from JSON compares equal to the shared one.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

# ``cached``: the shared instances legal actions are built from (compiled with the engine).
from citadels.engine.shared import cached as cached
from citadels.errors import MalformedAction, describe


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """Base class of every action. ``type`` is the action's name in JSON.

    Only its kinds are actions: ``Action()`` itself raises ``MalformedAction``. Every field
    is checked at construction (a bool or a float is not a seat, a count or an index; a list
    is not a card id), so a mistyped action never exists, let alone equals a legal one.
    """

    type: ClassVar[str] = ""

    def __init__(self) -> None:
        raise MalformedAction(
            "Action is the base class of actions, not an action: build one of its kinds "
            "(see ACTION_TYPES)"
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON object for this action: ``{"type": ..., field: value, ...}``."""
        out: dict[str, Any] = {"type": self.type}
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
        for name in names:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def text(self) -> str:
        """The short text form used in logs and the terminal (``build watchtower``)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()


_A = TypeVar("_A", bound=Action)

#: Each action class's field names, in order (``to_json`` reads them for every legal action).
_FIELD_NAMES: dict[type[Action], tuple[str, ...]] = {}

#: What each field annotation accepts: the check (an expression of ``v``) and its wording.
_CHECKS: dict[str, tuple[str, str]] = {
    "str": ("type(v) is str", "a string (an id)"),
    "int": (
        "type(v) is int and -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF",
        "a 64-bit integer (not a bool or a float)",
    ),
    "bool": ("type(v) is bool", "true or false"),
    "tuple[str, ...]": (
        "type(v) is tuple and all(type(x) is str for x in v)",
        "a tuple of strings (card ids)",
    ),
}


def _refuse(cls: type, field: str, wanted: str, value: Any) -> MalformedAction:
    return MalformedAction(
        f"field {field!r} of {cls.type!r} must be {wanted}, not {describe(value)}"  # type: ignore[attr-defined]
    )


def _typed(cls: type[_A]) -> type[_A]:
    """Give an action class a ``__post_init__`` checking the exact type of each field, and
    its own ``to_json``.

    The check is generated as straight-line code (one ``type(...) is`` test per field), so a
    well-typed action costs next to nothing more to build; classes without fields get none.
    ``to_json`` is one dict display, the same object as :meth:`Action.to_json` builds (views
    list the legal actions of the seat to move every time)."""
    annotations = inspect.get_annotations(cls)
    fields = [(name, ann) for name, ann in annotations.items() if not ann.startswith("ClassVar")]
    items = [f"'type': {cls.type!r}"] + [
        f"{name!r}: list(self.{name})" if ann == "tuple[str, ...]" else f"{name!r}: self.{name}"
        for name, ann in fields
    ]
    code = f"def to_json(self):\n    return {{{', '.join(items)}}}"
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # code built above from the class's own field names only
    to_json = namespace["to_json"]
    to_json.__doc__ = Action.to_json.__doc__
    cls.to_json = to_json  # type: ignore[method-assign]
    if not fields:
        return cls
    lines = ["def __post_init__(self):"]
    for name, ann in fields:
        check, wanted = _CHECKS[ann]
        lines.append(f"    v = self.{name}")
        lines.append(f"    if not ({check}):")
        lines.append(f"        raise _refuse(cls, {name!r}, {wanted!r}, v)")
    namespace = {"_refuse": _refuse, "cls": cls}
    exec("\n".join(lines), namespace)  # code built above from fixed templates only
    cls.__post_init__ = namespace["__post_init__"]  # type: ignore[attr-defined]
    return cls


def _name(card_id: str) -> str:
    return card_id.replace("_", " ")


# --- character selection ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class PickCharacter(Action):
    """Keep this character from the ones offered (C-4, C-5, B-4, D-3, D-4)."""

    type: ClassVar[str] = "pick"
    character: str

    def text(self) -> str:
        return f"pick {_name(self.character)}"


@dataclass(frozen=True, slots=True)
@_typed
class PutAsideCharacter(Action):
    """Put this offered character aside face down (two-player selection, D-3, K-2)."""

    type: ClassVar[str] = "put_aside"
    character: str

    def text(self) -> str:
        return f"put aside {_name(self.character)}"


# --- the turn: gather, income, build, end ---------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class GatherGold(Action):
    """Gather: take 2 gold from the bank (C-7)."""

    type: ClassVar[str] = "gather_gold"

    def text(self) -> str:
        return "take gold"


@dataclass(frozen=True, slots=True)
@_typed
class GatherCards(Action):
    """Gather: draw ``count`` district cards and keep some (C-7; 3 with the Observatory)."""

    type: ClassVar[str] = "gather_cards"
    count: int = 2

    def text(self) -> str:
        return f"draw {self.count} cards"


@dataclass(frozen=True, slots=True)
@_typed
class KeepCards(Action):
    """Keep these drawn cards; the others go to the bottom of the deck (C-7)."""

    type: ClassVar[str] = "keep"
    districts: tuple[str, ...]

    def text(self) -> str:
        return "keep " + " and ".join(_name(d) for d in self.districts)


@dataclass(frozen=True, slots=True)
@_typed
class TakeIncome(Action):
    """Collect the character's income for districts of its colour, once per turn (C-9).

    ``cards`` is how much of it comes as cards instead of gold: all of it for the 2016
    Patrician and Cardinal, any split for the 2016 Abbot, none otherwise."""

    type: ClassVar[str] = "take_income"
    cards: int = 0

    def text(self) -> str:
        return f"take income ({self.cards} as cards)" if self.cards else "take income"


@dataclass(frozen=True, slots=True)
@_typed
class Build(Action):
    """Build a district from hand by paying its cost (C-8)."""

    type: ClassVar[str] = "build"
    district: str

    def text(self) -> str:
        return f"build {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class EndTurn(Action):
    """End the turn (after gathering)."""

    type: ClassVar[str] = "end_turn"

    def text(self) -> str:
        return "end turn"


# --- character powers -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class Murder(Action):
    """Assassin: name the character to murder (C-20)."""

    type: ClassVar[str] = "murder"
    character: str

    def text(self) -> str:
        return f"murder {_name(self.character)}"


@dataclass(frozen=True, slots=True)
@_typed
class Rob(Action):
    """Thief: name the character to rob (C-21)."""

    type: ClassVar[str] = "rob"
    character: str

    def text(self) -> str:
        return f"rob {_name(self.character)}"


@dataclass(frozen=True, slots=True)
@_typed
class ExchangeHands(Action):
    """Magician: exchange the whole hand with another seat's whole hand (C-22)."""

    type: ClassVar[str] = "exchange_hands"
    seat: int

    def text(self) -> str:
        return f"exchange hands with seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class DiscardCard(Action):
    """Magician: put one more card from hand toward the bottom of the deck (C-22).

    The Magician discards one card at a time, then ``DrawReplacements`` draws as many.
    """

    type: ClassVar[str] = "discard"
    district: str

    def text(self) -> str:
        return f"discard {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class DrawReplacements(Action):
    """Magician: stop discarding and draw as many cards as were discarded (C-22)."""

    type: ClassVar[str] = "draw_replacements"

    def text(self) -> str:
        return "draw replacements"


@dataclass(frozen=True, slots=True)
@_typed
class Destroy(Action):
    """Warlord: destroy a district in a seat's city by paying its cost − 1 (C-27, R-5)."""

    type: ClassVar[str] = "destroy"
    seat: int
    district: str

    def text(self) -> str:
        return f"destroy {_name(self.district)} of seat {self.seat}"


# --- purple districts -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class UseLaboratory(Action):
    """Laboratory: discard a card from hand for gold, once per own turn."""

    type: ClassVar[str] = "laboratory"
    district: str

    def text(self) -> str:
        return f"laboratory: discard {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class UseSmithy(Action):
    """Smithy: pay 2 gold to draw 3 cards, once per own turn."""

    type: ClassVar[str] = "smithy"

    def text(self) -> str:
        return "smithy: pay 2 gold, draw 3 cards"


@dataclass(frozen=True, slots=True)
@_typed
class UseGraveyard(Action):
    """Graveyard owner: pay 1 gold to take the destroyed district into hand, or not (R-7)."""

    type: ClassVar[str] = "graveyard"
    take: bool

    def text(self) -> str:
        return "graveyard: take it for 1 gold" if self.take else "graveyard: let it go"


# --- Dark City bonus characters (K-7, CARDS.md T5b) ---------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class Bewitch(Action):
    """Witch: after gathering, name the character whose turn she will take over (R-26)."""

    type: ClassVar[str] = "bewitch"
    character: str

    def text(self) -> str:
        return f"bewitch {_name(self.character)}"


@dataclass(frozen=True, slots=True)
@_typed
class LookAtHand(Action):
    """Wizard: look at another seat's hand to take one card from it (R-30)."""

    type: ClassVar[str] = "look_at_hand"
    seat: int

    def text(self) -> str:
        return f"look at the hand of seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class TakeCard(Action):
    """Wizard: take this card from the hand looked at; ``build``: pay and build it at once,
    outside the building limit (R-30)."""

    type: ClassVar[str] = "take_card"
    district: str
    build: bool = False

    def text(self) -> str:
        verb = "take and build" if self.build else "take"
        return f"{verb} {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class GiveCrown(Action):
    """Emperor: move the crown to this seat (never himself, never its holder) (R-27)."""

    type: ClassVar[str] = "give_crown"
    seat: int

    def text(self) -> str:
        return f"give the crown to seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class PayTribute(Action):
    """The Emperor's new crown holder gives him 1 gold (``district`` empty) or this card."""

    type: ClassVar[str] = "pay_tribute"
    district: str = ""

    def text(self) -> str:
        return f"give {_name(self.district)}" if self.district else "give 1 gold"


@dataclass(frozen=True, slots=True)
@_typed
class TakeFromRichest(Action):
    """Abbot: the richest player gives him 1 gold. `classic`: only a single richest other
    than he (``seat`` -1); `2016`: he names one of the tied richest (``seat``)."""

    type: ClassVar[str] = "take_from_richest"
    seat: int = -1

    def text(self) -> str:
        who = f"seat {self.seat}" if self.seat >= 0 else "the richest"
        return f"take 1 gold from {who}"


@dataclass(frozen=True, slots=True)
@_typed
class NavigatorGain(Action):
    """Navigator: after gathering, 4 extra ``gold`` or 4 extra ``cards``."""

    type: ClassVar[str] = "navigator"
    resource: str

    def text(self) -> str:
        return f"take 4 {self.resource}"


@dataclass(frozen=True, slots=True)
@_typed
class ExchangeDistrict(Action):
    """Diplomat: give ``give`` from his city for ``take`` from ``seat``'s city (R-4, R-6)."""

    type: ClassVar[str] = "exchange_district"
    give: str
    seat: int
    take: str

    def text(self) -> str:
        return f"exchange {_name(self.give)} for {_name(self.take)} of seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class Beautify(Action):
    """Artist: put 1 gold on one of his districts, raising its value by 1 (R-1)."""

    type: ClassVar[str] = "beautify"
    district: str

    def text(self) -> str:
        return f"beautify {_name(self.district)}"


# --- Dark City bonus districts (CARDS.md T4) ----------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class SearchDeck(Action):
    """Lighthouse, on build: take this card from the deck, which is then shuffled."""

    type: ClassVar[str] = "search_deck"
    district: str

    def text(self) -> str:
        return f"lighthouse: take {_name(self.district)} from the deck"


@dataclass(frozen=True, slots=True)
@_typed
class AnnounceBellTower(Action):
    """Bell Tower, on build: announce (or not) that 7 districts complete a city (R-14)."""

    type: ClassVar[str] = "bell_tower"
    announce: bool

    def text(self) -> str:
        return "bell tower: announce 7" if self.announce else "bell tower: stay silent"


@dataclass(frozen=True, slots=True)
@_typed
class UseArmory(Action):
    """Armory: sacrifice it to destroy a district of another seat's city (R-15)."""

    type: ClassVar[str] = "armory"
    seat: int
    district: str

    def text(self) -> str:
        return f"armory: destroy {_name(self.district)} of seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class UseMuseum(Action):
    """Museum: tuck a card from hand beneath it, once per own turn (R-19)."""

    type: ClassVar[str] = "museum"
    district: str

    def text(self) -> str:
        return f"museum: tuck {_name(self.district)}"


# --- 2016 characters (N-7, CARDS.md T6) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class PlaceWarrants(Action):
    """Magistrate: warrants on three characters, the ``signed`` one able to confiscate
    (R-24)."""

    type: ClassVar[str] = "place_warrants"
    signed: str
    first: str
    second: str

    def text(self) -> str:
        return (
            f"warrants on {_name(self.signed)} (signed), {_name(self.first)} and "
            f"{_name(self.second)}"
        )


@dataclass(frozen=True, slots=True)
@_typed
class Confiscate(Action):
    """Magistrate: reveal the warrant to take the district just built (``take``), or not."""

    type: ClassVar[str] = "confiscate"
    take: bool

    def text(self) -> str:
        return "confiscate it" if self.take else "let the build stand"


@dataclass(frozen=True, slots=True)
@_typed
class Threaten(Action):
    """Blackmailer: threats on two characters, the ``flowered`` one the real threat."""

    type: ClassVar[str] = "threaten"
    flowered: str
    other: str

    def text(self) -> str:
        return f"threaten {_name(self.flowered)} (flowered) and {_name(self.other)}"


@dataclass(frozen=True, slots=True)
@_typed
class PayRansom(Action):
    """A threatened player: pay the Blackmailer half his gold to drop the threat, or not."""

    type: ClassVar[str] = "pay_ransom"
    pay: bool

    def text(self) -> str:
        return "pay the ransom" if self.pay else "refuse the ransom"


@dataclass(frozen=True, slots=True)
@_typed
class RevealThreat(Action):
    """Blackmailer, refused: reveal the threat (a flowered one takes all the gold), or not."""

    type: ClassVar[str] = "reveal_threat"
    reveal: bool

    def text(self) -> str:
        return "reveal the threat" if self.reveal else "keep the threat hidden"


@dataclass(frozen=True, slots=True)
@_typed
class SpyOn(Action):
    """Spy: name a seat and a district type; look at his hand, gain per matching card."""

    type: ClassVar[str] = "spy"
    seat: int
    colour: str

    def text(self) -> str:
        return f"spy on seat {self.seat} for {self.colour}"


@dataclass(frozen=True, slots=True)
@_typed
class Foresee(Action):
    """Seer: take a random card from every other player who has one."""

    type: ClassVar[str] = "foresee"

    def text(self) -> str:
        return "take a card from each player"


@dataclass(frozen=True, slots=True)
@_typed
class GiveCard(Action):
    """Give this card from hand (the Seer's return gifts, the Cardinal's payment)."""

    type: ClassVar[str] = "give_card"
    district: str

    def text(self) -> str:
        return f"give {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class TakeTribute(Action):
    """2016 Emperor: take 1 ``gold`` or 1 random ``card`` from the new crown holder."""

    type: ClassVar[str] = "take_tribute"
    resource: str

    def text(self) -> str:
        return "take 1 gold" if self.resource == "gold" else "take a random card"


@dataclass(frozen=True, slots=True)
@_typed
class BuildWithLoan(Action):
    """Cardinal: build ``district`` taking the missing gold from ``seat``, who gets 1 card
    per gold."""

    type: ClassVar[str] = "build_with_loan"
    district: str
    seat: int

    def text(self) -> str:
        return f"build {_name(self.district)} with gold from seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class Study(Action):
    """Scholar: draw 7, keep 1, shuffle the rest into the deck."""

    type: ClassVar[str] = "study"

    def text(self) -> str:
        return "draw 7 cards, keep 1"


@dataclass(frozen=True, slots=True)
@_typed
class Seize(Action):
    """Marshal: take a district of cost 3 or less from another city, paying its owner."""

    type: ClassVar[str] = "seize"
    seat: int
    district: str

    def text(self) -> str:
        return f"seize {_name(self.district)} of seat {self.seat}"


# --- 2016 unique districts (CARDS.md T7) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
@_typed
class UseTheater(Action):
    """Theater, at the end of selection: swap ``character`` with a character of ``seat``
    (``seat`` -1: keep them) (R-31)."""

    type: ClassVar[str] = "theater"
    seat: int
    character: str = ""

    def text(self) -> str:
        if self.seat < 0:
            return "theater: keep my character"
        give = f" {_name(self.character)}" if self.character else ""
        return f"theater: swap{give} with seat {self.seat}"


@dataclass(frozen=True, slots=True)
@_typed
class BuildFree(Action):
    """Build without paying: destroy the Framework, or (for the Necropolis) any district
    of the own city (``sacrifice``)."""

    type: ClassVar[str] = "build_free"
    district: str
    sacrifice: str

    def text(self) -> str:
        return f"build {_name(self.district)} by destroying {_name(self.sacrifice)}"


@dataclass(frozen=True, slots=True)
@_typed
class PayWithCard(Action):
    """Thieves' Den: pay 1 gold of its price with this card from hand."""

    type: ClassVar[str] = "pay_with_card"
    district: str

    def text(self) -> str:
        return f"pay with {_name(self.district)}"


@dataclass(frozen=True, slots=True)
@_typed
class PayRemainder(Action):
    """Thieves' Den: pay the rest of the price in gold and build it."""

    type: ClassVar[str] = "pay_remainder"

    def text(self) -> str:
        return "pay the rest in gold"


#: Every action class, in the order legal actions are listed.
ACTION_TYPES: tuple[type[Action], ...] = (
    # Selection, and the Theater at its end.
    PickCharacter,
    PutAsideCharacter,
    UseTheater,
    # Decisions that interrupt the flow (each is alone in its list).
    KeepCards,
    UseGraveyard,
    GiveCrown,
    PayTribute,
    TakeTribute,
    TakeCard,
    NavigatorGain,
    SearchDeck,
    AnnounceBellTower,
    Confiscate,
    PayRansom,
    RevealThreat,
    GiveCard,
    PayWithCard,
    PayRemainder,
    # The turn menu, in the order it is listed.
    GatherGold,
    GatherCards,
    TakeIncome,
    Murder,
    Bewitch,
    PlaceWarrants,
    Rob,
    Threaten,
    SpyOn,
    ExchangeHands,
    DiscardCard,
    DrawReplacements,
    LookAtHand,
    Foresee,
    TakeFromRichest,
    Study,
    Destroy,
    ExchangeDistrict,
    Seize,
    Beautify,
    Build,
    BuildFree,
    BuildWithLoan,
    UseLaboratory,
    UseSmithy,
    UseArmory,
    UseMuseum,
    EndTurn,
)

_BY_TYPE: dict[str, type[Action]] = {cls.type: cls for cls in ACTION_TYPES}
_ORDER: dict[type[Action], int] = {cls: i for i, cls in enumerate(ACTION_TYPES)}


#: Fields that name a character (ordered by rank in the canonical order).
CHARACTER_FIELDS = frozenset({"character", "signed", "first", "second", "flowered", "other"})


def sort_key(action: Action, rank: Callable[[str], int] | None = None) -> tuple[Any, ...]:
    """The canonical order of legal actions: by kind (``ACTION_TYPES``), then field by field;
    characters by ``rank`` when given (that is the order ``legal_actions`` uses)."""
    key: list[Any] = [_ORDER[type(action)]]
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name in CHARACTER_FIELDS and rank is not None and value:
            key.append((rank(value), value))
        else:
            key.append(value)
    return tuple(key)


_FIELD_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


#: The longest id ``action_from_json`` reads (every real id is far shorter).
MAX_ID = 64


def action_from_json(obj: Any) -> Action:
    """Read an action from its JSON object; ``MalformedAction`` names what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedAction(f"an action must be a JSON object, not {type(obj).__name__}")
    odd = [k for k in obj if type(k) is not str]
    if odd:
        raise MalformedAction(f"an action's field names are strings, not {describe(odd[0])}")
    kind = obj.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(_BY_TYPE))
        raise MalformedAction(f"unknown action type {describe(kind)}; known types: {known}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(obj) - set(fields) - {"type"}
    if extra:
        names = ", ".join(describe(k) for k in sorted(extra)[:5])
        raise MalformedAction(f"action {kind!r} has unknown field(s): {names}")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in obj:
            if f.default is not dataclasses.MISSING:
                continue
            raise MalformedAction(f"action {kind!r} needs the field {name!r}")
        value = obj[name]
        expected = str(f.type)
        if expected == "tuple[str, ...]":
            if not isinstance(value, list) or not all(type(v) is str for v in value):
                raise MalformedAction(
                    f"field {name!r} of {kind!r} must be a list of card ids, not {describe(value)}"
                )
            value = tuple(value)
        else:
            want = _FIELD_TYPES[expected]
            # bool is a subclass of int: reject it where an int is wanted, and the reverse.
            if type(value) is not want:
                raise MalformedAction(
                    f"field {name!r} of {kind!r} must be {expected}, not {describe(value)}"
                )
        if any(
            len(v) > MAX_ID
            for v in (value if isinstance(value, tuple) else (value,))
            if type(v) is str
        ):
            raise MalformedAction(
                f"field {name!r} of {kind!r} is not an id: over {MAX_ID} characters"
            )
        values[name] = value
    return cls(**values)
