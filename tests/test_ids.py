"""One rule for every id a user types (review item): the Python API and the CLI agree."""

from __future__ import annotations

import pytest

import citadels
from citadels.bots import make_bot
from citadels.editions import get_edition
from citadels.ids import did_you_mean, match_id, normalize_id, resolve_id


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Classic", "classic"),
        ("dark-city", "dark_city"),
        ("Dark City", "dark_city"),
        ("  TAX_COLLECTOR ", "tax_collector"),
        ("great--wall", "great_wall"),
        ("2016", "2016"),
    ],
)
def test_normalize_id(typed: str, canonical: str) -> None:
    assert normalize_id(typed) == canonical


def test_match_and_suggest() -> None:
    known = ["dark_city", "witch_hunt"]
    assert match_id("Witch Hunt", known) == "witch_hunt"
    assert match_id("witchhunt", known) is None
    assert match_id(3, known) is None
    assert did_you_mean("witchhunt", known) == " (did you mean 'witch_hunt'?)"
    assert did_you_mean("zzz", known) == ""
    with pytest.raises(ValueError, match=r"unknown preset 'dark' \(did you mean 'dark_city'\?\)"):
        resolve_id("dark", known, "preset")


def test_the_api_matches_every_id_loosely_and_records_the_canonical_ones() -> None:
    game = citadels.new_game(
        "Classic",
        5,
        seed=2,
        preset="Imperial-Court",
        districts=["Great Wall", "MUSEUM", "park", "poor-house", "hospital", "keep"],
    )
    record = game.record()
    assert record["edition"] == "classic"
    assert record["options"]["preset"] == "imperial_court"
    assert record["options"]["districts"][:2] == ["great_wall", "museum"]
    assert citadels.replay(record).to_json() == game.to_json()
    chars = ["Assassin", "tax-collector", "MAGICIAN", "king", "bishop", "merchant",
             "architect", "warlord"]  # fmt: skip
    custom = citadels.new_game("classic", 4, seed=1, characters=chars)
    assert custom.record()["options"]["characters"][1] == "tax_collector"
    assert get_edition(" 2016 ").id == "2016"
    assert type(make_bot("Hard")).__name__ == "ISMCTSBot"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: citadels.new_game("clasic"), ("unknown edition 'clasic'", "'classic'?")),
        (lambda: citadels.new_game("classic", preset="artisan"), ("did you mean 'artisans'",)),
        (
            lambda: citadels.new_game("classic", characters=["assasin"]),
            ("'assasin' (did you mean 'assassin'?)",),
        ),
        (lambda: make_bot("rnadom"), ("did you mean 'random'",)),
    ],
)
def test_unknown_ids_get_a_suggestion(call: object, words: tuple[str, ...]) -> None:
    with pytest.raises(ValueError) as info:
        call()  # type: ignore[operator]
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    ("edition", "words"),
    [
        ("classic", ("queen", "artist", "imperial_court", "artisans")),
        ("2016", ("queen", "artist", "tax_collector")),
    ],
)
def test_the_eight_player_error_offers_the_fix_K7_C5(edition: str, words: tuple[str, ...]) -> None:
    eight = ["assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"]
    with pytest.raises(ValueError, match="8 players need a rank-9 character") as info:
        citadels.new_game(edition, 8, characters=eight)
    for word in words:
        assert word in str(info.value)
