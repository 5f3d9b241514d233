"""The screens around the table: the hot-seat guard, card help, the cities in full, a
confirmation, the final score."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from citadels import present
from citadels.tui.scores import end_keys, score_table
from citadels.tui.table import (
    Words,
    character_label,
    city_summary,
    colour_tag,
    district_chip,
)


class PassScreen(Screen[bool]):
    """ "Pass to <name>": covers the whole table until the next person confirms, so nothing of
    the next hand is on screen before then (and nothing of the last one after)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", show=False),
    ]

    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    PassScreen #pass-box { width: 64; height: auto; border: double $accent; padding: 1 2; }
    PassScreen #pass-title { text-align: center; text-style: bold; }
    PassScreen #pass-help { text-align: center; color: $text-muted; margin-top: 1; }
    """

    def __init__(self, words: Words, seat: int) -> None:
        super().__init__()
        self.words = words
        self.seat = seat

    def compose(self) -> ComposeResult:
        tr = self.words.tr
        name = self.words.name(self.seat)
        with Vertical(id="pass-box"):
            yield Static(tr.gettext("Pass the keyboard to {name}", name=name), id="pass-title")
            yield Static(
                tr.gettext(
                    "Everyone else, look away. {name}, press Enter when you alone can see "
                    "the screen.",
                    name=name,
                ),
                id="pass-help",
            )

    def on_mount(self) -> None:
        self.title = self.words.tr.gettext(
            "Pass the keyboard to {name}", name=self.words.name(self.seat)
        )

    def action_confirm(self) -> None:
        """The named person has the screen."""
        self.dismiss(True)


class HelpScreen(ModalScreen[None]):
    """What a card does: its kind, rank or cost and colour, its power and this edition's
    rulings, in the presentation layer's words; any key in the bindings closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-box { width: 80%; max-width: 90; height: auto; max-height: 90%;
                           border: round $accent; padding: 1 2; background: $surface; }
    """

    def __init__(self, words: Words, card_id: str | None, keys: str = "") -> None:
        super().__init__()
        self.words = words
        self.card_id = card_id
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(self._text(), id="help-text")

    def _text(self) -> Text:
        w = self.words
        tr = w.tr
        text = Text()
        if self.card_id is None:
            text.append(tr.gettext("No card under the cursor."), "bold")
        else:
            info = present.card_info(w.edition, self.card_id, w.lang)
            if info.kind == "character":
                text.append(character_label(w, self.card_id), "bold underline")
                text.append("  " + tr.gettext("character"), "dim")
            else:
                text.append(info.name, "bold underline")
                if info.cost is not None:
                    text.append("  " + tr.ngettext("costs {n} gold", "costs {n} gold", info.cost))
            if info.colour_id:
                text.append("  ")
                text.append_text(colour_tag(w, info.colour_id))
            text.append("\n\n")
            text.append(info.power or tr.gettext("No special power."))
            for ruling in info.rulings:
                text.append("\n• " + ruling, "italic")
        if self.keys:
            text.append("\n\n" + self.keys, "dim")
        text.append("\n\n" + tr.gettext("Press Escape to close."), "dim")
        return text

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class EndScreen(Screen[str]):
    """The final score table with each part of the score and how ties were broken; offers a
    rematch (``r``), to leave (``q``) and, given ``on_review``, the game's review (``v``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", show=False),
        Binding("v", "review", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "leave", show=False),
    ]

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen #end-box { width: 110; max-width: 100%; height: auto; max-height: 100%;
                         border: double $accent; padding: 0 1; }
    EndScreen #end-keys { dock: bottom; height: auto; padding: 0 1; }
    """

    def __init__(
        self,
        words: Words,
        result: dict[str, Any],
        extra: Text | None = None,
        cities: RenderableType | None = None,
        on_review: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.words = words
        self.result = result
        self.extra = extra
        self.cities = cities
        self.on_review = on_review

    def compose(self) -> ComposeResult:
        # Scrolled with the arrows and PgUp/PgDn when it is taller than the terminal.
        with Center(), VerticalScroll(id="end-box"):
            yield Static(self._body(), id="end-text")
        # Below the box, always on screen however long the scores are.
        yield Static(end_keys(self.words, review=self.on_review is not None), id="end-keys")

    def on_mount(self) -> None:
        self.query_one("#end-box", VerticalScroll).focus()

    def on_resize(self, _event: Any) -> None:
        self.query_one("#end-text", Static).update(self._body())

    def _body(self) -> RenderableType:
        width = self.app.size.width - 4
        return score_table(
            self.words,
            self.result,
            self.extra,
            self.cities,
            width=width,
        )

    def action_review(self) -> None:
        """The review of the player's game (its own screen, above this one)."""
        if self.on_review is not None:
            self.on_review()

    def action_rematch(self) -> None:
        """Play again with the same setup."""
        self.dismiss("rematch")

    def action_leave(self) -> None:
        """Leave the game."""
        self.dismiss("quit")


