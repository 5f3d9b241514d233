"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, render."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from citadels.rl.pettingzoo import env, raw_env

# PettingZoo warns that dictionary observations are not NumPy arrays, as they should not be.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo")


@pytest.mark.parametrize(
    ("edition", "players", "options"),
    [("classic", 4, {}), ("2016", 3, {"preset": "cunning_agents"}), ("dezh", 2, {})],
)
def test_pettingzoo_api_test(edition: str, players: int, options: dict[str, str]) -> None:
    api_test(env(edition=edition, players=players, **options), num_cycles=600)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(edition="classic", players=4), num_cycles=300)


def _play_out(e: raw_env, seed: int) -> dict[str, float]:
    """Play random legal actions to the end; the rewards each agent saw when done."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


def test_win_reward_is_one_shared_among_winners() -> None:
    e = raw_env(edition="classic", players=4)
    for seed in range(5):
        final = _play_out(e, seed)
        assert sorted(final) == [f"player_{s}" for s in range(4)]
        assert sum(final.values()) == pytest.approx(1.0)
        winners = e.table.game.result().winners
        for s in range(4):
            expected = 1 / len(winners) if s in winners else 0.0
            assert final[f"player_{s}"] == pytest.approx(expected)


def test_score_reward_is_the_final_score() -> None:
    e = raw_env(edition="classic", players=3, reward="score")
    final = _play_out(e, 3)
    result = e.table.game.result()
    assert [final[f"player_{s}"] for s in range(3)] == [float(r.score) for r in result.seats]
    with pytest.raises(ValueError, match="reward must be one of"):
        raw_env(reward="points")


def test_only_the_agent_to_move_has_a_mask_and_illegal_actions_are_refused() -> None:
    e = raw_env(edition="classic", players=4)
    e.reset(seed=9)
    mover = e.agent_selection
    for agent in e.agents:
        assert e.observe(agent)["action_mask"].any() == (agent == mover)
    illegal = int(np.flatnonzero(e.observe(mover)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(illegal)


def test_render_is_the_text_of_the_view_of_the_seat_to_move() -> None:
    e = raw_env(edition="classic", players=4, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert text is not None
    seat = int(e.agent_selection.removeprefix("player_"))
    assert f"you are seat {seat}" in text and "Your legal actions:" in text
