"""The bot levels' ratings measured against people (issue 28, docs/accounts.md "The bots'
ratings"): fitted from the stored rated games in which accounts played bots, checked against
OpenSkill's own numbers on fixed games, shown once a level has enough games."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from citadels.server import profiles
from citadels.server.measured import BotMeasures, measure
from citadels.server.ratings import BOT_RATINGS, MEASURED_MIN, MU, SIGMA, display, measure_bots
from citadels.server.storage import Store, record_ratings, tables_t
from tests.server.test_ratings import _result, _stored_game


def _play(store: Store, games: list[tuple[list[int], dict[int, str], list[int]]]) -> None:
    """Store and rate each game: its accounts, its bots by seat, the ranks by seat."""
    for accounts, bots, ranks in games:
        table_id = _stored_game(store, accounts, bots)
        with store.engine.begin() as conn:
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id)
                .values(status="finished", result=_result(ranks))
            )
            assert record_ratings(conn, table_id, _result(ranks))


def test_a_levels_measure_is_the_library_run_over_its_games(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.migrate()
    try:
        anna = store.create_account("Anna", "anna", "x")
        ben = store.create_account("Ben", "ben", "x")
        assert anna is not None and ben is not None
        games = [
            ([anna, ben], {2: "hard"}, [2, 3, 1]),
            ([anna], {1: "hard", 2: "easy"}, [1, 3, 2]),
            ([ben, anna], {2: "easy", 3: "easy"}, [4, 1, 2, 3]),
            ([anna, ben], {}, [2, 1]),  # no bot: not a measure
            ([ben], {1: "hard"}, [2, 1]),
        ]
        # What the library says: each bot seat against the accounts at the table (the other
        # bots left out), the accounts at their ratings before the game, held there.
        model = PlackettLuce()
        people = {anna: (MU, SIGMA), ben: (MU, SIGMA)}
        expected = {"hard": (MU, SIGMA), "easy": (MU, SIGMA)}
        counts = {"hard": 0, "easy": 0}
        for accounts, bots, ranks in games:
            seat_accounts = list(accounts)
            humans = []
            for seat in range(len(ranks)):
                if seat not in bots:
                    humans.append((ranks[seat], people[seat_accounts.pop(0)]))
            for seat, level in bots.items():
                teams = [[model.rating(mu=expected[level][0], sigma=expected[level][1])]]
                teams += [[model.rating(mu=m, sigma=s)] for _, (m, s) in humans]
                got = model.rate(teams, ranks=[float(ranks[seat])] + [float(r) for r, _ in humans])
                expected[level] = (got[0][0].mu, got[0][0].sigma)
                counts[level] += 1
            _play(store, [(accounts, bots, ranks)])
            people = {a: store.ratings_of(a)["classic"][:2] for a in (anna, ben)}
        measured = measure(store, "classic")
        for level in ("hard", "easy"):
            assert measured[level]["games"] == counts[level]
            # Below the threshold: counted, not shown.
            assert measured[level]["rating"] is None and measured[level]["mu"] is None
        assert measured["medium"]["games"] == 0
        assert measured["hard"]["anchor"] == display(BOT_RATINGS["hard"][0])
        fitted = measure_bots(store.bot_games("classic"))
        for level in ("hard", "easy"):
            assert fitted[level][:2] == pytest.approx(expected[level])
        assert fitted["hard"][2] == 3 and fitted["easy"][2] == 3
    finally:
        store.close()


def test_a_measure_is_shown_once_a_level_has_enough_games(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'measure.sqlite3'}"
    store = Store(db)
    store.migrate()
    try:
        accounts = [store.create_account(f"P{i}", f"p{i}", "x") for i in range(3)]
        assert None not in accounts
        # The accounts beat "easy" every time: its measure falls well below the prior.
        game = ([accounts[0], accounts[1], accounts[2]], {3: "easy"}, [1, 2, 3, 4])
        _play(store, [game] * (MEASURED_MIN - 1))
        clock = [0.0]
        measures = BotMeasures(store, ttl=60, clock=lambda: clock[0])
        board = asyncio.run(profiles.leaderboard(store, "classic", measures))
        easy = board["bots_measured"]["easy"]
        assert easy["games"] == MEASURED_MIN - 1 and easy["rating"] is None
        assert board["measured_min"] == MEASURED_MIN
        _play(store, [game])
        # Within the cache's minute the measure is the one read before; after it, the new.
        board = asyncio.run(profiles.leaderboard(store, "classic", measures))
        assert board["bots_measured"]["easy"]["games"] == MEASURED_MIN - 1
        clock[0] += 60
        board = asyncio.run(profiles.leaderboard(store, "classic", measures))
        easy = board["bots_measured"]["easy"]
        assert easy["games"] == MEASURED_MIN and easy["rating"] == display(easy["mu"])
        assert easy["mu"] < MU - 5 and easy["sigma"] < SIGMA
        assert board["bots"]["easy"] == display(BOT_RATINGS["easy"][0])  # the anchor stays
    finally:
        store.close()
    done = subprocess.run(
        [sys.executable, "-m", "citadels", "accounts", "bot-ratings", "--db", db, "--json"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "LANGUAGE": "en"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["measured_min"] == MEASURED_MIN and list(out["editions"]) == ["classic"]
    assert out["editions"]["classic"]["easy"] == easy
    table = subprocess.run(
        [sys.executable, "-m", "citadels", "accounts", "bot-ratings", "--db", db],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "LANGUAGE": "en", "COLUMNS": "120"},
    )  # fmt: skip
    assert table.returncode == 0, table.stderr
    assert "Measured rating" in table.stdout and f"{easy['rating']:,}" in table.stdout
