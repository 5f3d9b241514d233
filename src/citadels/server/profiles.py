"""What an account sees of its games: claiming a guest's seats, the profile (games, wins,
ratings, recent games), "my tables" and the leaderboards (docs/accounts.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from citadels.editions import EDITIONS
from citadels.server import messages, texts
from citadels.server.accounts import name_key
from citadels.server.errors import ServerError
from citadels.server.measured import BotMeasures
from citadels.server.ratings import MEASURED_MIN, bot_ratings_json, display
from citadels.server.registry import Registry
from citadels.server.storage import Store, TableRow
from citadels.server.tokens import hash_token, normal_code, seat_of

#: Recent games a profile lists.
RECENT = 20
#: Finished games a profile counts (the newest).
COUNTED = 1000


async def claim(
    store: Store, tables: Registry, account_id: int, seats: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Give the guest seats (``{"code", "token"}`` each) to an account; what became of each:
    ``claimed`` is whether the seat is the account's now (a seat another account holds, an
    unknown code or a token that opens no seat there: ``false``)."""
    out: list[dict[str, Any]] = []
    for item in seats:
        code = normal_code(str(item["code"]))
        row = await asyncio.to_thread(store.table_by_code, code) if code else None
        seat = seat_of(row, item["token"]) if row is not None else None
        ok = False
        if row is not None and seat is not None:
            ok = await asyncio.to_thread(
                store.claim_seat, row.id, seat, hash_token(item["token"]), account_id
            )
            live = tables.get(row.id)
            if ok and live is not None:
                await live.refresh()
                await live.announce()
        out.append({"code": code or str(item["code"])[:64], "seat": seat, "claimed": ok})
    return out


def _won(row: TableRow, seat: int) -> tuple[int | None, int | None]:
    """The seat's rank and score in a finished table's result."""
    for s in (row.result or {}).get("seats", []):
        if s.get("seat") == seat:
            return s.get("rank"), s.get("score")
    return None, None


async def profile(store: Store, name: str, viewer: int | None) -> dict[str, Any]:
    """An account's profile (``GET /api/accounts/{name}``). A private table's code (its
    invitation) is shown only to the account itself."""
    row = await asyncio.to_thread(store.account_by_key, name_key(name.strip()[:200]))
    if row is None:
        raise ServerError("not_found", "no account has this name", 404)
    own = viewer == row.id
    games = await asyncio.to_thread(store.account_seats, row.id, ("finished",), COUNTED)
    ratings = await asyncio.to_thread(store.ratings_of, row.id)
    recent = games[:RECENT]
    changes = await asyncio.to_thread(store.rating_changes, row.id, [t.id for t, _ in recent])
    editions: dict[str, dict[str, Any]] = {}
    for t, seat in games:
        entry = editions.setdefault(
            t.edition, {"title": texts.edition_title(t.edition), "played": 0, "won": 0}
        )
        entry["played"] += 1
        entry["won"] += _won(t, seat)[0] == 1
    for edition, (mu, sigma, count) in ratings.items():
        entry = editions.setdefault(
            edition, {"title": texts.edition_title(edition), "played": 0, "won": 0}
        )
        entry["rating"] = {"rating": display(mu), "mu": mu, "sigma": sigma, "games": count}
    for entry in editions.values():
        entry.setdefault("rating", None)
    history = []
    for t, seat in recent:
        rank, score = _won(t, seat)
        shown = own or t.public
        change = changes.get(t.id)
        history.append(
            {
                "code": t.code if shown else None,
                "edition": t.edition,
                "edition_title": texts.edition_title(t.edition),
                "players": t.players,
                "seat": seat,
                "rank": rank,
                "score": score,
                "won": rank == 1,
                "names": messages.seat_names(t),
                "rated": change is not None,
                "rating_before": display(change[0]) if change else None,
                "rating_after": display(change[1]) if change else None,
                "replay": f"/replay/{t.code}" if shown else None,
            }
        )
    return {
        "name": row.name,
        "created": row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "you": own,
        "editions": editions,
        "recent": history,
    }


#: The order of "my tables": the player's move first, then tables waiting for players,
#: then games where another seat is to move.
_WAITS = {"you": 0, "open": 1, "others": 2}


async def my_tables(store: Store, tables: Registry, account_id: int) -> dict[str, Any]:
    """The open and playing tables where the account sits, what waits for it first
    (``GET /api/account/tables``)."""
    rows = await asyncio.to_thread(store.account_seats, account_id, ("open", "playing"))
    out = []
    for row, seat in rows:
        live = tables.get(row.id)
        if live is None and row.status == "playing":
            live = await tables.load(row.id)
        game = live.game if live is not None else None
        to_move = game.to_move if game is not None and row.status == "playing" else None
        waits = "open" if row.status == "open" else "you" if to_move == seat else "others"
        out.append(
            {
                "table": live.json()
                if live is not None
                else messages.table_json(row, lambda _s: False),
                "seat": seat,
                "to_move": to_move,
                "waits": waits,
            }
        )
    out.sort(key=lambda e: _WAITS[str(e["waits"])])
    return {"tables": out}


async def leaderboard(
    store: Store, edition: str, measures: BotMeasures | None = None
) -> dict[str, Any]:
    """The edition's rated accounts, best first, the bot levels' ratings and their measure
    against people (``GET /api/leaderboard?edition=…``)."""
    if edition not in EDITIONS:
        raise ServerError("not_found", "no such edition", 404)
    rows = await asyncio.to_thread(store.leaderboard, edition)
    measured = await (measures or BotMeasures(store)).of(edition)
    return {
        "edition": edition,
        "edition_title": texts.edition_title(edition),
        "players": [
            {
                "rank": i + 1,
                "name": name,
                "rating": display(mu),
                "mu": mu,
                "sigma": sigma,
                "games": games,
            }
            for i, (name, mu, sigma, games) in enumerate(rows)
        ],
        "bots": bot_ratings_json(),
        "bots_measured": measured,
        "measured_min": MEASURED_MIN,
    }
