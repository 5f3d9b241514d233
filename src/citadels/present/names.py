"""The names of every card, edition and preset, marked for translation.

The engine keeps plain data (``citadels.cards``, ``citadels.editions``): ids and English names.
These tables mark the same English names for extraction, so the catalogs translate them; a
test checks they hold every name of every edition.

A card has one name in each language, whatever the edition, except where an edition's own
rulebook names it otherwise: :data:`EDITION_NAMES` marks those names in the edition's context
(``msgctxt "dezh"``), which :func:`citadels.present.card_name` looks up first. Every catalog has
the entry; a language without such a rulebook gives it its one name.
"""

from __future__ import annotations

from citadels.present.i18n import N_, NC_

#: Every character's name, by id.
CHARACTER_NAMES: dict[str, str] = {
    "assassin": N_("Assassin"),
    "thief": N_("Thief"),
    "magician": N_("Magician"),
    "king": N_("King"),
    "bishop": N_("Bishop"),
    "merchant": N_("Merchant"),
    "architect": N_("Architect"),
    "warlord": N_("Warlord"),
    "witch": N_("Witch"),
    "tax_collector": N_("Tax Collector"),
    "wizard": N_("Wizard"),
    "emperor": N_("Emperor"),
    "abbot": N_("Abbot"),
    "alchemist": N_("Alchemist"),
    "navigator": N_("Navigator"),
    "diplomat": N_("Diplomat"),
    "queen": N_("Queen"),
    "artist": N_("Artist"),
    "magistrate": N_("Magistrate"),
    "spy": N_("Spy"),
    "blackmailer": N_("Blackmailer"),
    "seer": N_("Seer"),
    "patrician": N_("Patrician"),
    "cardinal": N_("Cardinal"),
    "trader": N_("Trader"),
    "scholar": N_("Scholar"),
    "marshal": N_("Marshal"),
}

#: Every district's name, by id.
DISTRICT_NAMES: dict[str, str] = {
    "manor": N_("Manor"),
    "castle": N_("Castle"),
    "palace": N_("Palace"),
    "temple": N_("Temple"),
    "church": N_("Church"),
    "monastery": N_("Monastery"),
    "cathedral": N_("Cathedral"),
    "tavern": N_("Tavern"),
    "market": N_("Market"),
    "trading_post": N_("Trading Post"),
    "docks": N_("Docks"),
    "harbor": N_("Harbor"),
    "town_hall": N_("Town Hall"),
    "watchtower": N_("Watchtower"),
    "prison": N_("Prison"),
    "battlefield": N_("Battlefield"),
    "fortress": N_("Fortress"),
    "haunted_city": N_("Haunted City"),
    "keep": N_("Keep"),
    "observatory": N_("Observatory"),
    "graveyard": N_("Graveyard"),
    "laboratory": N_("Laboratory"),
    "smithy": N_("Smithy"),
    "dragon_gate": N_("Dragon Gate"),
    "university": N_("University"),
    "library": N_("Library"),
    "great_wall": N_("Great Wall"),
    "school_of_magic": N_("School of Magic"),
    "lighthouse": N_("Lighthouse"),
    "armory": N_("Armory"),
    "museum": N_("Museum"),
    "imperial_treasury": N_("Imperial Treasury"),
    "map_room": N_("Map Room"),
    "wishing_well": N_("Wishing Well"),
    "quarry": N_("Quarry"),
    "poor_house": N_("Poor House"),
    "bell_tower": N_("Bell Tower"),
    "factory": N_("Factory"),
    "park": N_("Park"),
    "hospital": N_("Hospital"),
    "throne_room": N_("Throne Room"),
    "ball_room": N_("Ball Room"),
    "barracks": N_("Barracks"),
    "basilica": N_("Basilica"),
    "capitol": N_("Capitol"),
    "framework": N_("Framework"),
    "gold_mine": N_("Gold Mine"),
    "haunted_quarter": N_("Haunted Quarter"),
    "ivory_tower": N_("Ivory Tower"),
    "monument": N_("Monument"),
    "necropolis": N_("Necropolis"),
    "secret_vault": N_("Secret Vault"),
    "stables": N_("Stables"),
    "statue": N_("Statue"),
    "theater": N_("Theater"),
    "thieves_den": N_("Thieves' Den"),
}

