"""Determinization: cards a seat knows are in another seat's hand go there in every sample.

A seat learns where single cards went: the hand it gave away with the Magician (C-22), the
hand it looked at and the card it took with the Wizard (R-30), a card taken back with the
Graveyard (R-7), cards it gave or paid as tribute (R-27, the 2016 Seer and Cardinal). It learns
them from its view alone (C-10): the log as it sees it. The games here are seeded random games
that prefer the actions moving cards between hands, so each situation occurs many times.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from citadels import Action, Destroy, Game, GatherGold, UseGraveyard, new_game
from citadels.editions import get_edition
from citadels.engine import serialize
from citadels.engine.determinize import (
    InformationSet,
    determinize,
    known_hand_cards,
    redact_log,
    track_hands,
)
from citadels.engine.state import Event, GameState
from tests.helpers import play, position

#: Setups whose characters and districts move cards between hands: the Magician everywhere,
#: the Wizard, Emperor, Graveyard, Laboratory, Museum and Thieves' Den in `classic` presets,
#: the Seer, Cardinal, Spy and Emperor in `2016`.
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("basic", 4, {}),
    ("dezh", 5, {}),
    ("classic", 4, {}),
    ("classic", 4, {"preset": "dark_city"}),
    ("classic", 5, {"preset": "artisans"}),
    ("classic", 6, {"preset": "imperial_court"}),
    ("2016", 4, {}),
    *[("2016", 5, {"preset": p}) for p in sorted(get_edition("2016").presets)],
]

#: Actions the games below prefer: the ones that move named cards between hands.
MOVES = {
    "ExchangeHands",
    "LookAtHand",
    "TakeCard",
    "Foresee",
    "GiveCard",
    "PayTribute",
    "TakeTribute",
    "SpyOn",
    "BuildWithLoan",
    "UseGraveyard",
    "DiscardCard",
    "UseLaboratory",
    "UseMuseum",
    "PayWithCard",
}

SAMPLES = 50


def steps(
    seeds: range, setups: list[tuple[str, int, dict[str, Any]]] = SETUPS
) -> Iterator[tuple[Game, GameState, Action, list[Event]]]:
    """(game after the action, the state before it, the action, the events it logged) for
    every decision of seeded random games that mostly take the card-moving actions."""
    for edition, players, options in setups:
        for seed in seeds:
            rng = random.Random(seed)
            game = new_game(edition, players, seed=seed, **options)
            while not game.is_over:
                legal = game.legal_actions()
                moving = [a for a in legal if type(a).__name__ in MOVES]
                pool = moving if moving and rng.random() < 0.8 else legal
                action = pool[rng.randrange(len(pool))]
                before = game.state.copy()
                game.apply(action)
                yield game, before, action, game.state.log[len(before.log) :]


def hand(s: GameState, seat: int) -> Counter[str]:
    return Counter(s.players[seat].hand)


def contains(big: Counter[str], small: Counter[str]) -> bool:
    return not small - big


def samples(game: Game, seat: int) -> list[GameState]:
    info = InformationSet(game, seat)
    return [info.sample(random.Random(k)).state for k in range(SAMPLES)]


def test_C10_what_a_seat_knows_is_always_in_the_real_hand_and_read_from_its_view() -> None:
    """Every card a seat believes in a hand is really there (its own hand included), and the
    belief comes from the log as the seat sees it: the other seats' secrets removed, the
    same cards (C-10)."""
    checked = learned = 0
    for i, (game, _, _, _) in enumerate(steps(range(2))):
        s = game.state
        for seat in range(len(s.players)):
            tracked = track_hands(s, seat)
            for other, cards in enumerate(tracked):
                assert contains(hand(s, other), cards), (seat, other, cards)
                checked += 1
            known = known_hand_cards(s, seat)
            assert seat not in known
            for other, cards in known.items():
                assert contains(hand(s, other), cards)
                assert cards.total() <= len(s.players[other].hand)
                learned += 1
            if i % 4 == 0 and any(tracked):
                redacted = s.copy()
                redact_log(s, seat)(redacted, random.Random(0))
                assert track_hands(redacted, seat) == tracked
    assert checked > 10_000
    assert learned > 1_000


def test_C22_the_magician_knows_the_hand_he_gave_away_and_his_victim_knows_his() -> None:
    """C-22: after an exchange the Magician's old hand is in the other seat's hand in every
    sample the Magician draws, and the victim's old hand in the Magician's in every sample
    the victim draws; a third seat swaps what it knew of the two hands."""
    exchanges = 0
    for game, before, action, events in steps(range(4)):
        if type(action).__name__ != "ExchangeHands":
            continue
        (ev,) = [e for e in events if e.kind == "exchange_hands"]
        magician, victim = ev.seat, ev.data["with"]
        assert magician is not None
        s = game.state
        for seat, other in ((magician, victim), (victim, magician)):
            old = hand(before, seat)
            if track_hands(before, seat)[seat] != old or not old:
                continue  # the log does not show this seat its whole hand (an earlier swap)
            assert known_hand_cards(s, seat)[other] == old
            for t in samples(game, seat):
                assert contains(hand(t, other), old)
            exchanges += 1
        for third in range(len(s.players)):
            if third not in (magician, victim):
                was = track_hands(before, third)
                now = track_hands(s, third)
                assert (now[magician], now[victim]) == (was[victim], was[magician])
    assert exchanges > 100


def test_C22_a_card_built_from_the_given_hand_is_no_longer_forced() -> None:
    """A build shows its name: the seat that knows the builder held it forgets one copy, and
    the samples stop forcing it (some of them no longer deal it to that hand)."""
    builds = 0
    for game, before, _, events in steps(range(4)):
        for ev in events:
            if ev.kind != "build" or ev.seat is None:
                continue
            builder, district = ev.seat, ev.data["district"]
            if any(e.kind in ("take_card", "loan") for e in before.log[-3:] + events):
                continue  # the Wizard's or the Cardinal's build: not from the builder's hand
            if before.pending and before.pending[-1].kind == "confiscate":
                continue  # the card left the hand before, when the build was started
            s = game.state
            for seat in range(len(s.players)):
                if seat == builder:
                    continue
                had = known_hand_cards(before, seat).get(builder, Counter())
                if not had[district]:
                    continue
                now = known_hand_cards(s, seat).get(builder, Counter())
                assert now[district] == had[district] - 1
                if now[district] == 0 and district not in s.players[builder].hand:
                    dealt = [t for t in samples(game, seat) if district in t.players[builder].hand]
                    assert len(dealt) < SAMPLES
                builds += 1
    assert builds > 100


def test_R30_the_wizard_knows_the_hand_he_looked_at_and_the_victim_the_card_taken() -> None:
    """R-30: the Wizard saw the victim's whole hand and took one card: the rest of it is in
    the victim's hand in every sample he draws, and the taken card (kept in hand) in the
    Wizard's in every sample the victim draws."""
    takes = 0
    setups = [setup for setup in SETUPS if setup[0] in ("classic", "2016")]
    for game, before, action, events in steps(range(6), setups):
        if type(action).__name__ != "TakeCard":
            continue
        (ev,) = [e for e in events if e.kind == "take_card"]
        wizard, victim = ev.seat, ev.data["from"]
        assert wizard is not None and ev.secret is not None
        card = ev.secret["district"]
        s = game.state
        rest = hand(before, victim) - Counter([card])
        if rest:
            assert known_hand_cards(s, wizard)[victim] == rest
            for t in samples(game, wizard):
                assert contains(hand(t, victim), rest)
        if not ev.data["built"]:
            assert known_hand_cards(s, victim)[wizard][card] >= 1
            for t in samples(game, victim):
                assert card in t.players[wizard].hand
        takes += 1
    assert takes > 40


