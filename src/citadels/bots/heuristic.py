"""The heuristic bot: a rule-based player that reads only its view.

It picks characters by what they would earn it (income from its city's colours, the crown,
extra cards or gold, protection when it leads), less what the draft's Assassin, Thief and
Warlord are likely to take from it (who may hold them, given what it was offered and what lies
face up; whom the table sees leading; which character they would name for him), and by the
threats it poses (the Assassin, Thief and Warlord when another seat leads); it names the
leader's likely characters with the Assassin and the Thief, gathers gold or cards by what its
hand needs, takes income before building unless the district it builds pays that income,
builds the most valuable district it can afford, and uses the Magician, Warlord, Laboratory,
Smithy and Graveyard when they pay.

Every decision of every edition has a rule: the Dark City characters and districts (Witch,
Wizard, Emperor, Navigator, Diplomat, Artist, Armory, Museum, Lighthouse, Bell Tower, …) and
the 2016 ones (the Magistrate's warrants and the Blackmailer's threats on the leader's likely
characters, the Spy on the hand and colour that pay most, the Seer, the Scholar, the Marshal,
the Cardinal's loans, the Emperor's tribute, the Framework and Necropolis, the Thieves' Den,
the Theater). Random numbers only break ties. Should a view hold a decision it does not know
(a card of a later edition), it takes a seeded random choice and counts it in
:attr:`HeuristicBot.fallbacks`, so it never fails.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from citadels.editions import Edition, get_edition
from citadels.engine.actions import Action

#: What a character is worth to its holder beyond its colour income, by id (a rough guide;
#: characters of later editions not named here are worth their income plus 1).
BASE_VALUE: dict[str, float] = {
    "assassin": 2.0,
    "thief": 1.5,
    "magician": 1.0,
    "king": 1.0,
    "bishop": 0.8,
    "merchant": 1.6,
    "architect": 1.4,
    "warlord": 0.8,
    "witch": 2.0,
    "tax_collector": 1.4,
    "wizard": 1.6,
    "emperor": 1.5,
    "abbot": 1.2,
    "alchemist": 1.5,
    "navigator": 2.5,
    "diplomat": 1.0,
    "queen": 1.2,
    "artist": 1.2,
    "magistrate": 1.8,
    "blackmailer": 1.6,
    "spy": 1.4,
    "seer": 1.5,
    "patrician": 1.2,
    "cardinal": 1.3,
    "trader": 1.6,
    "scholar": 1.6,
    "marshal": 1.0,
}

#: How much a seat is expected to gain from holding a character, before colours: used to
#: guess which character the leader wants (the Assassin's and the Thief's targets).
TARGET_APPEAL: dict[str, float] = {
    "thief": 0.8,
    "magician": 0.8,
    "king": 1.6,
    "bishop": 1.0,
    "merchant": 1.6,
    "architect": 1.8,
    "warlord": 1.3,
}

#: Purple districts whose power is worth more than their cost suggests.
GOOD_PURPLE = frozenset(
    {
        "library",
        "observatory",
        "school_of_magic",
        "university",
        "dragon_gate",
        "smithy",
        "laboratory",
        "great_wall",
        "keep",
        "graveyard",
        "haunted_city",
        "imperial_treasury",
        "map_room",
        "factory",
        "quarry",
        "museum",
        "park",
        "poor_house",
    }
)


#: Editions by the id a view names (``get_edition`` matches ids loosely, which costs more
#: than the rest of reading a view).
_EDITIONS: dict[str, Edition] = {}


def _edition(edition_id: str) -> Edition:
    edition = _EDITIONS.get(edition_id)
    if edition is None:
        edition = _EDITIONS[edition_id] = get_edition(edition_id)
    return edition


class _Table:
    """Facts the heuristics need, read once from a view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.edition: Edition = _edition(view["edition"])
        self.seat: int = view["seat"]
        self.players: list[dict[str, Any]] = view["players"]
        self.me = self.players[self.seat]
        self.hand: list[str] = list(self.me.get("hand", []))
        self.city: list[str] = list(self.me["city"])
        self.gold: int = self.me["gold"]
        self.complete_at: int = view["complete_at"]
        self.my_characters: list[str] = list(self.me["characters"])
        turn = view.get("turn")
        self.character: str | None = turn["character"] if turn else None
        # Facts about a seat asked for again and again in one decision, worked out once.
        self._city_colours: dict[int, set[str]] = {}
        self._threats: dict[int, float] = {}
        self._rivals: dict[int, tuple[bool, int, int]] = {}

    # --- cards ------------------------------------------------------------------------

    def cost(self, district: str) -> int:
        card = self.edition.districts.get(district)
        return card.cost or 0 if card is not None else 0

    def colour(self, district: str) -> str | None:
        card = self.edition.districts.get(district)
        return card.colour if card is not None else None

    def city_colours(self, seat: int) -> set[str]:
        """The colours in a seat's city (the same set each time: callers only read it)."""
        colours = self._city_colours.get(seat)
        if colours is None:
            colours = self._city_colours[seat] = {
                c for d in self.players[seat]["city"] if (c := self.colour(d)) is not None
            }
        return colours

    def income(self, seat: int, character: str) -> int:
        """Districts of the character's colour in a seat's city (C-9)."""
        card = self.edition.characters.get(character)
        colour = card.colour if card is not None else None
        if colour is None:
            return 0
        city = self.players[seat]["city"]
        return sum(1 for d in city if self.colour(d) == colour or d == "school_of_magic")

    def district_value(self, district: str) -> float:
        """Points and promise of building ``district`` into this seat's city."""
        card = self.edition.districts.get(district)
        if card is None:
            return 0.0
        value = float(card.cost or 0) + card.bonus
        mine = self.city_colours(self.seat)
        if card.colour not in mine and card.colour in self.edition.colours:
            value += 1.5 if len(mine) >= len(self.edition.colours) - 2 else 0.8
        if district in GOOD_PURPLE:
            value += 1.0
        return value

    def loss(self, district: str) -> float:
        """Points lost by taking ``district`` out of this seat's city (its cost and bonus, and
        a colour left with no district)."""
        card = self.edition.districts.get(district)
        if card is None:
            return 0.0
        value = float(card.cost or 0) + card.bonus
        same = sum(1 for d in self.city if self.colour(d) == card.colour)
        return value + (1.5 if same <= 1 else 0.0)

    def useful(self, district: str) -> bool:
        """Whether a card in hand could still be built (not a name already in the city)."""
        return district not in self.city and self.edition.districts.get(district) is not None

    def card_worth(self, district: str) -> float:
        """How much a card is worth holding: its build value, less if far out of reach."""
        if not self.useful(district):
            return -5.0
        cost = self.cost(district)
        return self.district_value(district) - 0.4 * max(0, cost - self.gold - 4)

    # --- seats ------------------------------------------------------------------------

    def points(self, seat: int) -> float:
        p = self.players[seat]
        score = float(sum(self.cost(d) for d in p["city"]))
        score += sum(c.bonus for d in p["city"] if (c := self.edition.districts.get(d)))
        if all(c in self.city_colours(seat) for c in self.edition.colours):
            score += 3
        if p["complete"]:
            score += 2
        return score

    def threat(self, seat: int) -> float:
        """How close a seat looks to winning."""
        threat = self._threats.get(seat)
        if threat is None:
            p = self.players[seat]
            threat = self._threats[seat] = float(
                self.points(seat)
                + 1.5 * len(p["city"])
                + 0.5 * p["gold"]
                + 0.4 * min(p["hand_size"], 4)
            )
        return threat

    def rivals(self, seat: int) -> tuple[bool, int, int]:
        """What the other seats hold, seen from ``seat``: whether one of them is a district
        from completing, the most gold and the most cards one of them has."""
        facts = self._rivals.get(seat)
        if facts is None:
            others = [o for o in self.players if o["seat"] != seat]
            facts = self._rivals[seat] = (
                any(self.near_completion(o["seat"], 1) for o in others),
                max((o["gold"] for o in others), default=0),
                max((o["hand_size"] for o in others), default=0),
            )
        return facts

    def opponents(self) -> list[int]:
        return [p["seat"] for p in self.players if p["seat"] != self.seat]

    def leader(self) -> int:
        """The opponent who looks closest to winning."""
        return max(self.opponents(), key=lambda s: (self.threat(s), -s))

    def near_completion(self, seat: int, margin: int = 2) -> bool:
        return len(self.players[seat]["city"]) >= self.complete_at - margin

    def i_lead(self) -> bool:
        return self.threat(self.seat) >= max(self.threat(s) for s in self.opponents())


