"""``citadels play``: the game in a terminal (Textual), a person against bots or friends at
one screen (hot-seat).

:class:`~citadels.tui.session.Session` holds the game, its seats and its save file;
:class:`~citadels.tui.app.PlayApp` is the interface. Every word shown comes from
:mod:`citadels.present`.
"""

from citadels.tui.app import PlayApp
from citadels.tui.session import (
    SaveError,
    Seat,
    Session,
    default_save_dir,
    load_session,
    make_seats,
)

__all__ = [
    "PlayApp",
    "SaveError",
    "Seat",
    "Session",
    "default_save_dir",
    "load_session",
    "make_seats",
]
