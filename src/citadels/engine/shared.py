"""The shared action instances that legal actions are built from (``actions.cached``).

Kept apart from ``actions.py`` so that it is compiled with the rest of the engine (see
``citadels.compiled``): the action classes themselves stay interpreted, but the engine asks
for a shared action many times per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from citadels.engine.actions import Action

_A = TypeVar("_A", bound="Action")

_CACHE: Final[dict[tuple[Any, ...], Any]] = {}


def cached(cls: type[_A], *args: Any) -> _A:
    """The shared instance of ``cls(*args)`` (legal actions are built from these)."""
    try:
        action: _A = _CACHE[cls, args]
        return action
    except KeyError:
        action = _CACHE[cls, args] = cls(*args)
        return action
