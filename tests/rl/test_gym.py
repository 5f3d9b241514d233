"""The Gymnasium single-agent environment: the learner's seat against project bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import citadels.rl.gym  # noqa: F401 (registers the environment)
from citadels.rl.gym import CitadelsEnv


def _episode(env: CitadelsEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    while True:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert np.array_equal(mask, info["action_mask"])
        legal = env.table.game.legal_actions()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(env.table.space.indices(legal))
        action = int(rng.choice(np.flatnonzero(mask)))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            assert not env.action_masks().any()
            return taken, reward, info
        assert reward == 0.0


def test_an_episode_against_easy_bots_ends_with_a_win_reward() -> None:
    env = CitadelsEnv(edition="classic", players=4, opponents="easy", seat=2)
    _, reward, info = _episode(env, 1)
    assert info["seat"] == 2
    winners = info["winners"]
    assert isinstance(winners, list)
    assert reward == pytest.approx(1 / len(winners) if 2 in winners else 0.0)


def test_same_seed_same_episode() -> None:
    env = gymnasium.make("citadels/Citadels-v0", players=3, opponents=["random", "medium"])
    inner = env.unwrapped
    assert isinstance(inner, CitadelsEnv)
    first = _episode(inner, 5)
    second = _episode(inner, 5)
    assert first[0] == second[0] and first[1] == second[1]


def test_random_seat_and_bad_arguments() -> None:
    env = CitadelsEnv(players=4, opponents="random")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.table.game.to_move == env.seat
    assert len(seats) > 1
    with pytest.raises(ValueError, match="3 opponents needed"):
        CitadelsEnv(players=4, opponents=["random"])
    with pytest.raises(ValueError, match="seat must be"):
        CitadelsEnv(players=4, seat=4)
