"""The presentation layer (issue 9): card texts, action wording and parsing, event sentences,
score lines and the translation function every word goes through."""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import citadels
from citadels.editions import EDITIONS, Edition
from citadels.engine.actions import ACTION_TYPES, Action
from citadels.engine.events import EVENT_KINDS
from citadels.engine.scoring import Outcome
from citadels.errors import CitadelsError
from citadels.present import (
    CardInfo,
    ColourLabel,
    ParseError,
    ScoreLine,
    Translator,
    UnknownCard,
    UnknownEdition,
    all_cards,
    card_info,
    card_name,
    card_texts,
    colour_label,
    describe_action,
    find_card,
    parse_action,
    render_event,
    render_log,
    score_lines,
    seat_label,
    translator,
)
from citadels.present.events import RENDERED_KINDS
from citadels.present.i18n import LOCALE_DIR, TRANSLATORS
from tests.helpers import position

# --- random games of every edition ---------------------------------------------------------


def _setups(edition: Edition) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Player counts, seeds and options that bring every card of the edition into play."""
    presets: list[str | None] = [None, *edition.presets]
    for i in range(40):
        players = [2, 3, 4, 5, 6, 7, edition.max_players][i % 7]
        options: dict[str, Any] = {}
        preset = presets[i % len(presets)]
        if preset:
            options["preset"] = preset
        if edition.id == "2016" and i % 3 == 0:
            pool = sorted(edition.purple_pool)
            options["districts"] = pool[(i // 3) % 2 * 14 :][:14]
        if edition.id == "classic" and i % 3 == 0:
            options["districts"] = [d for d in edition.purple_pool if d != "ball_room"]
        yield players, i, options


@lru_cache(maxsize=1)
def random_games() -> list[citadels.Game]:
    """Finished random games of every edition."""
    games = []
    for edition in EDITIONS.values():
        for players, seed, options in _setups(edition):
            try:
                game = citadels.new_game(edition.id, players, seed=seed, **options)
            except ValueError:
                continue  # e.g. the Queen with too few players
            rng = random.Random(seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
            games.append(game)
    return games


def sampled_positions() -> Iterator[tuple[citadels.Game, dict[str, Any], list[Action]]]:
    """Positions along the random games (every 9th decision, and every one offering a kind of
    action not met before): a replayed copy, its mover's view and legal actions."""
    met: set[type[Action]] = set()
    for game in random_games():
        replay = citadels.new_game(
            game.edition.id, game.num_players, seed=game.seed, **game.record()["options"]
        )
        for i, action in enumerate(game.actions):
            legal = replay.legal_actions()
            kinds = {type(a) for a in legal}
            if i % 9 == 0 or not kinds <= met:
                met |= kinds
                yield replay, replay.view(replay.to_move, log_from=len(replay.state.log)), legal
            replay.apply(action)


# --- the translation function -----------------------------------------------------------------


def test_translator_falls_back_to_english_and_fills_placeholders() -> None:
    tr = translator("de")  # no catalog: English, through the English translator
    assert isinstance(tr, Translator) and tr.lang == "en"
    assert tr.gettext("Seat {n}", n=3) == "Seat 3"
    assert tr.ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert tr.ngettext("{n} card", "{n} cards", 4) == "4 cards"
    assert translator("en") is translator("en")
    assert translator("fa_IR.UTF-8").lang == "fa"
    assert LOCALE_DIR.name == "locale" and LOCALE_DIR.is_dir()
    fa = translator("fa")  # Persian digits in the numbers filled in
    assert fa.ngettext("{n} card", "{n} cards", 12) == "۱۲ کارت"


def test_seat_label_uses_names_when_given() -> None:
    assert seat_label(2) == "Seat 2"
    assert seat_label(1, ["Anna", "Bo"]) == "Bo"
    assert seat_label(5, ["Anna", "Bo"]) == "Seat 5"
    assert seat_label(None) == "Spectator"


def test_colour_labels_never_rely_on_colour_alone() -> None:
    labels = [colour_label(c) for c in ("noble", "religious", "trade", "military", "unique")]
    assert all(isinstance(label, ColourLabel) for label in labels)
    assert len({label.symbol for label in labels}) == 5
    assert len({label.letter for label in labels}) == 5
    assert [label.word for label in labels] == [
        "noble", "religious", "trade", "military", "unique",
    ]  # fmt: skip
    assert colour_label("yellow") == colour_label("noble") == ("♛", "noble", "N")
    with pytest.raises(ValueError, match="unknown colour 'pink'"):
        colour_label("pink")


