"""``citadels editions``: each edition's players, city size, characters, deck, rule switches
and presets, in the reader's language (``--json`` gives the same facts as data)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citadels.cli.render import (
    COLOUR_STYLES,
    card_name,
    character_text,
    ids_with_copies,
    is_bonus_character,
    purple_ids,
)
from citadels.editions import Edition, Preset, resolve_setup
from citadels.present import N_, colour_label, translator
from citadels.present.i18n import NC_, Translator
from citadels.present.labels import COLOUR_KINDS

#: ``Edition`` fields that are data (cards, players, sizes, options, advice), not rule switches.
_DATA_FIELDS = frozenset(
    {
        "id",
        "title",
        "sources",
        "districts",
        "deck",
        "characters",
        "default_characters",
        "colours",
        "min_players",
        "max_players",
        "city_size",
        "city_size_small",
        "city_size_options",
        "options",
        "purple_pool",
        "presets",
        "setup_advice",
    }
)

_WARLORD_TIMING: dict[str, str] = {
    "after_gather": N_("the Warlord destroys after gathering"),
    "any_time": N_("the Warlord destroys at any time of his turn"),
    "end_of_turn": N_("the Warlord (and the Diplomat) act at the end of the turn"),
}

_TWO_PLAYER: dict[str, str] = {
    "twice_round": N_("2 players: picking goes round twice"),
    "keep_and_put_aside": N_("2 players: keep one, put one aside face down, pass the rest"),
}

# A switch that only matters when the edition has this card: name -> (card, sentence when
# true, sentence when false).
_CARD_SWITCHES: dict[str, tuple[str, str, str]] = {
    "graveyard_excludes_warlord": (
        "graveyard",
        N_("the Graveyard never serves its own Warlord"),
        N_("the Graveyard serves its own Warlord too"),
    ),
    "observatory_optional": (
        "observatory",
        N_("the Observatory's third card is optional"),
        N_("the Observatory always draws 3"),
    ),
    "haunted_city_final_round": (
        "haunted_city",
        N_("a Haunted City built in the final round is purple only"),
        N_("the Haunted City takes any colour at scoring"),
    ),
    "quarry_limit": (
        "quarry",
        N_("the Quarry allows one duplicated name at a time"),
        N_("the Quarry allows any number of duplicates"),
    ),
    "armory_own_city": (
        "armory",
        N_("the Armory may hit its owner's city"),
        N_("the Armory hits other cities"),
    ),
    "library_keeps_all": (
        "library",
        N_("the Library keeps every card drawn"),
        N_("the Library keeps 2"),
    ),
    "wishing_well_counts_itself": (
        "wishing_well",
        N_("the Wishing Well counts itself"),
        N_("the Wishing Well counts the other purples"),
    ),
    "tax_per_build": (
        "tax_collector",
        N_("the Tax Collector's token takes 1 gold per build"),
        N_("the Tax Collector takes 1 gold per turn with a build"),
    ),
}

# The tie-break criteria, in the order an edition applies them (C-15, K-5).
_TIE_WAYS: dict[str, str] = {
    "district_costs": NC_("tie-break", "district costs"),
    "gold": NC_("tie-break", "gold"),
    "character_rank": NC_("tie-break", "character rank"),
}

# A yes/no switch of every edition: name -> (sentence when true, sentence when false).
_SWITCHES: dict[str, tuple[str, str]] = {
    "automatic_income": (N_("automatic income when called"), N_("income is an action")),
    "free_order": (N_("build before or after gathering"), N_("gather before building")),
    "murdered_revealed_at_call": (
        N_("a murdered character is shown when called"),
        N_("a murdered character is shown at the end of the round"),
    ),
}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def rule_fields(edition: Edition) -> dict[str, Any]:
    """Every rule switch of the edition (the ``Edition`` fields that are not card data)."""
    return {
        f.name: _jsonable(getattr(edition, f.name))
        for f in dataclasses.fields(edition)
        if f.name not in _DATA_FIELDS
    }


def _switch_sentence(edition: Edition, name: str, value: Any, tr: Translator) -> str | None:
    """One switch as a short sentence in ``tr``'s language; ``None`` when it does not matter
    for this edition's cards (a Graveyard rule without a Graveyard)."""
    if name in _SWITCHES:
        return tr.gettext(_SWITCHES[name][0 if value else 1])
    if name in _CARD_SWITCHES:
        card, yes, no = _CARD_SWITCHES[name]
        if card not in edition.districts and card not in edition.characters:
            return None
        return tr.gettext(yes if value else no)
    if name == "keep_blocks_giving":
        if not ("keep" in edition.districts and "diplomat" in edition.characters):
            return None
        if value:
            return tr.gettext("the Diplomat may not give a Keep")
        return tr.gettext("the Diplomat may give his Keep")
    if name == "warlord_timing" and value in _WARLORD_TIMING:
        return tr.gettext(_WARLORD_TIMING[value])
    if name == "two_player_selection" and value in _TWO_PLAYER:
        return tr.gettext(_TWO_PLAYER[value])
    if name == "assassin_min_rank":
        return tr.gettext("the Assassin names rank {rank}+", rank=value)
    if name == "thief_min_rank":
        return tr.gettext("the Thief names rank {rank}+", rank=value)
    if name == "tiebreak":
        ways = [tr.pgettext("tie-break", _TIE_WAYS[t]) if t in _TIE_WAYS else t for t in value]
        return tr.gettext(
            "tie-break: {ways}", ways=tr.gettext(", ").join(ways) or tr.gettext("none")
        )
    if name == "laboratory_gold":
        if "laboratory" not in edition.districts:
            return None
        return tr.gettext("the Laboratory pays {gold} gold", gold=value)
    if name == "unique_districts":
        if not value:
            return None
        return tr.gettext("the deck takes {count} unique districts", count=value)
    if name == "preset_substitutes":
        if not value:
            return None
        swaps = [
            tr.gettext(
                "{character} → {substitute} under {n} players",
                character=card_name(edition, c, tr.lang),
                substitute=card_name(edition, sub, tr.lang),
                n=n,
            )
            for c, (n, sub) in value.items()
        ]
        return tr.gettext("preset substitutions: {swaps}", swaps=tr.gettext(", ").join(swaps))
    return f"{name}: {value}"


