"""The flow of the game: setup, character selection, calling, the turn, end of round.

``legal_actions(s)`` is the one source of legality; ``apply(s, action)`` assumes the action is
among them (``Game.apply`` checks); ``explain_illegal`` says why an action is not.
"""

from __future__ import annotations

from typing import Any

from citadels.editions import KEEP_AND_PUT_ASIDE, Edition
from citadels.engine import bonus_characters, bonus_districts, districts
from citadels.engine.actions import (
    Action,
    AnnounceBellTower,
    Build,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    GatherCards,
    GatherGold,
    GiveCrown,
    KeepCards,
    NavigatorGain,
    PayTribute,
    PickCharacter,
    PutAsideCharacter,
    SearchDeck,
    TakeCard,
    TakeIncome,
    UseArmory,
    UseGraveyard,
    UseLaboratory,
    UseMuseum,
    UseSmithy,
    cached,
)
from citadels.engine.bonus_characters import BONUS_POWERS, collect_tax
from citadels.engine.characters import POWERS as BASE_POWERS
from citadels.engine.characters import CharacterPower
from citadels.engine.effects import build_price, may_build_name, put_in_city, take_crown
from citadels.engine.state import (
    BEWITCHED,
    GATHER_ONLY,
    NORMAL,
    OVER,
    SELECTION,
    TURNS,
    WITCH,
    GameState,
    Pending,
    Turn,
)

#: Every character power, by character id.
POWERS: dict[str, CharacterPower] = {**BASE_POWERS, **BONUS_POWERS}

PICK = "pick"
PUT_ASIDE = "put_aside"

#: C-3: characters put aside face up, by player count, with 8 and with 9 characters.
FACEUP = {8: {4: 2, 5: 1, 6: 0, 7: 0}, 9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}}

# --- setup ---------------------------------------------------------------------------------


def setup(
    edition: Edition,
    players: int,
    options: dict[str, Any],
    seed: int,
    characters: tuple[str, ...],
    deck: dict[str, int],
    complete_at: int,
) -> GameState:
    """A new game, shuffled and dealt (C-1), waiting for the first character pick."""
    s = GameState(edition, players, options, seed)
    cards = [d for d in sorted(deck) for _ in range(deck[d])]
    s.shuffle(cards)
    s.deck = cards
    s.characters = tuple(sorted(characters, key=lambda c: (edition.characters[c].rank, c)))
    s.complete_at = s.base_complete_at = complete_at
    s.crown = s.randbelow(players)
    for p in s.players:
        p.gold = 2
    for p in s.players:
        p.hand = s.draw(4)
    s.log_event("setup", None, {"players": players, "crown": s.crown})
    for p in s.players:
        s.log_event("deal", p.seat, {"count": 4, "gold": 2}, {"districts": p.hand[:]}, (p.seat,))
    start_round(s)
    return s


# --- character selection (C-3, C-4, C-5, B-4, D-3, D-4) ------------------------------------


def selection_steps(s: GameState) -> list[tuple[int, str]]:
    """Who picks or puts aside, in order, this round."""
    n = len(s.players)
    crown = s.crown
    if n >= 4:
        return [((crown + i) % n, PICK) for i in range(n)]
    if n == 3:
        return [((crown + i) % 3, PICK) for i in range(6)]
    a, b = crown, 1 - crown
    if s.edition.two_player_selection == KEEP_AND_PUT_ASIDE:
        return [
            (a, PICK),
            (b, PICK),
            (b, PUT_ASIDE),
            (a, PICK),
            (a, PUT_ASIDE),
            (b, PICK),
            (b, PUT_ASIDE),
        ]
    return [(a, PICK), (b, PICK), (a, PICK), (b, PICK)]


