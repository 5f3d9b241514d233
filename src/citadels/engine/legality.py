"""Why an action is illegal: a clear message naming the rule.

Legality itself has one source, ``rules.legal_actions``; this module is only asked once an
action is known not to be among them, to explain the refusal.
"""

from __future__ import annotations

from citadels.editions import AFTER_GATHER, END_OF_TURN
from citadels.engine import characters, effects, rules
from citadels.engine.actions import (
    Action,
    AnnounceBellTower,
    Beautify,
    Bewitch,
    Build,
    BuildWithLoan,
    Confiscate,
    Destroy,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    ExchangeDistrict,
    ExchangeHands,
    Foresee,
    GatherCards,
    GatherGold,
    GiveCard,
    GiveCrown,
    KeepCards,
    LookAtHand,
    Murder,
    NavigatorGain,
    PayRansom,
    PayRemainder,
    PayTribute,
    PayWithCard,
    PickCharacter,
    PlaceWarrants,
    PutAsideCharacter,
    RevealThreat,
    Rob,
    SearchDeck,
    Seize,
    SpyOn,
    Study,
    TakeCard,
    TakeFromRichest,
    TakeIncome,
    TakeTribute,
    Threaten,
    UseArmory,
    UseGraveyard,
    UseLaboratory,
    UseMuseum,
    UseSmithy,
    UseTheater,
)
from citadels.engine.state import GATHER_ONLY, NORMAL, OVER, SELECTION, WITCH, GameState, Turn
from citadels.errors import GameOver, IllegalAction

_PENDING = {
    "keep": ("choose which drawn cards to keep", "C-7"),
    "redraw": ("finish the Magician's discards or draw replacements", "C-22"),
    "graveyard": ("answer the Graveyard offer", "R-7"),
    "wizard": ("take a card from the hand the Wizard looked at", "R-30"),
    "give_crown": ("give the crown to another player (Emperor)", "R-27"),
    "tribute": ("give the Emperor 1 gold or 1 card", "R-27"),
    "navigator": ("take the Navigator's 4 gold or 4 cards", "K-7"),
    "lighthouse": ("take a card from the deck (Lighthouse)", "R-18"),
    "bell_tower": ("announce the Bell Tower or not", "R-14"),
    "take_tribute": ("take the Emperor's gold or card", "R-27"),
    "confiscate": ("decide on the Magistrate's warrant", "R-24"),
    "ransom": ("pay the Blackmailer's ransom or refuse", "N-7"),
    "reveal_threat": ("reveal the threat or not", "N-7"),
    "seer": ("give a card to each player the Seer took from", "N-7"),
    "cardinal": ("give the lender one card per gold", "N-7"),
    "scholar": ("keep one of the cards drawn", "N-7"),
    "thieves_den": ("finish paying for the Thieves' Den", "R-24"),
    "theater": ("use the Theater or not", "R-31"),
}

_POWER_OF: dict[type[Action], tuple[str, str]] = {
    Murder: ("assassin", "C-20"),
    Rob: ("thief", "C-21"),
    ExchangeHands: ("magician", "C-22"),
    DiscardCard: ("magician", "C-22"),
    Destroy: ("warlord", "C-27"),
    Bewitch: ("witch", "R-26"),
    LookAtHand: ("wizard", "R-30"),
    TakeFromRichest: ("abbot", "K-7"),
    ExchangeDistrict: ("diplomat", "R-4"),
    Beautify: ("artist", "R-1"),
    PlaceWarrants: ("magistrate", "R-24"),
    Threaten: ("blackmailer", "N-7"),
    SpyOn: ("spy", "N-7"),
    Foresee: ("seer", "N-7"),
    Study: ("scholar", "N-7"),
    Seize: ("marshal", "R-4"),
    BuildWithLoan: ("cardinal", "N-7"),
}

_DISTRICT_OF: dict[type[Action], tuple[str, str]] = {
    UseArmory: ("armory", "R-15"),
    UseMuseum: ("museum", "R-19"),
}

_ANSWERS = (
    TakeTribute,
    Confiscate,
    PayRansom,
    RevealThreat,
    GiveCard,
    PayWithCard,
    PayRemainder,
    UseTheater,
    KeepCards,
    DrawReplacements,
    UseGraveyard,
    TakeCard,
    GiveCrown,
    PayTribute,
    NavigatorGain,
    SearchDeck,
    AnnounceBellTower,
)


