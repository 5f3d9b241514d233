"""Static card data: every district and character of every edition, as plain data.

Ids are the snake_case ids of ``CARDS.md``. A card whose cost or rank differs between editions
has one table per edition; an edition (``citadels.editions``) picks the tables it plays with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

YELLOW: Final = "yellow"
BLUE: Final = "blue"
GREEN: Final = "green"
RED: Final = "red"
PURPLE: Final = "purple"

#: The four colours of the coloured districts, in rulebook order.
FOUR_COLOURS: tuple[str, ...] = (YELLOW, BLUE, GREEN, RED)
#: The five colours of the editions with purple districts.
FIVE_COLOURS: tuple[str, ...] = (YELLOW, BLUE, GREEN, RED, PURPLE)


@dataclass(frozen=True, slots=True)
class District:
    """A district card: ``cost`` is the printed cost (``None``: can never be built)."""

    id: str
    name: str
    colour: str
    cost: int | None
    bonus: int = 0
    """Points printed on the card on top of its cost (Dragon Gate, University: 2)."""


@dataclass(frozen=True, slots=True)
class Character:
    """A character card: its rank in this edition and the colour it collects income for."""

    id: str
    name: str
    rank: int
    colour: str | None = None


# T1: the 54 coloured districts (id, name, colour, cost, copies).
COLOURED_ROWS: list[tuple[str, str, str, int | None, int]] = [
    ("manor", "Manor", YELLOW, 3, 5),
    ("castle", "Castle", YELLOW, 4, 4),
    ("palace", "Palace", YELLOW, 5, 3),
    ("temple", "Temple", BLUE, 1, 3),
    ("church", "Church", BLUE, 2, 3),
    ("monastery", "Monastery", BLUE, 3, 3),
    ("cathedral", "Cathedral", BLUE, 5, 2),
    ("tavern", "Tavern", GREEN, 1, 5),
    ("market", "Market", GREEN, 2, 4),
    ("trading_post", "Trading Post", GREEN, 2, 3),
    ("docks", "Docks", GREEN, 3, 3),
    ("harbor", "Harbor", GREEN, 4, 3),
    ("town_hall", "Town Hall", GREEN, 5, 2),
    ("watchtower", "Watchtower", RED, 1, 3),
    ("prison", "Prison", RED, 2, 3),
    ("battlefield", "Battlefield", RED, 3, 3),
    ("fortress", "Fortress", RED, 5, 2),
]

#: Copies of each coloured district in the 54-card set (``battlefield`` as in the older editions).
#: The 2016 name of the red 3-cost district.
BARRACKS = District("barracks", "Barracks", RED, 3)

# T2: the dezh edition's purple districts (id, name, colour, cost, copies).
DEZH_PURPLE_ROWS: list[tuple[str, str, str, int | None, int]] = [
    ("haunted_city", "Haunted City", PURPLE, 2, 1),
    ("keep", "Keep", PURPLE, 3, 2),
    ("observatory", "Observatory", PURPLE, 5, 1),
    ("graveyard", "Graveyard", PURPLE, 5, 1),
    ("laboratory", "Laboratory", PURPLE, 5, 1),
    ("smithy", "Smithy", PURPLE, 5, 1),
]

# T3: the classic base purple districts.
CLASSIC_PURPLE_ROWS: list[tuple[str, str, str, int | None, int]] = [
    ("haunted_city", "Haunted City", PURPLE, 2, 1),
    ("keep", "Keep", PURPLE, 3, 2),
    ("laboratory", "Laboratory", PURPLE, 5, 1),
    ("smithy", "Smithy", PURPLE, 5, 1),
    ("observatory", "Observatory", PURPLE, 5, 1),
    ("graveyard", "Graveyard", PURPLE, 5, 1),
    ("dragon_gate", "Dragon Gate", PURPLE, 6, 1),
    ("university", "University", PURPLE, 6, 1),
    ("library", "Library", PURPLE, 6, 1),
    ("great_wall", "Great Wall", PURPLE, 6, 1),
    ("school_of_magic", "School of Magic", PURPLE, 6, 1),
]

# T4: the Dark City bonus purple districts (one copy each).
DARK_CITY_ROWS: list[tuple[str, str, str, int | None, int]] = [
    ("lighthouse", "Lighthouse", PURPLE, 3, 1),
    ("armory", "Armory", PURPLE, 3, 1),
    ("museum", "Museum", PURPLE, 4, 1),
    ("imperial_treasury", "Imperial Treasury", PURPLE, 4, 1),
    ("map_room", "Map Room", PURPLE, 5, 1),
    ("wishing_well", "Wishing Well", PURPLE, 5, 1),
    ("quarry", "Quarry", PURPLE, 5, 1),
    ("poor_house", "Poor House", PURPLE, 5, 1),
    ("bell_tower", "Bell Tower", PURPLE, 5, 1),
    ("factory", "Factory", PURPLE, 6, 1),
    ("park", "Park", PURPLE, 6, 1),
    ("hospital", "Hospital", PURPLE, 6, 1),
    ("throne_room", "Throne Room", PURPLE, 6, 1),
    ("ball_room", "Ball Room", PURPLE, 6, 1),
]

# T7: the 2016 unique districts (one copy each).
UNIQUE_2016_ROWS: list[tuple[str, str, str, int | None, int]] = [
    ("armory", "Armory", PURPLE, 3, 1),
    ("basilica", "Basilica", PURPLE, 4, 1),
    ("capitol", "Capitol", PURPLE, 5, 1),
    ("dragon_gate", "Dragon Gate", PURPLE, 6, 1),
    ("factory", "Factory", PURPLE, 5, 1),
    ("framework", "Framework", PURPLE, 3, 1),
    ("gold_mine", "Gold Mine", PURPLE, 6, 1),
    ("great_wall", "Great Wall", PURPLE, 6, 1),
    ("haunted_quarter", "Haunted Quarter", PURPLE, 2, 1),
    ("imperial_treasury", "Imperial Treasury", PURPLE, 5, 1),
    ("ivory_tower", "Ivory Tower", PURPLE, 5, 1),
    ("keep", "Keep", PURPLE, 3, 1),
    ("laboratory", "Laboratory", PURPLE, 5, 1),
    ("library", "Library", PURPLE, 6, 1),
    ("map_room", "Map Room", PURPLE, 5, 1),
    ("monument", "Monument", PURPLE, 4, 1),
    ("museum", "Museum", PURPLE, 4, 1),
    ("necropolis", "Necropolis", PURPLE, 5, 1),
    ("observatory", "Observatory", PURPLE, 4, 1),
    ("park", "Park", PURPLE, 6, 1),
    ("poor_house", "Poor House", PURPLE, 4, 1),
    ("quarry", "Quarry", PURPLE, 5, 1),
    ("school_of_magic", "School of Magic", PURPLE, 6, 1),
    ("secret_vault", "Secret Vault", PURPLE, None, 1),
    ("smithy", "Smithy", PURPLE, 5, 1),
    ("stables", "Stables", PURPLE, 2, 1),
    ("statue", "Statue", PURPLE, 3, 1),
    ("theater", "Theater", PURPLE, 6, 1),
    ("thieves_den", "Thieves' Den", PURPLE, 6, 1),
    ("wishing_well", "Wishing Well", PURPLE, 5, 1),
]

#: Printed bonus points on top of cost (R-2).
BONUS_POINTS: dict[str, int] = {"dragon_gate": 2, "university": 2}


def district_table(rows: list[tuple[str, str, str, int | None, int]]) -> dict[str, District]:
    """Build ``id -> District`` for the rows, with printed bonus points filled in."""
    return {r[0]: District(r[0], r[1], r[2], r[3], BONUS_POINTS.get(r[0], 0)) for r in rows}


def copies(rows: list[tuple[str, str, str, int | None, int]]) -> dict[str, int]:
    """Build ``id -> copies`` for the rows."""
    return {r[0]: r[4] for r in rows}


# T5a: the eight base characters.
BASE_CHARACTERS: dict[str, Character] = {
    c.id: c
    for c in (
        Character("assassin", "Assassin", 1),
        Character("thief", "Thief", 2),
        Character("magician", "Magician", 3),
        Character("king", "King", 4, YELLOW),
        Character("bishop", "Bishop", 5, BLUE),
        Character("merchant", "Merchant", 6, GREEN),
        Character("architect", "Architect", 7),
        Character("warlord", "Warlord", 8, RED),
    )
}

# T5b: the ten Dark City bonus characters (classic ranks).
DARK_CITY_CHARACTERS: dict[str, Character] = {
    c.id: c
    for c in (
        Character("witch", "Witch", 1),
        Character("tax_collector", "Tax Collector", 2),
        Character("wizard", "Wizard", 3),
        Character("emperor", "Emperor", 4, YELLOW),
        Character("abbot", "Abbot", 5, BLUE),
        Character("alchemist", "Alchemist", 6),
        Character("navigator", "Navigator", 7),
        Character("diplomat", "Diplomat", 8, RED),
        Character("queen", "Queen", 9),
        Character("artist", "Artist", 9),
    )
}

# T6: the 27 characters of the 2016 edition.
CHARACTERS_2016: dict[str, Character] = {
    c.id: c
    for c in (
        Character("assassin", "Assassin", 1),
        Character("witch", "Witch", 1),
        Character("magistrate", "Magistrate", 1),
        Character("thief", "Thief", 2),
        Character("spy", "Spy", 2),
        Character("blackmailer", "Blackmailer", 2),
        Character("magician", "Magician", 3),
        Character("wizard", "Wizard", 3),
        Character("seer", "Seer", 3),
        Character("king", "King", 4, YELLOW),
        Character("emperor", "Emperor", 4, YELLOW),
        Character("patrician", "Patrician", 4, YELLOW),
        Character("bishop", "Bishop", 5, BLUE),
        Character("abbot", "Abbot", 5, BLUE),
        Character("cardinal", "Cardinal", 5, BLUE),
        Character("merchant", "Merchant", 6, GREEN),
        Character("alchemist", "Alchemist", 6),
        Character("trader", "Trader", 6, GREEN),
        Character("architect", "Architect", 7),
        Character("navigator", "Navigator", 7),
        Character("scholar", "Scholar", 7),
        Character("warlord", "Warlord", 8, RED),
        Character("diplomat", "Diplomat", 8, RED),
        Character("marshal", "Marshal", 8, RED),
        Character("queen", "Queen", 9),
        Character("artist", "Artist", 9),
        Character("tax_collector", "Tax Collector", 9),
    )
}


#: Copies of each coloured district in the 54-card set (``battlefield`` as in the older editions).
COLOURED_COPIES: dict[str, int] = copies(COLOURED_ROWS)
COLOURED: dict[str, District] = district_table(COLOURED_ROWS)
