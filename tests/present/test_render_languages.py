"""Issue 11: every event kind of every edition, every action and every card renders in every
language, for every viewer, with no missing key or placeholder and no English left over."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

import citadels
from citadels.editions import EDITIONS
from citadels.engine.events import EVENT_KINDS
from citadels.errors import IllegalAction, NotYourTurn
from citadels.present import (
    all_cards,
    describe_action,
    error_text,
    parse_action,
    render_event,
    score_headers,
    score_lines,
)
from citadels.present.i18n import LANGUAGES
from tests.present.test_catalogs import extracted
from tests.test_present import RARE, every_viewers_log, random_games, sampled_positions

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{\w*\}")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
PERSIAN_DIGITS = re.compile("[۰-۹]")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]
#: Proper names a translation may keep in Latin letters (Vietnamese writes in them anyway).
#: Seed 004 itself says "token" ("token nhân vật").
KEPT = {*NAMES, "Dezh", "Citadels", "Capitol", "token"}


@lru_cache(maxsize=1)
def english_words() -> set[str]:
    """Every word of three letters or more in the English msgids."""
    words: set[str] = set()
    for msgid in extracted():
        for text in [msgid] if isinstance(msgid, str) else msgid:
            words |= {w.lower() for w in LATIN_WORD.findall(PLACEHOLDER.sub("", text))}
    return words


def leftover_english(text: str, lang: str) -> set[str]:
    """The words of ``text`` that look English: in Persian, Russian and Korean any word in
    Latin letters, in Vietnamese a word of the English msgids."""
    latin = set(LATIN_WORD.findall(text)) - KEPT
    if lang != "vi":
        return latin
    return {w for w in latin if w.lower() in english_words()}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_event_of_every_edition_renders_in_every_language(lang: str) -> None:
    events = every_viewers_log()
    kinds = {event["kind"] for _, _, event in events} | set(RARE)
    assert kinds == set(EVENT_KINDS)
    cases = [*events, *(("classic", None, e) for es in RARE.values() for e in es)]
    for edition, viewer, event in cases:
        english = render_event(edition, event, names=NAMES)
        text = render_event(edition, event, lang, names=NAMES)
        assert text and not PLACEHOLDER.search(text), (lang, viewer, event, text)
        assert text != english, (lang, event, text)
        # No English word is left: only the seat names given.
        assert not leftover_english(text, lang), (lang, event, text)
        if lang == "fa":
            assert not re.search("[0-9]", text), (event, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_action_and_card_is_worded_in_every_language(lang: str) -> None:
    for i, (_game, view, legal) in enumerate(sampled_positions()):
        if i % 3:
            continue
        for action in legal:
            english = describe_action(action, view, names=NAMES)
            text = describe_action(action, view, lang, names=NAMES)
            assert text != english and not PLACEHOLDER.search(text), (lang, action, text)
            assert not leftover_english(text, lang), (lang, action, text)
    for edition in EDITIONS.values():
        for card, english in zip(all_cards(edition, lang), all_cards(edition), strict=True):
            assert card.name != english.name or card.name in ("Vua",), (lang, card.id)
            assert not english.power or card.power != english.power, (lang, card.id)
            assert all(r != e for r, e in zip(card.rulings, english.rulings, strict=True)), (
                lang,
                card.id,
            )
    headers = score_headers(lang)
    assert not set(headers) & set(score_headers())
    lines = score_lines(random_games()[0].result(), lang, NAMES)
    assert all(not leftover_english(line.tiebreak, lang) for line in lines)


def test_persian_numbers_are_written_in_persian_digits_and_names_are_isolated() -> None:
    event = {"kind": "build", "seat": 1, "district": "market", "paid": 12}
    text = render_event("classic", event, "fa", names=NAMES)
    assert "۱۲" in text and "12" not in text
    assert "\u2068Bo\u2069" in text  # a Latin name keeps its own direction in Persian text
    assert render_event("classic", event, "ru", names=NAMES) == "Bo строит «Рынок» за 12 зол."
    assert not PERSIAN_DIGITS.search(render_event("classic", event, "ko", names=NAMES))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_errors_that_name_a_rule_are_said_in_the_readers_language(lang: str) -> None:
    error = IllegalAction("Build market: gather first (C-7)", "C-7")
    text = error_text(error, lang)
    assert "C-7" in text
    if lang == "en":
        assert text == (
            "That move is not allowed now. Rule C-7: gathering comes first in a turn: "
            "2 gold or cards."
        )
    else:
        assert text != error_text(error) and "gather" not in text
        assert error_text(NotYourTurn("seat 2 is to move"), lang) != error_text(NotYourTurn("x"))
    assert "R-26" in error_text(IllegalAction("no", "R-26"), lang)
    assert error_text("stale_version", lang) != error_text("illegal_action", lang)


def test_typed_actions_are_read_in_the_players_language() -> None:
    game = citadels.new_game("basic", 4, seed=3)
    view, legal = game.view(game.to_move), game.legal_actions()
    for lang, typed in [("fa", "انتخاب شاه"), ("ru", "выбрать персонажа «король»"), ("ko", "왕")]:
        king = parse_action(typed, legal, view, lang)
        assert getattr(king, "character", None) == "king", (lang, typed)
    assert getattr(parse_action("انتخاب شا", legal, view, "fa"), "character", None) == "king"
    assert parse_action("۱", legal, view, "fa") is legal[0]  # a Persian keyboard's digits


def test_korean_particles_agree_with_the_card_name() -> None:
    castle = {"kind": "beautify", "seat": 1, "district": "castle"}  # 성: a final consonant
    palace = {"kind": "beautify", "seat": 1, "district": "palace"}  # 궁전: a final consonant
    fortress = {"kind": "beautify", "seat": 1, "district": "fortress"}  # 요새: none
    assert render_event("classic", castle, "ko").endswith("성을 꾸밉니다.")
    assert render_event("classic", palace, "ko").endswith("궁전을 꾸밉니다.")
    assert render_event("classic", fortress, "ko").endswith("요새를 꾸밉니다.")
    assert "(를)" not in render_event("classic", fortress, "ko")


@pytest.mark.parametrize(
    ("lang", "gave", "got", "expected"),
    [
        ("en", 1, 4, "Seat 0 exchanges hands with Seat 1 (1 card for 4)."),
        ("en", 4, 1, "Seat 0 exchanges hands with Seat 1 (4 cards for 1)."),
        ("ru", 1, 4, "(1 карту на 4)"),
        ("ru", 3, 1, "(3 карты на 1)"),
        ("ru", 5, 2, "(5 карт на 2)"),
    ],
)
def test_a_hand_exchange_counts_the_cards_given_in_the_plural_they_take(
    lang: str, gave: int, got: int, expected: str
) -> None:
    # C-22 (RULES.md): the Magician swaps whole hands; the log says how many cards went
    # each way, "1 card for 4" and not "1 cards for 4".
    text = render_event(
        "classic", {"kind": "exchange_hands", "seat": 0, "with": 1, "gave": gave, "got": got}, lang
    )
    assert expected in text