#: The draft's threats to a seat, by power: each character's weight is the share of what its
#: power takes from the victim (the Witch leaves her victim its gathering, the Blackmailer
#: takes half the purse or the whole when flowered, the Diplomat swaps rather than razes).
KILLERS: dict[str, float] = {"assassin": 1.0, "witch": 0.8}
ROBBERS: dict[str, float] = {"thief": 1.0, "blackmailer": 0.5}
WARRANTS: dict[str, float] = {"magistrate": 1.0}
RAIDERS: dict[str, float] = {"warlord": 1.0, "marshal": 0.8, "diplomat": 0.5}

#: What a turn is worth beyond its character (gathering and a build), in the values' points.
TURN_VALUE = 3.0
#: What a turn that completes the city is worth on top (the game ends with this seat ahead).
FINISH_VALUE = 4.0
#: What the Architect's two extra cards are worth for each useful card the hand lacks (up to
#: three: one a build), and what his three builds are worth within three districts of the end.
ARCHITECT_CARD = 0.8
ARCHITECT_FINISH = 1.5
#: What a Magician's swap is worth for each card the largest other hand holds beyond the
#: cards this hand could use (and one), on top of :meth:`HeuristicBot.character_value`'s.
MAGICIAN_CARD = 0.4
#: Taken off the earner's flat premiums, which the draft's reading replaces: the Bishop's (his
#: shelter is counted from the raiders in play) and the crown's (C-23).
BISHOP_DISCOUNT = 0.5
CROWN_DISCOUNT = 1.0
#: What a signed warrant costs its victim (a build confiscated, the gold returned).
WARRANT_LOSS = 3.0
#: How sharply a naming power guesses the leader's character (softmax temperature, points).
NAMING_TEMPERATURE = 0.5
#: The chance that a naming power strikes a seat it does not see leading (a guess of
#: another kind, or a seat that reads the table otherwise).
AIM_FLOOR = 0.1


