"""Editions: a deck, a character set and the rule switches that differ between rulebooks.

Every difference between editions (RULES.md §2) is a field here, read at one place in the
engine. Adding an edition means adding data, not forking the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from citadels import cards
from citadels.cards import Character, District
from citadels.errors import InvalidSetup, describe
from citadels.ids import did_you_mean, match_id, resolve_id, suggest

#: Warlord timing: only once the gather action is done (B-2).
AFTER_GATHER = "after_gather"
#: Warlord timing: at any point of the turn (D-7, 2016).
ANY_TIME = "any_time"
#: Warlord timing: at the end of the turn, after building; destroying ends the turn (K-4).
END_OF_TURN: Final = "end_of_turn"

#: Two-player selection (B-4): picking goes round twice, the rest is unused.
TWICE_ROUND = "twice_round"
#: Two-player selection (D-3, K-2): keep one, put one aside face down, pass the rest.
KEEP_AND_PUT_ASIDE = "keep_and_put_aside"

#: Tie-break criteria (RULES.md §2).
TIE_DISTRICT_COSTS = "district_costs"
TIE_GOLD = "gold"
TIE_CHARACTER_RANK = "character_rank"


@dataclass(frozen=True)
class Preset:
    """A named setup: a character set and the purple districts of the deck."""

    id: str
    title: str
    characters: tuple[str, ...]
    districts: tuple[str, ...]
    min_players: int = 2
    max_players: int = 7


@dataclass(frozen=True)
class Setup:
    """What a game is set up with: its characters, district deck and city size."""

    characters: tuple[str, ...]
    deck: dict[str, int]
    complete_at: int


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
    murdered_revealed_at_call: bool = False
    """C-12 (`dezh`, seed 001): the murdered character's holder turns the card face up when
    it is called; elsewhere the holder stays silent until the end of the round."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option names this edition accepts, with their defaults."""
    purple_pool: Mapping[str, int] = field(default_factory=dict)
    """Purple districts the ``districts`` option may choose from: id -> copies."""
    presets: Mapping[str, Preset] = field(default_factory=dict)
    """Named setups (``preset=`` option)."""
    quarry_limit: bool = True
    """R-12: in `classic` the Quarry allows one duplicated name at a time."""
    laboratory_gold: int = 1
    """Gold the Laboratory pays for a discarded card (`2016`: 2)."""
    armory_own_city: bool = False
    """R-15: the `2016` Armory may destroy in any city, its owner's included."""
    keep_blocks_giving: bool = False
    """T7 (`2016`): no rank-8 ability may target the Keep, so the Diplomat cannot give it."""
    library_keeps_all: bool = False
    """R-10: the `2016` Library keeps every card drawn (with the Observatory, 3)."""
    tax_per_build: bool = False
    """R-25 (`2016`): the rank-9 Tax Collector's token takes 1 gold per build."""
    wishing_well_counts_itself: bool = False
    """T7 (`2016`): the Wishing Well counts every unique district, itself included."""
    unique_districts: int = 0
    """N-1: how many unique districts a `2016` deck takes (0: no such rule)."""
    preset_substitutes: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    """T8 substitutions applied to presets: character -> (minimum players, substitute)."""
    setup_advice: str = ""
    """The rulebook's suggestion for a custom setup (K-1, K-7, N-1), shown by ``citadels
    editions``. Advice only: ``resolve_setup`` checks the rules, not the advice."""

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
    title="Basic (four colours, no purple)",
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
    title="Dezh (the Iranian edition)",
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
    murdered_revealed_at_call=True,
)

_CLASSIC_PURPLE = cards.copies(cards.CLASSIC_PURPLE_ROWS)
_BASE_PURPLE_IDS = tuple(_CLASSIC_PURPLE)


def _classic_preset(
    id: str,
    title: str,
    swaps: dict[str, str],
    add: tuple[str, ...] = (),
    remove: tuple[str, ...] = (),
    rank9: str | None = None,
    min_players: int = 2,
) -> Preset:
    chars = tuple(swaps.get(c, c) for c in _BASE_CHARACTER_IDS) + ((rank9,) if rank9 else ())
    purple = tuple(d for d in _BASE_PURPLE_IDS if d not in remove) + add
    return Preset(id, title, chars, purple, min_players, 8 if rank9 else 7)