def rule_switches(edition: Edition, lang: str = "en") -> list[str]:
    """The edition's rule switches (``Edition`` fields), one short sentence each, in
    ``lang``."""
    tr = translator(lang)
    out = []
    for name, value in rule_fields(edition).items():
        sentence = _switch_sentence(edition, name, value, tr)
        if sentence is not None:
            out.append(sentence)
    return out


def _count_by_colour(edition: Edition) -> dict[str, int]:
    counts: dict[str, int] = {}
    for district_id, copies in edition.deck.items():
        colour = edition.districts[district_id].colour
        counts[colour] = counts.get(colour, 0) + copies
    return counts


def _needs_rank_9(edition: Edition) -> bool:
    """C-5, K-7: the largest table needs a rank-9 character (9 characters for 8 players)."""
    return edition.max_players >= 8 and any(c.rank == 9 for c in edition.characters.values())


def _players_range(edition: Edition, tr: Translator) -> str:
    text = f"{tr.number(edition.min_players)}–{tr.number(edition.max_players)}"
    if _needs_rank_9(edition):
        text += " " + tr.gettext("({n} with a rank-9 character)", n=edition.max_players)
    return text


def _city_size(edition: Edition, tr: Translator) -> str:
    size = tr.number(edition.city_size)
    if edition.city_size != edition.city_size_small:
        size += " " + tr.gettext("({n} with 2–3 players)", n=edition.city_size_small)
    if edition.city_size_options:
        sizes = "/".join(tr.number(n) for n in edition.city_size_options)
        size += tr.gettext("; option complete_at {sizes}", sizes=sizes)
    return size


