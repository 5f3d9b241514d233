"""Full JSON form of a game state, and a strict reader that refuses anything inconsistent."""

from __future__ import annotations

from collections import Counter
from typing import Any

from citadels.editions import get_edition
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
from citadels.errors import CorruptState

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


def state_to_json(s: GameState) -> dict[str, Any]:
    """Everything about the state, as JSON-ready data."""
    t = s.turn
    return {
        "format": FORMAT,
        "edition": s.edition.id,
        "options": dict(s.options),
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
        "log": [[e.kind, e.seat, e.data, e.secret, list(e.viewers)] for e in s.log],
    }


def _expect(cond: bool, what: str) -> None:
    if not cond:
        raise CorruptState(f"saved game is corrupt: {what}")


def _int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    _expect(type(v) is int, f"{what} must be an integer")
    _expect(lo is None or v >= lo, f"{what} is out of range")
    _expect(hi is None or v <= hi, f"{what} is out of range")
    return int(v)


def _ids(v: Any, what: str, known: Any) -> list[str]:
    _expect(isinstance(v, list) and all(isinstance(x, str) for x in v), f"{what} must be a list")
    unknown = [x for x in v if x not in known]
    _expect(not unknown, f"{what} has unknown card(s) {unknown}")
    return list(v)


def _list(v: Any) -> list[Any]:
    _expect(isinstance(v, list), "expected a list")
    return list(v)


def _seat_or_none(v: Any, what: str, n: int) -> int | None:
    return None if v is None else _int(v, what, 0, n - 1)


def state_from_json(obj: Any, deck_composition: dict[str, int] | None = None) -> GameState:
    """Read a state written by ``state_to_json``; ``CorruptState`` names the first problem.

    ``deck_composition`` (id -> copies), when given, is checked against every card in the
    state: a saved game cannot gain or lose a district card.
    """
    try:
        return _read(obj, deck_composition)
    except CorruptState:
        raise
    except KeyError as exc:
        raise CorruptState(f"saved game is corrupt: it lacks {exc.args[0]!r}") from None
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise CorruptState(f"saved game is corrupt: {exc}") from None


