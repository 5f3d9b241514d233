"""The terminal driver the game draws through: Textual's own, with bidi controls left out.

Right-to-left texts carry Unicode isolates around names (FSI … PDI, see
:mod:`citadels.present.i18n`) and may carry direction marks. Textual counts them as zero cells
wide, but tmux and several terminals draw each as a cell of its own, which pushed a Persian
line's right border one or two columns out. Terminals do not lay text out by the bidi algorithm
anyway, so the driver drops these controls from what it writes: every line is then exactly as
wide as Textual measured it. The screen Textual keeps (and its screenshots) is unchanged.
"""

from __future__ import annotations

from textual.driver import Driver

from citadels.present.i18n import without_bidi_controls


def bidi_free(base: type[Driver]) -> type[Driver]:
    """A subclass of the driver ``base`` whose output has no bidi controls."""

    class BidiFreeDriver(base):  # type: ignore[valid-type,misc]
        """Textual's driver for this platform, writing no bidi controls."""

        def write(self, data: str) -> None:
            super().write(without_bidi_controls(data))

    BidiFreeDriver.__name__ = BidiFreeDriver.__qualname__ = f"BidiFree{base.__name__}"
    return BidiFreeDriver
