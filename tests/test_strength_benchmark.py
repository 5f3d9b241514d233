"""benchmarks/strength.py: its published seed set, its statistics and a tiny ladder."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import citadels

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "strength.py"


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_deal_is_played_from_every_seat(strength: ModuleType) -> None:
    setup = strength.Setup("classic", None, 4)
    games = [(setup.seed(i), setup.focus_seat(i)) for i in range(12)]
    assert games[:4] == [(20_240_000, seat) for seat in range(4)]
    for deal in range(3):
        block = games[4 * deal : 4 * deal + 4]
        assert {seed for seed, _ in block} == {20_240_000 + deal}
        assert sorted(seat for _, seat in block) == [0, 1, 2, 3]


def test_every_setup_covers_each_edition_and_preset_once(strength: ModuleType) -> None:
    setups = strength.every_setup(4)
    named = {(s.edition, s.preset) for s in setups}
    assert len(named) == len(setups)
    for edition in citadels.EDITIONS.values():
        assert (edition.id, None) in named
        for preset in edition.presets:
            # The presets equal to the default setup are left out.
            assert ((edition.id, preset) in named) != (preset in ("base", "first_game"))
    court = next(s for s in setups if s.preset == "imperial_court")
    assert court.players == 5  # the Queen's preset needs 5 players


def test_interval_and_tests(strength: ModuleType) -> None:
    low, high = strength.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert strength.wilson(0, 0) == (0.0, 1.0)
    z = strength.two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(0.2 / math.sqrt(0.5 * 0.5 * 0.02))
    assert strength.two_proportion_z(40, 100, 60, 100) == pytest.approx(-z)
    assert strength.normal_two_sided(1.959964) == pytest.approx(0.05, abs=1e-6)
    assert strength.one_sample_z(25, 100, 0.25) == 0.0


def test_a_tiny_ladder_reports_each_step(strength: ModuleType) -> None:
    lines: list[str] = []
    bots: list[tuple[str, dict[str, Any]]] = [("random", {}), ("medium", {})]
    setup = strength.Setup("basic", None, 3)
    steps = strength.ladder(setup, bots, 6, 1, True, lines.append)
    assert len(steps) == 1
    step = steps[0]
    assert (step.weaker, step.stronger) == ("random", "medium")
    assert step.up.games == step.down.games == 6
    assert step.up.focus_fallbacks == 0  # the heuristic decided every decision by a rule
    assert step.up.wins > step.down.wins
    assert lines[-1].strip().startswith("step random < medium: two-proportion z = ")


def test_first_starts_the_ladder_later_in_the_seed_set(strength: ModuleType) -> None:
    """``--first K`` plays games K.. of the seed set: the same games as the plain run's games
    from K on, other deals than the run that starts at 0 (random bots: every game's winner is
    down to the deal and the seeds)."""
    bots: list[tuple[str, dict[str, Any]]] = [("random", {}), ("random", {})]
    setup = strength.Setup("basic", None, 3)
    later = strength.ladder(setup, bots, 6, 1, False, lambda _: None, first=6)[0].up
    whole = strength.ladder(setup, bots, 12, 1, False, lambda _: None)[0].up
    start = strength.ladder(setup, bots, 6, 1, False, lambda _: None)[0].up
    assert later.wins == whole.wins - start.wins
    assert 0 < whole.wins < 12
    assert (
        strength.main(
            [
                "ladder",
                "--first",
                "3",
                "--games",
                "3",
                "--bots",
                "random",
                "medium",
                "--edition",
                "basic",
                "--players",
                "3",
                "--one-way",
            ]
        )
        == 0
    )


def test_speed_times_whole_decisions_against_a_budget(strength: ModuleType) -> None:
    figures = strength.speed(3, "ismcts", {"iterations": 5}, budget=60.0)
    assert figures["decisions"] == 3
    assert figures["iterations"] == 15
    assert figures["cpu_seconds"] > 0
    assert figures["longest_decision"] <= figures["seconds"]
    assert figures["over_budget"] == 0
    assert strength.speed(2, "ismcts", {"iterations": 5}, budget=0.0)["over_budget"] == 2


def test_hard_params_reach_the_ladder_and_speed(strength: ModuleType) -> None:
    args = strength.argparse.Namespace(
        bots=["medium", "hard"],
        hard_param=["iterations=7", "evaluation=standing", "time_limit=null"],
        iterations=200,
        seconds_per_decision=None,
        search_param=[],
    )
    assert strength._bot_list(args) == [
        ("medium", {}),
        ("hard", {"iterations": 7, "evaluation": "standing", "time_limit": None}),
    ]