def _characters_by_rank(edition: Edition) -> list[tuple[int, list[str]]]:
    """Every character of the edition grouped by rank: default characters first."""
    ranks: dict[int, list[str]] = {}
    for c in edition.default_characters:
        ranks.setdefault(edition.characters[c].rank, []).append(c)
    for c, card in edition.characters.items():
        if c not in edition.default_characters:
            ranks.setdefault(card.rank, []).append(c)
    return sorted(ranks.items())


def _option_text(edition: Edition, tr: Translator) -> str:
    if not edition.options:
        return tr.gettext("none")
    parts = []
    for name, default in edition.options.items():
        parts.append(
            name
            if default is None
            else tr.gettext("{option} (default {value})", option=name, value=default)
        )
    return tr.gettext(", ").join(parts)


def _named_ids(edition: Edition, ids: Iterable[str], tr: Translator) -> list[str]:
    """District ids as the options take them; in another language than English, each with its
    name first (``شهر متروک (haunted_city)``)."""
    if tr.lang == "en":
        return list(ids)
    return [tr.gettext("{name} ({id})", name=card_name(edition, d, tr.lang), id=d) for d in ids]


def _purple_list(edition: Edition, ids: list[str], deck: Mapping[str, int], tr: Translator) -> str:
    named = _named_ids(edition, ids, tr)
    return ids_with_copies(
        named, {n: deck.get(d, 1) for n, d in zip(named, ids, strict=True)}, tr.lang
    )


def preset_deck(edition: Edition, preset: Preset) -> dict[str, int]:
    """The district deck a preset plays with (the Diplomat takes the Graveyard out, K-7)."""
    return resolve_setup(edition, preset.min_players, {"preset": preset.id}).deck


def _purple_change(edition: Edition, deck: Mapping[str, int], tr: Translator) -> Text:
    """A deck's purple districts as a change to the default deck's (``the default purples +
    a, b − c``), or listed in full when that is shorter."""
    default = purple_ids(edition, edition.deck)
    purple = purple_ids(edition, deck)
    added = [d for d in purple if d not in edition.deck]
    removed = [d for d in default if d not in deck]
    style = COLOUR_STYLES["purple"]
    if len(added) + len(removed) >= len(purple):
        return Text(_purple_list(edition, purple, deck, tr), style=style)
    text = Text(tr.gettext("the default purples"), style=style)
    comma = tr.gettext(", ")
    if added:
        text.append(" + " + comma.join(_named_ids(edition, added, tr)), style=style)
    if removed:
        text.append(" − " + comma.join(_named_ids(edition, removed, tr)), style=style)
    return text


def _preset_block(edition: Edition, tr: Translator) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    lang = tr.lang
    for preset in edition.presets.values():
        span = f"{tr.number(preset.min_players)}–{tr.number(preset.max_players)}"
        players = tr.gettext("({players} players)", players=span)
        head = Text.assemble((preset.id, "bold"), " " + players)
        body = Text(tr.gettext(preset.title))
        body.append("\n" + tr.gettext("characters:") + " ", style="dim")
        body.append_text(character_text(edition, preset.characters, ranks=False, lang=lang))
        body.append("\n" + tr.gettext("purple:") + " ", style="dim")
        body.append_text(_purple_change(edition, preset_deck(edition, preset), tr))
        table.add_row(head, body)
    return table


