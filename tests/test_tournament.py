"""Tournaments: seat rotation, statistics, backends agreeing, the report on disk."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from citadels.sim.tournament import (
    BotEntry,
    entry_at,
    parse_bots,
    run_tournament,
    wilson,
)


def test_parse_bots_reads_kinds_and_parameters() -> None:
    entries = parse_bots("ismcts:iterations=50:exploration=0.7,heuristic, random")
    assert [e.kind for e in entries] == ["ismcts", "heuristic", "random"]
    assert entries[0].params == (("iterations", 50), ("exploration", 0.7))
    assert entries[2].label == "random"


@pytest.mark.parametrize(
    "spec", ["heuristic", "heuristic,wizard", "heuristic,,random", "ismcts:iterations,random"]
)
def test_parse_bots_rejects_bad_specs(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_bots(spec)


def test_seats_rotate_so_every_entry_plays_every_seat() -> None:
    n = 4
    for entry in range(n):
        seats = {
            seat for index in range(n) for seat in range(n) if entry_at(seat, index, n) == entry
        }
        assert seats == set(range(n))


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(60, 100)
    assert round(low, 4) == 0.5020 and round(high, 4) == 0.6906
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.29


def test_tournament_statistics_add_up() -> None:
    entries = parse_bots("heuristic,random,random,random")
    result = run_tournament("classic", entries, 8, seed=3)
    assert result.games == 8
    assert [g.index for g in result.records] == list(range(8))
    by_entry = result.by_entry()
    assert sum(r.wins for r in by_entry) == pytest.approx(8)
    assert sum(r.wins for r in result.by_seat()) == pytest.approx(8)
    for g in result.records:
        assert sorted(s.entry for s in g.seats) == [0, 1, 2, 3]
        assert sum(s.win for s in g.seats) == pytest.approx(1)
        assert all(s.characters for s in g.seats)
    chars = result.by_character()
    assert set(chars) <= {
        "assassin",
        "thief",
        "magician",
        "king",
        "bishop",
        "merchant",
        "architect",
        "warlord",
    }
    summary = result.summary()
    assert summary["bots"][0]["label"] == "heuristic"
    assert 0 <= summary["bots"][0]["ci95"][0] <= summary["bots"][0]["rate"]


def test_results_do_not_depend_on_workers_or_backend() -> None:
    entries = parse_bots("heuristic,random,random")
    one = run_tournament("dezh", entries, 6, seed=5, workers=1)
    two = run_tournament("dezh", entries, 6, seed=5, workers=2)
    assert [g.seats for g in one.records] == [g.seats for g in two.records]


def test_the_ray_backend_gives_the_same_results() -> None:
    pytest.importorskip("ray", reason="the ray backend needs the 'ray' extra")
    entries = parse_bots("heuristic,random,random")
    one = run_tournament("dezh", entries, 6, seed=5, workers=1)
    ray_result = run_tournament("dezh", entries, 6, seed=5, workers=2, backend="ray")
    assert [g.seats for g in ray_result.records] == [g.seats for g in one.records]


def test_bad_settings_fail_before_playing() -> None:
    entries = [BotEntry("random", "random"), BotEntry("random", "random")]
    with pytest.raises(ValueError, match="backend"):
        run_tournament("classic", entries, 2, backend="spark")
    with pytest.raises(ValueError, match="players"):
        run_tournament("classic", entries * 5, 2)
    with pytest.raises(ValueError):
        run_tournament("classic", entries, 0)


def test_report_writes_csv_json_and_plots(tmp_path: Path) -> None:
    entries = parse_bots("heuristic,random,random,random")
    result = run_tournament("classic", entries, 4, seed=1)
    paths = result.write(str(tmp_path))
    names = {Path(p).name for p in paths}
    assert {
        "summary.json",
        "games.csv",
        "win_rate_by_bot.png",
        "win_rate_by_seat.png",
        "win_rate_by_character.png",
        "scores.png",
        "rounds.png",
    } <= names
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 4
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(rows) == 16
    assert {r["bot"] for r in rows} == {"heuristic", "random"}
    png = (tmp_path / "scores.png").read_bytes()
    assert png.startswith(b"\x89PNG")


def test_character_intervals_count_games_not_rounds() -> None:
    """Review: a seat that picked a character in several rounds of one game counted several
    trials, so the intervals were too narrow; now each seat-game is one trial."""
    entries = parse_bots("random,random,random")
    result = run_tournament("dezh", entries, 6, seed=2)
    chars = result.by_character()
    for c, rate in chars.items():
        games = sum(1 for g in result.records for s in g.seats if c in s.characters)
        assert rate.games == games
        assert rate.games <= result.games * len(entries)
    # With 2 characters per seat per round (3 players), some seat repeats a pick in a game.
    repeats = sum(
        len(s.characters) - len(set(s.characters)) for g in result.records for s in g.seats
    )
    assert repeats > 0


def test_bots_of_the_same_kind_are_pooled() -> None:
    entries = parse_bots("heuristic,random,random,random")
    result = run_tournament("classic", entries, 8, seed=3)
    pooled = result.by_bot()
    assert list(pooled) == ["heuristic", "random"]
    per_entry = result.by_entry()
    assert pooled["random"].games == 3 * result.games
    assert pooled["random"].wins == pytest.approx(sum(r.wins for r in per_entry[1:]))
    assert sorted(result.scores_by_bot()["random"]) == sorted(
        s for scores in result.scores()[1:] for s in scores
    )
    assert result.summary()["pooled"]["random"]["games"] == 24


def test_every_plot_names_the_setup(tmp_path: Path) -> None:
    entries = parse_bots("heuristic,random,random,random,random")
    result = run_tournament("classic", entries, 5, seed=1, options={"preset": "Witch-Hunt"})
    assert result.setup_line() == "classic, preset witch_hunt, 5 players, 5 games"
    import matplotlib.pyplot as plt

    titles: list[str] = []
    real_savefig = plt.Figure.savefig

    def spy(fig: Any, *args: Any, **kwargs: Any) -> None:
        titles.append(fig.get_suptitle())
        real_savefig(fig, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plt.Figure, "savefig", spy)
        paths = result.write(str(tmp_path))
    assert len(titles) == len([p for p in paths if p.endswith(".png")]) == 5
    assert all(result.setup_line() in t for t in titles)
