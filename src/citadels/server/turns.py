"""Who must move, and when a bot or the stand-in plays: bots' turns, absent players, timers.

Each table has one :class:`Turn`: the deadline of the decision being waited for, the plan for
it and the task that carries the plan out. Only this module writes them (the table notes the
decision's ``owner``). :meth:`Turns.schedule` is called whenever the mover, the seats or
presence may have changed. Invariants:

- **One plan per decision.** A plan is *who plays, why, on which version, and whether this
  process is the one to play it*. ``schedule`` works the plan out again and, if it is the
  one already under way, leaves its task alone: a presence message, a second connection or
  a page load never cancels a bot's move or starts its wait again.
- **One process plays a bot's move.** With several processes, the decision belongs to the
  process that moved the game to it (``Turn.owner``: it applied the last action or the
  start); if that process is unknown or no longer alive (its heartbeats stopped), to the
  living process with the smallest id. The owner plays at once; the others wait
  ``FALLBACK`` seconds more and read the table's version from the database before they
  think, so they play only if the owner never did.
- **The deadline travels with the table.** ``Turn.deadline`` is set when a connected human
  who is not away is to move at a table with a timer (at the decision, or when they
  connect or come back), kept until the next decision, and otherwise ``None``. It is built
  into every snapshot and update; when ``schedule`` changes it between two decisions, a
  ``table`` message carries it to every connection.
- **The stand-in plays only for an away seat** at a live table. It marks the seat away
  before it thinks, and plays only if the seat is still away (the player may return
  meanwhile).
- **A turn-based table waits for its players, connected or not** (``row.turn_timer``). Its
  deadline is the table row's ``deadline``, stored with the move that starts the turn (see
  :meth:`Turn.next_deadline`): a *turn* is the run of decisions one human seat makes in a
  row, and its deadline holds for all of them. Nobody plays for a human seat before it;
  once it has passed, the table's rule (``on_timeout``) plays every decision left of that
  turn at once: the stand-in's choice (``"stand_in"``) or :func:`skip_action`
  (``"skip"``). The first of them records the timeout (``Store.add_timeout``: once per turn,
  in any process) and every connection is told (``timed_out``). No seat is ever marked away
  there, and the next turn of the seat has a deadline of its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citadels.engine.actions import Action
from citadels.server.botpool import STAND_IN, BotPool, needs_full_view, reads_view
from citadels.server.bus import Bus
from citadels.server.clock import SYSTEM, Clock
from citadels.server.errors import ServerError

if TYPE_CHECKING:
    from citadels.engine.game import Game
    from citadels.server.table import Table

log = logging.getLogger("citadels.server")

#: Plays a chosen action for a seat on a version (the hub's ``act`` without a connection);
#: the last argument, if given, is asked just before the move is stored and stops it if
#: it answers ``False``.
Play = Callable[
    ["Table", int, "Action | dict[str, Any]", int, Callable[[], bool] | None], Awaitable[None]
]

#: Seconds a process that does not own a decision waits beyond its owner.
FALLBACK = 5.0


#: A turn-based table's rules for a turn whose timer ran out (docs/protocol.md).
ON_TIMEOUT = ("stand_in", "skip")


def now_ms() -> int:
    """The time in epoch milliseconds (the system's clock)."""
    return int(time.time() * 1000)


def skip_action(game: Game) -> Action:
    """The move of a skipped seat (``on_timeout: "skip"``): the smallest legal step that
    ends its turn. ``end_turn`` when it is legal (nothing more is built or used); else the
    gathering every turn must make, as gold (``gather_gold``: nobody's cards move); else
    (picking a character, keeping a drawn card, answering another's power) the engine's
    first legal action in its canonical order. Always one of ``game.legal_actions()``."""
    legal = game.legal_actions()
    for kind in ("end_turn", "gather_gold"):
        for a in legal:
            if a.type == kind:
                return a
    return legal[0]


def bot_seed(t: Table, version: int, seat: int) -> int:
    """The seed of the bot deciding for ``seat`` on ``version`` at ``t``: the same for the same
    decision, whoever asks (its scheduled task or a chain, ``Turns.follow``)."""
    return (t.row.seed * 31 + version * 8 + seat) % (2**62)


def light_view(game: Game, seat: int, level: str) -> dict[str, Any]:
    """What a light bot of ``level`` decides from: the seat's view without its log (an empty
    one for a bot that does not read it, ``botpool.reads_view``)."""
    if not reads_view(level):
        return {}
    view = game.view(seat, log_from=game.log_size)
    view.pop("log", None)
    return view


@dataclass(frozen=True)
class Plan:
    """What a table's task will do: play for ``seat`` on ``version`` because ``why``
    (``"bot"``, ``"away"``: its player is away, ``"absent"``: nobody is connected for it,
    ``"timer"``: its deadline, ``"turn"``: a turn-based table's deadline), as the owner of
    the decision or standing by."""

    version: int
    seat: int
    why: str
    owner: bool


@dataclass(eq=False)
class Turn:
    """One table's decision being waited for: its deadline (epoch ms, ``None`` without a
    timer or a connected human to move; at a turn-based table the row's), the plan for it
    and the task that plays it when nobody does, and the process that moved the game to it
    (``None``: not known)."""

    deadline: int | None = None
    plan: Plan | None = None
    task: asyncio.Task[None] | None = None
    owner: str | None = None
    clock: Clock = SYSTEM

    def new_decision(self, t: Table) -> None:
        """The game moved on: the deadline of the next decision."""
        self.deadline = None
        self._settle(t)

    def next_deadline(self, t: Table, game: Game, actor: int | None) -> int | None:
        """At a turn-based table, the deadline to store with the move ``actor`` just made on
        ``game`` (``None``: the start): the current one while the same human seat moves on
        in its turn, a new one (now plus ``turn_timer``) when another human seat's turn
        begins, ``None`` for a bot's decision, at the end, and at a live table."""
        if t.row.turn_timer is None or game.is_over:
            return None
        mover = game.to_move
        assert mover is not None
        if t.row.seats[mover].kind != "human":
            return None
        if mover == actor and t.row.deadline is not None:
            return t.row.deadline
        return self.clock.now_ms() + t.row.turn_timer * 1000

    def _settle(self, t: Table) -> None:
        """At a turn-based table, take the row's deadline; at a live one, set the deadline
        if a connected human who is not away is to move at a timer table and it is not set
        yet."""
        if t.row.turn_timer is not None:
            self.deadline = t.row.deadline
            return
        game = t.game
        if self.deadline is not None or game is None or game.is_over or t.row.timer is None:
            return
        seat = t.row.seats[game.to_move]  # type: ignore[index]
        present = not t.presence.away(seat.seat) and t.presence.connected(seat.seat)
        if seat.kind == "human" and present:
            self.deadline = self.clock.now_ms() + t.row.timer * 1000

    def cancel(self) -> None:
        """Stop waiting (the task, if any, is cancelled)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None
        self.plan = None


class Turns:
    """Arranges whoever plays next at every table of this process."""

    def __init__(
        self,
        pool: BotPool,
        play: Play,
        bus: Bus,
        *,
        grace: float,
        bot_delay: float,
        clock: Clock = SYSTEM,
        on_turn: Callable[[Table], None] | None = None,
    ) -> None:
        self.pool = pool
        self.play = play
        self.bus = bus
        self.grace = grace
        self.bot_delay = bot_delay
        self.clock = clock
        #: Told of every turn-based decision scheduled (the "your turn" e-mails).
        self.on_turn = on_turn
        self.closing = False

    @property
    def shared(self) -> bool:
        """Whether other processes serve the same tables."""
        return self.bus.shared

    def owns(self, t: Table) -> bool:
        """Whether this process plays ``t``'s current decision if nobody does (see the
        module's invariants)."""
        if not self.shared:
            return True
        me, owner, peers = self.bus.origin, t.turn.owner, self.bus.peers
        if owner == me:
            return True
        if owner is not None and peers.alive(owner):
            return False
        return me == min([me, *peers.living()])

    def schedule(self, t: Table, *, announce: bool = True) -> None:
        """Arrange whoever plays next: a bot, a stand-in, or a timer for a human; keep the
        task under way if the plan is the same. A deadline it changes is sent to every
        connection in a ``table`` message (``announce=False``: the caller sends it)."""
        if self.closing:
            return
        turn = t.turn
        before = turn.deadline
        plan, delay, level = self._plan(t)
        if plan is None:
            turn.cancel()
        elif plan != turn.plan or turn.task is None or turn.task.done():
            turn.cancel()
            turn.plan = plan
            turn.task = asyncio.create_task(self._play_for(t, plan, level, delay))
        if announce and turn.deadline != before:
            t.fanout.table_changed()

    def _plan(self, t: Table) -> tuple[Plan | None, float, str]:
        """The plan for ``t``'s current decision, the seconds to wait and the bot's level."""
        game = t.game
        if game is None or game.is_over or t.row.status != "playing":
            return None, 0.0, ""
        mover = game.to_move
        assert mover is not None
        seat = t.row.seats[mover]
        owner = self.owns(t)
        extra = 0.0 if owner else FALLBACK
        turn = t.turn
        if seat.kind == "bot":
            why, delay, level = "bot", self.bot_delay, seat.bot or STAND_IN
        elif t.row.turn_timer is not None:
            turn._settle(t)
            if turn.deadline is None:  # not known yet (a move another process is storing)
                return None, 0.0, ""
            if self.on_turn is not None:
                self.on_turn(t)
            why, level = "turn", STAND_IN
            delay = max(0.0, (turn.deadline - self.clock.now_ms()) / 1000)
        elif t.presence.away(mover):
            why, delay, level = "away", self.bot_delay, STAND_IN
        elif not t.presence.connected(mover):
            # Shared: give the other processes' presence replies time to arrive.
            grace = max(self.grace, 2.0) if self.shared else self.grace
            why, delay, level = "absent", grace, STAND_IN
        elif t.row.timer is not None:
            turn._settle(t)
            assert turn.deadline is not None
            why, level = "timer", STAND_IN
            delay = max(0.0, (turn.deadline - self.clock.now_ms()) / 1000)
        else:
            return None, 0.0, ""
        return Plan(t.version, mover, why, owner), delay + extra, level

    def follow(self, t: Table, game: Game, version: int) -> tuple[int, Action] | None:
        """The move to play at once on ``game`` (a copy the table's move to ``version`` just
        made, not yet stored), to be stored and sent with it (``Table.apply``'s ``then``): a
        light bot's, when a bot seat is to move, bots move with no pause, and this process
        plays the decision (it would schedule it here, at once). ``None`` otherwise: the next
        decision is scheduled as usual once the moves are stored. The bot decides as its task
        would (the same seat's view, legal actions and seed): a game goes the same either way."""
        if self.closing or self.bot_delay > 0 or self.shared or game.is_over:
            return None
        if t.row.status != "playing":
            return None
        mover = game.to_move
        if mover is None:
            return None
        seat = t.row.seats[mover]
        level = seat.bot or STAND_IN
        if seat.kind != "bot" or needs_full_view(level):
            return None
        try:
            return mover, self._light_choice(t, game, mover, version, level)
        except Exception:
            # Its scheduled task tries again once the moves before are stored (and logs it).
            return None

    def close(self, tables: list[Table]) -> None:
        """Cancel every table's waiting task; schedule nothing more."""
        self.closing = True
        for t in tables:
            t.turn.cancel()

    async def _play_for(self, t: Table, plan: Plan, level: str, delay: float) -> None:
        seat, version = plan.seat, plan.version
        try:
            await self.clock.sleep(delay)
            if self.shared and not plan.owner:
                # Standing by: the owner may have played already (its message on its way).
                await t.catch_up()
            game = t.game
            if game is None or t.version != version or game.is_over:
                if t.turn.plan == plan:
                    t.turn.task = None
                    self.schedule(t)
                return
            if plan.why == "turn":
                await self._time_out(t, plan)
                return
            stand_in = plan.why != "bot"
            if plan.why in ("absent", "timer"):
                await t.presence.gone_away(seat)
                await t.announce()
            choice = await self._choose(t, game, seat, version, level)
            if choice is None:
                return
            t.turn.task = None  # playing it schedules the next turn: not a cancel of this one

            def still_away() -> bool:
                return t.presence.away(seat)

            await self.play(t, seat, choice, version, still_away if stand_in else None)
        except asyncio.CancelledError:
            raise
        except ServerError as exc:
            if exc.code not in ("stale_version", "game_over", "not_your_turn", "returned"):
                log.warning("bot move at table %s failed: %s", t.row.code, exc.message)
        except Exception:
            if not self.closing:
                log.exception("bot move at table %s failed", t.row.code)

    async def _time_out(self, t: Table, plan: Plan) -> None:
        """A turn-based table's deadline passed: record it once per turn, tell everyone, and
        play the decision by the table's rule."""
        seat, version = plan.seat, plan.version
        deadline = t.turn.deadline
        if deadline is None or self.clock.now_ms() < deadline:
            # Woken a little early (or the deadline moved meanwhile): wait again.
            if t.turn.plan == plan:
                t.turn.task = None
                self.schedule(t)
            return
        game = t.game
        assert game is not None
        rule = t.row.on_timeout or "stand_in"
        if not any(u["seat"] == seat and u["deadline"] == deadline for u in t.timeouts):
            entry = await asyncio.to_thread(
                t.store.add_timeout, t.id, seat, deadline, rule, version, len(game.state.log)
            )
            if entry is not None:
                t.timed_out(entry)
                await self.bus.publish({"kind": "timeout", "table": t.id, "timeout": entry})
        if t.version != version or t.game is not game:
            return
        choice: Action | dict[str, Any] | None
        if rule == "skip":
            choice = skip_action(game)
        else:
            choice = await self._choose(t, game, seat, version, STAND_IN)
            if choice is None:
                return
        t.turn.task = None  # playing it schedules the next decision: not a cancel of this one
        await self.play(t, seat, choice, version, None)

    async def _choose(
        self, t: Table, game: Game, seat: int, version: int, level: str
    ) -> Action | dict[str, Any] | None:
        """A bot's choice for ``seat`` on ``version`` (``None``: the game moved on while it
        thought)."""
        if needs_full_view(level):
            view = game.view(seat, log_from=0)
            legal = [a.to_json() for a in game.legal_actions()]
            options = dict(t.row.options)
            seed = bot_seed(t, version, seat)
            choice = await self.pool.choose(level, seed, seat, view, legal, options)
            return None if t.version != version else choice
        # A light bot decides in this step, on the game as it is now (the stand-in's awaits
        # before may have let it move on: then nothing is played).
        if t.version != version or t.game is not game:
            return None
        return self._light_choice(t, game, seat, version, level)

    def _light_choice(self, t: Table, game: Game, seat: int, version: int, level: str) -> Action:
        """A light bot's choice for ``seat`` on ``game`` at ``version``, made now."""
        view = light_view(game, seat, level)
        return self.pool.decide(level, bot_seed(t, version, seat), view, game.legal_actions())
