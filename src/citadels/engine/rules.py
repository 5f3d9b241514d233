"""The flow of the game: setup, character selection, calling, the turn, end of round.

``legal_actions(s)`` is the one source of legality; ``apply(s, action)`` assumes the action is
among them (``Game.apply`` checks); ``explain_illegal`` says why an action is not.
"""

from __future__ import annotations

from typing import Any, Final

from citadels.editions import KEEP_AND_PUT_ASIDE, Edition
from citadels.engine import (
    bonus_characters,
    bonus_districts,
    characters_2016,
    districts,
    districts_2016,
)
from citadels.engine.actions import (
    Action,
    AnnounceBellTower,
    Build,
    BuildFree,
    Confiscate,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    GatherCards,
    GatherGold,
    GiveCard,
    GiveCrown,
    KeepCards,
    NavigatorGain,
    PayRansom,
    PayRemainder,
    PayTribute,
    PayWithCard,
    PickCharacter,
    PutAsideCharacter,
    RevealThreat,
    SearchDeck,
    TakeCard,
    TakeIncome,
    TakeTribute,
    UseArmory,
    UseGraveyard,
    UseLaboratory,
    UseMuseum,
    UseSmithy,
    UseTheater,
    cached,
)
from citadels.engine.bonus_characters import BONUS_POWERS, collect_tax
from citadels.engine.characters import POWERS as BASE_POWERS
from citadels.engine.characters import CharacterPower
from citadels.engine.characters_2016 import POWERS_2016
from citadels.engine.districts import lacks_turn_powers
from citadels.engine.effects import (
    build_price,
    buildable,
    check_completion,
    discard_from_city,
    paid_build,
    pay_tax_2016,
    put_in_city,
    take_crown,
)
from citadels.engine.shared import cached_one, distinct_sorted
from citadels.engine.state import (
    BEWITCHED,
    EMPEROR_TAKES,
    GATHER_ONLY,
    NO_TRIBUTE,
    NORMAL,
    OVER,
    RECEIVER_PAYS,
    SELECTION,
    THREATENED,
    TURNS,
    WITCH,
    GameState,
    Pending,
    Turn,
)

#: The character powers each edition plays with, by edition id, then character id.
POWERS_BY_EDITION: Final[dict[str, dict[str, CharacterPower]]] = {
    "basic": BASE_POWERS,
    "dezh": BASE_POWERS,
    "classic": {**BASE_POWERS, **BONUS_POWERS},
    "2016": {**BASE_POWERS, **BONUS_POWERS, **POWERS_2016},
}


def power_of(s: GameState, character: str) -> CharacterPower:
    """The power of ``character`` as this game's edition plays it."""
    powers = s.cards.powers
    if not powers:
        powers.update(POWERS_BY_EDITION[s.cards.edition_id])
    return powers[character]


PICK: Final = "pick"
PUT_ASIDE: Final = "put_aside"


#: C-3: characters put aside face up, by player count, with 8 and with 9 characters.
FACEUP: Final = {8: {4: 2, 5: 1, 6: 0, 7: 0}, 9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}}

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
    cards: list[str] = []
    for d in sorted(deck):
        cards += [d] * deck[d]
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
    s.warrants = {}
    s.magistrate = None
    s.threats = {}
    s.blackmailer = None
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
    # The characters left (those not put aside), in the game's (rank) order.
    aside = s.facedown + s.faceup
    s.pool = [c for c in s.characters if c not in aside]
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
    owner = districts_2016.theater_owner(s)
    if owner is not None:
        # the Theater's swap comes after the last pick, before the first call.
        s.pending.append(Pending("theater", owner, []))
        return
    advance_calls(s)


def is_last_chooser_step(s: GameState) -> bool:
    """C-5: the last chooser handed a single card also sees the C-3 face-down card."""
    return len(s.steps) == 1 and len(s.pool) == 1 and len(s.players) >= 4


def offered_characters(s: GameState, last_chooser: bool) -> list[str]:
    """The characters the chooser picks from, in rank order: the pool, and the C-3 face-down
    card too for the last chooser handed a single card (C-5). A new list."""
    if last_chooser:
        return sorted(s.pool + s.facedown[:1], key=s.characters.index)
    return s.pool[:]


def selection_actions(s: GameState) -> list[Action]:
    kind = s.steps[0][1]
    if kind == PUT_ASIDE:
        return [cached_one(PutAsideCharacter, c) for c in s.pool]
    pick = s.cards.pick
    if is_last_chooser_step(s):
        return [pick[c] for c in offered_characters(s, True)]
    return [pick[c] for c in s.pool]