def start_round(s: GameState) -> None:
    """C-2, C-3: a new round; the characters are shuffled and some put aside."""
    s.round += 1
    s.phase = SELECTION
    s.holders = {}
    s.revealed = {}
    s.murdered = None
    s.robbed = None
    s.robber = None
    s.next_call = 0
    s.turn = None
    s.bewitched = None
    s.witch = None
    s.tax_collector = None
    s.builders = []
    s.queen_late = None
    for p in s.players:
        p.characters = []
    deck = list(s.characters)
    s.shuffle(deck)
    s.facedown = [deck.pop()]
    s.faceup = []
    n = len(s.players)
    want = FACEUP[len(s.characters)].get(n, 0) if n >= 4 else 0
    while len(s.faceup) < want:
        c = deck.pop()
        if s.rank(c) == 4:
            # No rank-4 character is put aside face up: draw a replacement, shuffle it back.
            replacement = deck.pop()
            deck.append(c)
            s.shuffle(deck)
            c = replacement
        s.faceup.append(c)
    s.pool = sorted(deck, key=s.characters.index)
    s.steps = selection_steps(s)
    s.log_event("round", None, {"round": s.round, "crown": s.crown, "faceup": s.faceup[:]})
    advance_selection(s)


def advance_selection(s: GameState) -> None:
    """Resolve the selection steps that need no decision; start calling when done."""
    while s.steps:
        seat, kind = s.steps[0]
        if kind == PUT_ASIDE and len(s.pool) <= 1:
            # A single card left to put aside goes face down by itself (D-3, last step).
            s.steps.pop(0)
            if s.pool:
                c = s.pool.pop()
                s.facedown.append(c)
                s.log_event("put_aside", seat, {}, {"character": c}, (seat,))
            continue
        if kind == PICK and is_last_chooser_step(s):
            s.log_event("look_facedown", seat, {}, {"character": s.facedown[0]}, (seat,))
        return
    if s.pool:
        s.facedown.extend(s.pool)
        s.pool = []
    s.phase = TURNS
    advance_calls(s)


def is_last_chooser_step(s: GameState) -> bool:
    """C-5: the last chooser handed a single card also sees the C-3 face-down card."""
    return len(s.players) >= 4 and len(s.steps) == 1 and len(s.pool) == 1


def selection_actions(s: GameState) -> list[Action]:
    kind = s.steps[0][1]
    if kind == PUT_ASIDE:
        return [cached(PutAsideCharacter, c) for c in s.pool]
    offered = s.pool
    if is_last_chooser_step(s):
        offered = sorted(s.pool + s.facedown[:1], key=s.characters.index)
    return [cached(PickCharacter, c) for c in offered]


def apply_selection(s: GameState, action: Action) -> None:
    offered = [a.character for a in selection_actions(s)]  # type: ignore[attr-defined]
    seat = s.steps.pop(0)[0]
    if isinstance(action, PutAsideCharacter):
        s.pool.remove(action.character)
        s.facedown.append(action.character)
        s.log_event("put_aside", seat, {}, {"character": action.character}, (seat,))
    else:
        assert isinstance(action, PickCharacter)
        c = action.character
        if c in s.pool:
            s.pool.remove(c)
        else:
            # C-5: the last chooser took the face-down card; his other card goes face down.
            s.facedown[0] = s.pool.pop()
            s.log_event("put_aside", seat, {}, {"character": s.facedown[0]}, (seat,))
        s.holders[c] = seat
        s.players[seat].characters.append(c)
        s.log_event("pick", seat, {}, {"character": c, "offered": offered}, (seat,))
        if not s.steps:
            # C-4: the cards left go face down; the last chooser has seen them.
            for left in s.pool:
                s.log_event("put_aside", seat, {}, {"character": left}, (seat,))
    advance_selection(s)


# --- calling characters (C-6) and the end of the round (C-13) --------------------------------


def advance_calls(s: GameState) -> None:
    """Call the next characters in rank order until one has a turn to play (C-6)."""
    chars = s.characters
    while s.next_call < len(chars):
        c = chars[s.next_call]
        s.next_call += 1
        seat = s.holders.get(c)
        if seat is None:
            s.log_event("call", None, {"character": c, "answered": False})
            continue
        if c == s.murdered:
            if "hospital" in s.players[seat].city:
                # the murdered owner of a Hospital reveals himself and only gathers.
                s.revealed[c] = seat
                s.log_event("reveal", seat, {"character": c, "murdered": True})
                start_turn(s, Turn(seat, c, 0), GATHER_ONLY)
                return
            # C-12: the murdered character stays silent; the holder is revealed at round end.
            s.log_event("call", None, {"character": c, "answered": False, "murdered": True})
            continue
        begin_turn(s, seat, c)
        return
    end_round(s)


