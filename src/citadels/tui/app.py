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

from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.driver import Driver
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from citadels import present
from citadels.engine.actions import Action
from citadels.errors import CitadelsError
from citadels.present.errors import error_text, error_with_detail
from citadels.present.i18n import LANGUAGE_NAMES, LANGUAGES
from citadels.present.menu import MenuEntry, menu_entries
from citadels.review import DEFAULT_BUDGET, hint
from citadels.tui import table as tbl
from citadels.tui.commands import Commands
from citadels.tui.driver import bidi_free
from citadels.tui.review import HintLine, HintScreen, ReviewJobs, ReviewScreen, run_hint
from citadels.tui.screens import CityScreen, ConfirmScreen, EndScreen, HelpScreen, PassScreen
from citadels.tui.session import SaveError, Session

#: The smallest terminal the table fits in (columns, rows).
MIN_SIZE = (80, 24)

#: From this width on, the table has room for every column.
WIDE = 110

#: From this width on, the hand has its own panel (each card with its power) beside the menu;
#: below it, the hand is one line of chips on the table.
HAND_PANEL = 120

#: From this height on, the draft's menu shows each character's power under its name; below
#: it, the power of the highlighted choice's card is shown under the menu.
TALL = 40

#: The menu's marks: the action ends the turn; it harms the player's own city.
ENDS_TURN = "⇥"
HARMS_SELF = "⚠"

#: How many events of the log are drawn again when another person takes the screen.
LOG_KEEP = 150

#: The narration paces a player may choose, in seconds between two bot moves.
PACES: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0, 1.5, 2.5)
DEFAULT_PACE = 1.0


class ActionMenu(OptionList):
    """The menu of legal actions: arrows and Enter, or a number (two digits past nine) to
    choose at once; a letter starts typing an action."""

    def on_key(self, event: events.Key) -> None:
        """A digit chooses (or starts choosing) the option of that number; a letter starts
        typing an action in the typing line."""
        char = event.character
        app = self.app
        assert isinstance(app, PlayApp)
        focused = app.focused
        if focused is not None and focused is not self:
            # A key that came in the same burst as a letter which moved the focus to the
            # typing line (keys are queued at the widget focused when they arrive): it
            # belongs to the typing line too, a space or Enter included.
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, char))
            return
        # Any script's digits: a Persian keyboard types ``۱`` for the first option.
        if char is not None and char.isdecimal():
            event.stop()
            event.prevent_default()
            app.menu_digit(int(char))
        elif char is not None and char.isalpha():
            event.stop()
            event.prevent_default()
            typed = app.query_one("#typed", Input)
            # At once, not by ``focus()`` (which waits its turn after the keys already
            # queued): the rest of a burst of keys (a fast typist, a paste) then reaches the
            # typing line too, a space included (in the menu Space skips).
            self.screen.set_focus(typed)
            typed.insert_text_at_cursor(char)


class DecisionBox(Vertical):
    """The box of the menu. What fits in it besides the menu depends on its size, which is
    known only once the layout has run: so it is decided again at each of its resizes, not
    at the app's (whose handler runs before the boxes have their new sizes)."""

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the legend and the card's power to the new size."""
        app = self.app
        if isinstance(app, PlayApp):
            app.fit_to_box()


class EventLog(RichLog):
    """The narration: each event wrapped to the panel's width (drawn again when the width
    changes, so a line never loses its end), the newest at the bottom."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=1, **kwargs)
        # PgUp and PgDn scroll it from anywhere; Tab goes between the menu, the typing line
        # and the hand only.
        self.can_focus = False
        self.entries: list[Text] = []
        self._wrapped_at = 0
        # Whether the newest line is in sight: then it stays so when the panel gets shorter
        # (a city on the table wraps onto one more line), not only when a line is added.
        self._following = True

    def add(self, text: Text) -> None:
        """Append one event (or rule) to the narration."""
        self.entries.append(text)
        if len(self.entries) > 2 * LOG_KEEP:
            del self.entries[:LOG_KEEP]
        self.write(text)

    def reset(self) -> None:
        """Forget every line (another reader, another language)."""
        self.entries.clear()
        self.clear()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._following = round(new_value) >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at the new width; keep the newest line in sight when it
        was (a shorter panel would otherwise hide the last lines under its border)."""
        width = event.size.width
        if self._wrapped_at and width != self._wrapped_at and self.entries:
            self.call_after_refresh(self._rewrap)
        elif self._following:
            self.call_after_refresh(self.show_newest)
        self._wrapped_at = width

    def _rewrap(self) -> None:
        self.clear()
        for text in self.entries:
            self.write(text, scroll_end=False)
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def show_newest(self) -> None:
        """Scroll to the newest event (at every decision)."""
        self.scroll_end(animate=False, immediate=False, x_axis=False)


