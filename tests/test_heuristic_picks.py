"""The heuristic bot's character picks (``HeuristicBot._pick``, :meth:`pick_value`): what a
character earns this seat, less what the draft's Assassin, Thief and Warlord are likely to take
from it, on constructed positions of the selection (C-4); and every character of every edition
picked without a fallback."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

import citadels
from citadels import Game, new_game
from citadels.bots import HeuristicBot, make_bot
from citadels.bots.heuristic import Draft, _Table
from citadels.engine.actions import PickCharacter
from citadels.sim import play_game
from tests.helpers import position
from tests.test_heuristic import setups


def offer(game: Game, pool: Sequence[str], faceup: Sequence[str], facedown: str) -> Game:
    """Set the crowned seat's offer (C-4): ``pool`` on offer, ``faceup`` and ``facedown``
    removed (C-3)."""
    s = game.state
    s.pool = list(pool)
    s.faceup = list(faceup)
    s.facedown = [facedown]
    game._legal = None
    return game


def pick(game: Game, bot: HeuristicBot | None = None) -> str:
    seat = game.to_move
    assert seat is not None
    action = (bot or HeuristicBot(1)).choose(game.view(seat), game.legal_actions())
    assert isinstance(action, PickCharacter)
    return action.character


def beginner() -> HeuristicBot:
    """The heuristic's pick before it read the draft: the character that earns most."""
    return HeuristicBot(1, reads_draft=False)


def leader_one_district_short() -> Game:
    """C-4, classic, 4 players: seat 0 (crowned, first to choose) has 7 of 8 districts,
    three of them green, 3 gold and a Tavern to build: the leader, one build from the end."""
    game = position(
        "classic",
        4,
        crown=0,
        cities={
            0: ["tavern", "market", "trading_post", "manor", "temple", "watchtower", "docks"],
            1: ["castle", "prison"],
            2: ["church", "harbor"],
            3: ["palace"],
        },
        hands={0: ["tavern", "castle"], 1: ["manor"] * 3, 2: ["temple"] * 3, 3: ["market"] * 2},
        gold={0: 3, 1: 2, 2: 2, 3: 2},
    )
    return offer(
        game,
        ["assassin", "magician", "king", "merchant", "warlord"],
        ["thief", "bishop"],
        "architect",
    )


def test_C4_a_leader_one_build_from_the_end_takes_the_assassin_over_its_income() -> None:
    """The Merchant would pay this city most (three green districts), and a beginner takes it;
    but it is the character every other seat would name for the leader, the Assassin is still
    on offer to the three seats choosing next, and a murdered leader (C-12) loses the turn that
    ends the game. A rank-1 character cannot be named (C-20): the leader takes the Assassin."""
    game = leader_one_district_short()
    assert pick(game, beginner()) == "merchant"
    assert pick(game) == "assassin"
    t = _Table(game.view(0))
    draft = Draft(t)
    assert draft.finishing
    assert draft.aim == 1.0  # every other seat sees seat 0 leading
    bot = HeuristicBot(1)
    assert bot.pick_value(t, "merchant", draft) < bot.character_value(t, "merchant")
    assert bot.pick_value(t, "assassin", draft) == bot.character_value(t, "assassin")


def test_C4_with_the_assassin_face_up_the_leaders_income_is_safe_again() -> None:
    """The same leader when the Assassin is face up (C-3): nobody can murder it this round,
    so it takes what pays most."""
    game = offer(
        leader_one_district_short(),
        ["thief", "magician", "king", "merchant", "warlord"],
        ["assassin", "bishop"],
        "architect",
    )
    assert pick(game) == "merchant"


