"""The numpy policy, its checkpoints, and the learned bot that plays them."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from citadels.bots.base import make_bot
from citadels.bots.learned import DEFAULT_CHECKPOINT, LearnedBot
from citadels.engine.game import new_game
from citadels.rl.policy import Policy


def _random_policy(edition: str = "classic", players: int = 4, seed: int = 0) -> Policy:
    from citadels.rl.actions import ActionSpace
    from citadels.rl.observation import ObservationEncoder

    space = ActionSpace.for_setup(edition, players)
    size = ObservationEncoder(space).size
    rng = np.random.default_rng(seed)
    shapes = [(size, 16), (16, space.size)]
    layers = [(rng.normal(size=s).astype(np.float32), np.zeros(s[1], np.float32)) for s in shapes]
    return Policy({"edition": edition, "players": players, "options": {}}, layers)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    policy = _random_policy()
    path = tmp_path / "p.npz"
    policy.save(path)
    loaded = Policy.load(path)
    game = new_game("classic", 4, seed=1)
    obs = policy.encoder.encode(game.view(0))
    assert np.allclose(policy.logits(obs), loaded.logits(obs), atol=0.05)
    assert loaded.setup == policy.setup


def test_a_checkpoint_refuses_another_numbering(tmp_path: Path) -> None:
    policy = _random_policy()
    path = tmp_path / "p.npz"
    policy.save(path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["digest"] = np.array("0" * 64)
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match="another action numbering"):
        Policy.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="logits"):
        Policy(policy.setup, [*policy.layers[:1], (np.zeros((16, 3)), np.zeros(3))])


def _play(bots: list[object], seed: int) -> tuple[int, ...]:
    game = new_game("classic", 4, seed=seed)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        action = bots[seat].choose(game.view(seat), legal)  # type: ignore[attr-defined]
        assert action in legal
        game.apply(action)
    return game.result().winners


def test_learned_bot_plays_a_saved_policy_and_only_its_setup(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    _random_policy(seed=3).save(path)
    bot = make_bot("learned", seed=1, path=str(path))
    assert isinstance(bot, LearnedBot)
    _play([bot, make_bot("random", seed=2), bot, make_bot("random", seed=3)], seed=5)
    sampling = make_bot("learned", seed=1, path=str(path), temperature=1.0)
    _play([sampling] * 4, seed=6)
    game = new_game("classic", 3, seed=1)
    with pytest.raises(ValueError, match="plays classic with 4 players only"):
        bot.choose(game.view(game.to_move), game.legal_actions())


def test_the_shipped_learned_bot_beats_random_bots() -> None:
    """The checkpoint trained by examples/train_ppo.py wins most 4-player games against three
    random bots (seats rotating; chance would be a quarter)."""
    assert DEFAULT_CHECKPOINT.stat().st_size < 1_000_000
    wins = 0.0
    for i in range(12):
        rng = random.Random(i)
        bots: list[object] = [make_bot("random", seed=rng.getrandbits(32)) for _ in range(4)]
        bots[i % 4] = make_bot("learned", seed=i)
        winners = _play(bots, seed=500 + i)
        wins += 1 / len(winners) if i % 4 in winners else 0.0
    assert wins >= 8