def test_R7_every_seat_knows_the_graveyard_card_is_in_its_owners_hand() -> None:
    """R-7: the district the Graveyard takes back is public; every other seat's samples put
    it in the Graveyard owner's hand."""
    game = position(
        "dezh",
        4,
        characters={0: ["warlord"]},
        cities={1: ["graveyard", "manor"]},
        gold={0: 5, 1: 2},
        hands={1: ["temple"], 2: ["castle"]},
    )
    play(game, GatherGold(), Destroy(1, "manor"), UseGraveyard(True))
    for seat in (0, 2, 3):
        assert known_hand_cards(game.state, seat) == {1: Counter(["manor"])}
        for t in samples(game, seat):
            assert "manor" in t.players[1].hand
            assert len(t.players[1].hand) == 2
    assert known_hand_cards(game.state, 1) == {}


def test_R27_cards_given_paid_or_taken_are_known_where_they_went() -> None:
    """A card given (the 2016 Seer's gifts, the Cardinal's payment), paid as tribute to the
    Emperor (R-27) or taken by the Seer is known to both seats in the hand that got it. The
    samples deal them there."""
    moves = Counter[str]()
    for game, _, _, events in steps(range(4)):
        s = game.state
        for ev in events:
            if ev.kind in ("seer_give", "give_card") and ev.secret is not None:
                watchers, taker, card = [ev.seat], ev.data["to"], ev.secret["district"]
            elif ev.kind == "seer_take" and ev.secret is not None:
                watchers, taker, card = [ev.data["from"]], ev.seat, ev.secret["district"]
            elif ev.kind == "tribute" and ev.data["paid"] == "card" and ev.secret is not None:
                watchers, taker, card = [ev.seat], ev.data["emperor"], ev.secret["district"]
            else:
                continue
            if ev is not events[-1] and ev.kind != "seer_take":
                continue  # a later event of the same action may have moved it on
            for seat in watchers:
                assert seat is not None and taker is not None
                if card not in s.players[taker].hand:
                    continue
                assert known_hand_cards(s, seat)[taker][card] >= 1
                info = InformationSet(game, seat)
                for k in range(10):
                    assert card in info.sample(random.Random(k)).state.players[taker].hand
                moves[ev.kind] += 1
    assert set(moves) >= {"seer_give", "give_card", "seer_take", "tribute"}