# --- card texts ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_character_and_powered_district_has_a_text(edition: str) -> None:
    ed = EDITIONS[edition]
    cards = all_cards(ed)
    assert [c.id for c in cards if c.kind == "character"] == sorted(
        ed.characters, key=lambda c: (ed.characters[c].rank, c)
    )
    assert {c.id for c in cards if c.kind == "district"} == set(ed.districts)
    for card in cards:
        assert isinstance(card, CardInfo) and card.name and card.colour != ""
        assert "{" not in card.power and all("{" not in r for r in card.rulings)
        if card.kind == "character":
            assert card.power, f"{edition}: {card.id} has no text"
            assert card.rank == ed.characters[card.id].rank and card.cost is None
        elif ed.districts[card.id].colour == "purple":
            assert card.power, f"{edition}: {card.id} has no text"
            assert card.colour == "unique" and card.cost == ed.districts[card.id].cost
        else:
            assert card.power == "" and card.rulings == ()


def test_no_text_is_written_for_a_card_no_edition_has() -> None:
    characters = {c for e in EDITIONS.values() for c in e.characters}
    districts = {d for e in EDITIONS.values() for d in e.districts}
    assert set(card_texts.CHARACTER_POWERS) == characters
    assert set(card_texts.DISTRICT_POWERS) == {
        d for e in EDITIONS.values() for d, card in e.districts.items() if card.colour == "purple"
    }
    assert set(card_texts.CHARACTER_RULINGS) <= characters
    assert set(card_texts.DISTRICT_RULINGS) <= districts
    for table in (card_texts.CHARACTER_POWERS, card_texts.DISTRICT_POWERS):
        for entry in table.values():
            assert set(entry) <= {"*", *EDITIONS}


def test_B2_K4_D7_the_warlords_timing_differs_by_edition() -> None:
    texts = {e: card_info(e, "warlord").power for e in EDITIONS}
    assert "Once you have gathered" in texts["basic"]  # B-2
    assert "end of your turn, after building" in texts["classic"]  # K-4
    assert "At any moment" in texts["dezh"] and "At any moment" in texts["2016"]  # D-7
    assert len({texts["basic"], texts["classic"], texts["dezh"]}) == 3
    assert any("ends your turn" in r for r in card_info("classic", "warlord").rulings)


def test_B1_income_is_automatic_in_basic_only() -> None:
    for character in ("king", "bishop", "merchant", "architect", "warlord"):
        basic = card_info("basic", character)
        classic = card_info("classic", character)
        assert "moment you are called" in basic.power
        assert any("by themselves" in r for r in basic.rulings)
        assert "moment you are called" not in classic.power
        assert not any("by themselves" in r for r in classic.rulings)


def test_rulings_follow_the_edition() -> None:
    # B-5: the basic Thief names ranks 3-8; C-12: dezh reveals the murdered at the call.
    assert any("3 to 8" in r for r in card_info("basic", "thief").rulings)
    assert not any("3 to 8" in r for r in card_info("classic", "thief").rulings)
    assert any("face up" in r for r in card_info("dezh", "assassin").rulings)
    assert any("round's end" in r for r in card_info("classic", "assassin").rulings)
    # the Tax Collector is rank 2 in classic and a token in 2016.
    assert card_info("classic", "tax_collector").rank == 2
    assert "token" in card_info("2016", "tax_collector").power
    assert "token" not in card_info("classic", "tax_collector").power
    # The 2016 Laboratory pays 2, the classic one 1; R-7 Graveyard; R-10 Library.
    assert "2 gold" in card_info("2016", "laboratory").power
    assert "1 gold" in card_info("classic", "laboratory").power
    assert card_info("dezh", "graveyard").rulings != card_info("classic", "graveyard").rulings
    assert card_info("2016", "library").power != card_info("classic", "library").power
    # a murdered Emperor.
    assert card_info("2016", "emperor").rulings != card_info("classic", "emperor").rulings