def _name(s: GameState, card: str) -> str:
    table = s.edition.districts if card in s.edition.districts else s.edition.characters
    return table[card].name if card in table else repr(card)


def explain_illegal(s: GameState, action: Action) -> IllegalAction:
    """An ``IllegalAction`` (or ``GameOver``) saying why ``action`` is not allowed now."""
    what = action.text()
    if s.phase == OVER:
        return GameOver(f"{what}: the game is over (C-14)", "C-14")
    if s.pending:
        pending = s.pending[-1]
        task, rule = _PENDING[pending.kind]
        if isinstance(action, KeepCards) and pending.kind == "keep":
            return IllegalAction(
                f"{what}: keep exactly {pending.keep} of the cards drawn "
                f"({', '.join(pending.cards)}) (C-7)",
                "C-7",
            )
        if isinstance(action, DiscardCard) and pending.kind == "redraw":
            return IllegalAction(f"{what}: that card is not in your hand (C-22)", "C-22")
        return IllegalAction(f"{what}: seat {pending.seat} must first {task} ({rule})", rule)
    if s.phase == SELECTION:
        if not isinstance(action, (PickCharacter, PutAsideCharacter)):
            return IllegalAction(f"{what}: characters are being chosen now (C-4)", "C-4")
        seat, kind = s.steps[0]
        if kind == "put_aside" and isinstance(action, PickCharacter):
            return IllegalAction(f"{what}: seat {seat} must put a character aside (D-3)", "D-3")
        if kind == "pick" and isinstance(action, PutAsideCharacter):
            return IllegalAction(f"{what}: seat {seat} must pick a character (C-4)", "C-4")
        return IllegalAction(
            f"{what}: the {_name(s, action.character)} is not among the characters offered (C-4)",
            "C-4",
        )
    t = s.turn
    assert t is not None
    return _explain_turn(s, t, action)


def _explain_turn(s: GameState, t: Turn, action: Action) -> IllegalAction:
    what = action.text()
    p = s.players[t.seat]
    if isinstance(action, (PickCharacter, PutAsideCharacter)):
        return IllegalAction(f"{what}: characters are chosen only before the calls (C-4)", "C-4")
    if isinstance(action, _ANSWERS):
        return IllegalAction(f"{what}: there is no such decision to answer now (C-7)", "C-7")
    if t.mode != NORMAL:
        if t.mode == WITCH and t.gathered:
            if isinstance(action, Bewitch):
                return IllegalAction(
                    f"{what}: the Witch names another character of rank 2 or more that is not "
                    "face up (R-26)",
                    "R-26",
                )
            return IllegalAction(f"{what}: the Witch must now bewitch a character (R-26)", "R-26")
        return IllegalAction(
            f"{what}: this turn is only the gather action (R-16, R-26)",
            "R-26" if t.mode != GATHER_ONLY else "R-16",
        )
    if isinstance(action, (GatherGold, GatherCards)):
        if t.gathered:
            return IllegalAction(f"{what}: you have already gathered this turn (C-7)", "C-7")
        if isinstance(action, GatherCards):
            if not s.deck:
                return IllegalAction(f"{what}: the district deck is empty (C-7)", "C-7")
            return IllegalAction(
                f"{what}: you draw 3 cards only with an Observatory, and 2 otherwise (R-10)",
                "R-10",
            )
    if isinstance(action, EndTurn):
        return IllegalAction(f"{what}: gather first; it is mandatory (C-7)", "C-7")
    if isinstance(action, TakeIncome):
        if rules.income_colour(t.character, s) is None:
            return IllegalAction(f"{what}: your character has no income colour (C-9)", "C-9")
        if t.income_taken:
            return IllegalAction(f"{what}: income is taken once per turn (C-9)", "C-9")
        return IllegalAction(f"{what}: you have no district of your colour (C-9)", "C-9")
    if isinstance(action, Build):
        return _explain_build(s, t, action)
    if type(action) in _POWER_OF:
        owner, rule = _POWER_OF[type(action)]
        if t.character != owner:
            return IllegalAction(
                f"{what}: only the {_name(s, owner)} has that power ({rule})", rule
            )
        if t.power_used:
            return IllegalAction(f"{what}: a power is used once per turn (C-9)", "C-9")
        if isinstance(action, Destroy):
            return _explain_destroy(s, t, action)
        if isinstance(action, Murder):
            return IllegalAction(
                f"{what}: the Assassin names another character of rank "
                f"{s.edition.assassin_min_rank} or more that is not face up (C-20, B-5)",
                "C-20",
            )
        if isinstance(action, Rob):
            return IllegalAction(
                f"{what}: the Thief may not name rank 1, himself, the murdered character or a "
                f"face-up one; lowest rank {s.edition.thief_min_rank} (C-21, R-29)",
                "C-21",
            )
        if isinstance(action, ExchangeHands):
            return IllegalAction(f"{what}: name another seat of this game (C-22)", "C-22")
        if isinstance(action, DiscardCard):
            return IllegalAction(f"{what}: that card is not in your hand (C-22)", "C-22")
        return IllegalAction(f"{what}: the {_name(s, owner)} cannot do that now ({rule})", rule)
    if type(action) in _DISTRICT_OF:
        district, rule = _DISTRICT_OF[type(action)]
        if district not in p.city:
            return IllegalAction(f"{what}: you have no {_name(s, district)} ({rule})", rule)
        return IllegalAction(f"{what}: not a valid use of the {_name(s, district)} ({rule})", rule)
    if isinstance(action, UseLaboratory):
        if "laboratory" not in p.city:
            return IllegalAction(f"{what}: you have no Laboratory in your city (R-11)", "R-11")
        if "laboratory" in t.used:
            return IllegalAction(f"{what}: the Laboratory works once per turn (R-11)", "R-11")
        return IllegalAction(f"{what}: that card is not in your hand (R-11)", "R-11")
    if isinstance(action, UseSmithy):
        if "smithy" not in p.city:
            return IllegalAction(f"{what}: you have no Smithy in your city (R-11)", "R-11")
        if "smithy" in t.used:
            return IllegalAction(f"{what}: the Smithy works once per turn (R-11)", "R-11")
        return IllegalAction(f"{what}: it costs 2 gold and needs cards in the deck (R-11)", "R-11")
    return IllegalAction(f"{what}: not allowed now", None)


