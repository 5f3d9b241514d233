"""Full JSON form of a game state, and a strict reader that refuses anything inconsistent."""

from __future__ import annotations

from collections import Counter
from typing import Any

from citadels.editions import get_edition
from citadels.engine import rules
from citadels.engine.state import (
    BEWITCHED,
    GATHER_ONLY,
    NORMAL,
    OVER,
    SELECTION,
    THREATENED,
    TURNS,
    WITCH,
    Event,
    GameState,
    Pending,
    Player,
    Turn,
)
from citadels.errors import CorruptState, describe

FORMAT = "citadels.state/1"

#: Every kind of interrupting decision (``Pending.kind``).
PENDING_KINDS = (
    "keep",
    "redraw",
    "graveyard",
    "wizard",
    "give_crown",
    "tribute",
    "navigator",
    "lighthouse",
    "bell_tower",
    "take_tribute",
    "confiscate",
    "ransom",
    "reveal_threat",
    "seer",
    "cardinal",
    "scholar",
    "thieves_den",
    "theater",
)


def _copy(d: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event's data (or of options) sharing no list with it."""
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in d.items()}


def state_to_json(s: GameState) -> dict[str, Any]:
    """Everything about the state, as JSON-ready data."""
    t = s.turn
    return {
        "format": FORMAT,
        "edition": s.edition.id,
        "options": _copy(s.options),
        "seed": s.seed,
        "rng": s.rng,
        "characters": list(s.characters),
        "complete_at": s.complete_at,
        "base_complete_at": s.base_complete_at,
        "bell_tower": s.bell_tower,
        "extra_first": s.extra_first[:],
        "crown": s.crown,
        "round": s.round,
        "phase": s.phase,
        "first_complete": s.first_complete,
        "deck": s.deck[:],
        "pool": s.pool[:],
        "faceup": s.faceup[:],
        "facedown": s.facedown[:],
        "steps": [[seat, kind] for seat, kind in s.steps],
        "holders": dict(s.holders),
        "revealed": dict(s.revealed),
        "murdered": s.murdered,
        "robbed": s.robbed,
        "robber": s.robber,
        "next_call": s.next_call,
        "bewitched": s.bewitched,
        "witch": s.witch,
        "tax_collector": s.tax_collector,
        "builders": s.builders[:],
        "queen_late": s.queen_late,
        "warrants": dict(s.warrants),
        "magistrate": s.magistrate,
        "threats": dict(s.threats),
        "blackmailer": s.blackmailer,
        "tax_token": s.tax_token,
        "players": [
            {
                "gold": p.gold,
                "hand": p.hand[:],
                "city": p.city[:],
                "built_round": p.built_round[:],
                "characters": p.characters[:],
                "beautified": p.beautified[:],
                "museum": p.museum[:],
                "quarry_duplicate": p.quarry_duplicate,
            }
            for p in s.players
        ],
        "turn": None
        if t is None
        else {
            "seat": t.seat,
            "character": t.character,
            "build_limit": t.build_limit,
            "builds": t.builds,
            "gathered": t.gathered,
            "income_taken": t.income_taken,
            "power_used": t.power_used,
            "ending": t.ending,
            "used": list(t.used),
            "mode": t.mode,
            "built": t.built,
            "build_gold": t.build_gold,
            "duplicates": t.duplicates,
            "artist": t.artist,
            "paid_builds": t.paid_builds,
        },
        "pending": [
            {
                "kind": p.kind,
                "seat": p.seat,
                "cards": p.cards[:],
                "keep": p.keep,
                "target": p.target,
                "seats": p.seats[:],
            }
            for p in s.pending
        ],
        "log": [
            [
                e.kind,
                e.seat,
                _copy(e.data),
                None if e.secret is None else _copy(e.secret),
                list(e.viewers),
            ]
            for e in s.log
        ],
    }