def test_a_loss_the_seat_cannot_see_forgets_that_hand() -> None:
    """A hidden discard (the Magician's discard-and-draw, C-22; the Laboratory and Museum,
    R-11, R-19; a Thieves' Den payment) or a card taken or given unseen leaves the seat
    knowing nothing of that hand: it could have been any of its cards."""
    hidden = {"redraw", "laboratory", "museum", "pay_with_cards"}
    unseen_moves = {"take_card": "from", "seer_take": "from", "seer_give": "seat"}
    forgot = Counter[str]()
    for game, before, action, events in steps(range(4)):
        s = game.state
        losses: list[tuple[int, str, tuple[int, ...]]] = []
        pending = s.pending[-1] if s.pending else None
        if type(action).__name__ == "DiscardCard" and pending is not None:
            losses.append((pending.seat, "discard", ()))  # C-22: still deciding, not logged
        for ev in events:
            if ev.kind in hidden and ev.seat is not None:
                losses.append((ev.seat, ev.kind, ev.viewers))
            elif ev.kind in unseen_moves and not (ev.kind == "take_card" and ev.data["built"]):
                field = unseen_moves[ev.kind]
                loser = ev.seat if field == "seat" else ev.data[field]
                assert loser is not None
                losses.append((loser, ev.kind, ev.viewers))
        for loser, kind, viewers in losses:
            for seat in range(len(s.players)):
                if seat == loser or seat in viewers or not track_hands(before, seat)[loser]:
                    continue
                assert not track_hands(s, seat)[loser], (kind, seat, loser)
                forgot[kind] += 1
    assert set(forgot) >= {"discard", "laboratory", "take_card", "seer_take", "seer_give"}


def test_samples_with_known_hands_depend_only_on_the_view() -> None:
    """Two games showing the seat the same view give the same samples, and so does the
    information set rebuilt from the view alone (InformationSet.from_view), at positions
    where the seat knows cards in other hands."""
    compared = 0
    for game, _, action, _ in steps(range(2)):
        if type(action).__name__ not in ("ExchangeHands", "TakeCard", "GiveCard", "UseGraveyard"):
            continue
        s = game.state
        for seat in range(len(s.players)):
            if not known_hand_cards(s, seat):
                continue
            other = determinize(game, seat, random.Random(7))
            options = game.record()["options"]
            rebuilt = InformationSet.from_view(game.view(seat), options)
            a, b = InformationSet(game, seat), InformationSet(other, seat)
            for k in range(3):
                sa = a.sample(random.Random(k)).state
                sb = b.sample(random.Random(k)).state
                sc = rebuilt.sample(random.Random(k)).state
                assert serialize.state_to_json(sa) == serialize.state_to_json(sb)
                assert [sorted(p.hand) for p in sa.players] == [sorted(p.hand) for p in sc.players]
                assert sa.deck == sc.deck
            compared += 1
    assert compared > 100
