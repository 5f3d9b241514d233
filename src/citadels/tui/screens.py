"""The screens around the table: the hot-seat guard, card help, the final score, messages."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from citadels import present
from citadels.tui.scores import score_table
from citadels.tui.table import Words, character_label, colour_tag


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
    rematch (``r``) or to leave (``q``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "leave", show=False),
    ]

    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    EndScreen #end-box { width: 110; max-width: 100%; height: auto; max-height: 100%;
                         overflow-y: auto; border: double $accent;
                         padding: 1 2; }
    """

    def __init__(
        self,
        words: Words,
        result: dict[str, Any],
        extra: Text | None = None,
        cities: RenderableType | None = None,
    ) -> None:
        super().__init__()
        self.words = words
        self.result = result
        self.extra = extra
        self.cities = cities

    def compose(self) -> ComposeResult:
        with Center(), Vertical(id="end-box"):
            yield Static(self._body(), id="end-text")

    def _body(self) -> RenderableType:
        return score_table(self.words, self.result, self.extra, self.cities)

    def action_rematch(self) -> None:
        """Play again with the same setup."""
        self.dismiss("rematch")

    def action_leave(self) -> None:
        """Leave the game."""
        self.dismiss("quit")
