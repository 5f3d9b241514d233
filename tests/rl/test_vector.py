"""Batched self-play tables."""

from __future__ import annotations

import numpy as np

from citadels.rl.vector import SelfPlayBatch


def test_batch_rows_are_the_seats_to_move_and_games_restart() -> None:
    batch = SelfPlayBatch(6, "classic", 3, seed=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        obs, masks = batch.observe()
        assert obs.shape == (6, batch.encoder.size) and masks.shape == (6, batch.space.size)
        for row, table in enumerate(batch.tables):
            legal = batch.space.indices(table.game.legal_actions())
            assert sorted(np.flatnonzero(masks[row]).tolist()) == sorted(legal)
        assert batch.seats().tolist() == [t.game.to_move for t in batch.tables]
        result = batch.step((rng.random(masks.shape) * masks).argmax(axis=1))
        finished += int(result.done.sum())
        for row in np.flatnonzero(result.done):
            assert result.rewards[row].sum() == np.float32(1.0)
        assert not result.rewards[~result.done].any()
    assert finished > 0


def test_same_seed_same_tables() -> None:
    a = SelfPlayBatch(3, "2016", 4, seed=7)
    b = SelfPlayBatch(3, "2016", 4, seed=7)
    assert np.array_equal(a.observe()[0], b.observe()[0])