def editions_table(editions: Iterable[Edition], lang: str = "en") -> RenderableType:
    """The editions: players, city size, characters by rank, deck, options, rules, presets,
    in ``lang``."""
    tr = translator(lang)
    blocks: list[RenderableType] = []
    for ed in editions:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        ranks: list[RenderableType] = []
        for rank, ids in _characters_by_rank(ed):
            group = Text(tr.number(rank) + " ", style="bold")
            group.append_text(character_text(ed, ids, ranks=False, lang=lang))
            ranks.append(group)
        characters: RenderableType = Columns(ranks, padding=(0, 2))
        if any(is_bonus_character(ed, c) for c in ed.characters):
            note = tr.gettext("* not in the default set: by the characters option or a preset")
            characters = Group(characters, Text(note, "dim"))
        composition = Text(tr.ngettext("{n} card: ", "{n} cards: ", sum(ed.deck.values())))
        for i, (colour, count) in enumerate(_count_by_colour(ed).items()):
            if i:
                composition.append(tr.gettext(", "))
            word = colour_label(COLOUR_KINDS.get(colour, colour), lang, ed).word
            composition.append(
                tr.gettext("{count} {colour}", count=count, colour=word),
                style=COLOUR_STYLES.get(colour, ""),
            )
        purple = purple_ids(ed, ed.deck)
        grid.add_row(tr.gettext("players"), _players_range(ed, tr))
        grid.add_row(tr.gettext("city size"), _city_size(ed, tr))
        grid.add_row(tr.gettext("characters"), characters)
        grid.add_row(tr.gettext("deck"), composition)
        if purple:
            grid.add_row(
                tr.gettext("purple"),
                Text(_purple_list(ed, purple, ed.deck, tr), style=COLOUR_STYLES["purple"]),
            )
        extra = [d for d in ed.purple_pool if d not in ed.deck]
        if extra:
            grid.add_row(
                tr.gettext("more purple"),
                Text.assemble(
                    (tr.gettext(", ").join(_named_ids(ed, extra, tr)), COLOUR_STYLES["purple"]),
                    (" " + tr.gettext("(by the districts option)"), "dim"),
                ),
            )
        grid.add_row(tr.gettext("options"), _option_text(ed, tr))
        grid.add_row(tr.gettext("rules"), "\n".join(rule_switches(ed, lang)))
        if ed.setup_advice:
            grid.add_row(tr.gettext("custom setup"), Text(tr.gettext(ed.setup_advice)))
        if ed.presets:
            grid.add_row(tr.gettext("presets"), _preset_block(ed, tr))
        title = Text.assemble((ed.id, "bold cyan"), " — ", tr.gettext(ed.title))
        blocks.append(Group(Rule(title, align="left", style="cyan"), grid, Text()))
    return Group(*blocks)


def edition_summary(edition: Edition) -> dict[str, Any]:
    """The facts ``citadels editions --json`` prints for one edition (data: ids and the
    engine's English names, whatever the language)."""
    return {
        "id": edition.id,
        "title": edition.title,
        "min_players": edition.min_players,
        "max_players": edition.max_players,
        "city_size": edition.city_size,
        "city_size_small": edition.city_size_small,
        "city_size_options": list(edition.city_size_options),
        "characters": list(edition.default_characters),
        "characters_by_rank": {
            str(rank): [
                {
                    "id": c,
                    "name": edition.characters[c].name,
                    "colour": edition.characters[c].colour,
                    "bonus": is_bonus_character(edition, c),
                }
                for c in ids
            ]
            for rank, ids in _characters_by_rank(edition)
        },
        "deck_size": sum(edition.deck.values()),
        "deck_by_colour": _count_by_colour(edition),
        "purple": {d: edition.deck[d] for d in purple_ids(edition, edition.deck)},
        "purple_pool": dict(edition.purple_pool),
        "options": dict(edition.options),
        "rules": rule_fields(edition),
        "setup_advice": edition.setup_advice or None,
        "presets": [
            {
                "id": p.id,
                "title": p.title,
                "characters": list(p.characters),
                "districts": list(p.districts),
                "deck_purple": {
                    d: n
                    for d, n in preset_deck(edition, p).items()
                    if edition.districts[d].colour == "purple"
                },
                "min_players": p.min_players,
                "max_players": p.max_players,
            }
            for p in edition.presets.values()
        ],
    }
