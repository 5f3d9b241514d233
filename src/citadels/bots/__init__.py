"""Bots: anything with ``choose(view, legal_actions) -> Action``, seeing only its seat's view."""

from citadels.bots.base import Bot
from citadels.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