def apply_selection(s: GameState, action: Action) -> None:
    last_chooser = is_last_chooser_step(s)
    offered = offered_characters(s, last_chooser)
    seat = s.steps.pop(0)[0]
    if isinstance(action, _PUT_ASIDE_CHARACTER_CLASS):
        s.pool.remove(action.character)
        s.facedown.append(action.character)
        s.log_event("put_aside", seat, {}, {"character": action.character}, (seat,))
    else:
        assert isinstance(action, _PICK_CHARACTER_CLASS)
        c = action.character
        if c in s.pool:
            s.pool.remove(c)
        else:
            # C-5: the last chooser took the face-down card; his other card goes face down.
            s.facedown[0] = s.pool.pop()
        s.holders[c] = seat
        s.players[seat].characters.append(c)
        s.log_event("pick", seat, {}, {"character": c, "offered": offered}, (seat,))
        if last_chooser:
            # C-5: he puts one of the two face down, unseen: the same event either way.
            s.log_event("put_aside", seat, {}, {"character": s.facedown[0]}, (seat,))
        elif not s.steps:
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
        if c == s.murdered:
            if seat is not None and "hospital" in s.players[seat].city:
                # the murdered owner of a Hospital reveals himself and only gathers.
                s.revealed[c] = seat
                s.log_event("reveal", seat, {"character": c, "murdered": True})
                start_turn(s, Turn(seat, c, 0), GATHER_ONLY)
                return
            if seat is not None and s.edition.murdered_revealed_at_call:
                # C-12 (`dezh`): the holder turns the card face up; his turn ends at once.
                s.revealed[c] = seat
                s.log_event("reveal", seat, {"character": c, "murdered": True})
                continue
            # C-12: the murdered character is silent, held or not: the same event either way,
            # so nothing shows whether anyone holds it until the round ends.
            s.log_event("call", None, {"character": c, "answered": False, "murdered": True})
            continue
        if seat is None:
            s.log_event("call", None, {"character": c, "answered": False})
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
    power = power_of(s, character)
    power.on_reveal(s, seat)
    if character == s.bewitched:
        start_turn(s, Turn(seat, character, 0), BEWITCHED)
        return
    if character == "witch":
        mode = WITCH
    elif character in s.threats:
        mode = THREATENED
    else:
        mode = NORMAL
    t = Turn(seat, character, power.build_limit)
    start_turn(s, t, mode)
    power.on_start(s, t)
    if s.cards.automatic_income:
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
    power = power_of(s, character)
    t = Turn(s.witch, character, power.build_limit)
    t.gathered = True
    start_turn(s, t, NORMAL)
    s.log_event("witch_resumes", s.witch, {"character": character})
    power.on_start(s, t)
    power.extras(s, t)


def end_round(s: GameState) -> None:
    """C-13: the murdered holder is revealed; a murdered King's or Patrician's heir takes the
    crown (C-23, R-27); a murdered 2016 Emperor moves it, taking nothing (R-27). Then
    ``close_round``."""
    s.turn = None
    m = s.murdered
    if m is not None and m in s.holders:
        heir = s.holders[m]
        s.log_event("murdered_revealed", heir, {"character": m})
        if m in ("king", "patrician"):
            take_crown(s, heir)
        elif (
            m == "emperor" and s.edition.id == "2016" and bonus_characters.crown_receivers(s, heir)
        ):
            s.pending.append(Pending("give_crown", heir, [], keep=NO_TRIBUTE))
            return
    close_round(s)


def close_round(s: GameState) -> None:
    """R-20: the Queen's late gold, then the game ends (C-14) or a new round starts."""
    if s.queen_late is not None:
        # the Queen beside a murdered rank-4 holder is paid when he is revealed.
        beside = s.holders.get(s.murdered or "", -1)
        s.players[s.queen_late].gold += 3
        s.log_event("queen", s.queen_late, {"gold": 3, "beside": beside})
        s.queen_late = None
    s.log_event("round_end", None, {"round": s.round})
    if s.first_complete is not None:
        s.phase = OVER
        s.log_event("game_over", None, {"round": s.round})
        return
    start_round(s)


# --- the turn (C-7, C-8, C-9) -------------------------------------------------------------


def income_colour(character: str, s: GameState) -> str | None:
    return s.cards.character_colour[character]


