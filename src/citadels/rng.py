"""A small seeded random generator whose whole state is one integer.

The game owns its randomness (DESIGN.md): the generator state lives in the game state, so a
copy of the game is a copy of an int, and the same seed gives the same game on every platform.
The mixing function is SplitMix64.
"""

from __future__ import annotations

from typing import Any, Final

MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15


def next_state(state: int) -> tuple[int, int]:
    """Advance ``state``; return ``(new_state, 64 random bits)``."""
    state = (state + _GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int)."""
    return seed & MASK64


def shuffle(state: int, items: list[Any]) -> int:
    """Shuffle ``items`` in place (Fisher–Yates, from the last item down) with the generator
    at ``state``; returns the new state. The same as drawing ``j = next_state(...)[1] % (i +
    1)`` for each ``i`` in turn, with ``next_state`` written out (shuffles are on the hot path:
    every game and every round starts with one)."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + _GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state
