"""The search's model of the other seats (ISMCTSBot(opponents=…)): with ``"model"`` the tree
holds only the bot's own moves and the other seats play by the rollout policy from their own
view of the deal, so inside a search they never choose knowing the bot's secret character
(C-4: nobody but its holder knows who holds which character)."""

from __future__ import annotations

import random

import pytest

from citadels.bots import ISMCTSBot, ismcts, make_bot
from citadels.engine import rules
from citadels.engine.actions import Action
from citadels.engine.determinize import SeatSampler
from citadels.engine.state import SELECTION, GameState
from citadels.engine.views import player_view
from tests.helpers import first_pick


def movers_of_the_tree(opponents: str, monkeypatch: pytest.MonkeyPatch) -> tuple[set[int], int]:
    game, seat = first_pick()
    movers: set[int] = set()

    class Recording(ismcts._Node):
        def __init__(self, mover: int) -> None:
            super().__init__(mover)
            movers.add(mover)

    monkeypatch.setattr(ismcts, "_Node", Recording)
    bot = ISMCTSBot(3, iterations=150, rollout="bot", opponents=opponents)
    bot.attach(SeatSampler(game, seat))
    assert bot.choose(game.view(seat), game.legal_actions()) in game.legal_actions()
    return movers, seat


def test_C4_the_modelled_opponents_leave_the_tree_to_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    movers, seat = movers_of_the_tree("tree", monkeypatch)
    assert movers - {seat}, "the single-observer tree holds the other seats' picks too"
    movers, seat = movers_of_the_tree("model", monkeypatch)
    assert movers == {seat}


def test_C4_the_modelled_opponents_choose_from_their_own_view() -> None:
    game, seat = first_pick()
    bot = ISMCTSBot(5, iterations=60, rollout="bot", opponents="model", horizon=1)
    seen: list[tuple[int, bool]] = []

    def recording(s: GameState, legal: list[Action], rng: random.Random) -> Action:
        mover = rules.to_move(s)
        assert mover is not None
        if s.phase == SELECTION and mover != seat:
            view = player_view(s, mover, legal, len(s.log))
            # What the other seat's player sees of the bot's seat: not its secret character.
            held = player_view(s, seat, [], len(s.log))["players"][seat]["characters"]
            seen.append((bool(held), bool(view["players"][seat]["characters"])))
        return ismcts.bot_policy(s, legal, rng)

    bot.policy = recording
    bot.attach(SeatSampler(game, seat))
    bot.choose(game.view(seat), game.legal_actions())
    # The other seats' picks were modelled after the bot had picked in the deal, and then
    # the bot's seat shows its character to the bot but not to them.
    assert any(held for held, _ in seen)
    assert not any(leak for _, leak in seen)


@pytest.mark.parametrize("opponents", ["model", "trees"])
def test_the_opponent_model_is_validated_and_reproducible(opponents: str) -> None:
    with pytest.raises(ValueError, match="unknown opponents 'psychic'; known opponent models"):
        ISMCTSBot(opponents="psychic")
    game, seat = first_pick()
    stats = []
    for _ in range(2):
        bot = make_bot("hard", seed=11, time_limit=None, iterations=80, opponents=opponents)
        bot.attach(SeatSampler(game, seat))  # type: ignore[attr-defined]
        bot.choose(game.view(seat), game.legal_actions())
        stats.append(bot.last_stats)  # type: ignore[attr-defined]
        assert sum(v for v, _ in bot.last_stats.values()) == 80  # type: ignore[attr-defined]
    assert stats[0] == stats[1]