def take_income(s: GameState, t: Turn, cards: int = 0) -> None:
    """C-9: 1 gold per district of the character's colour, once per turn; ``cards`` of it
    as cards instead (2016 Patrician, Cardinal, Abbot; the School of Magic counts, R-9)."""
    colour = income_colour(t.character, s)
    t.income_taken = True
    if colour is None:
        return
    count = districts.income_count(s, t.seat, colour)
    p = s.players[t.seat]
    p.gold += count - cards
    drawn = s.draw(cards) if cards else []
    p.hand.extend(drawn)
    s.log_event(
        "income",
        t.seat,
        {"gold": count - cards, "cards": len(drawn), "colour": colour},
        {"districts": drawn} if drawn else None,
        (t.seat,) if drawn else (),
    )


_TAKE_INCOME: Final = cached(TakeIncome, 0)
_END_TURN: Final = cached(EndTurn)


def income_actions(s: GameState, t: Turn, power: CharacterPower, out: list[Action]) -> None:
    colour = s.cards.character_colour[t.character]
    if colour is None:
        return
    count = districts.income_count(s, t.seat, colour)
    if count <= 0:
        return
    paid_in = power.income_in_cards
    if paid_in == "none":
        out.append(_TAKE_INCOME)
    elif paid_in == "all":
        out.append(cached_one(TakeIncome, count))
    else:
        out.extend(cached_one(TakeIncome, c) for c in range(count + 1))


def can_build(s: GameState, t: Turn) -> bool:
    return t.build_limit > 0 and (t.gathered or s.cards.free_order)


def outside_limit(t: Turn, district: str, s: GameState) -> bool:
    """R-30: the Stables, and the Trader's green districts, do not count toward the limit."""
    if district == "stables":
        return True
    return t.character == "trader" and s.cards.district_colour[district] == "green"


def build_actions(s: GameState, t: Turn, power: CharacterPower, out: list[Action]) -> None:
    """C-8: a district from hand, paid in full (R-13), not a name already in the city unless
    the Wizard or the Quarry allows it (R-12, R-30); the Thieves' Den partly in cards; the
    Framework and Necropolis by destroying; the Cardinal's loan."""
    p = s.players[t.seat]
    room = t.builds < t.build_limit
    if not room and t.character != "trader" and "stables" not in p.hand:
        return
    gold = p.gold
    names = set(p.city)
    # The printed cost is the price but with a Factory, which ``build_price`` knows.
    factory = "factory" in names
    costs = s.cards.cost
    builds = s.cards.build
    # The Framework and the Necropolis build by destroying instead (``free_builds``): they
    # need the names that may be built.
    sacrifice = "framework" in names
    free: list[str] = []
    hand = p.hand
    if factory:
        sacrifice = sacrifice or "necropolis" in hand
    elif not sacrifice:
        # The cards out of reach dropped first (never built, or dearer than the gold, but the
        # Thieves' Den, which may be paid partly in cards): what is left, a card or two
        # mostly, is all there is to sort. A Necropolis in hand may be built by destroying:
        # then every card counts.
        reach: list[str] = []
        for d in hand:
            if d == "necropolis":
                sacrifice = True
            cost = costs[d]
            if cost is not None and (cost <= gold or d == "thieves_den"):
                reach.append(d)
        if not sacrifice:
            hand = reach
    for d in hand if len(hand) < 2 else distinct_sorted(hand):
        price = build_price(s, t.seat, d) if factory else costs[d]
        if price is None or (price > gold and not sacrifice and d != "thieves_den"):
            # Never built, or out of reach (the Thieves' Den may be paid partly in cards).
            continue
        if not (room or outside_limit(t, d, s)):
            continue
        if (d in names or d == "monument") and not buildable(s, t, d):
            continue
        if sacrifice:
            free.append(d)
        if price <= gold or (
            d == "thieves_den" and districts_2016.thieves_den_affordable(s, t.seat, price)
        ):
            out.append(builds[d])
    if sacrifice and ("framework" in names or "necropolis" in free):
        districts_2016.free_builds(s, t, free, out)
    if room:
        power.build_actions(s, t, out)


