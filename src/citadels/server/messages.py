"""The protocol's messages for one viewer, built from a table's stored row and its game.

Pure functions: no I/O, no state, no ``await``. Everything a connection receives about the
game is cut here from ``Game.view(seat)`` of its own seat (``None``: a spectator), so what a
seat may not know never reaches it (C-10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from citadels.engine.game import Game
from citadels.present.menu import menu_entries
from citadels.server import texts
from citadels.server.storage import TableRow

#: The protocol this server speaks (docs/protocol.md).
PROTOCOL = 1


def encode(msg: dict[str, Any]) -> str:
    """A message as the text of one WebSocket frame: compact JSON, UTF-8 as it is (orjson:
    several times faster than the standard library's encoder, and the same JSON values)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def seat_names(row: TableRow, lang: str = "en") -> list[str]:
    """Display names per seat (bots and unnamed seats named in ``lang``)."""
    out = []
    for s in row.seats:
        if s.kind == "bot":
            out.append(s.name or texts.bot_name(s.seat, s.bot or "bot", lang))
        else:
            out.append(s.name or texts.seat_name(s.seat, lang))
    return out


def solo(row: TableRow) -> bool:
    """Whether the table is one person's game against bots (every other seat a bot)."""
    kinds = [s.kind for s in row.seats]
    return kinds.count("human") == 1 and "empty" not in kinds


def hints_allowed(row: TableRow) -> bool:
    """Whether hints (and reviews of a game being played) are available at the table: always
    at a solo table, at a table with friends when its host allowed them (``hints``)."""
    return solo(row) or row.hints


def rated(row: TableRow) -> bool:
    """Whether the table's game is rated: every human seat held by an account, each by
    another one (bots allowed; docs/accounts.md). Decided again when the game ends."""
    humans = [s.account_id for s in row.seats if s.kind == "human"]
    return bool(humans) and None not in humans and len(set(humans)) == len(humans)


def table_json(row: TableRow, connected: Callable[[int], bool]) -> dict[str, Any]:
    """The public table object of the protocol; ``connected(seat)`` says whether a human
    seat has a live connection."""
    names = seat_names(row)
    seats = []
    for s in row.seats:
        seats.append(
            {
                "seat": s.seat,
                "name": names[s.seat] if s.kind != "empty" else None,
                "kind": s.kind,
                "bot": s.bot if s.kind == "bot" else None,
                "connected": s.kind == "bot" or (s.kind == "human" and connected(s.seat)),
                "away": s.away,
                "account": s.account if s.kind == "human" else None,
            }
        )
    return {
        "code": row.code,
        "status": row.status,
        "edition": row.edition,
        "edition_title": texts.edition_title(row.edition),
        "players": row.players,
        "options": row.options,
        "timer": row.timer,
        "turn_timer": row.turn_timer,
        "on_timeout": row.on_timeout,
        "pace": row.pace,
        "public": row.public,
        "spectator_chat": row.spectator_chat,
        "hints": row.hints,
        "hints_allowed": hints_allowed(row),
        "rated": rated(row),
        "host": row.host_seat,
        "version": row.version,
        "seats": seats,
        "created": row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def render_events(
    edition: str, events: list[dict[str, Any]], first: int, lang: str, names: list[str]
) -> list[dict[str, Any]]:
    """Log entries as the protocol sends them: each with its index ``n`` (from ``first``)
    and its ``text`` for this viewer."""
    out = []
    for i, ev in enumerate(events):
        entry = {k: v for k, v in ev.items() if k != "text"}
        entry["n"] = first + i
        entry["text"] = texts.render_event(edition, ev, lang, names)
        out.append(entry)
    return out


#: The game part of a snapshot of a table whose game has not started.
NO_GAME: dict[str, Any] = {
    "version": 0, "event_count": 0, "view": None, "legal": [], "events": [],
    "deadline": None, "result": None, "scores": None, "score_headers": None,
}  # fmt: skip


def game_part(
    row: TableRow,
    game: Game | None,
    seat: int | None,
    lang: str,
    since: int,
    deadline: int | None,
) -> dict[str, Any]:
    """``view``, ``legal``, ``events`` (from event ``since``) and the rest, for one viewer."""
    if game is None:
        return dict(NO_GAME)
    names = seat_names(row, lang)
    count = len(game.state.log)
    since = max(0, min(since, count))
    view = game.view(seat, log_from=since)
    events = view.pop("log")
    legal = (
        [e.to_json() for e in menu_entries(game, seat, view, lang, names)]
        if seat is not None
        else []
    )
    result = view.get("result")
    return {
        "version": row.version,
        "event_count": count,
        "view": view,
        "legal": legal,
        "events": render_events(row.edition, events, since, lang, names),
        "deadline": deadline,
        "result": result,
        "scores": texts.score_rows(row.edition, result, lang, names) if result else None,
        "score_headers": texts.score_columns(lang) if result else None,
    }


def game_over(part: dict[str, Any]) -> dict[str, Any]:
    """The ``game_over`` message that follows the final update."""
    return {
        "type": "game_over",
        "version": part["version"],
        "result": part["result"],
        "scores": part["scores"],
        "score_headers": part["score_headers"],
    }