#: What each kind of log event carries: (public data, secret part, whether the secret part
#: is optional). A key ending in "?" may be absent. Values: "seat" (a seat number), "seat?"
#: (a seat or null), "n" (a count, at least 0), "bool", "word" (a short string), "char" (a
#: character id of the edition), "chars" (a list of them), "dist" (a district id), "dists".
EVENTS: dict[str, tuple[dict[str, str], dict[str, str] | None, bool]] = {
    "alchemist": ({"gold": "n"}, None, False),
    "armory": ({"district": "dist", "target": "seat"}, None, False),
    "beautify": ({"district": "dist"}, None, False),
    "bell_tower": ({"announce": "bool", "complete_at?": "n"}, None, False),
    "bell_tower_silenced": ({"complete_at": "n"}, None, False),
    "bewitch": ({"character": "char"}, None, False),
    "build": ({"district": "dist", "paid": "n"}, None, False),
    "call": ({"character": "char", "answered": "bool", "murdered?": "bool"}, None, False),
    "city_complete": ({"districts": "n", "first?": "bool"}, None, False),
    "confiscate": ({"builder": "seat", "district": "dist", "refund": "n"}, None, False),
    "crown": ({"from": "seat"}, None, False),
    "crown_stays": ({"crown": "seat"}, None, False),
    "deal": ({"count": "n", "gold": "n"}, {"districts": "dists"}, False),
    "destroy": ({"district": "dist", "paid": "n", "target": "seat"}, None, False),
    "end_turn": ({"character": "char"}, None, False),
    "exchange_district": (
        {"give": "dist", "paid": "n", "take": "dist", "target": "seat"},
        None,
        False,
    ),
    "exchange_hands": ({"gave": "n", "got": "n", "with": "seat"}, None, False),
    "extra_cards": ({"count": "n"}, {"districts": "dists"}, False),
    "extra_gold": ({"character": "char", "gold": "n"}, None, False),
    "game_over": ({"round": "n"}, None, False),
    "gather_cards": ({"count": "n"}, {"districts": "dists"}, False),
    "gather_gold": ({"gold": "n"}, None, False),
    "give_card": ({"to": "seat"}, {"district": "dist"}, False),
    "graveyard": ({"district": "dist", "take": "bool"}, None, False),
    "income": ({"cards?": "n", "colour": "word", "gold": "n"}, {"districts": "dists"}, True),
    "keep": ({"kept": "n"}, {"districts": "dists"}, False),
    "laboratory": ({"gold": "n"}, {"district": "dist"}, False),
    "lighthouse": ({}, {"district": "dist"}, False),
    "loan": ({"district": "dist", "from": "seat", "gold": "n"}, None, False),
    "look_at_hand": ({"target": "seat"}, {"hand": "dists"}, False),
    "look_facedown": ({}, {"character": "char"}, False),
    "murder": ({"character": "char"}, None, False),
    "murdered_revealed": ({"character": "char"}, None, False),
    "museum": ({"tucked": "n"}, {"district": "dist"}, False),
    "park": ({"count": "n"}, {"districts": "dists"}, False),
    "pay_with_cards": ({"cards": "n"}, None, False),
    "pick": ({}, {"character": "char", "offered": "chars"}, False),
    "poor_house": ({"gold": "n"}, None, False),
    "put_aside": ({}, {"character": "char"}, False),
    "queen": ({"beside": "seat", "gold": "n"}, None, False),
    "ransom": ({"blackmailer": "seat", "gold": "n"}, None, False),
    "ransom_refused": ({"blackmailer": "seat"}, None, False),
    "redraw": ({"count": "n"}, {"discarded": "dists", "drawn": "dists"}, False),
    "reveal": ({"character": "char", "murdered?": "bool"}, None, False),
    "rob": ({"character": "char"}, None, False),
    "robbed": ({"character": "char", "gold": "n", "thief": "seat"}, None, False),
    "round": ({"crown": "seat", "faceup": "chars", "round": "n"}, None, False),
    "round_end": ({"round": "n"}, None, False),
    "sacrifice": ({"district": "dist", "for": "dist"}, None, False),
    "seer_give": ({"to": "seat"}, {"district": "dist"}, False),
    "seer_take": ({"from": "seat"}, {"district": "dist"}, False),
    "seize": ({"district": "dist", "paid": "n", "target": "seat"}, None, False),
    "setup": ({"crown": "seat", "players": "n"}, None, False),
    "smithy": ({"count": "n"}, {"districts": "dists"}, False),
    "spy": (
        {"colour": "word", "gold": "n", "matches": "n", "target": "seat"},
        {"drawn": "dists", "hand": "dists"},
        False,
    ),
    "study": ({"count": "n"}, {"districts": "dists"}, False),
    "take_card": ({"built": "bool", "from": "seat"}, {"district": "dist"}, False),
    "take_from_richest": ({"from": "seat", "gold": "n"}, None, False),
    "tax": ({"collector": "seat?", "gold": "n"}, None, False),
    "tax_token": ({"gold": "n"}, None, False),
    "theater": ({"with": "seat?"}, {"gave": "char", "got": "char"}, True),
    "threat_kept": ({"target": "seat"}, None, False),
    "threat_revealed": ({"flowered": "bool", "gold": "n", "target": "seat"}, None, False),
    "threats": ({"characters": "chars"}, {"flowered": "char"}, False),
    "throne_room": ({"gold": "n"}, None, False),
    "tribute": ({"emperor": "seat", "paid": "word"}, {"district": "dist"}, True),
    "warrant_passed": ({"builder": "seat"}, None, False),
    "warrants": ({"characters": "chars"}, {"signed": "char"}, False),
    "witch_resumes": ({"character": "char"}, None, False),
}

