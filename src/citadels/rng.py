"""A small seeded random generator whose whole state is one integer.

The game owns its randomness (DESIGN.md): the generator state lives in the game state, so a
copy of the game is a copy of an int, and the same seed gives the same game on every platform.
The mixing function is SplitMix64.

Two ways to compute the same numbers
------------------------------------
SplitMix64 works on 64-bit words: it adds a constant, and multiplies, modulo 2**64. Written
with Python ints and a ``& MASK64`` after each step, as in the interpreted branches below, it
is short and, interpreted, as fast as it gets. Compiled with mypyc it is slow: mypyc keeps an
``int`` unboxed only while it fits in 63 bits, and nearly every intermediate value here needs
64 (a product before its mask, up to 128), so each operation falls back to Python's
arbitrary-precision arithmetic and allocates.

So the compiled build computes the same function on halves: a 64-bit word is the pair
``(hi, lo)`` of its upper and lower 32 bits, held in mypyc's native ``i64`` (a C ``int64_t``;
a plain ``int`` when interpreted). The additions and xor-shifts carry bits between the two
halves (:func:`_advance`, :func:`_mix`); the products modulo 2**64 are taken digit by digit
(:func:`_times`, its docstring shows how), each partial product of a 32-bit half by a 16-bit
digit of the constant, so no value ever reaches 2**52. mypyc documents ``i64`` arithmetic as
unchecked, with overflow undefined: that bound is what makes the code exact, and the same
numbers as the plain formulas for every state, compiled or not (tests/test_rng.py checks both
ways against a reference, in both engines). Only the state passed in and the numbers handed
back are Python ints.

Which way runs is decided once, at import: :data:`_INTERPRETED` is true when this module runs
as Python source (its functions are then plain Python functions). Compiled, the halves
shuffle 66 cards in about 1 µs instead of 18; interpreted, they would take 4 times longer than
the plain formulas.
"""

from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    # mypyc's native 64-bit integer; mypy_extensions is needed only to type-check and compile.
    from mypy_extensions import i64

MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_LOW32: Final = 0xFFFFFFFF
#: The longest list the compiled :func:`shuffle` draws for on halves (see there).
_HALVES_MAX_ITEMS: Final = 1 << 31


def next_state(state: int) -> tuple[int, int]:
    """Advance ``state``; return ``(new_state, 64 random bits)``."""
    if _INTERPRETED:
        state = (state + _GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return state, z ^ (z >> 31)
    hi, lo = _advance((state >> 32) & _LOW32, state & _LOW32)
    z_hi, z_lo = _mix(hi, lo)
    return (int(hi) << 32) | int(lo), (int(z_hi) << 32) | int(z_lo)


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int)."""
    return seed & MASK64


def shuffle(state: int, items: list[Any]) -> int:
    """Shuffle ``items`` in place (Fisher–Yates, from the last item down) with the generator
    at ``state``; returns the new state. The same as drawing ``j = next_state(...)[1] % (i +
    1)`` for each ``i`` in turn, with ``next_state`` written out (shuffles are on the hot path:
    every game and every round starts with one)."""
    if _INTERPRETED or len(items) > _HALVES_MAX_ITEMS:
        for i in range(len(items) - 1, 0, -1):
            state = (state + _GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        return state
    hi: i64 = (state >> 32) & _LOW32
    lo: i64 = state & _LOW32
    last: i64 = len(items) - 1
    while last > 0:
        hi, lo = _advance(hi, lo)
        z_hi, z_lo = _mix(hi, lo)
        # The 64-bit z modulo n, from its halves: (z_hi % n) * 2**32 + z_lo is congruent to
        # z and, with n at most 2**31, below 2**63.
        n: i64 = last + 1
        other: i64 = (((z_hi % n) << 32) | z_lo) % n
        items[last], items[other] = items[other], items[last]
        last -= 1
    return (int(hi) << 32) | int(lo)


# --- the 64-bit arithmetic on 32-bit halves (the compiled build's; see the module docstring) --


def _advance(hi: i64, lo: i64) -> tuple[i64, i64]:
    """The state ``(hi, lo)`` plus SplitMix64's increment 0x9E3779B97F4A7C15, modulo 2**64."""
    lo += 0x7F4A7C15
    return (hi + 0x9E3779B9 + (lo >> 32)) & _LOW32, lo & _LOW32


def _mix(hi: i64, lo: i64) -> tuple[i64, i64]:
    """SplitMix64's output for the state ``(hi, lo)``: ``z ^= z >> 30; z *= M1; z ^= z >>
    27; z *= M2; z ^= z >> 31`` on the 64-bit ``z``. A right shift by ``k`` < 32 moves the
    low ``k`` bits of ``hi`` to the top of ``lo``."""
    lo ^= ((hi << 2) | (lo >> 30)) & _LOW32
    hi ^= hi >> 30
    hi, lo = _times(hi, lo, 0xBF58, 0x476D, 0x1CE4, 0xE5B9)  # M1 = 0xBF58476D1CE4E5B9
    lo ^= ((hi << 5) | (lo >> 27)) & _LOW32
    hi ^= hi >> 27
    hi, lo = _times(hi, lo, 0x94D0, 0x49BB, 0x1331, 0x11EB)  # M2 = 0x94D049BB133111EB
    lo ^= ((hi << 1) | (lo >> 31)) & _LOW32
    hi ^= hi >> 31
    return hi, lo


def _times(hi: i64, lo: i64, c3: i64, c2: i64, c1: i64, c0: i64) -> tuple[i64, i64]:
    """``(hi, lo)`` times the constant of 16-bit digits ``c3 c2 c1 c0``, modulo 2**64.

    With ``C = (c3·2**16 + c2)·2**32 + c1·2**16 + c0`` and ``z = hi·2**32 + lo``, modulo
    2**64 ``z·C = lo·c0 + lo·c1·2**16 + (hi·c0 + hi·c1·2**16 + lo·c2 + lo·c3·2**16)·2**32``
    (``hi·(c3·2**16 + c2)·2**64`` vanishes). In the low word only ``lo·c0 + lo·c1·2**16``
    counts; of ``lo·c1`` (below 2**48), the low 16 bits go into ``low`` and the rest carries
    into the high word. In the high word only its value modulo 2**32 counts, so of
    ``hi·c1`` and ``lo·c3``, which are shifted by 16, only the low 16 bits of ``hi`` and
    ``lo`` matter. Every term is below 2**48, every sum below 2**51.
    """
    carried = lo * c1
    low = lo * c0 + ((carried & 0xFFFF) << 16)
    high = (
        (low >> 32)
        + (carried >> 16)
        + hi * c0
        + (((hi & 0xFFFF) * c1) << 16)
        + lo * c2
        + (((lo & 0xFFFF) * c3) << 16)
    )
    return high & _LOW32, low & _LOW32


#: True when this module runs as Python source, false when compiled (a compiled function is
#: not a :class:`~types.FunctionType`): which of the two ways above runs.
_INTERPRETED: Final = isinstance(seed_state, FunctionType)
