"""``citadels cards``: an edition's cards, or one card's text; errors on one line (issue 9)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from citadels.cli import app
from citadels.editions import EDITIONS
from citadels.present import all_cards, card_info

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_cards_lists_every_card_of_the_edition(edition: str) -> None:
    result = invoke("cards", "--edition", edition)
    assert result.exit_code == 0, result.output
    words = set(result.stdout.split())
    for card in all_cards(edition):
        assert card.id in words, card.id
    assert f"Characters of {edition}" in result.stdout
    assert f"Districts of {edition}" in result.stdout


def test_cards_shows_one_cards_power_and_rulings() -> None:
    result = invoke("cards", "WARL", "--edition", "classic")
    assert result.exit_code == 0, result.output
    out = flat(result.stdout)
    info = card_info("classic", "warlord")
    assert "Warlord (warlord) · classic" in out
    assert "Character of rank 8; income from ⚔ military districts" in out
    assert flat(info.power) in out
    for ruling in info.rulings:
        assert flat(ruling) in out


def test_cards_shows_the_editions_own_text() -> None:
    basic = flat(invoke("cards", "warlord", "-e", "basic").stdout)
    classic = flat(invoke("cards", "warlord", "-e", "classic").stdout)
    assert flat(card_info("basic", "warlord").power) in basic
    assert flat(card_info("classic", "warlord").power) in classic
    assert basic != classic


def test_colour_always_comes_with_a_symbol_and_a_word() -> None:
    out = invoke("cards", "-e", "classic").stdout
    for label in ("♛ noble", "✝ religious", "⚖ trade", "⚔ military", "★ unique"):
        assert label in out
    district = flat(invoke("cards", "market").stdout)
    assert "District · ⚖ trade · cost 2" in district and "No special power." in district


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("cards", "ma"), ("could be:", "Magician", "Manor", "Market")),
        (("cards", "warlrd"), ("no card 'warlrd'", "did you mean Warlord")),
        (("cards", "barracks"), ("it is a card of 2016", "--edition 2016")),
        (("cards", "-e", "chess"), ("unknown edition 'chess'", "basic, dezh, classic, 2016")),
        (("cards", "zzzz", "-e", "basic"), ("no card 'zzzz'", "citadels cards --edition basic")),
    ],
)
def test_cards_errors_are_one_line_with_a_suggestion(
    args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]
