"""A fixed numbering of every action a game of a given setup can ever offer.

Reinforcement-learning frameworks want a flat ``Discrete(n)`` action space and a mask of the
legal entries. :class:`ActionSpace` numbers every action that a game of one setup (edition,
player count, characters in play, district deck) could ever list among its legal actions, so
that ``index_to_action(action_to_index(a)) == a`` for each of them.

The numbering is built from data only, in this order (see ``docs/rl.md``):

1. action kinds in the order of :data:`KINDS` (their JSON ``type``); a kind appears only if
   the setup can play it (:data:`NEEDS`: the character or district card it belongs to is in
   the game);
2. within a kind, every combination of its fields' values, the first field varying slowest;
   the values of a field come from :func:`_domain`: characters in the setup's order (rank),
   district ids sorted alphabetically, seats ``0..players-1`` (with ``-1`` first where the
   action takes it), booleans ``False`` then ``True``.

New kinds are only ever appended to :data:`KINDS`, so a numbering never changes for a setup
that does not use them; ``tests/rl/test_actions.py`` pins a digest of the numbering of each
edition's default setups.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from citadels.editions import Edition, canonical_options, get_edition, resolve_setup
from citadels.engine.actions import (
    ACTION_TYPES,
    Action,
    KeepCards,
)
from citadels.engine.game import Game

#: Action kinds (their JSON ``type``) in numbering order. Append only.
KINDS: tuple[str, ...] = (
    "pick",
    "put_aside",
    "gather_gold",
    "gather_cards",
    "keep",
    "take_income",
    "build",
    "end_turn",
    "murder",
    "rob",
    "exchange_hands",
    "discard",
    "draw_replacements",
    "destroy",
    "laboratory",
    "smithy",
    "graveyard",
    "bewitch",
    "look_at_hand",
    "take_card",
    "give_crown",
    "pay_tribute",
    "take_from_richest",
    "navigator",
    "exchange_district",
    "beautify",
    "search_deck",
    "bell_tower",
    "armory",
    "museum",
    "place_warrants",
    "confiscate",
    "threaten",
    "pay_ransom",
    "reveal_threat",
    "spy",
    "foresee",
    "give_card",
    "take_tribute",
    "build_with_loan",
    "study",
    "seize",
    "theater",
    "build_free",
    "pay_with_card",
    "pay_remainder",
)

#: The cards that make a kind playable: the kind is numbered only if one of them (a character
#: or a district id) is in the game. Kinds not listed are always numbered.
NEEDS: dict[str, tuple[str, ...]] = {
    "murder": ("assassin",),
    "rob": ("thief",),
    "exchange_hands": ("magician",),
    "discard": ("magician",),
    "draw_replacements": ("magician",),
    "destroy": ("warlord",),
    "laboratory": ("laboratory",),
    "smithy": ("smithy",),
    "graveyard": ("graveyard",),
    "bewitch": ("witch",),
    "look_at_hand": ("wizard",),
    "take_card": ("wizard",),
    "give_crown": ("emperor",),
    "pay_tribute": ("emperor",),
    "take_from_richest": ("abbot",),
    "navigator": ("navigator",),
    "exchange_district": ("diplomat",),
    "beautify": ("artist",),
    "search_deck": ("lighthouse",),
    "bell_tower": ("bell_tower",),
    "armory": ("armory",),
    "museum": ("museum",),
    "place_warrants": ("magistrate",),
    "confiscate": ("magistrate",),
    "threaten": ("blackmailer",),
    "pay_ransom": ("blackmailer",),
    "reveal_threat": ("blackmailer",),
    "spy": ("spy",),
    "foresee": ("seer",),
    "give_card": ("seer", "cardinal"),
    "take_tribute": ("emperor",),
    "build_with_loan": ("cardinal",),
    "study": ("scholar",),
    "seize": ("marshal",),
    "theater": ("theater",),
    "build_free": ("framework", "necropolis"),
    "pay_with_card": ("thieves_den",),
    "pay_remainder": ("thieves_den",),
}

#: Characters whose income may come as cards (``TakeIncome.cards`` above 0).
_INCOME_IN_CARDS = ("patrician", "cardinal", "abbot")

_CLASS_OF: dict[str, type[Action]] = {cls.type: cls for cls in ACTION_TYPES}

_CHARACTER_FIELDS = frozenset({"character", "signed", "first", "second", "flowered", "other"})
_DISTRICT_FIELDS = frozenset({"district", "give", "sacrifice"})


class ActionSpace:
    """The numbering of every action of one setup; build it with :meth:`for_setup` or
    :meth:`for_game`.

    ``actions[i]`` is the action numbered ``i``; :meth:`action_to_index` is its inverse
    (``KeyError`` for an action the setup never offers); :meth:`mask` marks legal actions.
    """

    def __init__(
        self,
        edition: Edition,
        players: int,
        characters: Sequence[str],
        districts: Iterable[str],
        deck_cards: int,
    ) -> None:
        self.edition = edition
        self.players = players
        self.characters: tuple[str, ...] = tuple(characters)
        """The characters in play, in rank order."""
        self.districts: tuple[str, ...] = tuple(sorted(set(districts)))
        """The district ids of the deck, sorted."""
        self._deck_cards = deck_cards
        present = set(self.characters) | set(self.districts)
        actions: list[Action] = []
        for kind in KINDS:
            needs = NEEDS.get(kind)
            if needs is not None and not present.intersection(needs):
                continue
            actions.extend(self._kind_actions(kind))
        self.actions: tuple[Action, ...] = tuple(actions)
        """Every numbered action, by index."""
        self._index: dict[Action, int] = {a: i for i, a in enumerate(actions)}
        self.size = len(actions)
        """The number of actions (the ``n`` of ``Discrete(n)``)."""

    @classmethod
    def for_setup(cls, edition: str = "classic", players: int = 4, **options: Any) -> ActionSpace:
        """The numbering for games that ``new_game(edition, players, **options)`` starts."""
        ed = get_edition(edition)
        chosen = resolve_setup(ed, players, canonical_options(ed, options))
        return cls(ed, players, chosen.characters, chosen.deck, sum(chosen.deck.values()))

    @classmethod
    def for_game(cls, game: Game) -> ActionSpace:
        """The numbering of ``game``'s setup (read from its record)."""
        record = game.record()
        return cls.for_setup(record["edition"], record["players"], **record["options"])

    # --- the numbering --------------------------------------------------------------------

    def _domain(self, kind: str, name: str, annotation: str) -> list[Any]:
        """The values field ``name`` of ``kind`` can take in this setup."""
        seats = list(range(self.players))
        if annotation == "bool":
            return [False, True]
        if name == "seat":
            return [-1, *seats] if kind in ("take_from_richest", "theater") else seats
        if name in _CHARACTER_FIELDS:
            chars = list(self.characters)
            return ["", *chars] if kind == "theater" else chars
        if name in _DISTRICT_FIELDS or (name == "take" and annotation == "str"):
            dists = list(self.districts)
            return ["", *dists] if kind == "pay_tribute" else dists
        if name == "count":
            return [2, 3]
        if name == "cards":
            if set(self.characters).intersection(_INCOME_IN_CARDS):
                return list(range(self._deck_cards + 1))
            return [0]
        if name == "colour":
            return list(self.edition.colours)
        if name == "resource":
            return ["card", "gold"] if kind == "take_tribute" else ["cards", "gold"]
        raise AssertionError(f"no domain for field {name!r} of {kind!r}")

    def _kind_actions(self, kind: str) -> list[Action]:
        cls = _CLASS_OF[kind]
        if cls is KeepCards:
            singles = [KeepCards((d,)) for d in self.districts]
            pairs = [
                KeepCards((a, b))
                for a, b in itertools.combinations_with_replacement(self.districts, 2)
            ]
            return [*singles, *pairs]
        fields = dataclasses.fields(cls)
        domains = [self._domain(kind, f.name, str(f.type)) for f in fields]
        return [cls(*values) for values in itertools.product(*domains)]

    # --- use ------------------------------------------------------------------------------

    def action_to_index(self, action: Action) -> int:
        """The number of ``action`` (``KeyError`` if this setup never offers it)."""
        return self._index[action]

    def index_to_action(self, index: int) -> Action:
        """The action numbered ``index`` (``IndexError`` outside ``0..size-1``)."""
        if not 0 <= index < self.size:
            raise IndexError(f"action index {index} is not in 0..{self.size - 1}")
        return self.actions[index]

    def indices(self, actions: Iterable[Action]) -> list[int]:
        """The numbers of ``actions``, in their order."""
        index = self._index
        return [index[a] for a in actions]

    def mask(self, legal: Iterable[Action]) -> npt.NDArray[np.int8]:
        """A 0/1 vector of length ``size`` with a 1 at each of ``legal``."""
        out = np.zeros(self.size, dtype=np.int8)
        index = self._index
        for a in legal:
            out[index[a]] = 1
        return out

    def legal_mask(self, game: Game) -> npt.NDArray[np.int8]:
        """The mask of ``game``'s legal actions now (all zero once it is over)."""
        return self.mask(game.legal_actions())

    def table(self) -> list[dict[str, Any]]:
        """The numbering as JSON: entry ``i`` is the action numbered ``i``."""
        return [a.to_json() for a in self.actions]

    def digest(self) -> str:
        """A SHA-256 of the numbering (the JSON of every action, in order): equal digests,
        equal numberings."""
        text = "\n".join(json.dumps(a, sort_keys=True) for a in self.table())
        return hashlib.sha256(text.encode()).hexdigest()

    def __repr__(self) -> str:
        return f"<ActionSpace {self.edition.id} players={self.players} size={self.size}>"


def action_to_index(space: ActionSpace, action: Action) -> int:
    """The number of ``action`` in ``space`` (see :meth:`ActionSpace.action_to_index`)."""
    return space.action_to_index(action)


def index_to_action(space: ActionSpace, index: int) -> Action:
    """The action numbered ``index`` in ``space`` (see :meth:`ActionSpace.index_to_action`)."""
    return space.index_to_action(index)