def turn_actions(s: GameState, t: Turn) -> list[Action]:
    out: list[Action] = []
    if not t.gathered:
        districts.gather_actions(s, t.seat, out)
    if t.mode != NORMAL:
        if t.mode == WITCH:
            power_of(s, "witch").actions(s, t, out)
        return out
    power = power_of(s, t.character)
    if not t.income_taken:
        income_actions(s, t, power, out)
    if not t.power_used:
        power.actions(s, t, out)
    if can_build(s, t):
        build_actions(s, t, power, out)
    if not lacks_turn_powers(s.players[t.seat].city):
        districts.turn_actions(s, t, out)
        bonus_districts.turn_actions(s, t, out)
    if t.gathered:
        out.append(_END_TURN)
    return out


def pending_actions(s: GameState) -> list[Action]:
    pending = s.pending[-1]
    if pending.kind == "keep":
        return keep_choices(s, pending.cards, pending.keep)
    if pending.kind == "redraw":
        hand = s.players[pending.seat].hand
        out: list[Action] = [cached_one(DiscardCard, d) for d in distinct_sorted(hand)]
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
    if pending.kind == "take_tribute":
        return characters_2016.tribute_choices_2016(s, pending)
    if pending.kind == "confiscate":
        builder = s.turn.character if s.turn is not None else ""
        may = (
            s.warrants.get(builder, False) and pending.cards[0] not in s.players[pending.seat].city
        )
        return (
            [cached(Confiscate, False), cached(Confiscate, True)]
            if may
            else [cached(Confiscate, False)]
        )
    if pending.kind == "ransom":
        return [cached(PayRansom, False), cached(PayRansom, True)]
    if pending.kind == "reveal_threat":
        return [cached(RevealThreat, False), cached(RevealThreat, True)]
    if pending.kind in ("seer", "cardinal"):
        return characters_2016.give_card_choices(s, pending)
    if pending.kind == "scholar":
        return keep_choices(s, pending.cards, 1)
    if pending.kind == "thieves_den":
        return districts_2016.thieves_den_choices(s, pending)
    if pending.kind == "theater":
        return districts_2016.theater_choices(s, pending)
    if pending.kind == "tribute":
        return bonus_characters.tribute_choices(s, pending)
    if pending.kind == "navigator":
        return bonus_characters.navigator_choices()
    if pending.kind == "lighthouse":
        return bonus_districts.lighthouse_choices(s)
    if pending.kind == "bell_tower":
        return bonus_districts.bell_tower_choices()
    raise AssertionError(f"unknown pending decision {pending.kind}")


def keep_choices(s: GameState, drawn: list[str], keep: int) -> list[Action]:
    """Every distinct choice of ``keep`` cards among those drawn, sorted."""
    if keep == 1:
        one = s.cards.keep
        return [one[d] for d in distinct_sorted(drawn)]
    cards = sorted(drawn)
    seen: list[tuple[str, ...]] = []
    n = len(cards)
    for i in range(n):
        for j in range(i + 1, n):
            combo = (cards[i], cards[j])
            if combo not in seen:
                seen.append(combo)
    return [cached_one(KeepCards, c) for c in seen]


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