def test_C4_a_leader_whose_city_a_warlord_may_raze_takes_the_bishop() -> None:
    """R-3: the Bishop shelters its city from the Warlord. Seat 0 leads with a dear city,
    six of eight districts, and the Warlord is not on offer: another seat (or the face-down
    card) has it, and it aims at the leader. The Assassin is face up."""
    game = position(
        "classic",
        4,
        crown=3,
        cities={
            0: ["palace", "cathedral", "fortress", "town_hall", "harbor", "docks"],
            1: ["tavern"],
            2: ["market", "temple"],
            3: ["church"],
        },
        hands={0: ["castle"], 1: ["manor"] * 3, 2: ["temple"] * 3, 3: ["market"] * 2},
        gold={0: 1, 1: 2, 2: 2, 3: 2},
    )
    s = game.state
    s.steps = s.steps[1:]  # seat 3 chose the Warlord; seat 0 chooses next
    game = offer(
        game, ["thief", "king", "bishop", "merchant"], ["assassin", "architect"], "magician"
    )
    assert game.to_move == 0
    assert pick(game, beginner()) != "bishop"
    assert pick(game) == "bishop"


def test_C4_a_seat_short_of_cards_near_the_end_takes_the_architect() -> None:
    """Architect (T5a): two cards more whatever it gathers, and three builds. A seat with one
    card it cannot use, three districts from the end, takes him over the crown, which a
    beginner prefers."""
    game = position(
        "classic",
        4,
        crown=1,
        cities={0: ["tavern", "market", "manor", "temple", "watchtower"], 1: ["castle"] * 1},
        hands={0: ["tavern"], 1: ["manor"] * 3, 2: ["temple"] * 3, 3: ["market"] * 2},
        gold={0: 4, 1: 2, 2: 2, 3: 2},
    )
    game = offer(
        game,
        ["king", "bishop", "architect", "warlord", "magician"],
        ["assassin", "thief"],
        "merchant",
    )
    assert pick(game, beginner()) == "king"
    assert pick(game) == "architect"


def test_easy_keeps_the_beginners_pick_and_medium_reads_the_draft() -> None:
    easy = make_bot("easy", seed=1)
    medium = make_bot("medium", seed=1)
    assert isinstance(easy, HeuristicBot) and not easy.reads_draft
    assert isinstance(medium, HeuristicBot) and medium.reads_draft


def test_a_pick_reads_only_the_seats_view() -> None:
    """Worlds the seat cannot tell apart (other hands, the face-down card, the deck dealt
    again from its view) give the same pick, for the same seed."""
    for seed in range(6):
        game = new_game("classic", 4, seed=seed)
        for _ in range(2):
            game.apply(game.legal_actions()[0])
        seat = game.to_move
        assert seat is not None
        chosen = HeuristicBot(seed).choose(game.view(seat), game.legal_actions())
        for k in range(4):
            world = citadels.determinize(game, seat, random.Random(k))
            assert world.view(seat) == game.view(seat)
            assert HeuristicBot(seed).choose(world.view(seat), world.legal_actions()) == chosen


@pytest.mark.parametrize(("edition", "preset"), setups())
def test_every_character_of_every_setup_is_picked(edition: str, preset: str | None) -> None:
    """Quick games at 4 and 5 players (5 and 6 where the setup needs 5): the bot picks every
    character in play at least once, never falls back to a random choice and never
    fails to read its view."""
    options = {"preset": preset} if preset else {}
    ed = citadels.EDITIONS[edition]
    least = max(4, ed.presets[preset].min_players if preset else 4)
    picked: Counter[str] = Counter()
    in_play: set[str] = set()
    for seed in range(24):
        players = least + seed % 2
        game = new_game(edition, players, seed=seed, **options)
        in_play |= set(game.state.characters)
        bots = [HeuristicBot(seed * 10 + seat) for seat in range(players)]
        play_game(game, bots, full_log=True)
        for ev in game.state.log:
            if ev.kind == "pick" and ev.secret:
                picked[ev.secret["character"]] += 1
        for bot in bots:
            assert bot.errors == 0
            assert bot.fallbacks == Counter()
    assert set(picked) == in_play