def test_card_name_and_unknown_cards() -> None:
    assert card_name("classic", "market") == "Market"
    assert card_name(EDITIONS["2016"], "thieves_den") == "Thieves' Den"
    assert card_name("classic", "assassin") == "Assassin"
    with pytest.raises(UnknownCard, match="no card 'barracks'"):
        card_info("classic", "barracks")
    with pytest.raises(UnknownEdition, match="known editions: basic, dezh, classic, 2016"):
        card_info("deluxe", "market")
    assert issubclass(UnknownCard, CitadelsError) and issubclass(UnknownEdition, CitadelsError)


def test_find_card_by_id_name_or_unique_prefix() -> None:
    assert find_card("classic", "WARL").id == "warlord"
    assert find_card("classic", "school of magic").id == "school_of_magic"
    assert find_card("classic", "school-of-magic").id == "school_of_magic"
    assert find_card("2016", "thieves_den").name == "Thieves' Den"
    with pytest.raises(UnknownCard, match=r"could be: .*Magician.*Manor"):
        find_card("classic", "ma")
    with pytest.raises(UnknownCard, match="did you mean Warlord"):
        find_card("classic", "warlrd")


# --- action wording and parsing ---------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def test_every_legal_actions_wording_is_unique_and_parses_back() -> None:
    seen: set[type[Action]] = set()
    positions = 0
    rng = random.Random(0)
    for game, view, legal in sampled_positions():
        positions += 1
        names = [f"Player {s}" for s in range(game.num_players)] if positions % 2 else None
        words = [describe_action(a, view, names=names) for a in legal]
        assert all(w and "{" not in w for w in words), words
        assert len({_norm(w) for w in words}) == len(words), words
        for i in rng.sample(range(len(legal)), min(len(legal), 6)):
            assert parse_action(words[i], legal, view, names=names) is legal[i]
            assert parse_action(words[i].upper(), legal, view, names=names) is legal[i]
            assert parse_action(str(i + 1), legal, view, names=names) is legal[i]
            _assert_price_is_paid(game, legal[i], words[i])
        seen.update(type(a) for a in legal)
    assert positions > 300
    assert seen == set(ACTION_TYPES), set(ACTION_TYPES) - seen


_PRICE = re.compile(r"\((\d+) gold\)$")
_PAID_BY = {"build": "build", "destroy": "destroy", "seize": "seize", "take_card": "build"}


def _assert_price_is_paid(game: citadels.Game, action: Action, words: str) -> None:
    """A price in a wording is what the engine then takes (C-8, R-5, R-13, R-6)."""
    price = _PRICE.search(words)
    kind = _PAID_BY.get(action.type)
    if price is None or kind is None:
        return
    after = game.copy()
    n = len(after.state.log)
    after.apply(action)
    paid = [e.data["paid"] for e in after.state.log[n:] if e.kind == kind]
    if paid:  # a Magistrate may confiscate first; the Thieves' Den asks for cards first
        assert paid[0] == int(price.group(1)), (words, paid)


def _turn_position() -> tuple[citadels.Game, dict[str, Any], list[Action]]:
    game = citadels.new_game("classic", 4, seed=3)
    while game.state.phase != "turns" or game.view(game.to_move)["turn"]["gathered"]:
        game.apply(game.legal_actions()[0])
    return game, game.view(game.to_move), game.legal_actions()


def test_parse_action_accepts_prefixes_card_names_and_the_engine_text() -> None:
    game = citadels.new_game("classic", 4, seed=3)
    view, legal = game.view(game.to_move), game.legal_actions()
    king = next(a for a in legal if getattr(a, "character", "") == "king")
    assert describe_action(king, view) == "Pick the King"
    assert parse_action("pick the k", legal, view) is king
    assert parse_action("  KING ", legal, view) is king
    assert parse_action("pick king", legal, view) is king  # the engine's short text
    assert parse_action("kin", legal, view) is king  # a card name's prefix


def test_parse_action_names_the_candidates_when_ambiguous() -> None:
    game = citadels.new_game("classic", 4, seed=3)
    view, legal = game.view(game.to_move), game.legal_actions()
    with pytest.raises(ParseError) as caught:
        parse_action("pick", legal, view)
    assert isinstance(caught.value, CitadelsError) and caught.value.code == "parse_error"
    assert set(caught.value.candidates) == set(legal)
    assert "Pick the Assassin; Pick the Magician" in str(caught.value)