def _read(obj: Any, deck_composition: dict[str, int] | None) -> GameState:
    _expect(isinstance(obj, dict), "the state must be a JSON object")
    _expect(obj.get("format") == FORMAT, f"unknown format {obj.get('format')!r}")
    edition = get_edition(obj["edition"])
    options = obj["options"]
    _expect(isinstance(options, dict), "options must be an object")
    players_json = obj["players"]
    _expect(isinstance(players_json, list), "players must be a list")
    n = len(players_json)
    _expect(edition.min_players <= n <= 8, "bad number of players")
    s = GameState(edition, n, options, _int(obj["seed"], "seed"))
    s.rng = _int(obj["rng"], "rng", 0, (1 << 64) - 1)
    chars = edition.characters
    dists = edition.districts
    s.characters = tuple(_ids(obj["characters"], "characters", chars))
    s.complete_at = _int(obj["complete_at"], "complete_at", 1, 20)
    s.base_complete_at = _int(obj["base_complete_at"], "base_complete_at", 1, 20)
    s.bell_tower = _seat_or_none(obj["bell_tower"], "bell_tower", n)
    s.extra_first = [_int(x, "extra_first", 0, n - 1) for x in _list(obj["extra_first"])]
    s.crown = _int(obj["crown"], "crown", 0, n - 1)
    s.round = _int(obj["round"], "round", 1)
    _expect(obj["phase"] in (SELECTION, TURNS, OVER), "unknown phase")
    s.phase = obj["phase"]
    s.first_complete = _seat_or_none(obj["first_complete"], "first_complete", n)
    s.deck = _ids(obj["deck"], "deck", dists)
    s.pool = _ids(obj["pool"], "pool", chars)
    s.faceup = _ids(obj["faceup"], "faceup", chars)
    s.facedown = _ids(obj["facedown"], "facedown", chars)
    steps = obj["steps"]
    _expect(isinstance(steps, list), "steps must be a list")
    for step in steps:
        _expect(isinstance(step, list) and len(step) == 2, "bad selection step")
        _expect(step[1] in ("pick", "put_aside"), "bad selection step kind")
        s.steps.append((_int(step[0], "step seat", 0, n - 1), step[1]))
    for name in ("holders", "revealed"):
        table = obj[name]
        _expect(isinstance(table, dict), f"{name} must be an object")
        _ids(list(table), name, chars)
        setattr(s, name, {c: _int(v, name, 0, n - 1) for c, v in table.items()})
    for name in ("murdered", "robbed"):
        v = obj[name]
        _expect(v is None or v in chars, f"{name} is not a character")
        setattr(s, name, v)
    s.robber = _seat_or_none(obj["robber"], "robber", n)
    s.next_call = _int(obj["next_call"], "next_call", 0, len(s.characters))
    bewitched = obj["bewitched"]
    _expect(bewitched is None or bewitched in chars, "bewitched is not a character")
    s.bewitched = bewitched
    s.witch = _seat_or_none(obj["witch"], "witch", n)
    s.tax_collector = _seat_or_none(obj["tax_collector"], "tax_collector", n)
    s.builders = [_int(x, "builders", 0, n - 1) for x in _list(obj["builders"])]
    s.queen_late = _seat_or_none(obj["queen_late"], "queen_late", n)
    for name in ("warrants", "threats"):
        table = obj[name]
        _expect(isinstance(table, dict), f"{name} must be an object")
        _ids(list(table), name, chars)
        _expect(all(isinstance(v, bool) for v in table.values()), f"{name} values must be booleans")
        setattr(s, name, dict(table))
    s.magistrate = _seat_or_none(obj["magistrate"], "magistrate", n)
    s.blackmailer = _seat_or_none(obj["blackmailer"], "blackmailer", n)
    s.tax_token = _int(obj["tax_token"], "tax_token", 0)
    for i, pj in enumerate(players_json):
        p = Player(i)
        p.gold = _int(pj["gold"], f"gold of seat {i}", 0)
        p.hand = _ids(pj["hand"], f"hand of seat {i}", dists)
        p.city = _ids(pj["city"], f"city of seat {i}", dists)
        rounds = pj["built_round"]
        _expect(
            isinstance(rounds, list) and len(rounds) == len(p.city),
            f"built_round of seat {i} does not match the city",
        )
        p.built_round = [_int(r, "built_round", 0) for r in rounds]
        p.characters = _ids(pj["characters"], f"characters of seat {i}", chars)
        p.beautified = _ids(pj["beautified"], f"beautified of seat {i}", dists)
        _expect(
            all(p.beautified.count(d) <= p.city.count(d) for d in p.beautified),
            f"seat {i} has beautified districts not in its city",
        )
        p.museum = _ids(pj["museum"], f"museum of seat {i}", dists)
        dup = pj["quarry_duplicate"]
        _expect(dup is None or dup in dists, "quarry_duplicate is not a district")
        p.quarry_duplicate = dup
        s.players[i] = p
    tj = obj["turn"]
    if tj is not None:
        t = Turn(_int(tj["seat"], "turn seat", 0, n - 1), tj["character"], 0)
        _expect(t.character in chars, "turn character is unknown")
        t.build_limit = _int(tj["build_limit"], "build_limit", 0)
        t.builds = _int(tj["builds"], "builds", 0)
        for flag in ("gathered", "income_taken", "power_used", "ending"):
            _expect(isinstance(tj[flag], bool), f"turn {flag} must be true or false")
            setattr(t, flag, tj[flag])
        t.used = tuple(_ids(tj["used"], "used", dists))
        _expect(
            tj["mode"] in (NORMAL, GATHER_ONLY, BEWITCHED, WITCH, THREATENED), "unknown turn mode"
        )
        t.paid_builds = _int(tj["paid_builds"], "paid_builds", 0)
        t.mode = tj["mode"]
        t.built = _int(tj["built"], "built", 0)
        t.build_gold = _int(tj["build_gold"], "build_gold", 0)
        t.artist = _int(tj["artist"], "artist", 0, 2)
        _expect(isinstance(tj["duplicates"], bool), "turn duplicates must be true or false")
        t.duplicates = tj["duplicates"]
        s.turn = t
    _expect(s.turn is None or s.phase == TURNS, "turn does not match phase")
    _expect(s.turn is not None or s.phase != TURNS or bool(obj["pending"]), "no turn to play")
    for pj in obj["pending"]:
        _expect(pj["kind"] in PENDING_KINDS, "unknown pending decision")
        s.pending.append(
            Pending(
                pj["kind"],
                _int(pj["seat"], "pending seat", 0, n - 1),
                _ids(pj["cards"], "pending cards", dists),
                _int(pj["keep"], "pending keep", 0),
                _int(pj["target"], "pending target", -1, n - 1),
                [_int(x, "pending seats", 0, n - 1) for x in _list(pj["seats"])],
            )
        )
    for ev in obj["log"]:
        _expect(isinstance(ev, list) and len(ev) == 5, "bad log event")
        kind, seat, data, secret, viewers = ev
        _expect(isinstance(kind, str) and isinstance(data, dict), "bad log event")
        _expect(secret is None or isinstance(secret, dict), "bad log event secret")
        s.log.append(Event(kind, seat, data, secret, tuple(viewers)))
    if s.phase == SELECTION:
        _expect(bool(s.steps), "selection phase without a step")
    if deck_composition is not None:
        _expect(
            card_counts(s) == Counter(deck_composition),
            "the district cards do not add up to the edition's deck",
        )
    return s


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