class ConfirmScreen(ModalScreen[bool]):
    """A question to answer before a choice that harms the player himself: Enter confirms,
    Escape goes back to the menu."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", show=False),
        Binding("escape", "answer(False)", show=False),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen #confirm-box { width: 70%; max-width: 70; height: auto;
                                 border: thick $error; padding: 1 2; background: $surface; }
    """

    def __init__(self, words: Words, question: str) -> None:
        super().__init__()
        self.words = words
        self.question = question

    def compose(self) -> ComposeResult:
        tr = self.words.tr
        text = Text(self.question, "bold")
        text.append("\n\n" + tr.gettext("Enter: yes, do it · Escape: no, back to the menu"), "dim")
        with Vertical(id="confirm-box"):
            yield Static(text, id="confirm-text")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


class CityScreen(ModalScreen[None]):
    """One seat's city in full (F4): every district with its colour, cost and power, and the
    seat's gold, cards and known characters; ← and → (or Tab) go to the other seats."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("f4", "close", show=False),
        Binding("left", "turn(-1)", show=False),
        Binding("right", "turn(1)", show=False),
        Binding("tab", "turn(1)", show=False, priority=True),
        Binding("shift+tab", "turn(-1)", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    CityScreen { align: center middle; }
    CityScreen #city-box { width: 90%; max-width: 100; height: auto; max-height: 90%;
                           border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, words: Words, view: dict[str, Any], seat: int) -> None:
        super().__init__()
        self.words = words
        self.view = view
        self.seat = seat

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="city-box"):
            yield Static(self._text(), id="city-text")

    def _text(self) -> Text:
        w = self.words
        tr = w.tr
        player = self.view["players"][self.seat]
        text = Text(w.name(self.seat), "bold underline")
        if self.seat == self.view.get("seat"):
            text.append(" " + tr.gettext("(you)"), "italic")
        text.append("  ")
        text.append(tr.ngettext("{n} gold", "{n} gold", player["gold"]))
        text.append(" · ")
        text.append(tr.ngettext("{n} card", "{n} cards", player["hand_size"]))
        characters = player.get("characters", [])
        if characters:
            text.append(" · " + tr.gettext(", ").join(character_label(w, c) for c in characters))
        text.append("\n")
        text.append_text(city_summary(w, player, self.view.get("complete_at")))
        beautified = set(player.get("beautified", []))
        for district in player["city"]:
            text.append("\n")
            text.append_text(district_chip(w, district, beautified=district in beautified))
            power = present.card_info(w.edition, district, w.lang).power
            if power:
                text.append("\n    " + power, "italic dim")
        if not player["city"]:
            text.append("\n" + tr.gettext("No district built yet."), "dim")
        text.append("\n\n" + tr.gettext("← → another player · Escape: back"), "dim")
        return text

    def action_turn(self, step: int) -> None:
        """Show the next (or the previous) seat's city."""
        self.seat = (self.seat + step) % len(self.view["players"])
        self.query_one("#city-text", Static).update(self._text())

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