def test_parse_action_says_why_an_action_is_not_legal_now() -> None:
    game, view, legal = _turn_position()
    hand = view["players"][view["seat"]]["hand"]
    with pytest.raises(ParseError, match="gather first") as caught:
        parse_action(f"build the {card_name('classic', hand[0])}", legal, view)
    assert "possible now: Take 2 gold; Draw 2 cards" in str(caught.value)
    assert caught.value.candidates == ()
    with pytest.raises(ParseError, match="characters are chosen at the start of a round"):
        parse_action("pick the king", legal, view)
    with pytest.raises(ParseError, match="is not an action; possible now"):
        parse_action("dance", legal, view)
    with pytest.raises(ParseError, match="no choice 99: choose from 1 to"):
        parse_action("99", legal, view)
    with pytest.raises(ParseError, match="type an action"):
        parse_action("   ", legal, view)
    other = (view["seat"] + 1) % 4
    with pytest.raises(ParseError, match=f"not your turn: Seat {view['seat']} is to move"):
        parse_action("take gold", [], game.view(other))


def test_describe_action_shows_prices_and_seat_names() -> None:
    game, view, legal = _turn_position()
    me = view["seat"]
    game.apply(next(a for a in legal if a.type == "gather_gold"))
    view = game.view(me)
    legal = game.legal_actions()
    names = ["Anna", "Bo", "Cy", "Di"]
    words = [describe_action(a, view, names=names) for a in legal]
    for action, word in zip(legal, words, strict=True):
        if action.type == "build":
            cost = EDITIONS["classic"].districts[action.district].cost  # type: ignore[attr-defined]
            assert word.endswith(f"({cost} gold)") and word.startswith("Build the ")
    assert "End your turn" in words


# --- events -----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def every_viewers_log() -> list[tuple[str, int | None, dict[str, Any]]]:
    """Every event of every random game, as each seat and a spectator see it (an event that
    several viewers see alike is kept once)."""
    out = []
    for game in random_games():
        seen: set[str] = set()
        for viewer in [None, *range(game.num_players)]:
            for event in game.view(viewer)["log"]:
                key = repr(event)
                if key not in seen:
                    seen.add(key)
                    out.append((game.edition.id, viewer, event))
    return out


# Kinds that random games seldom reach (an empty hand for the Park, a Throne Room when the
# crown moves, a Bell Tower leaving its city, an Emperor with nowhere to put the crown): their
# events are built by hand from the fields the engine logs.
RARE = {
    "park": [
        {"kind": "park", "seat": 1, "count": 2},
        {"kind": "park", "seat": 1, "count": 2, "districts": ["temple", "keep"]},
    ],
    "throne_room": [{"kind": "throne_room", "seat": 2, "gold": 1}],
    "bell_tower_silenced": [{"kind": "bell_tower_silenced", "seat": 0, "complete_at": 8}],
    "crown_stays": [{"kind": "crown_stays", "seat": 3, "crown": 1}],
}

_PLACEHOLDER = re.compile(r"\{\w*\}")


def test_the_engine_logs_data_only_and_every_kind_has_a_sentence() -> None:
    assert set(EVENT_KINDS) == RENDERED_KINDS
    kinds = {event["kind"] for _, _, event in every_viewers_log()}
    assert kinds | set(RARE) == set(EVENT_KINDS)
    assert all("text" not in event for _, _, event in every_viewers_log())


def test_every_event_renders_for_every_viewer_without_a_leftover_placeholder() -> None:
    for edition, viewer, event in every_viewers_log():
        text = render_event(edition, event)
        assert text and text[0].isupper() and text.endswith("."), (viewer, event, text)
        assert not _PLACEHOLDER.search(text) and "None" not in text, (event, text)
    for events in RARE.values():
        for event in events:
            text = render_event("classic", event, names=["A", "B", "C", "D"])
            assert not _PLACEHOLDER.search(text), text
    assert render_event("classic", {"kind": "park", "seat": 1, "count": 1}) == (
        "Seat 1 draws 1 card (Park)."
    )


@lru_cache(maxsize=4)
def _names_pattern(edition: str) -> tuple[re.Pattern[str], dict[str, str]]:
    ed = EDITIONS[edition]
    by_name = {card_name(ed, c): c for c in [*ed.characters, *ed.districts]}
    names = sorted(by_name, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, names)) + r")(?![\w'])")
    return pattern, by_name