#: The action classes that ``apply`` tells apart at every decision, as ``Final`` names:
#: compiled with mypyc they are read from C statics, where a name imported from the
#: interpreted ``actions`` module is looked up in the module's dict at every use.
_END_TURN_CLASS: Final = EndTurn
_BUILD_CLASS: Final = Build
_GATHER_GOLD_CLASS: Final = GatherGold
_GATHER_CARDS_CLASS: Final = GatherCards
_TAKE_INCOME_CLASS: Final = TakeIncome
_BUILD_FREE_CLASS: Final = BuildFree
_USE_LABORATORY_CLASS: Final = UseLaboratory
_USE_SMITHY_CLASS: Final = UseSmithy
_USE_ARMORY_CLASS: Final = UseArmory
_USE_MUSEUM_CLASS: Final = UseMuseum
_PUT_ASIDE_CHARACTER_CLASS: Final = PutAsideCharacter
_PICK_CHARACTER_CLASS: Final = PickCharacter
_KEEP_CARDS_CLASS: Final = KeepCards
_DISCARD_CARD_CLASS: Final = DiscardCard
_DRAW_REPLACEMENTS_CLASS: Final = DrawReplacements


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
        if cls is _END_TURN_CLASS:
            t.ending = True
        elif cls is _BUILD_CLASS:
            assert isinstance(action, _BUILD_CLASS)
            build(s, t, action.district)
        elif cls is _GATHER_GOLD_CLASS:
            # the Gold Mine adds 1 when gathering gold.
            gold = 3 if "gold_mine" in s.players[t.seat].city else 2
            s.players[t.seat].gold += gold
            s.log_event("gather_gold", t.seat, {"gold": gold})
            finish_gather(s, t)
        elif cls is _GATHER_CARDS_CLASS:
            assert isinstance(action, _GATHER_CARDS_CLASS)
            gather_cards(s, t, action.count)
        elif cls is _TAKE_INCOME_CLASS:
            assert isinstance(action, _TAKE_INCOME_CLASS)
            take_income(s, t, action.cards)
        elif cls is _BUILD_FREE_CLASS:
            assert isinstance(action, _BUILD_FREE_CLASS)
            build_free(s, t, action)
        elif cls is _USE_LABORATORY_CLASS:
            assert isinstance(action, _USE_LABORATORY_CLASS)
            districts.use_laboratory(s, t, action.district)
        elif cls is _USE_SMITHY_CLASS:
            districts.use_smithy(s, t)
        elif cls is _USE_ARMORY_CLASS:
            assert isinstance(action, _USE_ARMORY_CLASS)
            bonus_districts.use_armory(s, t, action)
        elif cls is _USE_MUSEUM_CLASS:
            assert isinstance(action, _USE_MUSEUM_CLASS)
            bonus_districts.use_museum(s, t, action)
        else:
            power_of(s, t.character).apply(s, t, action)
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
    elif t.mode == THREATENED:
        # T6 Blackmailer: after gathering, the threat is settled before anything else.
        s.pending.append(Pending("ransom", t.seat, [], target=s.blackmailer or 0))
    elif t.mode == NORMAL and not s.cards.automatic_income:
        power_of(s, t.character).extras(s, t)


def resolve_threat(s: GameState, t: Turn) -> None:
    """The threat on the player's character is gone; his turn goes on normally."""
    s.threats.pop(t.character, None)
    t.mode = NORMAL
    power_of(s, t.character).extras(s, t)


def build(s: GameState, t: Turn, district: str) -> None:
    """C-8: pay the price and build; the Thieves' Den may first take cards as payment."""
    p = s.players[t.seat]
    price = build_price(s, t.seat, district)
    assert price is not None
    p.hand.remove(district)
    if not outside_limit(t, district, s):
        t.builds += 1
    if district == "thieves_den" and p.hand:
        s.pending.append(Pending("thieves_den", t.seat, [district], keep=price))
        return
    p.gold -= price
    paid_build(s, t, district, price)


def build_free(s: GameState, t: Turn, action: BuildFree) -> None:
    """Framework / Necropolis: destroy the sacrifice instead of paying; uses the limit, is
    taxed, cannot be confiscated (R-24)."""
    p = s.players[t.seat]
    p.hand.remove(action.district)
    if not outside_limit(t, action.district, s):
        t.builds += 1
    discard_from_city(s, t.seat, action.sacrifice)
    s.log_event("sacrifice", t.seat, {"district": action.sacrifice, "for": action.district})
    put_in_city(s, t, t.seat, action.district, 0)


def apply_pending(s: GameState, action: Action) -> None:
    pending = s.pending[-1]
    p = s.players[pending.seat]
    if isinstance(action, _KEEP_CARDS_CLASS):
        s.pending.pop()
        rest = pending.cards[:]
        for d in action.districts:
            rest.remove(d)
        p.hand.extend(action.districts)
        if pending.kind == "scholar":
            # T6 Scholar: the others are shuffled into the deck.
            s.deck.extend(rest)
            s.shuffle(s.deck)
            s.log_event(
                "keep",
                pending.seat,
                {"kept": 1},
                {"districts": list(action.districts)},
                (pending.seat,),
            )
            return
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
    elif isinstance(action, _DISCARD_CARD_CLASS):
        p.hand.remove(action.district)
        pending.cards.append(action.district)
    elif isinstance(action, _DRAW_REPLACEMENTS_CLASS):
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
        if pending.keep == RECEIVER_PAYS:
            bonus_characters.give_crown(s, pending, action)
        else:
            take_crown(s, action.seat)
            receiver = s.players[action.seat]
            if pending.keep == EMPEROR_TAKES and (receiver.gold > 0 or receiver.hand):
                s.pending.append(Pending("take_tribute", pending.seat, [], target=action.seat))
    elif isinstance(action, TakeTribute):
        s.pending.pop()
        characters_2016.take_tribute(s, pending, action)
    elif isinstance(action, Confiscate):
        s.pending.pop()
        confiscate(s, pending, action.take)
    elif isinstance(action, PayRansom):
        s.pending.pop()
        pay_ransom(s, pending, action.pay)
    elif isinstance(action, RevealThreat):
        s.pending.pop()
        reveal_threat(s, pending, action.reveal)
    elif isinstance(action, GiveCard):
        give_card(s, pending, action)
    elif isinstance(action, PayWithCard):
        p.hand.remove(action.district)
        pending.cards.append(action.district)
        pending.keep -= 1
    elif isinstance(action, PayRemainder):
        s.pending.pop()
        den, paid_cards = pending.cards[0], pending.cards[1:]
        p.gold -= pending.keep
        s.to_bottom(paid_cards)
        s.log_event("pay_with_cards", pending.seat, {"cards": len(paid_cards)})
        assert s.turn is not None
        paid_build(s, s.turn, den, pending.keep)
    elif isinstance(action, UseTheater):
        s.pending.pop()
        districts_2016.use_theater(s, pending, action)
        advance_calls(s)
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
    """After an action: end the turn if it is over and no decision is pending; close the
    round once a round-end decision is answered."""
    if s.pending or s.phase != TURNS:
        return
    t = s.turn
    if t is None:
        close_round(s)
    elif t.ending:
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