#: The largest count a saved game may hold (gold, rounds, cards): far above any real game.
MAX_COUNT = 1_000_000


def _fail(path: str, problem: str) -> CorruptState:
    return CorruptState(f"saved game is corrupt: {path} {problem}")


def _expect(cond: bool, path: str, problem: str) -> None:
    if not cond:
        raise _fail(path, problem)


def _get(obj: Any, key: str, path: str) -> Any:
    if not (isinstance(obj, dict)):
        raise _fail(path, f"must be an object, not {describe(obj)}")
    if key not in obj:
        raise _fail(f"{path}.{key}", "is missing")
    return obj[key]


def _only(obj: dict[str, Any], keys: Any, path: str) -> None:
    extra = [k for k in obj if k not in keys]
    if extra:
        raise _fail(f"{path}.{describe(extra[0])}", "is not a known field")


def _int(v: Any, path: str, lo: int = 0, hi: int = MAX_COUNT) -> int:
    if type(v) is not int:
        raise _fail(path, f"must be an integer, not {describe(v)}")
    if not (lo <= v <= hi):
        raise _fail(path, f"must be from {lo} to {hi}, not {describe(v)}")
    return int(v)


def _bool(v: Any, path: str) -> bool:
    if type(v) is not bool:
        raise _fail(path, f"must be true or false, not {describe(v)}")
    return bool(v)


def _one_of(v: Any, path: str, known: Any, what: str) -> str:
    if not (type(v) is str and v in known):
        raise _fail(path, f"is not {what}: {describe(v)}")
    return str(v)


def _ids(v: Any, path: str, known: Any, what: str = "a card of the edition") -> list[str]:
    if type(v) is not list:
        raise _fail(path, f"must be a list, not {describe(v)}")
    if not all(type(x) is str and x in known for x in v):  # the path only on failure
        for i, x in enumerate(v):
            _one_of(x, f"{path}[{i}]", known, what)
    return list(v)


def _seat_or_none(v: Any, path: str, n: int) -> int | None:
    return None if v is None else _int(v, path, 0, n - 1)


def _seats(v: Any, path: str, n: int) -> list[int]:
    if type(v) is not list:
        raise _fail(path, f"must be a list, not {describe(v)}")
    if not all(type(x) is int and 0 <= x < n for x in v):
        for i, x in enumerate(v):
            _int(x, f"{path}[{i}]", 0, n - 1)
    return list(v)


def _table(v: Any, path: str, known: Any) -> dict[str, Any]:
    if type(v) is not dict:
        raise _fail(path, f"must be an object, not {describe(v)}")
    for k in v:
        _one_of(k, f"{path}.{describe(k)}", known, "a character of the edition")
    return dict(v)


def state_from_json(obj: Any, deck_composition: dict[str, int] | None = None) -> GameState:
    """Read a state written by ``state_to_json``; ``CorruptState`` names the path of the first
    bad field (``state.log[12].data.districts``) and what is wrong with it.

    Every field is checked for its type and range, log events against :data:`EVENTS`, and the
    parts against each other (characters held, face down, murdered; the turn's holder; a
    decision to take). The state shares no list with ``obj``. ``deck_composition`` (id ->
    copies), when given, is checked against every card in the state: a saved game cannot gain
    or lose a district card.
    """
    try:
        s = _read(obj, deck_composition)
        _check_consistent(s)
    except CorruptState:
        raise
    except RecursionError:
        raise CorruptState("saved game is corrupt: it is nested too deeply") from None
    except KeyError as exc:
        raise CorruptState(f"saved game is corrupt: it lacks {describe(exc.args[0])}") from None
    except (TypeError, ValueError, AttributeError, IndexError, AssertionError) as exc:
        raise CorruptState(f"saved game is corrupt: {exc}") from None
    return s