def begin_turn(s: GameState, seat: int, character: str) -> None:
    """Reveal the called character (C-6), resolve a robbery (C-21), start the turn. A
    bewitched holder plays only the gather action (R-26)."""
    s.revealed[character] = seat
    s.log_event("reveal", seat, {"character": character})
    if character == s.robbed and s.robber is not None:
        victim = s.players[seat]
        gold = victim.gold
        victim.gold = 0
        s.players[s.robber].gold += gold
        s.log_event("robbed", seat, {"thief": s.robber, "gold": gold, "character": character})
    power = POWERS[character]
    power.on_reveal(s, seat)
    if character == s.bewitched:
        start_turn(s, Turn(seat, character, 0), BEWITCHED)
        return
    mode = WITCH if character == "witch" else NORMAL
    t = Turn(seat, character, power.build_limit)
    start_turn(s, t, mode)
    power.on_start(s, t)
    if s.edition.automatic_income:
        # B-1: colour gold and the Merchant's and Architect's extras come at once.
        take_income(s, t)
        power.extras(s, t)


def start_turn(s: GameState, t: Turn, mode: str) -> None:
    t.mode = mode
    s.turn = t


def resume_witch(s: GameState, character: str) -> None:
    """R-26: after the bewitched holder's gather, the Witch plays the rest of the turn as that
    character, with her own hand, gold and city: income, extras, power and limits."""
    assert s.witch is not None
    power = POWERS[character]
    t = Turn(s.witch, character, power.build_limit)
    t.gathered = True
    start_turn(s, t, NORMAL)
    s.log_event("witch_resumes", s.witch, {"character": character})
    power.on_start(s, t)
    power.extras(s, t)


def end_round(s: GameState) -> None:
    """C-13: the murdered holder is revealed, a murdered King's heir takes the crown; then the
    game ends (C-14) or a new round starts."""
    s.turn = None
    m = s.murdered
    if m is not None and m in s.holders:
        heir = s.holders[m]
        s.log_event("murdered_revealed", heir, {"character": m})
        if m == "king":
            take_crown(s, heir)
        if s.queen_late is not None:
            # the Queen beside a murdered rank-4 holder is paid when he is revealed.
            s.players[s.queen_late].gold += 3
            s.log_event("queen", s.queen_late, {"gold": 3, "beside": heir})
    s.log_event("round_end", None, {"round": s.round})
    if s.first_complete is not None:
        s.phase = OVER
        s.log_event("game_over", None, {"round": s.round})
        return
    start_round(s)


# --- the turn (C-7, C-8, C-9) -------------------------------------------------------------


def income_colour(character: str, s: GameState) -> str | None:
    return s.edition.characters[character].colour


def take_income(s: GameState, t: Turn) -> None:
    """C-9: 1 gold per district of the character's colour, once per turn."""
    colour = income_colour(t.character, s)
    t.income_taken = True
    if colour is None:
        return
    gold = districts.income_count(s, t.seat, colour)
    s.players[t.seat].gold += gold
    s.log_event("income", t.seat, {"gold": gold, "colour": colour})


def can_build(s: GameState, t: Turn) -> bool:
    return t.builds < t.build_limit and (t.gathered or s.edition.free_order)


def build_actions(s: GameState, t: Turn, out: list[Action]) -> None:
    """C-8: a district from hand, paid in full (R-13), not a name already in the city unless
    the Wizard or the Quarry allows it (R-12, R-30)."""
    p = s.players[t.seat]
    gold = p.gold
    city = p.city
    for d in sorted(set(p.hand)):
        price = build_price(s, t.seat, d)
        if (
            price is not None
            and price <= gold
            and (d not in city or may_build_name(s, t, t.seat, d))
        ):
            out.append(cached(Build, d))


def turn_actions(s: GameState, t: Turn) -> list[Action]:
    out: list[Action] = []
    if not t.gathered:
        districts.gather_actions(s, t.seat, out)
    if t.mode != NORMAL:
        if t.mode == WITCH:
            POWERS["witch"].actions(s, t, out)
        return out
    if not t.income_taken and income_colour(t.character, s) is not None:
        colour = income_colour(t.character, s)
        assert colour is not None
        if districts.income_count(s, t.seat, colour) > 0:
            out.append(cached(TakeIncome))
    if not t.power_used:
        POWERS[t.character].actions(s, t, out)
    if can_build(s, t):
        build_actions(s, t, out)
    districts.turn_actions(s, t, out)
    bonus_districts.turn_actions(s, t, out)
    if t.gathered:
        out.append(cached(EndTurn))
    return out


