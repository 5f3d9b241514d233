"""Whose eyes each search tree sees through (ISMCTSBot(opponents="trees"), and the single tree).

With ``opponents="trees"`` every seat chooses in a tree of its own, which branches on what that
seat sees of each move (:func:`citadels.bots.ismcts.observed`): another seat's character pick
is one move there, whatever it was (C-4: nobody but its holder knows who holds which character),
and so are the cards it kept, discarded or paid in secret. In the single-observer tree a child
is keyed by its mover too, so a move that one seat makes in one deal and another seat in the
next (who is called next depends on the deal) never pools the two seats' rewards."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterator

import pytest

from citadels import new_game
from citadels.bots import ISMCTSBot, ismcts
from citadels.bots.ismcts import HIDDEN_CHOICES, _Node, observed
from citadels.editions import EDITIONS
from citadels.engine import rules
from citadels.engine.actions import (
    Action,
    Build,
    Destroy,
    GatherGold,
    KeepCards,
    Murder,
    PickCharacter,
    PlaceWarrants,
)
from citadels.engine.determinize import SeatSampler
from citadels.engine.events import event_view
from citadels.engine.state import OVER, Event, GameState
from tests.helpers import first_pick


def setups() -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for edition in EDITIONS.values():
        out.append((edition.id, None))
        out.extend((edition.id, preset) for preset in edition.presets)
    return out


def after(s: GameState, action: Action) -> list[Event]:
    """The events ``action`` logs when applied to a copy of ``s``."""
    copy = s.copy()
    start = len(copy.log)
    rules.apply(copy, action)
    return copy.log[start:]


def some_pairs(legal: list[Action], rng: random.Random) -> list[tuple[Action, Action]]:
    """A random pair of moves of each kind on offer twice or more, and one pair of any kinds."""
    kinds: dict[type[Action], list[Action]] = {}
    for a in legal:
        kinds.setdefault(type(a), []).append(a)
    out = [(a, b) for a, b in (rng.sample(same, 2) for same in kinds.values() if len(same) > 1)]
    a, b = rng.sample(legal, 2)
    return [*out, (a, b)]


def test_C4_R24_R31_a_seat_never_tells_apart_what_its_tree_merges_wrongly() -> None:
    """Two moves that another seat sees alike (the same events, as that seat sees them) are
    the same move in that seat's tree. Over random games of every edition and preset, pairs of
    legal moves of the seat to move: no pair that some other seat cannot tell apart has two
    keys, and each kind of secret choice met is in fact unseen by some other seat."""
    rng = random.Random(8)
    hidden_seen: Counter[str] = Counter()
    pairs = 0
    for g, (edition, preset) in enumerate(setups() * 2):
        players = max(
            rng.choice([3, 4, 5]), EDITIONS[edition].presets[preset].min_players if preset else 2
        )
        game = new_game(edition, players, seed=g, **({"preset": preset} if preset else {}))
        s = game.state
        while s.phase != OVER:
            legal = rules.legal_actions(s)
            mover = rules.to_move(s)
            if len(legal) >= 2 and mover is not None:
                for a, b in some_pairs(legal, rng):
                    shown = after(s, a), after(s, b)
                    # A build that opens a payment or a confiscation logs nothing until that
                    # decision is made, and names its district then: nothing to compare yet.
                    if not (shown[0] and shown[1]):
                        continue
                    pairs += 1
                    for q in range(players):
                        if q == mover:
                            continue
                        alike = [event_view(e, q) for e in shown[0]] == [
                            event_view(e, q) for e in shown[1]
                        ]
                        if alike:
                            assert observed(a) == observed(b), (edition, preset, a, b, q)
                            if type(a) is type(b) and type(a) in HIDDEN_CHOICES:
                                hidden_seen[type(a).type] += 1
            rules.apply(s, legal[rng.randrange(len(legal))])
    assert pairs > 10_000
    # The secret choices met twice or more at one decision and shown at once (the
    # Magician's discards and a Thieves' Den's cards are logged when the last one is chosen).
    met = {"pick", "keep", "laboratory", "museum", "give_card", "take_card", "pay_tribute"}
    assert met <= set(hidden_seen), hidden_seen


def test_C4_R24_observed_hides_the_choice_and_keeps_the_public_move() -> None:
    assert observed(PickCharacter("king")) == observed(PickCharacter("thief")) == "pick"
    assert observed(KeepCards(("manor",))) == observed(KeepCards(("castle",))) == "keep"
    # The Magistrate's warrants: which characters they go on is public, the signed one not.
    one = PlaceWarrants(signed="king", first="bishop", second="merchant")
    other = PlaceWarrants(signed="merchant", first="king", second="bishop")
    assert observed(one) == observed(other)
    assert observed(one) != observed(PlaceWarrants("king", "bishop", "architect"))
    for public in (Murder("king"), Build("manor"), GatherGold(), Destroy(2, "manor")):
        assert observed(public) == public


class Keeping(ISMCTSBot):
    """An ISMCTSBot that keeps every seat's tree of its last search (``opponents="trees"``)."""

    trees: list[_Node]

    def _iterate_trees(
        self,
        deal: Callable[[random.Random], GameState],
        root: _Node,
        roots: list[_Node],
        rng: random.Random,
        favoured: Action | None,
    ) -> None:
        self.trees = roots
        super()._iterate_trees(deal, root, roots, rng, favoured)


