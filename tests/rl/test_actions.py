"""The action numbering: complete for every setup, invertible, and pinned."""

from __future__ import annotations

import random

import pytest

from citadels.editions import EDITIONS
from citadels.engine.actions import Build, EndTurn, KeepCards, PickCharacter
from citadels.engine.game import new_game
from citadels.rl.actions import ActionSpace, action_to_index, index_to_action

#: The numbering of each edition's default setups and of the largest presets. A change here
#: breaks every trained policy: never edit a digest, append new action kinds instead.
PINNED = [
    ("basic", 4, {}, 314, "fbf88393d658d8bc6ff13dd90f4c5fed032004942f15521c8a2ebab668500319"),
    ("dezh", 4, {}, 505, "373ebddb4e5a1c9cf88d63904e62c0422e4c98271e84b31c521a6c69c73b2620"),
    ("classic", 4, {}, 675, "2bcdd60ccd92607919da640247a97e179a255158f42a7d85b5b95c18bc70f39c"),
    ("2016", 4, {}, 819, "8c4421848774bb0d60db04c0f787506ff9ec1e2c1653d14092dff12c3c73f30b"),
    ("classic", 2, {}, 617, "0a6dff347e63ccf8f0c4f4c5995e88e0ec26d719caf0f0129d0c1c0b82fd74db"),
    (
        "classic",
        8,
        {"preset": "artisans"},
        7896,
        "08f4b558c3b11da8b1dfa864f0e62e7f946fe350135356d10f19ee4f06fb2980",
    ),
    (
        "2016",
        8,
        {"preset": "illustrious_emissaries"},
        9417,
        "69693e9360268fd42a4a38ae041420b0caad8c5fa370f05093c0950580600fcc",
    ),
]


@pytest.mark.parametrize(("edition", "players", "options", "size", "digest"), PINNED)
def test_numbering_is_pinned(
    edition: str, players: int, options: dict[str, str], size: int, digest: str
) -> None:
    space = ActionSpace.for_setup(edition, players, **options)
    assert space.size == size
    assert space.digest() == digest


def test_first_entries_of_the_classic_numbering() -> None:
    space = ActionSpace.for_setup("classic", 4)
    assert space.index_to_action(0) == PickCharacter("assassin")
    assert space.index_to_action(7) == PickCharacter("warlord")
    assert space.action_to_index(KeepCards(("castle",))) < space.action_to_index(EndTurn())
    i = space.action_to_index(Build("castle"))
    assert index_to_action(space, i) == Build("castle")
    assert action_to_index(space, Build("castle")) == i
    with pytest.raises(IndexError):
        space.index_to_action(space.size)
    with pytest.raises(KeyError):
        space.action_to_index(Build("not_a_district"))


def _setups() -> list[tuple[str, int, dict[str, object]]]:
    """Every preset at its smallest table and at 6 seats (or its largest, if smaller), the
    plain editions, and decks with every purple district of the pools (the 2016 deck takes
    14 at a time). Eight seats only widen the seat fields: the pinned digests cover them."""
    out: list[tuple[str, int, dict[str, object]]] = []
    for ed in EDITIONS.values():
        if not ed.presets:
            out += [(ed.id, 2, {}), (ed.id, 5, {})]
        for pid, preset in ed.presets.items():
            sizes = (preset.min_players, min(preset.max_players, 6))
            out += [(ed.id, n, {"preset": pid}) for n in sizes]
    classic_pool = sorted(EDITIONS["classic"].purple_pool)
    out.append(("classic", 3, {"districts": classic_pool}))
    pool = sorted(EDITIONS["2016"].purple_pool)
    out += [("2016", 3, {"districts": pool[i : i + 14]}) for i in (0, 14, len(pool) - 14)]
    return out


def test_every_legal_action_of_random_games_is_numbered() -> None:
    """Over 1,000 random games of every setup, each legal action has a number that maps back
    to it, and the mask marks exactly the legal ones."""
    setups = _setups()
    spaces = [ActionSpace.for_setup(e, n, **o) for e, n, o in setups]
    games = 0
    for k in range(1000):
        edition, players, options = setups[k % len(setups)]
        space = spaces[k % len(setups)]
        game = new_game(edition, players, seed=k, **options)
        rng = random.Random(k)
        step = 0
        while not game.is_over:
            legal = game.legal_actions()
            indices = space.indices(legal)
            assert [space.index_to_action(i) for i in indices] == legal
            if step % 7 == 0:
                mask = space.legal_mask(game)
                assert sorted(mask.nonzero()[0].tolist()) == sorted(indices)
            game.apply(legal[rng.randrange(len(legal))])
            step += 1
        games += 1
        assert not space.legal_mask(game).any()
    assert games == 1000


def test_numbering_of_a_game_is_the_one_of_its_setup() -> None:
    game = new_game("2016", 5, seed=1, preset="cunning_agents")
    assert ActionSpace.for_game(game).digest() == (
        ActionSpace.for_setup("2016", 5, preset="cunning_agents").digest()
    )