#: The names an edition's own rulebook gives (seed 001, the Dezh rulebook, has its own Thief,
#: Magician, Bishop and Merchant, and calls the Laboratory «کیمیاگری», a word the other
#: editions cannot use beside their Alchemist): edition -> card id -> name in its context.
EDITION_NAMES: dict[str, dict[str, str]] = {
    "dezh": {
        "thief": NC_("dezh", "Thief"),
        "magician": NC_("dezh", "Magician"),
        "bishop": NC_("dezh", "Bishop"),
        "merchant": NC_("dezh", "Merchant"),
        "laboratory": NC_("dezh", "Laboratory"),
    },
}

#: The sentences that name one of these cards in a game of that edition, marked in its
#: context so that they use the edition's names (the renderers look every text up in the
#: edition's context first).
EDITION_SENTENCES: tuple[str, ...] = (
    NC_("dezh", "The Thief ({thief}) takes {gold} gold from {who}."),
    NC_("dezh", "The Thief will rob the {character}."),
    NC_("dezh", "{who} discards a card for {gold} gold (Laboratory)."),
    NC_("dezh", "{who} discards a card for {gold} gold (Laboratory): the {card}."),
    NC_("dezh", "Discard the {district} for {gold} gold (Laboratory)"),
)

#: Every edition's title, by id.
EDITION_TITLES: dict[str, str] = {
    "basic": N_("Basic (four colours, no purple)"),
    "dezh": N_("Dezh (the Iranian edition)"),
    "classic": N_("Classic (2006 rulebook with Dark City)"),
    "2016": N_("Citadels 2016 (27 characters, 30 unique districts)"),
}

#: The rulebooks' advice for a custom setup (``Edition.setup_advice``), marked for translation.
SETUP_ADVICE: tuple[str, ...] = (
    N_(
        "The rulebook suggests swapping one or two of the 8 base characters for Dark City "
        "characters of the same rank (a rank-9 character may be added) and adding two or "
        "three bonus purple districts, taking out one base purple for each further one. The "
        "engine accepts more: any Dark City character for any rank, and any list of purple "
        "districts from the pool."
    ),
    N_(
        "The rulebook suggests the first game (the 8 base characters and its 14 unique "
        "districts), then its named setups. The engine accepts any one character per rank "
        "(rank 9 optional, needed for 8 players) and any 14 of the 30 unique districts."
    ),
)

#: Every preset's name (its id in title case) and what it changes.
PRESET_NAMES: dict[str, str] = {
    "base": N_("Base"),
    "dark_city": N_("Dark City"),
    "witch_hunt": N_("Witch Hunt"),
    "imperial_court": N_("Imperial Court"),
    "artisans": N_("Artisans"),
    "first_game": N_("First Game"),
    "ambitious_aristocrats": N_("Ambitious Aristocrats"),
    "cunning_agents": N_("Cunning Agents"),
    "illustrious_emissaries": N_("Illustrious Emissaries"),
    "devious_dignitaries": N_("Devious Dignitaries"),
    "tenacious_delegates": N_("Tenacious Delegates"),
    "vicious_nobles": N_("Vicious Nobles"),
}

PRESET_TITLES: tuple[str, ...] = (
    N_("The basic game: 8 base characters, 12 base purples"),
    N_("Wizard and Navigator; Museum, Quarry and Imperial Treasury added"),
    N_("Witch and Tax Collector; Hospital, Armory and Poor House added"),
    N_(
        "Emperor, Abbot and the Queen (5–8 players); Throne Room, Bell Tower, Wishing Well "
        "and Map Room in for the University"
    ),
    N_(
        "Alchemist, Diplomat and the Artist; Factory, Park and Lighthouse added (the Diplomat "
        "takes the Graveyard out)"
    ),
    N_("First game: the 8 base characters"),
    N_("Ambitious Aristocrats"),
    N_("Cunning Agents"),
    N_("Illustrious Emissaries"),
    N_("Devious Dignitaries"),
    N_("Tenacious Delegates"),
    N_("Vicious Nobles"),
)