def _card_ids(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return set().union(*(_card_ids(v) for v in value)) if value else set()
    return set()


def _scrub(event: dict[str, Any]) -> dict[str, Any]:
    """The event with every card id replaced by one no edition has."""

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return "zz_card"
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    return {k: (v if k in ("kind",) else scrub(v)) for k, v in event.items()}


def test_a_sentence_names_only_cards_its_viewers_event_data_holds() -> None:
    """C-10: the text for a viewer never names a card that the viewer's event data does not
    contain (apart from the card that gives the event its name, like the Smithy's)."""
    checked = 0
    for edition, _viewer, event in every_viewers_log():
        pattern, by_name = _names_pattern(edition)
        named = {by_name[m] for m in pattern.findall(render_event(edition, event))}
        if not named:
            continue
        fixed = {by_name[m] for m in pattern.findall(render_event(edition, _scrub(event)))}
        held = set().union(*(_card_ids(v) for k, v in event.items() if k != "kind"))
        assert named <= held | fixed, (event, named - held - fixed)
        checked += 1
    assert checked > 5_000


def test_secret_cards_are_named_for_their_viewer_only() -> None:
    game = citadels.new_game("classic", 4, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    deal_for = {
        viewer: [e for e in game.view(viewer)["log"] if e["kind"] == "deal"] for viewer in range(4)
    }
    for viewer, deals in deal_for.items():
        for event in deals:
            text = render_event("classic", event)
            if event["seat"] == viewer:
                names = [card_name("classic", d) for d in event["districts"]]
                assert text.endswith(", ".join(names) + ".")
            else:
                assert text == f"Seat {event['seat']} is dealt 4 cards and 2 gold."


def test_render_log_uses_names_and_language() -> None:
    game = citadels.new_game("dezh", 3, seed=2)
    log = game.view(0)["log"]
    lines = render_log("dezh", log, lang="ru", names=["Anna", "Boris", "Clara"])
    assert len(lines) == len(log)
    assert lines[1].startswith("Anna получает карт: 4 и золота: 2 — ")
    assert lines[2] == "Boris получает карт: 4 и золота: 2."
    english = render_log("dezh", log, names=["Anna", "Boris", "Clara"])
    assert english[2] == "Boris is dealt 4 cards and 2 gold."
    assert render_event("dezh", {"kind": "no_such_kind"}) == "no_such_kind"


# --- score lines ------------------------------------------------------------------------------


def test_C15_score_lines_carry_the_breakdown_and_the_tie_break() -> None:
    result = {
        "seats": [
            {"seat": 0, "score": 20, "rank": 2, "tiebreak": "gold", "gold": 1,
             "breakdown": {"districts": 17, "colours": 3, "first_complete": 0, "complete": 0,
                           "bonus": 0}},
            {"seat": 1, "score": 20, "rank": 1, "tiebreak": "gold", "gold": 4,
             "breakdown": {"districts": 14, "colours": 0, "first_complete": 4, "complete": 0,
                           "bonus": 2}},
            {"seat": 2, "score": 9, "rank": 3, "tiebreak": None, "gold": 0,
             "breakdown": {"districts": 9, "colours": 0, "first_complete": 0, "complete": 0,
                           "bonus": 0}},
        ],
    }  # fmt: skip
    lines = score_lines(result, names=["Anna", "Bo", "Cy"])
    assert [line.name for line in lines] == ["Bo", "Anna", "Cy"]
    assert isinstance(lines[0], ScoreLine) and lines[0].winner and not lines[1].winner
    best = lines[0]
    assert (best.city, best.colours, best.first, best.complete, best.bonus) == (14, 0, 4, 0, 2)
    assert best.city + best.colours + best.first + best.complete + best.bonus == best.score
    assert lines[0].tiebreak == lines[1].tiebreak == "tie broken by gold"
    assert lines[2].tiebreak == ""


def test_score_lines_read_a_finished_games_result() -> None:
    game = random_games()[0]
    outcome = game.result()
    assert isinstance(outcome, Outcome)
    lines = score_lines(outcome)
    assert lines == score_lines(game.view(None)["result"])
    assert sorted(line.seat for line in lines) == list(range(game.num_players))
    assert lines[0].rank == 1


# --- every msgid can be extracted -------------------------------------------------------------


class _Recording(gettext.NullTranslations):
    """A catalog that remembers every msgid asked of it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def gettext(self, message: str) -> str:
        self.asked.add(message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.asked.update((msgid1, msgid2))
        return msgid1 if n == 1 else msgid2


def test_every_msgid_used_is_found_by_babel_extraction() -> None:
    """Issue 11's catalogs can only translate what Babel extracts: every string this layer
    asks the translator for is a literal that ``babel.cfg``'s keywords find (card names and
    edition titles, which are data, through their marked copies in ``present/names.py``)."""
    extract = pytest.importorskip("babel.messages.extract")
    root = Path(__file__).resolve().parent.parent
    keywords = {**extract.DEFAULT_KEYWORDS, "N_": None, "NP_": (1, 2), "g": None, "n": (1, 2)}
    found: set[str] = set()
    for _file, _line, message, *_ in extract.extract_from_dir(
        root / "src" / "citadels",
        method_map=[("**.py", "python")],
        keywords=keywords,
    ):
        found.update([message] if isinstance(message, str) else message)
    recording = _Recording()
    TRANSLATORS["xx"] = Translator("xx", recording)
    try:
        for edition in EDITIONS.values():
            all_cards(edition, "xx")
        for edition, _viewer, event in every_viewers_log()[::7]:
            render_event(edition, event, "xx")
        for events in RARE.values():
            for event in events:
                render_event("classic", event, "xx")
        for i, (_game, view, legal) in enumerate(sampled_positions()):
            if i % 5 == 0:
                for action in legal:
                    describe_action(action, view, "xx")
        score_lines(random_games()[0].result(), "xx")
        colour_label("noble", "xx")
    finally:
        del TRANSLATORS["xx"]
    # Card names and edition titles are data, marked for extraction in present/names.py.
    missing = recording.asked - found
    assert not missing, sorted(missing)
    assert len(recording.asked & found) > 300


def test_parse_action_matches_the_start_of_each_word() -> None:
    game = position(
        "classic",
        4,
        hands={0: ["market", "manor", "temple"]},
        cities={0: ["tavern"]},
        gold={0: 5},
        characters={0: ["merchant"], 1: ["architect"], 2: ["warlord"]},
    )
    assert game.to_move == 0
    game.apply(citadels.GatherGold())
    view, legal = game.view(0), game.legal_actions()
    words = [describe_action(a, view) for a in legal]
    assert "Take income for your trade districts" in words
    assert "Build the Market (2 gold)" in words and "Build the Manor (3 gold)" in words
    assert parse_action("bu mark", legal, view) == citadels.Build("market")
    assert parse_action("b man", legal, view) == citadels.Build("manor")
    assert parse_action("inc", legal, view) == citadels.TakeIncome()
    assert parse_action("temple", legal, view) == citadels.Build("temple")
    with pytest.raises(
        ParseError,
        match=r"could mean: Build the Manor \(3 gold\); Build the Market \(2 gold\); type more",
    ):
        parse_action("build the ma", legal, view)
    with pytest.raises(ParseError, match=r"not possible now \(only the Assassin can do that\)"):
        parse_action("murder the king", legal, view)


def test_C12_a_murdered_reveal_reads_per_edition() -> None:
    event = {"kind": "reveal", "seat": 2, "character": "king", "murdered": True}
    assert render_event("classic", event) == (
        "Seat 2 is the King, murdered, and gathers thanks to the Hospital."
    )
    assert render_event("dezh", event) == (
        "Seat 2 is the King, murdered: the card is turned face up and the turn ends."
    )
    call = {"kind": "call", "seat": None, "character": "king", "answered": False}
    assert render_event("basic", call) == "The King is called: nobody answers."
    assert render_event("basic", {**call, "murdered": True}) == (
        "The murdered King is called: no answer."
    )


def test_a_view_shares_no_list_with_the_games_log() -> None:
    game = citadels.new_game("classic", 4, seed=1)
    deal = next(e for e in game.view(0)["log"] if e["kind"] == "deal" and e["seat"] == 0)
    deal["districts"].append("palace")
    again = next(e for e in game.view(0)["log"] if e["kind"] == "deal" and e["seat"] == 0)
    assert (
        "palace" not in again["districts"]
        or again["districts"].count("palace") < len(deal["districts"]) - 3
    )
