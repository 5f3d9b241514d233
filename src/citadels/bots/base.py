"""The bot protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from citadels.engine.actions import Action


@runtime_checkable
class Bot(Protocol):
    """A player: given its seat's view and the legal actions, it returns one of them."""

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Pick one of ``legal_actions``, knowing only ``view``."""
        ...
