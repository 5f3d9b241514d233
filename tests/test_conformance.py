"""Conformance over every edition × player count 2–7 and many seeds (DESIGN.md, level 3).

Each game checks, at every decision or on a sample of them: legal actions sorted and
non-empty, cards conserved and gold never negative (C-11), no view leaking hidden information
(C-10), sampled illegal actions refused without change, every legal action applicable on a
copy, exact copy/JSON round-trips, the record replaying to the same game, and the game ending
(C-14). The long soak is ``make soak``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import citadels
from citadels.conformance import Stats, play_checked, random_setup
from citadels.editions import EDITIONS

GAMES_PER_CONFIG = 40

# Default setups: 2–7 players (8 players need a rank-9 character, tested below).
CONFIGS = [(e.id, n) for e in EDITIONS.values() for n in range(e.min_players, 8)]


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_random_games_conform(edition: str, players: int) -> None:
    stats = Stats()
    for seed in range(GAMES_PER_CONFIG):
        play_checked(edition, players, seed=1000 * players + seed, stats=stats)
    assert stats.games == GAMES_PER_CONFIG
    assert stats.illegal_checked > 0
    assert stats.deep_checks >= GAMES_PER_CONFIG


def test_C14_every_game_ends_and_C15_short_game_options() -> None:
    """Classic's short-game option (K-6) also plays to the end, with its city size."""
    for complete_at in (6, 7):
        for seed in range(15):
            game = play_checked("classic", 4, seed=seed, complete_at=complete_at)
            assert game.state.complete_at == complete_at
            first = game.state.first_complete
            assert first is not None
            assert len(game.state.players[first].city) >= complete_at


def test_random_play_uses_every_kind_of_action() -> None:
    """The random games above are worth something only if they reach every action type."""
    stats = Stats()
    for seed in range(60):
        play_checked("classic", 4, seed=seed, stats=stats, deep_every=10_000, views_every=10_000)
        play_checked("dezh", 5, seed=seed, stats=stats, deep_every=10_000, views_every=10_000)
    seen: Counter[str] = stats.action_types
    for kind in (
        "pick",
        "keep",
        "graveyard",
        "gather_gold",
        "gather_cards",
        "take_income",
        "murder",
        "rob",
        "exchange_hands",
        "discard",
        "draw_replacements",
        "destroy",
        "build",
        "laboratory",
        "smithy",
        "end_turn",
    ):
        assert seen[kind] > 0, kind


@pytest.mark.parametrize("players", range(2, 9))
def test_N1_random_2016_setups_conform(players: int) -> None:
    """Any legal 2016 character set and 14 unique districts play to the end (N-1), 2–8."""
    stats = Stats()
    rng = random.Random(100 + players)
    for seed in range(30):
        options = random_setup("2016", players, rng)
        play_checked("2016", players, seed=seed, stats=stats, **options)
    assert stats.games == 30


@pytest.mark.parametrize("players", range(2, 9))
def test_K7_random_dark_city_setups_conform(players: int) -> None:
    """Any legal character set and bonus deck plays to the end (K-7), 2–8 players."""
    stats = Stats()
    rng = random.Random(players)
    for seed in range(30):
        options = random_setup("classic", players, rng)
        play_checked("classic", players, seed=seed, stats=stats, **options)
    assert stats.games == 30


@pytest.mark.parametrize("edition", ["classic", "2016"])
def test_random_setups_of_a_run_use_every_character(edition: str) -> None:
    """The random setups of the conformance run above (same generators) seat every character
    of the edition at least once (K-7, N-1)."""
    seen: set[str] = set()
    base = 100 if edition == "2016" else 0
    for players in range(2, 9):
        rng = random.Random(base + players)
        for _ in range(30):
            seen.update(random_setup(edition, players, rng)["characters"])
    assert seen == set(citadels.EDITIONS[edition].characters)
