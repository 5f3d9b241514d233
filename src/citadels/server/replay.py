"""Replays of finished games (``GET /api/tables/{code}/replay``): the state after each action,
as a spectator saw it or, with a seat, as that seat saw it. Only a finished game is replayed,
so every seat's point of view is open to anyone by then."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from citadels.engine.game import new_game
from citadels.server import messages, texts
from citadels.server.errors import ServerError
from citadels.server.storage import Store, TableRow

#: The most frames one page of a replay holds.
PAGE_MAX = 500
#: Replay pages kept once built (a finished game never changes, so a page stays right).
CACHE_PAGES = 8


def check(row: TableRow, start: int, count: int, seat: int | None) -> None:
    """``ServerError`` unless the table is finished and the page and seat are valid."""
    if row.status != "finished":
        raise ServerError("not_finished", "a game can be replayed once it is over", 409)
    if not start >= 0 or not 1 <= count <= PAGE_MAX:
        raise ServerError("bad_request", f"from must be 0 or more and count 1 to {PAGE_MAX}")
    if seat is not None and not 0 <= seat < row.players:
        raise ServerError("bad_request", f"seat must be 0 to {row.players - 1}")


def build(
    store: Store, row: TableRow, start: int, count: int, lang: str, seat: int | None
) -> dict[str, Any]:
    """One page of the replay (runs in a worker thread: it replays the stored actions)."""
    actions = [a for _s, a in store.actions(row.id)]
    game = new_game(row.edition, row.players, seed=row.seed, **row.options)
    names = messages.seat_names(row, lang)
    frames = []
    seen = 0
    for version in range(len(actions) + 1):
        if version > 0:
            game.apply_json(actions[version - 1])
        if start <= version < start + count:
            view = game.view(seat, log_from=seen)
            events = view.pop("log")
            frames.append(
                {
                    "version": version,
                    "view": view,
                    "events": messages.render_events(row.edition, events, seen, lang, names),
                }
            )
        seen = len(game.state.log)
        if version >= start + count:
            break
    result = row.result or (game.result().to_json() if game.is_over else None)
    uses = store.hint_uses(row.id)
    return {
        "code": row.code,
        "edition": row.edition,
        "players": row.players,
        "options": row.options,
        "names": names,
        "seat": seat,
        "steps": len(actions),
        "from": start,
        "frames": frames,
        "result": result,
        "scores": texts.score_rows(row.edition, result, lang, names) if result else None,
        # The same column titles as a game's end sends, so the replay names them alike.
        "score_headers": texts.score_columns(lang) if result else None,
        # The hints used during the game (a table with friends whose host allowed them).
        "hints_used": uses,
        # The turns whose time ran out (a turn-based table).
        "timeouts": store.timeouts(row.id) if row.turn_timer is not None else [],
    }


class Replays:
    """Replay pages, bounded: a page once built is kept (the last ``CACHE_PAGES``), and this
    process builds one page at a time (a 500-frame page costs up to about 0.2 s of a core),
    so however many requests arrive, replays take at most one worker thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pages: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._building = asyncio.Lock()

    async def page(
        self, row: TableRow, start: int, count: int, lang: str, seat: int | None
    ) -> dict[str, Any]:
        """One page of a finished game's replay (``check`` it first)."""
        key = (row.id, start, count, lang, seat)
        async with self._building:
            page = self._pages.get(key)
            if page is None:
                page = await asyncio.to_thread(build, self.store, row, start, count, lang, seat)
                self._pages[key] = page
                while len(self._pages) > CACHE_PAGES:
                    self._pages.popitem(last=False)
            self._pages.move_to_end(key)
            return page