#: Named `classic` setups with Dark City cards (K-1, K-7): a few character swaps and bonus
#: districts, after the rulebook's advice (1–2 swaps; 2–3 added purples, one base purple
#: out for each further one).
CLASSIC_PRESETS = {
    p.id: p
    for p in (
        _classic_preset("base", "The basic game: 8 base characters, 12 base purples", {}),
        _classic_preset(
            "dark_city",
            "Wizard and Navigator; Museum, Quarry and Imperial Treasury added",
            {"magician": "wizard", "architect": "navigator"},
            add=("museum", "quarry", "imperial_treasury"),
        ),
        _classic_preset(
            "witch_hunt",
            "Witch and Tax Collector; Hospital, Armory and Poor House added",
            {"assassin": "witch", "thief": "tax_collector"},
            add=("hospital", "armory", "poor_house"),
        ),
        _classic_preset(
            "imperial_court",
            "Emperor, Abbot and the Queen (5–8 players); Throne Room, Bell Tower, Wishing "
            "Well and Map Room in for the University",
            {"king": "emperor", "bishop": "abbot"},
            add=("throne_room", "bell_tower", "wishing_well", "map_room"),
            remove=("university",),
            rank9="queen",
            min_players=5,
        ),
        _classic_preset(
            "artisans",
            "Alchemist, Diplomat and the Artist; Factory, Park and Lighthouse added "
            "(the Diplomat takes the Graveyard out)",
            {"merchant": "alchemist", "warlord": "diplomat"},
            add=("factory", "park", "lighthouse"),
            remove=("graveyard",),
            rank9="artist",
        ),
    )
}

CLASSIC = Edition(
    id="classic",
    title="Classic (2006 rulebook with Dark City)",
    sources="002, 003",
    districts=_frozen(
        {
            **cards.COLOURED,
            **cards.district_table(cards.CLASSIC_PURPLE_ROWS),
            **cards.district_table(cards.DARK_CITY_ROWS),
        }
    ),
    deck=_frozen({**cards.COLOURED_COPIES, **_CLASSIC_PURPLE}),
    characters=_frozen({**cards.BASE_CHARACTERS, **cards.DARK_CITY_CHARACTERS}),
    default_characters=_BASE_CHARACTER_IDS,
    colours=cards.FIVE_COLOURS,
    min_players=2,
    max_players=8,
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
    options=_frozen({"complete_at": 8, "characters": None, "districts": None, "preset": None}),
    purple_pool=_frozen({**_CLASSIC_PURPLE, **cards.copies(cards.DARK_CITY_ROWS)}),
    presets=_frozen(dict(CLASSIC_PRESETS)),
    setup_advice=(
        "The rulebook suggests swapping one or two of the 8 base characters for Dark City "
        "characters of the same rank (a rank-9 character may be added) and adding two or "
        "three bonus purple districts, taking out one base purple for each further one. The "
        "engine accepts more: any Dark City character for any rank, and any list of purple "
        "districts from the pool."
    ),
)

_COLOURED_2016 = {
    ("barracks" if d == "battlefield" else d): n for d, n in cards.COLOURED_COPIES.items()
}
_DISTRICTS_2016 = {
    **{d: c for d, c in cards.COLOURED.items() if d != "battlefield"},
    "barracks": cards.BARRACKS,
    **cards.district_table(cards.UNIQUE_2016_ROWS),
}


def _preset_2016(id: str, title: str, chars: str, rank9: str, districts: str) -> Preset:
    characters = tuple(chars.split()) + ((rank9,) if rank9 else ())
    return Preset(id, title, characters, tuple(districts.split()), 2, 8)