_STATE_KEYS = [
    "format",
    "edition",
    "options",
    "seed",
    "rng",
    "characters",
    "complete_at",
    "base_complete_at",
    "bell_tower",
    "extra_first",
    "crown",
    "round",
    "phase",
    "first_complete",
    "deck",
    "pool",
    "faceup",
    "facedown",
    "steps",
    "holders",
    "revealed",
    "murdered",
    "robbed",
    "robber",
    "next_call",
    "bewitched",
    "witch",
    "tax_collector",
    "builders",
    "queen_late",
    "warrants",
    "magistrate",
    "threats",
    "blackmailer",
    "tax_token",
    "players",
    "turn",
    "pending",
    "log",
]
_PLAYER_KEYS = [
    "gold",
    "hand",
    "city",
    "built_round",
    "characters",
    "beautified",
    "museum",
    "quarry_duplicate",
]
_TURN_KEYS = [
    "seat",
    "character",
    "build_limit",
    "builds",
    "gathered",
    "income_taken",
    "power_used",
    "ending",
    "used",
    "mode",
    "built",
    "build_gold",
    "duplicates",
    "artist",
    "paid_builds",
]
_PENDING_KEYS = ["kind", "seat", "cards", "keep", "target", "seats"]


def _read(obj: Any, deck_composition: dict[str, int] | None) -> GameState:
    P = "state"
    if not (isinstance(obj, dict)):
        raise _fail(P, f"must be an object, not {describe(obj)}")
    for key in _STATE_KEYS:
        _get(obj, key, P)
    _only(obj, _STATE_KEYS, P)
    _expect(obj["format"] == FORMAT, f"{P}.format", f"is not {FORMAT!r}")
    edition_id = obj["edition"]
    _expect(type(edition_id) is str, f"{P}.edition", "is not an edition id")
    try:
        edition = get_edition(edition_id)
    except ValueError:
        raise _fail(f"{P}.edition", f"is not a known edition: {describe(edition_id)}") from None
    options = obj["options"]
    _expect(type(options) is dict, f"{P}.options", "must be an object")
    options = plain_options(options, f"{P}.options")
    players_json = obj["players"]
    _expect(type(players_json) is list, f"{P}.players", "must be a list")
    n = len(players_json)
    _expect(
        edition.min_players <= n <= edition.max_players,
        f"{P}.players",
        f"must hold {edition.min_players} to {edition.max_players} seats, not {n}",
    )
    seed = _int(obj["seed"], f"{P}.seed", -(1 << 63), (1 << 64) - 1)
    s = GameState(edition, n, options, seed)
    s.rng = _int(obj["rng"], f"{P}.rng", 0, (1 << 64) - 1)
    chars = edition.characters
    dists = edition.districts
    s.characters = tuple(_ids(obj["characters"], f"{P}.characters", chars, "a character"))
    _expect(len(set(s.characters)) == len(s.characters), f"{P}.characters", "lists one twice")
    _expect(
        list(s.characters) == sorted(s.characters, key=lambda c: (chars[c].rank, c)),
        f"{P}.characters",
        "are not in rank order",
    )
    s.complete_at = _int(obj["complete_at"], f"{P}.complete_at", 1, 20)
    s.base_complete_at = _int(obj["base_complete_at"], f"{P}.base_complete_at", 1, 20)
    s.bell_tower = _seat_or_none(obj["bell_tower"], f"{P}.bell_tower", n)
    s.extra_first = _seats(obj["extra_first"], f"{P}.extra_first", n)
    s.crown = _int(obj["crown"], f"{P}.crown", 0, n - 1)
    s.round = _int(obj["round"], f"{P}.round", 1)
    s.phase = _one_of(obj["phase"], f"{P}.phase", (SELECTION, TURNS, OVER), "a phase")
    s.first_complete = _seat_or_none(obj["first_complete"], f"{P}.first_complete", n)
    s.deck = _ids(obj["deck"], f"{P}.deck", dists, "a district card")
    in_play = s.characters
    s.pool = _ids(obj["pool"], f"{P}.pool", in_play, "a character in play")
    s.faceup = _ids(obj["faceup"], f"{P}.faceup", in_play, "a character in play")
    s.facedown = _ids(obj["facedown"], f"{P}.facedown", in_play, "a character in play")
    steps = obj["steps"]
    _expect(type(steps) is list, f"{P}.steps", "must be a list")
    for i, step in enumerate(steps):
        path = f"{P}.steps[{i}]"
        _expect(type(step) is list and len(step) == 2, path, "must be [seat, kind]")
        kind = _one_of(step[1], f"{path}[1]", ("pick", "put_aside"), "pick or put_aside")
        s.steps.append((_int(step[0], f"{path}[0]", 0, n - 1), kind))
    for name in ("holders", "revealed"):
        table = _table(obj[name], f"{P}.{name}", in_play)
        setattr(s, name, {c: _int(v, f"{P}.{name}.{c}", 0, n - 1) for c, v in table.items()})
    for name in ("murdered", "robbed", "bewitched"):
        v = obj[name]
        if v is not None:
            _one_of(v, f"{P}.{name}", in_play, "a character in play")
            _expect(v not in s.faceup, f"{P}.{name}", f"is face up: {v}")
        setattr(s, name, v)
    s.robber = _seat_or_none(obj["robber"], f"{P}.robber", n)
    s.next_call = _int(obj["next_call"], f"{P}.next_call", 0, len(s.characters))
    s.witch = _seat_or_none(obj["witch"], f"{P}.witch", n)
    s.tax_collector = _seat_or_none(obj["tax_collector"], f"{P}.tax_collector", n)
    s.builders = _seats(obj["builders"], f"{P}.builders", n)
    s.queen_late = _seat_or_none(obj["queen_late"], f"{P}.queen_late", n)
    for name in ("warrants", "threats"):
        table = _table(obj[name], f"{P}.{name}", in_play)
        for c, v in table.items():
            _bool(v, f"{P}.{name}.{c}")
        setattr(s, name, table)
    s.magistrate = _seat_or_none(obj["magistrate"], f"{P}.magistrate", n)
    s.blackmailer = _seat_or_none(obj["blackmailer"], f"{P}.blackmailer", n)
    s.tax_token = _int(obj["tax_token"], f"{P}.tax_token")
    for i, pj in enumerate(players_json):
        path = f"{P}.players[{i}]"
        for key in _PLAYER_KEYS:
            _get(pj, key, path)
        _only(pj, _PLAYER_KEYS, path)
        p = Player(i)
        p.gold = _int(pj["gold"], f"{path}.gold")
        p.hand = _ids(pj["hand"], f"{path}.hand", dists, "a district card")
        p.city = _ids(pj["city"], f"{path}.city", dists, "a district card")
        rounds = pj["built_round"]
        _expect(
            type(rounds) is list and len(rounds) == len(p.city),
            f"{path}.built_round",
            "does not match the city",
        )
        p.built_round = [
            _int(r, f"{path}.built_round[{j}]", 0, s.round) for j, r in enumerate(rounds)
        ]
        p.characters = _ids(pj["characters"], f"{path}.characters", in_play, "a character")
        p.beautified = _ids(pj["beautified"], f"{path}.beautified", dists, "a district card")
        _expect(
            all(p.beautified.count(d) <= p.city.count(d) for d in p.beautified),
            f"{path}.beautified",
            "names districts not in the city",
        )
        p.museum = _ids(pj["museum"], f"{path}.museum", dists, "a district card")
        dup = pj["quarry_duplicate"]
        if dup is not None:
            _one_of(dup, f"{path}.quarry_duplicate", dists, "a district card")
        p.quarry_duplicate = dup
        s.players[i] = p
    tj = obj["turn"]
    if tj is not None:
        path = f"{P}.turn"
        for key in _TURN_KEYS:
            _get(tj, key, path)
        _only(tj, _TURN_KEYS, path)
        character = _one_of(tj["character"], f"{path}.character", in_play, "a character")
        t = Turn(_int(tj["seat"], f"{path}.seat", 0, n - 1), character, 0)
        t.build_limit = _int(tj["build_limit"], f"{path}.build_limit")
        t.builds = _int(tj["builds"], f"{path}.builds")
        for flag in ("gathered", "income_taken", "power_used", "ending", "duplicates"):
            setattr(t, flag, _bool(tj[flag], f"{path}.{flag}"))
        t.used = tuple(_ids(tj["used"], f"{path}.used", dists, "a district card"))
        t.mode = _one_of(
            tj["mode"],
            f"{path}.mode",
            (NORMAL, GATHER_ONLY, BEWITCHED, WITCH, THREATENED),
            "a mode",
        )
        t.paid_builds = _int(tj["paid_builds"], f"{path}.paid_builds")
        t.built = _int(tj["built"], f"{path}.built")
        t.build_gold = _int(tj["build_gold"], f"{path}.build_gold")
        t.artist = _int(tj["artist"], f"{path}.artist", 0, 2)
        s.turn = t
    pending = obj["pending"]
    _expect(type(pending) is list, f"{P}.pending", "must be a list")
    for i, pj in enumerate(pending):
        path = f"{P}.pending[{i}]"
        for key in _PENDING_KEYS:
            _get(pj, key, path)
        _only(pj, _PENDING_KEYS, path)
        s.pending.append(
            Pending(
                _one_of(pj["kind"], f"{path}.kind", PENDING_KINDS, "a kind of decision"),
                _int(pj["seat"], f"{path}.seat", 0, n - 1),
                _ids(pj["cards"], f"{path}.cards", dists, "a district card"),
                _int(pj["keep"], f"{path}.keep"),
                _int(pj["target"], f"{path}.target", -1, n - 1),
                _seats(pj["seats"], f"{path}.seats", n),
            )
        )
    log = obj["log"]
    _expect(type(log) is list, f"{P}.log", "must be a list")
    for i, ev in enumerate(log):
        s.log.append(_event(ev, f"{P}.log[{i}]", s))
    if deck_composition is not None:
        _expect(
            card_counts(s) == Counter(deck_composition),
            f"{P}.deck",
            "and the other cards do not add up to the edition's deck",
        )
    return s


