"""No client ever learns what its seat may not know (C-10), over the real server.

Bot-played games of every edition are watched by two seated clients (random players that also
try illegal and out-of-turn actions, and reconnect mid-game) and a spectator. Every message
each one received is then checked against the game rebuilt from what the server stored:

- every view is exactly ``Game.view(receiver)`` at that version, every event exactly the
  receiver's rendering of that log entry, legal actions only for the seat to move;
- independently of the engine's view code: no other seat's hand or museum, no unrevealed
  character of another seat, no secret field of an event the receiver was not shown, no other
  seat's token, and no error or text that names a district hidden from the receiver.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from citadels.editions import get_edition
from citadels.engine.game import Game, new_game
from citadels.present.menu import menu_entries
from citadels.server import texts
from citadels.server.client import PlayerClient, http
from citadels.server.storage import Store
from tests.server.conftest import config, running

CONFIGS = [
    ("basic", 4, {}),
    ("dezh", 5, {}),
    ("classic", 4, {}),
    ("classic", 6, {"preset": "dark_city"}),
    ("classic", 5, {"preset": "witch_hunt"}),
    ("classic", 8, {"preset": "imperial_court"}),
    ("2016", 5, {"preset": "cunning_agents"}),
    ("2016", 4, {"preset": "first_game"}),
]

ALLOWED_ERRORS = {"stale_version", "not_your_turn", "illegal_action", "malformed", "rate_limited"}


def noise(rng: random.Random, view: dict[str, Any], edition: str) -> dict[str, Any]:
    """A plausible action, usually illegal: built from names any player knows."""
    ed = get_edition(edition)
    district = rng.choice(sorted(ed.deck))
    character = rng.choice(view["characters_in_play"])
    seat = rng.randrange(len(view["players"]))
    return rng.choice(
        [
            {"type": "build", "district": district},
            {"type": "pick", "character": character},
            {"type": "murder", "character": character},
            {"type": "keep", "districts": [district]},
            {"type": "destroy", "seat": seat, "district": district},
            {"type": "exchange_hands", "seat": seat},
            {"type": "look_at_hand", "seat": seat},
            {"type": "discard", "district": district},
            {"type": "end_turn"},
            {"type": "gather_gold"},
        ]
    )


async def human(c: PlayerClient, rng: random.Random, edition: str, reconnect_at: int) -> None:
    acted = -1
    while c.result is None:
        if c.legal and c.version != acted and c.view is not None:
            acted = c.version
            if rng.random() < 0.1:
                await c.act(noise(rng, c.view, edition))
            else:
                await c.act(rng.choice(c.legal)["action"])
        elif c.view is not None and rng.random() < 0.03:
            await c.act(noise(rng, c.view, edition), version=c.version - rng.randrange(2))
        msg = await c.recv(timeout=60)
        if msg["type"] == "error":
            assert msg["code"] in ALLOWED_ERRORS, msg
            if msg["code"] == "rate_limited":
                await asyncio.sleep(0.2)
            acted = -1
        if reconnect_at and c.version >= reconnect_at:
            reconnect_at = 0
            await c.close()
            snap = await c.connect()
            assert snap["type"] == "snapshot"


async def spectate(c: PlayerClient) -> None:
    while c.result is None:
        await c.recv(timeout=60)


async def play_table(base: str, edition: str, players: int, options: dict[str, Any],
                     seed: int) -> tuple[str, list[PlayerClient], list[str]]:  # fmt: skip
    rng = random.Random(seed)
    bots = {str(s): rng.choice(["random", "easy"]) for s in range(2, players)}
    st, made = await http(base, "POST", "/api/tables",
                          {"name": "Anna", "edition": edition, "players": players,
                           **options, "bots": bots})  # fmt: skip
    assert st == 201, made
    code = made["code"]
    st, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "<i>Ben</i>"})
    tokens = [made["token"], joined["token"]]
    a = PlayerClient(base, code, tokens[0], seed=seed)
    b = PlayerClient(base, code, tokens[1], seed=seed + 1)
    spec = PlayerClient(base, code)
    for c in (a, b, spec):
        await c.connect()
    st, _ = await http(base, "POST", f"/api/tables/{code}/start", token=tokens[0])
    assert st == 200
    await asyncio.gather(
        human(a, random.Random(seed), edition, 0),
        human(b, random.Random(seed + 7), edition, 40 + seed % 30),
        spectate(spec),
    )
    for c in (a, b, spec):
        await c.close()
    return code, [a, b, spec], tokens


def normal(x: Any) -> Any:
    return json.loads(json.dumps(x))


def hidden_names(game: Game, seat: int | None, view_text: str) -> set[str]:
    """Names of districts the receiver cannot see (in other hands or the deck) and which
    appear nowhere in what it may see."""
    ed = game.edition
    s = game.state
    cards: set[str] = set(s.deck)
    for p in s.players:
        if p.seat != seat:
            cards.update(p.hand)
            cards.update(p.museum)
    out = set()
    for card in cards:
        name = ed.districts[card].name if card in ed.districts else card
        if card in view_text or name in view_text or name.lower() in ("keep",):
            continue
        out.add(name)
    return out


def check_client(c: PlayerClient, games: list[Game], final: Game, tokens: list[str],
                 edition: str) -> int:  # fmt: skip
    seat = c.seat
    n_checked = 0
    first = next(m for m in c.received if m["type"] == "snapshot")
    names = [s["name"] for s in first["table"]["seats"]]
    for msg in c.received:
        raw = json.dumps(msg)
        for i, token in enumerate(tokens):
            assert token not in raw, f"a seat token reached a client (seat {i})"
        assert "token_hash" not in raw and '"seed"' not in raw
        kind = msg["type"]
        if kind in ("snapshot", "update") and msg["view"] is not None:
            v = msg["version"]
            game = games[v]
            start = msg["events"][0]["n"] if msg["events"] else len(game.state.log)
            expected = game.view(seat, log_from=start)
            log = expected.pop("log")
            assert msg["view"] == normal(expected), f"view at version {v} for seat {seat}"
            assert len(msg["events"]) == len(log) == msg["event_count"] - start
            for ev in msg["events"]:
                n = ev["n"]
                want = {k: x for k, x in log[n - start].items() if k != "text"}
                got = {k: x for k, x in ev.items() if k not in ("n", "text")}
                assert got == normal(want)
                assert ev["text"] == texts.render_event(edition, log[n - start], "en", names)
                # Independently of the view code: the event's secret part only for its viewers.
                real = final.state.log[n]
                if seat is None or seat not in real.viewers:
                    for key in real.secret or {}:
                        if key not in real.data:
                            assert key not in ev, f"secret {key} of {real.kind} leaked"
            if seat is not None and seat == game.to_move:
                # The same actions, in the menu's order (present.menu), nothing else.
                menu = [e.action.to_json() for e in menu_entries(game, seat)]
                assert [x["action"] for x in msg["legal"]] == normal(menu)
                assert sorted(map(json.dumps, normal(menu))) == sorted(
                    map(json.dumps, normal(expected["legal_actions"]))
                )
            else:
                assert msg["legal"] == [] and "legal_actions" not in msg["view"]
            over = game.is_over
            for p in msg["view"]["players"]:
                if p["seat"] != seat:
                    assert "hand" not in p and "museum" not in p
                    real_p = game.state.players[p["seat"]]
                    assert len(real_p.hand) == p["hand_size"]
                    if not over:
                        for ch in p["characters"]:
                            assert game.state.revealed.get(ch) == p["seat"], "unrevealed character"
            sel = msg["view"].get("selection")
            if sel is not None and sel["seat"] != seat:
                assert "offered" not in sel
            if seat is None:
                assert msg["view"]["known_facedown"] == []
            data = [
                msg["view"],
                [{k: x for k, x in e.items() if k != "text"} for e in msg["events"]],
                [x["action"] for x in msg["legal"]],
            ]
            view_text = json.dumps(data, ensure_ascii=False)
            hidden = hidden_names(game, seat, view_text)
            texts_sent = [e["text"] for e in msg["events"]] + [x["label"] for x in msg["legal"]]
            for text in texts_sent:
                for name in hidden:
                    assert not re.search(rf"\b{re.escape(name)}\b", text), (name, text)
            n_checked += 1
        elif kind == "error":
            v = msg["version"]
            game = games[v]
            if msg["code"] == "illegal_action":
                # Only the seat to move hears the engine's reasons.
                assert seat is not None and seat == game.to_move, msg
            view_text = json.dumps(game.view(seat, log_from=len(game.state.log)))
            for name in hidden_names(game, seat, view_text):
                assert not re.search(rf"\b{re.escape(name)}\b", msg["message"]), (name, msg)
    return n_checked


@pytest.mark.parametrize(
    ("edition", "players", "options"),
    CONFIGS,
    ids=[f"{e}-{p}-{o.get('preset', 'default')}" for e, p, o in CONFIGS],
)
def test_no_message_carries_what_its_receiver_may_not_know(
    sqlite_url: str, edition: str, players: int, options: dict[str, Any]
) -> None:  # fmt: skip
    async def go() -> list[tuple[str, list[PlayerClient], list[str]]]:
        async with running(config(sqlite_url)) as base:
            return list(
                await asyncio.gather(
                    *(play_table(base, edition, players, options, seed) for seed in (1, 2))
                )
            )

    played = asyncio.run(go())
    store = Store(sqlite_url)
    checked = 0
    for code, clients, tokens in played:
        row = store.table_by_code(code)
        assert row is not None and row.status == "finished"
        game = new_game(row.edition, row.players, seed=row.seed, **row.options)
        games = [game.copy()]
        for _seat, action in store.actions(row.id):
            game.apply_json(action)
            games.append(game.copy())
        assert game.is_over
        for c in clients:
            checked += check_client(c, games, game, tokens, edition)
            assert c.result == normal(game.result().to_json())
        # Everybody saw every move: each client's events are the whole log, in order.
        for c in clients:
            assert [e["n"] for e in c.events] == list(range(len(game.state.log)))
    store.close()
    assert checked > 300