class PlayApp(App[str]):
    """The terminal game. ``run()`` returns why it ended: ``"quit"`` (saved) or ``"over"``."""

    TITLE = "Citadels"

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #table { height: auto; padding: 0 1; border: round $primary; border-title-style: bold; }
    #bottom { height: 1fr; min-height: 6; }
    #mine { width: 3fr; border: round $success; border-title-style: bold; display: none; }
    Screen.handpanel #mine { display: block; }
    #hand { height: 1fr; border: none; padding: 0; }
    #mychars { height: auto; padding: 0 1; }
    #decide { width: 4fr; border: round $warning; border-title-style: bold;
              border-subtitle-color: $text-muted; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #menu { height: 1fr; border: none; padding: 0; scrollbar-size-vertical: 1; }
    #detail.empty, #status.empty { display: none; }
    #detail { height: auto; padding: 0 1; color: $text-muted; text-style: italic; }
    #typed { height: 1; border: none; padding: 0 1; background: $boost; }
    #typed:focus { background: $accent 30%; }
    #status { height: auto; padding: 0 1; }
    #log { width: 3fr; border: round $secondary; border-title-style: bold;
           padding: 0 1; scrollbar-size-vertical: 1; overflow-x: hidden; overflow-y: scroll; }
    #keys { height: auto; background: $primary-background; color: $text-muted; padding: 0 1; }
    #too-small { display: none; }
    Screen.small #too-small { display: block; width: 100%; height: 100%;
                              content-align: center middle; text-style: bold; }
    Screen.small #title, Screen.small #table, Screen.small #bottom, Screen.small #keys {
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
        Binding("f4", "cities", show=False, priority=True),
        Binding("f5", "hint", show=False, priority=True),
        Binding("question_mark", "help", show=False),
        Binding("plus", "faster", show=False),
        Binding("minus", "slower", show=False),
        Binding("space", "skip", show=False),
        Binding("pageup", "log_page(-1)", show=False, priority=True),
        Binding("pagedown", "log_page(1)", show=False, priority=True),
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
        commands: Commands | None = None,
        review_budget: int = DEFAULT_BUDGET,
        hint_budget: int = DEFAULT_BUDGET,
    ) -> None:
        super().__init__()
        self.review_budget = review_budget
        self.hint_budget = hint_budget
        self._reviews: ReviewJobs | None = None
        self._hint_moment: tuple[int, int] | None = None
        self._hint_result: tuple[list[HintLine] | None, str | None] | None = None
        self._hint_screen: HintScreen | None = None
        self.session = session
        self.pace = pace
        self.handle_signals = handle_signals
        self.commands = commands or Commands()
        self.skipping = False
        self.viewer: int | None = None if session.hotseat else session.humans[0]
        self._entries: list[MenuEntry] = []
        self._prompted = False
        self._thinking: int | None = None
        self._token = 0
        self._logged = 0
        self._log_viewer: int | None = -1
        self._spinner = 0
        self._digits = ""
        self.saved_to: str | None = None
        self.save_error: str | None = None
        self._words = self._make_words()
        self._drawn_size = (0, 0)
        self._pause: Timer | None = None
        self._view: dict[str, Any] | None = None
        self._keys: RenderableType = Text("")
        self._keys_h = 1
        self._panel: tuple[tuple[Any, ...], RenderableType] | None = None

    def _table_screen(self) -> Screen[Any]:
        """The screen the table is drawn on: the bottom of the stack.

        ``App.query_one`` looks only in the screen on top, which may be a dialog (a card, a
        hint, the end of the game) when a menu highlight or a bot's move redraws the table.
        """
        return self.screen_stack[0]

    @property
    def _legal(self) -> list[Action]:
        """The legal actions in the order of the menu (what the numbers count)."""
        return [e.action for e in self._entries]

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="table")
        with Horizontal(id="bottom"):
            with Vertical(id="mine"):
                yield Static(id="mychars")
                yield OptionList(id="hand")
            with DecisionBox(id="decide"):
                yield Static(id="prompt")
                yield ActionMenu(id="menu")
                yield Static(id="detail")
                yield Input(id="typed", select_on_focus=False)
                yield Static(id="status")
            yield EventLog(id="log")
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

    def get_driver_class(self) -> type[Driver]:
        """The platform's terminal driver, writing no bidi controls (see :mod:`.driver`)."""
        return bidi_free(super().get_driver_class())

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
        self._table_screen().query_one("#table").border_title = tr.gettext("The table")
        self._table_screen().query_one("#log").border_title = tr.gettext("What happened")
        self._table_screen().query_one("#mine").border_title = tr.gettext("Your hand")
        self._table_screen().query_one("#decide").border_title = tr.gettext("Your move")
        self._table_screen().query_one("#typed", Input).placeholder = tr.gettext(
            "type an action's name, then Enter"
        )
        self._show_keys()

    def _show_keys(self) -> None:
        """The keys line: what the keys do where the focus is (the menu or the typing line),
        the most needed first, in at most two lines (``?`` lists them all)."""
        if not self.screen_stack:
            # A focus event can still arrive while the app shuts down, after its last screen
            # is gone: there is no keys line left to draw.
            return
        items = self._key_items()
        width = max(1, self.size.width - 2)
        while True:
            keys = tbl.Flow([Text(i + " ·") for i in items[:-1]] + [Text(items[-1])], gap=1)
            if len(items) <= 3 or self._height_of(keys, width) <= 2:
                break
            items = [*items[:-2], items[-1]]  # the last ("Ctrl+Q quit") always stays
        self._keys = keys
        self._keys_h = self._height_of(keys, width)
        self._table_screen().query_one("#keys", Static).update(keys)

    def _key_items(self, *, typing: bool | None = None) -> list[str]:
        tr = self.tr
        if typing is None:
            typing = isinstance(self.focused, Input)
        if typing:
            return [
                tr.gettext("Enter play it"),
                tr.gettext("Esc back to the menu"),
                tr.gettext("Tab next panel"),
                tr.gettext("PgUp/PgDn log"),
                tr.gettext("Ctrl+Q quit"),
            ]
        return [
            tr.gettext("1-9 ↑↓ Enter choose"),
            tr.gettext("letters type"),
            tr.gettext("Tab typing line"),
            tr.gettext("? card"),
            tr.gettext("F4 cities"),
            tr.gettext("F5 hint"),
            tr.gettext("Space skip"),
            tr.gettext("PgUp/PgDn log"),
            tr.gettext("Ctrl+S save"),
            tr.gettext("F3 language"),
            tr.gettext("+/- pace"),
            tr.gettext("Ctrl+Q quit"),
        ]

    def on_descendant_focus(self, _event: events.DescendantFocus) -> None:
        self._show_keys()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)
        if (event.size.width, event.size.height) != self._drawn_size:
            # Drawn once the new size is the app's own: during this event ``self.size`` may
            # still be the old one, and a table measured for it would crowd out the menu.
            self.call_after_refresh(self._redraw_for_size)

    def _redraw_for_size(self) -> None:
        if self.size != self._drawn_size:
            self.refresh_table()

    def fit_to_box(self) -> None:
        """What the menu's box holds besides the menu, for its present size: the legend of
        the marks and the highlighted card's power (see ``DecisionBox``)."""
        if self._prompted:
            self._mark_legend()
            self._show_detail()

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self._table_screen().set_class(small, "small")
        self._table_screen().set_class(width >= HAND_PANEL, "handpanel")
        if small:
            self._table_screen().query_one("#too-small", Static).update(
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
        self._digits = ""
        view = game.view(seat, log_from=game.log_size)
        w = self._words
        self._entries = menu_entries(game, seat, view, w.lang, list(w.names))
        menu = self._table_screen().query_one("#menu", ActionMenu)
        menu.clear_options()
        menu.add_options(self._menu_options(view))
        first = next(i for i, o in enumerate(menu.options) if not o.disabled)
        menu.highlighted = first
        self._table_screen().query_one("#prompt", Static).update(self._prompt_text(view))
        self._status("")
        self._mark_legend()
        self.refresh_table(view)
        typed = self._table_screen().query_one("#typed", Input)
        if not (isinstance(self.focused, Input) and typed.value):
            typed.value = ""
            menu.focus()
        self._table_screen().query_one("#log", EventLog).show_newest()

    def _mark_legend(self) -> None:
        """Under the menu's box, what its marks mean (those the menu has, as many as fit)."""
        marks = []
        if any(e.ends_turn for e in self._entries):
            marks.append(ENDS_TURN + " " + self.tr.gettext("ends the turn"))
        if any(e.harms_self for e in self._entries):
            marks.append(HARMS_SELF + " " + self.tr.gettext("harms you"))
        box = self._table_screen().query_one("#decide")
        room = box.size.width - 6
        while marks and cell_len("  ".join(marks)) > room:
            marks.pop()
        box.border_subtitle = "  ".join(marks)

    def _menu_options(self, view: dict[str, Any]) -> list[Option]:
        """The menu as options: numbered choices, a heading over each group of two or more
        choices aimed at one seat, the marks of the choices that end the turn or harm the
        player's own city."""
        w = self._words
        tr = self.tr
        drafting = view.get("phase") == "selection" and self.size.height >= TALL
        width = len(tr.number(len(self._entries)))
        groups: dict[int | None, int] = {}
        for entry in self._entries:
            groups[entry.target] = groups.get(entry.target, 0) + 1
        options: list[Option] = []
        heading: int | None = None
        for i, entry in enumerate(self._entries):
            target = entry.target
            if target is not None and target != heading and groups[target] > 1:
                heading = target
                title = Text("▸ ", "bold cyan")
                title.append(w.name(target), "bold cyan")
                if target == view.get("seat"):
                    title.append(" " + tr.gettext("(you)"), "italic cyan")
                title.append("  ")
                title.append_text(
                    tbl.city_summary(w, view["players"][target], view.get("complete_at"))
                )
                options.append(Option(title, disabled=True))
            elif target is None:
                heading = None
            label = Text()
            if entry.harms_self:
                label.append(HARMS_SELF + " ", "bold red1")
            label.append(entry.label)
            if entry.ends_turn:
                # A no-break space: the mark never wraps onto a line of its own.
                label.append("\u00a0" + ENDS_TURN, "dim")
            character = getattr(entry.action, "character", None)
            if drafting and isinstance(character, str) and character in w.edition.characters:
                power = present.card_info(w.edition, character, w.lang).power
                if power:
                    label.append("\n" + power, "italic dim")
            # The number in a column of its own: a long choice wraps under its own words,
            # not under the numbers.
            row = Table.grid()
            row.add_column(no_wrap=True)
            row.add_column(ratio=1)
            row.add_row(Text(tr.number(i + 1).rjust(width) + " ", "bold"), label)
            options.append(Option(row, id=f"act:{i}"))
        return options

    def _option_index(self, entry: int) -> int | None:
        """The menu's option index of the ``entry``-th choice."""
        menu = self._table_screen().query_one("#menu", ActionMenu)
        for index, option in enumerate(menu.options):
            if option.id == f"act:{entry}":
                return index
        return None

    def _highlighted_entry(self) -> MenuEntry | None:
        menu = self._table_screen().query_one("#menu", ActionMenu)
        option = menu.highlighted_option
        if not self._prompted or option is None or not (option.id or "").startswith("act:"):
            return None
        index = int((option.id or "")[4:])
        return self._entries[index] if index < len(self._entries) else None

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
        menu = self._table_screen().query_one("#menu", ActionMenu)
        menu.clear_options()
        self._table_screen().query_one("#detail", Static).update("")
        self._table_screen().query_one("#detail", Static).add_class("empty")
        self._entries = []
        self._digits = ""
        self._table_screen().query_one("#typed", Input).value = ""
        self._table_screen().query_one("#prompt", Static).update("")
        self._table_screen().query_one("#decide").border_subtitle = ""

    # --- a person decides -----------------------------------------------------------------

    def menu_digit(self, digit: int) -> None:
        """A digit pressed in the menu: the choice of that number at once, or, when a longer
        number starts so (a menu of more than nine choices), the first digit of it: the
        choice is highlighted, Enter plays it and another digit makes the number longer."""
        count = len(self._entries)
        if not self._prompted or not count:
            return
        number = int(self._digits + str(digit))
        if not 1 <= number <= count:
            self._digits = ""
            self._status(
                self.tr.gettext(
                    "there is no choice {index}: choose from 1 to {n}", index=number, n=count
                ),
                error=True,
            )
            return
        index = self._option_index(number - 1)
        menu = self._table_screen().query_one("#menu", ActionMenu)
        if index is not None:
            menu.highlighted = index
        if number * 10 > count:
            self._digits = ""
            self.choose(number - 1)
            return
        self._digits = str(number)
        self._status(
            self.tr.gettext(
                "{number}: Enter plays it, or type another digit",
                number=self.tr.number(number),
            )
        )

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "menu" and self._prompted:
            if not self._table_screen().query("#table"):
                # The menu's highlight, posted as the prompt filled it, can be handled after
                # the app began to close and took the table down: nothing is left to redraw.
                return
            view = self._view
            if view is not None and view.get("seat") == self.viewer:
                # Only the table's city in full may change (to the seat now aimed at).
                width, height = self.size
                self._table_screen().query_one("#table", Static).update(
                    self._table_panel(view, width, height)
                )
            self._show_detail()

    def _show_detail(self) -> None:
        """Under the menu: what the card of the highlighted choice does (unless the menu
        already says it)."""
        detail = self._table_screen().query_one("#detail", Static)
        entry = self._highlighted_entry()
        view = self._view
        card = None
        if entry is not None and view is not None:
            card = tbl.action_card(self._words, entry.action, view)
        drafting = view is not None and view.get("phase") == "selection"
        if card is None or (drafting and self.size.height >= TALL):
            detail.update("")
            detail.add_class("empty")
            return
        info = present.card_info(self._words.edition, card, self._words.lang)
        text = Text(f"{info.name}: {info.power}" if info.power else "")
        # Only where the menu keeps room for every choice (else ``?`` explains the card).
        box = self._table_screen().query_one("#decide")
        width = box.content_region.width - 2
        menu = self._table_screen().query_one("#menu", ActionMenu)
        needed = sum(
            self._height_of(
                o.prompt if isinstance(o.prompt, (Text, Table)) else str(o.prompt), width
            )
            for o in menu.options
        )
        needed += self._height_of(self._prompt_text(view), width) + 2 if view else 0
        room = box.content_region.height - needed
        fits = self._height_of(text, width) <= room
        detail.update(text if fits else "")
        detail.set_class(not fits or not text, "empty")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "menu" or not self._prompted:
            return
        option_id = event.option.id or ""
        if option_id.startswith("act:"):
            self.choose(int(option_id[4:]))

    def choose(self, index: int) -> None:
        """The ``index``-th choice of the menu: played, after a confirmation if it harms the
        player's own city."""
        if not 0 <= index < len(self._entries):
            return
        entry = self._entries[index]
        if not entry.harms_self:
            self.play(entry.action)
            return
        question = self.tr.gettext("This harms your own city: {action}?", action=entry.label)

        def answered(yes: bool | None) -> None:
            if yes and self._prompted and entry in self._entries:
                self.play(entry.action)

        self.push_screen(ConfirmScreen(self._words, question), answered)

    def on_input_changed(self, event: Input.Changed) -> None:
        """While typing, the choice the text already names is highlighted in the menu."""
        if event.input.id != "typed" or not self._prompted or not event.input.is_attached:
            return  # (not attached: a change still queued while the app shuts down)
        text = event.value.strip()
        found = self._parse(text) if text else None
        if isinstance(found, int):
            index = self._option_index(found)
            if index is not None:
                self._table_screen().query_one("#menu", ActionMenu).highlighted = index
            self._status(self.tr.gettext("Enter: {action}", action=self._entries[found].label))
        else:
            self._status("")

    def _parse(self, text: str) -> int | CitadelsError:
        """The index in the menu of the choice ``text`` names, or the error saying why not."""
        game = self.session.game
        view = game.view(game.to_move, log_from=game.log_size)
        w = self._words
        try:
            action = present.parse_action(text, self._legal, view, w.lang, list(w.names))
        except CitadelsError as exc:
            return exc
        return self._legal.index(action)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "typed" or not self._prompted:
            return
        text = event.value.strip()
        if not text:
            return
        found = self._parse(text)
        if isinstance(found, CitadelsError):
            self._status(self._fitting_error(str(found)), error=True)
            return
        self.choose(found)

    def _fitting_error(self, message: str) -> str:
        """What typed text that names no choice is answered in the menu's box: the whole
        message if the menu keeps room for a few choices beside it, else without the list of
        what is possible (the menu shows it), else cut at a word with an ellipsis."""
        box = self._table_screen().query_one("#decide")
        width = max(1, box.content_region.width - 2)
        prompt = self._table_screen().query_one("#prompt", Static)
        # The prompt, three lines of the menu and the typing line stay.
        room = max(1, box.content_region.height - prompt.size.height - 4)

        def fits(text: str) -> bool:
            return self._height_of(Text(text), width) <= room

        if fits(message):
            return message
        tr = self.tr
        possible = tr.gettext(
            "possible now: {choices}", choices=tr.gettext("; ").join(e.label for e in self._entries)
        )
        if possible in message:
            message = message.replace(possible, "").rstrip(" ;؛")
            if fits(message):
                return message
        words = message.split(" ")
        while len(words) > 1 and not fits(" ".join(words) + " …"):
            words.pop()
        return " ".join(words) + " …"

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
        # Back to the menu: the next decision's number keys choose again.
        self._table_screen().query_one("#menu", ActionMenu).focus()
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
        self._table_screen().query_one("#prompt", Static).update(
            Text(self.tr.gettext("Waiting for {name}", name=self._words.name(seat)), "dim")
        )
        self._token += 1
        token = self._token
        if self._paced:
            self.refresh_table()
        else:
            self._refresh_title()
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
            # Each move is drawn and stays on screen for the pace before the next one; the
            # menu's box names the seat the title bar names, the one to move next.
            self._waiting_line()
            self.refresh_table()
            self._pause = self.set_timer(self.pace, self._pause_over)
        else:
            # No pause: the table is drawn again when a person must decide (or the end).
            self.call_later(self.advance)

    def _waiting_line(self) -> None:
        """Between two moves: the menu's box waits for the next seat to move if a bot plays
        it (a person's menu comes next otherwise); nobody is thinking yet."""
        game = self.session.game
        nxt = game.to_move
        text = Text("")
        if nxt is not None and not game.is_over and not self.session.is_human(nxt):
            text = Text(self.tr.gettext("Waiting for {name}", name=self._words.name(nxt)), "dim")
        self._table_screen().query_one("#prompt", Static).update(text)
        self._status("")

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
        cities = tbl.players_table(self._words, final, compact=self.size.width < WIDE)
        extra = None
        if self.saved_to:
            tr = self.tr
            extra = Text(tr.gettext("The game record is in {path}", path=self.saved_to), "dim")
            extra.append("\n" + tr.gettext("Replay it with:") + " ", "dim")
            extra.append(self.commands.replay(self.saved_to), "bold")
        end = EndScreen(self._words, final["result"], extra, cities, on_review=self.show_review)
        self.push_screen(end, self._after_end)

    def show_review(self) -> None:
        """The review of the player's seat (the first person's; any seat with ← →), computed
        in a thread the first time, kept for the next (docs/review.md)."""
        game = self.session.game
        if not game.is_over:
            return
        if self._reviews is None:
            self._reviews = ReviewJobs(game, self.review_budget)
        humans = self.session.humans
        seat = humans[0] if humans else 0
        self.push_screen(ReviewScreen(self._words, self._reviews, seat))

    def _stop_reviews(self) -> None:
        if self._reviews is not None:
            self._reviews.stop_all()
            self._reviews = None

    def _after_end(self, choice: str | None) -> None:
        self._stop_reviews()
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
        self._view = view
        width, height = self.size
        self._drawn_size = (width, height)
        self._refresh_title(view)
        self._table_screen().query_one("#table", Static).update(
            self._table_panel(view, width, height)
        )
        self._refresh_mine(view)
        self._refresh_log()
        if self._thinking is not None:
            self._show_thinking()

    def _refresh_title(self, view: dict[str, Any] | None = None) -> None:
        game = self.session.game
        if view is None:
            view = game.view(self.viewer, log_from=game.log_size)
        thinking = self._thinking is not None
        compact = self.size.width < WIDE
        self._table_screen().query_one("#title", Static).update(
            tbl.header_line(self._words, view, thinking=thinking, compact=compact)
        )

    def _focus_seat(self, view: dict[str, Any]) -> int | None:
        """The seat whose city the table shows in full when there is no room for all: the
        one the highlighted choice is aimed at, else the viewer."""
        entry = self._highlighted_entry()
        if entry is not None and entry.target is not None:
            return entry.target
        seat = view.get("seat")
        return seat if isinstance(seat, int) else None

    def _table_panel(self, view: dict[str, Any], width: int, height: int) -> RenderableType:
        """The richest table that leaves the menu and the log room: every city in full and
        both legends if they fit, else fewer legends, else one city in full (the focus
        seat's), else every city in one line."""
        w = self._words
        focus = self._focus_seat(view)
        game = self.session.game
        key = (len(game.actions), view.get("seat"), w.lang, width, height, focus, self._keys_h)
        if self._panel is not None and self._panel[0] == key:
            return self._panel[1]
        compact = width < WIDE
        hand = width < HAND_PANEL
        # What stays for the rest: the title, the keys line (two lines when narrow), the
        # panel's borders and the bottom row (menu and log) at its smallest.
        keys = self._keys_h
        bottom = 11 if height < 30 else max(12, (height - 1 - keys) * 2 // 5)
        budget = height - 1 - keys - 2 - bottom
        inner = width - 4
        one = {focus} if focus is not None else set()
        # Each part is measured once; the variants, richest first, are sums of parts.
        heights: dict[Any, int] = {}

        def measure(part: Any) -> int:
            if part not in heights:
                kind, arg = part
                if kind == "track":
                    made: RenderableType = tbl.character_track(w, view, legend=arg)
                elif kind == "players":
                    made = tbl.players_table(w, view, compact=compact, expanded=arg)
                elif kind == "hand":
                    made = tbl.hand_line(w, view)
                else:
                    made = tbl.colour_legend(w)
                heights[part] = self._height_of(made, inner)
            return heights[part]

        variants: list[tuple[frozenset[int] | None, bool, bool]] = [
            (None, True, True),
            (None, True, False),
            (frozenset(one), True, False),
            (frozenset(one), False, False),
            (frozenset(), True, False),
            (frozenset(), False, False),
        ]
        chosen = variants[-1]
        for expanded, legend, marks in variants:
            total = measure(("track", marks)) + measure(("players", expanded))
            total += measure(("hand", None)) if hand else 0
            total += measure(("legend", None)) if legend else 0
            if total <= budget:
                chosen = (expanded, legend, marks)
                break
        expanded, legend, marks = chosen
        panel = tbl.table_panel(
            w, view, compact=compact, hand=hand, expanded=expanded, legend=legend, marks=marks
        )
        self._panel = (key, panel)
        return panel

    def _height_of(self, renderable: RenderableType, width: int) -> int:
        console = self.console
        options = console.options.update(width=max(1, width), height=None)
        return len(console.render_lines(renderable, options, pad=False))

    def _refresh_mine(self, view: dict[str, Any]) -> None:
        w = self._words
        tr = self.tr
        hand = self._table_screen().query_one("#hand", OptionList)
        mychars = self._table_screen().query_one("#mychars", Static)
        mine = self._table_screen().query_one("#mine")
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
        log = self._table_screen().query_one("#log", EventLog)
        game = self.session.game
        viewer = self.viewer
        if viewer != self._log_viewer:
            # Another reader: his own log, only its latest part (a view's log has one entry
            # for each event of the game, so the indices are the game's).
            log.reset()
            self._log_viewer = viewer
            skipped = max(0, game.log_size - LOG_KEEP)
            if skipped:
                log.add(
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
                log.add(
                    Text("── " + self.tr.gettext("since your last decision") + " ──", "bold cyan")
                )
            log.add(tbl.event_line(w, event))
        self._logged += len(events)

    def _status(self, message: str, *, error: bool = False) -> None:
        status = self._table_screen().query_one("#status", Static)
        status.update(Text(message, "bold red1" if error else "italic"))
        status.set_class(not message, "empty")

    # --- keys -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space types a space in the typing line (it skips only elsewhere); PgUp and PgDn
        scroll the log only on the table's screen (a screen above scrolls its own text)."""
        if action == "log_page" and len(self.screen_stack) > 1:
            return False
        return not (action == "skip" and isinstance(self.focused, Input))

    def action_help(self) -> None:
        """Explain the card under the cursor (in the menu or in the hand)."""
        focused = self.focused
        card: str | None = None
        if isinstance(focused, OptionList) and focused.id == "hand":
            option = focused.highlighted_option
            if option is not None and option.id and option.id.startswith("card:"):
                card = option.id.split(":")[1]
        else:
            entry = self._highlighted_entry()
            if entry is not None:
                seat = self.session.game.to_move
                view = self.session.game.view(seat, log_from=self.session.game.log_size)
                card = tbl.action_card(self._words, entry.action, view)
        self.push_screen(HelpScreen(self._words, card))

    def action_cities(self) -> None:
        """Every seat's city in full, each district with its power (F4): the seat the
        highlighted choice is aimed at first, else the viewer's."""
        game = self.session.game
        view = game.view(self.viewer, log_from=game.log_size)
        entry = self._highlighted_entry()
        first = entry.target if entry is not None and entry.target is not None else None
        if first is None:
            first = self.viewer if self.viewer is not None else 0
        self.push_screen(CityScreen(self._words, view, first))

    def action_hint(self) -> None:
        """The best few actions now with their estimated win chances (F5), from the seat's
        view alone, searched in a thread; asked again at the same moment, shown at once."""
        game = self.session.game
        seat = game.to_move
        if not self._prompted or seat is None or game.is_over or self.viewer != seat:
            self.notify(self.tr.gettext("A hint is for your own decision."), timeout=3)
            return
        if isinstance(self.screen, HintScreen):
            return
        screen = HintScreen(self._words, self._words.name(seat))
        self._hint_screen = screen
        moment = (len(game.actions), seat)
        if self._hint_moment == moment:  # asked before at this moment: its answer, or soon
            if self._hint_result is not None:
                screen.show(*self._hint_result)
            self.push_screen(screen, self._hint_closed)
            return
        self._hint_moment = moment
        self._hint_result = None
        if len(self._entries) < 2:  # nothing to compare: no search
            self._hint_result = ([], None)
            screen.show([])
            self.push_screen(screen, self._hint_closed)
            return
        # Read here, in the interface's thread: the thread gets a view and nothing else.
        view = game.view(seat)
        options = game.record()["options"]
        entries = list(self._entries)
        budget = self.hint_budget

        def compute() -> list[HintLine]:
            found = hint(view, seat, budget, options=options)
            index = {e.action: i for i, e in enumerate(entries)}
            return [
                HintLine(index[e.action] + 1, entries[index[e.action]].label, e)
                for e in found
                if e.action in index
            ]

        def done(lines: list[HintLine] | None, error: str | None) -> None:
            with contextlib.suppress(RuntimeError):
                self.call_from_thread(self._hint_ready, moment, lines, error)

        self.push_screen(screen, self._hint_closed)
        run_hint(compute, done)

    def _hint_ready(
        self, moment: tuple[int, int], lines: list[HintLine] | None, error: str | None
    ) -> None:
        if self._hint_moment != moment:
            return  # a stale answer: the game went on meanwhile
        self._hint_result = (lines, error)
        if self._hint_screen is not None:
            self._hint_screen.show(lines, error)

    def _hint_closed(self, number: int | None) -> None:
        """Back from the hint: with a number, that choice is highlighted in the menu."""
        self._hint_screen = None
        if number is None or not self._prompted:
            return
        index = self._option_index(number - 1)
        if index is not None:
            menu = self._table_screen().query_one("#menu", ActionMenu)
            menu.highlighted = index
            menu.focus()

    def action_log_page(self, direction: int) -> None:
        """Scroll the narration back (PgUp) or on (PgDn) by a page."""
        log = self._table_screen().query_one("#log", EventLog)
        if direction < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

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
        self._stop_reviews()
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
        """Back to the menu of actions (a number being typed is forgotten)."""
        self._digits = ""
        if self._prompted:
            self._table_screen().query_one("#menu", ActionMenu).focus()