#: The 2016 rulebook's recommended first game and its six named setups (CARDS.md T8).
PRESETS_2016 = {
    p.id: p
    for p in (
        _preset_2016(
            "first_game",
            "First game: the 8 base characters",
            "assassin thief magician king bishop merchant architect warlord",
            "",
            "dragon_gate factory haunted_quarter imperial_treasury keep laboratory library "
            "map_room quarry school_of_magic smithy statue thieves_den wishing_well",
        ),
        _preset_2016(
            "ambitious_aristocrats",
            "Ambitious Aristocrats",
            "magistrate thief wizard patrician bishop trader architect marshal",
            "queen",
            "capitol factory framework great_wall haunted_quarter keep necropolis park "
            "poor_house quarry school_of_magic stables statue thieves_den",
        ),
        _preset_2016(
            "cunning_agents",
            "Cunning Agents",
            "witch blackmailer magician emperor abbot alchemist architect warlord",
            "tax_collector",
            "armory basilica dragon_gate gold_mine keep monument museum necropolis park "
            "poor_house quarry secret_vault smithy theater",
        ),
        _preset_2016(
            "illustrious_emissaries",
            "Illustrious Emissaries",
            "witch spy seer emperor bishop merchant scholar diplomat",
            "artist",
            "factory framework great_wall haunted_quarter ivory_tower keep library museum "
            "observatory park poor_house quarry school_of_magic smithy",
        ),
        _preset_2016(
            "devious_dignitaries",
            "Devious Dignitaries",
            "magistrate blackmailer wizard king abbot alchemist navigator marshal",
            "queen",
            "dragon_gate factory framework haunted_quarter laboratory necropolis park "
            "poor_house secret_vault smithy stables theater thieves_den wishing_well",
        ),
        _preset_2016(
            "tenacious_delegates",
            "Tenacious Delegates",
            "assassin spy seer king cardinal trader scholar diplomat",
            "artist",
            "basilica capitol haunted_quarter imperial_treasury laboratory library map_room "
            "observatory school_of_magic secret_vault smithy stables statue wishing_well",
        ),
        _preset_2016(
            "vicious_nobles",
            "Vicious Nobles",
            "assassin thief magician patrician cardinal merchant navigator warlord",
            "tax_collector",
            "armory basilica dragon_gate gold_mine imperial_treasury ivory_tower laboratory "
            "map_room monument museum school_of_magic statue thieves_den wishing_well",
        ),
    )
}

EDITION_2016 = Edition(
    id="2016",
    title="Citadels 2016 (27 characters, 30 unique districts)",
    sources="004",
    districts=_frozen(_DISTRICTS_2016),
    deck=_frozen({**_COLOURED_2016, **{d: 1 for d in PRESETS_2016["first_game"].districts}}),
    characters=_frozen(dict(cards.CHARACTERS_2016)),
    default_characters=PRESETS_2016["first_game"].characters,
    colours=cards.FIVE_COLOURS,
    min_players=2,
    max_players=8,
    city_size=7,
    city_size_small=8,
    # N-4: 8 always, or 7 with 2–3 players too (seed 004 reads that game as the normal one).
    city_size_options=(7, 8),
    automatic_income=False,
    free_order=False,
    warlord_timing=ANY_TIME,
    two_player_selection=KEEP_AND_PUT_ASIDE,
    thief_min_rank=2,
    assassin_min_rank=2,
    tiebreak=(TIE_DISTRICT_COSTS, TIE_GOLD, TIE_CHARACTER_RANK),
    graveyard_excludes_warlord=True,
    observatory_optional=False,
    haunted_city_final_round=False,
    options=_frozen({"complete_at": None, "characters": None, "districts": None, "preset": None}),
    purple_pool=_frozen(cards.copies(cards.UNIQUE_2016_ROWS)),
    presets=_frozen(dict(PRESETS_2016)),
    quarry_limit=False,
    laboratory_gold=2,
    armory_own_city=True,
    keep_blocks_giving=True,
    library_keeps_all=True,
    wishing_well_counts_itself=True,
    tax_per_build=True,
    unique_districts=14,
    preset_substitutes=_frozen({"emperor": (3, "king"), "queen": (5, "artist")}),
    setup_advice=(
        "The rulebook suggests the first game (the 8 base characters and its 14 unique "
        "districts), then its named setups. The engine accepts any one character per rank "
        "(rank 9 optional, needed for 8 players) and any 14 of the 30 unique districts."
    ),
)

#: Every edition the engine plays, by id.
EDITIONS: Mapping[str, Edition] = _frozen({e.id: e for e in (BASIC, DEZH, CLASSIC, EDITION_2016)})


def get_edition(edition_id: str) -> Edition:
    """The edition with this id, matched loosely (``Classic`` is ``classic``, see
    :mod:`citadels.ids`); ``InvalidSetup`` (a ``ValueError``) naming
    the known ones otherwise."""
    return EDITIONS[resolve_id(edition_id, EDITIONS, "edition")]


def _loose_ids(value: Any, known: Mapping[str, Any]) -> Any:
    """A list of ids with each one that names a known id under the loose rule replaced by it;
    anything else is returned as it is, for the checks to reject."""
    if isinstance(value, (list, tuple)):
        return [match_id(v, known) or v for v in value]
    return value


