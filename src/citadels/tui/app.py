"""``PlayApp``: the Textual application of ``citadels play``.

The app drives a :class:`~citadels.tui.session.Session`. When a person is to decide it shows
the table from that person's view and a menu of exactly the legal actions; when a bot is to
decide, the bot thinks in a worker thread (the interface keeps answering keys) and its move is
narrated at the chosen pace. In a hot-seat game a "pass to <name>" screen stands between two
people, and the table shows only public information while nobody has confirmed.
The game is saved after every move, on a key, and on leaving (Ctrl-C, Ctrl-D, Ctrl-Q, a hang-up).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from citadels import present
from citadels.engine.actions import Action
from citadels.errors import CitadelsError
from citadels.present.errors import error_text, error_with_detail
from citadels.present.i18n import LANGUAGE_NAMES, LANGUAGES
from citadels.tui import table as tbl
from citadels.tui.screens import EndScreen, HelpScreen, PassScreen
from citadels.tui.session import SaveError, Session

#: The smallest terminal the table fits in (columns, rows).
MIN_SIZE = (80, 24)

#: From this width on, the table has room for every column.
WIDE = 110

#: How many events of the log are drawn again when another person takes the screen.
LOG_KEEP = 150

#: The narration paces a player may choose, in seconds between two bot moves.
PACES: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0, 1.5, 2.5)
DEFAULT_PACE = 1.0


class ActionMenu(OptionList):
    """The menu of legal actions: arrows and Enter, or a number key to choose at once."""

    def on_key(self, event: events.Key) -> None:
        """A digit chooses the option of that number; a letter starts typing an action."""
        char = event.character
        # Any script's digits: a Persian keyboard types ``۱`` for the first option.
        if char is not None and char.isdecimal() and int(char) != 0:
            index = int(char) - 1
            if index < self.option_count:
                event.stop()
                event.prevent_default()
                self.highlighted = index
                self.action_select()
        elif char is not None and char.isalpha():
            event.stop()
            event.prevent_default()
            typed = self.app.query_one("#typed", Input)
            typed.focus()
            typed.insert_text_at_cursor(char)


class PlayApp(App[str]):
    """The terminal game. ``run()`` returns why it ended: ``"quit"`` (saved) or ``"over"``."""

    TITLE = "Citadels"

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; min-width: 34; }
    #table { height: auto; max-height: 65%; padding: 0 1; border: round $primary;
             border-title-style: bold; overflow-y: auto; }
    #mine { height: 1fr; min-height: 6; border: round $success; border-title-style: bold; }
    #hand { height: 1fr; border: none; padding: 0; }
    #mychars { height: auto; padding: 0 1; }
    #log { height: 1fr; min-height: 5; border: round $secondary; border-title-style: bold;
           padding: 0 1; scrollbar-size-vertical: 1; overflow-x: hidden; }
    #decide { height: auto; max-height: 75%; border: round $warning; border-title-style: bold; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #menu { height: auto; max-height: 100%; border: none; padding: 0; }
    #typed { height: 3; }
    #status { height: auto; padding: 0 1; }
    #keys { height: auto; background: $primary-background; color: $text-muted; padding: 0 1; }
    #too-small { display: none; }
    Screen.small #too-small { display: block; width: 100%; height: 100%;
                              content-align: center middle; text-style: bold; }
    Screen.small #title, Screen.small #main, Screen.small #keys {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "save_quit", show=False, priority=True),
        Binding("ctrl+d", "save_quit", show=False, priority=True),
        Binding("ctrl+q", "save_quit", show=False, priority=True),
        Binding("ctrl+s", "save", show=False, priority=True),
        Binding("f2", "save", show=False),
        Binding("f3", "language", show=False, priority=True),
        Binding("f1", "help", show=False, priority=True),
        Binding("question_mark", "help", show=False),
        Binding("plus", "faster", show=False),
        Binding("minus", "slower", show=False),
        Binding("space", "skip", show=False),
        Binding("tab", "focus_next", show=False),
        Binding("shift+tab", "focus_previous", show=False),
        Binding("escape", "focus_menu", show=False),
    ]

    def __init__(
        self,
        session: Session,
        *,
        pace: float = DEFAULT_PACE,
        handle_signals: bool = False,
    ) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        self.handle_signals = handle_signals
        self.skipping = False
        self.viewer: int | None = None if session.hotseat else session.humans[0]
        self._legal: list[Action] = []
        self._prompted = False
        self._thinking: int | None = None
        self._token = 0
        self._logged = 0
        self._log_viewer: int | None = -1
        self._spinner = 0
        self.saved_to: str | None = None
        self.save_error: str | None = None
        self._words = self._make_words()
        self._drawn_width = 0
        self._pause: Timer | None = None

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table")
                with Vertical(id="mine"):
                    yield Static(id="mychars")
                    yield OptionList(id="hand")
            with Vertical(id="right"):
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, max_lines=1000)
                with Vertical(id="decide"):
                    yield Static(id="prompt")
                    yield ActionMenu(id="menu")
                    yield Input(id="typed", select_on_focus=False)
                    yield Static(id="status")
        yield Static(id="keys")
        yield Static(id="too-small")

    def _make_words(self) -> tbl.Words:
        s = self.session
        levels = [None if seat.is_human else seat.kind for seat in s.seats]
        return tbl.make_words(s.game.edition, s.lang, s.names, levels)

    @property
    def tr(self) -> present.Translator:
        """The translator of the session's language."""
        return present.translator(self.session.lang)

    def on_mount(self) -> None:
        self._label_panels()
        self.set_interval(0.25, self._tick)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                    loop.add_signal_handler(sig, self._on_signal)
        self._check_size(self.size.width, self.size.height)
        self.refresh_table()
        self.call_after_refresh(self.advance)

    def _label_panels(self) -> None:
        """The titles of the panels, the input's hint and the keys line, in the language."""
        tr = self.tr
        self.query_one("#table").border_title = tr.gettext("The table")
        self.query_one("#log").border_title = tr.gettext("What happened")
        self.query_one("#mine").border_title = tr.gettext("Your hand")
        self.query_one("#decide").border_title = tr.gettext("Your move")
        self.query_one("#typed", Input).placeholder = tr.gettext(
            "type an action's name, then Enter"
        )
        self.query_one("#keys", Static).update(
            tr.gettext(
                "1-9/↑↓ Enter choose · ?/F1 explain card · Tab hand · Ctrl+S save · "
                "+/- pace · Space skip · Ctrl+Q quit"
            )
            + " · "
            + tr.gettext("F3 language")
        )

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)
        if (event.size.width < WIDE) != (self._drawn_width < WIDE):
            self.refresh_table()
        self._drawn_width = event.size.width

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.screen.set_class(small, "small")
        if small:
            self.query_one("#too-small", Static).update(
                self.tr.gettext(
                    "The terminal is too small for the table: {width}×{height}. "
                    "Please make it at least {min_width}×{min_height}; the game waits.",
                    width=width,
                    height=height,
                    min_width=MIN_SIZE[0],
                    min_height=MIN_SIZE[1],
                )
            )

    # --- the loop: whose decision is it ---------------------------------------------------

    def advance(self) -> None:
        """Move the game on: a person's menu, a bot's worker, the pass screen or the end."""
        game = self.session.game
        if self._thinking is not None or self._prompted:
            return
        if game.is_over:
            self._finish()
            return
        seat = game.to_move
        assert seat is not None
        if self.session.is_human(seat):
            self.skipping = False
            if self.session.hotseat and self.viewer != seat:
                self.viewer = None
                self.refresh_table()
                self.push_screen(PassScreen(self._words, seat), self._handed_over)
                return
            self._prompt(seat)
        else:
            self._think(seat)

    def _handed_over(self, _confirmed: bool | None = None) -> None:
        seat = self.session.game.to_move
        self.viewer = seat
        self.refresh_table()
        self.advance()

    def _prompt(self, seat: int) -> None:
        game = self.session.game
        self._prompted = True
        self._legal = game.legal_actions()
        view = game.view(seat, log_from=game.log_size)
        self.refresh_table(view)
        w = self._words
        menu = self.query_one("#menu", ActionMenu)
        menu.clear_options()
        options = []
        drafting = view.get("phase") == "selection"
        for i, action in enumerate(self._legal):
            number = self.tr.number(i + 1) if i < 9 else " "
            label = Text(f"{number} ", "bold")
            label.append(present.describe_action(action, view, w.lang, list(w.names)))
            character = getattr(action, "character", None)
            if drafting and isinstance(character, str) and character in w.edition.characters:
                power = present.card_info(w.edition, character, w.lang).power
                if power:
                    label.append("\n   " + power, "italic dim")
            options.append(Option(label))
        menu.add_options(options)
        menu.highlighted = 0
        self.query_one("#prompt", Static).update(self._prompt_text(view))
        self.query_one("#status", Static).update("")
        if not isinstance(self.focused, Input):
            menu.focus()

    def _prompt_text(self, view: dict[str, Any]) -> Text:
        tr = self.tr
        w = self._words
        if view.get("phase") == "selection":
            kind = (view.get("selection") or {}).get("kind")
            if kind == "put_aside":
                return Text(
                    tr.gettext("{name}: put a character aside face down", name=w.name(view["seat"]))
                )
            return Text(tr.gettext("{name}: choose your character", name=w.name(view["seat"])))
        turn = view.get("turn") or {}
        if turn.get("seat") == view["seat"] and turn.get("character"):
            return Text(
                tr.gettext(
                    "{name}, your turn as the {character}: what now?",
                    name=w.name(view["seat"]),
                    character=w.card(turn["character"]),
                )
            )
        return Text(tr.gettext("{name}: your decision", name=w.name(view["seat"])))

    def _clear_menu(self) -> None:
        menu = self.query_one("#menu", ActionMenu)
        menu.clear_options()
        self.query_one("#typed", Input).value = ""
        self.query_one("#prompt", Static).update("")

    # --- a person decides -----------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "menu" or not self._prompted:
            return
        index = event.option_index
        if 0 <= index < len(self._legal):
            self.play(self._legal[index])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "typed" or not self._prompted:
            return
        text = event.value.strip()
        if not text:
            return
        game = self.session.game
        seat = game.to_move
        view = game.view(seat, log_from=game.log_size)
        w = self._words
        try:
            action = present.parse_action(text, self._legal, view, w.lang, list(w.names))
        except CitadelsError as exc:
            self._status(str(exc), error=True)
            return
        event.input.value = ""
        self.play(action)

    def play(self, action: Action) -> None:
        """Play a person's chosen action for the seat to move (checked by the engine)."""
        game = self.session.game
        seat = game.to_move
        if seat is None or not self._prompted:
            return
        try:
            self.session.apply(action, seat)
        except CitadelsError as exc:
            self._status(error_text(exc, self.session.lang), error=True)
            return
        self._prompted = False
        self._clear_menu()
        self._after_move()
        nxt = game.to_move
        if self.session.hotseat and nxt != seat:
            # Nobody's private cards stay up between two people's turns.
            self.viewer = None
            self.refresh_table()
        elif nxt != seat and self._paced:
            self.refresh_table()
        self.advance()

    # --- a bot decides --------------------------------------------------------------------

    def _think(self, seat: int) -> None:
        self._thinking = seat
        self.query_one("#prompt", Static).update(
            Text(self.tr.gettext("Waiting for {name}", name=self._words.name(seat)), "dim")
        )
        self._token += 1
        token = self._token
        if self._paced:
            self.refresh_table()
        self.run_worker(
            lambda: self._bot_thread(seat, token),
            thread=True,
            group="bot",
            exit_on_error=False,
        )

    def _bot_thread(self, seat: int, token: int) -> None:
        try:
            action: Action | None = self.session.bot_choice(seat)
            error: str | None = None
        except Exception as exc:  # a bot's failure must never end the game
            action, error = None, f"{type(exc).__name__}: {exc}"
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(self._bot_done, seat, token, action, error)

    def _bot_done(self, seat: int, token: int, action: Action | None, error: str | None) -> None:
        if token != self._token or self._thinking != seat:
            return  # a stale answer (a rematch or a resume came in between)
        self._thinking = None
        game = self.session.game
        if action is None:
            fallback = game.legal_actions()[0]
            self.notify(
                self.tr.gettext(
                    "The bot of {name} failed ({error}); it plays the first choice.",
                    name=self._words.name(seat),
                    error=error or "",
                ),
                severity="error",
            )
            action = fallback
        self.session.apply(action, seat)
        self._after_move()
        if self._paced:
            # Each move is drawn and stays on screen for the pace before the next one.
            self.refresh_table()
            self._pause = self.set_timer(self.pace, self._pause_over)
        else:
            # No pause: the table is drawn again when a person must decide (or the end).
            self.call_later(self.advance)

    def _pause_over(self) -> None:
        self._pause = None
        self.advance()

    @property
    def _paced(self) -> bool:
        """Whether bot moves are shown one by one (a pace is set and not skipped)."""
        return self.pace > 0 and not self.skipping

    def _tick(self) -> None:
        if self._thinking is not None:
            self._spinner = (self._spinner + 1) % 4
            self._show_thinking()

    def _show_thinking(self) -> None:
        seat = self._thinking
        if seat is None:
            return
        dots = "." * (self._spinner + 1)
        self._status(self.tr.gettext("{name} is thinking", name=self._words.name(seat)) + dots)

    # --- after every move -----------------------------------------------------------------

    def _after_move(self) -> None:
        self._autosave()

    def _autosave(self, *, notify: bool = True) -> None:
        """Save the session when it has a file; a new failure is shown unless ``notify`` is
        off (leaving: nothing is drawn any more)."""
        if self.session.save_path is None:
            return
        try:
            self.saved_to = str(self.session.save())
            self.save_error = None
        except SaveError as exc:
            said = error_with_detail(exc, self.tr.lang)
            if notify and self.save_error != said:
                self.notify(said, severity="error", timeout=8)
            self.save_error = said

    def _finish(self) -> None:
        self._autosave()
        self.viewer = self.viewer if not self.session.hotseat else None
        self.refresh_table()
        final = self.session.game.view(None)
        cities = tbl.players_table(self._words, final)
        extra = None
        if self.saved_to:
            extra = Text(self.tr.gettext("The game record is in {path}", path=self.saved_to), "dim")
        self.push_screen(EndScreen(self._words, final["result"], extra, cities), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        if choice == "rematch":
            self.session = self.session.rematch()
            self._token += 1
            self._thinking = None
            self._prompted = False
            self.viewer = None if self.session.hotseat else self.session.humans[0]
            self._words = self._make_words()
            self._log_viewer = -1
            self.refresh_table()
            self.call_after_refresh(self.advance)
        else:
            self.exit("over")

    # --- drawing ----------------------------------------------------------------------------

    def refresh_table(self, view: dict[str, Any] | None = None) -> None:
        """Draw the table, the viewer's hand and the narration from the viewer's view."""
        game = self.session.game
        if view is None or view.get("seat") != self.viewer:
            view = game.view(self.viewer, log_from=game.log_size)  # the log is drawn apart
        self._drawn_width = self.size.width
        w = self._words
        thinking = self._thinking is not None
        compact = self.size.width < WIDE
        self.query_one("#title", Static).update(
            tbl.header_line(w, view, thinking=thinking, compact=compact)
        )
        self.query_one("#table", Static).update(tbl.table_panel(w, view, compact=compact))
        self._refresh_mine(view)
        self._refresh_log()
        if thinking:
            self._show_thinking()

    def _refresh_mine(self, view: dict[str, Any]) -> None:
        w = self._words
        tr = self.tr
        hand = self.query_one("#hand", OptionList)
        mychars = self.query_one("#mychars", Static)
        mine = self.query_one("#mine")
        me = view.get("seat")
        hand.clear_options()
        if me is None:
            mine.border_title = tr.gettext("Hidden hand")
            mychars.update(Text(tr.gettext("Hands stay hidden between two players' turns."), "dim"))
            return
        player = view["players"][me]
        mine.border_title = tr.gettext(
            "{name}'s hand: {cards}, {gold}",
            name=w.name(me),
            cards=tr.ngettext("{n} card", "{n} cards", len(player.get("hand", []))),
            gold=tr.ngettext("{n} gold", "{n} gold", player["gold"]),
        )
        mychars.update(tbl.my_characters(w, view))
        cards = player.get("hand", [])
        hand.add_options(
            [Option(tbl.hand_entry(w, d), id=f"card:{d}:{i}") for i, d in enumerate(cards)]
        )
        if cards:
            hand.highlighted = 0
        if not cards:
            hand.add_option(Option(Text(tr.gettext("(no cards)"), "dim"), disabled=True))

    def _refresh_log(self) -> None:
        log = self.query_one("#log", RichLog)
        game = self.session.game
        viewer = self.viewer
        if viewer != self._log_viewer:
            # Another reader: his own log, only its latest part (a view's log has one entry
            # for each event of the game, so the indices are the game's).
            log.clear()
            self._log_viewer = viewer
            skipped = max(0, game.log_size - LOG_KEEP)
            if skipped:
                log.write(
                    Text(
                        self.tr.ngettext("… {n} earlier event", "… {n} earlier events", skipped),
                        "dim",
                    )
                )
            self._logged = skipped
        events = game.view(viewer, log_from=self._logged)["log"]
        w = self._words
        seen = self.session.seen[viewer] if viewer is not None else None
        for i, event in enumerate(events, start=self._logged):
            if seen is not None and i == seen and seen > 0:
                log.write(
                    Text("── " + self.tr.gettext("since your last decision") + " ──", "bold cyan")
                )
            log.write(tbl.event_line(w, event))
        self._logged += len(events)

    def _status(self, message: str, *, error: bool = False) -> None:
        self.query_one("#status", Static).update(Text(message, "bold red1" if error else "italic"))

    # --- keys -------------------------------------------------------------------------------

    def action_help(self) -> None:
        """Explain the card under the cursor (in the menu or in the hand)."""
        focused = self.focused
        card: str | None = None
        if isinstance(focused, OptionList) and focused.id == "hand":
            option = focused.highlighted_option
            if option is not None and option.id and option.id.startswith("card:"):
                card = option.id.split(":")[1]
        else:
            menu = self.query_one("#menu", ActionMenu)
            index = menu.highlighted
            if self._prompted and index is not None and 0 <= index < len(self._legal):
                seat = self.session.game.to_move
                view = self.session.game.view(seat, log_from=self.session.game.log_size)
                card = tbl.action_card(self._words, self._legal[index], view)
        self.push_screen(HelpScreen(self._words, card))

    def action_save(self) -> None:
        """Save now, and say where."""
        try:
            path = self.session.save()
        except SaveError as exc:
            self.notify(error_with_detail(exc, self.tr.lang), severity="error", timeout=8)
            return
        self.saved_to = str(path)
        self.notify(self.tr.gettext("Saved to {path}", path=str(path)))

    def action_save_quit(self) -> None:
        """Save and leave (Ctrl-C, Ctrl-D, Ctrl-Q)."""
        self._autosave(notify=False)
        self.exit("quit")

    def _handle_exception(self, error: Exception) -> None:
        # A fault of the interface itself: the game is saved before Textual reports it.
        self._autosave(notify=False)
        super()._handle_exception(error)

    def _on_signal(self) -> None:
        self._autosave(notify=False)
        self.exit("quit")

    def action_language(self) -> None:
        """Switch to the next language (F3): every word on the table, the menu and the whole
        log is drawn again in it; the save keeps it."""
        session = self.session
        order = list(LANGUAGES)
        at = order.index(session.lang) if session.lang in order else -1
        session.lang = order[(at + 1) % len(order)]
        self._words = self._make_words()
        self._label_panels()
        self._log_viewer = -1  # the log is written again from its start
        game = session.game
        if self._prompted and game.to_move is not None and not game.is_over:
            self._prompt(game.to_move)
        else:
            self.refresh_table()
        self.notify(LANGUAGE_NAMES.get(session.lang, session.lang), timeout=2)

    def action_faster(self) -> None:
        """Narrate bot moves faster."""
        slower = [p for p in PACES if p < self.pace]
        self.pace = slower[-1] if slower else PACES[0]
        self._pace_note()

    def action_slower(self) -> None:
        """Narrate bot moves slower."""
        faster = [p for p in PACES if p > self.pace]
        self.pace = faster[0] if faster else PACES[-1]
        self._pace_note()

    def _pace_note(self) -> None:
        self.notify(self.tr.gettext("Bot pace: {seconds} s per move", seconds=self.pace), timeout=2)

    def action_skip(self) -> None:
        """Skip the narration pause until the next decision of a person."""
        if not self._prompted:
            self.skipping = True
            if self._pause is not None:
                # The narration pause in progress ends now too.
                self._pause.stop()
                self._pause_over()

    def action_focus_menu(self) -> None:
        """Back to the menu of actions."""
        if self._prompted:
            self.query_one("#menu", ActionMenu).focus()