def _explain_build(s: GameState, t: Turn, action: Build) -> IllegalAction:
    what = action.text()
    p = s.players[t.seat]
    d = action.district
    if t.build_limit == 0:
        return IllegalAction(f"{what}: the {_name(s, t.character)} cannot build (R-30)", "R-30")
    if not t.gathered and not s.edition.free_order:
        return IllegalAction(f"{what}: gather before building (C-8)", "C-8")
    if t.builds >= t.build_limit:
        return IllegalAction(
            f"{what}: you may build {t.build_limit} district(s) this turn (C-8, C-26)", "C-8"
        )
    if d not in p.hand:
        return IllegalAction(f"{what}: that district is not in your hand (C-8)", "C-8")
    if d in p.city and not effects.may_build_name(s, t, t.seat, d):
        return IllegalAction(f"{what}: you already have a {_name(s, d)} (C-8, R-12)", "C-8")
    price = effects.build_price(s, t.seat, d)
    if price is None:
        return IllegalAction(f"{what}: this card can never be built", "R-23")
    return IllegalAction(f"{what}: it costs {price} gold and you have {p.gold} (C-8)", "C-8")


def _explain_destroy(s: GameState, t: Turn, action: Destroy) -> IllegalAction:
    what = action.text()
    timing = s.edition.warlord_timing
    if timing == AFTER_GATHER and not t.gathered:
        return IllegalAction(f"{what}: the Warlord destroys only after gathering (B-2)", "B-2")
    if timing == END_OF_TURN and not t.gathered:
        return IllegalAction(f"{what}: the Warlord destroys at the end of his turn (K-4)", "K-4")
    if not 0 <= action.seat < len(s.players):
        return IllegalAction(f"{what}: there is no seat {action.seat} (C-27)", "C-27")
    target = s.players[action.seat]
    if action.district not in target.city:
        return IllegalAction(f"{what}: that city has no such district (C-27)", "C-27")
    if len(target.city) >= s.complete_at:
        return IllegalAction(f"{what}: a completed city cannot be attacked (C-27)", "C-27")
    if characters.protected_seat(s) == action.seat:
        return IllegalAction(f"{what}: the Bishop's districts are protected (C-24)", "C-24")
    if action.district == "keep":
        return IllegalAction(f"{what}: the Keep cannot be destroyed (C-27)", "C-27")
    price = characters.destroy_cost(s, action.seat, action.district)
    return IllegalAction(
        f"{what}: it costs {price} gold and you have {s.players[t.seat].gold} (R-5)", "R-5"
    )
