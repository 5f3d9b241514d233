"""A small seeded random generator whose whole state is one integer.

The game owns its randomness (DESIGN.md): the generator state lives in the game state, so a
copy of the game is a copy of an int, and the same seed gives the same game on every platform.
The mixing function is SplitMix64.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


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