def nodes(node: _Node) -> Iterator[tuple[Hashable, _Node, _Node]]:
    """Every (key, child, parent) below ``node``."""
    for key, child in node.children.items():
        yield key, child, node
        yield from nodes(child)


def test_C4_in_every_seats_tree_the_other_seats_picks_are_one_move() -> None:
    game, seat = first_pick()
    bot = Keeping(3, iterations=300, rollout="bot", opponents="trees")
    bot.attach(SeatSampler(game, seat))
    assert bot.choose(game.view(seat), game.legal_actions()) in game.legal_actions()
    trees = bot.trees
    assert len(trees) == 4 and trees[seat].mover == seat
    # The bot's own root: one child per character it tried, keyed by its action.
    assert len(trees[seat].children) == len(game.legal_actions())
    assert set(trees[seat].children) == set(game.legal_actions())
    for q, tree in enumerate(trees):
        if q != seat:
            # The others see that the bot picked, not what: one move in their trees.
            assert list(tree.children) == [(seat, "pick")]
        for key, child, _ in nodes(tree):
            if child.mover == q:
                assert isinstance(key, Action)
            else:
                assert isinstance(key, tuple) and key[0] == child.mover
                assert not isinstance(key[1], PickCharacter), "a secret pick is never a key"
    # Below its pick, the bot's tree has the next seat's pick as one move; that seat's own
    # tree holds its picks one by one, chosen among those offered in each deal.
    following = (seat + 1) % 4
    for child in trees[seat].children.values():
        assert set(child.children) <= {(following, "pick")}
    merged = trees[following].children[(seat, "pick")]
    assert len(merged.children) >= 2
    assert all(isinstance(k, PickCharacter) for k in merged.children)
    # Every tree was walked every iteration: the roots' visits are the iterations.
    assert all(tree.visits == 300 for tree in trees)


def test_the_single_tree_keys_the_other_seats_moves_by_their_mover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Who is called next in the turns depends on the deal, so the same action (gather gold,
    end the turn) is another seat's move in another deal: the single tree keeps them apart,
    and every child's statistics are the rewards of the seat that made its move."""
    game = new_game("classic", 4, seed=3)
    while not game.state.turn:  # the first turn of the first round
        game.apply(game.legal_actions()[0], game.to_move)
    seat = game.to_move
    assert seat is not None
    roots: list[_Node] = []
    made = ismcts._Node

    def recording(mover: int) -> _Node:
        node = made(mover)
        if not roots:
            roots.append(node)
        return node

    monkeypatch.setattr(ismcts, "_Node", recording)
    bot = ISMCTSBot(4, iterations=400, rollout="bot", exploration=2.0)
    bot.attach(SeatSampler(game, seat))
    bot.choose(game.view(seat), game.legal_actions())
    movers_of: dict[tuple[int, Hashable], set[int]] = {}
    for key, child, parent in nodes(roots[0]):
        if child.mover == seat:
            assert isinstance(key, Action)
        else:
            assert isinstance(key, tuple) and key[0] == child.mover
            movers_of.setdefault((id(parent), key[1]), set()).add(child.mover)
    # Somewhere one node has the same action as two seats' moves: two children.
    assert any(len(movers) > 1 for movers in movers_of.values())
