"""Determinization (DESIGN.md): samples consistent with everything one seat knows.

Each sampled game must show the seat exactly its real view, keep every card, play on to the
end, depend on nothing but the seat's view, and, over many samples, reach every character
assignment the seat cannot rule out (checked against a brute force through the engine).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import citadels
from citadels import Game, PickCharacter, PutAsideCharacter, new_game
from citadels.engine import serialize
from citadels.engine.determinize import (
    HIDDEN_PARTS,
    InformationSet,
    SeatSampler,
    determinize,
)
from citadels.engine.state import GameState
from tests.helpers import position

EDITIONS = ("basic", "dezh", "classic")
SETUPS = [(edition, players, {}) for edition in EDITIONS for players in range(2, 8)]
#: Editions and presets with more hidden parts: Museum cards, the Wizard, the Lighthouse.
EXTRA_SETUPS = [
    ("classic", 4, {"preset": "dark_city"}),
    ("classic", 5, {"preset": "artisans"}),
    ("classic", 3, {"preset": "witch_hunt"}),
    ("classic", 6, {"preset": "imperial_court"}),
    ("classic", 8, {"preset": "artisans"}),
]


def dump(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def cards_in_play(s: GameState) -> Counter[str]:
    """Every district card of the game, wherever it is."""
    total: Counter[str] = Counter(s.deck)
    for p in s.players:
        total.update(p.hand)
        total.update(p.city)
        total.update(p.museum)
    for pending in s.pending:
        total.update(pending.cards)
    return total


def positions(
    edition: str, players: int, seed: int, every: int, **options: Any
) -> Iterator[tuple[Game, int]]:
    """(game, seat) at random moments of a random game: every ``every`` decisions on
    average, the seat to move and another one."""
    rng = random.Random(seed)
    game = new_game(edition, players, seed=seed, **options)
    while not game.is_over:
        if rng.randrange(every) == 0:
            to_move = game.to_move
            assert to_move is not None
            yield game, to_move
            yield game, rng.randrange(players)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    yield game, rng.randrange(players)


@pytest.mark.parametrize(("edition", "players", "options"), SETUPS + EXTRA_SETUPS)
def test_samples_show_the_seat_its_real_view(
    edition: str, players: int, options: dict[str, Any]
) -> None:
    checked = 0
    for game, seat in positions(edition, players, seed=players * 7 + 1, every=9, **options):
        real = dump(game.view(seat))
        info = InformationSet(game, seat)
        for k in range(2):
            sample = info.sample(random.Random(k))
            assert dump(sample.view(seat)) == real
            assert cards_in_play(sample.state) == cards_in_play(game.state)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("edition", EDITIONS)
def test_samples_depend_only_on_the_view(edition: str) -> None:
    """Two games that show a seat the same view give the same samples: nothing hidden
    leaks through the order or content of the real state."""
    differed = 0
    for game, seat in positions(edition, 4, seed=11, every=25):
        other = determinize(game, seat, random.Random(99))
        assert dump(other.view(seat)) == dump(game.view(seat))
        hidden = [p.hand for p in game.state.players if p.seat != seat]
        if hidden != [p.hand for p in other.state.players if p.seat != seat]:
            differed += 1
        a, b = InformationSet(game, seat), InformationSet(other, seat)
        for k in range(2):
            sa = serialize.state_to_json(a.sample(random.Random(k)).state)
            sb = serialize.state_to_json(b.sample(random.Random(k)).state)
            assert sa == sb
    assert differed > 3


def test_hidden_parts_are_resampled() -> None:
    """Hands, deck order, characters and the generator change between samples; own hand and
    the public table do not."""
    game = new_game("classic", 5, seed=3)
    rng = random.Random(0)
    while game.state.round < 3 or game.state.phase != "turns":
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    seat = 0
    s = game.state
    samples = [determinize(game, seat, random.Random(k)).state for k in range(30)]
    assert all(t.players[seat].hand == s.players[seat].hand for t in samples)
    assert all([p.city for p in t.players] == [p.city for p in s.players] for t in samples)
    assert len({tuple(t.deck) for t in samples}) > 20
    assert len({t.rng for t in samples}) == 30
    assert all(t.rng != s.rng for t in samples)
    hands = {tuple(tuple(sorted(p.hand)) for p in t.players) for t in samples}
    assert len(hands) > 20
    holders = {tuple(sorted(t.holders.items())) for t in samples}
    assert len(holders) > 1


def test_sampled_game_carries_no_real_secret() -> None:
    """The sample keeps no record of the real actions and no secret of another seat's past
    events; the current round's selection secrets are the sample's own."""
    rng = random.Random(5)
    game = new_game("classic", 4, seed=5)
    for _ in range(150):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    seat = 1
    sample = determinize(game, seat, random.Random(1))
    assert sample.actions == []
    assert sample.record()["seed"] == sample.state.seed != game.state.seed
    log = sample.state.log
    start = max(i for i, ev in enumerate(log) if ev.kind == "round")
    for ev in log[:start]:
        if ev.secret is not None:
            assert seat in ev.viewers
    held = {c: p.seat for p in sample.state.players for c in p.characters}
    for ev in log[start:]:
        if ev.kind == "pick" and ev.secret is not None:
            assert held[ev.secret["character"]] == ev.seat


def test_same_generator_same_sample() -> None:
    game = new_game("dezh", 4, seed=8)
    for _ in range(40):
        game.apply(game.legal_actions()[0])
    a = determinize(game, 2, random.Random(7))
    b = determinize(game, 2, random.Random(7))
    assert serialize.state_to_json(a.state) == serialize.state_to_json(b.state)


@pytest.mark.parametrize(("edition", "players"), [("basic", 2), ("dezh", 3), ("classic", 7)])
def test_sampled_games_play_to_the_end(edition: str, players: int) -> None:
    for game, seat in positions(edition, players, seed=4, every=40):
        if game.is_over:
            continue
        sample = determinize(game, seat, random.Random(seat))
        total = cards_in_play(sample.state)
        rng = random.Random(1)
        while not sample.is_over:
            legal = sample.legal_actions()
            sample.apply(legal[rng.randrange(len(legal))])
            assert cards_in_play(sample.state) == total
        assert len(sample.result()) == players


def test_hand_built_position() -> None:
    """A position set up by hand (no selection in the log) is sampled from its shape."""
    game = position(
        "classic",
        4,
        hands={0: ["temple", "manor"], 1: ["castle"], 2: ["palace", "docks", "tavern"]},
        cities={1: ["market"]},
        gold={0: 3, 1: 2, 2: 5, 3: 1},
        characters={0: ["king"], 1: ["thief"], 2: ["bishop"], 3: ["warlord"]},
    )
    view = dump(game.view(0))
    seen = set()
    for k in range(40):
        sample = determinize(game, 0, random.Random(k))
        assert dump(sample.view(0)) == view
        seen.add(tuple(sorted(sample.state.holders.items())))
    assert len(seen) > 1


# --- 2016: markers and the Theater ---------------------------------------------------------


def positions_2016(preset: str, players: int, seed: int) -> Iterator[Game]:
    """Every position of a random 2016 game of ``preset``."""
    rng = random.Random(seed)
    game = new_game("2016", players, seed=seed, preset=preset)
    while not game.is_over:
        yield game
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("preset", "marks", "placer"),
    [
        ("ambitious_aristocrats", "warrants", "magistrate"),
        ("cunning_agents", "threats", "blackmailer"),
    ],
)
def test_2016_markers_are_hidden_from_all_but_their_placer(
    preset: str, marks: str, placer: str
) -> None:
    """Which warrant is signed (R-24) and which threat is flowered (T6) is dealt again for
    every seat but the one who placed them; the marked characters stay public."""
    varied = 0
    for i, game in enumerate(positions_2016(preset, 5, seed=2)):
        real = getattr(game.state, marks)
        if not real or i % 5:
            continue
        owner = getattr(game.state, placer)
        for seat in range(5):
            info = InformationSet(game, seat)
            values = set()
            view = dump(game.view(seat))
            for k in range(8):
                sample = info.sample(random.Random(k))
                assert dump(sample.view(seat)) == view
                dealt = getattr(sample.state, marks)
                assert set(dealt) == set(real) and sum(dealt.values()) <= 1
                values.add(tuple(sorted(dealt.items())))
            if seat == owner:
                assert values == {tuple(sorted(real.items()))}
            elif len(values) > 1:
                varied += 1
    assert varied > 5


def test_2016_views_and_theater() -> None:
    """2016 setups: samples show the seat its view; with a Theater in play (R-31), the swap
    after each selection is dealt again for the seats that did not take part in it."""
    swaps = 0
    for preset, players in (("devious_dignitaries", 4), ("illustrious_emissaries", 5)):
        game = new_game("2016", players, seed=players, preset=preset)
        s = game.state
        theater = "theater" if "theater" in s.deck else s.deck[0]
        s.deck.remove(theater)
        s.players[1].add_to_city("theater", 0)  # tests may stack the table (DESIGN.md)
        rng = random.Random(players)
        for i in range(400):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            log = game.state.log
            start = max(j for j, ev in enumerate(log) if ev.kind == "round")
            swap = [ev for ev in log[start:] if ev.kind == "theater" and ev.data["with"]]
            if i % 10 and not (swap and game.state.phase == "turns"):
                continue
            for seat in range(players):
                info = InformationSet(game, seat)
                real = dump(game.view(seat))
                dealt = set()
                for k in range(6):
                    sample = info.sample(random.Random(k))
                    assert dump(sample.view(seat)) == real
                    dealt.add(tuple(tuple(p.characters) for p in sample.state.players))
                if swap and seat not in (swap[0].seat, swap[0].data["with"]) and len(dealt) > 1:
                    swaps += 1
    assert swaps > 0


# --- every consistent assignment appears --------------------------------------------------


def brute_force_worlds(start: Game, game: Game, seat: int) -> set[tuple[Any, ...]]:
    """Every (holders, face-down, pool) the round could have reached, found by replaying it
    through the engine from the round's start with every possible C-3 card and every
    character choice of the other seats (their other actions as played); ``seat`` must have
    been offered what it really was, and the public log must read the same."""
    s0 = start.state
    chars = [c for c in s0.characters if c not in s0.faceup]
    actions = game.actions[len(start.actions) :]
    replay = start.copy()
    legal_seen = []
    for a in actions:
        legal_seen.append(replay.legal_actions())
        replay.apply(a)
    public = [(ev.kind, ev.seat, ev.data) for ev in game.state.log]
    worlds: set[tuple[Any, ...]] = set()

    def walk(g: Game, i: int) -> None:
        if i == len(actions):
            shown = g.to_move != seat or g.legal_actions() == game.legal_actions()
            if shown and [(ev.kind, ev.seat, ev.data) for ev in g.state.log] == public:
                worlds.add(world(g.state))
            return
        legal = g.legal_actions()
        if g.to_move == seat:
            if legal != legal_seen[i]:
                return
            choices = [actions[i]]
        elif isinstance(actions[i], (PickCharacter, PutAsideCharacter)):
            choices = legal
        elif actions[i] in legal:
            choices = [actions[i]]
        else:
            return
        for a in choices:
            h = g.copy()
            h.apply(a)
            walk(h, i + 1)

    for first in chars:
        g = start.copy()
        g.state.facedown = [first]
        g.state.pool = [c for c in chars if c != first]
        g._legal = None
        walk(g, 0)
    return worlds


def world(s: GameState) -> tuple[Any, ...]:
    return (tuple(sorted(s.holders.items())), tuple(s.facedown), tuple(s.pool))


@pytest.mark.parametrize(
    ("edition", "players", "seed", "moves", "seat_step", "take_facedown"),
    [
        ("classic", 4, 21, 2, 2, False),  # the seat is offered 3 of 5: 6 worlds
        ("classic", 4, 21, 3, 2, False),  # and has just picked
        ("classic", 4, 21, 3, 3, False),  # the last chooser: 24 worlds before him
        ("classic", 4, 21, 5, 0, False),  # calls nobody answered
        ("classic", 4, 7, 8, 0, False),  # a murdered character called silent is held (C-12)
        ("classic", 5, 21, 4, 2, False),
        ("dezh", 2, 21, 4, 1, False),  # two players: pick, put aside (D-3)
        ("basic", 2, 21, 6, 0, False),  # two players, twice round; the rest face down (B-4)
        ("basic", 3, 21, 5, 1, False),  # three players (B-4)
        ("classic", 7, 21, 7, 4, False),  # C-5: the last chooser keeps his pool card
        ("classic", 7, 21, 7, 4, True),  # C-5: the last chooser takes the face-down card
    ],
)
def test_every_consistent_assignment_appears(
    edition: str, players: int, seed: int, moves: int, seat_step: int, take_facedown: bool
) -> None:
    game = new_game(edition, players, seed=seed)
    start = game.copy()
    seat = game.state.steps[seat_step][0]
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_actions()
        s = game.state
        if take_facedown and len(s.steps) == 1 and s.facedown[0] not in s.pool:
            game.apply(PickCharacter(s.facedown[0]))
            continue
        game.apply(legal[rng.randrange(len(legal))])
    expected = brute_force_worlds(start, game, seat)
    assert world(game.state) in expected
    info = InformationSet(game, seat)
    draws = 25 * len(expected) + 100
    counts = Counter(world(info.sample(random.Random(k)).state) for k in range(draws))
    assert set(counts) == expected
    # Uniform over the consistent worlds: no world far from its share.
    assert min(counts.values()) > 0.3 * draws / len(expected)


# --- the public face --------------------------------------------------------------------------


def test_exported_and_seat_checked() -> None:
    assert citadels.determinize is determinize
    game = new_game("basic", 3, seed=1)
    with pytest.raises(ValueError, match="seat"):
        determinize(game, 3, random.Random(0))
    assert len(HIDDEN_PARTS) >= 4


def test_seat_sampler_follows_the_live_game() -> None:
    game = new_game("classic", 4, seed=2)
    sampler = SeatSampler(game, 1)
    before = sampler.sample(random.Random(0)).state.round
    while game.state.round == 1:
        game.apply(game.legal_actions()[0])
    after = sampler.information_set().sample(random.Random(0))
    assert before == 1 and after.state.round == game.state.round
    assert dump(after.view(1)) == dump(game.view(1))


def _murder_in_real_game(edition: str, seed: int, held: bool) -> tuple[Game, str] | None:
    """A real 4-player game of ``edition``: the Assassin murders a character that is held
    (``held``) or face down, and play goes past its call. ``None`` if the seed does not fit."""
    from citadels import EndTurn, GatherGold, Murder
    from tests.helpers import pick_first

    game = new_game(edition, 4, seed=seed)
    pick_first(game)
    s = game.state
    if s.turn is None or s.turn.character != "assassin":
        return None
    victims = [c for c in s.characters[2:] if (c in s.holders) is held and c not in s.faceup]
    if not victims:
        return None
    victim = victims[0]
    game.apply(Murder(victim))
    game.apply(GatherGold())
    game.apply(EndTurn())
    while s.turn is not None and s.rank(s.turn.character) < s.rank(victim):
        game.apply(GatherGold())
        game.apply(EndTurn())
    if s.turn is None or s.rank(s.turn.character) <= s.rank(victim):
        return None
    return game, victim


def test_C12_murdered_silent_call_does_not_pin_its_holder() -> None:
    """C-12: a murdered character's silent call shows nothing of its holder, so a seat that
    could not know samples it both held and face down; in `dezh` a held one would have been
    turned face up, so a silent one is face down in every sample."""
    both = False
    for seed in range(40):
        found = _murder_in_real_game("classic", seed, held=True)
        if found is None:
            continue
        game, victim = found
        holder = game.state.holders[victim]
        for seat in range(4):
            if seat == holder or seat == game.state.holders["assassin"]:
                continue
            placed = {
                victim in determinize(game, seat, random.Random(k)).state.holders for k in range(60)
            }
            both = both or placed == {True, False}
        if both:
            break
    assert both
    for seed in range(40):
        found = _murder_in_real_game("dezh", seed, held=False)
        if found is None:
            continue
        game, victim = found
        for seat in range(4):
            for k in range(20):
                sample = determinize(game, seat, random.Random(k))
                assert victim not in sample.state.holders
        return
    raise AssertionError("no seed gave a murdered face-down character in dezh")