def _ok(v: Any, kind: str, s: GameState) -> bool:
    """Whether ``v`` is a good value of this kind (the fast path; ``_value`` says why not)."""
    if kind == "n":
        return type(v) is int and 0 <= v <= MAX_COUNT
    if kind == "seat":
        return type(v) is int and 0 <= v < len(s.players)
    if kind == "char":
        return type(v) is str and v in s.edition.characters
    if kind == "dist":
        return type(v) is str and v in s.edition.districts
    if kind == "dists":
        known = s.edition.districts
        return type(v) is list and all(type(x) is str and x in known for x in v)
    if kind == "bool":
        return type(v) is bool
    if kind == "seat?":
        return v is None or (type(v) is int and 0 <= v < len(s.players))
    if kind == "chars":
        roles = s.edition.characters
        return type(v) is list and all(type(x) is str and x in roles for x in v)
    return type(v) is str and 0 < len(v) <= 40


def _value(v: Any, kind: str, path: str, s: GameState) -> None:
    """Raise ``CorruptState`` for a value that is not of this kind, naming its path."""
    n = len(s.players)
    if kind in ("seat", "seat?"):
        if v is not None or kind == "seat":
            _int(v, path, 0, n - 1)
    elif kind == "n":
        _int(v, path)
    elif kind == "bool":
        _bool(v, path)
    elif kind == "word":
        if not (type(v) is str and 0 < len(v) <= 40):
            raise _fail(path, f"must be a word, not {describe(v)}")
    elif kind == "char":
        _one_of(v, path, s.edition.characters, "a character")
    elif kind == "chars":
        _ids(v, path, s.edition.characters, "a character")
    elif kind == "dist":
        _one_of(v, path, s.edition.districts, "a district card")
    else:
        _ids(v, path, s.edition.districts, "a district card")