def canonical_options(edition: Edition, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the preset, character and district ids in their canonical spelling
    (``Dark-City`` -> ``dark_city``); ids that name nothing are left for
    :func:`resolve_setup` to reject."""
    out = dict(options)
    preset = out.get("preset")
    if isinstance(preset, str):
        out["preset"] = match_id(preset, edition.presets) or preset
    if "characters" in out:
        out["characters"] = _loose_ids(out["characters"], edition.characters)
    if "districts" in out:
        out["districts"] = _loose_ids(out["districts"], edition.districts)
    return out


def resolve_setup(edition: Edition, players: int, options: Mapping[str, Any]) -> Setup:
    """Check a game's player count and options; return its characters, deck and city size.

    Ids are matched loosely (:func:`canonical_options`). Every problem raises ``InvalidSetup``
    (a ``ValueError``) with a message naming it.
    """
    options = canonical_options(edition, options)
    _check_option_types(options)
    unknown = sorted(set(options) - set(edition.options))
    if unknown:
        known = ", ".join(edition.options) or "none"
        raise InvalidSetup(
            f"unknown option(s) for edition {edition.id!r}: {', '.join(unknown)}; "
            f"known options: {known}"
        )
    if type(players) is not int or not edition.min_players <= players <= edition.max_players:
        raise InvalidSetup(
            f"edition {edition.id!r} plays with {edition.min_players} to "
            f"{edition.max_players} players, not {describe(players)}"
        ).because(
            "player_count",
            edition=edition.id,
            low=edition.min_players,
            high=edition.max_players,
            given=describe(players),
        )
    preset = None
    if options.get("preset") is not None:
        where = f" for {edition.id!r}"
        name = resolve_id(options["preset"], edition.presets, "preset", where=where)
        preset = edition.presets[name]
    characters = options.get("characters")
    if characters is None:
        characters = preset.characters if preset else edition.default_characters
        characters = _substitute(edition, players, characters)
    characters = _check_characters(edition, players, characters)
    purple = options.get("districts")
    if purple is None and preset is not None:
        purple = preset.districts
    deck = _deck(edition, purple)
    if edition.unique_districts and purple is not None and len(purple) != edition.unique_districts:
        raise InvalidSetup(
            f"the {edition.id} deck takes exactly {edition.unique_districts} unique districts "
            f"(N-1), not {len(purple)}"
        ).because(
            "unique_count", edition=edition.id, count=edition.unique_districts, given=len(purple)
        )
    if "diplomat" in characters:
        # K-7: the Diplomat takes the Graveyard out of the deck.
        deck.pop("graveyard", None)
    complete_at = options.get("complete_at")
    if complete_at is not None and (
        type(complete_at) is not int or complete_at not in edition.city_size_options
    ):
        allowed = ", ".join(map(str, edition.city_size_options)) or "none"
        rule = "N-4" if edition.id == "2016" else "K-6"
        raise InvalidSetup(
            f"complete_at must be one of {allowed} ({rule}), not {describe(complete_at)}"
        ).because("complete_at", allowed=allowed, rule=rule, given=describe(complete_at))
    return Setup(characters, deck, edition.completion_size(players, complete_at))


def _check_option_types(options: Any) -> None:
    """Options are a mapping of option names; ids are strings and id lists lists of strings
    (checked before any lookup, so a list where an id belongs is named, not hashed)."""
    if not isinstance(options, Mapping):
        raise InvalidSetup(f"options must be a mapping of option names, not {describe(options)}")
    for key, value in options.items():
        if type(key) is not str:
            raise InvalidSetup(f"option names must be strings, not {describe(key)}")
        if key == "preset" and value is not None and type(value) is not str:
            raise InvalidSetup(f"preset must be the name of a preset, not {describe(value)}")
        if (
            key in ("characters", "districts")
            and value is not None
            and (not isinstance(value, (list, tuple)) or not all(type(x) is str for x in value))
        ):
            what = "character ids" if key == "characters" else "purple district ids"
            raise InvalidSetup(f"{key} must be a list of {what} (strings), not {describe(value)}")


def _check_characters(edition: Edition, players: int, chosen: Any) -> tuple[str, ...]:
    """K-7: one character per rank 1–8, at most one rank 9; rank 9 for 8 players (C-5); the
    Queen only with 5+ players."""
    if isinstance(chosen, str) or not isinstance(chosen, (list, tuple)):
        raise InvalidSetup("characters must be a list of character ids")
    unknown = [c for c in chosen if c not in edition.characters]
    if unknown:
        named = ", ".join(f"{describe(c)}{did_you_mean(c, edition.characters)}" for c in unknown)
        raise InvalidSetup(
            f"unknown character(s) for {edition.id!r}: {named}; 'citadels editions' lists them"
        ).because(
            "unknown_characters",
            edition=edition.id,
            given=", ".join(map(describe, unknown)),
            suggestion=suggest(unknown[0], edition.characters) if len(unknown) == 1 else None,
        )
    by_rank: dict[int, str] = {}
    for c in chosen:
        rank = edition.characters[c].rank
        if rank in by_rank:
            raise InvalidSetup(
                f"two characters of rank {rank}: {by_rank[rank]} and {c} (one per rank, K-7)"
            ).because("two_of_rank", rank=rank, first=by_rank[rank], second=c)
        by_rank[rank] = c
    missing = [r for r in range(1, 9) if r not in by_rank]
    if missing:
        raise InvalidSetup(f"no character of rank {', '.join(map(str, missing))} (K-7)").because(
            "missing_rank", ranks=", ".join(map(str, missing))
        )
    if players == 8 and 9 not in by_rank:
        nines, presets = _rank9_choices(edition)
        raise InvalidSetup(_rank9_needed(edition)).because(
            "rank9_needed", rank9=", ".join(nines), presets=", ".join(presets)
        )
    if "emperor" in chosen and players == 2 and edition.id == "2016":
        raise InvalidSetup("the Emperor is not used with 2 players (N-2)").because("emperor_2")
    if "queen" in chosen and players < 5:
        raise InvalidSetup("the Queen needs 5 or more players (K-7, R-28)").because("queen_5")
    return tuple(sorted(chosen, key=lambda c: edition.characters[c].rank))


def _rank9_choices(edition: Edition) -> tuple[list[str], list[str]]:
    """The rank-9 characters of an edition and its presets for 8 players that have one."""
    nines = [c for c, card in edition.characters.items() if card.rank == 9]
    presets = [
        p.id
        for p in edition.presets.values()
        if p.max_players >= 8 and any(edition.characters[c].rank == 9 for c in p.characters)
    ]
    return nines, presets


def _rank9_needed(edition: Edition) -> str:
    """The 8-player error, with the ways to fix it: a rank-9 character to add, or a preset
    that has one."""
    nines, presets = _rank9_choices(edition)
    fixes = []
    if nines:
        fixes.append(f"add a rank-9 character ({', '.join(nines)}) to the characters")
    if presets:
        fixes.append(f"choose a preset with one ({', '.join(presets)})")
    fix = f": {', or '.join(fixes)}" if fixes else ""
    return f"8 players need a rank-9 character (K-7, N-1, C-5){fix}"


def _substitute(edition: Edition, players: int, chosen: tuple[str, ...]) -> tuple[str, ...]:
    """T8: a preset's Emperor becomes the King with 2 players, its Queen the Artist under 5
    players; 8 players with no rank 9 take the Queen (project decision, T8 (?))."""
    out = []
    for c in chosen:
        rule = edition.preset_substitutes.get(c)
        out.append(rule[1] if rule is not None and players < rule[0] else c)
    if (
        players == 8
        and edition.preset_substitutes
        and all(edition.characters[c].rank != 9 for c in out)
    ):
        out.append("queen")
    return tuple(out)


def _deck(edition: Edition, purple: Any) -> dict[str, int]:
    if purple is None:
        return dict(edition.deck)
    if isinstance(purple, str) or not isinstance(purple, (list, tuple)):
        raise InvalidSetup("districts must be a list of purple district ids")
    unknown = [d for d in purple if d not in edition.purple_pool]
    if unknown:
        known = ", ".join(edition.purple_pool)
        named = ", ".join(f"{describe(d)}{did_you_mean(d, edition.purple_pool)}" for d in unknown)
        raise InvalidSetup(
            f"not a purple district of {edition.id!r}: {named}; choose among: {known}"
        ).because(
            "unknown_districts",
            edition=edition.id,
            given=", ".join(map(describe, unknown)),
            known=known,
            suggestion=suggest(unknown[0], edition.purple_pool) if len(unknown) == 1 else None,
        )
    if len(set(purple)) != len(purple):
        raise InvalidSetup("districts lists a purple district twice").because("district_twice")
    deck = {d: n for d, n in edition.deck.items() if edition.districts[d].colour != "purple"}
    for d in purple:
        deck[d] = edition.purple_pool[d]
    return deck