def pending_actions(s: GameState) -> list[Action]:
    pending = s.pending[-1]
    if pending.kind == "keep":
        return keep_choices(pending.cards, pending.keep)
    if pending.kind == "redraw":
        hand = s.players[pending.seat].hand
        out: list[Action] = [cached(DiscardCard, d) for d in sorted(set(hand))]
        out.append(cached(DrawReplacements))
        return out
    if pending.kind == "graveyard":
        return [cached(UseGraveyard, False), cached(UseGraveyard, True)]
    if pending.kind == "wizard":
        return bonus_characters.wizard_choices(s, pending)
    if pending.kind == "give_crown":
        return [
            cached(GiveCrown, seat) for seat in bonus_characters.crown_receivers(s, pending.seat)
        ]
    if pending.kind == "tribute":
        return bonus_characters.tribute_choices(s, pending)
    if pending.kind == "navigator":
        return bonus_characters.navigator_choices()
    if pending.kind == "lighthouse":
        return bonus_districts.lighthouse_choices(s)
    if pending.kind == "bell_tower":
        return bonus_districts.bell_tower_choices()
    raise AssertionError(f"unknown pending decision {pending.kind}")


def keep_choices(drawn: list[str], keep: int) -> list[Action]:
    """Every distinct choice of ``keep`` cards among those drawn, sorted."""
    cards = sorted(drawn)
    if keep == 1:
        return [cached(KeepCards, (d,)) for d in sorted(set(cards))]
    seen: list[tuple[str, ...]] = []
    n = len(cards)
    for i in range(n):
        for j in range(i + 1, n):
            combo = (cards[i], cards[j])
            if combo not in seen:
                seen.append(combo)
    return [cached(KeepCards, c) for c in seen]


def legal_actions(s: GameState) -> list[Action]:
    """Every action the player to move may take now, in canonical order."""
    if s.pending:
        return pending_actions(s)
    if s.phase == TURNS:
        assert s.turn is not None
        return turn_actions(s, s.turn)
    if s.phase == SELECTION:
        return selection_actions(s)
    return []


def to_move(s: GameState) -> int | None:
    """The seat that must decide now, ``None`` once the game is over."""
    if s.pending:
        return s.pending[-1].seat
    if s.phase == TURNS:
        assert s.turn is not None
        return s.turn.seat
    if s.phase == SELECTION:
        return s.steps[0][0]
    return None


# --- applying actions ----------------------------------------------------------------------


def apply(s: GameState, action: Action) -> None:
    """Apply a legal action and advance the game to the next decision."""
    if s.pending:
        apply_pending(s, action)
    elif s.phase == SELECTION:
        apply_selection(s, action)
        return
    else:
        t = s.turn
        assert t is not None
        cls = type(action)
        if cls is Build:
            assert isinstance(action, Build)
            build(s, t, action.district)
        elif cls is GatherGold:
            s.players[t.seat].gold += 2
            s.log_event("gather_gold", t.seat, {"gold": 2})
            finish_gather(s, t)
        elif cls is GatherCards:
            assert isinstance(action, GatherCards)
            gather_cards(s, t, action.count)
        elif cls is TakeIncome:
            take_income(s, t)
        elif cls is EndTurn:
            t.ending = True
        elif cls is UseLaboratory:
            assert isinstance(action, UseLaboratory)
            districts.use_laboratory(s, t, action.district)
        elif cls is UseSmithy:
            districts.use_smithy(s, t)
        elif cls is UseArmory:
            assert isinstance(action, UseArmory)
            bonus_districts.use_armory(s, t, action)
        elif cls is UseMuseum:
            assert isinstance(action, UseMuseum)
            bonus_districts.use_museum(s, t, action)
        else:
            POWERS[t.character].apply(s, t, action)
    settle(s)


def gather_cards(s: GameState, t: Turn, count: int) -> None:
    """C-7: draw, keep some (a decision unless there is no choice), the rest to the bottom."""
    drawn = s.draw(count)
    keep = districts.keep_count(s, t.seat, len(drawn))
    s.log_event("gather_cards", t.seat, {"count": len(drawn)}, {"districts": drawn}, (t.seat,))
    if len(drawn) <= keep:
        s.players[t.seat].hand.extend(drawn)
        finish_gather(s, t)
    else:
        s.pending.append(Pending("keep", t.seat, drawn, keep))


