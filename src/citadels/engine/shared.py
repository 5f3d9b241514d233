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


#: ``cached_one``'s instances: class -> argument -> the shared ``cached(class, argument)``.
_ONE: Final[dict[Any, dict[Any, Any]]] = {}


def cached_one(cls: type[_A], arg: Any) -> _A:
    """``cached(cls, arg)``, the very same instance, found by class then by argument: no
    tuple key to build, hash and compare (the actions named by one card, character, seat or
    count, listed at most decisions)."""
    by_arg = _ONE.get(cls)
    if by_arg is None:
        by_arg = _ONE[cls] = {}
    action: _A | None = by_arg.get(arg)
    if action is None:
        action = by_arg[arg] = cached(cls, arg)
    return action


#: ``cached_pair``'s instances: class -> first argument -> second argument -> the action.
_PAIR: Final[dict[Any, dict[Any, dict[Any, Any]]]] = {}


def cached_pair(cls: type[_A], first: Any, second: Any) -> _A:
    """``cached(cls, first, second)``, the very same instance, found like ``cached_one``."""
    by_first = _PAIR.get(cls)
    if by_first is None:
        by_first = _PAIR[cls] = {}
    by_second = by_first.get(first)
    if by_second is None:
        by_second = by_first[first] = {}
    action: _A | None = by_second.get(second)
    if action is None:
        action = by_second[second] = cached(cls, first, second)
    return action


def distinct_sorted(items: list[str]) -> list[str]:
    """``sorted(set(items))``, a new list: sorted first, then the repeats dropped (cards in a
    hand or a city rarely repeat). Compiled with mypyc it builds no set, which costs more
    than the sort; in pure Python both ways cost the same."""
    out = sorted(items)
    i = len(out) - 1
    while i > 0:
        if out[i] == out[i - 1]:
            del out[i]
        i -= 1
    return out