# --- 2016 decisions: warrants, threats, gifts ------------------------------------------------


def confiscate(s: GameState, pending: Pending, take: bool) -> None:
    """R-24: the Magistrate takes the district built under the signed warrant into his city;
    the builder gets his gold back and has used that build. Otherwise it is built."""
    district, builder = pending.cards[0], pending.target
    t = s.turn
    assert t is not None
    if not take:
        s.log_event("warrant_passed", pending.seat, {"builder": builder})
        put_in_city(s, t, builder, district, pending.keep)
        return
    s.players[builder].gold += pending.keep
    magistrate = s.players[pending.seat]
    was_complete = s.is_complete(pending.seat)
    magistrate.add_to_city(district, s.round)
    s.warrants = {}
    s.log_event(
        "confiscate",
        pending.seat,
        {"builder": builder, "district": district, "refund": pending.keep},
    )
    check_completion(s, pending.seat, was_complete)
    # the Magistrate pays the tax on what he confiscates, also from the Tax Collector:
    # the R-25 exemption is the Tax Collector's, and the Magistrate is another character.
    pay_tax_2016(s, pending.seat, None)


def pay_ransom(s: GameState, pending: Pending, pay: bool) -> None:
    t = s.turn
    assert t is not None
    if pay:
        me = s.players[pending.seat]
        gold = me.gold // 2
        me.gold -= gold
        s.players[pending.target].gold += gold
        s.log_event("ransom", pending.seat, {"blackmailer": pending.target, "gold": gold})
        resolve_threat(s, t)
    else:
        s.log_event("ransom_refused", pending.seat, {"blackmailer": pending.target})
        s.pending.append(Pending("reveal_threat", pending.target, [], target=pending.seat))


def reveal_threat(s: GameState, pending: Pending, reveal: bool) -> None:
    t = s.turn
    assert t is not None
    flowered = s.threats.get(t.character, False)
    if reveal:
        gold = 0
        if flowered:
            victim = s.players[pending.target]
            gold, victim.gold = victim.gold, 0
            s.players[pending.seat].gold += gold
        s.log_event(
            "threat_revealed",
            pending.seat,
            {"target": pending.target, "flowered": flowered, "gold": gold},
        )
    else:
        s.log_event("threat_kept", pending.seat, {"target": pending.target})
    resolve_threat(s, t)


def give_card(s: GameState, pending: Pending, action: GiveCard) -> None:
    """The Seer's gifts, one per player he took from; the Cardinal's cards, one per gold."""
    if pending.kind == "seer":
        characters_2016.seer_give(s, pending, action)
        if not pending.seats:
            s.pending.pop()
        return
    me = s.players[pending.seat]
    me.hand.remove(action.district)
    s.players[pending.target].hand.append(action.district)
    s.log_event(
        "give_card",
        pending.seat,
        {"to": pending.target},
        {"district": action.district},
        (pending.seat, pending.target),
    )
    pending.keep -= 1
    if pending.keep == 0:
        s.pending.pop()
        district = pending.cards[0]
        price = build_price(s, pending.seat, district)
        assert price is not None and s.turn is not None
        me.gold -= price
        s.turn.builds += 1
        paid_build(s, s.turn, district, price)