class Draft:
    """What a seat choosing a character knows of the draft, from its view alone: which
    characters another seat may hold, who the others see leading, what a leader would be
    named for."""

    def __init__(self, t: _Table) -> None:
        view = t.view
        self.t = t
        selection = view.get("selection") or {}
        self.offered: set[str] = set(selection.get("offered", []))
        in_play: list[str] = list(view["characters_in_play"])
        out = set(view.get("faceup_removed", [])) | set(view.get("known_facedown", []))
        out |= set(t.my_characters)
        self.out = out
        players = len(t.players)
        remaining = int(selection.get("remaining", len(self.offered)))
        hidden_down = max(0, view.get("facedown_count", 1) - len(view.get("known_facedown", [])))
        # Characters taken before this pick, by any seat (this one's earlier picks with 2 or 3
        # players among them), and the picks still to come after it.
        taken = len(in_play) - len(view.get("faceup_removed", [])) - view.get("facedown_count", 1)
        taken = max(0, taken - remaining)
        taken_by_others = max(0, taken - len(t.my_characters))
        picks = players if players >= 4 else 2 * players
        later = max(0, picks - taken - 1 - (1 if players < 4 and not t.my_characters else 0))
        self.later_share = min(1.0, later / max(1, remaining - 1))
        """The chance that a character left in the offer is taken by a later seat."""
        self.earlier_share = taken_by_others / max(1, taken_by_others + hidden_down)
        """The chance that a character this seat was not offered is held by another seat."""
        self.aim = self._aim()
        self.useful = sum(1 for d in set(t.hand) if t.useful(d))
        """The districts in this hand it could still build (one of each name)."""
        self.most_cards = max((p["hand_size"] for p in t.players if p["seat"] != t.seat), default=0)
        """The largest other hand."""
        self.finishing = self._finishing()
        self.raid_loss = self._raid_loss()
        self._named: dict[str, float] | None = None

    def held(self, powers: dict[str, float], taking: str) -> float:
        """The expected weight of ``powers`` in other seats' hands this round, if this seat
        takes ``taking``: a power in the offer goes to a later seat, one not offered was
        taken by an earlier seat or lies face down; one face up, known face down or this
        seat's own is held by nobody else."""
        in_play = self.t.view["characters_in_play"]
        total = 0.0
        for power, weight in powers.items():
            if power == taking or power in self.out or power not in in_play:
                continue
            total += weight * (self.later_share if power in self.offered else self.earlier_share)
        return min(1.0, total)

    def _aim(self) -> float:
        """The share of the other seats that see this seat leading (each aims its powers at
        the seat it sees closest to winning, as :meth:`_Table.leader` does), at least
        :data:`AIM_FLOOR`."""
        t = self.t
        seats = [p["seat"] for p in t.players]
        others = [s for s in seats if s != t.seat]
        if not others:
            return AIM_FLOOR
        aimed = sum(1 for o in others if self._leader_seen_by(o) == t.seat)
        return max(AIM_FLOOR, aimed / len(others))

    def _leader_seen_by(self, seat: int) -> int:
        """The seat ``seat`` sees closest to winning (as :meth:`_Table.leader` picks this
        seat's)."""
        t = self.t
        others = [int(p["seat"]) for p in t.players if p["seat"] != seat]
        return max(others, key=lambda s: (t.threat(s), -s))

    def named(self, character: str) -> float:
        """The chance that another seat's naming power names ``character``: each seat guesses
        the character of the seat it sees leading, by what each would bring that seat (its
        appeal and its income: a softmax, as the heuristic's Assassin and Thief guess), and
        any other seat may hold the power."""
        if self._named is None:
            t = self.t
            faceup = set(t.view.get("faceup_removed", []))
            candidates = [
                c
                for c in t.view["characters_in_play"]
                if c not in faceup
                and (card := t.edition.characters.get(c)) is not None
                and card.rank >= t.edition.assassin_min_rank
            ]
            seats = [p["seat"] for p in t.players]
            others = [s for s in seats if s != t.seat]
            named: dict[str, float] = dict.fromkeys(candidates, 0.0)
            for o in others:
                leader = self._leader_seen_by(o)
                scores = {
                    c: (TARGET_APPEAL.get(c, 0.8) + 0.7 * t.income(leader, c)) / NAMING_TEMPERATURE
                    for c in candidates
                }
                top = max(scores.values(), default=0.0)
                weights = {c: math.exp(v - top) for c, v in scores.items()}
                norm = sum(weights.values()) or 1.0
                for c, w in weights.items():
                    named[c] += w / norm / len(others)
            self._named = named
        return self._named.get(character, 0.0)

    def _finishing(self) -> bool:
        """Whether this seat could complete its city this round: one district short, with a
        card it can build and the gold for it after gathering."""
        t = self.t
        if len(t.city) < t.complete_at - 1:
            return False
        return any(t.useful(d) and t.cost(d) <= t.gold + 2 for d in t.hand)

    def _raid_loss(self) -> float:
        """What a Warlord's raid would cost this city: the dearer of its districts a raider
        pays for (about the city's own median), more when it is about to complete."""
        t = self.t
        costs = sorted(t.cost(d) for d in t.city)
        if not costs:
            return 0.0
        loss = float(costs[len(costs) // 2])
        return loss + (2.0 if t.near_completion(t.seat, 1) else 0.0)


def decision_kind(view: dict[str, Any], legal_actions: Sequence[Action]) -> str:
    """A name for the kind of a decision: the pending decision's kind (``pending:seer``) if
    there is one, else the action types on offer, sorted and joined by ``+``."""
    pending = view.get("pending")
    if pending:
        return f"pending:{pending.get('kind')}"
    return "+".join(sorted({a.type for a in legal_actions}))


class HeuristicBot:
    """A sensible rule-based player (see the module docstring). ``randomness`` is the chance
    of a uniformly random legal action instead, for a weaker player; ``seed`` fixes it and
    the tie-breaks."""

    def __init__(
        self, seed: int | None = None, *, randomness: float = 0.0, reads_draft: bool = True
    ) -> None:
        if not 0.0 <= randomness <= 1.0:
            raise ValueError(f"randomness must be between 0 and 1, not {randomness!r}")
        self.rng = random.Random(seed)
        self.randomness = randomness
        self.reads_draft = reads_draft
        """Whether a pick weighs the draft's threats and each character's worth to this
        seat's hand and race (:meth:`pick_value`); without it, as a beginner, the bot takes
        the character that earns most (:meth:`character_value`)."""
        self.errors = 0
        """Decisions where reading the view failed and a random action was taken instead."""
        self.fallbacks: Counter[str] = Counter()
        """Decisions no rule decided (reading the view failed, or no rule covers them), by
        :func:`decision_kind`: each was a seeded random choice. Zero in every edition."""

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Pick one of ``legal_actions`` by the rules of thumb above, knowing only ``view``."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.randomness and self.rng.random() < self.randomness:
            return legal_actions[self.rng.randrange(len(legal_actions))]
        try:
            choice = self._decide(_Table(view), list(legal_actions))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # A view this bot does not understand (a later edition): never fail.
            self.errors += 1
            choice = None
        if choice is None or choice not in legal_actions:
            self.fallbacks[decision_kind(view, legal_actions)] += 1
            return legal_actions[self.rng.randrange(len(legal_actions))]
        return choice

    # --- the decision -----------------------------------------------------------------

    def _decide(self, t: _Table, legal: list[Action]) -> Action | None:
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a.type, []).append(a)
        if "pick" in by_type:
            return self._pick(t, by_type["pick"])
        if "put_aside" in by_type:
            return self._put_aside(t, by_type["put_aside"])
        if "keep" in by_type:
            return self._keep(t, by_type["keep"])
        if "graveyard" in by_type:
            return self._graveyard(t, by_type["graveyard"])
        if "pay_with_card" in by_type or "pay_remainder" in by_type:
            return self._thieves_den(t, by_type)
        for kind, decide in self._decisions():
            if kind in by_type:
                choice = decide(t, by_type[kind])
                if choice is not None:
                    return choice
        pending = t.view.get("pending")
        if pending and pending.get("kind") == "redraw" and "draw_replacements" in by_type:
            return self._redraw(t, by_type)
        for kind, handler in (
            ("murder", self._murder),
            ("rob", self._rob),
            ("bewitch", self._murder),
            ("take_from_richest", self._take_from_richest),
            ("place_warrants", lambda t, options: self._mark(t, options, "signed")),
            ("threaten", lambda t, options: self._mark(t, options, "flowered")),
            ("spy", self._spy),
            ("look_at_hand", self._look_at_hand),
        ):
            if kind in by_type:
                return handler(t, by_type[kind])
        # Seer and Scholar: more choice of cards for nothing, before gathering and building.
        for kind in ("foresee", "study"):
            if kind in by_type:
                return by_type[kind][0]
        if "exchange_hands" in by_type or ("discard" in by_type and t.character == "magician"):
            choice = self._magician(t, by_type)
            if choice is not None:
                return choice
        if "gather_gold" in by_type or "gather_cards" in by_type:
            return self._gather(t, by_type)
        builds = [
            a for kind in ("build", "build_free", "build_with_loan") for a in by_type.get(kind, [])
        ]
        best_build = max(builds, key=lambda a: self._build_value(t, a), default=None)
        if "take_income" in by_type and (
            best_build is None or not self._income_after(t, best_build)
        ):
            return self._income(t, by_type["take_income"])
        if best_build is not None and self._build_value(t, best_build) > 0:
            return best_build
        if "smithy" in by_type and t.gold >= 4 and sum(map(t.useful, t.hand)) <= 1:
            return by_type["smithy"][0]
        for kind, optional in (
            ("laboratory", self._laboratory),
            ("museum", self._laboratory),
            ("destroy", self._destroy),
            ("seize", self._seize),
            ("exchange_district", self._exchange_district),
            ("armory", self._armory),
            ("beautify", self._beautify),
        ):
            if kind in by_type:
                choice = optional(t, by_type[kind])
                if choice is not None:
                    return choice
        if "end_turn" in by_type:
            return by_type["end_turn"][0]
        return None

    # --- characters -------------------------------------------------------------------

    def character_value(self, t: _Table, character: str, seat: int | None = None) -> float:
        """What holding ``character`` this round is worth to ``seat`` (default: this bot)."""
        seat = t.seat if seat is None else seat
        p = t.players[seat]
        value = BASE_VALUE.get(character, 1.0) + t.income(seat, character)
        leader_near, richest, most_cards = t.rivals(seat)
        hand_size = p["hand_size"]
        if character == "assassin":
            value += 1.5 if leader_near else 0.0
        elif character == "thief":
            value += 0.3 * min(richest, 8)
        elif character == "magician":
            value += 0.6 * max(0, most_cards - hand_size - 1)
            if hand_size == 0:
                value += 1.0
        elif character == "king":
            if t.view["crown"] != seat:
                value += 1.0
        elif character == "bishop":
            if len(p["city"]) >= t.complete_at - 2:
                value += 2.0
        elif character == "architect":
            value += 0.8 * min(hand_size, 3) if p["gold"] >= 4 else 0.0
            if hand_size <= 1:
                value += 0.8
        elif character == "warlord" and leader_near:
            value += 0.3 * min(p["gold"], 6)
        return value

    def _pick(self, t: _Table, options: list[Action]) -> Action:
        """The character worth most to this seat once the table's threats to it are counted
        (:meth:`pick_value`)."""
        draft = Draft(t) if self.reads_draft else None

        def score(a: Action) -> float:
            c = getattr(a, "character", "")
            value = (
                self.pick_value(t, c, draft) if draft is not None else self.character_value(t, c)
            )
            return value + 0.01 * self.rng.random()

        return max(options, key=score)

    def pick_value(self, t: _Table, character: str, draft: Draft | None = None) -> float:
        """What taking ``character`` is worth to this seat, reading the draft (C-4) from its
        own view only (the offer, the face-up and known face-down characters, the table):

        - what it earns (:meth:`character_value`);
        - less what the other seats' naming powers are expected to take from it: the
          Assassin or the Witch the turn and its earnings (C-12, R-26; more when the turn
          would complete the city), the Thief or the Blackmailer the purse (R-29), the
          Magistrate a build (R-24). Each is the chance that another seat holds the power
          (:meth:`Draft.held`) times the chance that it names this character
          (:meth:`Draft.named`: each seat names what it expects of the seat it sees
          leading). A rank-1 character cannot be named: the Assassin is a leader's safe pick;
        - the Bishop: the shelter of this city from a Warlord, Diplomat or Marshal another
          seat may hold, if they see it leading (R-3), instead of a flat premium;
        - the Architect: his two cards count for a hand short of districts to build, and his
          three builds in the last stretch of the race (T5a);
        - the Magician: a swap counts the cards this hand could still use, not its size;
        - the King: the crown's first choice of the next round (C-23) buys less than the
          earner's own table says; in a draft every seat reads, the crowned seat is also the
          first the others expect to take the strongest character.

        :meth:`character_value` alone is what the search's model of the other seats reads
        (:mod:`citadels.bots.model`); this is the bot's own choice."""
        draft = draft if draft is not None else Draft(t)
        earned = self.character_value(t, character)
        card = t.edition.characters.get(character)
        rank = card.rank if card is not None else 0
        value = earned
        if rank >= t.edition.assassin_min_rank:
            exposed = draft.named(character)
            turn = TURN_VALUE + (FINISH_VALUE if draft.finishing else 0.0)
            value -= draft.held(KILLERS, character) * exposed * (earned + turn)
            value -= draft.held(WARRANTS, character) * exposed * WARRANT_LOSS
            if rank >= t.edition.thief_min_rank:
                value -= draft.held(ROBBERS, character) * exposed * t.gold
        if character == "bishop":
            shelter = draft.held(RAIDERS, character) * draft.aim * draft.raid_loss
            value += shelter - BISHOP_DISCOUNT
        elif character == "architect":
            value += ARCHITECT_CARD * max(0, 3 - draft.useful)
            if len(t.city) >= t.complete_at - 3:
                value += ARCHITECT_FINISH
        elif character == "king":
            value -= CROWN_DISCOUNT
        elif character == "magician":
            value += MAGICIAN_CARD * max(0, draft.most_cards - draft.useful - 1)
        return value

    def _put_aside(self, t: _Table, options: list[Action]) -> Action:
        """Two players: put aside what the opponent would like most (D-3)."""
        opponent = t.leader()

        def score(a: Action) -> float:
            c = getattr(a, "character", "")
            return self.character_value(t, c, opponent) + 0.01 * self.rng.random()

        return max(options, key=score)

    def _appeal(self, t: _Table, characters: Sequence[str]) -> dict[str, float]:
        """Naming powers: how likely each character is to help the leader; characters this
        seat holds, knows to be face down or has seen revealed are left out."""
        leader = t.leader()
        known_out = set(t.view.get("known_facedown", [])) | set(t.my_characters)
        known_out |= set(t.view.get("revealed", {}))
        return {
            c: TARGET_APPEAL.get(c, 0.8) + 0.7 * t.income(leader, c) + 0.01 * self.rng.random()
            for c in characters
            if c not in known_out
        }

    def _likely_targets(self, t: _Table, options: list[Action]) -> list[tuple[float, Action]]:
        appeal = self._appeal(t, [getattr(a, "character", "") for a in options])
        return [(appeal[c], a) for a in options if (c := getattr(a, "character", "")) in appeal]

    def _murder(self, t: _Table, options: list[Action]) -> Action:
        scored = self._likely_targets(t, options)
        return max(scored, key=lambda x: x[0])[1] if scored else options[0]

    def _rob(self, t: _Table, options: list[Action]) -> Action:
        scored = self._likely_targets(t, options)
        bonus = {"merchant": 1.0, "king": 0.5, "architect": 0.3}
        scored = [(v + bonus.get(getattr(a, "character", ""), 0.0), a) for v, a in scored]
        return max(scored, key=lambda x: x[0])[1] if scored else options[0]

    # --- the turn ---------------------------------------------------------------------

    def _gather(self, t: _Table, by_type: dict[str, list[Action]]) -> Action:
        useful = [d for d in set(t.hand) if t.useful(d)]
        affordable = [d for d in useful if t.cost(d) <= t.gold + 2]
        cards = by_type.get("gather_cards", [])
        want_cards = bool(cards) and (
            not useful or (len(useful) <= 1 and t.gold >= 5) or (not affordable and t.gold >= 6)
        )
        if want_cards:
            return max(cards, key=lambda a: getattr(a, "count", 2))
        return by_type.get("gather_gold", cards)[0]

    def _build_value(self, t: _Table, a: Action) -> float:
        """A build's worth; the Framework's and Necropolis's free builds (``build_free``) save
        the price and lose the sacrifice, the Cardinal's loans (``build_with_loan``) cost a
        card per missing gold."""
        district = getattr(a, "district", "")
        value = t.district_value(district)
        if a.type == "build_free":
            value += 0.9 * t.cost(district) - t.loss(getattr(a, "sacrifice", ""))
        elif a.type == "build_with_loan":
            value -= 1.0 * max(0, t.cost(district) - t.gold) + 0.5
        return value

    def _income(self, t: _Table, options: list[Action]) -> Action:
        """Income as gold, or (2016 Abbot's split) as cards while the hand is short of
        districts to build."""
        wanted = max(0, 2 - sum(1 for d in set(t.hand) if t.useful(d)))
        return min(
            options, key=lambda a: (abs(getattr(a, "cards", 0) - wanted), getattr(a, "cards", 0))
        )

    def _income_after(self, t: _Table, build: Action) -> bool:
        """Build first when the district pays the turn's income (C-9)."""
        if t.character is None:
            return False
        card = t.edition.characters.get(t.character)
        colour = card.colour if card is not None else None
        return colour is not None and t.colour(getattr(build, "district", "")) == colour

    def _keep(self, t: _Table, options: list[Action]) -> Action:
        def score(a: Action) -> float:
            kept = getattr(a, "districts", ())
            seen: Counter[str] = Counter(t.hand)
            total = 0.0
            for d in kept:
                total += t.card_worth(d) - (3.0 if seen[d] else 0.0)
                seen[d] += 1
            return total + 0.01 * self.rng.random()

        return max(options, key=score)

    def _graveyard(self, t: _Table, options: list[Action]) -> Action:
        pending = t.view.get("pending") or {}
        cards = pending.get("cards") or []
        take = bool(cards) and t.useful(cards[0]) and t.cost(cards[0]) >= 2 and t.gold >= 2
        return next((a for a in options if getattr(a, "take", None) is take), options[0])

    def _bad_cards(self, t: _Table) -> list[str]:
        """Cards worth swapping: names already built, extra copies, far out of reach."""
        bad: list[str] = []
        seen: set[str] = set()
        for d in sorted(t.hand, key=t.card_worth):
            if not t.useful(d) or d in seen or t.cost(d) > t.gold + 6:
                bad.append(d)
            seen.add(d)
        return bad

    def _magician(self, t: _Table, by_type: dict[str, list[Action]]) -> Action | None:
        exchanges = by_type.get("exchange_hands", [])
        if exchanges:

            def size(a: Action) -> tuple[int, float]:
                other = getattr(a, "seat", t.seat)
                return t.players[other]["hand_size"], t.threat(other)

            best = max(exchanges, key=size)
            useful = sum(1 for d in t.hand if t.useful(d))
            if size(best)[0] >= useful + 2:
                return best
        bad = self._bad_cards(t)
        discards = {getattr(a, "district", ""): a for a in by_type.get("discard", [])}
        for d in bad:
            if d in discards:
                return discards[d]
        return None

    def _redraw(self, t: _Table, by_type: dict[str, list[Action]]) -> Action:
        discards = {getattr(a, "district", ""): a for a in by_type.get("discard", [])}
        for d in self._bad_cards(t):
            if d in discards:
                return discards[d]
        return by_type["draw_replacements"][0]

    def _laboratory(self, t: _Table, options: list[Action]) -> Action | None:
        """Laboratory or Museum: part with the least useful card, if one is bad enough."""
        by_card = {getattr(a, "district", ""): a for a in options}
        return next((by_card[d] for d in self._bad_cards(t) if d in by_card), None)

    @staticmethod
    def _best(
        options: list[Action], gain: Callable[[Action], float | None], threshold: float
    ) -> Action | None:
        """The option of the highest ``gain`` (``None``: not an option), if it reaches
        ``threshold``; the first such option on a tie."""
        best: tuple[float, Action] | None = None
        for a in options:
            g = gain(a)
            if g is not None and (best is None or g > best[0]):
                best = (g, a)
        return best[1] if best is not None and best[0] >= threshold else None

    def _destroy(self, t: _Table, options: list[Action]) -> Action | None:
        """Warlord: a district of the leader's, or of a city about to complete, worth more
        than the gold it costs."""
        leader = t.leader()

        def gain(a: Action) -> float | None:
            target = getattr(a, "seat", t.seat)
            cost = t.cost(getattr(a, "district", ""))
            price = max(0, cost - 1)
            if target == t.seat or price > t.gold:
                return None
            bonus = 2.0 if t.near_completion(target, 1) else 0.0
            return cost * (1.5 if target == leader else 0.8) - 0.9 * price + bonus

        return self._best(options, gain, 1.0)

    # --- Dark City cards ----------------------------------------------------------------

    def _decisions(self) -> list[tuple[str, Callable[[_Table, list[Action]], Action | None]]]:
        """Decisions that interrupt the flow, each alone in its list of legal actions."""
        return [
            ("take_card", self._take_card),
            ("give_crown", self._give_crown),
            ("pay_tribute", self._pay_tribute),
            ("take_tribute", self._take_tribute),
            ("give_card", self._give_card),
            ("navigator", self._navigator),
            ("search_deck", self._search_deck),
            ("bell_tower", self._bell_tower),
            ("confiscate", lambda t, options: self._flag(options, "take", True)),
            ("pay_ransom", lambda t, options: self._flag(options, "pay", True)),
            ("reveal_threat", self._reveal_threat),
            ("theater", self._theater),
        ]

    def _flag(self, options: list[Action], field: str, value: object) -> Action:
        return next((a for a in options if getattr(a, field, None) == value), options[0])

    def _mark(self, t: _Table, options: list[Action], field: str) -> Action:
        """2016 Magistrate and Blackmailer: the real mark on the leader's likeliest
        character, the decoys on the next ones."""
        appeal = self._appeal(t, t.view["characters_in_play"])

        def score(a: Action) -> float:
            marks = [getattr(a, f, "") for f in ("first", "second", "other")]
            return 3 * appeal.get(getattr(a, field, ""), 0.0) + sum(
                appeal.get(c, 0.0) for c in marks
            )

        return max(options, key=score)

    def _spy(self, t: _Table, options: list[Action]) -> Action:
        """2016 Spy: the seat and colour with the most matches expected (a card drawn and a
        gold taken per match, while the victim has gold), from the colours of the cards not
        seen in any city or in this hand."""
        unseen: Counter[str] = Counter()
        for district, copies in t.edition.deck.items():
            if (colour := t.colour(district)) is not None:
                unseen[colour] += copies
        for seen in [*t.hand, *(d for p in t.players for d in p["city"])]:
            if (colour := t.colour(seen)) is not None and unseen[colour] > 0:
                unseen[colour] -= 1
        total = max(1, sum(unseen.values()))

        def score(a: Action) -> tuple[float, float]:
            victim = t.players[getattr(a, "seat", t.seat)]
            matches = victim["hand_size"] * unseen[getattr(a, "colour", "")] / total
            leader = 0.1 if victim["seat"] == t.leader() else 0.0
            return matches + min(matches, victim["gold"]) + leader, self.rng.random()

        return max(options, key=score)

    def _look_at_hand(self, t: _Table, options: list[Action]) -> Action:
        """Wizard: the largest hand, the lowest seat on a tie."""
        return max(
            options,
            key=lambda a: (
                t.players[getattr(a, "seat", t.seat)]["hand_size"],
                -getattr(a, "seat", 0),
            ),
        )

    def _take_from_richest(self, t: _Table, options: list[Action]) -> Action:
        """2016 Abbot: the gold from the most threatening of the richest."""
        return max(
            options, key=lambda a: (t.threat(getattr(a, "seat", t.seat)), -getattr(a, "seat", 0))
        )

    def _take_tribute(self, t: _Table, options: list[Action]) -> Action:
        """2016 Emperor: a card from the new crown holder while the hand is short of
        districts to build, gold otherwise."""
        want = "card" if sum(map(t.useful, set(t.hand))) <= 1 else "gold"
        return next((a for a in options if getattr(a, "resource", "") == want), options[0])

    def _give_card(self, t: _Table, options: list[Action]) -> Action:
        """Seer's gifts and Cardinal's payment: the least useful card."""
        return min(
            options,
            key=lambda a: (t.card_worth(getattr(a, "district", "")), getattr(a, "district", "")),
        )

    def _thieves_den(self, t: _Table, by_type: dict[str, list[Action]]) -> Action:
        """Thieves' Den: pay with cards worth less than a gold each (unbuildable, duplicate,
        out of reach), or any card when the gold does not cover the rest; gold otherwise."""
        cards = by_type.get("pay_with_card", [])
        rest = by_type.get("pay_remainder", [])
        worst = min(
            cards,
            key=lambda a: (t.card_worth(getattr(a, "district", "")), getattr(a, "district", "")),
            default=None,
        )
        if worst is not None and (not rest or t.card_worth(getattr(worst, "district", "")) < 1.5):
            return worst
        return rest[0] if rest else cards[0]

    def _reveal_threat(self, t: _Table, options: list[Action]) -> Action:
        """Blackmailer: reveal the threat only if it is the flowered one (an empty one would
        only show the bluff)."""
        turn = t.view.get("turn") or {}
        flowered = t.view.get("flowered_threat")
        reveal = flowered is None or turn.get("character") == flowered
        return self._flag(options, "reveal", reveal)

    def _theater(self, t: _Table, options: list[Action]) -> Action:
        """Theater: swap the least valuable own character with the leader's when he is about
        to complete his city; keep otherwise."""
        leader = t.leader()
        if t.near_completion(leader, 1):
            swaps = [a for a in options if getattr(a, "seat", -1) == leader]
            if swaps:
                return min(
                    swaps,
                    key=lambda a: self.character_value(
                        t, getattr(a, "character", "") or t.my_characters[0]
                    ),
                )
        return self._flag(options, "seat", -1)

    def _take_card(self, t: _Table, options: list[Action]) -> Action:
        """Wizard: the best card of the victim's hand; built at once if it is worth it."""

        def score(a: Action) -> float:
            d = getattr(a, "district", "")
            worth = t.card_worth(d)
            return worth + (1.0 if getattr(a, "build", False) and worth >= 3 else 0.0)

        return max(options, key=score)

    def _give_crown(self, t: _Table, options: list[Action]) -> Action:
        """Emperor: the crown to the weakest opponent."""
        return min(
            options, key=lambda a: (t.threat(getattr(a, "seat", t.seat)), getattr(a, "seat", 0))
        )

    def _pay_tribute(self, t: _Table, options: list[Action]) -> Action:
        gold = next((a for a in options if not getattr(a, "district", "")), None)
        if gold is not None and t.gold >= 2:
            return gold
        cards = [a for a in options if getattr(a, "district", "")]
        if cards:
            return min(cards, key=lambda a: t.card_worth(getattr(a, "district", "")))
        return options[0]

    def _navigator(self, t: _Table, options: list[Action]) -> Action:
        want = "cards" if sum(map(t.useful, t.hand)) <= 1 else "gold"
        return next((a for a in options if getattr(a, "resource", "") == want), options[0])

    def _search_deck(self, t: _Table, options: list[Action]) -> Action:
        return max(options, key=lambda a: t.card_worth(getattr(a, "district", "")))

    def _bell_tower(self, t: _Table, options: list[Action]) -> Action:
        announce = len(t.city) >= 6 and t.i_lead()
        return next((a for a in options if getattr(a, "announce", None) is announce), options[0])

    def _exchange_district(self, t: _Table, options: list[Action]) -> Action | None:
        """Diplomat: a dearer district of the leader for a cheap one of ours, if it pays."""
        leader = t.leader()

        def gain(a: Action) -> float | None:
            diff = t.cost(getattr(a, "take", "")) - t.cost(getattr(a, "give", ""))
            price = max(0, diff)
            if price > t.gold:
                return None
            return diff * (2.0 if getattr(a, "seat", t.seat) == leader else 1.0) - price

        return self._best(options, gain, 2.0)

    def _armory(self, t: _Table, options: list[Action]) -> Action | None:
        """Armory: only against a leader about to complete, on a dear district."""
        leader = t.leader()
        if not t.near_completion(leader, 1):
            return None
        targets = [a for a in options if getattr(a, "seat", t.seat) == leader]
        best = max(targets, key=lambda a: t.cost(getattr(a, "district", "")), default=None)
        return best if best is not None and t.cost(getattr(best, "district", "")) >= 3 else None

    def _beautify(self, t: _Table, options: list[Action]) -> Action | None:
        """Artist: 1 gold for 1 point, once nothing better is left to buy; a 3-cost district
        first (out of the Marshal's reach), else the dearest (dearer to destroy)."""
        if t.gold < 2:
            return None

        def score(a: Action) -> tuple[bool, int, str]:
            d = getattr(a, "district", "")
            return t.cost(d) == 3, t.cost(d), d

        return max(options, key=score)

    def _seize(self, t: _Table, options: list[Action]) -> Action | None:
        """Marshal: a district worth more in this city than its price, best from the leader."""
        leader = t.leader()

        def gain(a: Action) -> float:
            target = getattr(a, "seat", t.seat)
            district = getattr(a, "district", "")
            price = t.cost(district) + (1 if "great_wall" in t.players[target]["city"] else 0)
            denial = 0.6 * t.cost(district) if target == leader else 0.0
            return t.district_value(district) - 0.9 * price + denial

        return self._best(options, gain, 0.5)