def finish_gather(s: GameState, t: Turn) -> None:
    t.gathered = True
    if t.mode in (GATHER_ONLY, BEWITCHED):
        t.ending = True
    elif t.mode == NORMAL and not s.edition.automatic_income:
        POWERS[t.character].extras(s, t)


def build(s: GameState, t: Turn, district: str) -> None:
    """C-8: pay the price and put the district into the city (``effects.put_in_city``)."""
    p = s.players[t.seat]
    price = build_price(s, t.seat, district)
    assert price is not None
    p.gold -= price
    p.hand.remove(district)
    t.builds += 1
    put_in_city(s, t, t.seat, district, price)


def apply_pending(s: GameState, action: Action) -> None:
    pending = s.pending[-1]
    p = s.players[pending.seat]
    if isinstance(action, KeepCards):
        s.pending.pop()
        rest = pending.cards[:]
        for d in action.districts:
            rest.remove(d)
        p.hand.extend(action.districts)
        s.to_bottom(rest)
        s.log_event(
            "keep",
            pending.seat,
            {"kept": len(action.districts)},
            {"districts": list(action.districts)},
            (pending.seat,),
        )
        assert s.turn is not None
        finish_gather(s, s.turn)
    elif isinstance(action, DiscardCard):
        p.hand.remove(action.district)
        pending.cards.append(action.district)
    elif isinstance(action, DrawReplacements):
        s.pending.pop()
        s.to_bottom(pending.cards)
        drawn = s.draw(len(pending.cards))
        p.hand.extend(drawn)
        s.log_event(
            "redraw",
            pending.seat,
            {"count": len(pending.cards)},
            {"discarded": pending.cards, "drawn": drawn},
            (pending.seat,),
        )
    elif isinstance(action, UseGraveyard):
        s.pending.pop()
        district = pending.cards[0]
        if action.take:
            p.gold -= 1
            p.hand.append(district)
        else:
            s.to_bottom([district])
        s.log_event("graveyard", pending.seat, {"district": district, "take": action.take})
    elif isinstance(action, TakeCard):
        s.pending.pop()
        bonus_characters.wizard_take(s, pending, action)
    elif isinstance(action, GiveCrown):
        s.pending.pop()
        bonus_characters.give_crown(s, pending, action)
    elif isinstance(action, PayTribute):
        s.pending.pop()
        bonus_characters.pay_tribute(s, pending, action)
    elif isinstance(action, NavigatorGain):
        s.pending.pop()
        bonus_characters.navigator_gain(s, pending, action)
    elif isinstance(action, SearchDeck):
        s.pending.pop()
        bonus_districts.lighthouse_search(s, pending, action)
    elif isinstance(action, AnnounceBellTower):
        s.pending.pop()
        bonus_districts.announce_bell_tower(s, pending, action)
    else:  # pragma: no cover - legal_actions never offers anything else here
        raise AssertionError(f"{action} does not answer {pending.kind}")


def settle(s: GameState) -> None:
    """After an action: end the turn if it is over and no decision is pending."""
    if s.pending:
        return
    t = s.turn
    if t is not None and t.ending and s.phase == TURNS:
        finish_turn(s, t)


def finish_turn(s: GameState, t: Turn) -> None:
    """End a turn, with the end-of-turn effects in the order of R-21: tax, Poor House, Park,
    the Alchemist's refund. The Witch's paused turn has none; after the bewitched holder's
    gather the Witch resumes at once (R-26)."""
    s.log_event("end_turn", t.seat, {"character": t.character})
    s.turn = None
    if t.mode == BEWITCHED:
        resume_witch(s, t.character)
        settle(s)
        return
    if t.mode != WITCH:
        if t.built:
            collect_tax(s, t.seat)
            s.builders.append(t.seat)
        bonus_districts.end_of_turn(s, t.seat)
        if t.character == "alchemist" and t.build_gold and t.mode == NORMAL:
            s.players[t.seat].gold += t.build_gold
            s.log_event("alchemist", t.seat, {"gold": t.build_gold})
    advance_calls(s)