def _part(v: Any, spec: dict[str, str], path: str, s: GameState) -> dict[str, Any]:
    """A copy of an event's data or secret part, checked against ``spec``."""
    if type(v) is not dict:
        raise _fail(path, f"must be an object, not {describe(v)}")
    found = 0
    for key, kind in spec.items():
        if key[-1] == "?":
            key = key[:-1]
            if key not in v:
                continue
        elif key not in v:
            raise _fail(f"{path}.{key}", "is missing")
        found += 1
        value = v[key]
        if not _ok(value, kind, s):
            _value(value, kind, f"{path}.{key}", s)
    if found != len(v):
        _only(v, {k.rstrip("?") for k in spec}, path)
    return {k: x[:] if type(x) is list else x for k, x in v.items()}


def _event(ev: Any, path: str, s: GameState) -> Event:
    _expect(type(ev) is list and len(ev) == 5, path, "must be [kind, seat, data, secret, viewers]")
    kind, seat, data, secret, viewers = ev
    if not (type(kind) is str and kind in EVENTS):
        raise _fail(f"{path}.kind", f"is unknown: {describe(kind)}")
    public, hidden, optional = EVENTS[kind]
    if seat is not None:
        _int(seat, f"{path}.seat", 0, len(s.players) - 1)
    data = _part(data, public, f"{path}.data", s)
    seen = tuple(_seats(viewers, f"{path}.viewers", len(s.players)))
    if secret is None:
        _expect(hidden is None or optional, f"{path}.secret", "is missing")
        _expect(not seen, f"{path}.viewers", "name seats for no secret")
    else:
        _expect(hidden is not None, f"{path}.secret", "must be null for this event")
        assert hidden is not None
        secret = _part(secret, hidden, f"{path}.secret", s)
        _expect(bool(seen), f"{path}.viewers", "name nobody for a secret")
    return Event(kind, seat, data, secret, seen)


