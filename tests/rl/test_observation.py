"""The observation encoding: fixed size, and blind to every other seat's secrets (C-10)."""

from __future__ import annotations

import random

import numpy as np

from citadels.engine.determinize import determinize
from citadels.engine.game import Game, new_game
from citadels.rl.actions import ActionSpace
from citadels.rl.observation import ObservationEncoder, view_text

SETUPS = [
    ("classic", 4, {}),
    ("2016", 5, {"preset": "illustrious_emissaries"}),
    ("classic", 3, {"preset": "dark_city"}),
    ("2016", 4, {"preset": "cunning_agents"}),
    ("dezh", 2, {}),
]


def _positions(edition: str, players: int, options: dict[str, str], seed: int) -> list[Game]:
    """Copies of a random game at every 9th decision."""
    game = new_game(edition, players, seed=seed, **options)
    rng = random.Random(seed)
    out = []
    step = 0
    while not game.is_over:
        if step % 9 == 0:
            out.append(game.copy())
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        step += 1
    out.append(game)
    return out


def _encode(enc: ObservationEncoder, game: Game, seat: int) -> np.ndarray:
    return enc.encode(game.view(seat, log_from=game.log_size))


def test_encoding_has_the_documented_size_and_layout() -> None:
    space = ActionSpace.for_setup("classic", 4)
    enc = ObservationEncoder(space)
    assert sum(width for _, width, _ in enc.layout) == enc.size
    x = _encode(enc, new_game("classic", 4, seed=2), 0)
    assert x.shape == (enc.size,) and x.dtype == np.float32
    assert x[enc.offsets["round"]] == 1.0
    # Four cards dealt to each seat (C-1): the viewer's hand block counts his.
    hand = x[enc.offsets["hand"] : enc.offsets["hand"] + len(space.districts)]
    assert hand.sum() == 4
    assert len(enc.describe()) == len(enc.layout)


def test_other_seats_secrets_never_change_the_encoding() -> None:
    """Resampling every hidden part of the game (other hands, the deck, unrevealed and
    face-down characters, hidden pending cards) leaves each seat's encoding unchanged, and
    the resampled games do differ in what is hidden."""
    rng = random.Random(7)
    differed = 0
    for k, (edition, players, options) in enumerate(SETUPS * 2):
        enc = ObservationEncoder(ActionSpace.for_setup(edition, players, **options))
        for game in _positions(edition, players, options, seed=100 + k):
            for seat in range(players):
                mine = _encode(enc, game, seat)
                other = determinize(game, seat, rng)
                hidden = [sorted(p.hand) for p in game.state.players if p.seat != seat] + [
                    game.state.deck
                ]
                hidden_other = [sorted(p.hand) for p in other.state.players if p.seat != seat] + [
                    other.state.deck
                ]
                differed += hidden != hidden_other
                assert np.array_equal(mine, _encode(enc, other, seat))
    assert differed > 100


def test_editing_another_hand_changes_only_that_seats_encoding() -> None:
    game = new_game("classic", 4, seed=5)
    enc = ObservationEncoder(ActionSpace.for_setup("classic", 4))
    before = [_encode(enc, game, seat) for seat in range(4)]
    hand = game.state.players[2].hand
    hand[:] = ["castle"] * len(hand) if set(hand) != {"castle"} else ["manor"] * len(hand)
    after = [_encode(enc, game, seat) for seat in range(4)]
    for seat in (0, 1, 3):
        assert np.array_equal(before[seat], after[seat])
    assert not np.array_equal(before[2], after[2])


def test_seats_are_relative_to_the_viewer() -> None:
    game = new_game("classic", 4, seed=3)
    enc = ObservationEncoder(ActionSpace.for_setup("classic", 4))
    crown = game.view(0)["crown"]
    for seat in range(4):
        x = _encode(enc, game, seat)
        block = x[enc.offsets["crown"] : enc.offsets["crown"] + 4]
        assert block.tolist().index(1.0) == (crown - seat) % 4


def test_text_form_lists_hand_and_numbered_legal_actions() -> None:
    game = new_game("classic", 4, seed=4)
    space = ActionSpace.for_setup("classic", 4)
    seat = game.to_move
    assert seat is not None
    text = view_text(game.view(seat), space)
    assert f"you are seat {seat}" in text
    for a in game.legal_actions():
        assert f"[{space.action_to_index(a)}] {a.text()}" in text
    other = (seat + 1) % 4
    assert "Your legal actions" not in view_text(game.view(other), space)
    line = next(
        row for row in view_text(game.view(other)).splitlines() if row.startswith(f"- seat {seat}:")
    )
    assert "hand:" not in line and "4 cards in hand" in line


def test_every_kind_of_decision_and_phase_has_its_place_in_the_encoding() -> None:
    # The encoding keeps its own order (it is part of the layout a trained policy reads), but it
    # must know every kind the engine has: a new kind fails here rather than at encoding time.
    from citadels.engine import serialize
    from citadels.rl import observation

    assert set(observation.PENDING_KINDS) == set(serialize.PENDING_KINDS)
