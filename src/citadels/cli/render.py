"""Rich renderings for the terminal: the narrated log, the result, editions, statistics."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from citadels.bench import (
    GOAL_CLASSIC_GAMES_PER_SECOND,
    GOAL_COPY_MICROSECONDS,
    BenchReport,
)
from citadels.editions import Edition, Preset, Setup, resolve_setup
from citadels.engine.scoring import Outcome
from citadels.present import N_, render_event, tiebreak_text, translator
from citadels.present import card_name as present_card_name
from citadels.present.i18n import localize_digits
from citadels.sim import SimStats
from citadels.sim.tournament import Rate, TournamentResult

#: Terminal style of each card colour.
COLOUR_STYLES: dict[str, str] = {
    "yellow": "yellow",
    "blue": "blue",
    "green": "green",
    "red": "red",
    "purple": "magenta",
}

# The style of each event kind's line; kinds not listed are printed plainly.
_EVENT_STYLES: dict[str, str] = {
    "setup": "bold",
    "deal": "dim",
    "put_aside": "dim",
    "look_facedown": "dim",
    "pick": "dim",
    "call": "dim italic",
    "murder": "bold red",
    "rob": "red",
    "robbed": "red",
    "destroy": "bold red",
    "murdered_revealed": "red",
    "crown": "bold yellow",
    "crown_stays": "yellow",
    "tribute": "yellow",
    "throne_room": "yellow",
    "queen": "yellow",
    "take_from_richest": "yellow",
    "tax": "yellow",
    "bewitch": "bold magenta",
    "witch_resumes": "bold magenta",
    "take_card": "magenta",
    "exchange_district": "bold red",
    "armory": "bold red",
    "bell_tower_silenced": "bold yellow",
    "confiscate": "bold red",
    "seize": "bold red",
    "threat_revealed": "red",
    "theater": "magenta",
    "city_complete": "bold green",
    "end_turn": "dim",
    "round_end": "dim",
    "game_over": "bold",
}

# Events that belong to a character's turn are indented under its reveal (or under the line
# where the Witch takes over a bewitched turn).
_TURN_KINDS = frozenset(
    {
        "murder",
        "rob",
        "robbed",
        "crown",
        "income",
        "extra_gold",
        "extra_cards",
        "gather_gold",
        "gather_cards",
        "keep",
        "build",
        "city_complete",
        "exchange_hands",
        "redraw",
        "destroy",
        "graveyard",
        "laboratory",
        "smithy",
        "end_turn",
        # Dark City characters.
        "bewitch",
        "tax",
        "look_at_hand",
        "take_card",
        "crown_stays",
        "tribute",
        "take_from_richest",
        "exchange_district",
        "queen",
        "beautify",
        "alchemist",
        # Dark City districts.
        "lighthouse",
        "bell_tower",
        "bell_tower_silenced",
        "armory",
        "museum",
        "poor_house",
        "park",
        "throne_room",
        # The 2016 characters and districts.
        "tax_token",
        "warrants",
        "warrant_passed",
        "confiscate",
        "threats",
        "ransom",
        "ransom_refused",
        "threat_revealed",
        "threat_kept",
        "spy",
        "seer_take",
        "seer_give",
        "give_card",
        "loan",
        "study",
        "seize",
        "sacrifice",
        "pay_with_cards",
    }
)

# Event fields that name a district, highlighted in the district's colour.
_DISTRICT_FIELDS = ("district", "give", "take", "for")
# Events whose ``character`` field is highlighted in the character's colour.
_CHARACTER_KINDS = frozenset({"reveal", "murder", "rob", "bewitch", "witch_resumes"})


def _card_style(edition: Edition, card_id: str) -> str:
    district = edition.districts.get(card_id)
    if district is not None:
        return COLOUR_STYLES.get(district.colour, "")
    character = edition.characters.get(card_id)
    if character is not None and character.colour is not None:
        return COLOUR_STYLES.get(character.colour, "")
    return ""


def card_name(edition: Edition, card_id: str, lang: str = "en") -> str:
    """The name of a district or character of ``edition`` in ``lang``."""
    return present_card_name(edition, card_id, lang)


def event_line(edition: Edition, event: dict[str, Any], lang: str = "en") -> Text:
    """One rendered event (from a view's ``log``) as a styled line of text in ``lang``."""
    kind = event.get("kind", "")
    style = _EVENT_STYLES.get(kind, "")
    if kind == "bell_tower":
        style = "bold green" if event.get("announce") else "dim"
    text = Text(render_event(edition, event, lang), style=style)
    if kind == "reveal":
        text.stylize("bold")
    if kind in _CHARACTER_KINDS:
        character = str(event.get("character", ""))
        if character in edition.characters:
            text.highlight_words(
                [card_name(edition, character, lang)],
                style=_card_style(edition, character) or "cyan",
            )
    for name in _DISTRICT_FIELDS:
        district = event.get(name)
        if isinstance(district, str) and district in edition.districts:
            colour = _card_style(edition, district)
            if colour:
                text.highlight_words([card_name(edition, district, lang)], style=f"bold {colour}")
    return text


def _indent(kind: str) -> int:
    return 4 if kind in _TURN_KINDS else 2


def rounds(log: Iterable[dict[str, Any]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Split a log into ``(round, events)`` groups; events before round 1 are round 0."""
    current = 0
    events: list[dict[str, Any]] = []
    for event in log:
        if event.get("kind") == "round":
            if events:
                yield current, events
            current = int(event.get("round", current + 1))
            events = []
        events.append(event)
    if events:
        yield current, events


def narration(
    edition: Edition,
    log: Sequence[dict[str, Any]],
    setup: RenderableType | None = None,
    lang: str = "en",
) -> Iterator[RenderableType]:
    """The log as renderables in ``lang``: a header per round, then one line per event.
    ``setup``, when given, is shown under the first header (the characters and purple
    districts in play)."""
    tr = translator(lang)
    for number, events in rounds(log):
        title = tr.gettext("Setup") if number == 0 else tr.gettext("Round {n}", n=number)
        crown = events[0].get("crown") if number else None
        if crown is not None:
            title += " · " + tr.gettext("crown: seat {seat}", seat=crown)
        yield Rule(Text(title, style="bold cyan"), align="left", style="cyan")
        if number == 0 and setup is not None:
            yield Padding(setup, (0, 0, 0, 2), expand=False)
        bewitched: str | None = None
        for event in events:
            kind = str(event.get("kind", ""))
            line = event_line(edition, event, lang)
            if kind == "bewitch":
                bewitched = str(event.get("character"))
            elif kind == "reveal" and bewitched is not None and event.get("character") == bewitched:
                # the bewitched holder only gathers; the Witch plays the rest of his turn.
                line.append(" " + tr.gettext("Bewitched: he only gathers."), style="magenta")
            yield Padding(line, (0, 0, 0, _indent(kind)), expand=False)


def print_narration(
    console: Console,
    edition: Edition,
    log: Sequence[dict[str, Any]],
    setup: RenderableType | None = None,
    lang: str = "en",
) -> None:
    """Print the narrated log in ``lang``, round by round (``setup`` under the first header)."""
    for renderable in narration(edition, log, setup, lang):
        console.print(renderable)


def is_bonus_character(edition: Edition, character: str) -> bool:
    """Whether ``character`` is one of the edition's bonus characters (not a default one)."""
    return character not in edition.default_characters


def _character_text(
    edition: Edition, characters: Iterable[str], *, ranks: bool = True, lang: str = "en"
) -> Text:
    """Characters as ``1 Assassin, 2 Thief, …``; bonus characters marked ``*`` in magenta."""
    tr = translator(lang)
    out = Text()
    for i, c in enumerate(characters):
        if i:
            out.append(tr.gettext(", "))
        card = edition.characters[c]
        name = card_name(edition, c, lang)
        label = f"{tr.number(card.rank)} {name}" if ranks else name
        if is_bonus_character(edition, c):
            out.append(label + "*", style="magenta")
        else:
            out.append(label)
    return out


def _purple_ids(edition: Edition, deck: Mapping[str, int]) -> list[str]:
    """The purple district ids of a deck, in the edition's table order."""
    return [d for d in edition.districts if d in deck and edition.districts[d].colour == "purple"]


def _ids_with_copies(ids: Iterable[str], copies: Mapping[str, int]) -> str:
    return ", ".join(f"{d} ×{copies[d]}" if copies.get(d, 1) > 1 else d for d in ids)


def setup_summary(edition: Edition, setup: Setup, lang: str = "en") -> RenderableType:
    """A game's characters (bonus ones marked) and the purple districts of its deck; in
    English the districts are named by id (what the options take), otherwise by name."""
    tr = translator(lang)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_row(
        tr.gettext("characters"),
        Columns(
            [_character_text(edition, [c], lang=lang) for c in setup.characters], padding=(0, 2)
        ),
    )
    purple = _purple_ids(edition, setup.deck)
    if edition.purple_pool or purple:
        shown = purple if lang == "en" else [card_name(edition, d, lang) for d in purple]
        copies = {shown[i]: setup.deck[d] for i, d in enumerate(purple)}
        grid.add_row(
            tr.gettext("purple"),
            Text(
                _ids_with_copies(shown, copies) or tr.gettext("none"),
                style=COLOUR_STYLES["purple"],
            ),
        )
    grid.add_row(tr.gettext("city size"), tr.number(setup.complete_at))
    return grid


def _tiebreak(value: str | None, lang: str = "en") -> str:
    if value is None:
        return "—"
    if lang == "en":
        return value.replace("_", " ")
    return tiebreak_text(value, lang)


_RESULT_CAPTION = N_(
    "City: district costs · Colours: +3, every colour built · "
    "First: +4, first complete city · Complete: +2, other complete cities · "
    "Bonus: printed and end-of-game district points"
)


def result_table(outcome: Outcome, *, final: bool = True, lang: str = "en") -> Table:
    """The score table: each seat's score, its breakdown (C-15 a–e), rank and tie-break."""
    tr = translator(lang)
    num = tr.number
    title = (
        tr.gettext("Result")
        if final
        else tr.gettext("Scores if the game ended now, from public information")
    )
    table = Table(
        title=title,
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        caption=localize_digits(tr.gettext(_RESULT_CAPTION), lang),
        caption_style="dim",
    )
    table.add_column(tr.gettext("Seat"), justify="right")
    table.add_column(tr.gettext("Score"), justify="right", style="bold")
    for name in (N_("City"), N_("Colours"), N_("First"), N_("Complete"), N_("Bonus")):
        table.add_column(tr.gettext(name), justify="right")
    table.add_column(tr.gettext("Rank"), justify="right")
    table.add_column(tr.gettext("Tie-break"))
    for r in sorted(outcome, key=lambda r: (r.rank, r.seat)):
        b = r.breakdown
        table.add_row(
            num(r.seat),
            num(r.score),
            num(b.districts),
            num(b.colours),
            num(b.first_complete),
            num(b.complete),
            num(b.bonus),
            ("★ " + num(1) if r.rank == 1 and final else num(r.rank)),
            _tiebreak(r.tiebreak, lang),
            style="green" if r.rank == 1 and final else None,
        )
    return table


def cities_table(edition: Edition, view: dict[str, Any], lang: str = "en") -> Table:
    """Each seat's city, gold and hand size, from a view."""
    tr = translator(lang)
    num = tr.number
    table = Table(title=tr.gettext("Cities"), title_style="bold", header_style="bold")
    table.add_column(tr.gettext("Seat"), justify="right")
    table.add_column(tr.gettext("Gold"), justify="right")
    table.add_column(tr.gettext("Hand"), justify="right")
    table.add_column(tr.gettext("City"))
    for player in view["players"]:
        city = Text()
        beautified = list(player.get("beautified", []))
        for i, district in enumerate(player["city"]):
            if i:
                city.append(tr.gettext(", "))
            city.append(card_name(edition, district, lang), style=_card_style(edition, district))
            if district in beautified:
                # the Artist's gold on it, worth 1 more.
                beautified.remove(district)
                city.append(" +" + num(1), style="bold yellow")
            if district == "museum" and player.get("museum_size"):
                city.append(
                    " " + tr.gettext("({n} beneath)", n=int(player["museum_size"])), style="dim"
                )
        table.add_row(num(player["seat"]), num(player["gold"]), num(player["hand_size"]), city)
    caption = []
    if any(p.get("beautified") for p in view["players"]):
        caption.append(localize_digits(tr.gettext("+1: beautified by the Artist"), lang))
    if view.get("bell_tower") is not None:
        caption.append(
            tr.gettext(
                "Bell Tower of seat {seat}: {n} districts complete a city",
                seat=int(view["bell_tower"]),
                n=int(view["complete_at"]),
            )
        )
    if caption:
        table.caption = " · ".join(caption)
        table.caption_style = "dim"
    return table


def _count_by_colour(edition: Edition) -> dict[str, int]:
    counts: dict[str, int] = {}
    for district_id, copies in edition.deck.items():
        colour = edition.districts[district_id].colour
        counts[colour] = counts.get(colour, 0) + copies
    return counts


def _needs_rank_9(edition: Edition) -> bool:
    """C-5, K-7: the largest table needs a rank-9 character (9 characters for 8 players)."""
    return edition.max_players >= 8 and any(c.rank == 9 for c in edition.characters.values())


def _players_range(edition: Edition) -> str:
    text = f"{edition.min_players}–{edition.max_players}"
    if _needs_rank_9(edition):
        text += f" ({edition.max_players} with a rank-9 character)"
    return text


def _city_size(edition: Edition) -> str:
    if edition.city_size == edition.city_size_small:
        size = str(edition.city_size)
    else:
        size = f"{edition.city_size} ({edition.city_size_small} with 2–3 players)"
    if edition.city_size_options:
        size += "; option complete_at " + "/".join(map(str, edition.city_size_options))
    return size


_WARLORD_TIMING: dict[str, str] = {
    "after_gather": "the Warlord destroys after gathering",
    "any_time": "the Warlord destroys at any time of his turn",
    "end_of_turn": "the Warlord (and the Diplomat) act at the end of the turn",
}

_TWO_PLAYER: dict[str, str] = {
    "twice_round": "2 players: picking goes round twice",
    "keep_and_put_aside": "2 players: keep one, put one aside face down, pass the rest",
}


#: ``Edition`` fields that are data (cards, players, sizes, options), not rule switches.
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
    }
)


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


def _switch_sentence(edition: Edition, name: str, value: Any) -> str | None:
    """One switch as a short sentence; ``None`` when it does not matter for this edition's
    cards (a Graveyard rule without a Graveyard)."""
    has = edition.districts.__contains__
    if name == "automatic_income":
        return "automatic income when called" if value else "income is an action"
    if name == "free_order":
        return "build before or after gathering" if value else "gather before building"
    if name == "warlord_timing":
        return _WARLORD_TIMING.get(value, f"warlord_timing: {value}")
    if name == "two_player_selection":
        return _TWO_PLAYER.get(value, f"two_player_selection: {value}")
    if name == "assassin_min_rank":
        return f"the Assassin names rank {value}+"
    if name == "thief_min_rank":
        return f"the Thief names rank {value}+"
    if name == "tiebreak":
        return "tie-break: " + (", ".join(t.replace("_", " ") for t in value) or "none")
    if name == "graveyard_excludes_warlord":
        if not has("graveyard"):
            return None
        return (
            "the Graveyard never serves its own Warlord"
            if value
            else "the Graveyard serves its own Warlord too"
        )
    if name == "observatory_optional":
        if not has("observatory"):
            return None
        return (
            "the Observatory's third card is optional"
            if value
            else "the Observatory always draws 3"
        )
    if name == "haunted_city_final_round":
        if not has("haunted_city"):
            return None
        return (
            "a Haunted City built in the final round is purple only"
            if value
            else "the Haunted City takes any colour at scoring"
        )
    if name == "quarry_limit":
        if not has("quarry"):
            return None
        return (
            "the Quarry allows one duplicated name at a time"
            if value
            else "the Quarry allows any number of duplicates"
        )
    if name == "laboratory_gold":
        return f"the Laboratory pays {value} gold" if has("laboratory") else None
    if name == "armory_own_city":
        if not has("armory"):
            return None
        return "the Armory may hit its owner's city" if value else "the Armory hits other cities"
    if name == "keep_blocks_giving":
        if not (has("keep") and "diplomat" in edition.characters):
            return None
        return "the Diplomat may not give a Keep" if value else "the Diplomat may give his Keep"
    if name == "library_keeps_all":
        if not has("library"):
            return None
        return "the Library keeps every card drawn" if value else "the Library keeps 2"
    if name == "wishing_well_counts_itself":
        if not has("wishing_well"):
            return None
        return (
            "the Wishing Well counts itself"
            if value
            else "the Wishing Well counts the other purples"
        )
    if name == "tax_per_build":
        if "tax_collector" not in edition.characters:
            return None
        return (
            "the Tax Collector's token takes 1 gold per build"
            if value
            else "the Tax Collector takes 1 gold per turn with a build"
        )
    if name == "unique_districts":
        return f"the deck takes {value} unique districts" if value else None
    if name == "preset_substitutes":
        if not value:
            return None
        swaps = ", ".join(f"{c} → {sub} under {n} players" for c, (n, sub) in value.items())
        return f"preset substitutions: {swaps}"
    return f"{name}: {value}"


def rule_switches(edition: Edition) -> list[str]:
    """The edition's rule switches (``Edition`` fields), one short sentence each."""
    out = []
    for name in rule_fields(edition):
        sentence = _switch_sentence(edition, name, getattr(edition, name))
        if sentence is not None:
            out.append(sentence)
    return out


def _characters_by_rank(edition: Edition) -> list[tuple[int, list[str]]]:
    """Every character of the edition grouped by rank: default characters first."""
    ranks: dict[int, list[str]] = {}
    for c in edition.default_characters:
        ranks.setdefault(edition.characters[c].rank, []).append(c)
    for c, card in edition.characters.items():
        if c not in edition.default_characters:
            ranks.setdefault(card.rank, []).append(c)
    return sorted(ranks.items())


def _option_text(edition: Edition) -> str:
    if not edition.options:
        return "none"
    parts = []
    for name, default in edition.options.items():
        parts.append(name if default is None else f"{name} (default {default})")
    return ", ".join(parts)


def _preset_block(edition: Edition) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    for preset in edition.presets.values():
        head = Text.assemble(
            (preset.id, "bold"), f" ({preset.min_players}–{preset.max_players} players)"
        )
        body = Text(preset.title)
        body.append("\ncharacters: ", style="dim")
        body.append_text(_character_text(edition, preset.characters, ranks=False))
        body.append("\npurple: ", style="dim")
        body.append_text(_purple_change(edition, preset_deck(edition, preset)))
        table.add_row(head, body)
    return table


def preset_deck(edition: Edition, preset: Preset) -> dict[str, int]:
    """The district deck a preset plays with (the Diplomat takes the Graveyard out, K-7)."""
    return resolve_setup(edition, preset.min_players, {"preset": preset.id}).deck


def _purple_change(edition: Edition, deck: Mapping[str, int]) -> Text:
    """A deck's purple districts as a change to the default deck's (``the default purples +
    a, b − c``), or listed in full when that is shorter."""
    default = _purple_ids(edition, edition.deck)
    purple = _purple_ids(edition, deck)
    added = [d for d in purple if d not in edition.deck]
    removed = [d for d in default if d not in deck]
    if len(added) + len(removed) >= len(purple):
        return Text(_ids_with_copies(purple, deck), style=COLOUR_STYLES["purple"])
    text = Text("the default purples", style=COLOUR_STYLES["purple"])
    if added:
        text.append(" + " + ", ".join(added), style=COLOUR_STYLES["purple"])
    if removed:
        text.append(" − " + ", ".join(removed), style=COLOUR_STYLES["purple"])
    return text


def editions_table(editions: Iterable[Edition]) -> RenderableType:
    """The editions: players, city size, characters by rank, deck, options, rules, presets."""
    blocks: list[RenderableType] = []
    for ed in editions:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        ranks: list[RenderableType] = []
        for rank, ids in _characters_by_rank(ed):
            group = Text(f"{rank} ", style="bold")
            group.append_text(_character_text(ed, ids, ranks=False))
            ranks.append(group)
        characters: RenderableType = Columns(ranks, padding=(0, 2))
        if any(is_bonus_character(ed, c) for c in ed.characters):
            characters = Group(
                characters,
                Text("* not in the default set: by the characters option or a preset", "dim"),
            )
        composition = Text(f"{sum(ed.deck.values())} cards: ")
        for i, (colour, count) in enumerate(_count_by_colour(ed).items()):
            if i:
                composition.append(", ")
            composition.append(f"{count} {colour}", style=COLOUR_STYLES.get(colour, ""))
        purple = _purple_ids(ed, ed.deck)
        grid.add_row("players", _players_range(ed))
        grid.add_row("city size", _city_size(ed))
        grid.add_row("characters", characters)
        grid.add_row("deck", composition)
        if purple:
            grid.add_row(
                "purple", Text(_ids_with_copies(purple, ed.deck), style=COLOUR_STYLES["purple"])
            )
        extra = [d for d in ed.purple_pool if d not in ed.deck]
        if extra:
            grid.add_row(
                "more purple",
                Text.assemble(
                    (", ".join(extra), COLOUR_STYLES["purple"]),
                    (" (by the districts option)", "dim"),
                ),
            )
        grid.add_row("options", _option_text(ed))
        grid.add_row("rules", "\n".join(rule_switches(ed)))
        if ed.setup_advice:
            grid.add_row("custom setup", Text(ed.setup_advice))
        if ed.presets:
            grid.add_row("presets", _preset_block(ed))
        title = Text.assemble((ed.id, "bold cyan"), " — ", ed.title)
        blocks.append(Group(Rule(title, align="left", style="cyan"), grid, Text()))
    return Group(*blocks)


def edition_summary(edition: Edition) -> dict[str, Any]:
    """The facts ``citadels editions --json`` prints for one edition."""
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
        "purple": {d: edition.deck[d] for d in _purple_ids(edition, edition.deck)},
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


def sim_tables(stats: SimStats) -> RenderableType:
    """The summary of a simulation: speed, length, and per-seat win share and mean score."""
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    summary.add_row("games", str(stats.games))
    summary.add_row("games/s", f"{stats.games_per_second:,.1f}")
    summary.add_row("mean rounds per game", f"{stats.mean_rounds:.2f}")
    summary.add_row("mean decisions per game", f"{stats.mean_decisions:.1f}")
    seats = Table(title="Per seat", title_style="bold", header_style="bold")
    seats.add_column("Seat", justify="right")
    seats.add_column("Win share", justify="right")
    seats.add_column("Mean score", justify="right")
    for seat, (share, score) in enumerate(zip(stats.win_share, stats.mean_score, strict=True)):
        seats.add_row(str(seat), f"{share:.1%}", f"{score:.2f}")
    return Group(summary, Text(), seats)


def _rate_row(label: str, rate: Rate, extra: list[str] | None = None) -> list[str]:
    return [
        label,
        f"{rate.rate:.1%}",
        f"{rate.low:.1%} – {rate.high:.1%}",
        f"{rate.wins:g}/{rate.games}",
        *(extra or []),
    ]


def tournament_tables(result: TournamentResult) -> RenderableType:
    """A tournament's report: speed and length, then win rates with 95% confidence intervals
    per bot, per seat and per character, and score statistics per bot."""
    summary = result.summary()
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column(justify="right")
    head.add_row("games", str(result.games))
    head.add_row("games/s", f"{result.games_per_second:,.2f}")
    head.add_row("mean rounds per game", f"{summary['mean_rounds']:.2f}")
    head.add_row("mean decisions per game", f"{summary['mean_decisions']:.1f}")
    tables: list[RenderableType] = [head]
    columns = ("Win rate", "95% CI", "Wins")
    bots = Table(title="Per bot (seats rotated)", title_style="bold", header_style="bold")
    bots.add_column("Bot")
    for c in (*columns, "Mean score", "Score sd"):
        bots.add_column(c, justify="right")
    for i, (entry, rate) in enumerate(zip(result.entries, result.by_entry(), strict=True)):
        row = summary["bots"][i]
        bots.add_row(
            *_rate_row(
                f"{i}: {entry.label}",
                rate,
                [f"{row['mean_score']:.2f}", f"{row['score_stdev']:.2f}"],
            )
        )
    seats = Table(title="Per seat", title_style="bold", header_style="bold")
    seats.add_column("Seat", justify="right")
    for c in columns:
        seats.add_column(c, justify="right")
    for seat, rate in enumerate(result.by_seat()):
        seats.add_row(*_rate_row(str(seat), rate))
    chars = Table(
        title="Per character (the seat that picked it)", title_style="bold", header_style="bold"
    )
    chars.add_column("Character")
    for c in columns:
        chars.add_column(c, justify="right")
    for character, rate in result.by_character().items():
        chars.add_row(*_rate_row(character, rate))
    for table in (bots, seats, chars):
        tables.extend([Text(), table])
    return Group(*tables)


def _mark(met: bool) -> Text:
    return Text("✓", style="bold green") if met else Text("✗", style="bold red")


def bench_table(report: BenchReport) -> RenderableType:
    """The benchmark figures per edition, with the goals beside them."""
    players = sorted({t.players for t in report.timings})
    table = Table(
        title=f"Random playouts on one core, {'/'.join(map(str, players))} players "
        f"({report.python}, {report.machine}; engine: {report.engine or 'pure Python'})",
        title_style="bold",
        header_style="bold",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("Edition", style="bold cyan")
    table.add_column("Games", justify="right")
    table.add_column("Games/s", justify="right")
    table.add_column("Decisions/s", justify="right")
    table.add_column("µs/decision", justify="right")
    table.add_column("copy µs", justify="right")
    table.add_column("view µs", justify="right")
    table.add_column("no log", justify="right")
    for t in report.timings:
        games_cell = Text(f"{t.games_per_second:,.0f}")
        if t.edition == "classic":
            games_cell.append(" ")
            games_cell.append(_mark(t.games_per_second >= GOAL_CLASSIC_GAMES_PER_SECOND))
        copy_cell = Text(f"{t.copy_us:.1f} ")
        copy_cell.append(_mark(t.copy_us < GOAL_COPY_MICROSECONDS))
        table.add_row(
            t.edition,
            str(t.games),
            games_cell,
            f"{t.decisions_per_second:,.0f}",
            f"{t.decision_us:.1f}",
            copy_cell,
            f"{t.view_us:.0f}",
            f"{t.tail_view_us:.0f}",
        )
    notes = Text.assemble(
        ("Goals: ", "bold"),
        f"≥ {GOAL_CLASSIC_GAMES_PER_SECOND:g} classic games/s, copy() < "
        f"{GOAL_COPY_MICROSECONDS:g} µs on a mid-game position.\n",
        ("µs/decision", "bold"),
        ": legal_actions() + apply(), replaying recorded games.\n",
        ("copy/view µs", "bold"),
        ": Game.copy() and Game.view(seat) on a mid-game position, median of 7 timeit runs "
        "(view: the whole log, each event's rendering kept from the first view; no log: "
        "view(seat, log_from=log_size)).",
        style="dim",
    )
    return Group(table, notes)
