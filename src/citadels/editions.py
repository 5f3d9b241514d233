"""Editions: a deck, a character set and the rule switches that differ between rulebooks.

Every difference between editions (RULES.md §2) is a field here, read at one place in the
engine. Adding an edition means adding data, not forking the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from citadels import cards
from citadels.cards import Character, District

#: Warlord timing: only once the gather action is done (B-2).
AFTER_GATHER = "after_gather"
#: Warlord timing: at any point of the turn (D-7, 2016).
ANY_TIME = "any_time"
#: Warlord timing: at the end of the turn, after building; destroying ends the turn (K-4).
END_OF_TURN = "end_of_turn"

#: Two-player selection (B-4): picking goes round twice, the rest is unused.
TWICE_ROUND = "twice_round"
#: Two-player selection (D-3, K-2): keep one, put one aside face down, pass the rest.
KEEP_AND_PUT_ASIDE = "keep_and_put_aside"

#: Tie-break criteria (RULES.md §2).
TIE_DISTRICT_COSTS = "district_costs"
TIE_GOLD = "gold"
TIE_CHARACTER_RANK = "character_rank"


@dataclass(frozen=True)
class Edition:
    """A named ruleset: which cards it plays with and each rule switch of RULES.md §2."""

    id: str
    title: str
    sources: str
    districts: Mapping[str, District]
    """Every district card this edition knows, by id."""
    deck: Mapping[str, int]
    """The default district deck: id -> copies."""
    characters: Mapping[str, Character]
    """Every character this edition knows, by id (ranks as in this edition)."""
    default_characters: tuple[str, ...]
    colours: tuple[str, ...]
    """The colours needed for the colour bonus (C-15b)."""
    min_players: int
    max_players: int
    city_size: int
    """Districts that complete a city with 4+ players (C-14)."""
    city_size_small: int
    """Districts that complete a city with 2–3 players."""
    city_size_options: tuple[int, ...]
    """Values the ``complete_at`` option may take (empty: no such option)."""
    automatic_income: bool
    """B-1: colour gold, Merchant gold and Architect cards are given when called."""
    free_order: bool
    """D-7: building may come before the gather action."""
    warlord_timing: str
    two_player_selection: str
    thief_min_rank: int
    """B-5: the lowest rank the Thief may name (3 in `basic`, 2 elsewhere)."""
    assassin_min_rank: int
    tiebreak: tuple[str, ...]
    graveyard_excludes_warlord: bool
    """R-7: in `classic` the Warlord cannot take his own victim back with his Graveyard."""
    observatory_optional: bool
    """T2: in `dezh` drawing 3 with the Observatory is a choice; in `classic` it is the rule."""
    haunted_city_final_round: bool
    """R-8: in `classic` a Haunted City built in the final round scores as purple only."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option names this edition accepts, with their defaults."""

    def completion_size(self, players: int, complete_at: int | None = None) -> int:
        """The number of districts that completes a city (C-14, D-2, K-6)."""
        if complete_at is not None:
            return complete_at
        return self.city_size_small if players <= 3 else self.city_size

    def district(self, district_id: str) -> District:
        """The district card with this id, as printed in this edition."""
        return self.districts[district_id]

    def rank(self, character_id: str) -> int:
        """The rank of a character in this edition."""
        return self.characters[character_id].rank


def _frozen(d: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(d)


_BASE_CHARACTER_IDS = tuple(cards.BASE_CHARACTERS)

BASIC = Edition(
    id="basic",
    title="Basic (four colours, seed 000)",
    sources="000",
    districts=_frozen(dict(cards.COLOURED)),
    deck=_frozen(dict(cards.COLOURED_COPIES)),
    characters=_frozen(dict(cards.BASE_CHARACTERS)),
    default_characters=_BASE_CHARACTER_IDS,
    colours=cards.FOUR_COLOURS,
    min_players=2,
    max_players=7,
    city_size=8,
    city_size_small=8,
    city_size_options=(),
    automatic_income=True,
    free_order=False,
    warlord_timing=AFTER_GATHER,
    two_player_selection=TWICE_ROUND,
    thief_min_rank=3,
    assassin_min_rank=2,
    tiebreak=(),
    graveyard_excludes_warlord=True,
    observatory_optional=False,
    haunted_city_final_round=False,
)

DEZH = Edition(
    id="dezh",
    title="Dezh (Iranian edition, seed 001)",
    sources="001",
    districts=_frozen({**cards.COLOURED, **cards.district_table(cards.DEZH_PURPLE_ROWS)}),
    deck=_frozen({**cards.COLOURED_COPIES, **cards.copies(cards.DEZH_PURPLE_ROWS)}),
    characters=_frozen(dict(cards.BASE_CHARACTERS)),
    default_characters=_BASE_CHARACTER_IDS,
    colours=cards.FIVE_COLOURS,
    min_players=2,
    max_players=7,
    city_size=7,
    city_size_small=8,
    city_size_options=(),
    automatic_income=False,
    free_order=True,
    warlord_timing=ANY_TIME,
    two_player_selection=KEEP_AND_PUT_ASIDE,
    thief_min_rank=2,
    assassin_min_rank=2,
    tiebreak=(TIE_CHARACTER_RANK,),
    graveyard_excludes_warlord=False,
    observatory_optional=True,
    haunted_city_final_round=False,
)

CLASSIC = Edition(
    id="classic",
    title="Classic (2006 rulebook, seeds 002 and 003)",
    sources="002, 003",
    districts=_frozen({**cards.COLOURED, **cards.district_table(cards.CLASSIC_PURPLE_ROWS)}),
    deck=_frozen({**cards.COLOURED_COPIES, **cards.copies(cards.CLASSIC_PURPLE_ROWS)}),
    characters=_frozen(dict(cards.BASE_CHARACTERS)),
    default_characters=_BASE_CHARACTER_IDS,
    colours=cards.FIVE_COLOURS,
    min_players=2,
    max_players=7,
    city_size=8,
    city_size_small=8,
    city_size_options=(8, 7, 6),
    automatic_income=False,
    free_order=False,
    warlord_timing=END_OF_TURN,
    two_player_selection=KEEP_AND_PUT_ASIDE,
    thief_min_rank=2,
    assassin_min_rank=2,
    tiebreak=(TIE_DISTRICT_COSTS, TIE_GOLD),
    graveyard_excludes_warlord=True,
    observatory_optional=False,
    haunted_city_final_round=True,
    options=_frozen({"complete_at": 8}),
)

#: Every edition the engine plays, by id.
EDITIONS: Mapping[str, Edition] = _frozen({e.id: e for e in (BASIC, DEZH, CLASSIC)})


def get_edition(edition_id: str) -> Edition:
    """The edition with this id; ``ValueError`` naming the known ones otherwise."""
    try:
        return EDITIONS[edition_id]
    except (KeyError, TypeError):
        known = ", ".join(EDITIONS)
        raise ValueError(f"unknown edition {edition_id!r}; known editions: {known}") from None