def _check_consistent(s: GameState) -> None:
    """The parts of a state agree with each other; the game can go on."""
    P = "state"
    held: dict[str, int] = {}
    for p in s.players:
        for c in p.characters:
            _expect(c not in held, f"{P}.players[{p.seat}].characters", f"repeat {c}")
            held[c] = p.seat
    _expect(held == s.holders, f"{P}.holders", "do not match the seats' characters")
    for name in ("pool", "faceup", "facedown"):
        cards = getattr(s, name)
        if not (len(set(cards)) == len(cards), f"{P}.{name}"):
            raise _fail("list a character twice")
        both = [c for c in cards if c in held]
        _expect(not both, f"{P}.{name}", f"hold {describe(both)}, also held by a seat")
    _expect(
        not set(s.pool) & set(s.faceup)
        and not set(s.pool) & set(s.facedown)
        and not set(s.faceup) & set(s.facedown),
        f"{P}.pool",
        "and the face-up and face-down characters overlap",
    )
    for c, seat in s.revealed.items():
        _expect(held.get(c) == seat, f"{P}.revealed.{c}", "is not held by that seat")
    if s.phase == SELECTION:
        _expect(bool(s.steps), f"{P}.steps", "are empty during the selection")
        _expect(s.turn is None, f"{P}.turn", "is set during the selection")
    if s.phase == OVER:
        _expect(s.turn is None and not s.pending, f"{P}.turn", "is set in a finished game")
    t = s.turn
    if s.phase == TURNS:
        _expect(t is not None or bool(s.pending), f"{P}.turn", "is missing")
    if t is not None:
        _expect(s.phase == TURNS, f"{P}.turn", "is set outside the turns")
        holder = held.get(t.character)
        witch = t.mode == WITCH or (t.seat == s.witch and t.character == s.bewitched)
        _expect(
            holder == t.seat or witch,
            f"{P}.turn.seat",
            f"does not hold the {t.character}",
        )
    if s.phase != OVER:
        try:
            legal = rules.legal_actions(s)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError):
            legal = []
        path = f"{P}.pending[{len(s.pending) - 1}]" if s.pending else f"{P}.phase"
        _expect(bool(legal), path, "leaves no legal action")


def plain_options(options: Any, path: str) -> dict[str, Any]:
    """A copy of setup options read from JSON: names are strings, values a string, an integer,
    null or a list of strings (anything else, however nested, is refused by path)."""
    if type(options) is not dict:
        raise _fail(path, f"must be an object, not {describe(options)}")
    out: dict[str, Any] = {}
    for k, v in options.items():
        if type(k) is not str:
            raise _fail(f"{path}.{describe(k)}", "is not an option name")
        where = f"{path}.{k}"
        if type(v) is list:
            for i, x in enumerate(v):
                if type(x) is not str:
                    raise _fail(f"{where}[{i}]", f"must be an id, not {describe(x)}")
            out[k] = list(v)
        else:
            ok = v is None or type(v) in (str, int, bool)
            if not (ok):
                raise _fail(where, f"must be an id, a number or a list of ids, not {describe(v)}")
            _expect(type(v) is not int or abs(v) <= MAX_COUNT, where, "is out of range")
            out[k] = v
    return out


def card_counts(s: GameState) -> Counter[str]:
    """Every district card in the game, wherever it is: deck, hands, cities, pending."""
    counts: Counter[str] = Counter(s.deck)
    for p in s.players:
        counts.update(p.hand)
        counts.update(p.city)
        counts.update(p.museum)
    for pending in s.pending:
        counts.update(pending.cards)
    return counts
