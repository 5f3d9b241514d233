"""The search's fitted evaluation (citadels.bots.evaluation): chances that behave like win
shares, that follow what wins the game (districts towards completion, C-14; the score, R-20),
and a fitting procedure that recovers the weights that generated its data."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from citadels import new_game
from citadels.bots import ISMCTSBot, make_bot
from citadels.bots.evaluation import FEATURES, WEIGHTS, features, weights_for, win_chances
from citadels.editions import EDITIONS
from citadels.engine import rules
from citadels.engine.state import OVER, GameState

ROOT = Path(__file__).resolve().parent.parent


def _fit_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fit_evaluation", ROOT / "tools" / "fit_evaluation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_evaluation"] = module
    spec.loader.exec_module(module)
    return module


def _midgame(edition: str, players: int, seed: int) -> GameState:
    game = new_game(edition, players, seed=seed)
    s = game.state
    rng = random.Random(seed)
    while s.round < 4 and s.phase != OVER:
        legal = rules.legal_actions(s)
        rules.apply(s, legal[rng.randrange(len(legal))])
    return s


def test_every_edition_has_fitted_weights_for_every_feature() -> None:
    assert set(WEIGHTS) == set(EDITIONS)
    for edition in EDITIONS:
        assert len(weights_for(edition)) == len(FEATURES)
    assert weights_for("an edition of tomorrow") == WEIGHTS["classic"]


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_chances_are_a_distribution_over_the_seats(edition: str) -> None:
    for players in (2, 4, 7):
        s = _midgame(edition, players, seed=players)
        chances = win_chances(s)
        assert len(chances) == players
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)


def test_a_finished_game_gives_the_true_win_shares() -> None:
    game = new_game("classic", 4, seed=3)
    s = game.state
    rng = random.Random(3)
    while s.phase != OVER:
        legal = rules.legal_actions(s)
        rules.apply(s, legal[rng.randrange(len(legal))])
    winners = game.result().winners
    assert win_chances(s) == [1 / len(winners) if seat in winners else 0.0 for seat in range(4)]


def test_C14_a_city_one_district_from_completion_is_the_favourite() -> None:
    """Two seats equal in all but the city: the one a district short of completing it (C-14:
    the game ends when a city is complete) is far likelier to win."""
    s = new_game("classic", 4, seed=5).state
    for p in s.players:
        p.gold = 4
        p.hand = p.hand[:3]
        p.city = ["temple", "market"]
        p.built_round = [0, 0]
    s.players[2].city = ["temple", "market", "tavern", "watchtower", "manor", "docks", "prison"]
    s.players[2].built_round = [0] * 7
    assert s.complete_at - s.city_size(2) == 1
    chances = win_chances(s)
    assert max(range(4), key=chances.__getitem__) == 2
    assert chances[2] > 0.5
    f = dict(zip(FEATURES, features(s, 2), strict=True))
    assert f["missing_one"] == 1.0 and f["districts"] == 7.0


def test_R20_more_points_in_the_city_never_lowers_a_seats_chance_late_in_the_game() -> None:
    """The score (R-20) counts: swapping a cheap district for a dear one of the same colour
    raises the seat's chance."""
    s = new_game("classic", 4, seed=6).state
    for p in s.players:
        p.city = ["temple", "market", "tavern", "watchtower", "docks"]
        p.built_round = [0] * 5
    before = win_chances(s)[1]
    s.players[1].city = ["cathedral", "market", "tavern", "watchtower", "docks"]
    assert win_chances(s)[1] > before


def test_the_fit_recovers_the_weights_that_made_the_data() -> None:
    """Data drawn from a known conditional logit are fitted back to its weights."""
    np = pytest.importorskip("numpy")
    tool = _fit_tool()
    rng = np.random.default_rng(0)
    true = np.array([0.8, -0.5, 0.3])
    data = []
    for _ in range(3000):
        n = int(rng.integers(2, 7))
        x = rng.normal(size=(n, 3))
        p = tool.predict(true, x)
        winner = rng.choice(n, p=p)
        y = np.zeros(n)
        y[winner] = 1.0
        data.append((x, y))
    w = tool.fit(data)
    assert np.abs(w - true).max() < 0.1
    loss, _ = tool.judge([tool.predict(w, x) for x, _ in data], data)
    uniform, _ = tool.judge([np.full(len(y), 1 / len(y)) for _, y in data], data)
    assert loss < uniform


def test_the_search_takes_the_fitted_evaluation_and_refuses_an_unknown_one() -> None:
    game = new_game("classic", 4, seed=8)
    bot = make_bot("ismcts", seed=1, iterations=30, evaluation="fitted")
    assert isinstance(bot, ISMCTSBot) and bot.evaluation == "fitted"
    seat = game.to_move
    assert bot.choose(game.view(seat), game.legal_actions()) in game.legal_actions()
    assert bot.last_iterations == 30
    with pytest.raises(
        ValueError, match="unknown evaluation 'oracle'; known evaluations: standing, fitted"
    ):
        ISMCTSBot(evaluation="oracle")
